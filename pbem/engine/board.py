"""The board as data: track tiles, the hexes of a title's map, and their loader.

Facts live in YAML: ``rules/tiles.yaml`` is the tile catalogue shared by every title (colour,
revenue centres, track), ``rules/<title>/map.yaml`` is one title's map (layout, every hex with
what is printed on it) and its tile counts. Both transcribe the published tile manifests and
maps as the 18xx.games project records them, and number hex edges and coordinates the way
18xx.games does, so that recorded games replay unchanged.

Coordinates are letters + number (``"F20"``). On a *pointy* layout ``x = number - 1`` and
``y = letter index`` (``A`` = 0); on a *flat* layout ``x = letter index`` and
``y = number - 1``. Edge ``e`` of a hex faces the neighbour at ``(x + dx, y + dy)`` given by
:data:`EDGE_DELTAS`; the same side seen from the neighbour is edge ``(e + 3) % 6``.

Track is a set of paths between *endpoints*, each a string: ``"e0"`` .. ``"e5"`` for a hex edge,
``"c0"``, ``"c1"`` ... for the tile's cities in order, ``"t0"``, ``"t1"`` ... for its towns, and
``"o"`` for its off-board revenue area. Laying a tile with rotation ``r`` turns every edge
``e`` into ``(e + r) % 6``; stops keep their names.

Everything here is immutable; loaders are cached.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, Mapping, NoReturn


from pbem.engine.title import RULES_DIR, deep_merged, read_rules_yaml, variant_overlays
from pbem.errors import ConfigError

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

_ENDPOINT = re.compile(r"^(?:e(\d+)|([ct])(\d+)|o)$")
_COORD = re.compile(r"^([A-Z]{1,2})([1-9][0-9]*)$")


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


def _coord_xy(coord: str, layout: str) -> tuple[int, int] | None:
    match = _COORD.match(coord)
    if match is None:
        return None
    letters, number = match.groups()
    letter = ord(letters[-1]) - ord("A")
    if len(letters) == 2:
        if letters[0] != "A":
            return None
        letter += 26
    return (int(number) - 1, letter) if layout == "pointy" else (letter, int(number) - 1)


def _xy_coord(x: int, y: int, layout: str) -> str | None:
    number, letter = (x + 1, y) if layout == "pointy" else (y + 1, x)
    if number < 1 or not 0 <= letter < 52:
        return None
    letters = chr(ord("A") + letter) if letter < 26 else "A" + chr(ord("A") + letter - 26)
    return f"{letters}{number}"


@dataclass(frozen=True)
class MapData:
    """A title's map: ``hexes`` by coordinate, and ``tile_counts`` (tile name -> how many the
    game provides, None for unlimited)."""

    layout: Layout
    hexes: Mapping[str, HexData] = field(hash=False)
    tile_counts: Mapping[str, int | None] = field(hash=False)

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
        xy = _coord_xy(coord, self.layout)
        if xy is None or not 0 <= edge < 6:
            return None
        dx, dy = EDGE_DELTAS[self.layout][edge]
        other = _xy_coord(xy[0] + dx, xy[1] + dy, self.layout)
        return other if other in self.hexes else None

    def edge_to(self, coord: str, other: str) -> int | None:
        """The edge of ``coord`` that faces the adjacent hex ``other``; None if not adjacent."""
        a, b = _coord_xy(coord, self.layout), _coord_xy(other, self.layout)
        if a is None or b is None or other not in self.hexes:
            return None
        delta = (b[0] - a[0], b[1] - a[1])
        deltas = EDGE_DELTAS[self.layout]
        return deltas.index(delta) if delta in deltas else None


# --- loading -------------------------------------------------------------------------------

_TILE_KEYS = frozenset({"color", "cities", "towns", "offboard", "paths", "label"})
_HEX_KEYS = _TILE_KEYS | {"name", "cost", "terrain", "borders", "reserved_for"}


@dataclass(frozen=True)
class _Where:
    """Where a value is read (file and ``"hex G19"`` / ``"tile 57"``), for error messages."""

    path: Path
    where: str

    def fail(self, message: str) -> NoReturn:
        raise ConfigError(f"{self.path}: {self.where}: {message}")

    def integer(self, value: Any, what: str, minimum: int = 0) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            self.fail(f"{what} must be a whole number >= {minimum}, not {value!r}")
        return value

    def text(self, value: Any, what: str) -> str | None:
        if value is not None and not isinstance(value, str):
            self.fail(f"{what} must be a string (quote it), not {value!r}")
        return value

    def mapping(self, value: Any, what: str, keys: frozenset[str] | None = None) -> dict[Any, Any]:
        if not isinstance(value, dict):
            self.fail(f"{what} must be a mapping, not {value!r}")
        unknown = sorted(str(k) for k in value if keys is not None and k not in keys)
        if unknown:
            self.fail(f"{what} has unknown key(s) {', '.join(unknown)}")
        return value

    def sequence(self, value: Any, what: str) -> list[Any]:
        if value is not None and not isinstance(value, list):
            self.fail(f"{what} must be a list, not {value!r}")
        return value or []


def _parse_offboard(doc: Any, at: _Where) -> OffboardData:
    o = at.mapping(doc, "offboard", frozenset({"revenue", "group", "hidden"}))
    revenue = at.mapping(o.get("revenue"), "offboard revenue")
    for phase, amount in revenue.items():
        if phase not in COLORS:
            at.fail(f"offboard revenue phase {phase!r} is not a colour")
        at.integer(amount, f"offboard revenue {phase}")
    if not isinstance(o.get("hidden", False), bool):
        at.fail(f"offboard hidden must be true or false, not {o['hidden']!r}")
    return OffboardData(
        revenue=MappingProxyType(dict(revenue)),
        group=at.text(o.get("group"), "offboard group"),
        hidden=bool(o.get("hidden", False)),
    )


def _parse_paths(raw_paths: Any, stops: set[str], at: _Where) -> tuple[tuple[str, str], ...]:
    paths: list[tuple[str, str]] = []
    for raw in at.sequence(raw_paths, "paths"):
        if not (isinstance(raw, list) and len(raw) == 2 and all(isinstance(e, str) for e in raw)):
            at.fail(f"a path must be a pair of endpoints such as [e0, c0], not {raw!r}")
        a, b = raw
        for end in (a, b):
            match = _ENDPOINT.match(end)
            if match is None:
                at.fail(f"path {raw}: unknown endpoint {end!r} (e0..e5, c<n>, t<n> or o)")
            if match.group(1) is not None and int(match.group(1)) > 5:
                at.fail(f"path {raw}: edge {end!r} out of range e0..e5")
            if match.group(1) is None and end not in stops:
                at.fail(f"path {raw}: no stop {end!r} here (stops: {sorted(stops) or 'none'})")
        if a == b:
            at.fail(f"path {raw} joins {a!r} to itself")
        if any({a, b} == set(p) for p in paths):
            at.fail(f"path {raw} is listed twice")
        paths.append((a, b))
    return tuple(paths)


def _parse_tile(name: str, doc: dict[Any, Any], at: _Where) -> TileData:
    """One tile, or the preprinted face of a hex, from its (key-checked) YAML mapping."""
    color = doc.get("color")
    if color not in COLORS:
        at.fail(f"color must be one of {', '.join(sorted(COLORS))}, not {color!r}")
    cities = tuple(
        CityData(
            revenue=at.integer(c.get("revenue"), f"city c{i} revenue"),
            slots=at.integer(c.get("slots", 1), f"city c{i} slots", minimum=1),
        )
        for i, raw in enumerate(at.sequence(doc.get("cities"), "cities"))
        for c in [at.mapping(raw, f"city c{i}", frozenset({"revenue", "slots"}))]
    )
    towns = tuple(
        TownData(revenue=at.integer(t.get("revenue"), f"town t{i} revenue"))
        for i, raw in enumerate(at.sequence(doc.get("towns"), "towns"))
        for t in [at.mapping(raw, f"town t{i}", frozenset({"revenue"}))]
    )
    offboard = None if doc.get("offboard") is None else _parse_offboard(doc["offboard"], at)
    stops = {f"c{i}" for i in range(len(cities))} | {f"t{i}" for i in range(len(towns))}
    stops |= {"o"} if offboard is not None else set()
    return TileData(
        name=name,
        color=color,
        cities=cities,
        towns=towns,
        offboard=offboard,
        paths=_parse_paths(doc.get("paths"), stops, at),
        label=at.text(doc.get("label"), "label"),
    )


def load_tiles(path: Path = RULES_DIR / "tiles.yaml") -> Mapping[str, TileData]:
    """The tile catalogue (``rules/tiles.yaml``): tile name -> :class:`TileData` (cached).

    :raises ConfigError: missing or invalid file, or a bad tile (the message names the file
        and the tile).
    """
    return _load_tiles(Path(path))


@functools.lru_cache(maxsize=8)
def _load_tiles(path: Path) -> Mapping[str, TileData]:
    doc = read_rules_yaml(path)
    if not isinstance(doc, dict):
        raise ConfigError(f"{path}: expected a mapping of tile name to tile")
    tiles: dict[str, TileData] = {}
    for key, entry in doc.items():
        at = _Where(path, f"tile {key}")
        if str(key) in tiles:
            at.fail("defined twice")
        tiles[str(key)] = _parse_tile(str(key), at.mapping(entry, "the tile", _TILE_KEYS), at)
    return MappingProxyType(tiles)


def _parse_hex(coord: str, entry: Any, at: _Where) -> HexData:
    doc = at.mapping(entry, "the hex", _HEX_KEYS)
    face = _parse_tile(coord, {k: v for k, v in doc.items() if k in _TILE_KEYS}, at)
    if face.color == "white" and not (
        face.cities or face.towns or face.offboard or face.paths or face.label
    ):
        face = TileData(name="blank", color="white")
    borders: list[BorderData] = []
    for raw in at.sequence(doc.get("borders"), "borders"):
        b = at.mapping(raw, "a border", frozenset({"edge", "kind"}))
        edge = at.integer(b.get("edge"), "border edge")
        kind = at.text(b.get("kind"), "border kind")
        if edge > 5:
            at.fail(f"border edge {edge} out of range 0..5")
        if kind is not None and kind not in BORDER_KINDS:
            at.fail(f"border kind must be one of {', '.join(sorted(BORDER_KINDS))}, not {kind!r}")
        if any(other.edge == edge for other in borders):
            at.fail(f"two borders on edge {edge}")
        borders.append(BorderData(edge=edge, kind=kind))
    return HexData(
        coord=coord,
        tile=face,
        name=at.text(doc.get("name"), "name"),
        cost=at.integer(doc.get("cost", 0), "cost"),
        terrain=at.text(doc.get("terrain"), "terrain"),
        borders=tuple(borders),
        reserved_for=at.text(doc.get("reserved_for"), "reserved_for"),
    )


def load_map(title: str, rules_dir: Path = RULES_DIR, variants: tuple[str, ...] = ()) -> MapData:
    """The map of ``title`` from ``rules/<title>/map.yaml`` with the ``map`` overlays of the
    named variants merged in (1870's original tiles change only tile counts), its tile counts
    checked against the catalogue ``tiles.yaml`` of the same rules folder (cached: the result
    is immutable).

    :raises ConfigError: missing or invalid file, or a bad value; the message names the file
        and the hex or tile at fault.
    """
    return _load_map(title, Path(rules_dir), tuple(variants))


@functools.lru_cache(maxsize=16)
def _load_map(title: str, rules_dir: Path, variants: tuple[str, ...]) -> MapData:
    path = rules_dir / title / "map.yaml"
    doc = _Where(path, "top level").mapping(read_rules_yaml(path), "the file")
    for _, overlay in variant_overlays(title, variants, rules_dir):
        if "map" in overlay:
            doc = deep_merged(doc, overlay["map"])
    layout = doc.get("layout")
    if layout not in ("flat", "pointy"):
        _Where(path, "layout").fail(f"must be flat or pointy, not {layout!r}")
    catalogue = load_tiles(rules_dir / "tiles.yaml")
    counts: dict[str, int | None] = {}
    raw_counts = _Where(path, "tile_counts").mapping(doc.get("tile_counts"), "tile_counts")
    for key, count in raw_counts.items():
        at = _Where(path, f"tile_counts: tile {key}")
        if str(key) not in catalogue:
            at.fail(f"not in the tile catalogue {rules_dir / 'tiles.yaml'}")
        counts[str(key)] = None if count in (None, "unlimited") else at.integer(count, "count")
    hexes: dict[str, HexData] = {}
    parity: int | None = None
    for key, entry in _Where(path, "hexes").mapping(doc.get("hexes"), "hexes").items():
        at = _Where(path, f"hex {key}")
        xy = _coord_xy(str(key), layout)
        if xy is None:
            at.fail("not a coordinate (letters A..AZ, then a number from 1)")
        if parity is not None and sum(xy) % 2 != parity:
            at.fail(f"not on the same {layout} hex grid as the hexes before it")
        parity = sum(xy) % 2
        hexes[str(key)] = _parse_hex(str(key), entry, at)
    return MapData(
        layout=layout, hexes=MappingProxyType(hexes), tile_counts=MappingProxyType(counts)
    )
