"""1870's order words and report sections (issue 20: presentation apart from the rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.presentation import ReportSection, TitlePresentation
from pbem.titles.g1870 import atsf, gmo, historical, illinois, katy, ohio, small_cities

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.order_codecs import OrderCodec


class Presentation1870(TitlePresentation):
    """1870's words (HALF, REDEEM, REISSUE, CONNECT, DESTINATION) and its report sections."""

    def order_codecs(self) -> tuple[OrderCodec, ...]:
        """HALF, REDEEM, REISSUE, CONNECT and DESTINATION (:mod:`pbem.titles.g1870.orders`)."""
        from pbem.titles.g1870.orders import CODECS

        return CODECS

    def report_sections(self, game: Game) -> tuple[ReportSection, ...]:
        """``HISTORICAL ORDER START``: the order and the corporation that may start next, and
        the rivers' state (:func:`pbem.titles.g1870.ohio.report_lines`), the GM&O's and the IC's
        rules while they hold (:func:`.gmo.report_lines`, :func:`.illinois.report_lines`), Kansas
        City's slot and the M-K-T private's duty (:func:`pbem.titles.g1870.katy.report_lines`);
        ``SMALL CITIES``: the towns' values (:func:`pbem.titles.g1870.small_cities.report_sections`)."""
        found = super().report_sections(game) + small_cities.report_sections(game)
        if not historical.order(game):
            return found
        return (*found, ("HISTORICAL ORDER START",
                         historical.report_lines(game) + atsf.report_lines(game) + ohio.report_lines(game)
                         + gmo.report_lines(game) + illinois.report_lines(game) + katy.report_lines(game)))
