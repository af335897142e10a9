"""A title's presentation: the words of its order language, the sections of its turn report
and its tiles' rules in words, apart from its rules (issue 20: the engine's interface does
not reach into the order language or the report).

A title's package (``pbem.titles.g<title>``) may expose ``PRESENTATION``, a subclass of
:class:`TitlePresentation`; without one it has the core's words and sections only. The loader
puts an instance on the title's data (:attr:`pbem.engine.title.TitleData.presentation`), which
the order reader (:func:`pbem.order_codecs.title_codecs`) and the report read; the engine never
calls it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.order_codecs import OrderCodec

ReportSection = tuple[str, tuple[str, ...]]
"""A section of the turn report: its heading and its lines of plain text."""


@dataclass(frozen=True)
class MapLine:
    """A line the picture of the board draws in hex ``coord``, which the map's data has no
    hex side for (a river through the hex: 1870's Mississippi): between ``ends``, each a
    corner ``k0``..``k5`` (corner k: where edge k - 1 meets edge k) or the middle of an edge
    ``e0``..``e5``; ``kind`` says what it is (``river``)."""

    coord: str
    ends: tuple[str, str]
    kind: str = "river"


class TitlePresentation:
    """1830's: the core's order words and report sections, none of its own."""

    def order_codecs(self) -> tuple[OrderCodec, ...]:
        """The title's own order words, read and listed after the core's
        (:data:`pbem.core_codecs.CORE_CODECS`); one for a word the core has replaces it.
        1830: none."""
        return ()

    def report_sections(self, game: Game) -> tuple[ReportSection, ...]:
        """The title's own sections of the turn report, after the private companies: each
        ``(heading, lines)``, the lines plain text (money through ``game.money``) that the
        report wraps (Lorenz's 1825: the bids on each private, the money set aside, which
        company holds each private's ability). 1830: none."""
        return ()

    def tile_on_sale(self, game: Game, name: str) -> bool:
        """Whether the phase lets tile ``name`` be laid now, as the tile manifest says it
        (:mod:`pbem.tile_manifest`): 1830 rules 6.2, its colour is on sale (the lay check,
        :func:`pbem.engine.track.lay_problem`, decides each lay). A title whose tiles wait
        for a later colour says so (1825's striped 119 and 166)."""
        return game.tiles[name].color in game.phase().tiles

    def tile_notes(self, game: Game, name: str) -> tuple[str, ...]:
        """The title's own rules of tile ``name`` in words, for the tile manifest: the hexes
        it may go on or never (``tile_hexes``) and what the upgrade chart lets it become
        (``upgrade_chart``; Dixon's 1870); 1830: none."""
        settings = game.title.settings
        notes = []
        placement = settings.tile_hexes.get(name)
        if placement is not None and placement.only is not None:
            notes.append(f"only on {', '.join(placement.only)}")
        if placement is not None and placement.never:
            notes.append(f"never on {', '.join(placement.never)}")
        chart = settings.upgrade_chart
        if chart is not None and game.tiles[name].color != "gray":
            becomes = [f"#{t}" for t in chart.get(name, ()) if t in game.board.tile_counts]
            notes.append(f"becomes {', '.join(becomes)}" if becomes else "never replaced")
        return tuple(notes)

    def map_lines(self, game: Game) -> tuple[MapLine, ...]:
        """What the picture of the board draws across hexes beyond the map's data (rivers
        through hexes, :class:`MapLine`); 1830: none."""
        return ()

    def closed_sides(self, game: Game) -> tuple[tuple[str, int], ...]:
        """Hex sides the title's own rules close to track now, as ``(hex, edge)``, which the
        picture draws as impassable; 1830: none."""
        return ()
