"""1829's board: the South board, the North board, or both put together as Stuart Dagger's
Combined Boards Variant has them (the default).

The boards' facts are parts (``rules/1829/parts/``), on one grid (1825's: North board
coordinates as printed, South board coordinates 12 rows down and 3 columns right):

* ``map_south.yaml``, ``map_north.yaml``: each board's ``hexes``, its ``edge`` (the partial
  hexes at the seam that lead off that board) and its ``tiles`` (its tile list);
* ``map_combined.yaml``: the variant's board, the union of the two boards without their edge
  hexes; where both boards have a hex the two must agree, but for the hexes it rules on
  (``hexes``: the seed's two mountains taken away; ``take_south``: Liverpool's water, our
  reading, and Aberystwyth's track); its ``tiles`` are the seed's list;
* ``map_names.yaml``: location ``names`` by coordinate;
* ``map_tiles.yaml``: ``catalogue_keys``, the catalogue key of each 1829 tile number drawn as
  another catalogue tile (59, 67, 11).

The variant ``south`` or ``north`` plays that board alone; naming both is refused when a game
is created (:meth:`Composer1829.resolve_variants`). Sources: the 18xx.games 1829 module and the
ps18xx 1829 North/South map files (the boards), the seed (the combined board and its tiles).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.errors import ConfigError
from pbem.ruleset.board import coord_order
from pbem.titles.g1829.settings import Rules1829Composer

SOUTH = "south"
NORTH = "north"
COMBINED = "combined"
BOARDS = (SOUTH, NORTH)
"""The variants that each play one board alone."""



def board_of(variants: tuple[str, ...]) -> str:
    """The board ``variants`` play: ``"south"`` or ``"north"`` when one of them is named, else
    ``"combined"``. Both named (refused when a game is created) is both boards: the combined
    board."""
    named = [board for board in BOARDS if board in variants]
    return named[0] if len(named) == 1 else COMBINED


def check_board_choice(variants: tuple[str, ...]) -> None:
    """:raises ConfigError: ``variants`` name both one-board options."""
    if all(board in variants for board in BOARDS):
        raise ConfigError("1829: the options south and north each play one board alone; name "
                          "one of them, or neither for the combined board")


def _part(parts: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    part = parts.get(name)
    if not isinstance(part, Mapping):
        raise ConfigError(f"1829 map: the part {name} (rules/1829/parts/{name}.yaml) is missing or not a mapping")
    return part


def _mapping(parts: Mapping[str, Any], name: str, key: str) -> Mapping[str, Any]:
    value = _part(parts, name).get(key) or {}
    if not isinstance(value, Mapping):
        raise ConfigError(f"1829 map: {name}: {key} must be a mapping, not {value!r}")
    return {str(k): v for k, v in value.items()}


def _coords(parts: Mapping[str, Any], name: str, key: str) -> frozenset[str]:
    value = _part(parts, name).get(key) or []
    if not isinstance(value, list):
        raise ConfigError(f"1829 map: {name}: {key} must be a list, not {value!r}")
    return frozenset(str(c) for c in value)


def combined_hexes(parts: Mapping[str, Any]) -> dict[str, Any]:
    """The combined board's hexes (the module docstring): the union of both boards without
    their edge hexes, ``map_combined``'s rulings applied.

    :raises ConfigError: a part missing or misshapen; a hex both boards have that differs and
        that ``map_combined`` does not rule on.
    """
    south, north = _mapping(parts, "map_south", "hexes"), _mapping(parts, "map_north", "hexes")
    south_edge, north_edge = _coords(parts, "map_south", "edge"), _coords(parts, "map_north", "edge")
    ruled = _mapping(parts, "map_combined", "hexes")
    take_south = _coords(parts, "map_combined", "take_south")
    hexes: dict[str, Any] = {}
    for coord in set(south) | set(north):
        from_south = south.get(coord) if coord not in south_edge else None
        from_north = north.get(coord) if coord not in north_edge else None
        if coord in ruled:
            hexes[coord] = ruled[coord]
        elif coord in take_south and from_south is not None:
            hexes[coord] = from_south
        elif from_south is not None and from_north is not None and from_south != from_north:
            raise ConfigError(f"1829 map: the boards differ at {coord} (South {from_south}, North "
                              f"{from_north}) and map_combined does not say which the combined board takes")
        elif from_north is not None or from_south is not None:
            hexes[coord] = from_north if from_north is not None else from_south
    for coord in set(ruled) - set(hexes):
        hexes[coord] = ruled[coord]
    return copy.deepcopy(hexes)


def tile_drawings(counts: Mapping[str, Any], parts: Mapping[str, Any]) -> dict[str, str]:
    """The catalogue tile each of ``counts``' 1829 numbers is drawn as, where it is not the
    catalogue's tile of that number (``map_tiles``'s ``catalogue_keys``): the game knows the
    tile by 1829's number (:func:`pbem.ruleset.board.title_tiles`)."""
    keys = _mapping(parts, "map_tiles", "catalogue_keys")
    return {str(number): str(keys[str(number)]) for number in counts if str(number) in keys}


def compose_map(map_doc: Mapping[str, Any], parts: Mapping[str, Any], board: str) -> dict[str, Any]:
    """The map document of ``board`` (``"combined"``, ``"south"``, ``"north"``): its hexes
    (each board's own, edge hexes included, or :func:`combined_hexes`), those with a city or
    a town named from ``map_names``, its tile counts by 1829's numbers with the catalogue tile each is drawn as where that is
    another (:func:`tile_drawings`); then ``map_doc``'s own hexes and tile
    counts (``rules/1829/map.yaml`` with the variants' overlays) laid over them key by key.
    A new document (the inputs are not changed), in the shape
    :func:`pbem.ruleset.board.map_from_document` reads.

    :raises ConfigError: see :func:`combined_hexes`; an unknown board.
    """
    if board == COMBINED:
        hexes = combined_hexes(parts)
        counts = _mapping(parts, "map_combined", "tiles")
    elif board in BOARDS:
        hexes = copy.deepcopy(dict(_mapping(parts, f"map_{board}", "hexes")))
        counts = _mapping(parts, f"map_{board}", "tiles")
    else:
        raise ConfigError(f"1829 map: no board {board!r} (combined, south, north)")
    for coord, name in _mapping(parts, "map_names", "names").items():
        entry = hexes.get(coord)
        if isinstance(entry, dict) and (entry.get("cities") or entry.get("towns")):
            entry["name"] = str(name)
    doc = copy.deepcopy(dict(map_doc))
    for coord, entry in (doc.get("hexes") or {}).items():
        coord = str(coord)
        if isinstance(entry, Mapping) and isinstance(hexes.get(coord), dict):
            hexes[coord].update(entry)
        else:
            hexes[coord] = entry
    doc["hexes"] = {c: hexes[c] for c in sorted(hexes, key=coord_order)}
    doc["tile_counts"] = {**{str(n): c for n, c in counts.items()}, **(doc.get("tile_counts") or {})}
    doc["tile_drawings"] = {**tile_drawings(doc["tile_counts"], parts), **(doc.get("tile_drawings") or {})}
    return doc


def in_play(documents: Mapping[str, Any], parts: Mapping[str, Any], board: str) -> dict[str, Any]:
    """``documents`` with only the companies and private companies of ``board``
    (``parts/boards.yaml``), in their files' order.

    :raises ConfigError: the part names a company the files do not have.
    """
    composed = dict(documents)
    chosen = _mapping(parts, "boards", board)
    for document, key in (("corporations", "corporations"), ("companies", None)):
        if document not in composed:
            continue
        wanted = [str(s) for s in chosen.get(document) or []]
        entries = composed[document][key] if key else composed[document]
        known = {str(e["sym"]) for e in entries}
        if set(wanted) - known:
            raise ConfigError(f"1829 boards: {board} names {', '.join(sorted(set(wanted) - known))}, "
                              f"not in {document}.yaml")
        kept = [copy.deepcopy(e) for e in entries if str(e["sym"]) in wanted]
        if key:
            composed[document] = {**composed[document], key: kept}
        else:
            composed[document] = kept
    return composed


class Composer1829(Rules1829Composer):
    """1829's data: the board of the variants in play (:func:`compose_map`), then 1829's own
    composition (:class:`~pbem.titles.g1829.settings.Rules1829Composer`); a new game may not
    name both one-board options."""

    @classmethod
    def compose(cls, documents: Mapping[str, Any], parts: Mapping[str, Any],
                variants: tuple[str, ...]) -> dict[str, Any]:
        """The documents with the map of :func:`board_of` ``variants`` composed.

        :raises ConfigError: see :func:`compose_map`."""
        composed = dict(documents)
        if "map" in documents:
            composed["map"] = compose_map(documents["map"], parts, board_of(variants))
        return super().compose(in_play(composed, parts, board_of(variants)), parts, variants)

    @classmethod
    def resolve_variants(cls, variants: tuple[str, ...], players: int) -> tuple[str, ...]:
        """The variants as asked, the one-board options checked (:func:`check_board_choice`).

        :raises ConfigError: both ``south`` and ``north`` named."""
        check_board_choice(tuple(variants))
        return super().resolve_variants(variants, players)
