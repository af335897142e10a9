"""The board and the tiles left as pictures in the mails that carry a full report (issue 23):
drawn once per archived report (:mod:`pbem.picture`), kept beside its text
(``report-0024.png``, ``report-0024-tiles.png``) and shown inline in every copy; a text-only
reader loses nothing. A picture that cannot be drawn is logged and left out: it never holds
up a mail."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Callable

from pbem.application.state import Replay
from pbem.commands import Info
from pbem.durable import write_atomic
from pbem.engine.game import Game
from pbem.mail.compose import InlineImage
from pbem.report_archive import ReportArchive

log = logging.getLogger(__name__)

TILE_SHEET_WIDTH = 900
"""Pixels across the picture of the tiles left (twelve tiles a row)."""


def picture_path(report_path: Path) -> Path:
    """Where the board's picture of the archived report at ``report_path`` is kept."""
    return report_path.with_suffix(".png")


def tiles_path(report_path: Path) -> Path:
    """Where the picture of the tiles left at the archived report ``report_path`` is kept."""
    return report_path.with_name(report_path.stem + "-tiles.png")


def _draw(state: Replay) -> bytes:
    from pbem.picture.board_svg import board_svg
    from pbem.picture.raster import MAIL_WIDTH, svg_to_png

    return svg_to_png(board_svg(state.game), width=MAIL_WIDTH)


def _draw_tiles(state: Replay) -> bytes:
    """The tile manifest's tiles with their counts (:func:`pbem.tile_manifest.manifest_entries`)."""
    from pbem.picture.raster import svg_to_png
    from pbem.picture.tile_svg import tile_sheet_svg
    from pbem.tile_manifest import manifest_entries

    game: Game = state.game
    tiles = [(e.tile, e.count) for e in manifest_entries(game) if e.count is not None]
    return svg_to_png(tile_sheet_svg(tiles, columns=12), width=TILE_SHEET_WIDTH)


def _kept(path: Path, draw: Callable[[], bytes], what: str) -> bytes | None:
    if not path.exists():
        try:
            png = draw()
        except Exception:  # drawing is no reason to hold up a report
            log.exception("the %s for %s could not be drawn", what, path)
            return None
        write_atomic(path, png)
    return path.read_bytes()


def report_pictures(state: Callable[[], Replay], report_path: Path, number: int) -> tuple[InlineImage, ...]:
    """The board and the tiles left as PNGs of report ``number``: drawn from ``state()`` (the
    game as of the report) and kept on first use; one that cannot be drawn is left out
    (logged).

    :raises OSError: a picture cannot be stored (the pass stops; the mail is tried again)."""
    drawn = {"board": _kept(picture_path(report_path), lambda: _draw(state()), "board"),
             "tiles": _kept(tiles_path(report_path), lambda: _draw_tiles(state()), "tiles left")}
    return tuple(InlineImage(f"{'map' if kind == 'board' else 'tiles'}-{number}.png", png)
                 for kind, png in drawn.items() if png is not None)


def info_pictures(items: Sequence[Info], archive: ReportArchive,
                  state_at: Callable[[int], Replay]) -> tuple[InlineImage, ...]:
    """The pictures of the reports a REPORT or HISTORY n answer carries (each once);
    ``state_at(seq)`` gives the game as of a log position, used only where a picture was
    never drawn."""
    entries = archive.entries()
    wanted = []
    for item in items:
        entry = (entries[-1] if entries else None) if item.what == "report" else \
            (archive.get(item.number or 0) if item.what == "history" else None)
        if entry is not None and entry not in wanted:
            wanted.append(entry)
    state = functools.cache(state_at)  # one replay a report, whichever picture needs it
    return tuple(p for e in wanted for p in report_pictures(functools.partial(state, e.seq), e.path, e.number))


def opening_pictures(state: Replay) -> tuple[InlineImage, ...]:
    """The opening board and the tiles for the welcome mails (not kept); none that cannot
    be drawn."""
    out = []
    for name, draw in (("map-opening.png", _draw), ("tiles-opening.png", _draw_tiles)):
        try:
            out.append(InlineImage(name, draw(state)))
        except Exception:  # drawing is no reason to hold up a welcome
            log.exception("the %s of %s could not be drawn", name, state.info.game_id)
    return tuple(out)
