"""The board as players know it, as an SVG document (:func:`board_svg`), drawn from the game
state with the ASCII map's sources: where each hex sits (:mod:`pbem.picture.geometry`), what
each stop shows (:func:`pbem.asciimap.stations`: tokens, slots held and for whom, free
slots), off-board revenues and terrain costs (:func:`pbem.asciimap.phase_revenues`,
:func:`pbem.asciimap.terrain_costs`).

The document is built so a reader (or a test) can find things in it:

* each hex a ``<g class="hex" data-hex="F20">``, moved to its place, holding its face or
  tile, terrain mark and cost, name and coordinate;
* each path of a tile or printed track a ``<path class="track" data-hex="F20" data-ends="e0 c0">``
  (:mod:`pbem.picture.tile_svg`);
* each station token a ``<g class="token" data-corp="PRR" data-hex="F20" data-stop="c0">``
  (a disc in the corporation's colour with its short name), each slot held a
  ``<g class="held" data-corp="NYNH" data-hex="G19" data-why="home">`` (a ring in its
  colour, the name in lower case as on the ASCII map);
* a private company's blocked hex ``<g class="blocker" data-hex=".." data-company="..">``,
  a gating piece (1829's survey parties) ``<g class="piece" data-corp=".." data-hex="..">``;
* each marked hex side once, ``<line class="border" data-kind="impassable" data-hex=".."
  data-edge="..">`` (``water``, ``mountain``; sides the title's rules close now count as
  ``impassable``), rivers through hexes ``<path class="river" data-hex="..">``;
* row and column labels round the map (``class="label"``) and a legend below it
  (:mod:`pbem.picture.legend`).

Units: hexes of circumradius :data:`SIZE`; the document's width and height are in the same
units (``svg_to_png`` scales it).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from pbem.asciimap import offboard_home, phase_revenues, short_name, stations
from pbem.engine import track
from pbem.engine.game import Game
from pbem.picture import colors
from pbem.picture.colors import FONT_FAMILY, corporation_colors
from pbem.picture.geometry import (
    SQRT3,
    Place,
    Point,
    col_label,
    corners,
    edge_midpoint,
    centre,
    hex_places,
    row_label,
)
from pbem.picture.legend import legend_svg
from pbem.picture.marks import offboard_boxes, terrain_mark, token
from pbem.picture.tile_svg import Spot, draw_tile, fmt, hex_points, text
from pbem.presentation import MapLine

SIZE = 50.0
"""A hex's circumradius in the document's units."""

HEADER = 0.9 * SIZE
"""The height of the line above the map (title, round and phase)."""
MARGIN = 0.8 * SIZE
"""The band round the map that holds the row and column labels."""


@dataclass(frozen=True)
class _Context:
    """What every hex is drawn with: the game, the token colours, rivers by hex."""

    game: Game
    fills: dict[str, str]
    rivers: dict[str, list[MapLine]]


def board_svg(game: Game) -> str:
    """The board of ``game`` as it stands, as an SVG document (module text)."""
    board = game.board
    layout = board.layout
    places = hex_places(board)
    half_w, half_h = (SQRT3 / 2 * SIZE, SIZE) if layout == "pointy" else (SIZE, SQRT3 / 2 * SIZE)
    points = {p.coord: centre(layout, p.col, p.row, SIZE) for p in places}
    xs = [x for x, _ in points.values()] or [0.0]
    ys = [y for _, y in points.values()] or [0.0]
    left, top = min(xs) - half_w, min(ys) - half_h
    map_w, map_h = max(xs) + half_w - left, max(ys) + half_h - top
    width = map_w + 2 * MARGIN
    dx, dy = MARGIN - left, HEADER + MARGIN - top
    lines: dict[str, list[MapLine]] = {}
    for line in game.title.presentation.map_lines(game):
        lines.setdefault(line.coord, []).append(line)
    context = _Context(game, corporation_colors(game.title), lines)
    body = [_hex(context, p.coord, points[p.coord][0] + dx, points[p.coord][1] + dy) for p in places]
    labels = _labels(game, places, points, dx, dy, width, HEADER + 2 * MARGIN + map_h)
    legend, legend_h = legend_svg(game, context.fills, width, HEADER + 2 * MARGIN + map_h)
    height = HEADER + 2 * MARGIN + map_h + legend_h
    title = f"{game.title.name}: {game.round_label()}, phase {game.state.phase}"
    return "".join([
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(width)}" height="{fmt(height)}" '
        f'viewBox="0 0 {fmt(width)} {fmt(height)}" font-family="{FONT_FAMILY}">',
        f'<rect width="{fmt(width)}" height="{fmt(height)}" fill="#ffffff"/>',
        text(MARGIN, HEADER / 2 + 4, title, SIZE * 0.42, weight="bold", anchor="start", css="title"),
        '<g class="labels">', *labels, "</g>",
        '<g class="hexes">', *body, "</g>",
        '<g class="borders">', *_borders(game, points, dx, dy), "</g>",
        legend, "</svg>",
    ])


# -- one hex ----------------------------------------------------------------------------------


def _hex(context: _Context, coord: str, x: float, y: float) -> str:
    game = context.game
    board = game.board
    layout = board.layout
    hex_data = board.hexes[coord]
    shown = track.placed(game, coord)
    tile = shown.tile
    parts = [f'<g class="hex" data-hex="{coord}" transform="translate({fmt(x)},{fmt(y)})">',
             f'<polygon points="{hex_points(layout, SIZE)}" fill="{colors.TILE_FILL.get(tile.color, "#ffffff")}" '
             f'stroke="{colors.GRID}" stroke-width="1" shape-rendering="crispEdges"/>']
    parts += [_river(layout, line) for line in context.rivers.get(coord, ())]
    if shown.printed and hex_data.cost:
        parts.append(_terrain(game, hex_data.terrain, hex_data.cost))
    slots = {f"c{i}": track.city_slots(game, coord, i) for i in range(len(tile.cities))}
    top, bottom = _toward(layout, 0.0, -1.0), _toward(layout, 0.0, 1.0)
    drawing = draw_tile(tile, shown.rotation, layout, SIZE, number=None if shown.printed else tile.name,
                        slots=slots, data_hex=coord, revenue=tile.offboard is None,
                        reserved=(top, bottom) if hex_data.name else (top,))
    parts.append(drawing.svg)
    if tile.offboard is not None and offboard_home(board, hex_data) is None:
        parts.append(offboard_boxes(phase_revenues(tile.offboard.revenue), SIZE))
    name = hex_data.name
    if name:
        below = tile.offboard is None
        px = min(SIZE * 0.15, SIZE * 1.5 / max(1, 0.5 * len(name)))
        parts.append(text(0, SIZE * (0.63 if below else -0.52), name, px, halo="#ffffff", css="name"))
    cx, cy = corners(layout, SIZE * 0.8)[top]
    parts.append(text(cx * 0.95, cy * 0.95, coord, SIZE * 0.13, fill="#555555", css="coord"))
    for stop, found in stations(game, coord).items():
        parts += _stop_tokens(context, coord, drawing.spots[stop], found.tokens, found.held, drawing.slot_radius)
    blocker = game.hex_blocker(coord)
    if blocker is not None:
        bx, by = corners(layout, SIZE * 0.55)[_toward(layout, -0.87, 0.5)]
        parts.append(f'<g class="blocker" data-hex="{coord}" data-company="{escape(blocker)}">'
                     f'<rect x="{fmt(bx - SIZE * 0.3)}" y="{fmt(by - SIZE * 0.12)}" width="{fmt(SIZE * 0.6)}" '
                     f'height="{fmt(SIZE * 0.24)}" rx="{fmt(SIZE * 0.05)}" fill="#333333"/>'
                     + text(bx, by, blocker, SIZE * 0.16, fill="#ffffff", weight="bold") + "</g>")
    pieces = [corp for corp, hexes in game.state.map_pieces.items() for h in hexes if h == coord]
    for i, corp in enumerate(pieces):
        px_, py_ = corners(layout, SIZE * 0.5)[_toward(layout, 0.87, -0.5)]
        parts.append(_piece(context, corp, coord, px_ - i * SIZE * 0.3, py_ + i * SIZE * 0.12))
    parts.append("</g>")
    return "".join(parts)


def _toward(layout: str, x: float, y: float) -> int:
    """The corner of a hex that points most nearly along ``(x, y)``."""
    found = corners(layout, 1.0)
    return max(range(6), key=lambda k: found[k][0] * x + found[k][1] * y)


def _end(layout: str, end: str) -> Point:
    """A point of a :class:`~pbem.presentation.MapLine`: corner ``k<n>`` or edge ``e<n>``."""
    index = int(end[1:])
    return corners(layout, SIZE)[index % 6] if end.startswith("k") else edge_midpoint(layout, index, SIZE)


def _river(layout: str, line: MapLine) -> str:
    (ax, ay), (bx, by) = _end(layout, line.ends[0]), _end(layout, line.ends[1])
    qx, qy = (ax + bx) * 0.2, (ay + by) * 0.2  # bowed toward the centre: never along a side
    return (f'<path class="river" data-hex="{line.coord}" d="M{fmt(ax)} {fmt(ay)}Q{fmt(qx)} {fmt(qy)} '
            f'{fmt(bx)} {fmt(by)}" fill="none" stroke="{colors.RIVER}" stroke-width="{fmt(SIZE * 0.09)}" '
            f'stroke-linecap="round"/>')


def _terrain(game: Game, terrain: str | None, cost: int) -> str:
    x, y = SIZE * 0.38, -SIZE * 0.42
    return (f'<g class="terrain" data-terrain="{escape(terrain or "")}">' + terrain_mark(terrain, x - SIZE * 0.22, y, SIZE)
            + text(x + SIZE * 0.05, y, game.money(cost), SIZE * 0.16, weight="bold", css="cost") + "</g>")


def _stop_tokens(context: _Context, coord: str, spot: Spot, tokens: tuple[str, ...],
                 held: tuple[tuple[str, str], ...], radius: float) -> list[str]:
    """The tokens and held slots of one stop, in its slots in order (tokens first, as the
    ASCII map lists them); a stop without slots (a town, an off-board area) shows them in a
    row below its middle."""
    game = context.game
    marks = [(c, None) for c in tokens] + [(c, why) for c, why in held]
    if not marks:
        return []
    where = f' data-hex="{coord}" data-stop="{spot.stop}"'
    places = list(spot.slots)
    r = radius * 0.92
    if len(places) < len(marks):
        r = SIZE * 0.17
        x0, y0 = spot.at
        y0 += SIZE * (0.38 if spot.stop == "o" else 0.0)
        places += [(x0 + (i - (len(marks) - 1) / 2) * 2.1 * r, y0) for i in range(len(marks) - len(places))]
    return [token(corp, short_name(game, corp), context.fills.get(corp, colors.PALETTE[0]), x, y, r,
                  held=why, where=where) for (corp, why), (x, y) in zip(marks, places)]


def _piece(context: _Context, corp: str, coord: str, x: float, y: float) -> str:
    """A gating piece (1829's survey party): a flag in the corporation's colour."""
    fill = context.fills.get(corp, colors.PALETTE[0])
    s = SIZE * 0.16
    return (f'<g class="piece" data-corp="{escape(corp)}" data-hex="{coord}">'
            f'<polygon points="{fmt(x - s)},{fmt(y + s)} {fmt(x)},{fmt(y - s)} {fmt(x + s)},{fmt(y + s)}" '
            f'fill="{fill}" stroke="{colors.INK}" stroke-width="1.5"/>'
            + text(x, y + s * 1.7, short_name(context.game, corp), SIZE * 0.13, weight="bold", halo="#ffffff")
            + "</g>")


# -- round the hexes --------------------------------------------------------------------------


def _borders(game: Game, points: dict[str, Point], dx: float, dy: float) -> list[str]:
    """Each marked side once: impassable (or closed by the title's rules now), water,
    mountain; drawn along the side, from corner ``e`` to corner ``e + 1``."""
    board = game.board
    layout = board.layout
    closed = set(game.title.presentation.closed_sides(game))
    seen: set[frozenset[tuple[str, int]]] = set()
    out: list[str] = []
    for coord, hex_data in board.hexes.items():
        kinds = {b.edge: b.kind for b in hex_data.borders if b.kind is not None}
        kinds.update({edge: "impassable" for c, edge in closed if c == coord})
        for edge, kind in sorted(kinds.items()):
            other = board.neighbor(coord, edge)
            key = frozenset({(coord, edge)} | ({(other, (edge + 3) % 6)} if other else set()))
            if key in seen:
                continue
            seen.add(key)
            x, y = points[coord][0] + dx, points[coord][1] + dy
            (ax, ay), (bx, by) = corners(layout, SIZE)[edge], corners(layout, SIZE)[(edge + 1) % 6]
            out.append(f'<line class="border" data-kind="{kind}" data-hex="{coord}" data-edge="{edge}" '
                       f'x1="{fmt(x + ax)}" y1="{fmt(y + ay)}" x2="{fmt(x + bx)}" y2="{fmt(y + by)}" '
                       f'stroke="{colors.BORDER_STROKE.get(kind, colors.INK)}" stroke-width="{fmt(SIZE * 0.12)}" '
                       f'stroke-linecap="round"/>')
    return out


def _labels(game: Game, places: list[Place], points: dict[str, Point], dx: float, dy: float,
            width: float, bottom: float) -> list[str]:
    """Row labels down both sides, column labels along the top and the bottom."""
    layout = game.board.layout
    rows: dict[int, float] = {}
    cols: dict[int, float] = {}
    for p in places:
        rows[p.row] = points[p.coord][1] + dy
        cols[p.col] = points[p.coord][0] + dx
    px = SIZE * 0.3
    out = []
    for row, y in sorted(rows.items()):
        label = row_label(layout, row)
        out.append(text(MARGIN / 2, y, label, px, fill="#444444", weight="bold", css="label"))
        out.append(text(width - MARGIN / 2, y, label, px, fill="#444444", weight="bold", css="label"))
    for col, x in sorted(cols.items()):
        label = col_label(layout, col)
        out.append(text(x, HEADER + MARGIN / 2, label, px, fill="#444444", weight="bold", css="label"))
        out.append(text(x, bottom - MARGIN / 2, label, px, fill="#444444", weight="bold", css="label"))
    return out
