"""SVG to PNG (:func:`svg_to_png`): drawn by resvg with the Source Sans Pro font shipped by
a package, so the picture looks the same on every machine (no system font is read), then
reduced to a palette of at most :data:`PALETTE_COLORS` colours, which keeps a board for the
mail (:data:`MAIL_WIDTH` pixels across) small: the picture is flat colours and the shades of
their smoothed edges."""

from __future__ import annotations

import functools
import io
from importlib import resources

import resvg_py
from PIL import Image

from pbem.picture.colors import FONT_FAMILY

MAIL_WIDTH = 1400
"""Pixels across the board's PNG in a mail: a hex is about 100 pixels wide on 1830's and
1870's maps (readable on a phone, zoomed), and a late 1870 board stays under 200 KB."""

PALETTE_COLORS = 64
"""Colours of the PNG's palette (tiles, tokens, ink and the shades between them)."""

_FONT_FILES = ("SourceSansPro-Regular.ttf", "SourceSansPro-Bold.ttf")
"""The faces the picture uses (normal and bold), from the ``font-source-sans-pro`` package."""


@functools.cache
def font_files() -> list[str]:
    """Paths of the font files given to the renderer.

    :raises FileNotFoundError: the package ``font-source-sans-pro`` lacks them."""
    folder = resources.files("font_source_sans_pro") / "files"
    found: list[str] = []
    for name in _FONT_FILES:
        entry = folder / name
        if not entry.is_file():
            raise FileNotFoundError(f"font-source-sans-pro has no {name}")
        found.append(str(entry))
    return found


def svg_to_png(svg: str, *, width: int | None = None, colors: int | None = PALETTE_COLORS) -> bytes:
    """The PNG image of the SVG document ``svg``, ``width`` pixels across (the height keeps
    the aspect ratio; None: the document's own size), white where the document paints
    nothing; with a palette of ``colors`` colours (None: full colour, larger).

    :raises ValueError: ``svg`` is no SVG document the renderer can draw.
    :raises FileNotFoundError: the font files are missing (:func:`font_files`)."""
    png = resvg_py.svg_to_bytes(
        svg_string=svg, width=width, background="#ffffff", skip_system_fonts=True,
        font_files=font_files(), font_family=FONT_FAMILY, sans_serif_family=FONT_FAMILY,
    )
    if colors is None:
        return png
    with Image.open(io.BytesIO(png)) as image:
        reduced = image.convert("RGB").quantize(colors=colors, method=Image.Quantize.FASTOCTREE,
                                                dither=Image.Dither.NONE)
    out = io.BytesIO()
    reduced.save(out, format="PNG", compress_level=6)
    return out.getvalue()
