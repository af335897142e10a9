"""1825's stock round, as 18xx.games plays it (``g_1825/game.rb`` and
``g_1825/step/buy_sell_par_shares_companies.rb``): the core's stock round
(:class:`~pbem.engine.steps.stock.BuySellParShares`) with these differences.

* The privates: while any private of the start is unsold, only the cheapest of them is for
  sale (``BUY <private>``, at face value) and no company is offered; once they are all sold,
  a private sold to the bank may be bought back at face value (not by its seller in the
  same round). From stock round 2 on, a player may sell a private to the bank for £30 below
  its face value (``SELL <private>``), but not after buying in the same turn. A private
  bought counts as the turn's one purchase.
* Bands: the companies are offered in bands by par (band 1 the highest par); band ``n + 1``
  opens once any company of band ``n`` has no share left in its IPO (the source's
  ``current_layer``); the minors come in the band after the majors of par 71.
* Pars: a major starts at its fixed par; a minor at any price of the market whose ten-fold
  is more than its required train's price (not the top cell), its Director's certificate
  (40%, four times the price: a minor's price is for 10%) paid to its treasury.
* Forming: a major forms when it floats (60%); a minor when its treasury can pay for its
  required train, which it then buys at once. Only formed companies operate.
* Sales: the price does not drop; a company bought or started by the turn's latest action
  may not be sold (no buying then selling in one turn); the Director's certificate may be
  sold to the pool (receivership, :mod:`pbem.engine.receivership`); the pool may hold all
  of a company. A player who holds a share may buy the Director's certificate back from
  the pool for one share's price when the pool holds no ordinary share (one share goes back
  to the pool); otherwise buying the Director's worth of shares takes the certificate.
* A turn counts as a pass unless it bought something: the round ends when every player in
  succession has bought nothing.

Source: issue 12 ("Corporations offered in bands by par, the next band opening when the
current one has sold out; fixed pars; majors float at 60%, minors at 40%, minors' par chosen
by the buyer; ... no price drop on sales, no sold-out rise, no buying then selling the same
company in one turn").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterable, Iterator

from pbem.engine import shares, trains
from pbem.engine.actions import Action, BuyPrivate, BuyShares, Par, Pass, SellShares
from pbem.engine.events import Event, Money
from pbem.engine.events.receivership import ReceivershipEnded
from pbem.engine.ids import TrainId
from pbem.engine.receivership import in_receivership
from pbem.engine.state import IPO, POOL, Certificate, Owner, StockRoundState
from pbem.engine.step import Handler
from pbem.engine.steps.stock import (SOURCES, BuySellParShares, bank_private_problem, bank_sells_private,
                                     least_sale, must_sell, sell_problem)
from pbem.errors import IllegalOrderError
from pbem.titles.g1825.start import facts, par_cell, unsold_start_privates
from pbem.titles.g1825.state import State1825, is_minor, state1825

if TYPE_CHECKING:
    from pbem.engine.game import Game

COMPANY_SALE_FEE = 30
"""A private sold to the bank fetches its face value less this (£)."""


# -- actions and events ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SellPrivate(Action):
    """A player sells private company ``company`` to the bank, for its face value less
    :data:`COMPANY_SALE_FEE` (1825, from stock round 2; order ``SELL <private>``)."""

    kind: ClassVar[str] = "sell_private"
    company: str


@dataclass(frozen=True)
class PrivateSold(Event):
    """``player`` sells ``company`` to the bank for ``price``."""

    player: str
    company: str
    price: int

    def render(self, money: Money) -> str:
        return f"{self.player} sells {self.company} to the bank for {money(self.price)}"


@dataclass(frozen=True)
class DirectorshipBought(Event):
    """``player`` buys the ``percent`` Director's certificate of ``corporation`` for ``cost``
    (the core's president's certificate, in 1825's words)."""

    player: str
    percent: int
    corporation: str
    cost: int

    def render(self, money: Money) -> str:
        return f"{self.player} buys the {self.percent}% Director's certificate of {self.corporation} for {money(self.cost)}"


@dataclass(frozen=True)
class BandOpened(Event):
    """The companies of ``band`` are now offered."""

    band: int

    def render(self, money: Money) -> str:
        return f"-- Band {self.band} companies now available --"


@dataclass(frozen=True)
class Formed(Event):
    """``corporation`` forms (a major on floating; a minor when it can pay for its train)."""

    corporation: str
    minor: bool = False

    def render(self, money: Money) -> str:
        return f"{'Minor ' if self.minor else ''}{self.corporation} forms"


@dataclass(frozen=True)
class RequiredTrainBought(Event):
    """Minor ``corporation`` buys its required ``train`` (a type) for ``price``."""

    corporation: str
    train: str
    price: int

    def render(self, money: Money) -> str:
        return f"Minor {self.corporation} spends {money(self.price)} for its required train ({self.train})"


# -- bands, pars and forming ----------------------------------------------------------------------


def current_band(game: Game) -> int:
    """The highest band on offer now: 0 while a private of the start is unsold; else one
    more than the highest band of a company with no share left in its IPO (1 if none), at
    most the last band of the game."""
    if unsold_start_privates(game):
        return 0
    tables, state = facts(game), game.state
    bands = {c.sym: tables.band(c.sym) for c in game.title.corporations}
    sold_out = [band for sym, band in bands.items() if not is_minor(game.title, sym)
                and state.percent_of(IPO, sym) == 0]
    return min(max(sold_out) + 1, max(bands.values())) if sold_out else 1


def announce_band(game: Game) -> None:
    """Announce a band newly opened (after each purchase)."""
    mine, band = state1825(game.state), current_band(game)
    if band > mine.band:
        game.event(BandOpened(band))
        mine.band = band


def par_prices(game: Game, sym: str) -> list[int]:
    """The prices ``sym`` may start at, highest first: a major's fixed par; for a minor every
    price of the market (but the game-end cell) whose ten-fold is more than its required
    train's price (the source's ``minor_par_prices``)."""
    tables = facts(game)
    fixed = tables.par(sym)
    if fixed is not None:
        return [fixed]
    train = tables.required_train(sym)
    need = _train_price(game, train) if train is not None else 0
    prices = {cell.price for row in game.title.market for cell in row
              if cell is not None and not cell.ends_game and cell.price * 10 > need}
    return sorted(prices, reverse=True)


def _train_price(game: Game, train: str) -> int:
    return trains.type_data(game.title, train).price


def par_problem(game: Game, player: str, sym: str, price: int) -> str | None:
    """Why ``player`` may not start ``sym`` at ``price`` now, or None."""
    state, title = game.state, game.title
    if sym not in state.corporations:
        return f"there is no corporation {sym!r}"
    if state.corporations[sym].ipoed:
        return f"{sym} has already been started"
    if unsold_start_privates(game):
        return "no company is offered until every private company has been sold"
    band = facts(game).band(sym)
    if band > current_band(game):
        return f"{sym} is in band {band}, not yet open (band {current_band(game)} is)"
    launch = game.hooks.stock.launch_problem(game, sym)
    if launch is not None:
        return launch
    if _purchased(game):
        return f"{player} has already bought a certificate this turn"
    allowed = par_prices(game, sym)
    if price not in allowed:
        if len(allowed) == 1:
            return f"{sym} starts at its fixed par of {game.money(allowed[0])}"
        return f"{sym} may start at {', '.join(str(p) for p in sorted(allowed))}, not {price}"
    cost = shares.certificate_price(title, sym, shares.president_percent(title, sym), price)
    if state.players[player].cash < cost:
        return (f"{player} has {game.money(state.players[player].cash)}, the Director's certificate "
                f"costs {game.money(cost)}")
    if shares.certificate_count(state, title, player) >= shares.certificate_limit(state, title):
        return f"{player} is at the certificate limit of {shares.certificate_limit(state, title)}"
    return None


def check_formation(game: Game, sym: str) -> None:
    """Form ``sym`` if it is ready (the source's ``check_formation``): a major once floated;
    a minor once its treasury holds its required train's price, buying that train (no phase
    change comes of it): of the trains of its type set aside for the minors at the start, the
    first set aside (:func:`_first_reserved`)."""
    state, title = game.state, game.title
    mine = state1825(state)
    if sym in mine.formed:
        return
    corp = state.corporations[sym]
    if not is_minor(title, sym):
        if corp.floated:
            mine.formed.append(sym)
            game.event(Formed(sym))
        return
    train = mine.minor_trains.get(sym)
    if train is None:
        return
    price = trains.train_data(title, train).price
    if corp.cash < price:
        return
    train = _first_reserved(mine, sym)
    mine.formed.append(sym)
    game.event(Formed(sym, minor=True))
    del mine.minor_trains[sym]
    mine.required_trains[sym] = train
    corp.trains.append(train)
    corp.cash -= price
    state.bank += price
    game.event(RequiredTrainBought(sym, train.kind, price))


def _first_reserved(mine: State1825, sym: str) -> TrainId:
    """The first train set aside (the lowest number) of the type set aside for minor ``sym``:
    the one it buys, whichever minor of that type it was set aside beside (18xx.games gives a
    minor the first of its type left, ``minor_get_train``); the minor it was beside keeps
    ``sym``'s."""
    own = mine.minor_trains[sym]
    kind = own.kind
    holder, first = min(((m, t) for m, t in mine.minor_trains.items() if t.kind == kind),
                        key=lambda pair: pair[1].number)
    mine.minor_trains[holder], mine.minor_trains[sym] = own, first
    return first


# -- the privates ---------------------------------------------------------------------------------


def buyable_privates(game: Game, player: str, stock_round: int | None = None) -> list[str]:
    """The privates ``player`` may buy from the bank now: the cheapest unsold one of the
    start while any is left; then those sold to the bank, but not the ones ``player`` sold
    in this round (or in stock round ``stock_round``, as it ended)."""
    unsold = unsold_start_privates(game)
    if unsold:
        return unsold[:1]
    sold = sold_in_round(game, player, stock_round)
    return [sym for sym in state1825(game.state).pool_privates if sym not in sold]


def sold_in_round(game: Game, player: str, stock_round: int | None = None) -> list[str]:
    """The privates ``player`` sold to the bank in stock round ``stock_round`` (default:
    this one)."""
    mine = state1825(game.state)
    number = game.state.round.number if stock_round is None else stock_round
    return mine.sold_privates.get(player, []) if mine.sold_round == number else []


def buy_private_problem(game: Game, player: str, company: str) -> str | None:
    """Why ``player`` may not buy ``company`` from the bank now, or None."""
    state = game.state
    if company not in state.companies:
        return f"there is no private company {company!r}"
    if _purchased(game):
        return f"{player} has already bought a certificate this turn"
    if company not in buyable_privates(game, player):
        unsold = unsold_start_privates(game)
        held = state.companies[company].owner
        if unsold:
            already = f"{company} is already {held.name}'s; " if held is not None and held.kind == "player" else ""
            return f"{already}the private for sale is {unsold[0]}, the cheapest"
        if company in sold_in_round(game, player):
            return f"{player} sold {company} this round and may not buy it back this round"
        return f"{company} is not for sale"
    return bank_private_problem(game, player, company)


def sell_private_problem(game: Game, player: str, company: str) -> str | None:
    """Why ``player`` may not sell ``company`` to the bank now, or None."""
    state = game.state
    if company not in state.companies:
        return f"there is no private company {company!r}"
    from pbem.titles.g1825.stock_rules import Shares1825

    if isinstance(game.hooks.stock, Shares1825) and not game.hooks.stock.may_sell_privates(game):
        return "private companies may not be sold to the bank"
    if state.round.number <= 1:
        return "no private company may be sold in the first stock round"
    if state.companies[company].owner != Owner.player(player):
        return f"{player} does not own {company}"
    if _purchased(game):
        return "a private company may not be sold after buying in the same turn"
    return None


# -- the step -------------------------------------------------------------------------------------


def _sr(game: Game) -> StockRoundState:
    sr = game.state.round.stock
    assert sr is not None, "not in a stock round"
    return sr


def _purchased(game: Game) -> bool:
    return state1825(game.state).purchased


def directorship_in_pool(game: Game, player: str, sym: str) -> bool:
    """Whether a purchase of ``sym`` from the pool by ``player`` is of the Director's
    certificate itself: ``sym`` is in receivership, the pool holds that certificate and no
    ordinary share, and ``player`` holds a share to give back for it (18xx.games'
    ``can_buy_presidents_share?``: the certificate is bought for one share's price, one share
    going back to the pool)."""
    return (director_alone_in_pool(game, sym) is not None
            and bool(shares.pick_certificates(game.state, Owner.player(player), sym, _give_back(game, sym))))


def director_alone_in_pool(game: Game, sym: str) -> Certificate | None:
    """``sym``'s Director's certificate when ``sym`` is in receivership and the pool holds
    that certificate and no ordinary share, else None."""
    state = game.state
    if sym not in state.corporations or not in_receivership(game, sym):
        return None
    if shares.pick_certificates(state, POOL, sym, 1):
        return None
    director = next((c for c in state.certificates if c.corporation == sym and c.president), None)
    return director if director is not None and director.owner == POOL else None


def _give_back(game: Game, sym: str) -> int:
    title = game.title
    return (shares.president_percent(title, sym) - shares.share_percent(title, sym)) // shares.share_percent(title, sym)


def _directorship_problem(game: Game, player: str, sym: str) -> str | None:
    state, title = game.state, game.title
    launch = game.hooks.stock.launch_problem(game, sym)
    if launch is not None:
        return launch
    if sym in _sr(game).sold.get(player, []):
        return f"{player} sold {sym} this round and may not buy it again this round"
    price = shares.certificate_price(title, sym, shares.share_percent(title, sym), shares.current_price(state, title, sym))
    if state.players[player].cash < price:
        return f"{player} has {game.money(state.players[player].cash)}, the Director's certificate costs {game.money(price)}"
    return None


def share_sale_problem(game: Game, player: str, sym: str, count: int) -> str | None:
    """:func:`pbem.engine.steps.stock.sell_problem` and 1825's rule: a company that the
    turn's latest action bought or started may not be sold (the source's ``can_sell?``)."""
    if state1825(game.state).last_bought == sym and sym in game.state.corporations:
        return f"{player} has just bought {sym} and may not sell it in the same turn"
    return sell_problem(game, player, sym, count)


class Stock1825(BuySellParShares):
    """One player's stock-round turn in 1825 (see the module text)."""

    handlers: ClassVar[dict[type[Action], Handler]] = {}

    @classmethod
    def sale_problem(cls, game: Game, player: str, sym: str, count: int) -> str | None:
        return share_sale_problem(game, player, sym, count)

    @classmethod
    def offers(cls, game: Game, player: str) -> Iterator[Action]:
        state = game.state
        if must_sell(game, player):
            yield from (sale for sym in state.corporations if (sale := least_sale(game, player, sym, cls.sale_problem)))
            yield from cls._privates_to_sell(game, player)
            return
        for company in buyable_privates(game, player):
            if buy_private_problem(game, player, company) is None:
                yield BuyPrivate(company)
        if not unsold_start_privates(game):
            for sym in state.corporations:
                for source in SOURCES:
                    if cls.buy_problem(game, player, sym, source) is None:
                        yield BuyShares(sym, source)
            for sym, corp in state.corporations.items():
                if not corp.ipoed:
                    yield from (Par(sym, p) for p in par_prices(game, sym)
                                if par_problem(game, player, sym, p) is None)
        yield from (sale for sym in state.corporations if (sale := least_sale(game, player, sym, cls.sale_problem)))
        yield from cls._privates_to_sell(game, player)

    @classmethod
    def _privates_to_sell(cls, game: Game, player: str) -> Iterable[Action]:
        return [SellPrivate(c) for c in game.state.players[player].companies
                if sell_private_problem(game, player, c) is None]

    @classmethod
    def buy_problem(cls, game: Game, player: str, sym: str, source: str) -> str | None:
        """The core's purchase checks, and none while a private of the start is unsold."""
        from pbem.engine.steps.stock import buy_problem

        if unsold_start_privates(game) and sym in game.state.corporations:
            return "no company is offered until every private company has been sold"
        if _purchased(game) and sym in game.state.corporations:
            return f"{player} has already bought a certificate this turn"
        if source == "pool" and directorship_in_pool(game, player, sym):
            return _directorship_problem(game, player, sym)
        return buy_problem(game, player, sym, source)

    # -- handlers -------------------------------------------------------------------------------

    @classmethod
    def process_buy(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, BuyShares)
        problem = cls.buy_problem(game, player, action.corporation, action.source)
        if problem:
            raise IllegalOrderError(problem)
        if action.source == "pool" and directorship_in_pool(game, player, action.corporation):
            if action.count != 1:
                raise IllegalOrderError(f"the Director's certificate of {action.corporation} is bought alone")
            cls._buy_directorship(game, player, action.corporation)
        else:
            super().process_buy(game, player, action)
        cls._purchase_made(game, action.corporation)

    @classmethod
    def _buy_directorship(cls, game: Game, player: str, sym: str) -> None:
        """``player`` buys ``sym``'s Director's certificate from the pool for one share's
        price, gives one share back to the pool and becomes Director."""
        state, title = game.state, game.title
        price = shares.certificate_price(title, sym, shares.share_percent(title, sym),
                                         shares.current_price(state, title, sym))
        director = next(c for c in state.certificates if c.corporation == sym and c.president)
        shares.transfer(shares.pick_certificates(state, Owner.player(player), sym, _give_back(game, sym)), POOL)
        director.owner = Owner.player(player)
        state.players[player].cash -= price
        state.bank += price
        state.corporations[sym].president = player
        game.event(DirectorshipBought(player, director.percent, sym, price))
        game.event(ReceivershipEnded(player, sym))
        sr = _sr(game)
        sr.turn_actions.append("buy")
        sr.turn_buys.append(sym)
        sr.last_to_act = player

    @classmethod
    def par_refusal(cls, game: Game, player: str, sym: str, price: int) -> str | None:
        """1825's pars (:func:`par_problem`): a major's fixed par in an open band, a minor's
        chosen par."""
        return par_problem(game, player, sym, price)

    @classmethod
    def presidency_bought(cls, player: str, percent: int, sym: str, cost: int) -> Event:
        """1825 says Director's certificate."""
        return DirectorshipBought(player, percent, sym, cost)

    @classmethod
    def par_cell(cls, game: Game, sym: str, price: int) -> tuple[int, int]:
        """A major starts on the par cell of its fixed par, a minor on the cell of the price
        its buyer chose (:func:`~pbem.titles.g1825.start.par_cell`)."""
        return par_cell(game, price)

    @classmethod
    def process_par(cls, game: Game, player: str, action: Action) -> None:
        """The core's start of a company (its price, the Director's certificate paid for:
        to the treasury for a minor, whose IPO sales pay it), then 1825's turn bookkeeping."""
        assert isinstance(action, Par)
        super().process_par(game, player, action)
        cls._purchase_made(game, action.corporation)

    @classmethod
    def process_sell(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, SellShares)
        problem = cls.sale_problem(game, player, action.corporation, action.count)
        if problem:
            raise IllegalOrderError(problem)
        super().process_sell(game, player, action)
        state1825(game.state).last_bought = None
        game.check_bank()

    @classmethod
    def process_buy_private(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, BuyPrivate)
        if must_sell(game, player):
            raise IllegalOrderError(f"{player} must first sell shares (over a holding limit)")
        if action.price is not None and action.price != game.title.company(action.company).value:
            raise IllegalOrderError(f"the bank sells {action.company} at its face value: write BUY {action.company}")
        problem = buy_private_problem(game, player, action.company)
        if problem:
            raise IllegalOrderError(problem)
        bank_sells_private(game, player, action.company)
        mine = state1825(game.state)
        if action.company in mine.pool_privates:
            mine.pool_privates.remove(action.company)
        mine.purchased = True
        mine.last_bought = None
        announce_band(game)

    @classmethod
    def process_sell_private(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, SellPrivate)
        problem = sell_private_problem(game, player, action.company)
        if problem:
            raise IllegalOrderError(problem)
        state = game.state
        price = max(0, game.title.company(action.company).value - COMPANY_SALE_FEE)
        state.players[player].companies.remove(action.company)
        state.companies[action.company].owner = None
        mine = state1825(state)
        mine.pool_privates.append(action.company)
        if mine.sold_round != state.round.number:
            mine.sold_privates, mine.sold_round = {}, state.round.number
        mine.sold_privates.setdefault(player, []).append(action.company)
        mine.last_bought = None
        state.bank -= price
        state.players[player].cash += price
        game.event(PrivateSold(player, action.company, price))
        sr = _sr(game)
        sr.turn_actions.append("sell_private")
        sr.last_to_act = player
        game.check_bank()

    @classmethod
    def before_next_turn(cls, game: Game) -> bool:
        """A turn that bought nothing counts as a pass (the source's ``pass!``): the player
        who just ended a turn of sales only is marked passed; the turn's marks are reset."""
        mine = state1825(game.state)
        player = game.state.order[game.state.round.entity_index]
        game.state.players[player].passed = not mine.purchased
        mine.purchased = False
        mine.last_bought = None
        return super().before_next_turn(game)

    @classmethod
    def _purchase_made(cls, game: Game, sym: str) -> None:
        mine = state1825(game.state)
        mine.purchased = True
        mine.last_bought = sym
        check_formation(game, sym)
        announce_band(game)


Stock1825.handlers = {
    **BuySellParShares.handlers,
    BuyShares: Stock1825.process_buy,
    Par: Stock1825.process_par,
    SellShares: Stock1825.process_sell,
    BuyPrivate: Stock1825.process_buy_private,
    SellPrivate: Stock1825.process_sell_private,
    Pass: Stock1825.process_pass,
}


__all__ = [
    "BandOpened", "COMPANY_SALE_FEE", "DirectorshipBought", "Formed", "PrivateSold", "RequiredTrainBought", "SellPrivate",
    "Stock1825", "announce_band", "buy_private_problem", "buyable_privates", "check_formation",
    "current_band", "directorship_in_pool", "par_prices", "par_problem", "sell_private_problem", "share_sale_problem",
]
