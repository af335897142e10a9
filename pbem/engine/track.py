"""Track on the map: what a corporation reaches, and the rules for laying tiles, placing
station tokens and running trains (1830 rules 6.2-6.5).

The graph of laid and printed track and the one search over it live in
:mod:`pbem.engine.graph`; this module asks it what a corporation's station tokens reach
(without passing through a city filled by other corporations' tokens or through an
off-board area, and never turning back at a hex side) and applies the rules of each order.
Vertices are *stops* (:class:`pbem.engine.values.Vertex`; ``Vertex("F20", "c1")``: city 1
of the tile on F20, ``Vertex("F2", "o")``: the off-board area) and *hex sides*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterator, Mapping, Sequence, cast

from pbem.engine import graph as track_graph_module
from pbem.engine import heading
from pbem.engine import reach as reach_module
from pbem.engine.board import TileData, edge_of
from pbem.engine.pieces import gate_problem
from pbem.engine.graph import Link, Point, Segment, TrackGraph, impassable, side_vertex, track_graph, track_pieces
from pbem.engine.reach import Network
from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef, Vertex

if TYPE_CHECKING:
    from pbem.engine.game import Game

__all__ = ["Network", "Segment", "TrackGraph", "side_vertex", "track_graph", "track_pieces"]

COLOR_ORDER = ("white", "yellow", "green", "brown", "gray")


@dataclass(frozen=True)
class Placed:
    """The tile showing on a hex: its data, rotation, and whether it is the printed face."""

    tile: TileData
    rotation: int
    printed: bool


def placed(game: Game, coord: str) -> Placed:
    """The tile showing on ``coord``."""
    laid = game.state.tiles.get(coord)
    if laid is not None:
        return Placed(game.tiles[laid[0]], laid[1], False)
    return Placed(game.board.hexes[coord].tile, 0, True)


def segments(game: Game) -> list[Segment]:
    """Every path on the board as a graph edge."""
    return [seg for segs in track_graph(game).by_hex.values() for seg in segs]


def adjacency(game: Game) -> Mapping[Point, tuple[Segment, ...]]:
    """Vertex -> the segments touching it (of the game's track graph, see
    :func:`pbem.engine.graph.track_graph`; do not change the result)."""
    return track_graph(game).adjacency


def city_key(coord: str, city: int) -> CityRef:
    """Key of a city in :attr:`GameState.tokens`: its :class:`~pbem.engine.values.CityRef`."""
    return CityRef(coord, city)


def printed_city_now(game: Game, coord: str, city: int) -> int:
    """The city of the tile showing on ``coord`` that took over city ``city`` of the printed
    hex (a home, 1830 rules 6.1): the one whose track includes the printed city's; the same
    index when the printed city had no track or nothing was laid (upgrades keep a city's
    track, 1830 rules 6.2)."""
    if coord not in game.board.hexes:  # a board without that home (a map drawn alone)
        return city
    shown = placed(game, coord)
    printed = game.board.hexes[coord].tile
    if shown.printed or len(printed.cities) <= 1:
        return city
    edges = city_edges(printed, 0, city)
    if not edges:
        return city
    return next((j for j in range(len(shown.tile.cities))
                 if edges <= city_edges(shown.tile, shown.rotation, j)), city)


def city_slots(game: Game, coord: str, city: int) -> int:
    """Station slots of city ``city`` on the tile showing on ``coord``: the tile's printed
    slots, as the title's ``city_slots`` hook counts them (1830: the printed slots)."""
    return game.hooks.track.city_slots(game, coord, city, placed(game, coord).tile.cities[city].slots)


def tokens_in(game: Game, coord: str, city: int) -> list[str]:
    """Corporations with a token in city ``city`` of ``coord``."""
    return game.state.tokens.get(city_key(coord, city), [])


def reserved_home(game: Game, coord: str, city: int) -> list[str]:
    """Corporations with a home in this city (the title's :meth:`~pbem.engine.track_rules.TrackRules.
    homes`) that have not placed a token yet: the city keeps a slot for each."""
    out = []
    placed_any = {c for corps in game.state.tokens.values() for c in corps}
    here = CityRef(coord, city)
    for corp in game.title.corporations:
        if corp.sym not in placed_any and here in game.hooks.track.homes(game, corp.sym):
            if not game.state.corporations[corp.sym].closed:
                out.append(corp.sym)
    return out


HOME_NAMING_NO_CITY = "home_naming_no_city"
"""The title rule of a home that names no city on a hex of several (1830's ERIE on E11, 1825's
Taff Vale on V8), until its token is placed: ``whole_hex``, no other corporation's token
on the hex (18xx.games plays 1830 so); ``one_city_left``, one slot of the hex is kept, in
whichever city is left (18xx.games plays 1825 so)."""
HOME_READINGS = ("whole_hex", "one_city_left")


def hex_home(game: Game, corp: str) -> str | None:
    """``corp``'s home hex where its home names no city and the hex has several (see
    :data:`HOME_NAMING_NO_CITY`), else None."""
    data = game.title.corporation(corp)
    if not data.home or data.home_city is not None or data.home not in game.board.hexes:
        return None
    return data.home if len(game.board.hexes[data.home].tile.cities) > 1 else None


def held_on_hex(game: Game, coord: str) -> list[str]:
    """Corporations whose home is ``coord``, naming no city on a hex of several, that have not
    placed a token yet: each keeps a slot of the hex (:data:`HOME_NAMING_NO_CITY`)."""
    homes = [corp.sym for corp in game.title.corporations
             if corp.home == coord and hex_home(game, corp.sym) == coord and not game.state.corporations[corp.sym].closed]
    if not homes:  # (asked for every token check: most hexes are no such home)
        return []
    placed_any = {c for corps in game.state.tokens.values() for c in corps}
    return [sym for sym in homes if sym not in placed_any]


def held_on_hex_in(game: Game, coord: str, city: int) -> list[str]:
    """The homes held on the hex (:func:`held_on_hex`) that city ``city`` shows: each in the
    first city with a slot left for it (where it would go were the token placed now)."""
    holds = held_on_hex(game, coord)
    for index in range(len(placed(game, coord).tile.cities) if holds else 0):
        room = city_slots(game, coord, index) - len(tokens_in(game, coord, index)) - len(reserved_home(game, coord, index))
        shown, holds = holds[:max(0, room)], holds[max(0, room):]
        if index == city:
            return shown
    return []


def _free_in_city(game: Game, coord: str, city: int, for_corp: str | None) -> int:
    slots = city_slots(game, coord, city) - len(tokens_in(game, coord, city))
    held = [c for c in reserved_home(game, coord, city) if c != for_corp]
    return max(0, slots - len(held))


def free_slots(game: Game, coord: str, city: int, for_corp: str | None = None) -> int:
    """Empty slots of a city, less those held for another corporation's home token: its home
    in this city, or a home on the hex that names no city (:data:`HOME_NAMING_NO_CITY`)."""
    free = _free_in_city(game, coord, city, for_corp)
    on_hex = [c for c in held_on_hex(game, coord) if c != for_corp] if free else []
    if not on_hex:
        return free
    if game.title.title_rule(HOME_NAMING_NO_CITY) == "whole_hex":
        return 0
    cities = range(len(placed(game, coord).tile.cities))
    left = sum(_free_in_city(game, coord, j, for_corp) for j in cities) - len(on_hex)
    return max(0, min(free, left))


def blocks(game: Game, vertex: Vertex, corp: str) -> bool:
    """Whether ``corp`` may not pass through this stop: an off-board area, or a city whose
    slots are all filled by other corporations (1830 rules 6.5)."""
    coord, stop = vertex
    if stop == "o":
        return True
    if stop.startswith("c"):
        city = int(stop[1:])
        taken = tokens_in(game, coord, city)
        if corp in taken:
            return False
        return len(taken) >= city_slots(game, coord, city)
    return False


def token_vertices(game: Game, corp: str) -> list[Vertex]:
    """The city vertices holding ``corp``'s tokens."""
    out = []
    for key, corps in game.state.tokens.items():
        if corp in corps:
            coord, city = key
            out.append(Vertex(coord, token_stop(game, coord, city)))
    return out


def token_stop(game: Game, coord: str, city: int) -> str:
    """The stop a token key names: city ``c<city>``; where the hex has no such city, the
    off-board area ``o`` (1870: tokens on red off-board areas, e.g. a destination token on
    A22), else town ``t<city>`` where the hex has that town (a title's token on a town, put
    there by the title's own rule: Jerkich's 1870 Junction City; the one token check,
    :func:`token_problem`, places tokens in cities only)."""
    stops = placed(game, coord).tile.stop_ids()
    if f"c{city}" in stops:
        return f"c{city}"
    if "o" in stops:
        return "o"
    return f"t{city}" if f"t{city}" in stops else f"c{city}"


def network(game: Game, corp: str, adj: object = None, graph: TrackGraph | None = None) -> Network:
    """What ``corp``'s tokens reach (see :class:`pbem.engine.reach.Network`): the one search
    of :func:`pbem.engine.reach.reach`, never turning back at a hex side nor passing through a
    stop that blocks ``corp`` (1830 rules 6.2, 6.5; Dixon's 1870 rules 6.1). Cached on the
    game against the track graph and what blocking depends on (tokens, the title's
    ``graph_key``, closed corporations); do not change the result. ``adj`` is accepted for older callers and
    ignored; ``graph`` asks about another track graph (a tile not yet laid), uncached."""
    if graph is not None:
        return _network(game, corp, graph)
    current = track_graph(game)
    state = game.state
    key = (tuple((k, tuple(v)) for k, v in state.tokens.items()), game.hooks.track.graph_key(game),
           tuple(c for c, s in state.corporations.items() if s.closed))
    cached = game.cache.get(("network", corp))
    if cached is not None:
        cached_key, found = cast("tuple[tuple[TrackGraph, object], Network]", cached)
        if cached_key[0] is current and cached_key[1] == key:
            return found
    net = _network(game, corp, current)
    game.cache[("network", corp)] = ((current, key), net)
    return net


def _network(game: Game, corp: str, graph: TrackGraph) -> Network:
    return reach_module.reach(graph, token_vertices(game, corp), lambda vertex: blocks(game, vertex, corp))


def future_label(game: Game, coord: str, color: str) -> str | None:
    """The label a hex takes for tiles of ``color`` (1870: Kansas City, St. Louis, Dallas,
    Fort Worth and New Orleans take the P tile at brown; Kansas City K and St. Louis L at
    gray), from ``extras.yaml`` ``future_labels``; None where there is none."""
    for entry in (game.title.extras.get("future_labels") or {}).get(coord, []):
        if entry.get("color") == color:
            return str(entry["label"])
    return None


def city_edges(tile: TileData, rotation: int, city: int) -> frozenset[str]:
    """The hex sides (``e0``-``e5``) joined to city ``city`` of ``tile`` at ``rotation``."""
    return frozenset(e for path in tile.paths_at(rotation) if f"c{city}" in path for e in path if e.startswith("e"))


def lay_problem(game: Game, corp: str, coord: str, tile_name: str, rotation: int,
                net: Network | None = None, *, ignore_reach: bool = False) -> str | None:
    """Why ``corp`` may not lay ``tile_name`` at ``rotation`` on ``coord`` now, or None.

    Checks: the hex exists and is not blocked by a private; the tile exists, is still in the
    supply and its colour is allowed in this phase; the upgrade rules; the title's lay gate
    (:func:`pbem.engine.pieces.gate_problem`: 1829's survey parties); every exit leads onto
    the map; the corporation reaches the hex through one of the new tile's exits (unless
    ``ignore_reach``, for private abilities, or the title's ``lays_without_reach`` names the
    hex). The upgrade rules are the title's ``upgrade_problem`` (1830: :func:`pbem.engine.upgrades.upgrade_problem`).
    """
    state = game.state
    if coord not in game.board.hexes:
        return f"there is no hex {coord}"
    if tile_name not in game.tiles:
        return f"there is no tile #{tile_name}"
    new = game.tiles[tile_name]
    if game.tiles_left(tile_name) <= 0:
        return f"no #{tile_name} tile is left"
    allowed = game.phase().tiles
    if new.color not in allowed:
        return f"{new.color} tiles are not available in phase {state.phase}"
    blocker = game.hex_blocker(coord)
    if blocker is not None:
        return f"{coord} is blocked by the private company {blocker}"
    old = placed(game, coord)
    problem = (game.hooks.track.upgrade_problem(game, coord, new, rotation) or gate_problem(game, corp, coord)
               or game.hooks.track.lay_problem(game, corp, coord, tile_name, rotation))
    if problem:
        return problem
    exits = new.exits(rotation)
    for edge in exits:
        if game.board.neighbor(coord, edge) is None or impassable(game.board.hexes[coord], edge):
            return f"#{tile_name} at rotation {rotation} runs off the map or into a blocked side of {coord}"
    if not ignore_reach and coord not in game.hooks.track.lays_without_reach(game, corp):
        net = net if net is not None else network(game, corp)
        reach = net.hex_edges.get(coord, set())
        if not reach:
            return f"{corp}'s track does not reach {coord}"
        if not exits & reach:
            return f"#{tile_name} at rotation {rotation} does not connect to {corp}'s track"
        if not old.printed and game.title.settings.upgrade_must_add_run_track:
            return upgrade_run_problem(game, corp, coord, new, rotation)
    return None


def added_paths(old: Placed, new: TileData, rotation: int) -> list[int]:
    """The indices of the paths of ``new`` at ``rotation`` that are new track where it
    replaces ``old``: those left when the old tile's paths are taken away (Dixon's 1870 rules
    6.2), a path from an edge to a stop counting as old where the old tile joined that edge
    to a stop of the same kind."""
    old_paths = {frozenset(p) for p in old.tile.paths_at(old.rotation)}
    old_stop_edges = {(e, x[0]) for a, b in old.tile.paths_at(old.rotation) for e, x in ((a, b), (b, a))
                      if edge_of(e) is not None and edge_of(x) is None}
    out = []
    for i, (a, b) in enumerate(new.paths_at(rotation)):
        if frozenset((a, b)) in old_paths:
            continue
        ends = [(e, x) for e, x in ((a, b), (b, a)) if edge_of(e) is not None and edge_of(x) is None]
        if ends and (ends[0][0], ends[0][1][0]) in old_stop_edges:
            continue
        out.append(i)
    return out


def upgrade_run_problem(game: Game, corp: str, coord: str, new: TileData, rotation: int) -> str | None:
    """Why the upgrade of ``coord`` to ``new`` at ``rotation`` adds nothing ``corp`` can use,
    or None (Dixon's 1870 rules 6.2, the title key ``upgrade_must_add_run_track``): it must
    add track the corporation can run on — a new segment that its reach after the upgrade
    takes in and that lies on a track-only way between two stops it reaches — or raise the
    value of a city or town on the hex that it reaches."""
    old = placed(game, coord)
    after = track_graph(game).with_tile(coord, new.name, rotation)
    # only the track and stops reached are asked for: no search for a train's route
    net = reach_module.reach(after, token_vertices(game, corp), lambda vertex: blocks(game, vertex, corp),
                                   routes=False)
    segs = after.by_hex[coord]
    added = {segs[i].key for i in added_paths(old, new, rotation)} & net.segments
    if added:
        for stop in net.stops:
            for link in after.links(stop):
                if link.end in net.stops and any(seg.key in added for seg in link.segments):
                    return None
    values = [(f"c{i}", was.revenue, now.revenue) for i, (was, now) in enumerate(zip(old.tile.cities, new.cities))]
    values += [(f"t{i}", was.revenue, now.revenue) for i, (was, now) in enumerate(zip(old.tile.towns, new.towns))]
    for stop_id, was_worth, now_worth in values:
        if now_worth > was_worth and Vertex(coord, stop_id) in net.stops:
            return None
    return (f"#{new.name} at rotation {rotation} adds no track {corp} can run on and raises no "
            f"city it runs to (an upgrade must, Dixon 6.2)")


def token_problem(game: Game, corp: str, coord: str, city: int, net: Network | None = None,
                  *, ignore_reach: bool = False) -> str | None:
    """Why ``corp`` may not place a station token in city ``city`` of ``coord``, or None
    (reached by its track, a free slot, not a second token in the hex; 1830 rules 6.3; and
    the title's own reason, :meth:`~pbem.engine.track_rules.TrackRules.token_problem`)."""
    if coord not in game.board.hexes:
        return f"there is no hex {coord}"
    tile = placed(game, coord).tile
    if city >= len(tile.cities):
        return f"{coord} has no city {city}"
    for other in range(len(tile.cities)):
        if corp in tokens_in(game, coord, other):
            return f"{corp} already has a token on {coord}"
    if free_slots(game, coord, city, corp) <= 0:
        return f"the city on {coord} has no free slot"
    own = game.hooks.track.token_problem(game, corp, coord, city)
    if own is not None:
        return own
    if not ignore_reach:
        net = net if net is not None else network(game, corp)
        if Vertex(coord, f"c{city}") not in net.stops:
            return f"{corp}'s track does not reach the city on {coord}"
    return None


# -- routes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RouteResult:
    """A checked run: the train, its stop vertices in order, and the revenue; ``joined``:
    the further trains run with it as one (double-heading, :mod:`pbem.engine.heading`);
    ``legs``: for each two consecutive stops, the hexes the track joining them passes, from
    the first stop's hex to the second's (both included; a hex once however many of its
    paths the leg uses), as the check found it."""

    train: TrainId
    stops: tuple[Vertex, ...]
    revenue: int
    joined: tuple[TrainId, ...] = ()
    legs: tuple[tuple[str, ...], ...] = ()


def stop_revenue(game: Game, vertex: Vertex) -> int:
    """Revenue of one stop in the current phase. An off-board area's value is the one of the
    latest phase colour it lists (a phase's colours may go beyond its tiles: 1870's "blue"
    from the 8-train phase on); before any of them, its first value."""
    coord, stop = vertex
    tile = placed(game, coord).tile
    if stop == "o":
        assert tile.offboard is not None
        values = tile.offboard.revenue
        for color in reversed(game.phase().tiles):
            if color in values:
                return values[color]
        return next(iter(values.values()), 0)
    index = int(stop[1:])
    return tile.cities[index].revenue if stop[0] == "c" else tile.towns[index].revenue


def stop_candidates(game: Game, spec: str) -> list[Vertex]:
    """Stop vertices a written stop may mean: ``"F20.1"`` exactly, ``"F20"`` any stop there."""
    coord, _, index = spec.partition(".")
    if coord not in game.board.hexes:
        return []
    ids = placed(game, coord).tile.stop_ids()
    if index:
        i = int(index)
        return [Vertex(coord, ids[i])] if i < len(ids) else []
    return [Vertex(coord, s) for s in ids]


RunSpec = tuple[TrainId | tuple[TrainId, ...], list[str]]
"""One run to check: a train id (or the ids of trains run as one) and its stop specs."""


def check_runs(game: Game, corp: str, runs: Sequence[RunSpec]) -> list[RouteResult]:
    """Check a corporation's runs and compute their revenue (1830 rules 6.5): each train at
    most once; at least two stops; no more stops than the train's length; off-boards only at
    the ends; no city twice; not through a city filled by others; a station token of the
    corporation on each run; no hex side used twice by the corporation's runs; at most one
    stop of an off-board group per run. Trains run as one (a tuple of ids) have the length
    :func:`pbem.engine.heading.run_length` gives, where the title allows it.

    :param runs: ``[(train id or tuple of train ids, [stop spec, ...])]``.
    :raises ValueError: with the reason.
    """
    graph = track_graph(game)
    choices: list[list[list[Vertex]]] = []
    for train_id, specs in runs:
        problem = heading.heading_problem(game.title, train_id) if isinstance(train_id, tuple) else None
        if problem:
            raise ValueError(problem)
        if len(specs) < 2:
            name = "+".join(t.kind for t in train_id) if isinstance(train_id, tuple) else str(train_id)
            raise ValueError(f"the {name} train's run needs at least two stops")
        cands = []
        for spec in specs:
            found = stop_candidates(game, spec)
            if not found:
                raise ValueError(f"{spec} is not a stop")
            cands.append(found)
        choices.append(cands)
    solution = _search(game, corp, graph, runs, choices)
    if isinstance(solution, str):
        raise ValueError(solution)
    return solution


def _search(game: Game, corp: str, graph: TrackGraph, runs: Sequence[RunSpec],
            choices: list[list[list[Vertex]]]) -> list[RouteResult] | str:
    problems: list[str] = []
    results: list[RouteResult] = []

    def place_run(r: int, used: int) -> bool:
        if r == len(runs):
            return True
        train_id, specs = runs[r]
        for stops in _stop_sequences(choices[r]):
            problem = _run_problem(game, corp, train_id, stops)
            if problem:
                problems.append(problem)
                continue
            passing = (frozenset(i for i in range(1, len(stops) - 1) if blocks(game, stops[i], corp))
                       if graph.sea_stops else frozenset())
            for sides, links in _linkings(graph, stops, used, passing):
                revenue = sum(stop_revenue(game, s) for s in stops) + game.hooks.routes.extra_revenue(game, corp, stops)
                ids = train_id if isinstance(train_id, tuple) else (train_id,)
                revenue = game.hooks.routes.run_revenue(game, corp, ids, stops, revenue)
                legs = tuple(leg_hexes(start, link) for start, link in zip(stops, links))
                results.append(RouteResult(ids[0], tuple(stops), revenue, ids[1:], legs))
                if place_run(r + 1, used | sides):
                    return True
                results.pop()
            else:
                problems.append(f"no track joins {' - '.join(specs)} without reusing track")
        return False

    if place_run(0, 0):
        return results
    return problems[0] if problems else "the runs cannot be made"


def _stop_sequences(cands: list[list[Vertex]]) -> Iterator[list[Vertex]]:
    if not cands:
        yield []
        return
    for first in cands[0]:
        for rest in _stop_sequences(cands[1:]):
            yield [first] + rest


def _linkings(graph: TrackGraph, stops: list[Vertex], used: int,
              passing: frozenset[int] = frozenset()) -> Iterator[tuple[int, tuple[Link, ...]]]:
    """Ways to join consecutive stops by track (the links of the track graph), none using a
    piece of track already in ``used`` (a bit mask of :attr:`TrackGraph.bits`); at the
    blocking stops ``passing`` (indices) one way in or out is a sea link and the other track
    (:meth:`TrackGraph.through`). Yields the grown mask and the links taken, one a leg."""

    def go(i: int, taken: int, by_sea: bool, links: tuple[Link, ...]) -> Iterator[tuple[int, tuple[Link, ...]]]:
        if i == len(stops) - 1:
            yield taken, links
            return
        for link in graph.links(stops[i]):
            if link.end != stops[i + 1] or link.mask & taken:
                continue
            if i in passing and link.sea == by_sea:
                continue
            yield from go(i + 1, taken | link.mask, link.sea, links + (link,))

    yield from go(0, used, False, ())


def leg_hexes(start: Vertex, link: Link) -> tuple[str, ...]:
    """The hexes a leg of a run passes, from stop ``start``'s hex along ``link`` to its end
    stop's hex: the hex of each of its tile paths in order, a hex once where the leg stays
    in it (a sea link between two off-board areas passes only their two hexes)."""
    out = [start.coord]
    for seg in link.segments:
        coord = link.end.coord if seg.sea else seg.key[0]
        if coord != out[-1]:
            out.append(coord)
    if out[-1] != link.end.coord:
        out.append(link.end.coord)
    return tuple(out)


def _run_problem(game: Game, corp: str, train_id: TrainId | tuple[TrainId, ...], stops: list[Vertex]) -> str | None:
    ids = train_id if isinstance(train_id, tuple) else (train_id,)
    return game.hooks.routes.run_problem(game, corp, ids, stops) or path_problem(game, corp, stops)


def path_problem(game: Game, corp: str, stops: list[Vertex]) -> str | None:
    """Why a route of ``corp`` may not visit ``stops`` (stop vertices, in order) whatever the
    train, or None: no stop twice, no passing through an off-board area or a city filled by
    others, one hex of an off-board group at most, a station token of the corporation on it
    (1830 rules 6.5); an off-board area is passed through only onto or off a sea link to
    the stop before or after it (:meth:`pbem.engine.graph.TrackGraph.through`). The track
    joining the stops is checked apart."""
    if len(set(stops)) != len(stops):
        return "a run may not visit a stop twice"
    sea = track_graph(game).sea_stops
    for i, vertex in enumerate(stops[1:-1], 1):
        if blocks(game, vertex, corp):
            if vertex in sea and _sea_link_between(game, vertex, (stops[i - 1], stops[i + 1])):
                continue  # carried on by a packet: from track onto the sea link or back
            coord, stop = vertex
            what = "an off-board area" if stop == "o" else "a city filled by other corporations"
            return f"a run may not pass through {coord}: {what}"
    groups = []
    for vertex in stops:
        coord, stop = vertex
        tile = placed(game, coord).tile
        if stop == "o" and tile.offboard is not None and tile.offboard.group:
            groups.append(tile.offboard.group)
    if len(groups) != len(set(groups)):
        return "a run may visit only one hex of an off-board group"
    if not any(stop_is_token(game, corp, v) for v in stops):
        return f"each run must include a city with a {corp} station token"
    return game.hooks.routes.route_problem(game, corp, stops)


def _sea_link_between(game: Game, vertex: Vertex, others: tuple[Vertex, Vertex]) -> bool:
    """Whether a sea link joins the off-board stop ``vertex`` to one of ``others``."""
    return any(link.sea and link.end in others for link in track_graph(game).links(vertex))


def fewest_stops(game: Game, corp: str, start: Vertex, goal_hex: str, most: int | None = None) -> int | None:
    """The fewest stops (both ends counted) on a route ``corp`` could run from stop vertex
    ``start`` to any stop on hex ``goal_hex``, or None if no route joins them (within
    ``most`` stops, when given). A route visits no stop twice, passes through no city
    filled by others nor an off-board area, never turns back at a hex side nor leaves a stop
    by the track it arrived on, and uses no piece of track twice (1830 rules 6.5; the issue's
    fault 1). Used for 1870's destination connection; the search is
    :func:`pbem.engine.graph.fewest_stops`.
    """
    return track_graph_module.fewest_stops(track_graph(game), start, goal_hex,
                                           lambda vertex: blocks(game, vertex, corp), most)


def stop_is_token(game: Game, corp: str, vertex: Vertex) -> bool:
    """Whether ``vertex`` is a city (or off-board area, or a town a title has put a token
    on, see :func:`token_stop`) holding ``corp``'s token."""
    coord, stop = vertex
    if stop == "o":
        return corp in tokens_in(game, coord, 0)
    if stop.startswith("t"):
        index = int(stop[1:])
        return token_stop(game, coord, index) == stop and corp in tokens_in(game, coord, index)
    return stop.startswith("c") and corp in tokens_in(game, coord, int(stop[1:]))
