"""The stock round (1830 rules 5): in priority order each player, on their turn, may sell
shares, buy one certificate (or start a corporation at par), and sell again; then passes.
The round ends when every player passes in succession.

Rules enforced here, each from 1830 rules 5 as 18xx.games plays them:

* no sales in the first stock round (``sell_after: first_stock_round``);
* one certificate bought a turn, except shares in a brown zone (several from the pool);
* a player who sold a corporation this round may not buy it again this round;
* at most 60% of a corporation (unless its price is in an orange or brown zone), and the
  certificate limit (shares in yellow, orange and brown zones do not count);
* the bank pool holds at most 50% of a corporation;
* the price drops one row for each share sold; the president's certificate may be sold only
  when another player holds at least as much as it is worth, who then becomes president;
* par: the president's certificate at twice par, from the par cells of the market;
* the corporation floats at 60% sold; sold-out corporations rise one row at the round's end;
* a player with nothing legal to do is passed automatically; a player who must sell
  (over the certificate limit or over 60%) may do nothing else.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from pbem.engine import market, shares
from pbem.engine.actions import Action, BuyPrivate, BuyShares, Par, Pass, SellShares, ShareSource
from pbem.engine.events.receivership import PresidencyToPool
from pbem.engine.events import (
    Event,
    Parred,
    Passed,
    PresidencyBought,
    PriceMoved,
    PrivateBought,
    SharesBought,
    SharesSold,
)
from pbem.engine.state import IPO, Owner, POOL, RoundKind, ShareSale, StockRoundState
from pbem.engine.step import Step
from pbem.engine.steps import private_trades
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game

PURCHASES = ("buy", "par")
SOURCES: tuple[ShareSource, ...] = ("ipo", "pool")


def _sr(game: Game) -> StockRoundState:
    sr = game.state.round.stock
    assert sr is not None, "not in a stock round"
    return sr


def _bought(game: Game) -> bool:
    return any(kind in PURCHASES for kind in _sr(game).turn_actions)


def sales_open(game: Game) -> bool:
    """Whether shares may be sold in this round (1830 rules 5.2: none in the first stock round)."""
    if game.title.settings.sell_after == "first_stock_round":
        return game.state.round.kind != RoundKind.STOCK or game.state.round.number > 1
    return True



def _source_owner(source: str) -> Owner:
    return IPO if source == "ipo" else POOL


def _unit_price(game: Game, sym: str, source: str) -> int:
    """What one ordinary share of ``sym`` costs from ``source``: par from the IPO, the market
    price from the pool (:func:`pbem.engine.shares.certificate_price`)."""
    state, title = game.state, game.title
    price = shares.par_price(state, title, sym) if source == "ipo" else shares.current_price(state, title, sym)
    return shares.certificate_price(title, sym, shares.share_percent(title, sym), price)


def _buy_multiple_ok(game: Game, sym: str, source: str) -> bool:
    """A second purchase in one turn: only brown-zone shares of the same corporation, and
    (unless the title allows it from the IPO) only from the pool (1830 rules 5.2)."""
    state, title = game.state, game.title
    sr = _sr(game)
    coord = state.corporations[sym].price
    found = market.cell(title, coord) if coord else None
    if found is None or not found.buy_multiple:
        return False
    if not title.settings.multiple_buy_from_ipo:
        if source != "pool" or sr.bought_from_ipo:
            return False
    if "par" in sr.turn_actions:
        return False
    return all(c == sym for c in sr.turn_buys)


def buy_problem(game: Game, player: str, sym: str, source: str) -> str | None:
    """Why ``player`` may not buy one share of ``sym`` from ``source`` now, or None."""
    state, title = game.state, game.title
    sr = _sr(game)
    if sym not in state.corporations:
        return f"there is no corporation {sym!r}"
    corp = state.corporations[sym]
    launch = game.hooks.stock.launch_problem(game, sym)
    if launch is not None:
        return launch
    if not corp.ipoed:
        return f"{sym} has not been started (PAR it first)"
    owner = _source_owner(source)
    if not shares.pick_certificates(state, owner, sym, 1):
        return f"there is no {sym} share in the {'IPO' if source == 'ipo' else 'bank pool'}"
    if sym in sr.sold.get(player, []):
        return f"{player} sold {sym} this round and may not buy it again this round"
    if _bought(game) and not _buy_multiple_ok(game, sym, source):
        return f"{player} has already bought a certificate this turn"
    price = _unit_price(game, sym, source)
    if state.players[player].cash < price:
        return f"{player} has {game.money(state.players[player].cash)}, a share costs {game.money(price)}"
    pct = shares.share_percent(title, sym)
    if not shares.holding_ok(state, title, player, sym, pct):
        limit = title.settings.max_percent_per_corporation
        return f"{player} may not hold more than {limit}% of {sym}"
    if shares.counts_for_limit(state, title, sym) and shares.certificate_count(
        state, title, player
    ) >= shares.certificate_limit(state, title):
        return f"{player} is at the certificate limit of {shares.certificate_limit(state, title)}"
    return None


def bank_private_problem(game: Game, player: str, company: str) -> str | None:
    """Why ``player`` may not pay for private company ``company`` bought from the bank at its
    face value, or None: the money and the certificate limit (1825's and 1829's stock rounds;
    whether the bank offers it is the title's own rule)."""
    state, title = game.state, game.title
    value = title.company(company).value
    if state.players[player].cash < value:
        return f"{player} has {game.money(state.players[player].cash)}, {company} costs {game.money(value)}"
    if shares.certificate_count(state, title, player) >= shares.certificate_limit(state, title):
        return f"{player} is at the certificate limit of {shares.certificate_limit(state, title)}"
    return None


def bank_sells_private(game: Game, player: str, company: str) -> None:
    """The bank sells private company ``company`` to ``player`` at its face value (checked by
    the title first, :func:`bank_private_problem`), announced; it is the turn's purchase
    (1825's and 1829's stock rounds)."""
    state = game.state
    value = game.title.company(company).value
    state.players[player].cash -= value
    state.bank += value
    state.players[player].companies.append(company)
    state.companies[company].owner = Owner.player(player)
    game.event(PrivateBought(player, company, value))
    sr = _sr(game)
    sr.turn_actions.append("buy")
    sr.turn_buys.append(company)
    sr.last_to_act = player


def par_problem(game: Game, player: str, sym: str, price: int) -> str | None:
    """Why ``player`` may not start ``sym`` at ``price`` now, or None."""
    state, title = game.state, game.title
    if sym not in state.corporations:
        return f"there is no corporation {sym!r}"
    if state.corporations[sym].ipoed:
        return f"{sym} has already been started"
    launch = game.hooks.stock.launch_problem(game, sym)
    if launch is not None:
        return launch
    if _bought(game):
        return f"{player} has already bought a certificate this turn"
    allowed = game.hooks.stock.par_prices(game, sym)
    if price not in allowed or market.par_coord(title, price) is None:
        if len(allowed) == 1:
            return f"{sym} starts at {allowed[0]} only"
        return f"{price} is not a par value; choose one of {', '.join(map(str, allowed))}"
    cost = shares.certificate_price(title, sym, shares.president_percent(title, sym), price)
    if state.players[player].cash < cost:
        return f"{player} has {game.money(state.players[player].cash)}, the president's certificate costs {game.money(cost)}"
    if shares.certificate_count(state, title, player) >= shares.certificate_limit(state, title):
        return f"{player} is at the certificate limit of {shares.certificate_limit(state, title)}"
    return None


def par_offers(game: Game, player: str) -> list[Par]:
    """Every ``Par(sym, price)`` for which :func:`par_problem` finds no problem, by
    corporation, highest price first: what is the same for every corporation and price (a
    purchase this turn, the certificate limit, the par values) is worked out once."""
    state, title = game.state, game.title
    if _bought(game) or shares.certificate_count(state, title, player) >= shares.certificate_limit(state, title):
        return []
    cash = state.players[player].cash
    return [Par(sym, price) for sym, corp in state.corporations.items()
            if not corp.ipoed and game.hooks.stock.launch_problem(game, sym) is None
            for price in game.hooks.stock.par_prices(game, sym)
            if shares.certificate_price(title, sym, shares.president_percent(title, sym), price) <= cash]


def no_price_problem(sym: str) -> str:
    """The refusal of a sale of ``sym``'s shares while it has no share price (not started
    yet, as a share a private gave away before its corporation's par): a share is sold at
    the market price, and there is none to sell at."""
    return (f"{sym} has no share price yet (it has not been started), so there is no price to sell "
            f"its shares at: they may be sold once {sym} has a price on the market")


def least_sale(game: Game, player: str, sym: str,
               problem: Callable[[Game, str, str, int], str | None] | None = None) -> SellShares | None:
    """The sale of the fewest shares of ``sym`` that ``player`` may make now, or None: one
    share, or where one may not be sold, more (1825: a President's certificate alone, with no
    share in the pool to give back for half of it, sells whole). ``problem`` is the title's
    check (:func:`sell_problem` by default)."""
    check = problem or sell_problem
    unit = shares.share_percent(game.title, sym)
    held = game.state.percent_of(Owner.player(player), sym) if sym in game.state.corporations else 0
    for count in range(1, held // unit + 1 if unit else 1):
        if check(game, player, sym, count) is None:
            return SellShares(sym, count)
    return None


def sell_problem(game: Game, player: str, sym: str, count: int) -> str | None:
    """Why ``player`` may not sell ``count`` shares of ``sym`` now, or None: the title's own
    rule (``StockRules.sell_problem``), the first stock round, the turn's order of selling
    and buying, the holding, no share price to sell at (:func:`no_price_problem`), the
    pool's limit, the holding limit where the title makes a sale bring a holding above it
    down to it (``sale_down_to_holding_limit``) and the president's certificate."""
    state, title = game.state, game.title
    if sym not in state.corporations:
        return f"there is no corporation {sym!r}"
    own = game.hooks.stock.sell_problem(game, player, sym, count)
    if own is not None:
        return own
    if not sales_open(game):
        return "no shares may be sold in the first stock round"
    sr = state.round.stock
    if sr is not None and state.round.kind == RoundKind.STOCK:
        order = title.settings.sell_buy_order
        done = sr.turn_actions
        if order == "sell_buy_or_buy_sell" and "sell" in done and any(k in PURCHASES for k in done) \
                and done[-1] in PURCHASES:
            return "this turn has sold and then bought: no more sales"
        if title.settings.must_sell_in_blocks and sym in sr.sold.get(player, []) and sym in sr.turn_sells:
            return f"{sym} was sold this turn already: shares are sold in one lot a turn"
    pct = shares.share_percent(title, sym)
    held = state.percent_of(Owner.player(player), sym)
    if held < count * pct:
        return f"{player} holds {held}% of {sym} and cannot sell {count * pct}%"
    if state.corporations[sym].price is None:
        return no_price_problem(sym)
    if shares.pool_room(state, title, sym) < count * pct:
        return f"the bank pool may not hold more than {title.settings.pool_share_limit}% of {sym}"
    if title.settings.sale_down_to_holding_limit and not shares.holding_ok(state, title, player, sym, -count * pct):
        limit = title.settings.max_percent_per_corporation
        return f"{player} holds {held}% of {sym}: a sale must bring it down to {limit}% or less"
    corp = state.corporations[sym]
    ordinary = len(shares.pick_certificates(state, Owner.player(player), sym, 10**6))
    if corp.president == player and count > ordinary:
        pres_pct = shares.president_percent(title, sym)
        others = max((state.percent_of(Owner.player(p), sym) for p in state.seats if p != player), default=0)
        if others < pres_pct and game.hooks.receivership is None:
            return (
                f"{player} may not sell the president's certificate of {sym}: "
                f"no other player holds {pres_pct}%"
            )
        if others < pres_pct:  # to the pool: the corporation goes into receivership
            return shares.presidency_to_pool_problem(state, title, player, sym, count)
    return None


def must_sell(game: Game, player: str) -> bool:
    """Over the certificate limit, or over 60% where that is not allowed, with something
    sellable: the player must sell before anything else (1830 rules 5.2)."""
    state, title = game.state, game.title
    if not any(can_sell_some(game, player, sym) for sym in state.corporations):
        return False
    if shares.certificate_count(state, title, player) > shares.certificate_limit(state, title):
        return True
    if title.settings.forced_to_sell_above_percent is False:
        return False  # 1870: holding over 60% (after a price protection) need not be sold down
    return any(
        not shares.holding_ok(state, title, player, sym) and can_sell_some(game, player, sym)
        for sym in state.corporations
    )


def can_sell_some(game: Game, player: str, sym: str) -> bool:
    """Whether ``player`` may sell some number of ``sym``'s shares now (a sale that must bring
    a holding down to the limit may need several shares at once)."""
    pct = shares.share_percent(game.title, sym)
    held = game.state.percent_of(Owner.player(player), sym)
    return any(sell_problem(game, player, sym, n) is None for n in range(1, held // pct + 1))


class BuySellParShares(Step):
    """One player's stock-round turn (1830 rules 5)."""

    name = "buy_sell_par_shares"
    description = "buy, sell or start shares"

    @classmethod
    def active(cls, game: Game) -> bool:
        return game.state.round.kind == RoundKind.STOCK and game.state.round.stock is not None

    @classmethod
    def actors(cls, game: Game) -> list[str]:
        return [game.state.order[game.state.round.entity_index]]

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> Iterable[Action]:
        found = list(cls.offers(game, player))
        if found and not must_sell(game, player):
            found.append(Pass())
        return found

    @classmethod
    def has_actions(cls, game: Game, player: str) -> bool:
        """Whether :meth:`legal_actions` offers ``player`` anything, found by stopping at the
        first offer (a player with nothing legal is passed)."""
        return next(iter(cls.offers(game, player)), None) is not None

    @classmethod
    def sale_problem(cls, game: Game, player: str, sym: str, count: int) -> str | None:
        """Why ``player`` may not sell ``count`` shares of ``sym`` in this step now, or None
        (:func:`sell_problem`; a title's step adds its own rule)."""
        return sell_problem(game, player, sym, count)

    @classmethod
    def offers(cls, game: Game, player: str) -> Iterator[Action]:
        """The legal actions but the PASS, lazily: only sales when ``player`` must sell;
        else purchases, then pars (:func:`par_offers`), then other players' privates where
        the title sells them between players (:mod:`~pbem.engine.steps.private_trades`),
        then sales."""
        state = game.state
        if must_sell(game, player):
            yield from (sale for sym in state.corporations if (sale := least_sale(game, player, sym, cls.sale_problem)))
            return
        for sym in state.corporations:
            for source in SOURCES:
                if buy_problem(game, player, sym, source) is None:
                    yield BuyShares(sym, source)
        yield from par_offers(game, player)
        yield from private_trades.trade_offers(game, player, _bought(game))
        yield from (sale for sym in state.corporations if (sale := least_sale(game, player, sym, cls.sale_problem)))

    @classmethod
    def corporation_actions(cls, game: Game, player: str) -> list[Action]:
        """What the corporations ``player`` presides may do in this turn, offered with the
        player's own actions (before the PASS), as the platform does; they alone do not keep
        a player with nothing else to do from being passed. 1830: nothing (1870: redeem and
        reissue shares)."""
        return []

    # -- a title's interruptions of the turn order ------------------------------------------

    @classmethod
    def interrupted(cls, game: Game) -> bool:
        """Whether a player other than the one on turn must decide before play goes on
        (1870: a price protection). 1830: never."""
        return False

    @classmethod
    def hold(cls, game: Game) -> bool:
        """Called after each action of the round before the turn advances: settle what an
        interruption left (1870: play resumes after the protector) and say whether the game
        must wait for an interruption to be decided. 1830: never waits."""
        return False

    @classmethod
    def before_next_turn(cls, game: Game) -> bool:
        """Called when a turn is over, before the next one: True to hold the next turn for an
        interruption begun now (1870: the queued sales' price protection). 1830: False."""
        return False

    # -- handlers -------------------------------------------------------------------------

    @classmethod
    def process_buy(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, BuyShares)
        if must_sell(game, player):
            raise IllegalOrderError(f"{player} must first sell shares (over a holding limit)")
        state, title = game.state, game.title
        sr = _sr(game)
        for _ in range(action.count):
            problem = buy_problem(game, player, action.corporation, action.source)
            if problem:
                raise IllegalOrderError(problem)
            sym = action.corporation
            price = _unit_price(game, sym, action.source)
            cert = shares.pick_certificates(state, _source_owner(action.source), sym, 1)[0]
            state.players[player].cash -= price
            if action.source == "ipo" and shares.incremental(state, title, sym):
                state.corporations[sym].cash += price
            else:
                state.bank += price
            cert.owner = Owner.player(player)
            game.event(SharesBought(player, cert.percent, sym, action.source, price))
            sr.turn_actions.append("buy")
            sr.turn_buys.append(sym)
            if action.source == "ipo":
                sr.bought_from_ipo = True
            sr.last_to_act = player
            shares.update_president(state, title, sym, game.pending_events)
            shares.float_if_ready(state, title, sym, game.pending_events)

    @classmethod
    def par_refusal(cls, game: Game, player: str, sym: str, price: int) -> str | None:
        """Why ``player`` may not start ``sym`` at ``price`` now, or None
        (:func:`par_problem`, 1830 rules 5.2). A title with pars of its own (1825's fixed
        pars and bands, its minors' chosen pars) overrides it."""
        return par_problem(game, player, sym, price)

    @classmethod
    def presidency_bought(cls, player: str, percent: int, sym: str, cost: int) -> Event:
        """The event of ``player`` buying ``sym``'s ``percent`` president's certificate for
        ``cost`` (money) as they start it; a title with its own word for a president says
        it in its own event (1825: the Director's certificate)."""
        return PresidencyBought(player, percent, sym, cost)

    @classmethod
    def par_cell(cls, game: Game, sym: str, price: int) -> market.Coord:
        """The market cell ``sym`` starts on at ``price`` (a price :meth:`par_refusal`
        accepts): the par cell of that price (1830 rules 5.2). A title whose corporations may
        start elsewhere (1825's minors: any cell their buyer chooses) overrides it."""
        coord = market.par_coord(game.title, price)
        assert coord is not None, f"no par cell at {price}"
        return coord

    @classmethod
    def process_par(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Par)
        if must_sell(game, player):
            raise IllegalOrderError(f"{player} must first sell shares (over a holding limit)")
        problem = cls.par_refusal(game, player, action.corporation, action.price)
        if problem:
            raise IllegalOrderError(problem)
        state, title = game.state, game.title
        sym = action.corporation
        coord = cls.par_cell(game, sym, action.price)
        corp = state.corporations[sym]
        corp.par = coord
        market.place(state, sym, coord)
        corp.ipoed = True
        corp.president = player
        pres = next(c for c in state.certificates if c.corporation == sym and c.president)
        cost = shares.certificate_price(title, sym, pres.percent, action.price)
        pres.owner = Owner.player(player)
        state.players[player].cash -= cost
        if shares.incremental(state, title, sym):
            corp.cash += cost  # the IPO's sales pay the corporation, this one too
        else:
            state.bank += cost
        game.event(Parred(player, sym, action.price))
        game.event(cls.presidency_bought(player, pres.percent, sym, cost))
        sr = _sr(game)
        sr.turn_actions.append("par")
        sr.last_to_act = player
        shares.float_if_ready(state, title, sym, game.pending_events)

    @classmethod
    def process_trade(cls, game: Game, player: str, action: Action) -> None:
        """Another player's private bought at a price agreed (:mod:`~pbem.engine.steps.
        private_trades`): the turn's purchase, which does not move the priority deal; shares
        in a zone where several may be bought may still be (as 18xx.games plays it)."""
        assert isinstance(action, BuyPrivate)
        if must_sell(game, player) or cls.interrupted(game):
            raise IllegalOrderError(f"{player} may not buy a private company now")
        private_trades.trade(game, player, action, _bought(game))
        _sr(game).turn_actions.append("buy")

    @classmethod
    def process_sell(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, SellShares)
        execute_sale(game, player, action.corporation, action.count)
        sr = _sr(game)
        sr.sold.setdefault(player, [])
        if action.corporation not in sr.sold[player]:
            sr.sold[player].append(action.corporation)
        sr.turn_actions.append("sell")
        sr.turn_sells.append(action.corporation)
        sr.last_to_act = player

    @classmethod
    def process_pass(cls, game: Game, player: str, action: Action) -> None:
        if must_sell(game, player):
            raise IllegalOrderError(f"{player} must sell shares before passing (over a holding limit)")
        sr = _sr(game)
        game.event(Passed(player, ended_turn=bool(sr.turn_actions)))
        end_turn(game, player)


def execute_sale(game: Game, player: str, sym: str, count: int) -> None:
    """Sell ``count`` shares of ``sym`` from ``player`` to the pool: checks (see
    :func:`sell_problem`), the presidency handed on first if the president's certificate must
    go, payment at the current price, then the title's ``after_sale`` hook (1830: the price
    falls a row a share, 1830 rules 5.3; 1870 queues the drop for price protection).

    :raises IllegalOrderError: the sale is not allowed.
    """
    problem = sell_problem(game, player, sym, count)
    if problem:
        raise IllegalOrderError(problem)
    state, title = game.state, game.title
    corp = state.corporations[sym]
    president_before = corp.president
    pct = shares.share_percent(title, sym)
    ordinary = shares.pick_certificates(state, Owner.player(player), sym, 10**6)
    to_pool = False
    if corp.president == player and count > len(ordinary):
        others = {p: state.percent_of(Owner.player(p), sym) for p in state.seats if p != player}
        top = max(others.values(), default=0)
        to_pool = top < shares.president_percent(title, sym)  # receivership (sell_problem allowed it)
    if to_pool:
        shares.sell_presidency_to_pool(state, title, player, sym, count)
    elif corp.president == player and count > len(ordinary):
        new = min(
            (p for p, v in others.items() if v == top),
            key=lambda p: shares.seat_distance(state, player, p),
        )
        pres = next(c for c in state.certificates if c.corporation == sym and c.president)
        shares.transfer(shares.pick_certificates(state, Owner.player(new), sym, pres.percent // pct), Owner.player(player))
        pres.owner = Owner.player(new)
        corp.president = new
    price = shares.current_price(state, title, sym)
    if not to_pool:
        shares.transfer(shares.pick_certificates(state, Owner.player(player), sym, count), POOL)
    amount = shares.certificate_price(title, sym, pct * count, price)
    state.bank -= amount
    state.players[player].cash += amount
    game.event(SharesSold(player, count, sym, count * pct, amount))
    if to_pool:
        game.event(PresidencyToPool(sym))
    game.hooks.stock.after_sale(game, ShareSale(sym, count, player, president_before, price))


def drop_price(game: Game, sym: str, count: int) -> None:
    """``sym``'s price falls a row for each of ``count`` shares sold (the title's ``down``
    move), announced (1830 rules 5.3)."""
    state, title = game.state, game.title
    before = state.corporations[sym].price
    assert before is not None
    new_coord = before
    for _ in range(count):
        new_coord = game.hooks.stock.down(title, new_coord)
    if market.move(state, title, sym, new_coord):
        game.event(PriceMoved(sym, market.price_at(title, before), market.price_at(title, new_coord), "falls"))


def pool_presidency(game: Game, sym: str) -> None:
    """After a sale: the presidency of ``sym`` (if it has a president) passes as holdings now
    say, the pool taking the certificates swapped for the president's (1830 rules 5.3)."""
    if game.state.corporations[sym].president is not None:
        shares.update_president(game.state, game.title, sym, game.pending_events, swap_to=POOL)


def end_turn(game: Game, player: str) -> None:
    """End ``player``'s turn: a turn with any action un-passes them, an empty one passes."""
    sr = _sr(game)
    game.state.players[player].passed = not sr.turn_actions
    sr.turn_actions = []
    sr.turn_buys = []
    sr.turn_sells = []
    sr.bought_from_ipo = False
    sr.turns += 1
    game.turn_over = True


def finish_stock_round(game: Game) -> None:
    """End of the stock round: each sold-out corporation rises one row (1830 rules 5.3), in
    operating order. A certificate the title's state holds back in the IPO counts as sold
    (:meth:`TitleState.withheld`; 1870: a redeemed share is out of the market until reissued)."""
    state, title = game.state, game.title
    floated = [s for s, c in state.corporations.items() if c.floated and c.price is not None]

    def key(sym: str) -> tuple[int, int, int, int, str]:
        coord = state.corporations[sym].price
        assert coord is not None
        return (-market.price_at(title, coord), -coord[1], coord[0], state.market[coord].index(sym), sym)

    for sym in sorted(floated, key=key):
        held = sum(state.percent_of(Owner.player(p), sym) for p in state.seats) + sum(
            c.percent for c in state.certificates if c.corporation == sym and c.owner == IPO
            and state.title_state.withheld(c))
        if held == 100 and title.settings.sold_out_increase:
            corp = state.corporations[sym]
            before = corp.price
            assert before is not None
            if market.move(state, title, sym, game.hooks.stock.up(title, before)):
                game.event(PriceMoved(sym, market.price_at(title, before),
                                      market.price_at(title, corp.price), "rises"))  # type: ignore[arg-type]


BuySellParShares.handlers = {
        BuyShares: BuySellParShares.process_buy,
        BuyPrivate: BuySellParShares.process_trade,
        Par: BuySellParShares.process_par,
        SellShares: BuySellParShares.process_sell,
        Pass: BuySellParShares.process_pass,
    }
