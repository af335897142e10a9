"""1870's stock-market moves beyond the hooks' one-cell moves: a sale's drop and its ledge.

Cells marked ``i`` (market.yaml zones) lie below a ledge: a price above the ledge is not
pushed into them by the first share of a sale, only by the second and later ones.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.engine.market import Coord, cell, down
from pbem.engine.title import TitleData


def dropped(title: TitleData, coord: Coord, count: int,
            move_down: Callable[[TitleData, Coord], Coord] | None = None) -> Coord:
    """Where a price at ``coord`` ends after a sale of ``count`` shares drops it a row a share,
    except that the first share does not push it into a cell marked ``i`` below it (1870's
    ledge). ``move_down`` is the title's one-row move (default :func:`down`)."""
    step = move_down or down
    ledge = False
    for _ in range(count):
        if ledge:
            coord = step(title, coord)
            ledge = False
        here, below = cell(title, coord), cell(title, (coord[0] + 1, coord[1]))
        if here is not None and "i" not in here.zone and below is not None and "i" in below.zone:
            ledge = True
        else:
            coord = step(title, coord)
    return coord
