"""The ``lorenz`` variant's order words and report section (issue 20: presentation apart from
the rules), over those of the presentation that follows it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.presentation import ReportSection, TitlePresentation
from pbem.titles.g1825.lorenz import powers

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.order_codecs import OrderCodec


class LorenzPresentation(TitlePresentation):
    """ASSIGN and the uses of a power; the ``LORENZ PRIVATES`` section."""

    def order_codecs(self) -> tuple[OrderCodec, ...]:
        """ASSIGN, and LAY and TOKEN reading a use of a power (:mod:`.orders`)."""
        from pbem.titles.g1825.lorenz.orders import codecs_over

        before = super().order_codecs()
        return (*before, *codecs_over(before))

    def report_sections(self, game: Game) -> tuple[ReportSection, ...]:
        """``LORENZ PRIVATES``: the bids standing on each private and the money each player has
        set aside (during the start), and which company holds each power."""
        found = super().report_sections(game)
        if not powers.in_play(game):
            return found
        from pbem.titles.g1825.lorenz.report import lines

        return (*found, ("LORENZ PRIVATES", lines(game)))
