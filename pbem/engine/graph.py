"""The track graph and its movement rule: the track-only ways between stops (runs, RUN AUTO)
and the fewest stops from one stop to a hex (1870 connections); what a corporation reaches
(tile lays, station tokens) is searched by the same rule in :mod:`pbem.engine.reach`.

Vertices are *stops* (:class:`pbem.engine.values.Vertex`; ``Vertex("F20", "c1")``: city 1
of the tile on F20, ``Vertex("F2", "o")``: the off-board area) and *hex sides* (strings: one
vertex for the side two hexes share, ``"F20/3|F21/0"``; a side off the map or behind an
impassable border is ``"F20/3|-"``, a dead end). Each path of a tile showing on the map is a
:class:`Segment` between two vertices.

Every search here moves by one rule (1830 rules 6.5; Dixon's 1870 rules 6.1, "trace a
legal train run"): track is followed from a stop along a segment; at a hex side it goes on
into the neighbouring hex, never back into the hex it came from (so never turning back at a
hex side, and never leaving a stop by the track it arrived on); it passes through a stop
only where that stop does not block the corporation (an off-board area, a city filled by
other corporations' tokens). A route, and each way between two stops, uses no piece of track
twice (each hex side a segment crosses, or a path between two stops of one tile).

A map's sea links (:attr:`MapData.sea_links`, packets) are segments that are no tile, each
between two off-board stops; a search passes through an off-board area only from its track
onto a sea link or from a sea link onto its track (:meth:`TrackGraph.through`), and the reach
for tile lays and tokens crosses only the links that carry it (routes cross them all:
:attr:`pbem.engine.reach.Network.route_stops`). The fewest-stops search of connections does not pass through
off-board areas at all.

The graph is derived from the tiles showing and kept on the game (:func:`track_graph`): when
a tile is laid only the segments of the hexes that changed are replaced, and the ways
between stops already found are kept for every stop whose ways never touched a changed hex.
Each graph is immutable once built, so a value derived from it (a corporation's reach) can
be cached against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator, Mapping, TypeGuard

from pbem.engine.board import HexData, MapData, TileData, edge_of
from pbem.engine.values import Vertex

if TYPE_CHECKING:
    from pbem.engine.game import Game

Point = Vertex | str
"""A vertex of the track graph: a stop (:class:`Vertex`) or a hex side (``"F20/3|F21/0"``)."""


@dataclass(frozen=True, eq=False)
class Segment:
    """One path of a tile on the board: ``key`` identifies it (hex, index of the path on
    the tile), ``a``/``b`` are its two vertices, ``sides`` the ``(hex, edge)`` pairs it
    crosses, ``pieces`` the pieces of track it uses for the no-reuse rule (see
    :func:`track_pieces`). Compared by identity: a segment of a hex whose tile stays is the
    same object in every graph derived from the first."""

    key: tuple[str, int]
    a: Point
    b: Point
    sides: tuple[tuple[str, int], ...]
    pieces: tuple[str, ...] = ()
    sea: bool = False
    """A sea link between two off-board areas (map data, no tile; key ``(hex, -1 - n)``)."""
    sea_reach: bool = False
    """Of a sea link: it also carries reach for tile lays and station tokens."""

    @property
    def hex(self) -> str:
        """The hex the segment lies on."""
        return self.key[0]

    def other(self, vertex: Point) -> Point:
        """The far end of the segment from ``vertex``."""
        return self.b if self.a == vertex else self.a


@dataclass(frozen=True)
class Link:
    """A track-only way from one stop to the next (no stop in between, no piece of track
    twice, never turning back at a hex side): its far ``end`` stop, the ``mask`` of track
    pieces it uses (bits of :attr:`TrackGraph.bits`) and its segments in order."""

    end: Vertex
    mask: int
    segments: tuple[Segment, ...]

    @property
    def sea(self) -> bool:
        """Whether the way is a sea link (its one segment joins two off-board areas)."""
        return self.segments[0].sea


def track_pieces(seg: Segment) -> list[str]:
    """The pieces of track ``seg`` uses, which no two routes of a corporation (nor one route
    twice) may share (1830 rules 6.5): each hex side it crosses (``"F20/3"``), or for a path
    between two stops of one tile the path itself (``"F20#1"``)."""
    return [f"{coord}/{edge}" for coord, edge in seg.sides] or [f"{seg.key[0]}#{seg.key[1]}"]


def is_stop(vertex: Point) -> TypeGuard[Vertex]:
    """Whether ``vertex`` is a stop (a :class:`Vertex`) rather than a hex side."""
    return type(vertex) is Vertex


def impassable(hex_data: HexData, edge: int) -> bool:
    """Whether side ``edge`` of the hex has an impassable border (no track across)."""
    border = hex_data.border(edge)
    return border is not None and border.kind == "impassable"


def side_vertex(board: MapData, coord: str, edge: int) -> str:
    """The vertex of side ``edge`` of ``coord``: shared with the neighbour unless the side is
    off the map or impassable."""
    other = board.neighbor(coord, edge)
    if other is not None and not impassable(board.hexes[coord], edge) and not impassable(
        board.hexes[other], (edge + 3) % 6
    ):
        a, b = f"{coord}/{edge}", f"{other}/{(edge + 3) % 6}"
        return "|".join(sorted((a, b)))
    return f"{coord}/{edge}|-"


def hex_segments(board: MapData, coord: str, tile: TileData, rotation: int) -> tuple[Segment, ...]:
    """The segments of ``tile`` laid at ``rotation`` on ``coord``."""
    out: list[Segment] = []
    for i, (a, b) in enumerate(tile.paths_at(rotation)):
        ends: list[Point] = []
        sides: list[tuple[str, int]] = []
        for endpoint in (a, b):
            edge = edge_of(endpoint)
            if edge is None:
                ends.append(Vertex(coord, endpoint))
            else:
                ends.append(side_vertex(board, coord, edge))
                sides.append((coord, edge))
        pieces = tuple(f"{c}/{e}" for c, e in sides) or (f"{coord}#{i}",)
        out.append(Segment((coord, i), ends[0], ends[1], tuple(sides), pieces))
    return tuple(out)


def sea_segments(board: MapData) -> tuple[Segment, ...]:
    """The map's sea links (:attr:`MapData.sea_links`) as segments between the off-board
    stops they join: keyed ``(first hex, -1 - n)``, their one piece of track the link itself
    (``"A~B"``), used once a route like any track."""
    return tuple(Segment((link.a, -1 - n), Vertex(link.a, "o"), Vertex(link.b, "o"), (), (f"{link.a}~{link.b}",),
                         sea=True, sea_reach=link.reach)
                 for n, link in enumerate(board.sea_links))


TileShown = tuple[str, int]
"""A laid tile as the state records it: (tile name, rotation)."""


class TrackGraph:
    """The track of the map with one set of tiles laid (immutable once built).

    ``laid`` is the laid tiles it was built for (hex -> (tile name, rotation); printed
    faces elsewhere); ``by_hex`` the segments of each hex; ``adjacency`` vertex -> the
    segments touching it (the sea links' too, which no hex holds); ``bits`` the track piece
    -> bit of the masks (shared by the graphs derived from one another, so masks stay
    comparable); ``sea_stops`` the off-board stops a sea link starts from.
    """

    def __init__(self, board: MapData, tiles: Mapping[str, TileData], laid: Mapping[str, TileShown],
                 by_hex: dict[str, tuple[Segment, ...]], adjacency: dict[Point, tuple[Segment, ...]],
                 bits: dict[str, int], links: dict[Vertex, tuple[tuple[Link, ...], frozenset[str]]]) -> None:
        self.board = board
        self.tiles = tiles
        self.laid: dict[str, TileShown] = dict(laid)
        self.by_hex = by_hex
        self.adjacency = adjacency
        self.bits = bits
        self._links = links
        self.sea_stops: frozenset[Vertex] = frozenset(Vertex(c, "o") for link in board.sea_links for c in (link.a, link.b))
        self.seg_masks: dict[Segment, int] = {}
        """Segment -> :meth:`mask`, kept; shared by the graphs derived from one another."""
        self.reach_sides: dict[Segment, tuple[tuple[str, int], ...]] = {}
        """Segment -> the (hex, edge) pairs its reach opens (:func:`pbem.engine.reach.reach`): each side it
        crosses, from both hexes; shared by the graphs derived from one another (a segment is
        the same object in each)."""

    @classmethod
    def build(cls, board: MapData, tiles: Mapping[str, TileData], laid: Mapping[str, TileShown]) -> TrackGraph:
        """The graph of ``board`` with the tiles ``laid`` (from scratch)."""
        by_hex: dict[str, tuple[Segment, ...]] = {}
        for coord, hex_data in board.hexes.items():
            shown = laid.get(coord)
            tile, rotation = (tiles[shown[0]], shown[1]) if shown is not None else (hex_data.tile, 0)
            by_hex[coord] = hex_segments(board, coord, tile, rotation)
        adjacency: dict[Point, list[Segment]] = {}
        for segs in (*by_hex.values(), sea_segments(board)):
            for seg in segs:
                adjacency.setdefault(seg.a, []).append(seg)
                adjacency.setdefault(seg.b, []).append(seg)
        return cls(board, tiles, laid, by_hex, {v: tuple(s) for v, s in adjacency.items()}, {}, {})

    def with_tiles(self, laid: Mapping[str, TileShown]) -> TrackGraph:
        """The graph with the laid tiles ``laid``: a new graph sharing everything of the hexes
        whose tile is unchanged (``self`` is returned when nothing changed)."""
        changed = {c for c in self.laid.keys() | laid.keys() if self.laid.get(c) != laid.get(c)}
        if not changed:
            return self
        by_hex = dict(self.by_hex)
        adjacency = dict(self.adjacency)
        touched: set[Point] = set()
        for coord in changed:
            old = set(self.by_hex.get(coord, ()))
            shown = laid.get(coord)
            tile, rotation = (self.tiles[shown[0]], shown[1]) if shown is not None else (self.board.hexes[coord].tile, 0)
            new = hex_segments(self.board, coord, tile, rotation)
            by_hex[coord] = new
            for seg in old:
                touched.update((seg.a, seg.b))
            for seg in new:
                touched.update((seg.a, seg.b))
            for vertex in {v for seg in old for v in (seg.a, seg.b)}:
                adjacency[vertex] = tuple(s for s in adjacency.get(vertex, ()) if s not in old)
            for seg in new:
                for vertex in (seg.a, seg.b) if seg.a != seg.b else (seg.a,):
                    adjacency[vertex] = adjacency.get(vertex, ()) + (seg,)
        for vertex in touched:
            if not adjacency.get(vertex):
                adjacency.pop(vertex, None)
        links = {stop: entry for stop, entry in self._links.items()
                 if not entry[1] & changed and stop.coord not in changed}
        graph = TrackGraph(self.board, self.tiles, laid, by_hex, adjacency, self.bits, links)
        graph.reach_sides = self.reach_sides
        graph.seg_masks = self.seg_masks
        return graph

    def with_tile(self, coord: str, tile: str, rotation: int) -> TrackGraph:
        """The graph as it would be with ``tile`` at ``rotation`` on ``coord``."""
        laid = dict(self.laid)
        laid[coord] = (tile, rotation)
        return self.with_tiles(laid)

    def at(self, vertex: Point) -> tuple[Segment, ...]:
        """The segments touching ``vertex``."""
        return self.adjacency.get(vertex, ())

    def mask(self, seg: Segment) -> int:
        """The bit mask of the track pieces ``seg`` uses (kept in :attr:`seg_masks`)."""
        out = self.seg_masks.get(seg)
        if out is not None:
            return out
        out = 0
        for piece in seg.pieces:
            bit = self.bits.get(piece)
            if bit is None:
                bit = self.bits[piece] = 1 << len(self.bits)
            out |= bit
        self.seg_masks[seg] = out
        return out

    def stop_mask(self, stop: Vertex) -> int:
        """The bit of ``stop`` in the masks (a route visits a stop once)."""
        key = f"@{stop.coord}:{stop.stop}"
        bit = self.bits.get(key)
        if bit is None:
            bit = self.bits[key] = 1 << len(self.bits)
        return bit

    def onward(self, vertex: Point, arrived: Segment | None) -> Iterator[Segment]:
        """The segments a route at ``vertex``, arrived by ``arrived`` (None at its first
        stop), may go on along: at a hex side only those of the other hex (never turning
        back, and nothing beyond a side off the map); at a stop any but the one it came by.
        The one movement rule of every search (see the module text)."""
        if arrived is None:
            yield from self.at(vertex)
            return
        if isinstance(vertex, Vertex):
            for seg in self.at(vertex):
                if seg is not arrived:
                    yield seg
            return
        if vertex.endswith("|-"):
            return
        came_from = arrived.key[0]
        for seg in self.at(vertex):
            if seg.key[0] != came_from:
                yield seg

    def through(self, vertex: Point, arrived: Segment) -> Iterator[Segment]:
        """The segments a route may go on along from a stop that blocks it (an off-board
        area), having arrived by ``arrived``: from its track onto its sea links, or from a
        sea link onto its track (a packet carries the route on; otherwise it ends there)."""
        for seg in self.at(vertex):
            if seg is not arrived and seg.sea != arrived.sea:
                yield seg

    def links(self, start: Vertex) -> tuple[Link, ...]:
        """The track-only ways from stop ``start`` to the next stops (see :class:`Link`), by
        far stop and then segments; kept on the graph (and on the graphs derived from it while no hex they
        touch changes)."""
        entry = self._links.get(start)
        if entry is None:
            entry = self._find_links(start)
            self._links[start] = entry
        return entry[0]

    def _find_links(self, start: Vertex) -> tuple[tuple[Link, ...], frozenset[str]]:
        out: list[Link] = []
        touched: set[str] = set()
        stack: list[tuple[Point, Segment | None, int, tuple[Segment, ...]]] = [(start, None, 0, ())]
        while stack:
            vertex, arrived, mask, path = stack.pop()
            for seg in self.onward(vertex, arrived):
                seg_mask = self.mask(seg)
                if seg_mask & mask:
                    continue
                nxt = seg.other(vertex)
                touched.add(seg.key[0])
                for coord, edge in seg.sides:
                    other = self.board.neighbor(coord, edge)
                    if other is not None:
                        touched.add(other)
                if is_stop(nxt):
                    if nxt != start:
                        out.append(Link(nxt, mask | seg_mask, path + (seg,)))
                    continue
                stack.append((nxt, seg, mask | seg_mask, path + (seg,)))
        # a canonical order (not the order the segments were added to the graph), so that a
        # graph brought up to date and one built afresh search alike
        out.sort(key=lambda link: (str(link.end), [seg.key for seg in link.segments]))
        return tuple(out), frozenset(touched)


def track_graph(game: Game) -> TrackGraph:
    """The track graph of ``game``'s tiles now, kept on the game and brought up to date from
    the one it kept (only the hexes whose tile changed are rebuilt)."""
    cached = game.cache.get("track_graph")
    laid = game.state.tiles
    if cached is not None:
        graph = cached[1]
        assert isinstance(graph, TrackGraph)
        if graph.laid == laid:
            return graph
        graph = graph.with_tiles(laid)
    else:
        graph = TrackGraph.build(game.board, game.tiles, laid)
    game.cache["track_graph"] = (None, graph)
    return graph


# -- the fewest stops from a stop to a hex -----------------------------------------------------


def fewest_stops(graph: TrackGraph, start: Vertex, goal_hex: str, blocks: Callable[[Vertex], bool],
                 most: int | None = None) -> int | None:
    """The fewest stops (both ends counted) of a route from stop ``start`` to a stop on
    ``goal_hex``, or None if no route joins them (within ``most`` stops, when given). The
    route follows the movement rule, visits no stop twice, passes through no stop for which
    ``blocks`` is true and uses no piece of track twice (1830 rules 6.5; 1870's destination
    connection).

    A search over stops by :meth:`TrackGraph.links` without the no-reuse rule gives a lower
    bound first; the exact search (depth first, cut at the best found) runs only where that
    bound is within ``most``."""
    bound = _fewest_relaxed(graph, start, goal_hex, blocks)
    if bound is None or (most is not None and bound > most):
        return None
    best = most + 1 if most is not None else 1 << 30
    blocked: dict[Vertex, bool] = {}
    on_path = {start}

    def walk(stop: Vertex, mask: int, count: int) -> None:
        nonlocal best
        for link in graph.links(stop):
            if link.mask & mask or link.end in on_path:
                continue
            reached = count + 1
            if reached >= best:
                continue
            if link.end.coord == goal_hex:
                best = reached
                continue
            stop_blocks = blocked.get(link.end)
            if stop_blocks is None:
                stop_blocks = blocked[link.end] = blocks(link.end)
            if stop_blocks or reached + 1 >= best:
                continue
            on_path.add(link.end)
            walk(link.end, mask | link.mask, reached)
            on_path.discard(link.end)
            if best == bound:
                return

    if start.coord == goal_hex:
        return 1
    walk(start, 0, 1)
    limit = most + 1 if most is not None else 1 << 30
    return best if best < limit else None


def _fewest_relaxed(graph: TrackGraph, start: Vertex, goal_hex: str, blocks: Callable[[Vertex], bool]) -> int | None:
    """A lower bound of :func:`fewest_stops`: breadth first over stops by their links,
    without the no-reuse and no-stop-twice rules."""
    if start.coord == goal_hex:
        return 1
    seen = {start}
    frontier = [start]
    count = 1
    while frontier:
        count += 1
        nxt_frontier: list[Vertex] = []
        for stop in frontier:
            for link in graph.links(stop):
                end = link.end
                if end in seen:
                    continue
                if end.coord == goal_hex:
                    return count
                seen.add(end)
                if not blocks(end):
                    nxt_frontier.append(end)
        frontier = nxt_frontier
    return None
