"""Track on the map: the graph of laid and printed track, what a corporation reaches, and
the rules for laying tiles, placing station tokens and running trains (1830 rules 6.2-6.5).

Vertices of the graph are *stops* (``"F20:c1"``: city 1 of the tile on F20; ``"F2:o"``: the
off-board area) and *hex sides* (one vertex for the side two hexes share). Each path of a
tile is an edge of the graph between its two endpoints. A corporation reaches everything
its station tokens connect to without passing through a city filled by other corporations'
tokens or through an off-board area.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, cast

from pbem.engine.board import HexData, MapData, TileData, edge_of

if TYPE_CHECKING:
    from pbem.engine.game import Game

COLOR_ORDER = ("white", "yellow", "green", "brown", "gray")


@dataclass(frozen=True)
class Placed:
    """The tile showing on a hex: its data, rotation, and whether it is the printed face."""

    tile: TileData
    rotation: int
    printed: bool


@dataclass(frozen=True)
class Segment:
    """One path of a tile on the board: ``key`` identifies it, ``a``/``b`` are its two
    vertices, ``sides`` the ``(hex, edge)`` pairs it uses (for the no-reuse rule)."""

    key: tuple[str, int]
    a: str
    b: str
    sides: tuple[tuple[str, int], ...]


@dataclass
class Network:
    """What one corporation's station tokens reach.

    ``hex_edges`` maps a hex to the edges through which track may be extended into it (every
    edge of a hex with one of its tokens); ``stops`` the stop vertices reached; ``segments``
    the track used; ``cities_reached`` how many cities/off-boards one token's walk found at
    most (two or more: it has a route for a train).
    """

    hex_edges: dict[str, set[int]] = field(default_factory=dict)
    stops: set[str] = field(default_factory=set)
    segments: set[tuple[str, int]] = field(default_factory=set)
    route_for_train: bool = False


def placed(game: Game, coord: str) -> Placed:
    """The tile showing on ``coord``."""
    laid = game.state.tiles.get(coord)
    if laid is not None:
        return Placed(game.tiles[laid[0]], laid[1], False)
    return Placed(game.board.hexes[coord].tile, 0, True)


def stop_vertex(coord: str, stop: str) -> str:
    """``"F20"``, ``"c1"`` -> ``"F20:c1"``."""
    return f"{coord}:{stop}"


def split_vertex(vertex: str) -> tuple[str, str]:
    """``"F20:c1"`` -> ``("F20", "c1")``."""
    coord, stop = vertex.split(":", 1)
    return coord, stop


def side_vertex(board: MapData, coord: str, edge: int) -> str:
    """The vertex of side ``edge`` of ``coord``: shared with the neighbour unless the side is
    off the map or impassable."""
    other = board.neighbor(coord, edge)
    if other is not None and not _impassable(board.hexes[coord], edge) and not _impassable(
        board.hexes[other], (edge + 3) % 6
    ):
        a, b = f"{coord}/{edge}", f"{other}/{(edge + 3) % 6}"
        return "|".join(sorted((a, b)))
    return f"{coord}/{edge}|-"


def _impassable(hex_data: HexData, edge: int) -> bool:
    border = hex_data.border(edge)
    return border is not None and border.kind == "impassable"


def segments(game: Game) -> list[Segment]:
    """Every path on the board as a graph edge."""
    out: list[Segment] = []
    for coord in game.board.hexes:
        shown = placed(game, coord)
        for i, (a, b) in enumerate(shown.tile.paths_at(shown.rotation)):
            ends = []
            sides = []
            for endpoint in (a, b):
                edge = edge_of(endpoint)
                if edge is None:
                    ends.append(stop_vertex(coord, endpoint))
                else:
                    ends.append(side_vertex(game.board, coord, edge))
                    sides.append((coord, edge))
            out.append(Segment((coord, i), ends[0], ends[1], tuple(sides)))
    return out


def adjacency(game: Game) -> dict[str, list[Segment]]:
    """Vertex -> the segments touching it (cached on the game while the tiles stay the same;
    do not change the result)."""
    key = tuple(sorted(game.state.tiles.items()))
    cached = game.cache.get("adjacency")
    if cached is not None and cached[0] == key:
        return cast("dict[str, list[Segment]]", cached[1])
    adj: dict[str, list[Segment]] = {}
    for seg in segments(game):
        adj.setdefault(seg.a, []).append(seg)
        adj.setdefault(seg.b, []).append(seg)
    game.cache["adjacency"] = (key, adj)
    return adj


def city_key(coord: str, city: int) -> str:
    """Key of a city in :attr:`GameState.tokens` (``"F20.1"``)."""
    return f"{coord}.{city}"


def city_slots(game: Game, coord: str, city: int) -> int:
    """Station slots of city ``city`` on the tile showing on ``coord``, plus an extra slot
    for each destination token placed there (1870 game.yaml: it never takes a slot).

    With ``destination_token_takes_a_slot`` (1870's "station marker wars" option) a
    destination token on a city (not an off-board area) takes a slot like any token: a free
    one not held for a home, else an extra slot made for it — which a later upgrade with
    more slots absorbs."""
    printed = placed(game, coord).tile.cities[city].slots
    here = tokens_in(game, coord, city)
    destination = [corp for corp in here if destination_token_at(game, corp, coord)]
    if not destination:
        return printed
    if not game.title.const("destination_token_takes_a_slot", False) or placed(game, coord).tile.offboard is not None:
        return printed + len(destination)
    held = len(reserved_home(game, coord, city))
    return max(printed, len(here) + held)


def destination_token_at(game: Game, corp: str, coord: str) -> bool:
    """Whether ``corp``'s token on ``coord`` is its destination token (1870)."""
    state = game.state
    return (corp in state.destinations_reached and corp not in state.destination_on_charter
            and game.title.corporation(corp).destination == coord)


def tokens_in(game: Game, coord: str, city: int) -> list[str]:
    """Corporations with a token in city ``city`` of ``coord``."""
    return game.state.tokens.get(city_key(coord, city), [])


def reserved_home(game: Game, coord: str, city: int) -> list[str]:
    """Corporations whose home is this city and that have not placed their home token yet."""
    out = []
    placed_any = {c for corps in game.state.tokens.values() for c in corps}
    for corp in game.title.corporations:
        home_city = corp.home_city if corp.home_city is not None else 0
        if corp.home == coord and home_city == city and corp.sym not in placed_any:
            if not game.state.corporations[corp.sym].closed:
                out.append(corp.sym)
    return out


def free_slots(game: Game, coord: str, city: int, for_corp: str | None = None) -> int:
    """Empty slots of a city, less those held for another corporation's home token."""
    slots = city_slots(game, coord, city) - len(tokens_in(game, coord, city))
    held = [c for c in reserved_home(game, coord, city) if c != for_corp]
    return max(0, slots - len(held))


def blocks(game: Game, vertex: str, corp: str) -> bool:
    """Whether ``corp`` may not pass through this stop: an off-board area, or a city whose
    slots are all filled by other corporations (1830 rules 6.5)."""
    coord, stop = split_vertex(vertex)
    if stop == "o":
        return True
    if stop.startswith("c"):
        city = int(stop[1:])
        taken = tokens_in(game, coord, city)
        if corp in taken:
            return False
        return len(taken) >= city_slots(game, coord, city)
    return False


def token_vertices(game: Game, corp: str) -> list[str]:
    """The city vertices holding ``corp``'s tokens."""
    out = []
    for key, corps in game.state.tokens.items():
        if corp in corps:
            coord, city = key.rsplit(".", 1)
            out.append(stop_vertex(coord, token_stop(game, coord, int(city))))
    return out


def token_stop(game: Game, coord: str, city: int) -> str:
    """The stop a token key names: city ``c<city>``, or the off-board area ``o`` where the
    hex has no city (1870: tokens on red off-board areas, e.g. a destination token on A22)."""
    stops = placed(game, coord).tile.stop_ids()
    return "o" if f"c{city}" not in stops and "o" in stops else f"c{city}"


def network(game: Game, corp: str, adj: dict[str, list[Segment]] | None = None) -> Network:
    """What ``corp``'s tokens reach (see :class:`Network`); cached on the game while tiles
    and tokens stay the same (do not change the result)."""
    key = (corp, tuple(sorted(game.state.tiles.items())),
           tuple(sorted((k, tuple(v)) for k, v in game.state.tokens.items())))
    cached = game.cache.get(("network", corp))
    if cached is not None and cached[0] == key:
        return cast(Network, cached[1])
    net = _network(game, corp, adj)
    game.cache[("network", corp)] = (key, net)
    return net


def _network(game: Game, corp: str, adj: dict[str, list[Segment]] | None) -> Network:
    adj = adj if adj is not None else adjacency(game)
    net = Network()
    starts = token_vertices(game, corp)
    for vertex in starts:
        coord, _ = split_vertex(vertex)
        net.hex_edges.setdefault(coord, set()).update(
            e for e in range(6) if game.board.neighbor(coord, e) is not None
        )
    for start in starts:
        seen = {start}
        todo = [start]
        cities = 1
        while todo:
            vertex = todo.pop()
            if vertex != start and ":" in vertex and blocks(game, vertex, corp):
                continue
            for seg in adj.get(vertex, []):
                net.segments.add(seg.key)
                for coord, edge in seg.sides:
                    net.hex_edges.setdefault(coord, set()).add(edge)
                    other = game.board.neighbor(coord, edge)
                    if other is not None:
                        net.hex_edges.setdefault(other, set()).add((edge + 3) % 6)
                nxt = seg.b if seg.a == vertex else seg.a
                if nxt in seen:
                    continue
                seen.add(nxt)
                if ":" in nxt:
                    net.stops.add(nxt)
                    if split_vertex(nxt)[1][0] in "co":
                        cities += 1
                todo.append(nxt)
        net.stops.add(start)
        if cities >= 2:
            net.route_for_train = True
    return net


def future_label(game: Game, coord: str, color: str) -> str | None:
    """The label a hex takes for tiles of ``color`` (1870: Kansas City, St. Louis, Dallas,
    Fort Worth and New Orleans take the P tile at brown; Kansas City K and St. Louis L at
    gray), from ``extras.yaml`` ``future_labels``; None where there is none."""
    for entry in (game.title.extras.get("future_labels") or {}).get(coord, []):
        if entry.get("color") == color:
            return str(entry["label"])
    return None


def upgrade_problem(game: Game, coord: str, new: TileData, rotation: int) -> str | None:
    """Why ``new`` at ``rotation`` may not replace the tile on ``coord`` (colour, label,
    city and town counts, every old path kept — 1830 rules 6.2; where the title or variant
    gives them, the hexes a tile may (``tile_hexes``) and the upgrade chart
    (``upgrade_chart``, Dixon's 1870 rules 6.4.1, 6.6), or None."""
    old = placed(game, coord)
    if COLOR_ORDER.index(new.color) != COLOR_ORDER.index(old.tile.color) + 1 if old.tile.color in COLOR_ORDER else True:
        return f"a {new.color} tile cannot go on a {old.tile.color} hex"
    placement = (game.title.const("tile_hexes") or {}).get(new.name)
    if placement:
        if "only" in placement and coord not in placement["only"]:
            return f"#{new.name} may go only on {', '.join(placement['only'])}"
        if coord in placement.get("never", []):
            return f"#{new.name} may not go on {coord}"
    chart = game.title.const("upgrade_chart")
    if chart and not old.printed and new.name not in chart.get(old.tile.name, []):
        allowed = ", ".join(f"#{t}" for t in chart.get(old.tile.name, [])) or "nothing"
        return f"the upgrade chart lets #{old.tile.name} become only {allowed}, not #{new.name}"
    expected = future_label(game, coord, new.color) or old.tile.label or None
    if expected != (new.label or None):
        want = expected or "no"
        return f"{coord} needs a tile with {want} label, #{new.name} has {new.label or 'none'}"
    if len(old.tile.towns) != len(new.towns):
        return f"#{new.name} has {len(new.towns)} towns, {coord} has {len(old.tile.towns)}"
    if not old.tile.label and len(old.tile.cities) != len(new.cities):
        return f"#{new.name} has {len(new.cities)} cities, {coord} has {len(old.tile.cities)}"
    if old.tile.label and old.tile.cities and not new.cities:
        return f"#{new.name} has no city for {coord}"
    new_paths = {frozenset(p) for p in new.paths_at(rotation)}
    for a, b in old.tile.paths_at(old.rotation):
        if not _path_kept(frozenset((a, b)), new, rotation, new_paths):
            return f"#{new.name} at rotation {rotation} drops track {a}-{b} on {coord}"
    return None


def _path_kept(old: frozenset[str], new: TileData, rotation: int, new_paths: set[frozenset[str]]) -> bool:
    if old in new_paths:
        return True
    # A path to a stop is kept if the new tile joins the same edge to some stop of the same kind.
    edges = [e for e in old if edge_of(e) is not None]
    stops = [s for s in old if edge_of(s) is None]
    if len(edges) == 1 and len(stops) == 1:
        kind = stops[0][0]
        return any(
            edges[0] in p and any(edge_of(x) is None and x[0] == kind for x in p) for p in new_paths
        )
    return False


def lay_problem(game: Game, corp: str, coord: str, tile_name: str, rotation: int,
                net: Network | None = None, *, ignore_reach: bool = False) -> str | None:
    """Why ``corp`` may not lay ``tile_name`` at ``rotation`` on ``coord`` now, or None.

    Checks: the hex exists and is not blocked by a private; the tile exists, is still in the
    supply and its colour is allowed in this phase; the upgrade rules; every exit leads onto
    the map; the corporation reaches the hex through one of the new tile's exits (unless
    ``ignore_reach``, for private abilities).
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
    if old.tile.color in ("red", "gray", "blue"):
        return f"{coord} cannot take a tile"
    problem = upgrade_problem(game, coord, new, rotation) or game.hooks.lay_problem(game, corp, coord, tile_name, rotation)
    if problem:
        return problem
    exits = new.exits(rotation)
    for edge in exits:
        if game.board.neighbor(coord, edge) is None or _impassable(game.board.hexes[coord], edge):
            return f"#{tile_name} at rotation {rotation} runs off the map or into a blocked side of {coord}"
    if not ignore_reach:
        net = net if net is not None else network(game, corp)
        reach = net.hex_edges.get(coord, set())
        if not reach:
            return f"{corp}'s track does not reach {coord}"
        if not exits & reach:
            return f"#{tile_name} at rotation {rotation} does not connect to {corp}'s track"
    return None


def token_problem(game: Game, corp: str, coord: str, city: int, net: Network | None = None,
                  *, ignore_reach: bool = False) -> str | None:
    """Why ``corp`` may not place a station token in city ``city`` of ``coord``, or None
    (reached by its track, a free slot, not a second token in the hex; 1830 rules 6.3)."""
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
    if not ignore_reach:
        net = net if net is not None else network(game, corp)
        if stop_vertex(coord, f"c{city}") not in net.stops:
            return f"{corp}'s track does not reach the city on {coord}"
    return None


# -- routes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class RouteResult:
    """A checked run: the train, its stop vertices in order, and the revenue."""

    train: str
    stops: tuple[str, ...]
    revenue: int


def stop_revenue(game: Game, vertex: str) -> int:
    """Revenue of one stop in the current phase. An off-board area's value is the one of the
    latest phase colour it lists (a phase's colours may go beyond its tiles: 1870's "blue"
    from the 8-train phase on); before any of them, its first value."""
    coord, stop = split_vertex(vertex)
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


def stop_candidates(game: Game, spec: str) -> list[str]:
    """Stop vertices a written stop may mean: ``"F20.1"`` exactly, ``"F20"`` any stop there."""
    coord, _, index = spec.partition(".")
    if coord not in game.board.hexes:
        return []
    ids = placed(game, coord).tile.stop_ids()
    if index:
        i = int(index)
        return [stop_vertex(coord, ids[i])] if i < len(ids) else []
    return [stop_vertex(coord, s) for s in ids]


def _links(adj: dict[str, list[Segment]], start: str, goal: str, limit: int = 200) -> Iterator[list[Segment]]:
    """Track-only ways from stop ``start`` to stop ``goal`` (no stop in between)."""
    found = 0
    stack: list[tuple[str, list[Segment], set[str]]] = [(start, [], {start})]
    while stack and found < limit:
        vertex, used, seen = stack.pop()
        for seg in adj.get(vertex, []):
            if seg in used:
                continue
            nxt = seg.b if seg.a == vertex else seg.a
            if nxt == goal:
                found += 1
                yield used + [seg]
                continue
            if ":" in nxt or nxt in seen or nxt.endswith("|-"):
                continue
            stack.append((nxt, used + [seg], seen | {nxt}))


def check_runs(game: Game, corp: str, runs: list[tuple[str, list[str]]]) -> list[RouteResult]:
    """Check a corporation's runs and compute their revenue (1830 rules 6.5): each train at
    most once; at least two stops; no more stops than the train's length; off-boards only at
    the ends; no city twice; not through a city filled by others; a station token of the
    corporation on each run; no hex side used twice by the corporation's runs; at most one
    stop of an off-board group per run.

    :param runs: ``[(train id, [stop spec, ...])]``.
    :raises ValueError: with the reason.
    """
    adj = adjacency(game)
    choices: list[list[list[str]]] = []
    for train_id, specs in runs:
        if len(specs) < 2:
            raise ValueError(f"the {train_id} train's run needs at least two stops")
        cands = []
        for spec in specs:
            found = stop_candidates(game, spec)
            if not found:
                raise ValueError(f"{spec} is not a stop")
            cands.append(found)
        choices.append(cands)
    solution = _search(game, corp, adj, runs, choices)
    if isinstance(solution, str):
        raise ValueError(solution)
    return solution


def _search(game: Game, corp: str, adj: dict[str, list[Segment]], runs: list[tuple[str, list[str]]],
            choices: list[list[list[str]]]) -> list[RouteResult] | str:
    problems: list[str] = []
    results: list[RouteResult] = []

    def place_run(r: int, used: set[str]) -> bool:
        if r == len(runs):
            return True
        train_id, specs = runs[r]
        for stops in _stop_sequences(choices[r]):
            problem = _run_problem(game, corp, train_id, stops)
            if problem:
                problems.append(problem)
                continue
            for sides in _linkings(adj, stops, used):
                revenue = sum(stop_revenue(game, s) for s in stops) + game.hooks.extra_revenue(game, corp, stops)
                results.append(RouteResult(train_id, tuple(stops), revenue))
                if place_run(r + 1, used | sides):
                    return True
                results.pop()
            else:
                problems.append(f"no track joins {' - '.join(specs)} without reusing track")
        return False

    if place_run(0, set()):
        return results
    return problems[0] if problems else "the runs cannot be made"


def _stop_sequences(cands: list[list[str]]) -> Iterator[list[str]]:
    if not cands:
        yield []
        return
    for first in cands[0]:
        for rest in _stop_sequences(cands[1:]):
            yield [first] + rest


def track_pieces(seg: Segment) -> list[str]:
    """The pieces of track ``seg`` uses, which no two routes of a corporation (nor one route
    twice) may share (1830 rules 6.5): each hex side it crosses (``"F20/3"``), or for a path
    between two stops of one tile the path itself (``"F20#1"``)."""
    return [f"{coord}/{edge}" for coord, edge in seg.sides] or [f"{seg.key[0]}#{seg.key[1]}"]


def _linkings(adj: dict[str, list[Segment]], stops: list[str], used: set[str]) -> Iterator[set[str]]:
    """Ways to join consecutive stops by track, none using a hex side (or a path between two
    stops on one tile) already in ``used``; yields the grown set of used keys."""

    def keys(link: list[Segment]) -> list[str]:
        return [piece for seg in link for piece in track_pieces(seg)]

    def go(i: int, taken: set[str]) -> Iterator[set[str]]:
        if i == len(stops) - 1:
            yield taken
            return
        for link in _links(adj, stops[i], stops[i + 1]):
            found = keys(link)
            if len(set(found)) != len(found) or taken.intersection(found):
                continue
            yield from go(i + 1, taken | set(found))

    yield from go(0, set(used))


def _run_problem(game: Game, corp: str, train_id: str, stops: list[str]) -> str | None:
    from pbem.engine.trains import train_data

    distance = train_data(game.title, train_id).distance
    if len(stops) > distance:
        return f"the {train_id} train may visit {distance} stops, not {len(stops)}"
    return path_problem(game, corp, stops)


def path_problem(game: Game, corp: str, stops: list[str]) -> str | None:
    """Why a route of ``corp`` may not visit ``stops`` (stop vertices, in order) whatever the
    train, or None: no stop twice, no passing through an off-board area or a city filled by
    others, one hex of an off-board group at most, a station token of the corporation on it
    (1830 rules 6.5). The track joining the stops is checked apart."""
    if len(set(stops)) != len(stops):
        return "a run may not visit a stop twice"
    for vertex in stops[1:-1]:
        if blocks(game, vertex, corp):
            coord, stop = split_vertex(vertex)
            what = "an off-board area" if stop == "o" else "a city filled by other corporations"
            return f"a run may not pass through {coord}: {what}"
    groups = []
    for vertex in stops:
        coord, stop = split_vertex(vertex)
        tile = placed(game, coord).tile
        if stop == "o" and tile.offboard is not None and tile.offboard.group:
            groups.append(tile.offboard.group)
    if len(groups) != len(set(groups)):
        return "a run may visit only one hex of an off-board group"
    if not any(stop_is_token(game, corp, v) for v in stops):
        return f"each run must include a city with a {corp} station token"
    return game.hooks.route_problem(game, corp, stops)


def fewest_stops(game: Game, corp: str, start: str, goal_hex: str) -> int | None:
    """The fewest stops (both ends counted) on a route ``corp`` could run from stop vertex
    ``start`` to any stop on hex ``goal_hex``, or None if the track does not join them.
    Passing through a stop counts it; a city filled by others or an off-board area ends the
    route; at a hex side the route goes on into the neighbouring hex, never back into the
    hex it came from (1830 rules 6.5). Used for 1870's destination connection.
    """
    from collections import deque

    adj = adjacency(game)
    State = tuple[str, str]  # (vertex, hex the route arrived from; "" at a stop)
    first: State = (start, "")
    best: dict[State, int] = {first: 1}
    todo: deque[State] = deque([first])
    found: list[int] = []
    while todo:
        state = todo.popleft()
        vertex, came_from = state
        count = best[state]
        if vertex != start and ":" in vertex:
            if split_vertex(vertex)[0] == goal_hex:
                found.append(count)
                continue
            if blocks(game, vertex, corp):
                continue
        for seg in adj.get(vertex, []):
            if came_from and seg.key[0] == came_from:
                continue  # no turning back at a hex side
            nxt = seg.b if seg.a == vertex else seg.a
            stop = ":" in nxt
            nxt_state: State = (nxt, "" if stop else seg.key[0])
            cost = count + (1 if stop else 0)
            if cost < best.get(nxt_state, 1 << 30):
                best[nxt_state] = cost
                if stop:
                    todo.append(nxt_state)
                else:
                    todo.appendleft(nxt_state)
    return min(found) if found else None


def stop_is_token(game: Game, corp: str, vertex: str) -> bool:
    """Whether ``vertex`` is a city (or off-board area) holding ``corp``'s token."""
    coord, stop = split_vertex(vertex)
    if stop == "o":
        return corp in tokens_in(game, coord, 0)
    return stop.startswith("c") and corp in tokens_in(game, coord, int(stop[1:]))
