"""The legend below the picture of the board (:func:`legend_svg`): what its marks mean, with
this title's terrain costs and off-board phases (the ASCII map's sources,
:func:`pbem.asciimap.terrain_costs`, :func:`pbem.asciimap.phase_revenues`), and every
corporation's token with its name."""

from __future__ import annotations

from typing import Callable, Mapping

from pbem.asciimap import example_corp, phase_revenues, short_name, terrain_costs
from pbem.engine.abilities import BlocksHexes
from pbem.engine.game import Game
from pbem.picture import colors
from pbem.picture.marks import offboard_boxes, terrain_mark, token
from pbem.picture.tile_svg import fmt, text

SIZE = 50.0
"""The circumradius of the map's hexes, which the legend's marks follow."""
FONT = SIZE * 0.3
ROW = SIZE * 0.62
"""The height of one line of the legend."""
ICON = SIZE * 0.75
"""The width kept for an item's mark, before its words."""

Icon = Callable[[float, float], str]
"""Draws an item's mark centred on ``(x, y)``."""


def _width(words: str, px: float = FONT) -> float:
    """Roughly how wide ``words`` are set at ``px`` (Source Sans Pro averages half an em)."""
    return len(words) * px * 0.5


def legend_svg(game: Game, fills: Mapping[str, str], width: float, top: float) -> tuple[str, float]:
    """The legend as SVG, ``width`` across, starting at ``top``; and its height.

    The marks first (token, slot held, free slot, off-board revenue by phase, each
    terrain's costs, impassable and other sides, rivers, a private's block, gating
    pieces), then each corporation's token and name; items flow into lines."""
    items = _marks(game, fills) + _corporations(game, fills)
    parts = ['<g class="legend">', text(SIZE * 0.8, top + ROW * 0.5, "Legend", FONT * 1.1, weight="bold",
                                        anchor="start")]
    x, y = SIZE * 0.8, top + ROW * 1.5
    for icon, words in items:
        need = ICON + _width(words) + SIZE * 0.4
        if x + need > width - SIZE * 0.5 and x > SIZE * 0.8:
            x, y = SIZE * 0.8, y + ROW
        parts.append(icon(x + ICON / 2 - SIZE * 0.1, y))
        parts.append(text(x + ICON, y, words, FONT, anchor="start"))
        x += need
    parts.append("</g>")
    return "".join(parts), y - top + ROW


def _marks(game: Game, fills: Mapping[str, str]) -> list[tuple[Icon, str]]:
    board = game.board
    corp = game.title.corporations[0].sym if game.title.corporations else ""
    code = example_corp(game) if game.title.corporations else ""
    fill = fills.get(corp, colors.PALETTE[0])
    r = SIZE * 0.17
    items: list[tuple[Icon, str]] = []
    if corp:
        items.append((lambda x, y: token(corp, code, fill, x, y, r, legend=True), f"{code} station token"))
        items.append((lambda x, y: token(corp, code, fill, x, y, r, held="home", legend=True),
                      f"slot held for {code}"))
    items.append((lambda x, y: (f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}" fill="#ffffff" '
                                f'stroke="{colors.INK}" stroke-width="1.2"/>'), "free slot"))
    phases = {k: 0 for h in board.hexes.values() if h.tile.offboard for k in h.tile.offboard.revenue}
    if phases:
        order = [p for p, _ in phase_revenues(phases)]
        items.append((lambda x, y: f'<g transform="translate({fmt(x)},{fmt(y + SIZE * 0.08)})">'
                      + offboard_boxes([(p, 0) for p in order][:2], SIZE * 0.5).replace(">0<", "><") + "</g>",
                      "off-board revenue by phase: " + "/".join(order)))
    for terrain, costs in terrain_costs(board).items():
        words = f"{terrain or 'cost'} " + " or ".join(game.money(c) for c in costs)
        items.append((_terrain_icon(terrain), words))
    kinds = {b.kind for h in board.hexes.values() for b in h.borders if b.kind}
    if game.title.presentation.closed_sides(game):
        kinds.add("impassable")
    meaning = {"impassable": "no track across", "water": "river to cross", "mountain": "mountain to cross"}
    for kind in ("impassable", "water", "mountain"):
        if kind in kinds:
            items.append((_side_icon(colors.BORDER_STROKE[kind]), meaning[kind]))
    if game.title.presentation.map_lines(game):
        items.append((lambda x, y: (f'<path d="M{fmt(x - SIZE * 0.3)} {fmt(y + 4)}Q{fmt(x)} {fmt(y - 10)} '
                                    f'{fmt(x + SIZE * 0.3)} {fmt(y + 4)}" fill="none" stroke="{colors.RIVER}" '
                                    f'stroke-width="{fmt(SIZE * 0.09)}"/>'), "river"))
    blocker = next((c.sym for c in game.title.companies if c.ability(BlocksHexes) is not None), None)
    if blocker is not None:
        items.append((lambda x, y: (f'<rect x="{fmt(x - SIZE * 0.3)}" y="{fmt(y - SIZE * 0.12)}" '
                                    f'width="{fmt(SIZE * 0.6)}" height="{fmt(SIZE * 0.24)}" rx="2" fill="#333333"/>'
                                    + text(x, y, blocker, SIZE * 0.16, fill="#ffffff", weight="bold")),
                      "blocked by a private company while a player owns it"))
    pieces = game.title.settings.gating_pieces
    if pieces is not None and corp:
        items.append((lambda x, y: (f'<polygon points="{fmt(x - 8)},{fmt(y + 8)} {fmt(x)},{fmt(y - 8)} '
                                    f'{fmt(x + 8)},{fmt(y + 8)}" fill="{fill}" stroke="{colors.INK}"/>'),
                      f"{code}'s {pieces.name}"))
    return items


def _corporations(game: Game, fills: Mapping[str, str]) -> list[tuple[Icon, str]]:
    r = SIZE * 0.19
    items: list[tuple[Icon, str]] = []
    for corp in game.title.corporations:
        code = short_name(game, corp.sym)
        fill = fills.get(corp.sym, colors.PALETTE[0])
        items.append((_token_icon(corp.sym, code, fill, r), corp.name))
    return items


def _terrain_icon(terrain: str | None) -> Icon:
    return lambda x, y: terrain_mark(terrain, x, y, SIZE * 1.4)


def _side_icon(stroke: str) -> Icon:
    return lambda x, y: (f'<line x1="{fmt(x - SIZE * 0.3)}" y1="{fmt(y)}" x2="{fmt(x + SIZE * 0.3)}" '
                         f'y2="{fmt(y)}" stroke="{stroke}" stroke-width="{fmt(SIZE * 0.12)}" stroke-linecap="round"/>')


def _token_icon(sym: str, code: str, fill: str, r: float) -> Icon:
    """A corporation's token in the legend (``class="legend-token"``, not one on the map)."""
    return lambda x, y: token(sym, code, fill, x, y, r, legend=True)
