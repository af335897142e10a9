"""A game's archive as files: :func:`build_site` makes every page and picture from the data
directory (nothing is written there), :func:`write_site` puts them in a folder.

The files: ``index.html`` (the game now: its facts, the board, the latest report),
``reports.html`` and ``report-NNNN.html`` (each archived report with the board as it stood
then), ``log.html``, ``charts.html``, and the board pictures ``map-<digest>.svg`` (a board
that did not change between reports is one file). The log is replayed once
(:func:`pbem.site.history.walk`).
"""

from __future__ import annotations

import hashlib
import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, cast

from pbem.application.state import Replay, Undone
from pbem.engine.game import Game
from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
from pbem.games import game_dir, open_log
from pbem.order_codecs import Vocabulary
from pbem.report_archive import ArchivedReport, ReportArchive
from pbem.site.charts import charts
from pbem.site.history import History, round_start, walk
from pbem.site.pages import (GameFacts, ReportEntry, charts_page, index_page, log_page, report_page,
                             reports_page)
from pbem.site.public import public_log, public_report

Picture = Callable[[Game], str]
"""Draws the board of a game as a whole SVG document."""


def board_picture() -> Picture | None:
    """The board's picture (:func:`pbem.picture.board_svg.board_svg`), or None in an
    install without it (the pages then say there is no picture)."""
    try:
        module = importlib.import_module("pbem.picture.board_svg")
    except ModuleNotFoundError as exc:
        if exc.name in ("pbem.picture", "pbem.picture.board_svg"):
            return None
        raise
    draw = getattr(module, "board_svg", None)
    return cast(Picture, draw) if callable(draw) else None


@dataclass(frozen=True)
class Site:
    """A game's archive: ``files`` by name (relative, no folders), with counts."""

    game_id: str
    files: Mapping[str, bytes] = field(repr=False)
    reports: int = 0
    boards: int = 0


def status_of(state: Replay) -> str:
    """Whether the game is over, ended, paused, or whom it waits for."""
    game = state.game
    if game.state.finished:
        return f"over ({game.state.end_reason})"
    if state.info.ended:
        return "ended by the GM"
    if state.info.paused:
        return "paused by the GM"
    return "next: " + game.waiting_for()


def facts_of(state: Replay, games_link: str | None) -> GameFacts:
    """The facts the pages' headers show."""
    return GameFacts(game_id=state.info.game_id, title=state.title.name, variants=state.info.variants,
                     players=tuple(s.name for s in state.info.seats), round=state.game.round_label(),
                     phase=state.game.state.phase, status=status_of(state), games_link=games_link)


def current_report(history: History[str | None], route_budget: int) -> str:
    """The GM's copy of the report of the game now, covering the current round (for a game
    with no archived report: an imported one)."""
    from pbem.reports import render, report_context

    text = render("report.txt.j2", report_context(history.final, since_seq=round_start(history), number=0,
                                                  recipient=None, width=132, route_budget=route_budget))
    return text.replace("the opening report", "as it stands now", 1) if history.samples else text


def build_site(data_dir: Path, game_id: str, *, picture: Picture | None = None,
               route_budget: int = DEFAULT_SEARCH_BUDGET, games_link: str | None = None) -> Site:
    """Every file of ``game_id``'s archive; ``picture`` draws the boards (None: none drawn),
    ``games_link`` links the list of games from each page.

    :raises KeyError: no such game.
    :raises LogIntegrityError: the log is damaged or no longer replays.
    """
    action_log = open_log(data_dir, game_id)
    entries: list[ArchivedReport] = ReportArchive(game_dir(data_dir, game_id) / "reports").entries()
    draw: Callable[[Game], str | None] = picture if picture is not None else (lambda game: None)
    history = walk(action_log.records, [(e.number, e.seq) for e in entries], draw)
    final = history.final
    files: dict[str, bytes] = {}

    def keep(svg: str | None) -> str | None:
        if svg is None:
            return None
        data = svg.encode("utf-8")
        name = f"map-{hashlib.sha256(data).hexdigest()[:16]}.svg"
        files[name] = data
        return name

    facts = facts_of(final, games_link)
    listed = [ReportEntry(e.number, e.seq, e.round, e.time) for e in entries]
    texts = [public_report(e.path.read_text(encoding="utf-8", errors="replace")) for e in entries]
    for n, (entry, text) in enumerate(zip(listed, texts)):
        files[entry.page] = report_page(facts, entry, keep(history.pictures.get(entry.number)), text,
                                        listed[n - 1] if n else None,
                                        listed[n + 1] if n + 1 < len(listed) else None).encode()
    now = keep(draw(final.game))
    latest = texts[-1] if texts else public_report(current_report(history, route_budget))
    files["index.html"] = index_page(facts, now, latest, listed[-1] if listed else None).encode()
    files["reports.html"] = reports_page(facts, listed).encode()
    undone = [seq for entry in final.gm if isinstance(entry, Undone) for seq in entry.undone]
    lines = public_log(action_log.records, Vocabulary.from_title(final.title), gm_email=final.info.gm_email,
                       taken_back=undone)
    files["log.html"] = log_page(facts, lines).encode()
    files["charts.html"] = charts_page(facts, charts(history, final.title)).encode()
    boards = sum(1 for name in files if name.startswith("map-"))
    return Site(game_id, files, reports=len(listed), boards=boards)


def write_site(site: Site, folder: Path) -> list[Path]:
    """Write ``site``'s files into ``folder`` (made if missing; other files there stay);
    returns the paths written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in sorted(site.files.items()):
        path = folder / name
        path.write_bytes(data)
        written.append(path)
    return written
