"""Marks the picture shares between the board and its legend: station tokens and slots held,
terrain, off-board revenue boxes."""

from __future__ import annotations

from html import escape

from pbem.picture import colors
from pbem.picture.colors import text_on
from pbem.picture.tile_svg import fmt, text


def token(sym: str, short: str, fill: str, x: float, y: float, r: float, *, held: str | None = None,
          where: str = "", legend: bool = False) -> str:
    """A station token of ``sym`` at ``(x, y)``: a disc of ``fill`` with ``short`` on it; with
    ``held`` (why), a slot held for it: a ring of ``fill`` with ``short`` in lower case. Its
    group's class is ``token`` or ``held`` (``legend-token``, ``legend-held`` in the legend)."""
    kind = ("legend-" if legend else "") + ("held" if held is not None else "token")
    attrs = f' data-corp="{escape(sym)}"{where}' + (f' data-why="{held}"' if held is not None else "")
    px = r * (0.8 if len(short) <= 3 else 2.4 / len(short))
    if held is None:
        return (f'<g class="{kind}"{attrs}><circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r)}" fill="{fill}" '
                f'stroke="{colors.INK}" stroke-width="{fmt(r * 0.1)}"/>'
                + text(x, y, short, px, fill=text_on(fill), weight="bold") + "</g>")
    return (f'<g class="{kind}"{attrs}><circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(r * 0.85)}" fill="#ffffff" '
            f'stroke="{fill}" stroke-width="{fmt(r * 0.25)}" stroke-dasharray="{fmt(r * 0.45)} {fmt(r * 0.2)}"/>'
            + text(x, y, short.lower(), px, fill=colors.INK, weight="bold") + "</g>")


def terrain_mark(terrain: str | None, x: float, y: float, size: float) -> str:
    """The mark of ``terrain`` round ``(x, y)``: a triangle for mountains, a wave for water,
    a dot otherwise (``"mountain|water"``: the first)."""
    kind = (terrain or "").split("|")[0]
    fill = colors.TERRAIN_FILL.get(kind, colors.OTHER_TERRAIN)
    s = size * 0.14
    if kind == "mountain":
        return (f'<polygon points="{fmt(x - s)},{fmt(y + s * 0.7)} {fmt(x)},{fmt(y - s * 0.8)} '
                f'{fmt(x + s)},{fmt(y + s * 0.7)}" fill="{fill}"/>')
    if kind in ("water", "river", "lake"):
        return (f'<path d="M{fmt(x - s)} {fmt(y)}q{fmt(s / 2)} {fmt(-s / 2)} {fmt(s)} 0t{fmt(s)} 0" '
                f'fill="none" stroke="{fill}" stroke-width="{fmt(size * 0.06)}" stroke-linecap="round"/>')
    return f'<circle cx="{fmt(x)}" cy="{fmt(y)}" r="{fmt(s * 0.6)}" fill="{fill}"/>'


def offboard_boxes(revenues: list[tuple[str, int]], size: float) -> str:
    """The revenue of an off-board area (:func:`pbem.asciimap.phase_revenues`), one box per
    phase in its colour, side by side round ``(0, 0)`` (``size``: the hex's circumradius)."""
    if not revenues:
        return ""
    box = min(size * 0.42, size * 1.45 / len(revenues))
    h = size * 0.3
    x0 = -box * len(revenues) / 2
    parts = ['<g class="offboard">']
    for i, (phase, value) in enumerate(revenues):
        fill = colors.PHASE_FILL.get(phase, "#ffffff")
        x = x0 + i * box
        parts.append(f'<rect x="{fmt(x)}" y="{fmt(-h * 0.8)}" width="{fmt(box)}" height="{fmt(h)}" fill="{fill}" '
                     f'stroke="{colors.INK}" stroke-width="1"/>')
        parts.append(text(x + box / 2, h * -0.8 + h / 2, str(value), size * 0.19, fill=text_on(fill), weight="bold"))
    parts.append("</g>")
    return "".join(parts)
