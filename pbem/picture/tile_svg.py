"""One tile in SVG: its track, cities with their token slots, towns, revenue, label and
number (:func:`draw_tile`); one tile alone (:func:`tile_picture`) and a sheet of tiles with
their counts, for a tile manifest (:func:`tile_sheet_svg`).

A tile is drawn round the centre of its hex, ``(0, 0)``, for hexes of circumradius ``size``
on a ``layout`` (:mod:`pbem.picture.geometry`); the caller moves it into place. Each path of
the tile (``TileData.paths``, turned by the rotation) is one ``<path class="track">``: a
straight line between opposite edges, an arc between edges one apart (*sharp*, round their
common corner, radius ``size / 2``) or two apart (*gentle*, round the centre of the hex
beside them, radius ``1.5 * size``), a curve from an edge to a stop. A town on a line
between two edges sits in the middle of that line, drawn as a bar across it (its two paths
are the line's halves); any other town is a dot. A city is a white disc with a circle per
station slot; stops of a tile with several are moved toward the edges their track leaves by.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from typing import Mapping, Sequence

from pbem.engine.board import TileData, edge_of
from pbem.picture import colors
from pbem.picture.colors import FONT_FAMILY
from pbem.picture.geometry import SQRT3, Point, corners, edge_direction, edge_midpoint


@dataclass(frozen=True)
class Spot:
    """Where a stop is drawn: ``at`` (from the hex's centre); for a town on a line, ``across``,
    the unit vector its bar lies along (None: a dot); for a city, the centres of its slots."""

    stop: str
    at: Point
    across: Point | None = None
    slots: tuple[Point, ...] = ()


@dataclass(frozen=True)
class TileDrawing:
    """A drawn tile: ``svg``, its elements (round ``(0, 0)``); ``spots`` by stop (``c0``,
    ``t1``, ``o``), where the board puts station tokens; ``slot_radius``, a slot's radius."""

    svg: str
    spots: Mapping[str, Spot]
    slot_radius: float


def fmt(value: float) -> str:
    """A coordinate in the SVG text: one decimal, no ``-0.0``."""
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def hex_points(layout: str, size: float) -> str:
    """The ``points`` of a hex polygon of circumradius ``size`` round ``(0, 0)``."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in corners(layout, size))


def text(x: float, y: float, body: str, px: float, *, fill: str = colors.INK, weight: str = "normal",
         anchor: str = "middle", halo: str | None = None, css: str = "") -> str:
    """A ``<text>`` centred vertically on ``y`` (``px`` high); ``halo`` a colour outlining it."""
    extra = f' class="{css}"' if css else ""
    if halo is not None:
        extra += f' stroke="{halo}" stroke-width="{fmt(px / 4)}" paint-order="stroke" stroke-linejoin="round"'
    return (f'<text{extra} x="{fmt(x)}" y="{fmt(y + px * 0.35)}" font-size="{fmt(px)}" '
            f'font-weight="{weight}" text-anchor="{anchor}" fill="{fill}">{escape(body)}</text>')


# -- where things go --------------------------------------------------------------------------


def _edges_by_stop(paths: Sequence[tuple[str, str]]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for a, b in paths:
        for end, other in ((a, b), (b, a)):
            edge = edge_of(other)
            if edge_of(end) is None and edge is not None:
                found.setdefault(end, []).append(edge)
    return found


def _through(stop: str, paths: Sequence[tuple[str, str]]) -> tuple[int, int] | None:
    """The two edges of a town whose only track is a line between two edges through it."""
    if not stop.startswith("t"):
        return None
    mine = [p for p in paths if stop in p]
    edges = [edge_of(a if b == stop else b) for a, b in mine]
    if len(mine) == 2 and None not in edges and edges[0] != edges[1]:
        return edges[0], edges[1]  # type: ignore[return-value]
    return None


@dataclass(frozen=True)
class _Curve:
    """The line between two edges: ``radius`` 0 for a straight one, else an arc round
    ``centre`` (``sweep`` as SVG's flag)."""

    start: Point
    end: Point
    centre: Point = (0.0, 0.0)
    radius: float = 0.0
    sweep: int = 0

    def middle(self) -> tuple[Point, Point]:
        """The point halfway along, and the unit vector across the line there."""
        mx, my = (self.start[0] + self.end[0]) / 2, (self.start[1] + self.end[1]) / 2
        if not self.radius:
            dx, dy = self.end[0] - self.start[0], self.end[1] - self.start[1]
            length = math.hypot(dx, dy) or 1.0
            return (mx, my), (-dy / length, dx / length)
        cx, cy = self.centre
        dx, dy = mx - cx, my - cy
        length = math.hypot(dx, dy) or 1.0
        return (cx + dx / length * self.radius, cy + dy / length * self.radius), (dx / length, dy / length)

    def piece(self, start: Point, end: Point) -> str:
        """The SVG path data of the part of the line from ``start`` to ``end`` (both on it)."""
        head = f"M{fmt(start[0])} {fmt(start[1])}"
        if not self.radius:
            return f"{head}L{fmt(end[0])} {fmt(end[1])}"
        r = fmt(self.radius)
        return f"{head}A{r} {r} 0 0 {self.sweep} {fmt(end[0])} {fmt(end[1])}"


def _curve(layout: str, a: int, b: int, size: float) -> _Curve:
    start, end = edge_midpoint(layout, a, size), edge_midpoint(layout, b, size)
    turn = (b - a) % 6
    if turn == 3:
        return _Curve(start, end)
    first = a if turn in (1, 2) else b  # the edge the arc turns from, clockwise
    if turn in (1, 5):  # sharp: round the corner between the two edges
        ax, ay = edge_direction(layout, first)
        bx, by = edge_direction(layout, first + 1)
        length = math.hypot(ax + bx, ay + by)
        centre = ((ax + bx) / length * size, (ay + by) / length * size)
        radius = size / 2
    else:  # gentle: round the centre of the hex beside the edge between them
        dx, dy = edge_direction(layout, first + 1)
        centre = (dx * SQRT3 * size, dy * SQRT3 * size)
        radius = 1.5 * size
    cross = (start[0] - centre[0]) * (end[1] - centre[1]) - (start[1] - centre[1]) * (end[0] - centre[0])
    return _Curve(start, end, centre, radius, 1 if cross > 0 else 0)


def _slot_points(at: Point, count: int, radius: float) -> tuple[Point, ...]:
    x, y = at
    if count <= 1:
        return (at,)
    if count == 2:
        return ((x - radius, y), (x + radius, y))
    if count == 3:
        r = radius * 1.16
        return tuple((x + r * math.cos(a), y + r * math.sin(a)) for a in (-math.pi / 2, math.pi / 6, 5 * math.pi / 6))
    rows = (count + 1) // 2
    return tuple((x + (-radius if i % 2 == 0 else radius), y + (i // 2 - (rows - 1) / 2) * 2 * radius)
                 for i in range(count))


def slot_radius(tile: TileData, size: float) -> float:
    """The radius of a station slot on ``tile``: smaller where the tile has more stops."""
    stops = len(tile.cities) + len(tile.towns)
    return size * (0.2 if stops <= 1 else 0.17 if len(tile.cities) <= 2 else 0.14)


def spots(tile: TileData, rotation: int, layout: str, size: float,
          slots: Mapping[str, int] | None = None) -> dict[str, Spot]:
    """Where each stop of ``tile`` laid at ``rotation`` is drawn (module text); ``slots``:
    the station slots a city shows where they are not the tile's own (a title's extra slot)."""
    paths = tile.paths_at(rotation)
    stops = tile.stop_ids()
    edges = _edges_by_stop(paths)
    radius = slot_radius(tile, size)
    apothem = size * SQRT3 / 2
    places: dict[str, tuple[Point, Point | None]] = {}
    loose: list[str] = []
    for stop in stops:
        through = _through(stop, paths)
        if through is not None:
            places[stop] = _curve(layout, *through, size).middle()
        elif len(stops) == 1 or stop == "o" or not edges.get(stop):
            if len(stops) == 1 or stop == "o":
                places[stop] = ((0.0, 0.0), None)
            else:
                loose.append(stop)
        else:
            sx = sum(edge_direction(layout, e)[0] for e in edges[stop])
            sy = sum(edge_direction(layout, e)[1] for e in edges[stop])
            length = math.hypot(sx, sy)
            reach = 0.62 if len(tile.cities) > 3 else 0.5
            at = (0.0, 0.0) if length < 0.2 else (sx / length * reach * apothem, sy / length * reach * apothem)
            places[stop] = (at, None)
    for i, stop in enumerate(loose):  # stops no track reaches: round the centre
        angle = math.pi + 2 * math.pi * i / len(loose)
        reach = 0.0 if len(loose) == 1 and not places else 0.45 * apothem
        places[stop] = ((reach * math.cos(angle), reach * math.sin(angle)), None)
    _part_towns_that_meet(places, apothem)
    found: dict[str, Spot] = {}
    for stop in stops:
        at, across = places[stop]
        count = 0
        if stop.startswith("c"):
            count = (slots or {}).get(stop, tile.cities[int(stop[1:])].slots)
        found[stop] = Spot(stop, at, across, _slot_points(at, count, radius) if count else ())
    return found


def _part_towns_that_meet(places: dict[str, tuple[Point, Point | None]], apothem: float) -> None:
    """Towns on lines that pass close by each other (two straight lines crossing at the
    centre, two curves touching) are moved apart along their lines, one each way."""
    towns = sorted(stop for stop, (_, across) in places.items() if across is not None)
    for i, first in enumerate(towns):
        for second in towns[i + 1:]:
            (a, across_a), (b, across_b) = places[first], places[second]
            if math.hypot(a[0] - b[0], a[1] - b[1]) >= 0.35 * apothem:
                continue
            for stop, (x, y), across, sign in ((first, a, across_a, 1), (second, b, across_b, -1)):
                assert across is not None
                along = (-across[1], across[0])
                if (along[0] * (b[0] - a[0]) + along[1] * (b[1] - a[1])) * sign > 0:
                    along = (-along[0], -along[1])  # away from the other town
                if abs(along[0] * (b[0] - a[0]) + along[1] * (b[1] - a[1])) < 1e-6:
                    along = (along[0] * sign, along[1] * sign)
                places[stop] = ((x + along[0] * 0.3 * apothem, y + along[1] * 0.3 * apothem), across)


# -- drawing ----------------------------------------------------------------------------------


def track_paths(tile: TileData, rotation: int, layout: str, size: float,
                found: Mapping[str, Spot]) -> list[tuple[str, str, str]]:
    """Each path of the tile as ``(end, end, SVG path data)``, in the tile's order."""
    paths = tile.paths_at(rotation)
    out: list[tuple[str, str, str]] = []
    for a, b in paths:
        ea, eb = edge_of(a), edge_of(b)
        if ea is not None and eb is not None:
            out.append((a, b, _curve(layout, ea, eb, size).piece(edge_midpoint(layout, ea, size),
                                                                 edge_midpoint(layout, eb, size))))
            continue
        if ea is None and eb is None:
            pa, pb = found[a].at, found[b].at
            out.append((a, b, f"M{fmt(pa[0])} {fmt(pa[1])}L{fmt(pb[0])} {fmt(pb[1])}"))
            continue
        edge, stop = (ea, b) if ea is not None else (eb, a)
        assert edge is not None
        through = _through(stop, paths)
        start, at = edge_midpoint(layout, edge, size), found[stop].at
        if through is not None and not _moved(layout, through, size, at):
            out.append((a, b, _curve(layout, *through, size).piece(start, at) if edge == through[0]
                        else _curve(layout, through[1], through[0], size).piece(start, at)))
            continue
        if math.hypot(*at) < 1e-6:
            out.append((a, b, f"M{fmt(start[0])} {fmt(start[1])}L0.0 0.0"))
            continue
        dx, dy = edge_direction(layout, edge)
        pull = math.hypot(at[0] - start[0], at[1] - start[1]) * 0.5
        control = (start[0] - dx * pull, start[1] - dy * pull)
        out.append((a, b, f"M{fmt(start[0])} {fmt(start[1])}Q{fmt(control[0])} {fmt(control[1])} "
                          f"{fmt(at[0])} {fmt(at[1])}"))
    return out


def _moved(layout: str, through: tuple[int, int], size: float, at: Point) -> bool:
    (x, y), _ = _curve(layout, *through, size).middle()
    return math.hypot(x - at[0], y - at[1]) > 0.01 * size


def _corner_toward(layout: str, size: float, x: float, y: float, *, skip: Sequence[int] = ()) -> int:
    best = max((k for k in range(6) if k not in skip),
               key=lambda k: corners(layout, 1.0)[k][0] * x + corners(layout, 1.0)[k][1] * y)
    return best


def number_corner(layout: str) -> int:
    """The corner (lower right) beside which a tile's number is printed."""
    return _corner_toward(layout, 1.0, 0.87, 0.5)


def label_corner(layout: str) -> int:
    """The corner (upper left) beside which a tile's label is printed."""
    return _corner_toward(layout, 1.0, -0.87, -0.5)


def revenue_corner(layout: str, used: Sequence[int], skip: Sequence[int]) -> int:
    """The corner farthest from the edges ``used`` by track, not one of ``skip``."""
    dirs = [edge_direction(layout, e) for e in used]

    def nearness(k: int) -> float:
        cx, cy = corners(layout, 1.0)[k]
        return max((cx * x + cy * y for x, y in dirs), default=-1.0)

    candidates = [k for k in range(6) if k not in skip] or list(range(6))
    return min(candidates, key=lambda k: (round(nearness(k), 3), candidates.index(k)))


def _revenue_bubble(x: float, y: float, value: int, size: float) -> str:
    return (f'<g class="revenue"><circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(size * 0.15)}" fill="#ffffff" '
            f'stroke="{colors.INK}" stroke-width="{fmt(size * 0.02)}"/>'
            + text(x, y, str(value), size * 0.17, weight="bold") + "</g>")


def draw_tile(tile: TileData, rotation: int, layout: str, size: float, *, number: str | None = None,
              slots: Mapping[str, int] | None = None, data_hex: str | None = None,
              revenue: bool = True, reserved: Sequence[int] = ()) -> TileDrawing:
    """``tile`` laid at ``rotation``: track, stops (empty slots), revenue (once where every
    stop pays the same), label and ``number`` (None: none); no hex outline. ``slots`` as for
    :func:`spots`; ``data_hex`` marks each track path with the hex (``data-hex="F20"``);
    ``reserved``: corners the caller prints something beside (the revenue keeps off them)."""
    found = spots(tile, rotation, layout, size, slots)
    radius = slot_radius(tile, size)
    parts: list[str] = []
    mark = f' data-hex="{data_hex}"' if data_hex else ""
    width = fmt(size * 0.1)
    for a, b, d in track_paths(tile, rotation, layout, size, found):
        parts.append(f'<path class="track"{mark} data-ends="{a} {b}" d="{d}" fill="none" '
                     f'stroke="{colors.TRACK}" stroke-width="{width}"/>')
    stroke = fmt(size * 0.025)
    for index in range(len(tile.towns)):
        spot = found[f"t{index}"]
        (x, y), across = spot.at, spot.across
        if across is None:
            parts.append(f'<circle class="town" cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(size * 0.1)}" '
                         f'fill="{colors.TRACK}" stroke="#ffffff" stroke-width="{stroke}"/>')
        else:
            half, thick = size * 0.2, size * 0.065
            ux, uy = across
            vx, vy = -uy, ux
            points = [(x + ux * half * s + vx * thick * t, y + uy * half * s + vy * thick * t)
                      for s, t in ((1, 1), (1, -1), (-1, -1), (-1, 1))]
            parts.append('<polygon class="town" points="' + " ".join(f"{fmt(px)},{fmt(py)}" for px, py in points)
                         + f'" fill="{colors.TRACK}"/>')
    for index in range(len(tile.cities)):
        parts.append(_city(found[f"c{index}"], radius, size))
    if revenue:
        skip = [*reserved] + ([number_corner(layout)] if number else []) + ([label_corner(layout)] if tile.label else [])
        parts += _revenues(tile, rotation, layout, size, found, radius, skip)
    if tile.label:
        lx, ly = corners(layout, size * 0.62)[label_corner(layout)]
        parts.append(text(lx, ly, tile.label, size * 0.22, weight="bold", css="label"))
    if number:
        nx, ny = corners(layout, size * 0.7)[number_corner(layout)]
        parts.append(text(nx, ny, number, size * 0.15, css="number"))
    return TileDrawing("".join(parts), found, radius)


def _city(spot: Spot, radius: float, size: float) -> str:
    (x, y), count = spot.at, len(spot.slots)
    stroke = fmt(size * 0.025)
    style = f'fill="#ffffff" stroke="{colors.INK}" stroke-width="{stroke}"'
    if count == 2:
        shape = (f'<rect x="{fmt(x - 2 * radius)}" y="{fmt(y - radius)}" width="{fmt(4 * radius)}" '
                 f'height="{fmt(2 * radius)}" rx="{fmt(radius)}" {style}/>')
    elif count >= 3:
        outer = radius * (2.25 if count == 3 else 2.1)
        shape = f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(outer)}" {style}/>'
    else:
        shape = ""
    slots = "".join(f'<circle cx="{fmt(sx)}" cy="{fmt(sy)}" r="{fmt(radius)}" {style}/>' for sx, sy in spot.slots)
    return f'<g class="city" data-stop="{spot.stop}">{shape}{slots}</g>'


def _revenues(tile: TileData, rotation: int, layout: str, size: float, found: Mapping[str, Spot],
              radius: float, skip: Sequence[int]) -> list[str]:
    values = [(f"c{i}", c.revenue) for i, c in enumerate(tile.cities)]
    values += [(f"t{i}", t.revenue) for i, t in enumerate(tile.towns)]
    values = [(stop, value) for stop, value in values if value]
    if not values:
        return []
    if len({v for _, v in values}) == 1:
        k = revenue_corner(layout, sorted(tile.exits(rotation)), skip)
        bx, by = corners(layout, size * 0.6)[k]
        spot = found[values[0][0]]
        if len(values) == 1 and spot.stop.startswith("c") and math.hypot(*spot.at) > 0.05 * size:
            bx, by = _beside(spot, radius, size)
        return [_revenue_bubble(bx, by, values[0][1], size)]
    return [_revenue_bubble(*_beside(found[stop], radius, size), value, size) for stop, value in values]


def _beside(spot: Spot, radius: float, size: float) -> Point:
    """A point beside a stop, away from the centre of the hex (or above it at the centre)."""
    x, y = spot.at
    length = math.hypot(x, y)
    ux, uy = (x / length, y / length) if length > 1e-6 else (0.0, -1.0)
    vx, vy = -uy, ux  # across, so the bubble keeps clear of the stop's own track
    reach = radius * (2.0 if len(spot.slots) == 2 else 1.0) + size * 0.17
    return x + vx * reach, y + vy * reach


# -- alone and in a sheet ---------------------------------------------------------------------


def tile_picture(tile: TileData, rotation: int, size: float, *, layout: str = "pointy") -> str:
    """One tile at ``rotation`` as an ``<svg>`` element of hexes of circumradius ``size``
    (pixels): its colour, track, stops, revenue, label and number; usable inside HTML or
    another SVG."""
    width, height = (SQRT3 * size, 2 * size) if layout == "pointy" else (2 * size, SQRT3 * size)
    drawing = draw_tile(tile, rotation, layout, size, number=tile.name)
    fill = colors.TILE_FILL.get(tile.color, "#ffffff")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" class="tile" data-tile="{escape(tile.name)}" '
            f'width="{fmt(width)}" height="{fmt(height)}" '
            f'viewBox="{fmt(-width / 2)} {fmt(-height / 2)} {fmt(width)} {fmt(height)}" font-family="{FONT_FAMILY}">'
            f'<polygon points="{hex_points(layout, size * 0.98)}" fill="{fill}" stroke="{colors.GRID}" '
            f'stroke-width="{fmt(size * 0.02)}"/>{drawing.svg}</svg>')


def tile_sheet_svg(tiles: list[tuple[TileData, int]], *, size: float = 40.0, columns: int = 8) -> str:
    """An SVG document of ``tiles``, each at rotation 0 with ``#number ×count`` below it,
    ``columns`` to a row, in the order given (a title's tile manifest)."""
    cell_w, cell_h = SQRT3 * size + size * 0.4, 2 * size + size * 0.6
    rows = max(1, -(-len(tiles) // columns))
    width, height = cell_w * min(columns, max(1, len(tiles))), cell_h * rows
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(width)}" height="{fmt(height)}" '
             f'viewBox="0 0 {fmt(width)} {fmt(height)}" font-family="{FONT_FAMILY}">',
             f'<rect width="{fmt(width)}" height="{fmt(height)}" fill="#ffffff"/>']
    for i, (tile, count) in enumerate(tiles):
        x, y = cell_w * (i % columns) + cell_w / 2, cell_h * (i // columns) + size * 1.1
        parts.append(f'<g transform="translate({fmt(x)},{fmt(y)})">'
                     f'<g transform="translate({fmt(-SQRT3 * size / 2)},{fmt(-size)})">'
                     f'{tile_picture(tile, 0, size)}</g>'
                     + text(0, size * 1.25, f"#{tile.name} ×{count}", size * 0.3, css="count") + "</g>")
    parts.append("</svg>")
    return "".join(parts)
