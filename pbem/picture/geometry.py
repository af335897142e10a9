"""Where each hex sits and which side is which: the one geometry of the ASCII map
(:mod:`pbem.asciimap`), the track in words (:mod:`pbem.track_words`) and the picture
(:mod:`pbem.picture.board_svg`), so that they cannot disagree.

Everything is derived from the engine's coordinates (:func:`pbem.engine.board.coord_xy`) and
its neighbour rule (:data:`pbem.engine.board.EDGE_DELTAS`), which recorded games fix.

*Grid places.* A coordinate is a :class:`Place` of integers: ``col`` runs across, ``row``
down (pointy layout: ``col`` = number - 1, ``row`` = letter index; flat layout: ``col`` =
letter index, ``row`` = number - 1). Neighbours in a row (pointy) or a column (flat) are two
places apart; the rows (columns) in between are shifted by one place, half a hex.

*Drawing.* With hexes of circumradius ``size`` (centre to corner), a place's centre is
``(col * X, row * Y)`` where pointy: ``X = size * sqrt(3) / 2``, ``Y = size * 3 / 2``; flat:
``X = size * 3 / 2``, ``Y = size * sqrt(3) / 2`` (y grows downwards, as in SVG). Edge ``e``
faces the neighbour across it: its direction is the unit vector from the hex's centre toward
that neighbour's centre; the edge's midpoint lies at the apothem (``size * sqrt(3) / 2``)
along it. Corner ``k`` is where edge ``k - 1`` meets edge ``k`` (pointy: corner 0 is the
bottom corner), at ``size`` from the centre.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from types import MappingProxyType
from typing import Mapping

from pbem.engine.board import EDGE_DELTAS, MapData, coord_letters, coord_xy

SQRT3 = math.sqrt(3.0)

Point = tuple[float, float]
"""A point of the drawing: (x, y), y downwards, in the units of ``size``."""

_COORD = re.compile(r"^([A-Za-z]{1,2})(-?[0-9]+)$")


@dataclass(frozen=True)
class Place:
    """Where a hex sits: ``col`` runs across, ``row`` down (pointy: number - 1 and letter
    index; flat: letter index and number - 1)."""

    coord: str
    col: int
    row: int


# -- grid places ------------------------------------------------------------------------------


def grid_xy(coord: str, layout: str) -> tuple[int, int]:
    """``F20`` -> (col, row) for ``layout`` (see :class:`Place`).

    :raises ValueError: ``coord`` is no coordinate."""
    xy = coord_xy(coord, layout)
    if xy is None:
        raise ValueError(f"{coord!r} is not a coordinate")
    return xy


def place_of(coord: str, layout: str) -> Place:
    """The :class:`Place` of ``coord``; raises ValueError as :func:`grid_xy`."""
    return Place(coord, *grid_xy(coord, layout))


def hex_places(board: MapData, by_coordinate: bool = False) -> list[Place]:
    """Every hex of ``board``, in reading order (row by row, left to right), or by coordinate
    (letters, then number)."""
    places = [place_of(c, board.layout) for c in board.hexes]
    if by_coordinate:
        return sorted(places, key=lambda p: coord_key(p.coord))
    return sorted(places, key=lambda p: (p.row, p.col))


def coord_key(coord: str) -> tuple[int, str, int]:
    """Sort key of a coordinate: lower-case letters first, then by letters, then number."""
    match = _COORD.match(coord)
    assert match is not None
    letters = match.group(1)
    return (0 if letters.islower() else len(letters), letters, int(match.group(2)))


def row_label(layout: str, row: int) -> str:
    """The label of a row of places: pointy a letter (``F``), flat a number (``20``)."""
    return coord_letters(row) if layout == "pointy" else str(row + 1)


def col_label(layout: str, col: int) -> str:
    """The label of a column of places: pointy a number, flat a letter."""
    return str(col + 1) if layout == "pointy" else coord_letters(col)


def neighbour_place(layout: str, col: int, row: int, edge: int) -> tuple[int, int]:
    """The place across edge ``edge`` (0..5) of the place (``col``, ``row``)."""
    dx, dy = EDGE_DELTAS[layout][edge]
    return col + dx, row + dy


# -- directions and drawing -------------------------------------------------------------------


def unit(layout: str) -> tuple[float, float]:
    """(X, Y): the drawing's step per place across and down, for hexes of circumradius 1."""
    return (SQRT3 / 2, 1.5) if layout == "pointy" else (1.5, SQRT3 / 2)


def centre(layout: str, col: float, row: float, size: float) -> Point:
    """The centre of the place (``col``, ``row``) for hexes of circumradius ``size``."""
    ux, uy = unit(layout)
    return col * ux * size, row * uy * size


@functools.cache
def edge_direction(layout: str, edge: int) -> Point:
    """The unit vector from a hex's centre toward the neighbour across ``edge``."""
    ux, uy = unit(layout)
    dx, dy = EDGE_DELTAS[layout][edge % 6]
    x, y = dx * ux, dy * uy
    length = math.hypot(x, y)
    return x / length, y / length


def edge_midpoint(layout: str, edge: int, size: float) -> Point:
    """The middle of side ``edge``, from the hex's centre."""
    x, y = edge_direction(layout, edge)
    apothem = size * SQRT3 / 2
    return x * apothem, y * apothem


def corner(layout: str, k: int, size: float) -> Point:
    """Corner ``k`` (where edge ``k - 1`` meets edge ``k``), from the hex's centre."""
    ax, ay = edge_direction(layout, k - 1)
    bx, by = edge_direction(layout, k)
    x, y = ax + bx, ay + by
    length = math.hypot(x, y)
    return x / length * size, y / length * size


@functools.cache
def corners(layout: str, size: float) -> tuple[Point, ...]:
    """The six corners 0..5, from the hex's centre."""
    return tuple(corner(layout, k, size) for k in range(6))


def _compass(x: float, y: float) -> str:
    north_south = "N" if y < -1e-9 else "S" if y > 1e-9 else ""
    east_west = "W" if x < -1e-9 else "E" if x > 1e-9 else ""
    return north_south + east_west


EDGE_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType({
    layout: tuple(_compass(*edge_direction(layout, e)) for e in range(6)) for layout in EDGE_DELTAS
})
"""Layout -> the compass names of edges 0..5 (pointy ``SW W NW NE E SE``, flat ``S SW NW N
NE SE``), read off :func:`edge_direction`."""


def edge_named(layout: str, name: str) -> int:
    """The edge of ``layout`` facing compass direction ``name`` (``"NW"`` -> 2 on a pointy map).

    :raises ValueError: no edge faces that way."""
    return EDGE_NAMES[layout].index(name)
