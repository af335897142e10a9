"""The colours and the font of the picture: tiles by colour, phases, terrain, corporations'
tokens."""

from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

from pbem.engine.title import TitleData

TILE_FILL: Mapping[str, str] = MappingProxyType({
    "white": "#f3eedf", "yellow": "#f7dc4f", "green": "#6dbb5a", "brown": "#c18a4c",
    "gray": "#b4b4b4", "red": "#d8443c", "blue": "#9fcbe8",
})
"""Tile (or printed face) colour -> its fill; plain land is ``white``."""

PHASE_FILL: Mapping[str, str] = MappingProxyType({
    "yellow": "#f7dc4f", "green": "#6dbb5a", "brown": "#c18a4c", "gray": "#b4b4b4",
    "blue": "#5b9bd5", "purple": "#9b6bc0",
})
"""Phase colour of an off-board revenue -> the fill of its box."""

TERRAIN_FILL: Mapping[str, str] = MappingProxyType({
    "mountain": "#8a5a2b", "water": "#2f7fc1", "river": "#2f7fc1", "lake": "#2f7fc1",
})
"""Terrain -> the colour of its mark (others: :data:`OTHER_TERRAIN`)."""
OTHER_TERRAIN = "#666666"

BORDER_STROKE: Mapping[str, str] = MappingProxyType({
    "impassable": "#b01818", "water": "#2f7fc1", "mountain": "#8a5a2b",
})
"""Hex side kind -> its stroke."""

FONT_FAMILY = "Source Sans Pro"
"""The family every text of the picture is set in (the font :mod:`pbem.picture.raster` loads)."""

RIVER = "#2f7fc1"
TRACK = "#111111"
INK = "#222222"
GRID = "#6b6b6b"

PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2",
           "#17becf", "#bcbd22", "#7f7f7f", "#393b79", "#637939")
"""Token colours for corporations whose data names none, in the title's order."""


def corporation_colors(title: TitleData) -> dict[str, str]:
    """Corporation symbol -> the fill of its tokens: its ``color`` (``corporations.yaml``), or
    the next colour of :data:`PALETTE` by its place in the title's list."""
    return {c.sym: c.color or PALETTE[i % len(PALETTE)] for i, c in enumerate(title.corporations)}


def text_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (``#rrggbb``)."""
    red, green, blue = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"
