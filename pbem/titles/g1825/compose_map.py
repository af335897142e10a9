"""The map of an 1825 game, put together from the units and kits in play.

1825 is sold in pieces: three units (southern England, the north of England, Scotland; a
fourth, the Highlands, as an option), three regional kits that add hexes at the edges (Wales,
the South West, North Norfolk), extension kits that add tiles, and Dave Berry's variants that
change a few hexes and tiles. Each piece's facts are a part file,
``rules/1825/parts/map_<piece>.yaml``: its ``hexes`` (in the map schema of
``rules/1825/map.yaml``), the blank gray ``offmap`` fillers at its edges, its ``tiles``
(tile number -> how many). :func:`compose_map` joins them as 18xx.games does:

* hexes: the pieces are read in the order DB2, DB3, Unit 4, R1, R2, R3, Unit 1, Unit 2,
  Unit 3; the first piece that defines a coordinate gives that hex (so a unit's hexes at a
  seam win over its neighbour's, a kit's over the unit's). Then the fillers of R1, Unit 1,
  Unit 2 and Unit 3, each only where no piece in play defined the coordinate: an edge that
  another piece joins has none.
* tiles: the counts of every piece in play are summed, in the order Unit 1, Unit 2 (with
  its gray tiles unless kit K3 is in play), Unit 3, R1, R2, R3, K1, K3, K5, K6, D1; then
  DB1 replaces 87 and 88 by 887 and 888 (two of each per Unit 1, one per Unit 3; with Unit 3
  one 14 and one 15 fewer); then DB3's tiles. A count may be negative; a tile whose total
  comes to zero leaves the game, below zero is an error, and so is a tile given as 1825's
  own drawing by one piece and as the standard tile by another.
* names: ``map_names.yaml`` names coordinates, whichever piece's hex is there; DB3 renames
  G7, Unit 4 moves Inverness to A5 and names C3.
* sepia, the preprinted brown hexes no ordinary tile replaces, become gray (the colour the
  engine gives a preprinted face that takes no tile); tile 200's exception is in
  ``map_upgrades.yaml``.

A pure function of its inputs; it copies what it returns.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from pbem.errors import ConfigError
from pbem.ruleset.board import coord_order


class MapSelection(Protocol):
    """What :func:`compose_map` reads of a game's selection of 1825 pieces (the value of
    :mod:`pbem.titles.g1825.selection`): unit numbers (1, 2, 3; 4 for the Highlands),
    regional kit numbers (1 Wales, 2 South West, 3 North Norfolk), extension kit numbers
    (1..7) and the other options by name (``"d1"``, ``"db1"``, ``"db2"``, ``"db3"``,
    ``"unit_4"``)."""

    @property
    def units(self) -> frozenset[int]: ...

    @property
    def regionals(self) -> frozenset[int]: ...

    @property
    def kits(self) -> frozenset[int]: ...

    @property
    def options(self) -> frozenset[str]: ...


SEPIA = "sepia"
"""The parts' colour of a preprinted brown hex; composed as :data:`SEPIA_AS`."""

SEPIA_AS = "gray"
"""The colour a sepia hex has on the composed map."""



def has_unit4(selection: MapSelection) -> bool:
    """Whether the Highlands (Unit 4, the option ``unit_4``) are in play."""
    return 4 in selection.units or "unit_4" in selection.options


def hex_pieces(selection: MapSelection) -> list[str]:
    """The parts whose hexes are in play, first definition first (18xx.games' order)."""
    options = selection.options
    pieces = [name for name, on in (("map_db2", "db2" in options), ("map_db3", "db3" in options),
                                     ("map_unit4", has_unit4(selection))) if on]
    pieces += [f"map_r{n}" for n in (1, 2, 3) if n in selection.regionals]
    pieces += [f"map_unit{n}" for n in (1, 2, 3) if n in selection.units]
    return pieces


def filler_pieces(selection: MapSelection) -> list[str]:
    """The parts whose gray fillers are in play, in 18xx.games' order (R1, then the units)."""
    pieces = ["map_r1"] if 1 in selection.regionals else []
    return pieces + [f"map_unit{n}" for n in (1, 2, 3) if n in selection.units]


def tile_pieces(selection: MapSelection) -> list[tuple[str, str]]:
    """(part, key) of every tile set in play before DB1 and DB3, in the order they are summed."""
    out: list[tuple[str, str]] = []
    for n in (1, 2, 3):
        if n in selection.units:
            out.append((f"map_unit{n}", "tiles"))
            if n == 2 and 3 not in selection.kits:
                out.append(("map_unit2", "gray_tiles"))
    out += [(f"map_r{n}", "tiles") for n in (1, 2, 3) if n in selection.regionals]
    out += [(f"map_k{n}", "tiles") for n in (1, 3, 5, 6) if n in selection.kits]
    if "d1" in selection.options:
        out.append(("map_d1", "tiles"))
    return out


def compose_map(map_doc: Mapping[str, Any], parts: Mapping[str, Any],
                selection: MapSelection) -> dict[str, Any]:
    """The map document of an 1825 game: ``map_doc`` (the base ``rules/1825/map.yaml``) with
    the ``hexes`` and ``tile_counts`` of the pieces ``selection`` puts in play (see the
    module docstring for the order and the rules of the join). ``parts`` is
    ``rules/1825/parts/`` by file stem (``"map_unit1"`` -> parsed YAML). Hexes and counts
    already in ``map_doc`` come first. The result is a new dict (the inputs are not
    changed), in the shape :func:`pbem.ruleset.board.map_from_document` reads.

    :raises ConfigError: a part in play is missing or misshapen; a tile's total below zero;
        a tile given as 1825's own drawing in one piece and as the standard tile in another.
    """
    doc = copy.deepcopy(dict(map_doc))
    hexes: dict[str, Any] = dict(doc.get("hexes") or {})
    for piece in hex_pieces(selection):
        for coord, entry in _mapping(parts, piece, "hexes").items():
            hexes.setdefault(str(coord), copy.deepcopy(entry))
    for piece in filler_pieces(selection):
        for coord in _sequence(parts, piece, "offmap"):
            hexes.setdefault(str(coord), {"color": "gray"})
    for entry in hexes.values():
        if isinstance(entry, dict) and entry.get("color") == SEPIA:
            entry["color"] = SEPIA_AS
    for coord, name in location_names(parts, selection).items():
        if coord in hexes and isinstance(hexes[coord], dict):
            hexes[coord]["name"] = name
    doc["hexes"] = {c: hexes[c] for c in sorted(hexes, key=coord_order)}
    doc["tile_counts"] = tile_counts(doc.get("tile_counts") or {}, parts, selection)
    return doc


def location_names(parts: Mapping[str, Any], selection: MapSelection) -> dict[str, str]:
    """Coordinate -> location name for the options in play (``map_names.yaml``: the names,
    then each option's changes, a null removing a name)."""
    names = {str(k): str(v) for k, v in _mapping(parts, "map_names", "names").items()}
    changes = _mapping(parts, "map_names", "option_names")
    options = set(selection.options) | ({"unit_4"} if has_unit4(selection) else set())
    for option in sorted(options & {str(k) for k in changes}):
        for coord, name in (changes[option] or {}).items():
            if name is None:
                names.pop(str(coord), None)
            else:
                names[str(coord)] = str(name)
    return names


def tile_counts(base: Mapping[str, Any], parts: Mapping[str, Any],
                selection: MapSelection) -> dict[str, int]:
    """Tile number -> how many the game has, summed over the pieces in play (module
    docstring); ``base`` counts come first.

    :raises ConfigError: a total below zero, or conflicting drawings of one tile number.
    """
    counts: dict[str, int] = {}
    drawings: dict[str, tuple[Any, str]] = {}
    _add(counts, drawings, base, "map.yaml")
    for piece, key in tile_pieces(selection):
        _add(counts, drawings, _mapping(parts, piece, key), f"{piece} {key}")
    if "db1" in selection.options:
        db1 = parts.get("map_db1")
        if not isinstance(db1, dict):
            raise ConfigError("1825 map: the part map_db1 is missing or not a mapping")
        per_unit = {int(k): int(v) for k, v in (db1.get("per_unit") or {}).items()}
        each = sum(per_unit.get(n, 0) for n in selection.units)
        for old, new in (db1.get("replaces") or {}).items():
            counts.pop(str(old), None)
            counts.pop(str(new), None)
            if each > 0:
                counts[str(new)] = each
        if 3 in selection.units:
            _add(counts, drawings, db1.get("with_unit3") or {}, "map_db1 with_unit3")
    if "db3" in selection.options:
        _add(counts, drawings, _mapping(parts, "map_db3", "tiles"), "map_db3 tiles")
    return counts


def _add(counts: dict[str, int], drawings: dict[str, tuple[Any, str]],
         tiles: Mapping[Any, Any], where: str) -> None:
    """Add one piece's tiles to ``counts``; a total of zero removes the tile."""
    for key, value in tiles.items():
        tile = str(key)
        if isinstance(value, dict):
            count, drawing = value.get("count"), value.get("drawing")
        else:
            count, drawing = value, None
        if isinstance(count, bool) or not isinstance(count, int):
            raise ConfigError(f"1825 map: {where}: tile {tile} count must be a whole number, not {count!r}")
        if tile in drawings and drawings[tile][0] != drawing:
            raise ConfigError(
                f"1825 map: conflicting definitions of tile {tile}: "
                f"{_drawing_text(drawings[tile][0])} in {drawings[tile][1]}, "
                f"{_drawing_text(drawing)} in {where}")
        drawings.setdefault(tile, (drawing, where))
        total = counts.get(tile, 0) + count
        if total < 0:
            raise ConfigError(f"1825 map: {where}: tile {tile} comes to {total}, below zero")
        if total == 0:
            counts.pop(tile, None)
        else:
            counts[tile] = total


def _drawing_text(drawing: Any) -> str:
    return "the standard tile" if drawing is None else f"the drawing of {drawing}"


def _part(parts: Mapping[str, Any], piece: str) -> Mapping[str, Any]:
    part = parts.get(piece)
    if not isinstance(part, dict):
        raise ConfigError(f"1825 map: the part {piece} (rules/1825/parts/{piece}.yaml) is missing "
                          "or not a mapping")
    return part


def _mapping(parts: Mapping[str, Any], piece: str, key: str) -> Mapping[Any, Any]:
    value = _part(parts, piece).get(key) or {}
    if not isinstance(value, dict):
        raise ConfigError(f"1825 map: {piece}: {key} must be a mapping, not {value!r}")
    return value


def _sequence(parts: Mapping[str, Any], piece: str, key: str) -> Iterable[Any]:
    value = _part(parts, piece).get(key) or []
    if not isinstance(value, list):
        raise ConfigError(f"1825 map: {piece}: {key} must be a list, not {value!r}")
    return value
