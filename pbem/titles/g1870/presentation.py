"""1870's order words and report sections (issue 20: presentation apart from the rules)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.presentation import MapLine, ReportSection, TitlePresentation
from pbem.titles.g1870 import atsf, gmo, historical, illinois, katy, ohio, rivers, small_cities

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

    def tile_notes(self, game: Game, name: str) -> tuple[str, ...]:
        """The chart's and ``tile_hexes``' notes (Dixon), and with the Historical Order Start
        the tile held for the MP (:func:`pbem.titles.g1870.historical.reserved`)."""
        held = historical.reserved(game)
        mine = (f"the last one held for {held[1]} until its first operating turn is over",) \
            if held is not None and held[0] == name else ()
        return super().tile_notes(game, name) + mine

    def map_lines(self, game: Game) -> tuple[MapLine, ...]:
        """The Mississippi through each of its hexes between the two corners ``extras.yaml``
        names (``line``); with the Ohio rules (:mod:`pbem.titles.g1870.ohio`) the Ohio too:
        through E20 between its Illinois and Kentucky edges (from the corner between W and
        SW to the one between NE and E, its E side being off the map) and along the F19/E18
        side."""
        river = game.title.extras.get("mississippi") or {}
        found = [MapLine(coord, (f"k{spec['line'][0]}", f"k{spec['line'][1]}"))
                 for coord, spec in (river.get("hexes") or {}).items() if spec.get("line")]
        if ohio.active(game):
            coord, edge = rivers.OHIO_HEXSIDE[0]
            found += [MapLine(rivers.OHIO_HEX, ("k1", "k4")), MapLine(coord, (f"k{edge}", f"k{edge + 1}"))]
        return tuple(found)

    def closed_sides(self, game: Game) -> tuple[tuple[str, int], ...]:
        """The F19/E18 side while the Ohio is closed (:func:`pbem.titles.g1870.ohio.closed`)."""
        return (rivers.OHIO_HEXSIDE[0],) if ohio.closed(game) else ()
