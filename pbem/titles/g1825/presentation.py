"""1825's order words and report sections (issue 20: presentation apart from the rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.presentation import ReportSection, TitlePresentation
from pbem.titles.g1825 import track
from pbem.titles.g1825 import trains as trains1825
from pbem.titles.g1825.lorenz.presentation import LorenzPresentation
from pbem.titles.g1825.stock_rules import SELL, band_lines

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.order_codecs import OrderCodec


class Words1825(TitlePresentation):
    """Plain 1825's: LEASE and its SELL; the ``BANDS`` section; its tiles' rules in words."""

    def order_codecs(self) -> tuple[OrderCodec, ...]:
        """``LEASE <train>`` (:data:`pbem.titles.g1825.trains.LEASE`) and 1825's SELL (shares, or
        a private to the bank: :data:`pbem.titles.g1825.stock_rules.SELL`)."""
        return (*super().order_codecs(), trains1825.LEASE, SELL)

    def report_sections(self, game: Game) -> tuple[ReportSection, ...]:
        """``BANDS`` (:func:`pbem.titles.g1825.stock_rules.band_lines`), then the sections of the
        presentation that follows."""
        return (("BANDS", band_lines(game)), *super().report_sections(game))

    def tile_on_sale(self, game: Game, name: str) -> bool:
        """A striped tile waits for its later colour (:func:`pbem.titles.g1825.track.tile_on_sale`)."""
        return track.tile_on_sale(game, name)

    def tile_notes(self, game: Game, name: str) -> tuple[str, ...]:
        """The striped tiles', the HALT's and the extra upgrades' rules
        (:func:`pbem.titles.g1825.track.tile_notes`)."""
        return super().tile_notes(game, name) + track.tile_notes(game, name)


class Presentation1825(LorenzPresentation, Words1825):
    """1825's words and sections, with Lorenz's over them."""
