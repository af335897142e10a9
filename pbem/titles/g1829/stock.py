"""1829's stock round (the variant's "Share Launches", "Private Railways and Packets", "Share
Price Movement"): 1830's turn (sell, buy one certificate, sell), where the one purchase may
also be a private company bought from the bank at its face value.

* The game begins with stock round 1 and no auction: the private railways are sold first, the
  cheapest first, those of one price together (:func:`~.packets.cheapest_unsold`); no share
  is offered while one is unsold (:mod:`.launches`). Then the packets are sold the same way,
  in place of a share.
* A company is started at its starting price only (``corporations.yaml`` ``par``; the core's
  PAR), by buying its Director's certificate first.
* A fall of the price caused by sales is undone, a row a share, by purchases of that company's
  shares from the pool later in the same stock round (this game's reading of the variant's
  "same operating round", a setting: ``rebuy_restores_price``: ``pool``, the default; ``any``
  counts purchases from the IPO too; ``none`` turns the rule off); falls in earlier rounds
  are never undone, and purchases before a sale never offset it.
* When the L&YR floats, the L&M closes and its owner receives an L&YR share (:mod:`.lm`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterator

from pbem.engine import market
from pbem.engine.actions import Action, BuyPrivate, BuyShares, Par, Pass, SellShares
from pbem.engine.events.rounds import PriceMoved
from pbem.engine.state import ShareSale
from pbem.engine.step import Handler
from pbem.engine.steps.stock import (PURCHASES, BuySellParShares, bank_private_problem, bank_sells_private,
                                     drop_price, must_sell, pool_presidency)
from pbem.engine.stock_rules import StockRules
from pbem.errors import IllegalOrderError
from pbem.titles.g1829 import launches, lm
from pbem.titles.g1829.packets import cheapest_unsold, packets
from pbem.titles.g1829.state import state1829

if TYPE_CHECKING:
    from pbem.engine.game import Game

REBUY_RULE = "rebuy_restores_price"
"""The title rule naming which purchases win back a fall caused by sales (module text)."""


def for_sale(game: Game) -> list[str]:
    """The private companies the bank offers now: the cheapest unsold private railways while
    any is unsold, then the cheapest unsold packets."""
    railways = cheapest_unsold(game, launches.private_railways(game))
    return railways or cheapest_unsold(game, packets(game))


def buy_private_problem(game: Game, player: str, company: str) -> str | None:
    """Why ``player`` may not buy ``company`` from the bank now, or None."""
    state = game.state
    if company not in state.companies:
        return f"there is no private company {company!r}"
    sr = state.round.stock
    if sr is not None and any(kind in PURCHASES for kind in sr.turn_actions):
        return f"{player} has already bought a certificate this turn"
    offered = for_sale(game)
    if company not in offered:
        held = state.companies[company].owner
        if held is not None or state.companies[company].closed:
            return f"{company} is not the bank's to sell"
        return f"{company} is not on offer yet: the bank offers {' or '.join(offered)}, the cheapest first"
    return bank_private_problem(game, player, company)


class StockRules1829(StockRules):
    """The launches (:mod:`.launches`) and the falls by sales noted for winning back."""

    def launch_problem(self, game: Game, sym: str) -> str | None:
        """The launch schedule (:func:`.launches.launch_problem`)."""
        return launches.launch_problem(game, sym)

    def after_sale(self, game: Game, sale: ShareSale) -> None:
        """1830's fall, a row a share; the rows actually fallen are noted for this round."""
        before = game.state.corporations[sale.corporation].price
        drop_price(game, sale.corporation, sale.count)
        after = game.state.corporations[sale.corporation].price
        if before is not None and after is not None and after[0] > before[0]:
            drops = state1829(game.state).drops
            drops[sale.corporation] = drops.get(sale.corporation, 0) + after[0] - before[0]
        pool_presidency(game, sale.corporation)


def win_back(game: Game, sym: str, count: int, source: str) -> None:
    """After ``count`` shares of ``sym`` were bought from ``source``: the price rises a row a
    share while falls by sales of this round remain (module text)."""
    rule = game.title.title_rule(REBUY_RULE)
    if rule == "none" or (rule == "pool" and source != "pool"):
        return
    drops = state1829(game.state).drops
    title = game.title
    for _ in range(count):
        if drops.get(sym, 0) <= 0:
            return
        drops[sym] -= 1
        before = game.state.corporations[sym].price
        assert before is not None
        if market.move(game.state, title, sym, game.hooks.stock.up(title, before)):
            after = game.state.corporations[sym].price
            assert after is not None
            game.event(PriceMoved(sym, market.price_at(title, before), market.price_at(title, after), "rises"))


class Stock1829(BuySellParShares):
    """One player's stock-round turn in 1829 (see the module text)."""

    handlers: ClassVar[dict[type[Action], Handler]] = {}

    @classmethod
    def offers(cls, game: Game, player: str) -> Iterator[Action]:
        if not must_sell(game, player):
            yield from (BuyPrivate(c) for c in for_sale(game) if buy_private_problem(game, player, c) is None)
        yield from super().offers(game, player)

    @classmethod
    def process_buy(cls, game: Game, player: str, action: Action) -> None:
        """The core's purchase; then a fall won back, a float's L&M exchange, launches."""
        assert isinstance(action, BuyShares)
        super().process_buy(game, player, action)
        win_back(game, action.corporation, action.count, action.source)
        lm.check(game)
        launches.announce(game)

    @classmethod
    def process_par(cls, game: Game, player: str, action: Action) -> None:
        """The core's start of a company, then launches (a float may follow)."""
        super().process_par(game, player, action)
        lm.check(game)
        launches.announce(game)

    @classmethod
    def process_buy_private(cls, game: Game, player: str, action: Action) -> None:
        """``player`` buys a private railway or packet from the bank at its face value."""
        assert isinstance(action, BuyPrivate)
        if must_sell(game, player):
            raise IllegalOrderError(f"{player} must first sell shares (over a holding limit)")
        value = game.title.company(action.company).value
        if action.price is not None and action.price != value:
            raise IllegalOrderError(f"the bank sells {action.company} at its face value: write BUY {action.company}")
        problem = buy_private_problem(game, player, action.company)
        if problem:
            raise IllegalOrderError(problem)
        bank_sells_private(game, player, action.company)
        launches.announce(game)


Stock1829.handlers = {
    BuyShares: Stock1829.process_buy,
    BuyPrivate: Stock1829.process_buy_private,
    Par: Stock1829.process_par,
    SellShares: Stock1829.process_sell,
    Pass: Stock1829.process_pass,
}
