"""Turn reports and replies: engine state -> a plain context -> jinja2 text.

The context builders are pure functions of a :class:`~pbem.games.Replay`; the templates in
``templates/`` decide the layout. Every report is plain ASCII text, in the tradition of the
postal games: one report a turn that says everything (accented letters lose their accents,
anything else outside ASCII becomes ``?``).
"""

from __future__ import annotations

import functools
import json
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import jinja2

from pbem.durable import append_durably, write_atomic

from pbem.engine import shares
from pbem.engine.state import IPO, POOL
from pbem.games import Replay
from pbem.orders import format_order

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"


@functools.lru_cache(maxsize=8)
def environment(templates_dir: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """The jinja2 environment for the plain-text templates (no autoescape, strict undefined);
    one per folder, so each template is compiled once."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _ascii(text: str, form: Literal["NFKD", "NFD"] = "NFKD") -> str:
    """``text`` in ASCII: decomposed (NFKD) without its combining marks ("Zoë" -> "Zoe"),
    then anything still outside ASCII as ``?``."""
    decomposed = unicodedata.normalize(form, text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.encode("ascii", "replace").decode("ascii")


def quoted_ascii(text: str) -> str:
    """What a player wrote, in ASCII for a reply that quotes it: accents dropped ("Zoë" ->
    "Zoe"), every other non-ASCII character ``?`` -- never a look-alike, so ``"HISTORY ²"``
    is quoted as ``"HISTORY ?"``, not as a valid ``"HISTORY 2"`` (canonical decomposition,
    NFD, where the report text uses NFKD)."""
    return _ascii(text, "NFD")


def report_context(replay: Replay, *, since_seq: int, number: int, recipient: str | None = None) -> dict[str, Any]:
    """Everything a turn report shows, as plain data.

    :param since_seq: the log seq the previous report covered; actions and GM records
        (undo, pause, resume, end, replace, broadcast) after it are listed.
    :param number: this report's number in the archive.
    :param recipient: a seat name for the per-player section, or None (the GM's copy).
    """
    game, title, info, state = replay.game, replay.title, replay.info, replay.game.state
    money = title.format_money
    limit = shares.certificate_limit(state, title)
    players = []
    for name in state.seats:
        p = state.players[name]
        holdings = []
        for corp in title.corporations:
            pct = state.percent_of(name, corp.sym)
            if pct:
                pres = state.corporations[corp.sym].president == name
                holdings.append(f"{corp.sym} {pct}%{'P' if pres else ''}")
        players.append(
            {
                "name": name,
                "cash": money(p.cash),
                "certs": shares.certificate_count(state, title, name),
                "limit": limit,
                "shares": ", ".join(holdings) or "-",
                "privates": ", ".join(p.companies) or "-",
                "worth": money(game.player_value(name)),
                "priority": state.order[0] == name,
            }
        )
    corporations = []
    for corp in title.corporations:
        c = state.corporations[corp.sym]
        price = game.share_price(corp.sym)
        corporations.append(
            {
                "sym": corp.sym,
                "name": corp.name,
                "president": c.president or "-",
                "par": money(shares.par_price(state, title, corp.sym)) if c.par else "-",
                "price": money(price) if price is not None else "-",
                "treasury": money(c.cash) if c.ipoed else "-",
                "ipo": f"{state.percent_of(IPO, corp.sym)}%",
                "pool": f"{state.percent_of(POOL, corp.sym)}%",
                "floated": "yes" if c.floated else ("no" if c.ipoed else "-"),
            }
        )
    privates = []
    for company in title.companies:
        cs = state.companies[company.sym]
        privates.append(
            {
                "sym": company.sym,
                "name": company.name,
                "value": money(company.value),
                "revenue": money(company.revenue),
                "owner": cs.owner or "for sale",
            }
        )
    since = []
    for record in replay.effective:
        if record["seq"] > since_seq:
            since.append(
                {
                    "seq": record["seq"],
                    "actor": record["actor"],
                    "order": format_order(_action(record)),
                    "events": replay.events.get(record["seq"], []),
                }
            )
    for record in replay.gm:
        if record["seq"] > since_seq:
            since.append({"seq": record["seq"], "actor": record.get("actor") or "GM",
                          "order": gm_text(record), "events": []})
    since.sort(key=lambda item: int(item["seq"]))
    ended = info.ended or state.finished
    actors = [] if ended or info.paused else game.current_actors()
    options: list[str] = []
    if recipient is not None and recipient in actors:
        options = _summarize_options(game.legal_actions(recipient))
    return {
        "game_id": info.game_id,
        "number": number,
        "title": title.name,
        "variants": ", ".join(info.variants) or "none",
        "round": game.round_label(),
        "bank": money(state.bank),
        "waiting_for": game.waiting_for(),
        "paused": info.paused,
        "ended": ended,
        "since": since,
        "players": players,
        "corporations": corporations,
        "privates": privates,
        "recipient": recipient,
        "your_turn": recipient is not None and recipient in actors,
        "options": options,
        "log_seq": replay.last_seq,
    }


def gm_text(record: dict[str, Any]) -> str:
    """A GM record (``undo`` or ``gm``) as one line for a report; never the new secret."""
    data = record["data"]
    if record["kind"] == "undo":
        undone = record.get("undone") or []
        taken = ", ".join(f"#{seq}" for seq in undone) if undone else "nothing in force"
        return f"UNDO {data['to_seq']}: took back {taken}"
    command = data.get("command")
    if command == "replace":
        return f"REPLACE {data['seat']}: now played by {data['email']}"
    if command == "broadcast":
        return f"BROADCAST {data['text']}"
    return {"pause": "PAUSE: the game is paused", "resume": "RESUME: the game goes on",
            "end": "END GAME: the game is over"}.get(str(command), f"GM {command}")


def _action(record: dict[str, Any]) -> Any:
    from pbem.engine.actions import action_from_dict

    return action_from_dict(record["data"])


def _summarize_options(actions: list[Any]) -> list[str]:
    """Legal actions as short order lines, grouped so the list stays readable."""
    lines = [format_order(a) for a in actions]
    buys = [line for line in lines if line.startswith("BUY ") or line.startswith("BID ")]
    pars = [line for line in lines if line.startswith("PAR ")]
    other = [line for line in lines if line not in buys and line not in pars]
    out = list(buys)
    if pars:
        corps = sorted({line.split()[1] for line in pars})
        prices = sorted({int(line.split()[2]) for line in pars}, reverse=True)
        out.append(f"PAR <{'|'.join(corps)}> <{'|'.join(str(p) for p in prices)}>")
    out.extend(other)
    return out


def render(template: str, context: dict[str, Any], templates_dir: Path = TEMPLATES_DIR) -> str:
    """Render ``template`` with ``context``; the result is ASCII."""
    return _ascii(environment(templates_dir).get_template(template).render(**context))


@dataclass(frozen=True)
class ArchivedReport:
    """One archived report: ``number`` from 1, the log ``seq`` it covers, its file."""

    number: int
    seq: int
    path: Path


class ReportArchive:
    """The numbered reports of one game in ``<game dir>/reports/`` (never deleted)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _index_path(self) -> Path:
        return self.folder / "index.jsonl"

    def entries(self) -> list[ArchivedReport]:
        """Every archived report, oldest first."""
        path = self._index_path()
        if not path.exists():
            return []
        out = []
        for line in path.read_text().splitlines():
            if line.strip():
                d = json.loads(line)
                out.append(ArchivedReport(d["number"], d["seq"], self.folder / d["file"]))
        return out

    def latest(self) -> ArchivedReport | None:
        """The newest report, or None."""
        entries = self.entries()
        return entries[-1] if entries else None

    def for_seq(self, seq: int) -> ArchivedReport | None:
        """The report that covers log ``seq`` exactly, if one was archived."""
        return next((e for e in self.entries() if e.seq == seq), None)

    def get(self, number: int) -> ArchivedReport | None:
        """Report ``number``, or None."""
        return next((e for e in self.entries() if e.number == number), None)

    def add(self, seq: int, text: str) -> ArchivedReport:
        """Archive ``text`` as the report for log ``seq`` (idempotent per seq)."""
        existing = self.for_seq(seq)
        if existing is not None:
            return existing
        self.folder.mkdir(parents=True, exist_ok=True)
        latest = self.latest()
        number = latest.number + 1 if latest else 1
        name = f"report-{number:04d}.txt"
        path = self.folder / name
        write_atomic(path, text.encode("ascii"))
        append_durably(self._index_path(), (json.dumps({"number": number, "seq": seq, "file": name}) + "\n").encode())
        return ArchivedReport(number, seq, path)
