"""Turn reports and replies: engine state -> a plain context -> jinja2 text.

The context builders are pure functions of a :class:`~pbem.games.Replay`; the templates in
``templates/`` decide the layout. Every report is plain ASCII text, in the tradition of the
postal games: one report a turn that says everything (accented letters lose their accents,
anything else outside ASCII becomes ``?``).
"""

from __future__ import annotations

import functools
import json
import textwrap
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import jinja2

from pbem.durable import append_durably, write_atomic

from pbem import report_sections as sections
from pbem.engine import shares
from pbem.engine.routes import DEFAULT_TIME_LIMIT
from pbem.engine.state import IPO, POOL
from pbem.games import Replay
from pbem.orders import format_order

TEMPLATES_DIR = Path(str(resources.files("pbem.templates")))
"""The jinja2 templates: the repository's top-level ``templates/`` folder, which the build
ships inside the package as ``pbem.templates`` (found with :mod:`importlib.resources`)."""


@functools.lru_cache(maxsize=8)
def environment(templates_dir: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """The jinja2 environment for the plain-text templates (no autoescape, strict undefined);
    one per folder, so each template is compiled once."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["wrap"] = wrap_text
    return env


def wrap_text(text: str, indent: int = 0, hang: int = 2, width: int = 78) -> str:
    """``text`` wrapped at ``width`` columns, starting at ``indent`` spaces, continuation
    lines ``hang`` spaces deeper (the report's prose lines; tables are laid out by hand)."""
    lines = textwrap.wrap(str(text), width=width, initial_indent=" " * indent,
                          subsequent_indent=" " * (indent + hang), break_long_words=True,
                          break_on_hyphens=False)
    return "\n".join(lines) if lines else " " * indent


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


def report_context(replay: Replay, *, since_seq: int, number: int, recipient: str | None = None,
                   width: int = 132, route_time_limit: float = DEFAULT_TIME_LIMIT) -> dict[str, Any]:
    """Everything a turn report shows, as plain data.

    :param since_seq: the log seq the previous report covered; actions and GM records
        (undo, pause, resume, end, replace, broadcast) after it are listed.
    :param number: this report's number in the archive.
    :param recipient: a seat name for the per-player section, or None (the GM's copy).
    :param width: the widest line the map may use (132, or 80 for small screens: the map
        is then split into parts).
    :param route_time_limit: seconds for finding the best run shown to a corporation about
        to run its trains.
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
                **sections.corporation_extras(game, corp.sym),
                "sym": corp.sym,
                "name": corp.name,
                "president": c.president or "-",
                "par": money(shares.par_price(state, title, corp.sym)) if c.par else "-",
                "price": money(price) if price is not None else "-",
                "treasury": money(c.cash) if c.ipoed else "-",
                "ipo": f"{state.percent_of(IPO, corp.sym)}%",
                "pool": f"{state.percent_of(POOL, corp.sym)}%",
                "floated": "closed" if c.closed else "yes" if c.floated else ("no" if c.ipoed else "-"),
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
                "owner": "closed" if cs.closed else cs.owner or "for sale",
            }
        )
    private_widths = (max([3] + [len(c.sym) for c in title.companies]),
                      max([26] + [len(c.name) for c in title.companies]))
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
        options = sections.options(game, recipient, route_time_limit)
    elif recipient is None and actors:
        options = [f"{actors[0]} may:"] + sections.options(game, actors[0], route_time_limit)
    return {
        "game_id": info.game_id,
        "number": number,
        "title": title.name,
        "variants": ", ".join(info.variants) or "none",
        "auto_runs": info.auto_runs,
        "round": game.round_label(),
        "bank": money(state.bank),
        "waiting_for": game.waiting_for(),
        "paused": info.paused,
        "ended": ended,
        "since": since,
        "players": players,
        "corporations": corporations,
        "privates": privates,
        "private_widths": private_widths,
        "recipient": recipient,
        "your_turn": recipient is not None and recipient in actors,
        "options": options,
        "log_seq": replay.last_seq,
        "phase": game.state.phase,
        "deadline": info.deadline,
        "market": sections.market_lines(game, width),
        "market_markers": sections.stock_market(game)["markers"],
        "market_zones": sections.stock_market(game)["zones"],
        "trains": sections.trains_and_phase(game),
        "map": _map(game, width),
        "scores": ({p: money(v) for p, v in game.result().items()} if state.finished else {}),
    }


def _map(game: Any, width: int) -> str:
    from pbem.asciimap import render_map

    return render_map(game, width=width)


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
    if command == "deadline":
        return f"DEADLINE {data.get('text') or 'none'}"
    return {"pause": "PAUSE: the game is paused", "resume": "RESUME: the game goes on",
            "end": "END GAME: the game is over"}.get(str(command), f"GM {command}")


def _action(record: dict[str, Any]) -> Any:
    from pbem.engine.actions import action_from_dict

    return action_from_dict(record["data"])


def render(template: str, context: dict[str, Any], templates_dir: Path = TEMPLATES_DIR) -> str:
    """Render ``template`` with ``context``; the result is ASCII."""
    return _ascii(environment(templates_dir).get_template(template).render(**context))


@dataclass(frozen=True)
class ArchivedReport:
    """One archived report: ``number`` from 1, the log ``seq`` it covers, its file."""

    number: int
    seq: int
    path: Path
    round: str = ""
    time: str = ""


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
                out.append(ArchivedReport(d["number"], d["seq"], self.folder / d["file"],
                                          d.get("round", ""), d.get("time", "")))
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

    def add(self, seq: int, text: str, round_label: str = "") -> ArchivedReport:
        """Archive ``text`` as the report for log ``seq`` (idempotent per seq); the index
        also keeps the round it shows and when it was archived."""
        existing = self.for_seq(seq)
        if existing is not None:
            return existing
        self.folder.mkdir(parents=True, exist_ok=True)
        latest = self.latest()
        number = latest.number + 1 if latest else 1
        name = f"report-{number:04d}.txt"
        path = self.folder / name
        write_atomic(path, text.encode("ascii"))
        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        entry = {"number": number, "seq": seq, "file": name, "round": round_label, "time": stamp}
        append_durably(self._index_path(), (json.dumps(entry) + "\n").encode())
        return ArchivedReport(number, seq, path, round_label, stamp)
