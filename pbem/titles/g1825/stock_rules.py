"""1825's start, stock round, receivership and end of the game, by concern (mixed into
:mod:`pbem.titles.g1825.hooks`'s classes, cooperative ``super()``).

* the start (:mod:`.start`): privates dealt at face value in seat order, then LNWR
  certificates; the game begins with stock round 1;
* the stock round (:mod:`.stock`): bands, fixed pars, minors' pars, forming, the privates
  bought from and sold to the bank (``SELL <private>``), no price drop on sales, no buying
  then selling in one turn;
* the fixed operating order: the majors by par, highest first, ties by the order they
  formed; then the minors the same way;
* receivership (:class:`Receivership1825`): a company whose Director's certificate lies in
  the pool is run by the core's receiver; a minor in receivership in a game with Unit 1 or
  Unit 2 is silent (runs no train, buys none);
* the end (:mod:`.ending`): the bank breaks when the players hold more than the game's
  money, and the game ends after that operating round; a price at the top cell ends it at
  once; no bankruptcy.

Source: issue 12, "Rules (plain 1825)"; 18xx.games' ``g_1825/game.rb``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.core_codecs import CORE_CODECS
from pbem.engine import shares
from pbem.engine.actions import Action, RunRoutes
from pbem.engine.sequence import RoundSequence
from pbem.engine.stock_rules import StockRules
from pbem.engine.receivership import ReceivershipPolicy, in_receivership
from pbem.engine.state import GameState, RoundKind, RoundState, ShareSale, TitleState
from pbem.engine.steps.operating.buytrains import BuyTrainStep
from pbem.engine.steps.stock import BuySellParShares, pool_presidency
from pbem.errors import OrderSyntaxError
from pbem.order_codecs import HelpEntry, OrderCodec, Vocabulary
from pbem.titles.g1825 import ending, start
from pbem.titles.g1825.state import State1825, is_minor, state1825
from pbem.titles.g1825.stock import SellPrivate, Stock1825, current_band

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.steps.operating import OpStep
    from pbem.engine.title import TitleData

MINOR_PRICE_PERCENT = 10
"""A minor's price is quoted for 10% of it, though its shares are of 20% (18xx.games'
``price_percent``): a 20% share costs twice the price, the Director's 40% four times it."""


# -- the order SELL: shares, or a private to the bank ---------------------------------------------


_CORE_SELL = next(c for c in CORE_CODECS if c.word == "SELL")


def _parse_sell(words: list[str], line: str, vocab: Vocabulary) -> Action:
    """``SELL <private>`` sells a private to the bank; anything else is the core's SELL."""
    if len(words) == 1:
        try:
            kind, sym = vocab.resolve(words[0], line, prefer="corporation")
        except OrderSyntaxError:
            kind, sym = "", ""
        if kind == "company":
            return SellPrivate(sym)
    return _CORE_SELL.parse(words, line, vocab)


def _format_sell(action: Action, vocab: Vocabulary | None) -> str | None:
    if isinstance(action, SellPrivate):
        return f"SELL {action.company}"
    return _CORE_SELL.format(action, vocab)


SELL = OrderCodec("SELL", _CORE_SELL.aliases, (*_CORE_SELL.actions, SellPrivate), _parse_sell, _format_sell, (
    *_CORE_SELL.help,
    HelpEntry("SELL <private>", "sell a private company to the bank for £30 below its face value "
              "(1825, from stock round 2)", "SELL S&M"),
))
"""1825's SELL: the core's, and a private company sold to the bank."""


# -- receivership ---------------------------------------------------------------------------------


def silent(game: Game, corp: str) -> bool:
    """Whether ``corp`` is in silent receivership: a minor in receivership in a game with
    Unit 1 or Unit 2 (18xx.games' ``silent_receivership?``): it runs no train and buys none."""
    return (in_receivership(game, corp) and is_minor(game.title, corp)
            and bool(start.facts(game).selection.units & {1, 2}))


class Receivership1825(ReceivershipPolicy):
    """1825's receiver: silence for a minor in a game with Unit 1 or 2 (:func:`silent`: no
    run, no train); otherwise ``inner``, the policy of the hooks after the stock rules (the
    operating rules' lease of a train), or the core's receiver (best routes, withhold, the
    cheapest train it can pay for) when there is none."""

    def __init__(self, inner: ReceivershipPolicy | None = None) -> None:
        self.inner = inner

    def action(self, game: Game, step: type[OpStep], corp: str) -> Action | None:
        if silent(game, corp):
            if step.runs_trains:
                return RunRoutes(())
            if issubclass(step, BuyTrainStep):
                return None
        if self.inner is not None:
            return self.inner.action(game, step, corp)
        return super().action(game, step, corp)

    def new_president(self, state: GameState, title: TitleData, sym: str) -> str | None:
        if self.inner is not None:
            return self.inner.new_president(state, title, sym)
        return super().new_president(state, title, sym)


# -- the mixin ----------------------------------------------------------------------------------------


class StartAndRounds1825(RoundSequence):
    """1825's start, its state, the stock round's step and start, the operating order and
    the end by the bank."""

    def new_title_state(self) -> TitleState:
        """1825's own state (:class:`~pbem.titles.g1825.state.State1825`)."""
        return State1825()

    def first_round(self, game: Game) -> RoundState:
        """No auction: the start is dealt (:func:`pbem.titles.g1825.start.deal`) and the game
        begins with stock round 1."""
        start.deal(game)
        return RoundState(kind=RoundKind.STOCK, number=1)

    def next_round(self, game: Game, finished: RoundState) -> RoundState | None:
        """As 1830, but a broken bank ends the game after the operating round under way."""
        if ending.ends_after(game, finished):
            game.end_game("bank")
            return None
        return super().next_round(game, finished)

    def bank_broken(self, game: Game) -> bool:
        """The players hold more than the game's money (:func:`.ending.bank_broken`)."""
        return ending.bank_broken(game)

    def bank_broken_ends(self, game: Game) -> str:
        """After the operating round under way, or the next one when it broke in a stock
        round."""
        return ending.ends_when(game)

    def bank_cash(self, game: Game) -> int:
        """The bank as 18xx.games shows it: the game's money less the players'."""
        return ending.bank_cash(game)

    def stock_step(self) -> type[BuySellParShares]:
        """1825's stock-round step (:class:`~pbem.titles.g1825.stock.Stock1825`)."""
        return Stock1825

    def new_stock_round(self, game: Game) -> None:
        """The turn's marks start afresh (the privates sold are kept with their round's
        number, :func:`~pbem.titles.g1825.stock.sold_in_round`)."""
        super().new_stock_round(game)
        mine = state1825(game.state)
        mine.purchased = False
        mine.last_bought = None

    def operating_order(self, game: Game) -> list[str]:
        """The formed companies: the majors by par, highest first, ties by the order they
        formed; then the minors the same way (18xx.games' ``operating_order``/``par_compare``)."""
        state, title = game.state, game.title
        formed = state1825(state).formed
        live = [s for s in formed if not state.corporations[s].closed]

        def key(sym: str) -> tuple[bool, int, int]:
            return (is_minor(title, sym), -shares.par_price(state, title, sym), formed.index(sym))

        return sorted(live, key=key)


class Shares1825(StockRules):
    """1825's sales, a minor's price quoted for 10%, and when privates may be sold to the bank."""

    def after_sale(self, game: Game, sale: ShareSale) -> None:
        """No price drop on sales (18xx.games' ``SELL_MOVEMENT = :none``); the directorship
        passes as the holdings say."""
        pool_presidency(game, sale.corporation)

    def price_percent(self, title: TitleData, sym: str) -> int:
        """A minor's price is for 10% of it (:data:`MINOR_PRICE_PERCENT`); a major's for a share."""
        if is_minor(title, sym):
            return MINOR_PRICE_PERCENT
        return super().price_percent(title, sym)

    def may_sell_privates(self, game: Game) -> bool:
        """Whether a player may sell a private company to the bank (plain 1825: yes, from
        stock round 2; Lorenz's variant says no)."""
        return True




def band_lines(game: Game) -> tuple[str, ...]:
    """The report's lines on the bands: each band's companies with their pars (a major's
    fixed par, a minor's chosen by its buyer), which bands are on offer, and when the next
    opens (:func:`~pbem.titles.g1825.stock.current_band`; issue 12: "Corporations offered
    in bands by par, the next band opening when the previous has sold out")."""
    tables, title = start.facts(game), game.title
    bands: dict[int, list[str]] = {}
    for corp in title.corporations:
        par = tables.par(corp.sym)
        shown = f"{corp.sym} {game.money(par)}" if par is not None else f"{corp.sym} (minor: par chosen)"
        bands.setdefault(tables.band(corp.sym), []).append(shown)
    open_band = current_band(game)
    out = [f"Band {band}{' (on offer)' if band <= open_band else ''}: {', '.join(names)}"
           for band, names in sorted(bands.items())]
    if open_band == 0:
        out.append("No company is on offer until every private of the start is sold.")
    elif open_band < max(bands):
        out.append(f"Band {open_band + 1} opens when a major of band {open_band} has no share left in its IPO.")
    return tuple(out)
