"""The Ohio River of Lou Jerkich's Historical Order Start rules for 1870 (issue 13, seed 000,
"Mississippi River Bridge Company - Ohio River Variant"): until the Bridge Company has been
sold to a corporation or has closed (:func:`pbem.titles.g1870.rivers.bridge_open`), the Ohio
is closed:

* **The F19/E18 hex side** (:func:`hexside_problem`). Track east of the Mississippi may not
  cross the side between F19 and E18, which the variant's banks put on the eastern bank of
  both hexes (:mod:`pbem.titles.g1870.rivers`): the Ohio itself, Illinois (E18) to the north,
  Kentucky (F19) to the south. No tile in F19 may have track on its edge 2 (NW, toward E18),
  none in E18 on its edge 5 (SE, toward F19): any such track would run across the Ohio (to
  the western bank too, which the Mississippi also bars). This holds while the company is
  unsold too.
* **Lays in E20** (:func:`e20_lay_problem`), Cairo IL north of the Ohio, Paducah KY south.
  Any corporation, from either side, may lay a two-town tile there; where its track reaches
  the hex it must join the town of its own side. Our reading of "its own track line must
  connect to the small city ... on the appropriate side": of the tile's exits through which
  the corporation's track reaches E20 (:attr:`pbem.engine.reach.Network.hex_edges`), at least
  one must lead to the town on the side of that exit (edges W, NW, NE north: Cairo; SW, SE
  south: Paducah). E20's E edge is off the map, so each tile has exactly two legal
  rotations, the seed's two compass positions; which town is Cairo for each is the setting
  ``ohio_cairo`` (:data:`CAIRO_TABLE`). A tile or rotation the table does not name is
  refused while the Ohio is closed.
* **Track out of E20** (:func:`crossing_problem`): a tile beside E20 may not add track
  to a side of E20 where the E20 tile's line belongs to the town of the other side (it
  would continue across the river); the E20 tile itself may join either side.
* **Runs** (:func:`route_problem`), for every corporation (this is also the GM&O's "routes
  end at E20" and the IC's "no train ... south of Cairo"): a route entering E20 dead-ends in
  the town on its side, counting it. An E20 stop may only be a route's first or last, and
  its side (by the table) must be the Ohio side of the stop next to it on the route
  (:func:`pbem.titles.g1870.rivers.vertex_ohio_side`; a western stop counts as south). E20 is
  the only crossing of the Ohio in our map data, so the next stop's side is the side the
  route leaves E20 by. With small cities a RUN lists every town it passes, so a route
  through E20 always names one of its towns. The dead-end holds on every tile, also where
  Cairo's track stays north of the river (#2 NE, #56 NE, #69 SW): our reading of "must
  dead-end in the small city ... on its side".

The table (tile:rotation:Cairo's town; our rotations, edge 0 SW clockwise to 5 SE), from
each tile's paths (``load_title("1870").tiles``) and the seed's compass positions, each
tile's two legal rotations being the seed's two positions of it, in the same turning sense
for every tile:

* #1 r2 and r5 (seed NE and SW, the same picture): Cairo the western town (r2 t1, r5 t0).
* #2 r0 (seed NE): Cairo t1, the sharp curve W-NW (its track does not cross, as the seed
  notes); r5 (NW): Cairo t1, the sharp curve SW-W.
* #55 r2 and r5 (NE and SW): 180 degrees apart, so each straight line lies on itself in both
  and each town, standing off the crossing on one arm of its line, moves to the opposite arm:
  the northern town is t1 in one position and t0 in the other. The tile's picture (as the
  public tile catalogue draws it unturned) has t0 on the arm toward its edge 3 and t1 on the
  arm toward its edge 1; turned by r they face edges 3+r and 1+r. r2: t1 on the NE arm is
  Cairo, t0 on the SE arm Paducah; r5: t0 on the NW arm is Cairo, t1 on the SW arm Paducah.
* #56 r0 (NE): Cairo t1, the curve W-NE (not crossing, as the seed notes); r5 (NW): Cairo t1,
  the curve SW-NW, the more northern one.
* #69 r3 (E): Cairo t0, the straight line SW-NE, Paducah the curve SE-W; r5 (SW): Cairo t1,
  the curve W-NE (not crossing, as the seed notes), Paducah on the straight line NW-SE.

Settings (``game.yaml`` ``title_rules``; plain 1870: off): ``ohio_river`` (bool) switches
the rules on, ``ohio_cairo`` (str) is the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping, cast

from pbem.titles.g1870 import rivers

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.values import Vertex

RULE = "ohio_river"
"""The setting switching the Ohio rules on."""
CAIRO = "ohio_cairo"
"""The setting naming Cairo's town for each tile and rotation in E20."""
CAIRO_TABLE = "1:2:t1 1:5:t0 2:0:t1 2:5:t1 55:2:t1 55:5:t0 56:0:t1 56:5:t1 69:3:t0 69:5:t1"
"""Our mapping of the seed's table: ``tile:rotation:town`` entries separated by blanks, the
town (``t0``/``t1``) being Cairo, north of the Ohio; the other is Paducah (module text)."""

DEFAULTS: Mapping[str, bool | str] = {RULE: False, CAIRO: CAIRO_TABLE}
"""Each setting and its default (plain 1870: the Ohio is no barrier)."""

TOWN_NAMES: Mapping[rivers.OhioSide, str] = {"north": "Cairo", "south": "Paducah"}
"""E20's two towns by their side of the Ohio (seed 000: Cairo IL north, Paducah KY south)."""
REGIONS: Mapping[rivers.OhioSide, str] = {"north": "Illinois", "south": "Kentucky"}
"""The land on each side of the Ohio at E20, as refusals name it."""


def active(game: Game) -> bool:
    """Whether the game plays the Ohio rules."""
    return bool(game.title.title_rule(RULE))


def closed(game: Game) -> bool:
    """Whether the Ohio is closed now: the rules are played and the Bridge Company has not
    been sold to a corporation nor closed."""
    return active(game) and not rivers.bridge_open(game)


def parse_cairo_table(text: str) -> Mapping[tuple[str, int], str]:
    """The setting ``ohio_cairo``'s text read: ``(tile, rotation) -> Cairo's town``
    (``"t0"``/``"t1"``).

    :raises ValueError: an entry not of the form ``tile:rotation:t0`` or ``t1``.
    """
    table: dict[tuple[str, int], str] = {}
    for entry in text.split():
        tile, _, rest = entry.partition(":")
        rotation, _, town = rest.partition(":")
        if not tile or not rotation.isdigit() or int(rotation) > 5 or town not in ("t0", "t1"):
            raise ValueError(f"title_rules.{CAIRO}: {entry!r} is not tile:rotation:t0 or tile:rotation:t1")
        table[(tile, int(rotation))] = town
    return table


_TABLE_KEY = ("g1870", "ohio_cairo")
"""The key of the parsed table in the game's cache (:attr:`pbem.engine.game.Game.cache`)."""


def cairo_table(game: Game) -> Mapping[tuple[str, int], str]:
    """The setting ``ohio_cairo`` of ``game`` parsed (:func:`parse_cairo_table`), once per
    game: the result is kept in the game's cache against the setting's text, so a route
    check does not read it again.

    :raises ValueError: an entry not of the form ``tile:rotation:t0`` or ``t1``.
    """
    text = str(game.title.title_rule(CAIRO))
    cached = game.cache.get(_TABLE_KEY)
    if cached is not None and cached[0] == text:
        return cast(Mapping[tuple[str, int], str], cached[1])
    table = parse_cairo_table(text)
    game.cache[_TABLE_KEY] = (text, table)
    return table


def edge_side(edge: int) -> rivers.OhioSide:
    """The Ohio side of E20's edge ``edge`` (:data:`~pbem.titles.g1870.rivers.OHIO_NORTH_EDGES`)."""
    return "north" if edge in rivers.OHIO_NORTH_EDGES else "south"


def town_side(game: Game, tile: str, rotation: int, town: str) -> rivers.OhioSide | None:
    """The Ohio side of town ``town`` of ``tile`` at ``rotation`` in E20 by the table, or
    None where the table does not name the tile and rotation."""
    cairo = cairo_table(game).get((tile, rotation))
    if cairo is None:
        return None
    return "north" if town == cairo else "south"


def stop_ref(town: str) -> str:
    """How orders write E20's town ``town`` (``"t1"`` -> ``"E20.1"``)."""
    return f"{rivers.OHIO_HEX}.{town[1:]}"


def town_label(game: Game, town: str) -> str:
    """E20's town ``town`` (``"t0"``/``"t1"``) named for players by the tile on E20 now:
    ``"Cairo (E20.1)"``; only ``"E20.1"`` where E20 has no tile the table names."""
    laid = game.state.tiles.get(rivers.OHIO_HEX)
    side = None if laid is None else town_side(game, laid[0], laid[1], town)
    return stop_ref(town) if side is None else f"{TOWN_NAMES[side]} ({stop_ref(town)})"


def towns_line(game: Game) -> str | None:
    """The report's line naming E20's towns once a tile the table names is there
    (``"E20.1 Cairo (north), E20.0 Paducah (south)"``, Cairo first), or None (mail review
    #7: RUN orders write the towns as E20.0 and E20.1)."""
    laid = game.state.tiles.get(rivers.OHIO_HEX)
    if laid is None or town_side(game, laid[0], laid[1], "t0") is None:
        return None
    named = sorted(((town_side(game, laid[0], laid[1], t) or "south", t) for t in ("t0", "t1")))
    return "E20's towns: " + ", ".join(f"{stop_ref(t)} {TOWN_NAMES[side]} ({side})" for side, t in named)


def hexside_problem(game: Game, coord: str, tile: str, rotation: int) -> str | None:
    """Why ``tile`` at ``rotation`` may not go on ``coord`` because its track would cross the
    Ohio's hex side between F19 and E18 (:data:`~pbem.titles.g1870.rivers.OHIO_HEXSIDE`) while
    the Ohio is closed, or None: a path of the tile on that side (module text)."""
    if not closed(game):
        return None
    edge = dict(rivers.OHIO_HEXSIDE).get(coord)
    if edge is None or edge not in game.tiles[tile].exits(rotation):
        return None
    return (f"#{tile} at rotation {rotation} would cross the Ohio between F19 and E18 "
            f"before the Bridge Company is sold to a corporation or closes")


def e20_lay_problem(game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
    """Why ``corp`` may not lay ``tile`` at ``rotation`` on E20 while the Ohio is closed, or
    None: a tile and rotation the table does not name (those running off the map are left to
    the core's check), or one whose exits reached by ``corp``'s track all lead to the town of
    the other side (module text). Where ``corp``'s track reaches none of its exits, the core's
    reach check decides."""
    if coord != rivers.OHIO_HEX or not closed(game):
        return None
    from pbem.engine import track

    data = game.tiles[tile]
    exits = data.exits(rotation)
    if (tile, rotation) not in cairo_table(game):
        if any(game.board.neighbor(coord, e) is None for e in exits):
            return None
        return (f"#{tile} at rotation {rotation}: the Ohio table names no Cairo for it, so it may "
                f"not go on {coord} before the Bridge Company is sold to a corporation or closes")
    reached = track.network(game, corp).hex_edges.get(coord, set()) & exits
    if not reached:
        return None
    for edge in sorted(reached):
        town = rivers.town_on_edge(game.tiles[tile], rotation, edge)
        if town is not None and town_side(game, tile, rotation, town) == edge_side(edge):
            return None
    sides = sorted({edge_side(e) for e in reached})
    towns = sorted({t for t in (rivers.town_on_edge(game.tiles[tile], rotation, e) for e in reached) if t is not None})
    wrong = " and ".join(f"{TOWN_NAMES[town_side(game, tile, rotation, t) or 'south']} ({stop_ref(t)})"
                         for t in towns) or "neither town"
    return (f"#{tile} at rotation {rotation} joins {corp}'s track from the {' and '.join(sides)} of the "
            f"Ohio to {wrong}: its track must connect to the town on its own side of the river "
            f"(Cairo north, Paducah south) until the Bridge Company is sold to a corporation or closes")


def _exits_of(game: Game, coord: str) -> frozenset[int]:
    from pbem.engine import track

    shown = track.placed(game, coord)
    return shown.tile.exits(shown.rotation)


def _crossing(game: Game, tile: str, rotation: int, edge: int, coord: str) -> str | None:
    """The refusal where E20's ``tile`` at ``rotation`` has, at its edge ``edge``, the track of
    the town of the other side of the Ohio than that edge's side, or None."""
    town = rivers.town_on_edge(game.tiles[tile], rotation, edge)
    side = None if town is None else town_side(game, tile, rotation, town)
    if town is None or side is None or side == edge_side(edge):
        return None
    into = REGIONS[edge_side(edge)]
    return (f"E20's {edge_side(edge)} side joins {TOWN_NAMES[side]} ({stop_ref(town)}) on #{tile}: track out of "
            f"{coord} there would continue {TOWN_NAMES[side]}'s line across the Ohio into {into}, which is "
            f"not allowed until the Bridge Company is sold to a corporation or closes")


def crossing_problem(game: Game, coord: str, tile: str, rotation: int) -> str | None:
    """Why ``tile`` at ``rotation`` may not go on ``coord`` because it would join track out of
    E20 to the far side of the Ohio while the Ohio is closed, or None (mail review #2; seed
    000: track may not continue out of E20 such that it clearly crosses the river).

    Our reading: a side of E20 where the E20 tile's track belongs to the town of the other
    side of the river (Cairo's line leaving by a southern edge, Paducah's by a northern one)
    may not be joined by new track across that side: a tile beside E20 whose new track (an
    exit its old tile did not have) reaches such a side is refused, for lays and upgrades
    alike. The tile on E20 itself is not judged by this: the seed lets any company place it
    "whether or not its track connects on the other side" (its own track must reach its own
    side's town, :func:`e20_lay_problem`, and runs dead-end there, :func:`route_problem`);
    no tile upgrades E20's two-town tiles in 1870, so no E20 upgrade arises.
    """
    if not closed(game) or coord == rivers.OHIO_HEX:
        return None
    board = game.board
    new_exits = game.tiles[tile].exits(rotation)
    laid = game.state.tiles.get(rivers.OHIO_HEX)
    toward = next((e for e in range(6) if board.neighbor(coord, e) == rivers.OHIO_HEX), None)
    if laid is None or toward is None or toward not in new_exits or toward in _exits_of(game, coord):
        return None
    problem = _crossing(game, laid[0], laid[1], (toward + 3) % 6, coord)
    return None if problem is None else f"#{tile} at rotation {rotation} on {coord}: {problem}"


def lay_problem(game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
    """The Ohio's reasons ``corp`` may not lay ``tile`` at ``rotation`` on ``coord``, or None:
    :func:`hexside_problem`, :func:`e20_lay_problem`, then :func:`crossing_problem`.

    :raises ValueError: the setting ``ohio_cairo`` is malformed (:func:`parse_cairo_table`)."""
    return (hexside_problem(game, coord, tile, rotation)
            or e20_lay_problem(game, corp, coord, tile, rotation)
            or crossing_problem(game, coord, tile, rotation))


def route_problem(game: Game, stops: list[Vertex]) -> str | None:
    """Why a route visiting ``stops`` (stop vertices in order) may not run while the Ohio is
    closed, or None: a stop in E20 not at an end of the route, or one whose side is not the
    side of the stop next to it (module text). Shared by every corporation. Refusals name
    the town with its stop (``Paducah (E20.0)``).

    :raises ValueError: the setting ``ohio_cairo`` is malformed (:func:`parse_cairo_table`)."""
    if not closed(game) or not any(v.coord == rivers.OHIO_HEX for v in stops):
        return None
    from pbem.engine import track

    last = len(stops) - 1
    for i, vertex in enumerate(stops):
        if vertex.coord != rivers.OHIO_HEX:
            continue
        if 0 < i < last:
            return (f"a run may not pass through {vertex.coord} ({town_label(game, vertex.stop)}): it dead-ends "
                    f"in the town on its side of the Ohio until the Bridge Company is sold to a corporation "
                    f"or closes")
        shown = track.placed(game, vertex.coord)
        side = town_side(game, shown.tile.name, shown.rotation, vertex.stop)
        if side is None:
            return (f"#{shown.tile.name} at rotation {shown.rotation} on {vertex.coord}: the Ohio table "
                    f"names no Cairo for it, so no run may stop there while the Ohio is closed")
        nxt = stops[1] if i == 0 else stops[last - 1]
        if nxt.coord == rivers.OHIO_HEX:
            return "a run may not join Cairo and Paducah while the Ohio is closed"
        there = rivers.vertex_ohio_side(game, nxt)
        if there != side:
            return (f"a run may not cross the Ohio at {vertex.coord}: {TOWN_NAMES[side]} "
                    f"({stop_ref(vertex.stop)}) is {side} of the river and {nxt.coord} {there}, "
                    f"until the Bridge Company is sold to a corporation or closes")
    return None


def report_lines(game: Game) -> tuple[str, ...]:
    """The report's lines on the rivers' state while the Ohio rules are played (none
    otherwise): closed, naming the Bridge Company's holder, or open, naming its owner or that
    it has closed; then which of E20's towns is Cairo and which Paducah once a tile is there
    (:func:`towns_line`)."""
    if not active(game):
        return ()
    company = game.state.companies.get(rivers.BRIDGE_COMPANY)
    if company is None:
        return ("Ohio and Mississippi open: the game has no Bridge Company",)
    sym = rivers.BRIDGE_COMPANY
    if rivers.bridge_open(game):
        how = f"{sym} closed" if company.closed or company.owner is None else f"{sym} owned by {company.owner.name}"
        towns = towns_line(game)
        return (f"Ohio and Mississippi open: {how}",) + ((towns,) if towns else ())
    held = f"{sym} held by {company.owner.name}" if company.owner is not None else f"{sym} unsold"
    towns = towns_line(game)
    return ((f"Ohio and Mississippi closed until the Bridge Company is sold to a corporation or "
             f"closes ({held}); trains entering E20 end in Cairo (north) or Paducah (south)",)
            + ((towns,) if towns else ()))
