"""Stock-market movements on a two-dimensional market (1830 rules 5.3 and 6.9).

Pure functions on coordinates ``(row, col)``; the caller moves the corporation's marker and
keeps the order of markers in a cell (a marker arriving in a cell goes under those already
there, which decides the operating order).
"""

from __future__ import annotations

from pbem.engine.state import GameState
from pbem.engine.title import MarketCell, TitleData

Coord = tuple[int, int]


def cell(title: TitleData, coord: Coord) -> MarketCell | None:
    """The market cell at ``coord``, or None off the market or on an empty slot."""
    row, col = coord
    if row < 0 or row >= len(title.market):
        return None
    cells = title.market[row]
    if col < 0 or col >= len(cells):
        return None
    return cells[col]


def price_at(title: TitleData, coord: Coord) -> int:
    """The share price at ``coord``; raises ValueError for a missing cell."""
    found = cell(title, coord)
    if found is None:
        raise ValueError(f"no market cell at {coord}")
    return found.price


def down(title: TitleData, coord: Coord) -> Coord:
    """One row down; stays put at the bottom of the column (1830 rules 5.3: sales)."""
    below = (coord[0] + 1, coord[1])
    return below if cell(title, below) is not None else coord


def up(title: TitleData, coord: Coord) -> Coord:
    """One row up; stays put in the top row (1830 rules 5.3: sold-out corporations)."""
    above = (coord[0] - 1, coord[1])
    return above if cell(title, above) is not None else coord


def right(title: TitleData, coord: Coord) -> Coord:
    """One column right; at the right edge, one row up instead (1830 rules 6.9: dividends)."""
    step = (coord[0], coord[1] + 1)
    if cell(title, step) is not None:
        return step
    return up(title, coord)


def left(title: TitleData, coord: Coord) -> Coord:
    """One column left; at the left edge, one row down instead (1830 rules 6.9: withholding)."""
    step = (coord[0], coord[1] - 1)
    if cell(title, step) is not None:
        return step
    return down(title, coord)


def par_coord(title: TitleData, price: int) -> Coord | None:
    """The par cell with ``price``, or None if there is no such par value."""
    for coord in title.par_cells():
        if price_at(title, coord) == price:
            return coord
    return None


def place(state: GameState, sym: str, coord: Coord) -> None:
    """Put ``sym``'s marker on ``coord`` (at the bottom of that cell's stack)."""
    corp = state.corporations[sym]
    if corp.price is not None:
        stack = state.market.get(corp.price, [])
        if sym in stack:
            stack.remove(sym)
        if not stack:
            state.market.pop(corp.price, None)
    corp.price = coord
    state.market.setdefault(coord, []).append(sym)


def move(state: GameState, title: TitleData, sym: str, new: Coord) -> bool:
    """Move ``sym``'s marker to ``new`` if it differs from where it is; returns whether it moved."""
    corp = state.corporations[sym]
    if corp.price == new:
        return False
    place(state, sym, new)
    return True
