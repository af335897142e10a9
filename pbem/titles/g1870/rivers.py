"""The two rivers of Lou Jerkich's Historical Order Start rules for 1870 (issue 13, seed 000):
which side of the Mississippi and of the Ohio a hex, a hex edge or a stop lies on, and
whether the Mississippi River Bridge Company has opened the crossings.

Sides are found from the map: the Mississippi's banks in each river hex (``extras.yaml``,
``mississippi``: the edges on each bank, and the bank a hex's city or town stands on) split the
board into a western and an eastern part; east of it, the Ohio splits the eastern part at the
Cairo/Paducah hex (:data:`OHIO_HEX`, E20) into Illinois to the north and Kentucky and the
south. E20's edges toward D19, D21 and E18 are its northern ones, toward F19 and F21 its
southern ones (:data:`OHIO_NORTH_EDGES`); west of E20 the Ohio follows the hex side between
F19 and E18 (:data:`OHIO_HEXSIDE`) to the Mississippi. The Historical Order Start's banks
(its variant file overlays ``extras.yaml``) put that side on the eastern bank of both hexes,
as Jerkich's rules read the map ("track built 'east' of the Mississippi River may thus not
cross the hexside between F19 and E18"): the river runs down E18 from its top corner to its
bottom one and cuts off only F19's west side. Illinois is found without crossing that side.

A part of the board is a *node*: a hex that is not a river hex, or one bank of a river hex
(``(coord, "west")``). Two nodes touch across a hex side; the Mississippi's nodes of one hex do
not touch. Everything here is pure and reads only the title's data and the game state.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Mapping

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.board import MapData, TileData
    from pbem.engine.title import TitleData
    from pbem.engine.values import Vertex

Side = Literal["west", "east"]
OhioSide = Literal["north", "south"]

BRIDGE_COMPANY = "MRBC"
"""The Mississippi River Bridge Company (companies.yaml)."""
OHIO_HEX = "E20"
"""The hex the Ohio runs through: Cairo IL to the north, Paducah KY to the south (seed 000)."""
OHIO_NORTH_EDGES = frozenset({1, 2, 3})
"""E20's edges on the Illinois side of the Ohio: W (to E18's eastern bank), NW (D19), NE (D21).
Its edge E (4) is off the map; SW (0, to F19's eastern bank) and SE (5, F21) are Kentucky's."""
OHIO_HEXSIDE = (("F19", 2), ("E18", 5))
"""The hex side between F19 and E18 that the seed names as part of the Ohio, as (hex, edge)."""
WEST_SEED = "B9"
"""A hex west of the Mississippi (Topeka), from which the western part is found."""
ILLINOIS_SEED = "D19"
"""A hex of Illinois (north of the Ohio, east of the Mississippi)."""


def bridge_open(game: Game) -> bool:
    """Whether the Mississippi River Bridge Company has been sold to a corporation or has
    closed, which opens the Ohio and (for Jerkich's rules) the Mississippi (seed 000: "until
    the Mississippi River Bridge Company has been sold to a corporation or has been closed").
    A game without the company has its rivers open."""
    company = game.state.companies.get(BRIDGE_COMPANY)
    if company is None or company.closed:
        return True
    return company.owner is not None and not company.owner.is_player


@dataclass(frozen=True)
class Sides:
    """The board's parts: ``west`` (nodes west of the Mississippi) and ``illinois`` (nodes
    east of it and north of the Ohio); every other node is east and south of the Ohio.
    A node is a coordinate (``"B9"``) or, for a river hex, ``"<coord>/<bank>"``."""

    west: frozenset[str]
    illinois: frozenset[str]


Banks = tuple[tuple[str, tuple[int, ...], tuple[int, ...], str | None], ...]
"""The Mississippi's river hexes as ``(coord, west edges, east edges, stops_on)``."""


def _banks(title: TitleData) -> Mapping[str, Mapping[str, Any]]:
    river = title.extras.get("mississippi") or {}
    found: Mapping[str, Mapping[str, Any]] = river.get("hexes") or {}
    return found


def bank(title: TitleData, coord: str) -> Mapping[str, Any] | None:
    """The Mississippi's banks in river hex ``coord`` (``extras.yaml``, ``mississippi``:
    ``west`` and ``east``, the edges on each bank, and ``stops_on``, the bank its city or town
    stands on), or None for a hex the river does not cross."""
    return _banks(title).get(coord)


def town_on_edge(tile: TileData, rotation: int, edge: int) -> str | None:
    """The town (``"t0"``, ``"t1"``) that ``tile`` laid at ``rotation`` joins to hex edge
    ``edge`` by a path, or None (E20's Cairo and Paducah, A16's Carthage and Fort Madison)."""
    for a, b in tile.paths_at(rotation):
        for end, other in ((a, b), (b, a)):
            if end == f"e{edge}" and other.startswith("t"):
                return other
    return None


def town_bank(title: TitleData, coord: str, tile: TileData, rotation: int, town: str) -> Side | None:
    """The bank town ``town`` of ``tile`` at ``rotation`` stands on in river hex ``coord``
    whose towns stand on different banks (``town_banks``: the bank of the town joined to each
    edge named, e.g. the Historical Order Start's A16, Carthage east and Fort Madison west), or
    None where the hex names no such banks or the tile joins none of the edges to ``town``."""
    found = bank(title, coord)
    named: Mapping[int, Side] = (found or {}).get("town_banks") or {}
    for edge, side in named.items():
        if town_on_edge(tile, rotation, int(edge)) == town:
            return side
    return None


def vertex_side(game: Game, vertex: Vertex) -> Side:
    """The Mississippi side stop ``vertex`` stands on: in a hex with ``town_banks``, the bank
    of that town on the tile showing there (:func:`town_bank`), else :func:`stop_side`."""
    from pbem.engine import track

    found = bank(game.title, vertex.coord)
    if found is not None and found.get("town_banks"):
        shown = track.placed(game, vertex.coord)
        side = town_bank(game.title, vertex.coord, shown.tile, shown.rotation, vertex.stop)
        if side is not None:
            return side
    return stop_side(game.title, sides(game.title), vertex.coord)


def vertex_ohio_side(game: Game, vertex: Vertex) -> OhioSide:
    """The Ohio side of stop ``vertex`` (not E20's): :func:`stop_ohio_side`, or in a hex whose
    towns stand on different banks the side of its town's bank (:func:`vertex_side`; a
    western stop counts as south)."""
    found, named = sides(game.title), bank(game.title, vertex.coord)
    if named is None or not named.get("town_banks"):
        return stop_ohio_side(game.title, found, vertex.coord)
    return ohio_side(found, f"{vertex.coord}/{vertex_side(game, vertex)}")


def split_stops_problem(game: Game, coord: str, tile: str, rotation: int) -> str | None:
    """While the Mississippi is closed, why ``tile`` at ``rotation`` may not go on ``coord``, a
    river hex whose towns stand on different banks (``town_banks``), or None. Jerkich's
    "crossing" (seed 000: track on a tile "may appear to cross the river, but the key concept
    is not allowing that track to continue out of that hex" to the other side): each town's
    track may reach an edge of the other bank only where no track beyond that edge leads in
    (:func:`continuing_problem` keeps it so); a path with no town keeps to one bank, and a
    town the data does not place is refused."""
    found = bank(game.title, coord)
    if found is None or not found.get("town_banks"):
        return None
    data = game.tiles[tile]
    west = set(found["west"])
    crossing = f"#{tile} at rotation {rotation} would cross the Mississippi on {coord}"
    for a, b in data.paths_at(rotation):
        edges = {int(e[1:]) for e in (a, b) if e.startswith("e")}
        stops = [e for e in (a, b) if not e.startswith("e")]
        if not stops:
            if not (edges <= west or not edges & west):
                return crossing
            continue
        side = town_bank(game.title, coord, data, rotation, stops[0])
        if side is None:
            return crossing
        for edge in edges:
            if (edge in west) == (side == "west"):
                continue
            beyond = game.board.neighbor(coord, edge)
            if beyond is not None and _leads_in(game, beyond, coord):
                return (f"{crossing}: the track of its town on the {side}ern bank would go on "
                        f"into {beyond}")
    return None


def _leads_in(game: Game, coord: str, toward: str) -> bool:
    """Whether the tile showing on ``coord`` has track on its side toward ``toward``."""
    from pbem.engine import track

    shown = track.placed(game, coord)
    edge = next((e for e in range(6) if game.board.neighbor(coord, e) == toward), None)
    return edge is not None and edge in shown.tile.exits(shown.rotation)


def continuing_problem(game: Game, coord: str, tile: str, rotation: int) -> str | None:
    """While the Mississippi is closed, why ``tile`` at ``rotation`` may not go on ``coord``
    beside a river hex whose towns stand on different banks, or None: its new track on the
    side toward that hex would continue a town's line out across the river (the town's track
    reaching that side from the other bank; :func:`split_stops_problem`)."""
    from pbem.engine import track

    new_exits = game.tiles[tile].exits(rotation)
    old = track.placed(game, coord)
    old_exits = old.tile.exits(old.rotation)
    for edge in sorted(new_exits - old_exits):
        other = game.board.neighbor(coord, edge)
        found = None if other is None else bank(game.title, other)
        if other is None or found is None or not found.get("town_banks") or other not in game.state.tiles:
            continue
        theirs = (edge + 3) % 6
        shown = track.placed(game, other)
        town = town_on_edge(shown.tile, shown.rotation, theirs)
        side = None if town is None else town_bank(game.title, other, shown.tile, shown.rotation, town)
        if side is not None and (theirs in found["west"]) != (side == "west"):
            return (f"#{tile} at rotation {rotation} on {coord} would continue the track of {other}'s town on "
                    f"the {side}ern bank across the Mississippi")
    return None


def _banks_key(title: TitleData) -> Banks:
    return tuple((coord, tuple(bank["west"]), tuple(bank["east"]), bank.get("stops_on"))
                 for coord, bank in sorted(_banks(title).items()))


def _node(banks: Mapping[str, tuple[tuple[int, ...], tuple[int, ...]]], coord: str, edge: int) -> str:
    bank = banks.get(coord)
    if bank is None:
        return coord
    return f"{coord}/{'west' if edge in bank[0] else 'east'}"


def _flood(board: MapData, banks: Mapping[str, tuple[tuple[int, ...], tuple[int, ...]]],
           start: str, barrier: str | None, cut: frozenset[tuple[str, int]] = frozenset()) -> frozenset[str]:
    seen, todo = {start}, [start]
    while todo:
        coord, _, bank = todo.pop().partition("/")
        edges = range(6) if not bank else banks[coord][0 if bank == "west" else 1]
        for edge in edges:
            other = board.neighbor(coord, edge)
            if other is None or other == barrier or (coord, edge) in cut:
                continue
            node = _node(banks, other, (edge + 3) % 6)
            if node not in seen:
                seen.add(node)
                todo.append(node)
    return frozenset(seen)


@functools.lru_cache(maxsize=8)
def _sides(board: MapData, key: Banks) -> Sides:
    banks = {coord: (west, east) for coord, west, east, _ in key}
    return Sides(west=_flood(board, banks, WEST_SEED, None),
                 illinois=_flood(board, banks, ILLINOIS_SEED, OHIO_HEX, frozenset(OHIO_HEXSIDE)))


def sides(title: TitleData) -> Sides:
    """The board's parts for ``title`` (1870's map and Mississippi banks); computed once per
    map (a pure function of the map, cached by its value)."""
    return _sides(title.board, _banks_key(title))


def edge_side(title: TitleData, found: Sides, coord: str, edge: int) -> Side:
    """The Mississippi side of edge ``edge`` of hex ``coord`` (its bank in a river hex)."""
    bank = _banks(title).get(coord)
    node = coord if bank is None else f"{coord}/{'west' if edge in bank['west'] else 'east'}"
    return "west" if node in found.west else "east"


def stop_side(title: TitleData, found: Sides, coord: str) -> Side:
    """The Mississippi side a stop of ``coord`` stands on: the hex's side, or in a river hex
    the bank its city or town stands on (``stops_on``; east where the data names none)."""
    bank = _banks(title).get(coord)
    if bank is None:
        return "west" if coord in found.west else "east"
    return "west" if bank.get("stops_on") == "west" else "east"


def hex_west(found: Sides, coord: str) -> bool:
    """Whether all of ``coord`` lies west of the Mississippi (not a river hex)."""
    return coord in found.west


def ohio_side(found: Sides, node: str) -> OhioSide:
    """The Ohio side of a node (a coordinate, or ``"<coord>/<bank>"``): north for Illinois,
    south for every other node (Kentucky and the south, and the west, which meets the Ohio
    only across the Mississippi)."""
    return "north" if node in found.illinois else "south"


def stop_ohio_side(title: TitleData, found: Sides, coord: str) -> OhioSide:
    """The Ohio side of a stop of ``coord`` (not E20, whose two towns lie on either side)."""
    bank = _banks(title).get(coord)
    node = coord if bank is None else f"{coord}/{bank.get('stops_on') or 'east'}"
    return ohio_side(found, node)
