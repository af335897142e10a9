"""The ASCII map of the postal turn report (the same track in words: :mod:`pbem.track_words`).

Drawn from the engine's map model for any title, in the tradition of postal (PBM) 18xx
games: plain ASCII for a text mail read on phones and desktops.

Hexes are cells of text in a brick pattern, which is how hexes tile: on a *pointy* map each
row of hexes is a band of text lines and a hex touches two hexes above, two below and one on
each side (the rows are shifted by half a hex); on a *flat* map the same is done with columns
(the columns are shifted by half a hex). Each cell is at most :data:`CELL` characters wide
and normally three lines tall, a row growing only when a hex needs more (so nothing is ever
cut off). Part of 1830's row G, and row H below it::

    ----+----+----+----+----+----+
        |G17 y1/0 |G19 b62/0|
        |t10 t10  |80 PRR . |
        |         |80 NNH   |
        |         |   NYC   |
    ----+----+----+----+----+
    H16 b63/0|H18 b65/3|
    40 C&O   |50 PRR   |
       B&O   |50 .     |
    ----+----+----+----+

The first line holds the coordinate and the tile laid (``b62/0``: brown tile 62 at rotation
0), or what is printed while nothing is laid; then each city (revenue, then one mark per
station slot), the towns, and the cost of the first tile. Hex sides nobody may cross are
drawn with ``#``. :func:`render_map` adds the coordinates round the edge and a legend, and
splits a map too wide for the mail into parts (where each hex sits and which side is which
is :mod:`pbem.picture.geometry`'s, which the picture of the board shares); :func:`pbem.track_words.track_list` says, hex by
hex, what joins what, for readers who cannot use a drawing.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from types import MappingProxyType
from collections.abc import Callable, Mapping, Sequence

from pbem.engine.abilities import BlocksHexes
from pbem.engine import track
from pbem.engine.board import BorderData, HexData, MapData, TileData
from pbem.engine.game import Game
from pbem.picture.geometry import EDGE_NAMES as EDGE_NAMES  # re-exported for the map's readers
from pbem.picture.geometry import Place, col_label, edge_named, row_label
from pbem.picture.geometry import hex_places as hex_places  # re-exported likewise

CELL = 9
"""Characters of text per cell line (between the cell's walls)."""

HALF = (CELL + 1) // 2
"""Pointy layout: characters from one wall to the middle of the hex (half a hex)."""

MIN_LINES = 3
"""Text lines of a cell, at least (a row of hexes grows when one of its hexes needs more)."""

COLOR_LETTERS: Mapping[str, str] = MappingProxyType(
    {"yellow": "y", "green": "g", "brown": "b", "gray": "G", "red": "r", "blue": "~"}
)
"""Tile colour -> the letter before the tile number (white, plain land, has none)."""

_PHASE_COLORS = ("yellow", "green", "brown", "gray")
_BORDER_CHARS: Mapping[str, str] = MappingProxyType(
    {"impassable": "#", "water": "~", "mountain": "^"}
)


# -- public ---------------------------------------------------------------------------------


def render_map(game: Game, *, width: int = 132) -> str:
    """The map of ``game`` as it stands, in ASCII, every line at most ``width`` characters.

    Coordinates run round the edge (pointy maps: row letters down both sides, column numbers
    along the top and bottom; flat maps the other way round); each hex is a cell as described
    in the module docstring; a legend follows. A map wider than ``width`` is split into
    parts by columns, each headed ``Map, part 1 of 2: columns 1-12``; every hex is in exactly
    one part.

    :raises ValueError: ``width`` too narrow for even one column of hexes.
    """
    board = game.board
    places = hex_places(board)
    cells = {p.coord: hex_cell(game, p.coord) for p in places}
    cols = [p.col for p in places]
    margin = max((len(row_label(board.layout, p.row)) for p in places), default=1) + 1
    part_width = _pointy_width if board.layout == "pointy" else _flat_width

    def fits(first: int, last: int) -> bool:
        return 2 * margin + part_width(first, last) <= width

    parts = _split(min(cols, default=0), max(cols, default=0), fits)
    out: list[str] = []
    for number, (first, last) in enumerate(parts, start=1):
        if len(parts) > 1:
            if out:
                out.append("")
            heading = f"Map, part {number} of {len(parts)}: columns "
            heading += f"{col_label(board.layout, first)}-{col_label(board.layout, last)}"
            out.extend(textwrap.wrap(heading, width))
        chosen = [p for p in places if first <= p.col <= last]
        draw = _draw_pointy if board.layout == "pointy" else _draw_flat
        out.extend(draw(game, chosen, cells, first, last, margin))
    out.append("")
    out.extend(_legend(game, width))
    return "\n".join(out) + "\n"


def hex_cell(game: Game, coord: str) -> list[str]:
    """The text lines of the cell of ``coord`` on the map (each at most :data:`CELL`
    characters): coordinate and tile (or printed face), cities, towns, then the building
    cost and a private company's block wherever there is room."""
    hex_data = game.board.hexes[coord]
    shown = track.placed(game, coord)
    tile = shown.tile
    head = [coord]
    extras: list[str] = []
    if not shown.printed:
        head.append(f"{COLOR_LETTERS.get(tile.color, '?')}{tile.name}/{shown.rotation}")
    else:
        face = COLOR_LETTERS.get(tile.color, "") if tile.color not in ("white", "red") else ""
        face += f"<{tile.label}>" if tile.label else ""
        if face:
            head.append(face)
        if hex_data.cost:
            extras.append(f"{terrain_letter(hex_data.terrain)}{hex_data.cost}")
    if tile.offboard is not None:
        head.append(offboard_text(game.board, hex_data, tile))
    blocker = game.hex_blocker(coord)
    if blocker is not None:
        extras.append(f"*{blocker}")
    extras += [f"@{short_name(game, corp)}" for corp, hexes in game.state.map_pieces.items() for h in hexes if h == coord]
    lines = _pack(head)
    found = stations(game, coord)
    if "o" in found and found["o"].occupied:
        lines += _pack(found["o"].marks(game))
    for index, city in enumerate(tile.cities):
        revenue = str(city.revenue)
        lines += _pack([revenue, *found[f"c{index}"].marks(game)], indent=len(revenue) + 1)
    if tile.towns:
        words: list[str] = []
        for index, town in enumerate(tile.towns):
            words += [f"t{town.revenue}", *found[f"t{index}"].marks(game)]
        lines += _pack(words)
    for extra in extras:
        room = next((i for i, line in enumerate(lines) if len(line) + 1 + len(extra) <= CELL), None)
        if room is None:
            lines += _pack([extra])
        else:
            lines[room] += f" {extra}"
    return lines


# -- the cells ------------------------------------------------------------------------------


def _pack(words: Sequence[str], indent: int = 0) -> list[str]:
    """Words into lines of at most :data:`CELL` characters; lines after the first start with
    ``indent`` spaces; a word longer than a line is cut, never dropped."""
    lines: list[str] = []
    for word in words:
        if lines and len(lines[-1]) + 1 + len(word) <= CELL:
            lines[-1] += f" {word}"
            continue
        text = (" " * indent if lines and indent + len(word) <= CELL else "") + word
        while len(text) > CELL:
            lines.append(text[:CELL])
            text = text[CELL:]
        lines.append(text)
    return lines


HOME = "home"
"""Why a slot is held: for a corporation's home token not placed yet
(:func:`pbem.engine.track.reserved_home`, :func:`pbem.engine.track.held_on_hex_in`)."""
KEPT = "kept"
"""Why a slot is held: kept by the title's own rule
(:meth:`~pbem.engine.track_rules.TrackRules.kept_slots`)."""


@dataclass(frozen=True)
class Stations:
    """The station tokens of one stop of a hex and the slots it holds: the one source of what
    the map's cell (:func:`hex_cell`), the track list (:func:`pbem.track_words.track_list`)
    and the report's track in words (:func:`pbem.track_words.track_summary`) show there.

    ``stop`` is the tile's stop (``c0``, ``t1``, ``o``); ``tokens`` the corporations with a
    token on it; ``held`` the slots held, ``(corporation, HOME or KEPT)`` each; ``free`` the
    slots neither tokened nor held (a city's; towns and off-board areas have none)."""

    stop: str
    tokens: tuple[str, ...] = ()
    held: tuple[tuple[str, str], ...] = ()
    free: int = 0

    @property
    def occupied(self) -> bool:
        """Whether a token stands here or a slot is held."""
        return bool(self.tokens or self.held)

    def marks(self, game: Game) -> list[str]:
        """The map's marks: each token's code in capitals, each slot held in lower case, then
        ``.`` for each free slot (``["PRR", "nnh", "."]``)."""
        return ([short_name(game, c) for c in self.tokens] + [short_name(game, c).lower() for c, _ in self.held]
                + ["."] * self.free)


def stations(game: Game, coord: str) -> dict[str, Stations]:
    """The :class:`Stations` of every stop of the tile showing on ``coord``, by stop, in the
    tile's order (cities, towns, the off-board area).

    A city shows its tokens; the slots held for a home in it, or for a home on the hex that
    names no city, in the first city with room (:func:`pbem.engine.track.held_on_hex_in`), and
    in every city where the title's reading blocks the whole hex (1830's Erie on E11);
    the slots the title keeps by its own rule (the ``kept_slots`` hook) where room is left;
    the rest free. A town shows a token a title's own rule put there (the token key names the
    town's index where the hex has no city of that index, :func:`pbem.engine.track.token_stop`).
    An off-board area shows every token on it (1870's Southern Pacific's home and destination
    tokens; the Historical Order Start IC's Chicago); it has no slots, so none is held or
    free there."""
    tile = track.placed(game, coord).tile
    out: dict[str, Stations] = {}
    for index in range(len(tile.cities)):
        tokens = tuple(track.tokens_in(game, coord, index))
        homes = track.reserved_home(game, coord, index) + track.held_on_hex_in(game, coord, index)
        slots = track.city_slots(game, coord, index)
        kept = [c for c in game.hooks.track.kept_slots(game, coord, index) if c not in homes and c not in tokens]
        kept = kept[:max(0, slots - len(tokens) - len(homes))]
        held = tuple((c, HOME) for c in homes) + tuple((c, KEPT) for c in kept)
        # a home naming no city that blocks every city of its hex (1830's whole-hex reading)
        blocked = slots - len(tokens) - len(held) - track.free_slots(game, coord, index)
        held += tuple((c, HOME) for c in track.held_on_hex(game, coord) if c not in homes)[:max(0, blocked)]
        out[f"c{index}"] = Stations(f"c{index}", tokens, held, max(0, slots - len(tokens) - len(held)))
    for index in range(len(tile.towns)):
        on_town = track.tokens_in(game, coord, index)
        mine = on_town and track.token_stop(game, coord, index) == f"t{index}"
        out[f"t{index}"] = Stations(f"t{index}", tuple(on_town) if mine else ())
    if tile.offboard is not None:
        out["o"] = Stations("o", tuple(c for ref, corps in game.state.tokens.items()
                                       if ref.coord == coord and track.token_stop(game, coord, ref.city) == "o"
                                       for c in corps))
    return out


def town_tokens(game: Game, coord: str, town: int) -> list[str]:
    """The corporations with a token on town ``town`` of the tile showing on ``coord``
    (:func:`stations`); empty where there is none."""
    found = stations(game, coord).get(f"t{town}")
    return list(found.tokens) if found else []


def short_name(game: Game, sym: str) -> str:
    """The corporation's code on the map and the picture (``NYNH`` -> ``NNH``)."""
    try:
        return game.title.corporation(sym).short or sym[:3]
    except KeyError:
        return sym[:3]


def station_marks(game: Game, coord: str, city: int) -> list[str]:
    """The map's marks for city ``city`` of ``coord``, one per station slot (:meth:`Stations.marks`):
    tokens in capitals, slots held (for a home, or kept by the title's own rule) in lower
    case, ``.`` for a free one."""
    return stations(game, coord)[f"c{city}"].marks(game)


def terrain_letter(terrain: str | None) -> str:
    """The map's letter of a terrain (``water`` -> ``w``; ``c`` for a cost without terrain)."""
    return (terrain or "cost")[0].lower()


def offboard_text(board: MapData, hex_data: HexData, tile: TileData) -> str:
    """``40/70`` (revenue by phase colour), or ``=A11`` for a part of an off-board area
    whose revenue is printed on A11 (:func:`offboard_home`)."""
    offboard = tile.offboard
    assert offboard is not None
    shown = offboard_home(board, hex_data) if offboard.hidden else None
    if shown is not None:
        return f"={shown}"
    return "/".join(str(v) for _, v in phase_revenues(offboard.revenue))


def offboard_home(board: MapData, hex_data: HexData) -> str | None:
    """For a part of an off-board area whose revenue is printed on a neighbouring hex (its
    face ``hidden``, joined by a border without a kind), that hex; else None."""
    offboard = hex_data.tile.offboard
    if offboard is not None and offboard.hidden:
        for border in hex_data.borders:
            other = board.neighbor(hex_data.coord, border.edge)
            if border.kind is None and other is not None:
                face = board.hexes[other].tile.offboard
                if face is not None and not face.hidden:
                    return other
    return None


def phase_revenues(revenue: Mapping[str, int]) -> list[tuple[str, int]]:
    """Off-board revenue in phase order (yellow, green, brown, gray)."""
    order = list(_PHASE_COLORS) + sorted(k for k in revenue if k not in _PHASE_COLORS)
    return [(k, revenue[k]) for k in order if k in revenue]


# -- drawing (where each hex sits, and which side is which: :mod:`pbem.picture.geometry`) --


def _split(first: int, last: int, fits: Callable[[int, int], bool]) -> list[tuple[int, int]]:
    """The columns ``first..last`` in as few parts of near-equal size as fit."""
    count = last - first + 1
    for parts in range(1, count + 1):
        bounds = []
        start = first
        for i in range(parts):
            size = count // parts + (1 if i < count % parts else 0)
            bounds.append((start, start + size - 1))
            start += size
        if all(fits(a, b) for a, b in bounds):
            return bounds
    raise ValueError("the width is too narrow for one column of hexes")


def _pointy_width(first: int, last: int) -> int:
    return HALF * (last - first) + 2 * HALF + 1


def _flat_width(first: int, last: int) -> int:
    return (CELL + 1) * (last - first + 1) + 1


def _side_char(board: MapData, coord: str, edge: int, plain: str) -> str:
    """How to draw side ``edge`` of ``coord``: ``#`` impassable (either hex saying so),
    ``~``/``^`` a water/mountain crossing, else ``plain``."""
    borders: list[BorderData | None] = [board.hexes[coord].border(edge)]
    other = board.neighbor(coord, edge)
    if other is not None:
        borders.append(board.hexes[other].border((edge + 3) % 6))
    kinds = {b.kind for b in borders if b is not None and b.kind is not None}
    for kind in ("impassable", "water", "mountain"):
        if kind in kinds:
            return _BORDER_CHARS[kind]
    return plain


class _Canvas:
    """Lines of characters to draw on."""

    def __init__(self, lines: int, width: int) -> None:
        self.grid = [[" "] * width for _ in range(lines)]

    def put(self, line: int, col: int, text: str) -> None:
        for i, char in enumerate(text):
            self.grid[line][col + i] = char

    def text(self, line: int) -> str:
        return "".join(self.grid[line])


def _frame(canvas: _Canvas, margin: int, row_labels: dict[int, str],
           col_labels: dict[int, str]) -> list[str]:
    """The canvas with row labels down both sides and column labels above and below
    (``col_labels`` maps a text column to its label, centred there)."""
    ruler = [" "] * (len(canvas.grid[0]) + 2)
    for centre, label in col_labels.items():
        start = max(0, centre - (len(label) - 1) // 2)
        ruler[start:start + len(label)] = label
    ruler_text = (" " * margin + "".join(ruler)).rstrip()
    out = [ruler_text]
    for line in range(len(canvas.grid)):
        label = row_labels.get(line, "")
        body = canvas.text(line)
        right = f" {label}" if label else ""
        out.append((f"{label:<{margin}}" + body + right).rstrip())
    out.append(ruler_text)
    return out


def _draw_pointy(game: Game, places: list[Place], cells: dict[str, list[str]], first: int,
                 last: int, margin: int) -> list[str]:
    """Rows of hexes, each row shifted half a hex against the next (pointy layout)."""
    board = game.board
    rows = sorted({p.row for p in places}) or [0]
    all_rows = range(rows[0], rows[-1] + 1)
    heights = {r: MIN_LINES for r in all_rows}
    for p in places:
        heights[p.row] = max(heights[p.row], len(cells[p.coord]))
    tops: dict[int, int] = {}
    line = 0
    for r in all_rows:
        tops[r] = line
        line += heights[r] + 1
    canvas = _Canvas(line + 1, _pointy_width(first, last))
    nw, ne, sw, se, west, east = (edge_named("pointy", n) for n in ("NW", "NE", "SW", "SE", "W", "E"))
    for p in places:
        left, top, height = HALF * (p.col - first), tops[p.row], heights[p.row]
        bottom = top + height + 1
        for edge, y, x in ((nw, top, left), (ne, top, left + HALF), (sw, bottom, left),
                           (se, bottom, left + HALF)):
            canvas.put(y, x, "+" + _side_char(board, p.coord, edge, "-") * (HALF - 1) + "+")
        for y in range(top + 1, bottom):
            canvas.put(y, left, _side_char(board, p.coord, west, "|"))
            canvas.put(y, left + 2 * HALF, _side_char(board, p.coord, east, "|"))
        for i, text in enumerate(cells[p.coord]):
            canvas.put(top + 1 + i, left + 1, text)
    row_labels = {tops[r] + 1 + (heights[r] - 1) // 2: row_label("pointy", r) for r in all_rows}
    col_labels = {HALF * (c - first) + HALF: col_label("pointy", c) for c in range(first, last + 1)}
    return _frame(canvas, margin, row_labels, col_labels)


def _draw_flat(game: Game, places: list[Place], cells: dict[str, list[str]], first: int,
               last: int, margin: int) -> list[str]:
    """Columns of hexes, each column shifted half a hex against the next (flat layout)."""
    board = game.board
    rows = sorted({p.row for p in places}) or [0]
    height = max([MIN_LINES] + [len(cells[p.coord]) for p in places])
    height += 1 - height % 2  # odd, so that half a hex is a whole number of lines
    half = (height + 1) // 2
    top_row = rows[0]
    canvas = _Canvas(half * (rows[-1] - top_row + 2) + 1, _flat_width(first, last))
    north, south, nw, sw, ne, se = (edge_named("flat", n) for n in ("N", "S", "NW", "SW", "NE", "SE"))
    for p in places:
        left, top = (CELL + 1) * (p.col - first), half * (p.row - top_row)
        bottom = top + 2 * half
        canvas.put(top, left, "+" + _side_char(board, p.coord, north, "-") * CELL + "+")
        canvas.put(bottom, left, "+" + _side_char(board, p.coord, south, "-") * CELL + "+")
        canvas.put(top + half, left, "+")
        canvas.put(top + half, left + CELL + 1, "+")
        for y in range(top + 1, bottom):
            if y == top + half:
                continue
            upper = y < top + half
            canvas.put(y, left, _side_char(board, p.coord, nw if upper else sw, "|"))
            canvas.put(y, left + CELL + 1, _side_char(board, p.coord, ne if upper else se, "|"))
        for i, text in enumerate(cells[p.coord]):
            canvas.put(top + 1 + i, left + 1, text)
    all_rows = range(top_row, rows[-1] + 1)
    row_labels = {half * (r - top_row) + half: row_label("flat", r) for r in all_rows}
    col_labels = {(CELL + 1) * (c - first) + HALF: col_label("flat", c) for c in range(first, last + 1)}
    return _frame(canvas, margin, row_labels, col_labels)


# -- legend and track list ------------------------------------------------------------------


def example_corp(game: Game) -> str:
    """The station code the map's explanations use as their example (the title's first
    corporation's, as cells show it)."""
    return game.title.corporations[0].short


def terrain_costs(board: MapData) -> dict[str | None, list[int]]:
    """Terrain -> the costs of the first tile on its hexes, cheapest first (terrains in the
    order of their cheapest cost; None: a cost without terrain)."""
    costs = sorted({(h.terrain, h.cost) for h in board.hexes.values() if h.cost},
                   key=lambda tc: (tc[1], tc[0] or ""))
    by_terrain: dict[str | None, list[int]] = {}
    for terrain, cost in costs:
        by_terrain.setdefault(terrain, []).append(cost)
    return by_terrain


def _legend(game: Game, width: int) -> list[str]:
    """The legend: every symbol the map may use, with this title's terrain costs, off-board
    phases, the names of its places by coordinate and the station codes."""
    board = game.board
    corp = example_corp(game)
    order = "row letter, column number" if board.layout == "pointy" else "column letter, row number"
    entries = [
        ("F20", f"the hex's coordinate: {order} (also round the edge of the map)"),
        ("g59/2", "tile 59 laid at rotation 2; its colour: y yellow, g green, b brown, G gray"),
        ("y<OO>", ("nothing laid: the colour of what is printed (none for plain land) and its"
                   " label; a tile laid there carries the same label")),
        (f"40 {corp} .", (f"a city worth 40, one mark per station slot: {corp} token, {corp.lower()} slot"
                          f" held for {corp}'s home, . free slot")),
        ("t10", "a town worth 10"),
    ]
    colours = {k: 0 for h in board.hexes.values() if h.tile.offboard for k in h.tile.offboard.revenue}
    if colours:
        phases = [c for c, _ in phase_revenues(colours)]
        entries.append(("30/50", (f"an off-board area: its revenue in the {'/'.join(phases)}"
                                  " phases; =A11: part of the area shown on A11")))
    by_terrain = terrain_costs(board)
    if by_terrain:
        entries.append((" ".join(f"{terrain_letter(t)}{found[0]}" for t, found in by_terrain.items()),
                        "cost of the first tile: " + ", ".join(
                            f"{terrain_letter(t)} {t or 'cost'} " + " or ".join(game.money(c) for c in found)
                            for t, found in by_terrain.items())
                        + " (shown until a tile is laid)"))
    blocker = next((c.sym for c in game.title.companies if c.ability(BlocksHexes) is not None), None)
    if blocker is not None:
        entries.append((f"*{blocker}", f"blocked by the private company {blocker} while a player owns it"))
    pieces = game.title.settings.gating_pieces
    if pieces is not None:
        entries.append((f"@{corp}", f"{corp}'s {pieces.name}"))
    entries.append(("####", "a side no track may cross (# in a wall or a border line)"))
    kinds = {b.kind for h in board.hexes.values() for b in h.borders}
    if "water" in kinds:
        entries.append(("~~~~", "a side with a river to cross"))
    if "mountain" in kinds:
        entries.append(("^^^^", "a side with a mountain to cross"))
    if any(h.tile.color == "blue" for h in board.hexes.values()):
        entries.append(("~", "water: no track"))
    named = [f"{p.coord} {board.hexes[p.coord].name}" for p in hex_places(board, by_coordinate=True)
             if board.hexes[p.coord].name]
    if named:  # the cells have no room for the names the map prints
        entries.append(("Places", ", ".join(n.replace(" ", NO_BREAK) for n in named)))
    codes = ", ".join(f"{short_name(game, c.sym)} {c.name}" for c in game.title.corporations)
    entries.append(("Stations", codes))
    key_width = max(len(k) for k, _ in entries) + 2
    out = textwrap.wrap("Legend:", width)
    for key, text in entries:
        wrapper = textwrap.TextWrapper(width=width, initial_indent=f"  {key:<{key_width}}",
                                       subsequent_indent=" " * (key_width + 2),
                                       break_on_hyphens=False)
        out.extend(line.replace(NO_BREAK, " ") for line in wrapper.wrap(text))
    return out


NO_BREAK = "\xa0"
"""Joins the words of one legend item (``V20 London``) so a line never breaks inside it
(:mod:`textwrap` breaks only at ASCII blanks)."""
