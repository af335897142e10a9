"""Loading the board: the tile catalogue and a title's map, checked key by key.

``rules/tiles.yaml`` is the tile catalogue shared by every title (colour, revenue centres,
track), ``rules/<title>/map.yaml`` is one title's map (layout, every hex with what is printed
on it) and its tile counts (see :mod:`pbem.engine.board` for the values they become). Every
mapping is checked against the keys it may have; a bad value fails the load with the file and
the hex or tile named.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, NoReturn

from pbem.engine.board import (
    BORDER_KINDS,
    COLORS,
    BorderData,
    CityData,
    HexData,
    MapData,
    OffboardData,
    SeaLinkData,
    TileData,
    TownData,
    coord_xy,
)
from pbem.errors import ConfigError
from pbem.ruleset.files import RULES_DIR, deep_merged, read_rules_yaml, variant_overlays

_ENDPOINT = re.compile(r"^(?:e(\d+)|([ct])(\d+)|o)$")


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
    """The map of ``title`` as its files say: ``rules/<title>/map.yaml`` with the ``map``
    overlays of the named variants merged in, its tile counts checked against the catalogue
    ``tiles.yaml`` of the same rules folder (cached: the result is immutable). A title that
    composes its map from parts (1825) has its game's board in
    :func:`pbem.ruleset.load_title`'s ``board``, not here.

    :raises ConfigError: missing or invalid file, or a bad value; the message names the file
        and the hex or tile at fault.
    """
    return _load_map(title, Path(rules_dir), tuple(variants))


@functools.lru_cache(maxsize=16)
def _load_map(title: str, rules_dir: Path, variants: tuple[str, ...]) -> MapData:
    doc = read_map_document(title, rules_dir, variants)
    return map_from_document(doc, rules_dir / title / "map.yaml", rules_dir)


def read_map_document(title: str, rules_dir: Path, variants: tuple[str, ...]) -> dict[Any, Any]:
    """``rules/<title>/map.yaml`` as parsed YAML with the ``map`` overlays of the named
    variants deep-merged in (1870's original tiles change only tile counts), not yet checked.

    :raises ConfigError: the file is missing, not valid YAML or not a mapping; an unknown
        variant.
    """
    path = rules_dir / title / "map.yaml"
    doc = _Where(path, "top level").mapping(read_rules_yaml(path), "the file")
    for _, overlay in variant_overlays(title, variants, rules_dir):
        if "map" in overlay:
            doc = deep_merged(doc, overlay["map"])
    return doc


def map_from_document(doc: Any, path: Path, rules_dir: Path) -> MapData:
    """The :class:`MapData` of a map document (the shape of ``map.yaml``), its tile counts
    checked against the catalogue ``<rules_dir>/tiles.yaml``; ``path`` is the file named in
    error messages (a composed map is reported under its title's ``map.yaml``).

    :raises ConfigError: a bad value; the message names the file and the hex or tile.
    """
    doc = _Where(path, "top level").mapping(doc, "the map")
    layout = doc.get("layout")
    if layout not in ("flat", "pointy"):
        _Where(path, "layout").fail(f"must be flat or pointy, not {layout!r}")
    catalogue = load_tiles(rules_dir / "tiles.yaml")
    drawings: dict[str, str] = {}
    for key, drawn in _Where(path, "tile_drawings").mapping(doc.get("tile_drawings") or {}, "tile_drawings").items():
        if str(drawn) not in catalogue:
            _Where(path, f"tile_drawings: tile {key}").fail(f"{drawn} is not in the tile catalogue")
        drawings[str(key)] = str(drawn)
    counts: dict[str, int | None] = {}
    raw_counts = _Where(path, "tile_counts").mapping(doc.get("tile_counts"), "tile_counts")
    for key, count in raw_counts.items():
        at = _Where(path, f"tile_counts: tile {key}")
        if str(key) not in catalogue and str(key) not in drawings:
            at.fail(f"not in the tile catalogue {rules_dir / 'tiles.yaml'}")
        counts[str(key)] = None if count in (None, "unlimited") else at.integer(count, "count")
    hexes: dict[str, HexData] = {}
    parity: int | None = None
    for key, entry in _Where(path, "hexes").mapping(doc.get("hexes"), "hexes").items():
        at = _Where(path, f"hex {key}")
        xy = coord_xy(str(key), layout)
        if xy is None:
            at.fail("not a coordinate (letters A..AZ, then a number from 1)")
        if parity is not None and sum(xy) % 2 != parity:
            at.fail(f"not on the same {layout} hex grid as the hexes before it")
        parity = sum(xy) % 2
        hexes[str(key)] = _parse_hex(str(key), entry, at)
    return MapData(
        layout=layout, hexes=MappingProxyType(hexes), tile_counts=MappingProxyType(counts),
        sea_links=_parse_sea_links(doc.get("sea_links"), hexes, _Where(path, "sea_links")),
        tile_drawings=MappingProxyType(drawings),
    )


def title_tiles(catalogue: Mapping[str, TileData], board: MapData) -> Mapping[str, TileData]:
    """The tiles a title's game knows by name: the catalogue's, each of the board's
    ``tile_drawings`` under the title's own number (1829's #67, drawn as the catalogue's
    #166, is ``"67"`` in its orders, map and reports)."""
    if not board.tile_drawings:
        return catalogue
    return MappingProxyType({**catalogue, **{number: dataclasses.replace(catalogue[drawn], name=number)
                                             for number, drawn in board.tile_drawings.items()}})


def _parse_sea_links(raw: Any, hexes: Mapping[str, HexData], at: _Where) -> tuple[SeaLinkData, ...]:
    """``sea_links: [{hexes: [A, B], reach: false}]``: each joins two off-board hexes of
    the map, at most once."""
    out: list[SeaLinkData] = []
    for entry in at.sequence(raw, "sea_links"):
        doc = at.mapping(entry, "a sea link", frozenset({"hexes", "reach"}))
        ends = [str(c) for c in at.sequence(doc.get("hexes"), "the hexes of a sea link")]
        if len(ends) != 2 or ends[0] == ends[1]:
            at.fail(f"a sea link joins two hexes, not {ends}")
        for coord in ends:
            if coord not in hexes or hexes[coord].tile.offboard is None:
                at.fail(f"{coord} is not an off-board hex of the map")
        reach = doc.get("reach", False)
        if not isinstance(reach, bool):
            at.fail(f"reach must be true or false, not {reach!r}")
        if any({link.a, link.b} == set(ends) for link in out):
            at.fail(f"two sea links join {ends[0]} and {ends[1]}")
        out.append(SeaLinkData(ends[0], ends[1], reach))
    return tuple(out)


COORD = re.compile(r"^([A-Za-z]+)(-?[0-9]+)$")
"""A map coordinate as the data write it: row letters (lower case north of row A), number."""


def coord_order(coord: str) -> tuple[int, int]:
    """Sort key of a map coordinate: (row, column), the rows north of A (``a``, ``b``,
    lower case) first; (0, 0) for text that is no coordinate."""
    match = COORD.match(coord)
    if match is None:
        return (0, 0)
    letters, number = match.group(1), int(match.group(2))
    if letters.islower():
        return (-(ord(letters[-1]) - ord("a") + 1), number)
    return (ord(letters[-1]) - ord("A") + 26 * (len(letters) - 1), number)
