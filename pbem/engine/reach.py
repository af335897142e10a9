"""What a corporation's station tokens reach, for its tile lays and tokens (1830 rules 6.2,
6.3; Dixon's 1870 rules 6.1, "trace a legal train run"): every segment and stop some route
from one of its tokens can travel along, by the movement rule of :mod:`pbem.engine.graph`,
using no piece of track twice and visiting no stop twice (1830 rules 6.5; Dixon's 1870
rules 8.1.4). A breadth-first walk answers where it can (:func:`_reached`); a search over
routes decides the rest (:func:`_trails`).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Iterable

from pbem.engine.board import MapData
from pbem.engine.graph import Point, Segment, TrackGraph
from pbem.engine.values import Vertex


@dataclass
class Network:
    """What one corporation's station tokens reach by the movement rule of :mod:`pbem.engine.graph`.

    ``hex_edges`` maps a hex to the edges through which track may be extended into it (every
    edge of a hex with one of its tokens, and both hexes' edges of every side a reached
    segment crosses); ``stops`` the stop vertices reached (a blocking stop is reached but
    not passed through); ``segments`` the keys of the track reached; ``route_for_train``
    whether one token's search found another stop (a route for a train);
    ``route_stops`` the stops its routes may visit: ``stops`` and those beyond a sea link
    that carries no reach (the same set where the map has no such link).
    """

    hex_edges: dict[str, set[int]] = field(default_factory=dict)
    stops: set[Vertex] = field(default_factory=set)
    segments: set[tuple[str, int]] = field(default_factory=set)
    route_for_train: bool = False
    route_stops: set[Vertex] = field(default_factory=set)


def reach(graph: TrackGraph, starts: list[Vertex], blocks: Callable[[Vertex], bool], *,
          routes: bool = True) -> Network:
    """What the stops ``starts`` (a corporation's token stops) reach: every segment some
    route from one of them can travel along (see :class:`Network`). A route follows the
    movement rule, uses no piece of track twice and visits no stop twice (1830 rules 6.5;
    Dixon's 1870 rules 8.1.4), passes through no stop for which ``blocks`` is true except
    from an off-board area's track onto its sea link or back (:meth:`TrackGraph.through`),
    and crosses only the sea links that carry reach (:func:`_trails`). ``route_for_train``
    is whether such a route joins two stops; where a sea link carries no reach,
    ``route_stops`` adds the stops beyond it. With ``routes=False`` those two are left out
    (``route_for_train`` False, ``route_stops`` the ``stops``): for a caller that asks only
    what track and stops are reached."""
    board = graph.board
    blocked: dict[Vertex, bool] = {}

    def passes(stop: Vertex) -> bool:
        found = blocked.get(stop)
        if found is None:
            found = blocked[stop] = blocks(stop)
        return not found

    reached, stops = _reached(graph, starts, passes, all_sea=False)
    net = Network(stops=stops)
    hex_edges, sides_of = net.hex_edges, graph.reach_sides
    for start in starts:
        coord = start.coord
        hex_edges.setdefault(coord, set()).update(e for e in range(6) if board.neighbor(coord, e) is not None)
    for seg in reached:
        net.segments.add(seg.key)
        opened = sides_of.get(seg)
        if opened is None:
            opened = sides_of[seg] = _opened_sides(board, seg)
        for coord, edge in opened:
            found = hex_edges.get(coord)
            if found is None:
                hex_edges[coord] = {edge}
            else:
                found.add(edge)
    net.route_stops = net.stops
    if not routes:
        return net
    if any(not link.reach for link in board.sea_links):
        net.route_stops = _reached(graph, starts, passes, all_sea=True)[1]
    net.route_for_train = _route_for_train(graph, starts, net.route_stops)
    return net


def _reached(graph: TrackGraph, starts: list[Vertex], passes: Callable[[Vertex], bool], *,
             all_sea: bool) -> tuple[set[Segment], set[Vertex]]:
    """What routes from ``starts`` reach (see :func:`_trails`), found fast where it can be: a
    breadth-first walk that takes each directed segment once, by its shortest walk, is a
    superset; where every segment and stop it takes was first taken by a walk that is a
    route, it is the answer. Otherwise (a walk that must come back over its own track to get
    somewhere) the search over routes, :func:`_trails`, decides."""
    sea = graph.sea_stops
    start_set = frozenset(starts)
    stops, routed_stops = set(starts), set(starts)
    walked: set[Segment] = set()
    routed: set[Segment] = set()
    seen: set[tuple[Segment, Point]] = set()
    todo: deque[tuple[Point, Segment | None, int, bool, bool]] = deque(
        (start, None, graph.stop_mask(start), True, False) for start in starts)
    while todo:
        vertex, arrived, used, route, through = todo.popleft()
        for seg in _onward(graph, vertex, arrived, through):
            if seg.sea and not seg.sea_reach and not all_sea:
                continue
            nxt = seg.b if seg.a == vertex else seg.a
            state = (seg, nxt)
            if state in seen:
                continue
            seen.add(state)
            seg_mask = graph.mask(seg)
            now, still = used | seg_mask, route and not seg_mask & used
            if type(nxt) is Vertex:
                stop_mask = graph.stop_mask(nxt)
                still = still and not stop_mask & used
                now |= stop_mask
            walked.add(seg)
            if still:
                routed.add(seg)
            if type(nxt) is Vertex:
                stops.add(nxt)
                if still:
                    routed_stops.add(nxt)
                if nxt in start_set:
                    continue
                if not passes(nxt):
                    if nxt in sea:
                        todo.append((nxt, seg, now, still, True))
                    continue
            todo.append((nxt, seg, now, still, False))
    if walked == routed and stops == routed_stops:
        return routed, routed_stops
    return _trails(graph, starts, passes, all_sea=all_sea, wanted=(walked - routed, stops - routed_stops),
                   walked=(walked, stops))


def _trails(graph: TrackGraph, starts: list[Vertex], passes: Callable[[Vertex], bool], *,
            all_sea: bool, wanted: tuple[set[Segment], set[Vertex]] | None = None,
            walked: tuple[set[Segment], set[Vertex]] | None = None) -> tuple[set[Segment], set[Vertex]]:
    """The segments and stops some route from one of ``starts`` reaches (see :func:`reach`),
    crossing every sea link where ``all_sea``, else only those that carry reach.

    A depth-first search over routes: a route is extended along a segment only where it has
    used none of the segment's pieces of track and has not visited the stop it leads to
    (the pieces and stops it used are one bit mask, :meth:`TrackGraph.mask`). A route that
    reaches a segment in the same direction with a superset of the pieces and stops an
    earlier one used finds nothing new and stops there, so on track without loops each
    directed segment is walked once. A route ends at another start (what lies beyond, that
    start's own routes reach) and never returns to its own. With ``wanted`` (the segments and
    stops a walk took that no route has been seen to take yet; :func:`_reached`) the search
    ends as soon as routes have taken all of them, and gives ``walked``, what the walk took."""
    missing_segs, missing_stops = (set(wanted[0]), set(wanted[1])) if wanted is not None else (None, None)
    start_set = frozenset(starts)
    stops = set(starts)
    reached: set[Segment] = set()
    sea = graph.sea_stops
    expanded: dict[tuple[Segment, Point], list[int]] = {}
    for start in starts:
        todo: list[tuple[Point, Segment | None, int, bool]] = [(start, None, 0, False)]
        while todo:
            vertex, arrived, used, through = todo.pop()
            for seg in _onward(graph, vertex, arrived, through):
                if seg.sea and not seg.sea_reach and not all_sea:
                    continue
                seg_mask = graph.mask(seg)
                if seg_mask & used:
                    continue
                nxt = seg.b if seg.a == vertex else seg.a
                now = used | seg_mask
                if type(nxt) is Vertex:
                    if nxt in start_set:
                        if nxt != start:
                            reached.add(seg)
                        continue
                    stop_mask = graph.stop_mask(nxt)
                    if stop_mask & used:
                        continue
                    now |= stop_mask
                state = (seg, nxt)
                prior = expanded.get(state)
                if prior is None:
                    expanded[state] = [now]
                else:
                    if any(earlier & now == earlier for earlier in prior):
                        continue
                    prior[:] = [earlier for earlier in prior if earlier & now != now]
                    prior.append(now)
                reached.add(seg)
                if missing_segs is not None and missing_stops is not None and walked is not None:
                    missing_segs.discard(seg)
                    if type(nxt) is Vertex:
                        missing_stops.discard(nxt)
                    if not missing_segs and not missing_stops:
                        return walked
                if type(nxt) is Vertex:
                    stops.add(nxt)
                    if not passes(nxt):
                        if nxt in sea:
                            todo.append((nxt, seg, now, True))
                        continue
                todo.append((nxt, seg, now, False))
    return reached, stops


def _onward(graph: TrackGraph, vertex: Point, arrived: Segment | None, through: bool) -> Iterable[Segment]:
    """The segments a walk at ``vertex`` goes on along: :meth:`TrackGraph.through` where it
    passes a blocking stop onto or off a sea link, else :meth:`TrackGraph.onward`."""
    return graph.through(vertex, arrived) if through and arrived is not None else graph.onward(vertex, arrived)


def _opened_sides(board: MapData, seg: Segment) -> tuple[tuple[str, int], ...]:
    """The (hex, edge) pairs reaching ``seg`` opens to track: each side it crosses, seen from
    its own hex and from the hex across (where the map has one)."""
    out: list[tuple[str, int]] = []
    for coord, edge in seg.sides:
        out.append((coord, edge))
        other = board.neighbor(coord, edge)
        if other is not None:
            out.append((other, (edge + 3) % 6))
    return tuple(out)


def _route_for_train(graph: TrackGraph, starts: list[Vertex], route_stops: set[Vertex]) -> bool:
    """Whether a route joins two stops, a city, an off-board area or a town (a route for a
    train, 1830 rules 6.7: a 2-train may run from a city with a token to a town, so such a
    corporation must own a train): a stop other than the starts that a route reaches, or a
    way between two starts (a route from one start ends at the first other start)."""
    start_set = set(starts)
    if any(stop not in start_set and stop.stop[0] in "cot" for stop in route_stops):
        return True
    return any(link.end in start_set and link.end != start and link.end.stop[0] in "cot"
               for start in starts for link in graph.links(start))
