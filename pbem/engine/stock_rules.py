"""Stock-round and market rules: 1830's, which a title's :class:`StockRules` subclass
adjusts where it differs (its ``HOOKS.stock``; issue 20: the title interface split by
concern). Asked by the stock round (:mod:`pbem.engine.steps.stock`), the share arithmetic
(:mod:`pbem.engine.shares`) and the price moves.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from pbem.engine import market, shares
from pbem.engine.state import ShareSale
from pbem.engine.steps.stock import drop_price, pool_presidency

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.title import TitleData

Coord = tuple[int, int]
"""A market cell: (row, column)."""


class PriceMove(StrEnum):
    """One cell of a share price's move on the market, taken by the title's
    :class:`StockRules` method of that name (1830 rules 5.3, 6.6)."""

    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"


class StockRules:
    """Which shares are on offer and may be sold, what a sale does to the price, what a
    price is quoted for, and the market's moves (1830 rules 5.3, 6.9)."""

    def launch_problem(self, game: Game, sym: str) -> str | None:
        """Why corporation ``sym``'s shares are not on offer now, or None: a title that
        puts its corporations on offer in stages says so here (1829's share launches: the MR
        after three operating rounds, once the earlier ones have floated; Lorenz's 1825: no
        more LNWR shares until every private is sold). Asked by the stock round's par and
        purchase checks and its offers, so the legal moves, the report and the refusals
        agree. 1830: every corporation is on offer from the start."""
        return None

    def par_prices(self, game: Game, sym: str) -> tuple[int, ...]:
        """The prices (money) corporation ``sym`` may be started at, highest first: its fixed
        starting price where the title data gives one (``corporations.yaml`` ``par``: 1829),
        else every par value of the market (1830 rules 5.2)."""
        fixed = game.title.corporation(sym).par
        if fixed is not None:
            return (fixed,)
        return tuple(market.price_at(game.title, c) for c in game.title.par_cells())

    def sell_problem(self, game: Game, player: str, sym: str, count: int) -> str | None:
        """A title's own reason ``player`` may not sell ``count`` shares of ``sym`` now, or
        None: asked by the stock round's sale check (:func:`pbem.engine.steps.stock.sell_problem`)
        before the core's own checks, so the legal moves, the report and the refusals agree
        (Lorenz's 1825: a free NER share may not be sold until the NER's Director's certificate
        has been bought). 1830: no reason of its own."""
        return None

    def after_sale(self, game: Game, sale: ShareSale) -> None:
        """After ``sale`` is paid and the presidency handed on: the price drops a row a share
        sold (1830 rules 5.3), announced; then the presidency is checked against the pool."""
        drop_price(game, sale.corporation, sale.count)
        pool_presidency(game, sale.corporation)

    def price_percent(self, title: TitleData, sym: str) -> int:
        """The percent of corporation ``sym`` that its market price and par are quoted for:
        a certificate of ``p`` percent costs ``price * p // price_percent``
        (:func:`pbem.engine.shares.certificate_price`), in purchases, sales, capital and a
        player's worth. 1830: one ordinary share (:func:`pbem.engine.shares.share_percent`);
        a title may quote a smaller part (1825's minors: 10%, their shares being of 20%)."""
        return shares.share_percent(title, sym)

    def moved(self, title: TitleData, coord: Coord, move: PriceMove) -> Coord:
        """``coord`` after ``move``, by this title's :meth:`up`, :meth:`down`, :meth:`left` or
        :meth:`right`."""
        step = {PriceMove.UP: self.up, PriceMove.DOWN: self.down, PriceMove.LEFT: self.left,
                PriceMove.RIGHT: self.right}[move]
        return step(title, coord)

    def up(self, title: TitleData, coord: Coord) -> Coord:
        """One row up; stays in the top row."""
        return market.up(title, coord)

    def down(self, title: TitleData, coord: Coord) -> Coord:
        """One row down; stays at the bottom of a column."""
        return market.down(title, coord)

    def right(self, title: TitleData, coord: Coord) -> Coord:
        """One column right; at the right edge, up instead."""
        return market.right(title, coord)

    def left(self, title: TitleData, coord: Coord) -> Coord:
        """One column left; at the left edge, down instead."""
        return market.left(title, coord)
