"""The board as a picture in the mails that carry a full report (issue 23): drawn once per
archived report (:mod:`pbem.picture`), kept beside its text (``report-0024.png``) and shown
inline in every copy; a text-only reader loses nothing. A picture that cannot be drawn is
logged and left out: it never holds up a mail."""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Callable

from pbem.application.state import Replay
from pbem.commands import Info
from pbem.durable import write_atomic
from pbem.mail.compose import InlineImage
from pbem.report_archive import ReportArchive

log = logging.getLogger(__name__)

def picture_path(report_path: Path) -> Path:
    """Where the picture of the archived report at ``report_path`` is kept."""
    return report_path.with_suffix(".png")


def _draw(state: Replay) -> bytes:
    from pbem.picture.board_svg import board_svg
    from pbem.picture.raster import MAIL_WIDTH, svg_to_png

    return svg_to_png(board_svg(state.game), width=MAIL_WIDTH)


def report_picture(state: Callable[[], Replay], report_path: Path, number: int) -> InlineImage | None:
    """The board as the PNG of report ``number``: drawn from ``state()`` (the game as of the
    report) and kept on first use; None when it cannot be drawn (logged).

    :raises OSError: the picture cannot be stored (the pass stops; the mail is tried again)."""
    path = picture_path(report_path)
    if not path.exists():
        try:
            png = _draw(state())
        except Exception:  # drawing is no reason to hold up a report
            log.exception("the map of report %d (%s) could not be drawn", number, report_path)
            return None
        write_atomic(path, png)
    return InlineImage(f"map-{number}.png", path.read_bytes())


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
    found = (report_picture(functools.partial(state_at, e.seq), e.path, e.number) for e in wanted)
    return tuple(p for p in found if p is not None)


def opening_picture(state: Replay) -> InlineImage | None:
    """The opening board for the welcome mails (not kept), or None when it cannot be drawn."""
    try:
        return InlineImage("map-opening.png", _draw(state))
    except Exception:  # drawing is no reason to hold up a welcome
        log.exception("the opening map of %s could not be drawn", state.info.game_id)
        return None
