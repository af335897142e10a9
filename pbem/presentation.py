"""A title's presentation: the words of its order language and the sections of its turn
report, apart from its rules (issue 20: the engine's interface does not reach into the order
language or the report).

A title's package (``pbem.titles.g<title>``) may expose ``PRESENTATION``, a subclass of
:class:`TitlePresentation`; without one it has the core's words and sections only. The loader
puts an instance on the title's data (:attr:`pbem.engine.title.TitleData.presentation`), which
the order reader (:func:`pbem.order_codecs.title_codecs`) and the report read; the engine never
calls it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.order_codecs import OrderCodec

ReportSection = tuple[str, tuple[str, ...]]
"""A section of the turn report: its heading and its lines of plain text."""


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
