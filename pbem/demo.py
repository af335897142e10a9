"""``pbem demo``: a recorded 1830 opening played by mail on the embedded default.

It creates the game, writes each move as the order mail its player would send, drops each
into the Maildir inbox, runs the poller, and prints the last turn report and where each
player's reports were written. Nothing but the install is needed.
"""

from __future__ import annotations

import asyncio
import re
import shutil
import time
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any, Callable

import yaml

from pbem.ruleset import files as ruleset_files
from pbem import reports
from pbem.server import Mailroom, MailroomSettings, Server
from pbem.transport.maildir import MaildirInbound, MaildirOutbound, deliver_to_inbox

DEMO_MARKER = ".pbem-demo"
SERVER_ADDRESS = "pbem@demo.invalid"


class DemoError(RuntimeError):
    """The demo cannot run: the folder is not a demo's, the rules or templates are missing,
    or a mail of the script was rejected."""


def _check_install() -> None:
    """The title data and the templates ship inside the package (``pbem.rules``,
    ``pbem.templates``); an incomplete install is named rather than failing later.

    :raises DemoError: a folder or a file the demo needs is missing from the install.
    """
    needed = (("rules", ruleset_files.RULES_DIR, "1830/game.yaml"),
              ("templates", reports.TEMPLATES_DIR, "report.txt.j2"))
    for what, folder, sample in needed:
        if not (folder / sample).is_file():
            raise DemoError(
                f"the {what} folder {folder} is missing or incomplete ({sample} not found): the "
                "install is broken; install pbem again: python3 -m pip install <the pbem source folder>")


def builtin_script() -> dict[str, Any]:
    """The built-in demo: the opening of a recorded 3-player game of 1830."""
    text = resources.files("pbem.demodata").joinpath("1830-opening.yaml").read_text(encoding="utf-8")
    data: dict[str, Any] = yaml.safe_load(text)
    return data


def script_from_record(path: Path, limit: int | None = None) -> dict[str, Any]:
    """A demo script from an 18xx.games record: every action up to the first one this
    version cannot play, one mail per order, in a game with the record's options (its
    ``settings.optional_rules`` as our variants, as ``import-18xx`` reads them). A GM ruling
    the importer renders (1870's ``CONNECT``) is mailed by the GM as ``ACT AS <seat>
    <ruling>``, and the record's ``end_game`` as the GM's ``END GAME``. With ``limit``, only
    the first ``limit`` mails.

    :raises DemoError: the record's title, or an option of it, is not supported.
    """
    from pbem.importers.e18xx import ImportedGameEnd, Renderer, UnsupportedRecordAction, load_record, record_variants

    record = load_record(path)
    try:
        variants = record_variants(record)
        renderer = Renderer(record)
    except UnsupportedRecordAction as exc:
        raise DemoError(f"{path.name} cannot be played: {exc}") from None
    seats: list[dict[str, str]] = []
    for n, name in enumerate(renderer.names.values(), start=1):
        # a mail address from the player's name: only letters, digits, '.', '_' and '-'
        local = re.sub(r"[^a-z0-9._-]", "", name.lower()).strip(".") or f"player{n}"
        if any(s["email"] == f"{local}@demo.invalid" for s in seats):
            local = f"{local}-{n}"
        seats.append({"name": name, "email": f"{local}@demo.invalid"})
    mails: list[dict[str, Any]] = []
    stopped = ""
    try:
        for order in renderer.orders():
            if limit is not None and len(mails) >= limit:
                break
            if isinstance(order, ImportedGameEnd):
                mails.append({"from": "GM", "orders": [order.line]})
            elif order.action.gm_only:
                mails.append({"from": "GM", "orders": [f"ACT AS {order.seat} {order.line}"]})
            else:
                mails.append({"from": order.seat, "orders": [order.line]})
    except UnsupportedRecordAction as exc:
        stopped = str(exc)
    return {
        "title": str(record["title"]),
        "game_id": f"demo-{record['title']}",
        "variants": list(variants),
        "seats": seats,
        "gm": "gm@demo.invalid",
        "mails": mails,
        "stopped": stopped,
    }


def order_mail(sender: str, game_id: str, secret: str, orders: list[str], n: int, when: datetime) -> bytes:
    """An order mail as a player's mail program would send it at ``when``."""
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = SERVER_ADDRESS
    msg["Subject"] = f"[{game_id}] orders"
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = make_msgid(f"demo{n}", domain="demo.invalid")
    msg.set_content("PASSWORD " + secret + "\n" + "\n".join(orders) + "\n\n-- \nsent by pbem demo\n")
    return msg.as_bytes()


def run_demo(data_dir: Path, record: Path | None, *, echo: Callable[[str], Any] = print,
             timings: list[float] | None = None, script: dict[str, Any] | None = None,
             limit: int | None = None, pictures: bool = True) -> Path:
    """Run the demo in ``data_dir`` (a previous demo there is replaced); returns the path of
    the last report. ``timings`` (if given) receives the seconds each poller pass took;
    ``script`` (if given) is played instead of the record or the built-in opening; ``limit``
    (if given) plays only the first ``limit`` mails; ``pictures``: the reports' mails show
    the board (drawing each takes about half a second).

    :raises DemoError: ``data_dir`` holds something that is not a demo, the rules or
        templates folder is missing, or a mail of the script was rejected.
    """
    _check_install()
    if script is None:
        script = script_from_record(record, limit) if record else builtin_script()
    if limit is not None:
        script = {**script, "mails": script["mails"][:limit]}
    if data_dir.exists():
        if not (data_dir / DEMO_MARKER).exists():
            raise DemoError(f"{data_dir} exists and is not a pbem demo folder; choose another --data")
        shutil.rmtree(data_dir)
    data_dir.mkdir(parents=True)
    (data_dir / DEMO_MARKER).write_text("created by pbem demo\n")
    room = Mailroom(MailroomSettings(data_dir=data_dir, address=SERVER_ADDRESS, server_id="pbem-demo",
                                     error_replies_per_hour=1000, pictures=pictures))
    inbox = data_dir / "mail" / "inbox"
    delivered = data_dir / "mail" / "delivered"
    server = Server(room, MaildirInbound(inbox), MaildirOutbound(delivered))
    game_id = script["game_id"]
    seats = [(s["name"], s["email"]) for s in script["seats"]]
    secrets = room.new_game(game_id, script["title"], tuple(script.get("variants", ())), seats, script["gm"],
                            auto_runs=bool(script.get("auto_runs", False)))
    addresses = {name: email for name, email in seats}
    addresses["GM"] = script["gm"]
    echo(f"Created {game_id} ({script['title']}) for {', '.join(n for n, _ in seats)}; GM {script['gm']}")

    async def play() -> list[float]:
        spent = []
        await server.inbound.connect()
        try:
            await room.drain(server.outbound)
            for n, mail in enumerate(script["mails"], start=1):
                who = mail["from"]
                raw = order_mail(addresses[who], game_id, secrets[who], list(mail["orders"]), n,
                                 datetime.fromtimestamp(room.clock(), timezone.utc))
                deliver_to_inbox(inbox, raw)
                start = time.perf_counter()
                result = await server.run_once()
                spent.append(time.perf_counter() - start)
                if result.outcomes.get("processed", 0) != 1:
                    raise DemoError(f"mail {n} from {who} ({'; '.join(mail['orders'])}) was not accepted; "
                                    f"see the reply in {delivered}")
        finally:
            await server.inbound.close()
        return spent

    passes = asyncio.run(play())
    if timings is not None:
        timings.extend(passes)
    archive = room.archive(game_id)
    latest = archive.latest()
    assert latest is not None
    echo(f"Played {len(script['mails'])} order mails through the inbox; "
         f"median {sorted(passes)[len(passes) // 2] * 1000:.1f} ms from inbox to reports written.")
    if script.get("stopped"):
        echo(f"Stopped before: {script['stopped']}")
    echo("")
    echo(latest.path.read_text().rstrip("\n"))
    echo("")
    echo(f"Reports archived in {archive.folder}")
    echo("Each player's mail (welcome, reports, replies) was delivered to:")
    for name, email in list(seats) + [("GM", script["gm"])]:
        echo(f"  {name:<10} {server.outbound.folder_for(email)}")  # type: ignore[attr-defined]
    echo(f"Look again: pbem report {game_id} --data {data_dir}; pbem archive {game_id} --data {data_dir}; "
         f"pbem log {game_id} --data {data_dir}")
    return latest.path
