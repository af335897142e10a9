"""The board as data: track tiles and the hexes of a title's map.

Facts live in YAML: ``rules/tiles.yaml`` is the tile catalogue shared by every title (colour,
revenue centres, track), ``rules/<title>/map.yaml`` is one title's map (layout, every hex with
what is printed on it) and its tile counts. Both transcribe the published tile manifests and
maps as the 18xx.games project records them, and number hex edges and coordinates the way
18xx.games does, so that recorded games replay unchanged.

Coordinates are letters + number (``"F20"``). On a *pointy* layout ``x = number - 1`` and
``y = letter index`` (``A`` = 0); on a *flat* layout ``x = letter index`` and
``y = number - 1``. As on 18xx.games, a map may reach past ``A`` and ``1``: one lower-case
letter is an index below zero (``a`` = -1, ``b`` = -2), and the number may be 0 or negative
(``"AA-1"``). Edge ``e`` of a hex faces the neighbour at ``(x + dx, y + dy)`` given by
:data:`EDGE_DELTAS`; the same side seen from the neighbour is edge ``(e + 3) % 6``.

Track is a set of paths between *endpoints*, each a string: ``"e0"`` .. ``"e5"`` for a hex edge,
``"c0"``, ``"c1"`` ... for the tile's cities in order, ``"t0"``, ``"t1"`` ... for its towns, and
``"o"`` for its off-board revenue area. Laying a tile with rotation ``r`` turns every edge
``e`` into ``(e + r) % 6``; stops keep their names.

Everything here is immutable. The values are built from the YAML files by
:mod:`pbem.ruleset.board`; the engine is given them in ``TitleData.board`` and ``TitleData.tiles``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, Mapping


Layout = Literal["flat", "pointy"]

EDGE_DELTAS: Mapping[str, tuple[tuple[int, int], ...]] = MappingProxyType(
    {
        "pointy": ((-1, 1), (-2, 0), (-1, -1), (1, -1), (2, 0), (1, 1)),
        "flat": ((0, 2), (-1, 1), (-1, -1), (0, -2), (1, -1), (1, 1)),
    }
)
"""Layout -> for edge 0..5, the (dx, dy) step to the neighbour across that edge (18xx.games)."""

COLORS = frozenset({"white", "yellow", "green", "brown", "gray", "red", "blue"})
"""Colours a tile or a preprinted hex may have."""

BORDER_KINDS = frozenset({"impassable", "water", "mountain"})
"""Kinds of hex-side border; a border without a kind is only drawn (joins two hexes)."""

_COORD = re.compile(r"^([A-Z]{1,2}|[a-z])(0|-?[1-9][0-9]*)$")


def edge_of(endpoint: str) -> int | None:
    """The edge number of an edge endpoint (``"e4"`` -> 4), None for a stop (``"c0"``, ``"o"``)."""
    if endpoint.startswith("e") and endpoint[1:].isdigit():
        return int(endpoint[1:])
    return None


@dataclass(frozen=True)
class CityData:
    """A city: ``revenue`` in the title's currency, ``slots`` for station tokens."""

    revenue: int
    slots: int = 1


@dataclass(frozen=True)
class TownData:
    """A town (no station tokens)."""

    revenue: int


@dataclass(frozen=True)
class OffboardData:
    """An off-board revenue area.

    ``revenue`` maps a phase colour to the amount from that phase on (``{"yellow": 40,
    "brown": 70}``); a route may visit only one off-board of the same ``group``; ``hidden``
    means the amount is printed on a neighbouring hex of the same area.
    """

    revenue: Mapping[str, int] = field(hash=False)
    group: str | None = None
    hidden: bool = False


@dataclass(frozen=True)
class TileData:
    """A tile (or the preprinted face of a hex): colour, revenue centres and track.

    ``paths`` are pairs of endpoints at rotation 0 (see the module docstring); ``label`` is
    the printed letters (``"OO"``, ``"B"``, ``"NY"``) that restrict upgrades.
    """

    name: str
    color: str
    cities: tuple[CityData, ...] = ()
    towns: tuple[TownData, ...] = ()
    offboard: OffboardData | None = None
    paths: tuple[tuple[str, str], ...] = ()
    label: str | None = None

    @staticmethod
    def rotate_endpoint(endpoint: str, rotation: int) -> str:
        """``endpoint`` on a tile laid at ``rotation``: edges turn (``"e5"``, 2 -> ``"e1"``),
        stops stay."""
        edge = edge_of(endpoint)
        return endpoint if edge is None else f"e{(edge + rotation) % 6}"

    def paths_at(self, rotation: int = 0) -> tuple[tuple[str, str], ...]:
        """The paths of the tile laid at ``rotation``, in definition order."""
        return tuple(
            (self.rotate_endpoint(a, rotation), self.rotate_endpoint(b, rotation))
            for a, b in self.paths
        )

    def exits(self, rotation: int = 0) -> frozenset[int]:
        """The hex edges the tile's track reaches when laid at ``rotation``."""
        return frozenset(
            edge
            for path in self.paths_at(rotation)
            for edge in map(edge_of, path)
            if edge is not None
        )

    def stop_ids(self) -> list[str]:
        """Names of the tile's stops: cities ``c0..``, then towns ``t0..``, then ``"o"``."""
        ids = [f"c{i}" for i in range(len(self.cities))]
        ids += [f"t{i}" for i in range(len(self.towns))]
        if self.offboard is not None:
            ids.append("o")
        return ids


@dataclass(frozen=True)
class BorderData:
    """A marked hex side: ``kind`` is ``"impassable"`` (no track across), ``"water"`` /
    ``"mountain"`` (a crossing cost, for later titles) or None (a drawn line only)."""

    edge: int
    kind: str | None


@dataclass(frozen=True)
class HexData:
    """One hex of a map as printed.

    ``tile`` is the preprinted face, a :class:`TileData` named after the hex (``"F2"``), or
    ``"blank"`` for white land with nothing printed; ``cost``/``terrain`` price the first tile
    laid (``80``/``"water"``, ``120``/``"mountain"``); ``reserved_for`` names a corporation
    whose home this is, when the map itself says so.
    """

    coord: str
    tile: TileData
    name: str | None = None
    cost: int = 0
    terrain: str | None = None
    borders: tuple[BorderData, ...] = ()
    reserved_for: str | None = None

    def border(self, edge: int) -> BorderData | None:
        """The border on ``edge`` of this hex, or None."""
        return next((b for b in self.borders if b.edge == edge), None)


def coord_xy(coord: str, layout: str) -> tuple[int, int] | None:
    """``F20`` -> ``(x, y)`` on ``layout`` (see the module docstring); None for a string that
    is no coordinate."""
    match = _COORD.match(coord)
    if match is None:
        return None
    letters, number = match.groups()
    if letters.islower():
        letter = -(ord(letters) - ord("a") + 1)
    else:
        letter = ord(letters[-1]) - ord("A")
        if len(letters) == 2:
            if letters[0] != "A":
                return None
            letter += 26
    return (int(number) - 1, letter) if layout == "pointy" else (letter, int(number) - 1)


def coord_letters(index: int) -> str:
    """The letters of a row (pointy) or column (flat) index: 0 -> ``A``, 26 -> ``AA``, -1 ->
    ``a`` (18xx.games' rows and columns before ``A``)."""
    if index < 0:
        return chr(ord("a") - index - 1)
    return chr(ord("A") + index) if index < 26 else "A" + chr(ord("A") + index - 26)


def _xy_coord(x: int, y: int, layout: str) -> str | None:
    number, letter = (x + 1, y) if layout == "pointy" else (y + 1, x)
    if not -26 <= letter < 52:
        return None
    return f"{coord_letters(letter)}{number}"


@dataclass(frozen=True)
class SeaLinkData:
    """A sea link (a packet route) between the off-board areas of hexes ``a`` and ``b``:
    track that is no tile, which routes may use (a route passes through an off-board area
    only from its track onto its sea link or back); with ``reach``, it also carries a
    corporation's reach for tile lays and station tokens. See :mod:`pbem.engine.graph`."""

    a: str
    b: str
    reach: bool = False


@dataclass(frozen=True)
class MapData:
    """A title's map: ``hexes`` by coordinate, ``tile_counts`` (tile name -> how many the
    game provides, None for unlimited), ``sea_links`` between off-board areas (none in
    1830) and ``tile_drawings``: a tile of the title's own numbering -> the catalogue tile it
    is drawn as, where the title's tile of that number is not the catalogue's (1829's #67 is
    the catalogue's #166; none in 1830)."""

    layout: Layout
    hexes: Mapping[str, HexData] = field(hash=False)
    tile_counts: Mapping[str, int | None] = field(hash=False)
    sea_links: tuple[SeaLinkData, ...] = ()
    tile_drawings: Mapping[str, str] = field(default_factory=dict, hash=False)

    def __deepcopy__(self, memo: dict[int, object]) -> MapData:
        """The map itself: it is immutable, so a copy shares it."""
        return self

    def neighbor(self, coord: str, edge: int) -> str | None:
        """The coordinate of the hex across ``edge`` of ``coord``; None off the map."""
        if not 0 <= edge < 6:
            return None
        row = self._neighbors.get(coord)
        return row[edge] if row is not None else None

    @functools.cached_property
    def _neighbors(self) -> dict[str, tuple[str | None, ...]]:
        return {coord: tuple(self._neighbor(coord, e) for e in range(6)) for coord in self.hexes}

    def _neighbor(self, coord: str, edge: int) -> str | None:
        xy = coord_xy(coord, self.layout)
        if xy is None or not 0 <= edge < 6:
            return None
        dx, dy = EDGE_DELTAS[self.layout][edge]
        other = _xy_coord(xy[0] + dx, xy[1] + dy, self.layout)
        return other if other in self.hexes else None

    def edge_to(self, coord: str, other: str) -> int | None:
        """The edge of ``coord`` that faces the adjacent hex ``other``; None if not adjacent."""
        a, b = coord_xy(coord, self.layout), coord_xy(other, self.layout)
        if a is None or b is None or other not in self.hexes:
            return None
        delta = (b[0] - a[0], b[1] - a[1])
        deltas = EDGE_DELTAS[self.layout]
        return deltas.index(delta) if delta in deltas else None
