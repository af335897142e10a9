"""The Illinois Central under Lou Jerkich's additional rules for 1870's Historical Order Start
(issue 13, seed 000, "2. Illinois Central Railroad"): two home stations, Jackson (its charter
home, K16) and Chicago (its destination, the off-board area A22), and what it may not do until
the two are joined.

The rules, each a function below, for the corporation the setting ``historical_illinois``
names (the variant: ``IC``; empty, the default, turns all of it off):

* Homes (:func:`homes`, :func:`place_chicago`): both tokens go on the map as its first
  operating turn begins. The Chicago token is its destination token: not one of the charter's
  tokens (the charter keeps [0, 40]) and, like a placed destination token, in a slot of its own
  (:func:`holds_base`, used by 1870's ``station_tokens`` and ``city_slots``).
* Connection (:func:`joined`, :func:`connect`): due only while the Bridge Company is open
  (:func:`pbem.titles.g1870.rivers.bridge_open`) and once one of its trains (or two 2-trains
  run as one, small cities rule 3) could run from Jackson to Chicago by the track it may use
  before it connects (below), stops counted as runs count them (with small cities a town
  passed costs no length, rule 2; every corporation's connection is counted so,
  :func:`pbem.titles.g1870.connections.route_joins`); its destination token
  being on the map already, no DESTINATION choice is asked: it connects with the token on the
  map, and from then Chicago counts twice at an end of its runs (1870's destination bonus).
* Until Jackson and Chicago are joined by unblocked continuous track east of the river with
  the Bridge Company open (:func:`track_joined`: no train needed; or it has connected), west
  of the Mississippi (:func:`lay_problem`, :func:`route_problem`):
  no tile in a hex west of the river, and in a river hex no new path with an edge on the
  western bank or to a stop standing on it (the GM&O's check, :func:`.gmo.west_track`); no
  stop west of the river, nor track between two stops that runs on the western side.
  Exceptions: St. Louis C18 (its city reached, and as a stop once the Bridge Company is open;
  never beyond it: its western edges stay closed), and Carthage in A16 (below).
* Its $40 token (:func:`token_problem`): not before the operating round after the one it
  connected in.
* Lays (:func:`lay_problem`): 1870's two yellow tiles or one upgrade a turn, from either or
  both homes, which the core's reach and ``tile_lays`` already give; its first tile ever is on
  the hex beyond Chicago's south-west side (``historical_illinois_first_edges``, the edges of
  A22), joined to Chicago, and in its first operating turn it must lay it while it can (no PASS:
  :class:`ChicagoLay`); until its connection run is over, none of its tiles has new track on
  Chicago's western side (``historical_illinois_closed_edges``).

Readings (also in the variant's yaml and the report of issue 13):

* Carthage (setting ``historical_illinois_carthage``, ``"A16 0"``): A16 takes only #2 and #56,
  each at one rotation (4), and on both the town joined to edge 0 is the seed's Carthage (#2:
  the southern town, on the SE-SW curve; #56: the eastern one, on the E-SW curve); the other
  (joined to edge 1) is Fort Madison. The variant's banks put Carthage on the eastern bank and
  Fort Madison on the western (``town_banks``, :func:`.rivers.vertex_side`), so while a player
  holds the Bridge Company a tile may go on A16 where no town's track goes on out of it across
  the river (:func:`.rivers.split_stops_problem`; plain 1870 has both towns west and no tile
  there). The IC may lay the tile whose Carthage its track enters (a tile it enters toward
  Fort Madison is refused, and so is its track joined to Fort Madison's side of A16 from a
  neighbour) and stop at Carthage; never at Fort Madison, and no tile or track beyond Carthage:
  the general rule keeps all of that closed until it has connected, which needs the Bridge
  Company open, so the seed's "until the Bridge Company is closed or sold" for Carthage adds
  nothing to it.
* "Joined through E20": track its train could run with every stop and every piece of track
  between them on the eastern side, as above (so a way round by the west does not count; the
  only crossing of the Ohio east of the Mississippi is E20).
* "Its first tile lay must be out of Chicago": every lay of its is that tile until track leaves
  Chicago's south-west side (B21 joined to A22; whoever built it, the IC's line out of Chicago
  is then there); in its first operating turn the lay is mandatory while one is legal (seed's
  commentary: "the mandatory IC placement of track emanating from Chicago on its first operating
  turn"); in a later turn it may still lay nothing. "Out of Chicago only from the south-west
  side" is that lay.
* "Not into or out of the western edge": no new track of its own on that hex side (a tile on
  A20 with a path to A22); track another corporation builds there is not the IC's building.
* The $40 token: the connection's round is recorded when the connection is found (or ruled by
  the GM); the token may be placed from the next operating round on.
* Chicago's slot: A22 is an off-board area with no printed slot; a token there stands on its
  stop and takes no one's slot (as 1870's placed destination tokens do), so the Chicago token
  needs no extra slot of its own beyond not counting among the charter's tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Hashable, Iterable, Mapping, cast

from pbem.engine.actions import Action, LayTile, Pass
from pbem.engine.events import Event, Money
from pbem.engine.steps.operating.base import OpStep
from pbem.engine.values import CityRef, Vertex
from pbem.titles.g1870 import gmo, rivers
from pbem.errors import IllegalOrderError
from pbem.titles.g1870.state import state1870

if TYPE_CHECKING:
    from pbem.engine.board import TileData
    from pbem.engine.game import Game
    from pbem.engine.graph import Link

RULE = "historical_illinois"
FIRST_EDGES = "historical_illinois_first_edges"
CLOSED_EDGES = "historical_illinois_closed_edges"
CARTHAGE = "historical_illinois_carthage"
ST_LOUIS = "C18"
"""St. Louis, the one western city the IC may run to before it connects (seed 000)."""

DEFAULTS: Mapping[str, str] = {RULE: "", FIRST_EDGES: "", CLOSED_EDGES: "", CARTHAGE: ""}
"""Each setting and its default (plain 1870: no corporation has these rules)."""


@dataclass(frozen=True)
class ChicagoDestination(Event):
    """``corporation``'s second home on ``destination`` becomes its destination station (it
    has connected; the token is on the map already)."""

    corporation: str
    destination: str

    def render(self, money: Money) -> str:
        return (f"{self.corporation}'s station on {self.destination} is its destination token; runs starting "
                f"or ending there count it twice")


def corporation(game: Game) -> str | None:
    """The corporation the rules are for (setting ``historical_illinois``), or None."""
    sym = str(game.title.title_rule(RULE))
    return sym if sym and sym in game.state.corporations else None


def applies(game: Game, corp: str) -> bool:
    """Whether ``corp`` is the corporation of these rules."""
    return corp == corporation(game)


def chicago(game: Game, corp: str) -> str:
    """The second home: ``corp``'s destination hex (corporations.yaml; the IC's A22)."""
    from pbem.titles.g1870.connections import destination

    found = destination(game.title, corp)
    assert found is not None, f"{corp} has no destination"
    return found


@dataclass(frozen=True)
class Settings:
    """The IC's settings, parsed: ``first_edges`` (``historical_illinois_first_edges``: the
    edges of Chicago its first tile goes beyond), ``closed_edges``
    (``historical_illinois_closed_edges``: its western side) and ``carthage``
    (``historical_illinois_carthage``: ``(hex, edge)`` of Carthage, or None)."""

    first_edges: frozenset[int]
    closed_edges: frozenset[int]
    carthage: tuple[str, int] | None


def settings(game: Game) -> Settings:
    """The title's :class:`Settings`, parsed once per game (kept in ``game.cache``).

    :raises ValueError: an edge list that is not blank-separated numbers, or a Carthage
        setting whose edge is not a number."""
    cached = game.cache.get(("ic settings",))
    if cached is not None and cached[0] is game.title:
        return cast(Settings, cached[1])

    def edges(key: str) -> frozenset[int]:
        return frozenset(int(e) for e in str(game.title.title_rule(key)).split())

    spec = str(game.title.title_rule(CARTHAGE)).split()
    found = Settings(edges(FIRST_EDGES), edges(CLOSED_EDGES), (spec[0], int(spec[1])) if len(spec) == 2 else None)
    game.cache[("ic settings",)] = (game.title, found)
    return found


def connected(game: Game, corp: str) -> bool:
    """Whether ``corp`` has connected Jackson and Chicago (1870: its destination reached)."""
    return corp in state1870(game.state).destinations_reached


def run_made(game: Game, corp: str) -> bool:
    """Whether ``corp`` has connected and its connection run is no longer owed."""
    return connected(game, corp) and corp not in state1870(game.state).connections


def homes(game: Game, corp: str) -> tuple[CityRef, ...]:
    """The further home of ``corp``: Chicago (its one stop, 0), or nothing for another."""
    return (CityRef(chicago(game, corp), 0),) if applies(game, corp) else ()


def holds_base(game: Game, corp: str) -> bool:
    """Whether ``corp`` has its Chicago home token on the map: that token is its destination
    token, not one of the charter's."""
    if not applies(game, corp):
        return False
    from pbem.engine import track

    return corp in track.tokens_in(game, chicago(game, corp), 0)  # the area's one stop


def place_chicago(game: Game, corp: str) -> None:
    """As ``corp``'s first operating turn begins (its Jackson token just placed by the core),
    its Chicago token goes on the map too (seed 000: "both placed on the map immediately at
    the start of the IC's first operating round")."""
    from pbem.engine import track
    from pbem.engine.events import TokenPlaced

    state = game.state
    if (not applies(game, corp) or state.corporations[corp].operated or holds_base(game, corp)
            or connected(game, corp) or not any(corp in corps for corps in state.tokens.values())):
        return
    where = chicago(game, corp)
    state.tokens.setdefault(track.city_key(where, 0), []).append(corp)
    game.event(TokenPlaced(corp, where, home=True))


def connect(game: Game, corp: str) -> None:
    """``corp``'s connection is owed now: with its Chicago token on the map, that token is
    its destination token (no choice is asked) and the round is recorded for its $40 token."""
    mine = state1870(game.state)
    if not holds_base(game, corp) or corp in mine.destinations_reached:
        return
    mine.destinations_reached.append(corp)
    mine.connection_rounds[corp] = (game.state.round.number, game.state.round.or_number)
    game.event(ChicagoDestination(corp, chicago(game, corp)))


# -- west of the Mississippi ---------------------------------------------------------------------


def _towns(tile: TileData, rotation: int, edge: int) -> tuple[str | None, frozenset[int]]:
    """On ``tile`` at ``rotation``: the town joined to ``edge`` (Carthage), or None, and the
    edges joined to its other towns (Fort Madison)."""
    town = rivers.town_on_edge(tile, rotation, edge)
    others = frozenset(e for e in range(6)
                       if (found := rivers.town_on_edge(tile, rotation, e)) is not None and found != town)
    return town, others


def carthage(game: Game) -> tuple[str, str] | None:
    """``(hex, town)`` of Carthage on the tile showing there (the town joined to the edge the
    setting ``historical_illinois_carthage`` names), or None without a setting or such a town."""
    from pbem.engine import track

    spec = settings(game).carthage
    if spec is None:
        return None
    shown = track.placed(game, spec[0])
    town = _towns(shown.tile, shown.rotation, spec[1])[0]
    return (spec[0], town) if town is not None else None


def _fort_madison_edges(game: Game) -> frozenset[int]:
    """The edges of Carthage's hex joined to its other town (Fort Madison), if it has a tile."""
    from pbem.engine import track

    spec = settings(game).carthage
    if spec is None:
        return frozenset()
    shown = track.placed(game, spec[0])
    town, fort = _towns(shown.tile, shown.rotation, spec[1])
    return fort if town is not None else frozenset()


def stop_allowed(game: Game, vertex: Vertex) -> bool:
    """Whether the IC may stop at ``vertex`` before it connects: any stop on the eastern side
    of the Mississippi; St. Louis once the Bridge Company is open; Carthage."""
    if rivers.vertex_side(game, vertex) == "east":
        return True
    if vertex.coord == ST_LOUIS:
        return rivers.bridge_open(game)
    return carthage(game) == (vertex.coord, vertex.stop)


def _link_east(game: Game, link: Link) -> bool:
    found = rivers.sides(game.title)
    return all(rivers.edge_side(game.title, found, coord, edge) == "east"
               for seg in link.segments for coord, edge in seg.sides)


def route_problem(game: Game, corp: str, stops: list[Vertex]) -> str | None:
    """Why ``corp`` may not run ``stops`` before it has connected, or None: a stop west of the
    Mississippi but St. Louis (Bridge Company open) and Carthage, or two stops that only track
    on the western side joins."""
    from pbem.engine import track

    if not applies(game, corp) or track_joined(game, corp):
        return None
    for vertex in stops:
        if vertex.coord == ST_LOUIS and not stop_allowed(game, vertex):
            return f"{corp} may not run to St. Louis {ST_LOUIS} until the Bridge Company is sold to a corporation or closed"
        if not stop_allowed(game, vertex):
            return (f"{corp} may not run to {vertex.coord} west of the Mississippi until Jackson and Chicago "
                    f"are connected")
    graph = track.track_graph(game)
    for here, there in zip(stops, stops[1:]):
        links = [link for link in graph.links(here) if link.end == there]
        if links and not any(_link_east(game, link) for link in links):
            return (f"{corp} may not run west of the Mississippi between {here.coord} and {there.coord} "
                    f"until Jackson and Chicago are connected")
    return None


def _base_route(game: Game, corp: str, length: int | None) -> bool:
    """Whether Jackson and Chicago are joined for ``corp`` within ``length`` (None: by track
    alone) over stops and track it may use before it connects, not through a city filled by
    others (:func:`pbem.titles.g1870.connections.route_joins`)."""
    from pbem.engine import track
    from pbem.titles.g1870.connections import connection_home, route_joins

    coord, city = connection_home(game, corp)
    start = Vertex(coord, track.token_stop(game, coord, city))
    return route_joins(game, corp, start, chicago(game, corp), length,
                       link_ok=lambda link: _link_east(game, link), stop_ok=lambda stop: stop_allowed(game, stop))


def joined(game: Game, corp: str) -> bool:
    """Whether ``corp``'s connection is due as far as these rules go: True for another
    corporation; for the IC, the Bridge Company is open and one of its trains (or two run as
    one) could run from Jackson to Chicago over stops and track it may use before it connects,
    each stop counted as a run counts it (with small cities a town passed costs nothing), none
    twice, no track twice, not through a city filled by others: as 1870's connection."""
    from pbem.titles.g1870.connections import connection_length

    if not applies(game, corp):
        return True
    length = connection_length(game, corp)
    return rivers.bridge_open(game) and length >= 2 and _base_route(game, corp, length)


def track_joined(game: Game, corp: str) -> bool:
    """Whether the IC's west-of-the-Mississippi bans are lifted: it has connected, or the
    Bridge Company is open and Jackson and Chicago are joined by unblocked continuous track
    east of the river (seed 000: "until these two bases have been connected by an unblocked
    route of continuous track through Cairo or Paducah"; no train is needed: the train
    belongs to Chicago counting as its destination). Read on the position as it stands (a
    join later cut by a city filling up closes the west again until it connects). Cached on
    the game per track graph, tokens and the title's graph key."""
    from pbem.engine import track

    if connected(game, corp):
        return True
    if not rivers.bridge_open(game):
        return False
    state = game.state
    graph = track.track_graph(game)
    key = (tuple((k, tuple(v)) for k, v in state.tokens.items()), game.hooks.track.graph_key(game))
    cached = game.cache.get(("ic track joined", corp))
    if cached is not None and cached[0] is graph:
        stored, answer = cast("tuple[object, bool]", cached[1])
        if stored == key:
            return answer
    found = _base_route(game, corp, None)
    game.cache[("ic track joined", corp)] = (graph, (key, found))
    return found


# -- tiles and tokens ----------------------------------------------------------------------------


def lay_problem(game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
    """Why ``corp`` may not lay ``tile`` at ``rotation`` on ``coord`` under these rules, or
    None (see the module text: west of the Mississippi, Carthage, the first lay, Chicago's
    western side)."""
    if not applies(game, corp):
        return None
    return (_first_lay_problem(game, corp, coord, tile, rotation)
            or _closed_side_problem(game, corp, coord, tile, rotation)
            or _west_problem(game, corp, coord, tile, rotation))


def _new_sides(game: Game, coord: str, tile: str, rotation: int) -> list[int]:
    """The edges of ``coord`` that the new track of ``tile`` (its paths not on the old tile)
    reaches."""
    from pbem.engine import track
    from pbem.engine.board import edge_of

    new = game.tiles[tile]
    paths = new.paths_at(rotation)
    found = []
    for index in track.added_paths(track.placed(game, coord), new, rotation):
        found += [e for e in map(edge_of, paths[index]) if e is not None]
    return found


def out_of_chicago(game: Game, corp: str) -> bool:
    """Whether track leaves Chicago on the side its first tile must go (a tile on the hex
    beyond one of the edges ``historical_illinois_first_edges`` names, joined to Chicago):
    until then every lay of ``corp``'s must be that tile (seed 000: "the IC's first tile lay
    must be out of Chicago"). True without the setting."""
    from pbem.engine import track

    edges = settings(game).first_edges
    if not edges:
        return True
    where = chicago(game, corp)
    for edge in edges:
        beyond = game.board.neighbor(where, edge)
        if beyond is None:
            continue
        shown = track.placed(game, beyond)
        if (edge + 3) % 6 in shown.tile.exits(shown.rotation):
            return True
    return False


def _first_lay_problem(game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
    edges = settings(game).first_edges
    if not edges or out_of_chicago(game, corp):
        return None
    where = chicago(game, corp)
    for edge in edges:
        if game.board.neighbor(where, edge) == coord and (edge + 3) % 6 in game.tiles[tile].exits(rotation):
            return None
    beyond = ", ".join(str(game.board.neighbor(where, e)) for e in sorted(edges))
    return f"{corp}'s first tile must be laid out of {where}: on {beyond}, joined to {where}"


def first_lays(game: Game, corp: str) -> list[LayTile]:
    """The lays out of Chicago ``corp`` must choose from now: in its first operating turn,
    before it has laid a tile, while no track leaves Chicago's south-west side, the legal
    lays there (:func:`pbem.engine.lays.legal_lays`, which the first-lay rule limits to
    them); empty otherwise, and then it may PASS (seed 000: "the mandatory IC placement of
    track emanating from Chicago on its first operating turn")."""
    from pbem.engine.lays import legal_lays

    op = game.state.round.operating
    if (not applies(game, corp) or op is None or op.tiles_laid or game.state.corporations[corp].operated
            or op.index >= len(op.order) or op.order[op.index] != corp or out_of_chicago(game, corp)):
        return []
    return [LayTile(lay.hex, lay.tile, lay.rotation) for lay in legal_lays(game, corp)]


class ChicagoLay(OpStep):
    """The IC's first tile, out of Chicago, in its first operating turn: a lay it must make
    while one is legal (no PASS; :func:`first_lays`). The lay is the track step's own
    (:class:`pbem.engine.steps.operating.Track`); the turn's second yellow tile follows there."""

    name: ClassVar[str] = "ic_chicago_lay"
    description: ClassVar[str] = "lay the first tile out of Chicago (LAY <hex> <tile> <rotation>)"
    takes = (LayTile, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = game.state.round.operating
        if op is None or op.index >= len(op.order):
            return False
        return bool(first_lays(game, op.order[op.index]))

    @classmethod
    def describe(cls, game: Game) -> str:
        from pbem.engine.steps.operating.base import current_corp

        corp = current_corp(game)
        where = chicago(game, corp)
        beyond = ", ".join(str(game.board.neighbor(where, e)) for e in sorted(settings(game).first_edges))
        return f"lay {corp}'s first tile out of Chicago {where}, on {beyond} (LAY {beyond} <tile> <rotation>)"

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        from pbem.engine.steps.operating import Track

        if isinstance(action, Pass):
            raise IllegalOrderError("in its first operating turn the IC must lay its first tile out of Chicago "
                                    "while it can: " + cls.describe(game))
        Track.process(game, player, action)

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """The lays of :func:`first_lays` (no PASS)."""
        from pbem.engine.steps.operating.base import current_corp

        return list(first_lays(game, current_corp(game)))

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return cls.legal_actions(game, player)


def _closed_side_problem(game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
    edges = settings(game).closed_edges
    if not edges or run_made(game, corp):
        return None
    where = chicago(game, corp)
    for edge in _new_sides(game, coord, tile, rotation):
        if game.board.neighbor(coord, edge) == where and (edge + 3) % 6 in edges:
            return f"{corp} may not build into or out of {where}'s western side until after its connection run"
    return None


def _west_problem(game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
    from pbem.engine import track

    if track_joined(game, corp):
        return None
    why = f"{corp} may not build west of the Mississippi until Jackson and Chicago are connected"
    sides = _new_sides(game, coord, tile, rotation)
    spec = settings(game).carthage
    fort = _fort_madison_edges(game)
    for edge in sides:
        other = game.board.neighbor(coord, edge)
        if spec is not None and other == spec[0] and (edge + 3) % 6 in fort:
            return f"{corp} may build to Carthage but not to Fort Madison on {other}"
    if spec is not None and coord == spec[0]:
        town, fort = _towns(game.tiles[tile], rotation, spec[1])
        if town is None:
            return f"{corp} may build on {coord} only a tile with Carthage (the town joined to its edge {spec[1]})"
        if fort & track.network(game, corp).hex_edges.get(coord, set()):
            return f"{corp} may build to Carthage but not to Fort Madison on {coord}"
        return None
    # the one check of track west of the river, shared with the GM&O (St. Louis: to its city only)
    if gmo.west_track(game, coord, tile, rotation, stop_allowed=coord == ST_LOUIS) is not None:
        return why
    return None


def token_problem(game: Game, corp: str, coord: str, city: int) -> str | None:
    """Why ``corp`` may not place a station token now, or None: its $40 token waits for the
    operating round after the one it connected in (seed 000)."""
    if not applies(game, corp):
        return None
    when = state1870(game.state).connection_rounds.get(corp)
    now = (game.state.round.number, game.state.round.or_number)
    if when is None or now <= when:
        return f"{corp}'s $40 token may not be placed until the operating round after its connection run"
    return None


def place_name(game: Game, coord: str) -> str:
    """``coord`` with the map's name for it first (``"Jackson K16"``), or the coordinate alone."""
    name = game.board.hexes[coord].name if coord in game.board.hexes else None
    return f"{name} {coord}" if name else coord


def report_lines(game: Game) -> tuple[str, ...]:
    """The report's lines on the IC, places named with their coordinates: its two homes (and,
    before its first turn, that both are placed as it first operates); its first tile out of
    Chicago while no track leaves that side; until Jackson and Chicago are joined by track
    (:func:`track_joined`), what it may not do west of the Mississippi; until its connection
    run, Chicago's western side; once connected, when its $40 token may be placed. Empty when
    not played."""
    from pbem.titles.g1870.connections import connection_home
    sym = corporation(game)
    if sym is None:
        return ()
    home, where = place_name(game, connection_home(game, sym)[0]), place_name(game, chicago(game, sym))
    first = "" if game.state.corporations[sym].operated else ", both placed as it first operates"
    lines = [f"{sym}: homes {home} and {where} (its destination token){first}"]
    edges = settings(game).first_edges
    if edges and not out_of_chicago(game, sym):
        beyond = ", ".join(str(game.board.neighbor(chicago(game, sym), e)) for e in sorted(edges))
        lines.append(f"{sym}: its first tile goes on {beyond}, out of {where} (in its first turn it may not PASS it)")
    if not track_joined(game, sym):
        spec = settings(game).carthage
        carthage_at = f" and Carthage {spec[0]}" if spec is not None else ""
        lines.append(f"{sym}: {home} and {where} not yet joined by track through {rivers.OHIO_HEX} with the Bridge "
                     f"Company sold to a corporation or closed; until then no track or stop west of the "
                     f"Mississippi but St. Louis {ST_LOUIS} (once the Bridge Company is open){carthage_at}")
    if not run_made(game, sym):
        lines.append(f"{sym}: no new track on {where}'s western side, and its $40 token only from the operating "
                     f"round after its connection run")
    when = state1870(game.state).connection_rounds.get(sym)
    if connected(game, sym) and when is not None and (game.state.round.number, game.state.round.or_number) <= when:
        lines.append(f"{sym} connected in operating round {when[0]}.{when[1]}: its $40 token from the next one")
    return tuple(lines)


def graph_key(game: Game) -> Hashable:
    """What these rules' answers depend on beyond tiles, tokens and the destinations reached:
    the Bridge Company's state, whether the IC has operated and still owes its run."""
    sym = corporation(game)
    if sym is None:
        return ()
    return (rivers.bridge_open(game), game.state.corporations[sym].operated,
            sym in state1870(game.state).connections)
