"""The ``pbem`` command: maps sub-commands onto the pieces; holds no game logic itself.

Each command imports what it needs when it runs (the mail stack, asyncio and the server only
for the commands that mail), so a cold ``pbem report`` loads no more than the game and the
report (the issue's cold-start goal).
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Callable

import click

from pbem.actionlog import LogIntegrityError, verify
from pbem.errors import ConfigError
from pbem.games import describe_record, game_dir, list_games, open_log, replay, replay_log

if TYPE_CHECKING:
    from pbem.config import Config
    from pbem.server import Mailroom


def _config(path: str | None) -> Config:
    """The config at ``path`` (or the embedded default), its ``data_dir`` replaced by the
    command's ``--data`` where given."""
    from pbem.config import load_config

    try:
        config = load_config(Path(path) if path else None)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None
    data = click.get_current_context().meta.get(DATA_KEY)
    return config.model_copy(update={"data_dir": data}) if data is not None else config


def mailroom_for(config: Config) -> Mailroom:
    """A mailroom on the config's data directory."""
    from pbem.server import Mailroom, MailroomSettings

    return Mailroom(
        MailroomSettings(
            data_dir=config.data_dir,
            address=config.server.address,
            server_id=config.server.id,
            max_message_bytes=config.limits.max_message_bytes,
            max_lines=config.limits.max_lines,
            error_replies_per_hour=config.limits.error_replies_per_hour,
            error_replies_per_hour_authenticated=config.limits.error_replies_per_hour_authenticated,
            stranger_mail_retention_days=config.limits.stranger_mail_retention_days,
            route_budget=config.routes.search_budget,
            pictures=config.reports.pictures,
            organisers=tuple(config.signup.organisers),
            # unset: OPEN by mail is refused as unconfigured, the rest of the CLI still works
            organiser_password=os.environ.get(config.signup.password_env or "") or None,
        )
    )


DATA_KEY = "pbem.data_dir"


def _keep_data(ctx: click.Context, _param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta[DATA_KEY] = Path(value)


_config_flag = click.option(
    "--config", "config_path", type=click.Path(dir_okay=False), default=None,
    help="YAML config (see config.example.yaml); default: the embedded Maildir setup in ./pbem-data",
)
_data_flag = click.option(
    "--data", type=click.Path(file_okay=False), default=None, expose_value=False, callback=_keep_data,
    is_eager=True, help="the data directory, instead of the config's (e.g. pbem-demo: the demo's games)",
)


def config_option(command: Callable[..., None]) -> Callable[..., None]:
    """``--config FILE`` and ``--data DIR`` for a command that reads the config."""
    return _config_flag(_data_flag(command))


@click.group()
@click.version_option(package_name="pbem", prog_name="pbem")
@click.option("-v", "--verbose", is_flag=True, help="log what the server does")
def main(verbose: bool) -> None:
    """pbem: a play-by-email server for 18xx railway games."""
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(levelname)s %(message)s")


@main.command("open-game")
@config_option
@click.argument("game_id")
@click.option("--title", required=True, help="title, e.g. 1830")
@click.option("--variant", "variants", multiple=True, help="a variant to switch on (repeatable)")
@click.option("--players", type=int, required=True, help="the number of seats")
@click.option("--gm", "gm_email", required=True, help="the game master's address")
@click.option("--random-seating/--listed-seating", "random_seating", default=None,
              help="draw the seating order at random when it starts, or seat players as they joined")
@click.option("--mail", "mail", type=click.Choice(["every", "turn", "round"]), default="turn", show_default=True,
              help="the players' default MAIL setting")
def open_game(config_path: str | None, game_id: str, title: str, variants: tuple[str, ...], players: int,
              gm_email: str, random_seating: bool | None, mail: str) -> None:
    """Open a game for players to join by mail (LIST, JOIN <game>); it starts when its seats are full."""
    from pbem.signup import OpenGame, open_game

    room = mailroom_for(_config(config_path))
    try:
        open_game(room, OpenGame(game_id, title, tuple(variants), players, gm_email.strip(), random_seating, mail))
    except (ConfigError, FileExistsError) as exc:
        raise click.ClickException(str(exc)) from None
    click.echo(f"{game_id} is open for {players} players: they send JOIN {game_id} to {room.settings.address}")


@main.command("games")
@config_option
def games(config_path: str | None) -> None:
    """List the games open for players and those running."""
    from pbem.signup import open_games, running_games

    room = mailroom_for(_config(config_path))
    waiting = open_games(room.data)
    click.echo("Open for players:\n" + ("\n".join(f"  {g.line()}" for g in waiting) or "  none"))
    click.echo("Running:\n" + ("\n".join(f"  {line}" for line in running_games(room)) or "  none"))


@main.command("new-game")
@config_option
@click.argument("game_id")
@click.option("--title", required=True, help="title, e.g. 1830")
@click.option("--variant", "variants", multiple=True, help="a variant to switch on (repeatable)")
@click.option("--seat", "seats", multiple=True, required=True, metavar="NAME=EMAIL",
              help="a seat in seating order (repeatable)")
@click.option("--gm", "gm_email", required=True, help="the game master's address")
@click.option("--auto-runs", is_flag=True, help="a run left out of the orders is made by the server (RUN AUTO)")
@click.option("--random-seating/--listed-seating", "random_seating", default=None,
              help="draw the seating order at random, or keep the order the seats are listed in "
                   "(default: as the title and variants say; most keep the listed order)")
@click.option("--mail", "mail", type=click.Choice(["every", "turn", "round"]), default="turn", show_default=True,
              help="the players' default: the full report after every move, on their turn and when a round "
                   "ends, or when a round ends only (each player may choose with MAIL)")
@click.option("--timing", "timings", multiple=True, metavar="ROUND=HOURS[:POLICY]",
              help="time allowed in auction, stock or operating rounds and what happens then: wait (the GM "
                   "is told), pass or default, e.g. stock=48:pass (repeatable)")
def new_game(config_path: str | None, game_id: str, title: str, variants: tuple[str, ...],
             seats: tuple[str, ...], gm_email: str, auto_runs: bool, random_seating: bool | None,
             mail: str, timings: tuple[str, ...]) -> None:
    """Create a game and mail each player a welcome with their seat and secret.

    Everything (seats, addresses, title, the outgoing mail setup) is checked before the game
    is created, so a refused new-game leaves nothing behind."""
    import asyncio

    from pbem.transport.factory import outbound_from_config

    config = _config(config_path)
    pairs = []
    for seat in seats:
        if "=" not in seat:
            raise click.BadParameter(f"{seat!r}: write NAME=EMAIL", param_hint="--seat")
        name, email = seat.rsplit("=", 1)
        pairs.append((name.strip(), email.strip()))
    timing: dict[str, tuple[int, str]] = {}
    for entry in timings:
        kind, _, rest = entry.partition("=")
        hours, _, policy = rest.partition(":")
        if not hours.isdigit():
            raise click.BadParameter(f"{entry!r}: write ROUND=HOURS[:POLICY], e.g. stock=48:pass",
                                     param_hint="--timing")
        timing[kind.strip().lower()] = (int(hours), policy.strip().lower() or "wait")
    room = mailroom_for(config)
    try:
        outbound = outbound_from_config(config)
        secrets = room.new_game(game_id, title, variants, pairs, gm_email.strip(), auto_runs=auto_runs,
                                random_seating=random_seating, timing=timing, mail=mail)
    except (ConfigError, FileExistsError) as exc:
        raise click.ClickException(str(exc)) from None
    if config.inbound.kind == "maildir":  # the inbox exists at once: mail may be dropped in
        from pbem.transport.maildir import MaildirInbound

        inbox = config.under_data(config.inbound.maildir.path)
        asyncio.run(MaildirInbound(inbox).connect())
        click.echo(f"Inbox: {inbox} (a Maildir: deliver order mail into its new/ folder)")
    click.echo(f"Created {game_id} ({title}); welcome mails queued for {len(pairs)} players.")
    click.echo(f"GM secret: {secrets['GM']}")
    result = asyncio.run(room.drain(outbound))
    click.echo(f"Mail sent: {len(result.sent)}; waiting: {len(result.deferred)}; failed: {len(result.failed)}")


@main.command()
@config_option
@click.option("--once", is_flag=True, help="one pass over the inbox, then stop")
def serve(config_path: str | None, once: bool) -> None:
    """Poll the inbox and play the games (until stopped, or --once)."""
    import asyncio

    from pbem.poller import StorageFault
    from pbem.server import Server, summary
    from pbem.transport.factory import inbound_from_config, outbound_from_config

    config = _config(config_path)
    try:
        server = Server(mailroom_for(config), inbound_from_config(config), outbound_from_config(config))
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from None

    # serve reports what it does: a line per mail and per pass (more with -v)
    logging.getLogger("pbem.server").setLevel(logging.INFO)

    async def run() -> None:
        if once:
            await server.start()
            try:
                click.echo(json.dumps(summary(await server.run_once())))
            finally:
                await server.inbound.close()
        else:
            await server.serve(config.poll_interval)

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass
    except StorageFault as fault:  # --once: nothing lost, the mail stays in the inbox
        raise click.ClickException(f"the data directory cannot be written: {fault.error}; "
                                   "the mail stays in the inbox") from None


def _no_game(config: Config, game_id: str) -> click.ClickException:
    """No ``game_id`` in the data directory: the games there, and where the demo's game is."""
    known = ", ".join(list_games(config.data_dir)) or "none"
    hint = ""
    demo = Path("pbem-demo")
    if demo.resolve() != config.data_dir.resolve() and game_id in list_games(demo):
        hint = f"; the demo's game is in {demo}: add --data {demo}"
    return click.ClickException(f"no game {game_id!r} in {config.data_dir} (games: {known}){hint}")


def _replay_or_fail(config: Config, game_id: str):  # type: ignore[no-untyped-def]
    try:
        return replay_log(open_log(config.data_dir, game_id))
    except LogIntegrityError as exc:
        raise click.ClickException(str(exc)) from None
    except KeyError:
        raise _no_game(config, game_id) from None


@main.command()
@config_option
@click.argument("game_id")
@click.option("--width", type=click.Choice(["80", "132"]), default="132", show_default=True,
              help="widest line; at 80 the map is split into parts")
@click.option("--seat", default=None, help="add the section for this seat (default: the GM's copy)")
def report(config_path: str | None, game_id: str, width: str, seat: str | None) -> None:
    """Print the current turn report of GAME_ID."""
    from pbem.report_archive import ReportArchive
    from pbem.reports import render, report_context

    config = _config(config_path)
    rebuilt = _replay_or_fail(config, game_id)
    if seat is not None:
        found = rebuilt.info.seat_named(seat)
        if found is None:
            seats = ", ".join(s.name for s in rebuilt.info.seats)
            raise click.ClickException(f"no seat {seat!r} in {game_id} (seats: {seats})")
        seat = found.name
    archive = ReportArchive(game_dir(config.data_dir, game_id) / "reports")
    latest = archive.latest()
    click.echo(render("report.txt.j2", report_context(
        rebuilt, since_seq=latest.seq if latest and latest.seq < rebuilt.last_seq else
        (archive.entries()[-2].seq if len(archive.entries()) > 1 else 0),
        number=latest.number if latest else 0, recipient=seat, width=int(width),
        route_budget=config.routes.search_budget)), nl=False)


@main.command("map")
@config_option
@click.argument("game_id")
@click.option("--png", "png_path", type=click.Path(dir_okay=False), default=None, help="write the board as a PNG")
@click.option("--svg", "svg_path", type=click.Path(dir_okay=False), default=None, help="write the board as an SVG")
@click.option("--width", type=click.IntRange(min=200, max=8000), default=1600, show_default=True,
              help="pixels across the PNG")
def map_cmd(config_path: str | None, game_id: str, png_path: str | None, svg_path: str | None, width: int) -> None:
    """Draw GAME_ID's board as it stands now (the picture the reports' mails carry)."""
    from pbem.picture.board_svg import board_svg
    from pbem.picture.raster import svg_to_png

    if png_path is None and svg_path is None:
        raise click.UsageError("name a file: --png FILE and/or --svg FILE")
    svg = board_svg(_replay_or_fail(_config(config_path), game_id).game)
    if svg_path is not None:
        Path(svg_path).write_text(svg)
        click.echo(f"{svg_path}: {len(svg.encode()) // 1024} KB")
    if png_path is not None:
        png = svg_to_png(svg, width=width)
        Path(png_path).write_bytes(png)
        click.echo(f"{png_path}: {len(png) // 1024} KB, {width} pixels across")


@main.command("archive")
@config_option
@click.argument("game_id")
@click.option("--html", "html_dir", type=click.Path(file_okay=False), default=None,
              help="write the game's archive as web pages into this folder (to publish anywhere)")
def archive_cmd(config_path: str | None, game_id: str, html_dir: str | None) -> None:
    """List the archived turn reports of GAME_ID (players get report n with HISTORY n);
    with --html DIR, write its archive as web pages: reports, boards, log and charts."""
    from pbem.report_archive import ReportArchive

    config = _config(config_path)
    if game_id not in list_games(config.data_dir):
        raise _no_game(config, game_id)
    if html_dir is not None:
        write_archive(config, game_id, Path(html_dir))
        return
    entries = ReportArchive(game_dir(config.data_dir, game_id) / "reports").entries()
    if not entries:
        click.echo(f"{game_id}: no reports yet")
    for entry in entries:
        click.echo(f"report {entry.number:>4}  log #{entry.seq:<5} {entry.round:<16} {entry.time:<20} {entry.path}")


@main.command("log")
@config_option
@click.argument("game_id")
def show_log(config_path: str | None, game_id: str) -> None:
    """Print the action log of GAME_ID readably."""
    from pbem.ruleset import load_title
    from pbem.orders import Vocabulary

    config = _config(config_path)
    try:
        action_log = open_log(config.data_dir, game_id)
        genesis = action_log.genesis
    except KeyError:
        raise _no_game(config, game_id) from None
    except LogIntegrityError as exc:
        raise click.ClickException(str(exc)) from None
    vocab = Vocabulary.from_title(load_title(genesis["title"], tuple(genesis.get("variants", ()))))
    for r in action_log.records:
        text = describe_record(r, vocab)
        by = f" (by {r.by})" if r.by else ""
        click.echo(f"#{r.seq:<5} {r.time}  {r.actor:<12} {text}{by}")


@main.command("verify")
@config_option
@click.argument("game_id")
def verify_cmd(config_path: str | None, game_id: str) -> None:
    """Check GAME_ID's log (hash chain, order, truncation), then replay it."""
    config = _config(config_path)
    path = game_dir(config.data_dir, game_id) / "log.jsonl"
    if not path.exists():
        raise _no_game(config, game_id)
    try:
        records = verify(path)
        rebuilt = replay(records)
    except LogIntegrityError as exc:
        click.echo(f"FAILED: {exc}", err=True)
        sys.exit(1)
    click.echo(f"OK: {len(records)} records, hash chain intact; replayed to {rebuilt.game.round_label()}")


@main.command("import-18xx")
@config_option
@click.argument("record_path", type=click.Path(dir_okay=False, exists=True))
@click.option("--game", "game_id", required=True, help="id of the game to create")
@click.option("--gm", "gm_email", default="gm@import.invalid", show_default=True, help="the GM's address")
def import_18xx(config_path: str | None, record_path: str, game_id: str, gm_email: str) -> None:
    """Create a game from an 18xx.games record: each action as its order line, undos kept.

    Seats get placeholder addresses; the GM gives them to players with REPLACE."""
    from pbem.importers.e18xx import UnsupportedRecordAction, load_record
    from pbem.importers.log_import import create_imported_game

    config = _config(config_path)
    try:
        secrets, imported = create_imported_game(config.data_dir, game_id, load_record(Path(record_path)), gm_email)
    except (UnsupportedRecordAction, ConfigError) as exc:
        raise click.ClickException(str(exc)) from None
    except FileExistsError:
        raise click.ClickException(f"game {game_id} already exists") from None
    try:  # the game as its log replays, kept as its snapshot: the first report is quick too
        replay_log(open_log(config.data_dir, game_id))
    except LogIntegrityError as exc:
        raise click.ClickException(f"the imported game does not replay: {exc}") from None
    game = imported.renderer.game
    click.echo(f"Imported {game_id}: {imported.applied} actions, {imported.undos} undos; now {game.round_label()}"
               + (f" (finished: {game.state.end_reason})" if game.state.finished else ""))
    for left_out in imported.left_out:
        click.echo(f"  left out record action {left_out} (the record takes it back)")
    for seat, secret in secrets.items():
        click.echo(f"  {seat}: secret {secret}")


@main.command("export-18xx")
@config_option
@click.argument("game_id")
@click.option("--out", "out_path", type=click.Path(dir_okay=False), default=None,
              help="write the record here (default: print it)")
def export_18xx(config_path: str | None, game_id: str, out_path: str | None) -> None:
    """Write a game's log as an 18xx.games record (JSON), for the platform's hotseat import."""
    from pbem.exporters.e18xx import export_log
    from pbem.exporters.records import UnsupportedExport

    config = _config(config_path)
    try:
        record = export_log(open_log(config.data_dir, game_id).records)
    except KeyError:
        raise click.ClickException(f"no game {game_id}") from None
    except (UnsupportedExport, LogIntegrityError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from None
    text = json.dumps(record.to_json(), indent=1) + "\n"
    if out_path is None:
        click.echo(text, nl=False)
        return
    Path(out_path).write_text(text, encoding="utf-8")
    click.echo(f"Exported {game_id}: {len(record.actions)} record actions to {out_path}", err=True)


@main.command("replay-18xx")
@click.argument("record_path", type=click.Path(dir_okay=False, exists=True))
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
def replay_18xx(record_path: str, as_json: bool) -> None:
    """Replay an 18xx.games record through the order language and the engine.

    Exits 0 only if every action in force was accepted (and every run's revenue agreed)."""
    from pbem.importers.e18xx import load_record
    from pbem.importers.replay import replay_record

    outcome = replay_record(load_record(Path(record_path)))
    if as_json:
        click.echo(json.dumps(outcome.to_json(), sort_keys=True))
    else:
        click.echo(f"{outcome.title}: {outcome.actions_applied} actions applied, {outcome.runs_checked} runs checked; "
                   f"finished={outcome.finished} ({outcome.game_end_reason}); result {outcome.result}")
        if outcome.gm_rulings:
            click.echo(f"GM rulings stood in for the platform's engine at record actions {', '.join(outcome.gm_rulings)}")
    if outcome.error:
        click.echo(f"FAILED at record action {outcome.failed_action}: {outcome.error}", err=True)
        sys.exit(1)


@main.command("routes-18xx")
@click.argument("record_path", type=click.Path(dir_okay=False, exists=True))
@click.option("--json", "as_json", is_flag=True, help="print one JSON object")
@click.option("--budget", type=int, default=None, help="search steps per search (default: 500,000)")
def routes_18xx(record_path: str, as_json: bool, budget: int | None) -> None:
    """Check every recorded run of an 18xx.games record against the route optimiser.

    Exits 1 if the replay stopped, a recorded run's revenue disagreed with ours, or an
    optimum came out below a recorded revenue."""
    from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
    from pbem.importers.e18xx import load_record
    from pbem.importers.route_check import check_routes

    report, outcome = check_routes(load_record(Path(record_path)), budget or DEFAULT_SEARCH_BUDGET)
    summary = report["summary"]
    if as_json:
        click.echo(json.dumps(report, sort_keys=True))
    else:
        for run in report["runs"]:
            click.echo(f"{run['action_id']:>8} {run['corporation']:<5} recorded {run['recorded_revenue']:>5} "
                       f"verified {run['verified_revenue']!s:>5} optimal {run['optimal_revenue']:>5} "
                       f"{run['ms']:>9.1f} ms{'' if run['complete'] else ' (budget used up)'}")
        click.echo(f"{summary['runs']} runs; optimum >= recorded in {summary['optimal_at_least_recorded']}; "
                   f"median {summary['median_ms']:.1f} ms, p95 {summary['p95_ms']:.1f} ms, max {summary['max_ms']:.1f} ms")
    if outcome.error:
        click.echo(f"replay stopped at record action {outcome.failed_action}: {outcome.error}", err=True)
        sys.exit(1)
    if summary["optimal_at_least_recorded"] < summary["runs"]:
        click.echo("an optimum below the recorded revenue: a fault of the optimiser", err=True)
        sys.exit(1)


@main.command()
@config_option
@click.argument("mail_files", nargs=-1, required=True, type=click.Path(dir_okay=False, exists=True))
def deliver(config_path: str | None, mail_files: tuple[str, ...]) -> None:
    """Put mail files (RFC 5322, as a mail program saves them) in the embedded inbox, as a
    mail server would deliver them; `pbem serve --once` then reads them."""
    from pbem.transport.maildir import deliver_to_inbox

    config = _config(config_path)
    if config.inbound.kind != "maildir":
        raise click.ClickException("the inbox is an IMAP mailbox here: mail the server's address instead")
    inbox = config.under_data(config.inbound.maildir.path)
    for name in mail_files:
        deliver_to_inbox(inbox, Path(name).read_bytes())
    click.echo(f"{len(mail_files)} mail(s) put in {inbox}; the server reads them on its next pass")


@main.command()
@click.option("--data", "data_dir", type=click.Path(file_okay=False), default="pbem-demo",
              help="where the demo keeps its game and mail (default ./pbem-demo)")
@click.option("--record", "record_path", type=click.Path(dir_okay=False, exists=True), default=None,
              help="play the opening of any 18xx.games record instead of the built-in one")
@click.option("--mails", "limit", type=click.IntRange(min=1), default=None,
              help="play only the first N order mails")
@click.option("--pictures/--no-pictures", default=True, show_default=True,
              help="show the board as a picture in the reports' mails")
def demo(data_dir: str, record_path: str | None, limit: int | None, pictures: bool) -> None:
    """Play a recorded 1830 opening by mail on the embedded default and print the report."""
    from pbem.demo import DemoError, run_demo

    try:
        run_demo(Path(data_dir), Path(record_path) if record_path else None, echo=click.echo, limit=limit,
                 pictures=pictures)
    except (DemoError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from None


def write_archive(config: Config, game_id: str, folder: Path) -> None:
    """``pbem archive GAME --html DIR``: the game's archive written as files into ``folder``."""
    from pbem.site.build import board_picture, build_site, write_site

    picture = board_picture()
    try:
        site = build_site(config.data_dir, game_id, picture=picture, route_budget=config.routes.search_budget)
        write_site(site, folder)
    except LogIntegrityError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write the archive into {folder}: {exc.strerror or exc}") from None
    click.echo(f"Wrote the archive of {game_id} into {folder}: {len(site.files)} files, {site.reports} reports, "
               f"{site.boards} board pictures; open {folder / 'index.html'}")
    if picture is None:
        click.echo("  (no board pictures: this install has no board drawing)")


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this machine's loopback."""
    import ipaddress

    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@main.command("web")
@config_option
@click.option("--host", default=None, help="the address to serve on (default: the config's web.host, 127.0.0.1)")
@click.option("--port", type=click.IntRange(0, 65535), default=None,
              help="the port (default: the config's web.port, 8018; 0: any free port)")
def web(config_path: str | None, host: str | None, port: int | None) -> None:
    """Serve the games' archives read-only over HTTP (until stopped): reports, boards, log, charts."""
    from pbem.site.build import board_picture
    from pbem.site.web import Archives, make_server

    config = _config(config_path)
    archives = Archives(config.data_dir, board_picture(), config.routes.search_budget)
    try:
        server = make_server(archives, host or config.web.host, config.web.port if port is None else port)
    except OSError as exc:
        raise click.ClickException(f"cannot serve on {host or config.web.host}:{port or config.web.port}: "
                                   f"{exc.strerror or exc}") from None
    bound_host, bound_port = server.server_address[:2]
    click.echo(f"Serving the archives of {config.data_dir} read-only at http://{bound_host!s}:{bound_port}/ "
               "(Ctrl-C stops)")
    if not is_loopback(str(bound_host)):
        click.echo("  (not the loopback: whoever reaches this address can read every game's archive)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":  # pragma: no cover
    main()
