"""Discarding and buying trains, and the president's emergency money (1830 rules 6.7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pbem.engine import shares, track, trains
from pbem.engine.actions import Action, Bankrupt, BuyTrain, DiscardTrain, Pass, SellShares
from pbem.engine.events import Contributed, TrainBought, TrainDiscarded
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state, pass_step, president
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


EMERGENCY_READINGS = ("face_value", "never")
"""The readings of the title rule ``emergency_train_from_corporation`` (1830 rules 6.7 say
the president makes up what the treasury lacks for a train due; they do not say whether that
train may be another corporation's): ``face_value``, the president may also pay toward
another corporation's train, at most its face value, and once shares are sold for it the price
must spend the money of the last share sold (18xx.games 1830, ``EBUY_FROM_OTHERS = :value``);
``never``, the president's money buys only the bank's cheapest train, and once shares are sold
no train of another corporation may be bought (18xx.games 1870, ``:never``)."""


def corporation_train_prices(game: Game, corp: str, face: int) -> tuple[int, int] | None:
    """The prices (money, inclusive) ``corp`` may pay another corporation for a train of face
    value ``face``, or None when it may buy none: 1 up to its treasury; for a corporation
    that must buy a train and cannot pay the bank's cheapest, as the title's
    ``emergency_train_from_corporation`` reads 1830 rules 6.7 (:data:`EMERGENCY_READINGS`; a
    title that does not declare it, one with no train due on its president's money, reads
    ``never``)."""
    state = game.state
    treasury = state.corporations[corp].cash
    sold = op_state(game).sale_price
    cheapest = trains.cheapest_offer_price(game)
    due = must_buy_train(game, corp) and cheapest is not None and treasury < cheapest
    reading = str(game.title.settings.title_rules.get("emergency_train_from_corporation", "never"))
    if reading == "never" and sold is not None and due:
        return None
    if reading == "face_value" and treasury < face and due:
        possible = treasury + state.players[president(game, corp)].cash
        low = possible - sold + 1 if sold is not None else 1
        high = min(face, possible)
        return (max(1, low), high) if max(1, low) <= high else None
    return (1, treasury) if treasury >= 1 else None


def crowded(game: Game) -> list[str]:
    """Corporations over the train limit, in the order of the title's charters (the order
    they discard in: any, by the rules; 18xx.games' ``crowded_corps`` takes its list of
    corporations)."""
    limit = trains.train_limit(game)
    return [c for c, s in game.state.corporations.items() if len(s.trains) > limit]


class Discard(OpStep):
    """A corporation over the train limit after a phase change discards to the pool."""

    name = "discard_train"
    description = "discard a train over the limit (DISCARD)"
    takes = (DiscardTrain,)
    sticky = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        return bool(crowded(game))

    @classmethod
    def actor(cls, game: Game) -> str:
        return president(game, crowded(game)[0])

    @classmethod
    def subject(cls, game: Game) -> str:
        """The corporation over the limit (not necessarily the operating one)."""
        return crowded(game)[0]

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, DiscardTrain)
        corp = crowded(game)[0]
        owned = game.state.corporations[corp].trains
        match = next((t for t in owned if t.kind == action.train), None)
        if match is None:
            raise IllegalOrderError(f"{corp} has no {action.train} train")
        owned.remove(match)
        game.state.pool_trains.append(match)
        game.event(TrainDiscarded(corp, action.train))


    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        corp = crowded(game)[0]
        return [DiscardTrain(t) for t in dict.fromkeys(t.kind for t in game.state.corporations[corp].trains)]


def must_buy_train(game: Game, corp: str) -> bool:
    """A corporation with no train and a route must buy one (1830 rules 6.7)."""
    return (not game.state.corporations[corp].trains and bool(trains.depot_offer(game))
            and track.network(game, corp).route_for_train)


class BuyTrainStep(OpStep):
    """Buy trains (1830 rules 6.7): from the bank at the printed price (the cheapest type
    only), from the pool, or from another corporation at any price of at least 1 that its
    treasury holds; a corporation that must have a train and cannot pay gets its president's
    cash, then the president sells shares; if that is not enough, the president is bankrupt.
    Whether the president may pay toward another corporation's train is the title's reading
    (:func:`corporation_train_prices`)."""

    name = "buy_train"
    description = "buy trains (TRAIN), or PASS"
    takes = (BuyTrain, Pass, SellShares, Bankrupt)

    @classmethod
    def pass_note(cls, game: Game) -> str:
        return "no train"

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        if must_buy_train(game, corp):
            return True
        treasury = game.state.corporations[corp]
        if len(treasury.trains) >= trains.train_limit(game):
            return bool(exchange_prices(game, corp)) and min(exchange_prices(game, corp)) <= treasury.cash
        prices = [trains.train_data(game.title, t).price for t in trains.depot_offer(game)]
        others = [t for c, s in game.state.corporations.items() if c != corp for t in s.trains]
        return bool(prices and min(prices) <= treasury.cash) or any(
            corporation_train_prices(game, corp, trains.train_data(game.title, t).price) for t in others)

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if isinstance(action, Pass):
            if must_buy_train(game, corp):
                raise IllegalOrderError(f"{corp} must buy a train")
            pass_step(game, cls, "buying trains")
            return
        if isinstance(action, SellShares):
            emergency_sale(game, player, corp, action)
            return
        if isinstance(action, Bankrupt):
            problem = bankrupt_problem(game, player, corp)
            if problem:
                raise IllegalOrderError(problem)
            game.bankrupt(player, corp)
            return
        assert isinstance(action, BuyTrain)
        buy_train(game, corp, action)


    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return train_candidates(game, current_corp(game))


def exchange_prices(game: Game, corp: str) -> list[int]:
    """What ``corp`` would pay for each train the bank sells against one of its own traded
    in (1830 rules 6.7: a diesel for a 4, 5 or 6), the train count staying the same (so it
    may be bought at the train limit)."""
    held = {t.kind for t in game.state.corporations[corp].trains}
    out = []
    for train_id in trains.depot_offer(game):
        data = trains.train_data(game.title, train_id)
        out += [data.price - int(value) for kind, value in dict(data.trade_in).items() if kind in held]
    return out


def bankrupt_problem(game: Game, player: str, corp: str) -> str | None:
    """Why ``player`` may not declare bankruptcy for ``corp``'s train now, or None: only when
    a train is due and the treasury, the president's cash and what the president's shares
    would fetch (:func:`raisable`) together cannot pay for the cheapest train the bank sells
    (1830 rules 6.7: the president pays what the treasury lacks, selling shares to raise
    it; bankruptcy is for the money that cannot be raised)."""
    if not must_buy_train(game, corp):
        return f"{corp} need not buy a train: there is nothing to go bankrupt for"
    cheapest = trains.cheapest_offer_price(game)
    cash = game.state.corporations[corp].cash + game.state.players[player].cash
    if cheapest is not None and cash >= cheapest:
        return (f"{corp} and {player} have {game.money(cash)}, enough for the cheapest train "
                f"({game.money(cheapest)}): buy it (TRAIN)")
    if cheapest is not None and cash + raisable(game, player, corp) >= cheapest:
        return (f"{corp} and {player} have {game.money(cash)} and {player}'s shares would raise "
                f"{game.money(raisable(game, player, corp))}, enough for the cheapest train "
                f"({game.money(cheapest)}): sell shares (SELL), then buy it (TRAIN)")
    return None


def raisable(game: Game, player: str, corp: str) -> int:
    """What ``player``, president of ``corp`` which must buy a train, could raise by selling
    shares now (money, an int): for each corporation the most shares the sale rules allow
    (:func:`pbem.engine.steps.stock.sell_problem`; of ``corp`` no more than keeps the
    presidency; none of a corporation sold already where :func:`blocked_sales`), each at the
    current price."""
    from pbem.engine.steps.stock import sell_problem

    state, title = game.state, game.title
    total = 0
    blocked = blocked_sales(game)
    for sym in state.corporations:
        if sym in blocked:
            continue
        pct = shares.share_percent(title, sym)
        held = state.percent_of(Owner.player(player), sym)
        most = held // pct
        if sym == corp:
            others = max((state.percent_of(Owner.player(p), corp) for p in state.seats if p != player), default=0)
            most = min(most, (held - others) // pct)
        count = next((n for n in range(most, 0, -1) if sell_problem(game, player, sym, n) is None), 0)
        if count:
            price = shares.certificate_price(title, sym, pct, shares.current_price(state, title, sym))
            total += count * price
    return total


def train_candidates(game: Game, corp: str) -> list[Action]:
    """What ``corp``'s president might order in the train step, to be checked: each train
    the bank and the pool sell (alone and with each trade-in), each other corporation's
    train at the least price it may pay (:func:`corporation_train_prices`), and when a train is due the president's sales of 1 up to
    all of a holding, BANKRUPT; else PASS."""
    state, title = game.state, game.title
    found: list[Action] = []
    for train_id in trains.depot_offer(game):
        data = trains.train_data(title, train_id)
        source = "pool" if train_id in state.pool_trains else "depot"
        found.append(BuyTrain(data.name, source))
        found += [BuyTrain(data.name, source, None, old) for old in dict(data.trade_in)]
    for other, held in sorted(state.corporations.items()):
        if other == corp or held.closed:
            continue
        for train_id in held.trains:
            prices = corporation_train_prices(game, corp, trains.train_data(title, train_id).price)
            if prices is not None:
                found.append(BuyTrain(train_id.kind, other, prices[0]))
    if must_buy_train(game, corp):
        pres = president(game, corp)
        for sym in state.corporations:
            most = state.percent_of(Owner.player(pres), sym) // shares.share_percent(title, sym)
            found += [SellShares(sym, n) for n in range(1, most + 1)]
        found.append(Bankrupt())
    else:
        found.append(Pass())
    return list(dict.fromkeys(found))


def buy_train(game: Game, corp: str, action: BuyTrain) -> None:
    """Buy a train for ``corp`` (see :class:`BuyTrainStep`)."""
    state, title = game.state, game.title
    treasury = state.corporations[corp]
    if len(treasury.trains) >= trains.train_limit(game) and not (action.exchange and action.source in ("depot", "pool")):
        raise IllegalOrderError(f"{corp} is at the train limit of {trains.train_limit(game)}")
    offer = trains.depot_offer(game)
    if action.source in ("depot", "pool"):
        pool = action.source == "pool"
        candidates = [t for t in offer if t.kind == action.train and ((t in state.pool_trains) == pool)]
        if not candidates:
            have = ", ".join(f"{t.kind}{' (pool)' if t in state.pool_trains else ''}" for t in offer)
            raise IllegalOrderError(f"no {action.train} train is for sale {'in the pool' if pool else 'from the bank'} (for sale: {have})")
        train_id = candidates[0]
        price = trains.train_data(title, train_id).price
        exchange_id = None
        if action.exchange:
            data = trains.train_data(title, train_id)
            trade = dict(data.trade_in)
            if action.exchange not in trade:
                raise IllegalOrderError(f"a {action.exchange} train cannot be traded in for a {data.name}")
            exchange_id = next((t for t in treasury.trains if t.kind == action.exchange), None)
            if exchange_id is None:
                raise IllegalOrderError(f"{corp} has no {action.exchange} train to trade in")
            price -= int(trade[action.exchange])
        if action.price is not None and action.price != price:
            raise IllegalOrderError(f"the {action.train} train costs {game.money(price)}")
        _pay_for_train(game, corp, price, from_depot=True)
        if pool:
            state.pool_trains.remove(train_id)
        else:
            state.depot.remove(train_id)
            trains.top_up_unlimited(game, train_id)
        if exchange_id:
            treasury.trains.remove(exchange_id)
            state.pool_trains.append(exchange_id)
        treasury.trains.append(train_id)
        state.bank += price
        where = "the pool" if pool else "the bank"
        traded = action.exchange if exchange_id else None
        game.event(TrainBought(corp, train_id.kind, price, where, traded))
        trains.after_first_of_type(game, train_id)
    else:
        seller = action.source
        if seller not in state.corporations or seller == corp:
            raise IllegalOrderError(f"{seller} is not another corporation")
        if action.price is None or action.price < 1:
            raise IllegalOrderError("a train from another corporation needs a price (FOR <price>)")
        owned = state.corporations[seller].trains
        bought = next((t for t in owned if t.kind == action.train), None)
        if bought is None:
            raise IllegalOrderError(f"{seller} has no {action.train} train")
        prices = corporation_train_prices(game, corp, trains.train_data(title, bought).price)
        if prices is None:
            raise IllegalOrderError(
                f"{corp} may not buy another corporation's train now: "
                + ("its president has sold shares for it, so it buys the bank's cheapest train (this game's reading)"
                   if op_state(game).sale_price is not None else f"it has {game.money(treasury.cash)}"))
        low, high = prices
        if not low <= action.price <= high:
            if high <= treasury.cash:
                raise IllegalOrderError(f"{corp} has {game.money(treasury.cash)}")
            raise IllegalOrderError(f"{corp} may pay {seller} from {game.money(low)} to {game.money(high)} "
                                    f"for its {action.train} train (with its president's money, at most its face value"
                                    + (", spending the last share sold)" if low > 1 else ")"))
        need = action.price - treasury.cash
        if need > 0:
            pres = president(game, corp)
            state.players[pres].cash -= need
            treasury.cash += need
            game.event(Contributed(pres, need))
        treasury.cash -= action.price
        state.corporations[seller].cash += action.price
        owned.remove(bought)
        treasury.trains.append(bought)
        game.event(TrainBought(corp, action.train, action.price, seller))
        trains.after_first_of_type(game, bought)  # 1825: a minor's required train, never sold before
    op_state(game).trains_bought += 1
    game.after_train_bought(corp)


def _pay_for_train(game: Game, corp: str, price: int, *, from_depot: bool) -> None:
    treasury = game.state.corporations[corp]
    if price <= treasury.cash:
        treasury.cash -= price
        return
    if not must_buy_train(game, corp):
        raise IllegalOrderError(f"{corp} has {game.money(treasury.cash)}; the train costs {game.money(price)}")
    cheapest = trains.cheapest_offer_price(game)
    if cheapest is not None and price > cheapest:
        raise IllegalOrderError(f"with the president's money {corp} may buy only the cheapest train ({game.money(cheapest)})")
    pres = president(game, corp)
    need = price - treasury.cash
    player = game.state.players[pres]
    if player.cash < need:
        raise IllegalOrderError(
            f"{pres} has {game.money(player.cash)} but must add {game.money(need)}: sell shares first (SELL), or BANKRUPT"
        )
    player.cash -= need
    treasury.cash = 0
    game.event(Contributed(pres, need))


def emergency_sale(game: Game, player: str, corp: str, action: SellShares) -> None:
    """The president sells shares to raise money for a required train (1830 rules 6.7):
    no more than needed (one share fewer would not be enough), never so many of the
    operating corporation that its presidency changes; the corporations still to operate
    are then re-ordered by their new share prices. Where the title says
    ``emergency_sale_down_to_holding_limit`` (1870 as 18xx.games plays it), a player holding
    more than the 60% limit of a corporation sells at least down to the limit, and a sale
    to exactly the limit is allowed even if it raises more than needed."""
    if not must_buy_train(game, corp):
        raise IllegalOrderError("shares may be sold in an operating round only to buy a required train")
    state = game.state
    sym = action.corporation
    if sym in blocked_sales(game):
        raise IllegalOrderError(f"{sym} was sold for this train already: shares of one corporation are sold "
                                "in one lot a turn")
    if sym == corp and state.corporations[corp].president == player:
        remaining = state.percent_of(Owner.player(player), corp) - action.count * shares.share_percent(game.title, corp)
        others = max(state.percent_of(Owner.player(p), corp) for p in state.seats if p != player)
        if remaining < others:
            raise IllegalOrderError(f"{player} may not sell the presidency of {corp} to buy its train")
    cheapest = trains.cheapest_offer_price(game) or 0
    need = cheapest - state.corporations[corp].cash - state.players[player].cash
    if sym in state.corporations and state.corporations[sym].price is not None:
        price = shares.certificate_price(game.title, sym, shares.share_percent(game.title, sym),
                                         shares.current_price(state, game.title, sym))
        down_to_limit = False
        if game.title.settings.emergency_sale_down_to_holding_limit:
            limit = game.title.settings.max_percent_per_corporation
            held = state.percent_of(Owner.player(player), sym)
            after = held - action.count * shares.share_percent(game.title, sym)
            if held > limit and after > limit:
                raise IllegalOrderError(f"{player} holds {held}% of {sym}: a sale must bring it down "
                                        f"to {limit}% or less")
            down_to_limit = held > limit and after == limit
        if need <= 0 or ((action.count - 1) * price >= need and not down_to_limit):
            raise IllegalOrderError(f"{player} may sell only as many shares as needed for the train")
    sale_price = shares.certificate_price(game.title, sym, shares.share_percent(game.title, sym),
                                          shares.current_price(state, game.title, sym)) \
        if sym in state.corporations and state.corporations[sym].price is not None else None
    game.sell_shares(player, sym, action.count)
    op_state(game).sale_price = sale_price
    op_state(game).sold.append(sym)
    recalculate_order(game)


def blocked_sales(game: Game) -> list[str]:
    """The corporations whose shares the president may not sell again for this turn's train:
    those sold for it already, where the title sells shares in blocks (``must_sell_in_blocks``;
    1870, as 18xx.games holds its emergency sales and a bankrupt's to it)."""
    if game.state.round.operating is None or not game.title.settings.must_sell_in_blocks:
        return []
    return op_state(game).sold


def recalculate_order(game: Game) -> None:
    """Re-sort the corporations that have not operated yet in this round by share price."""
    op = op_state(game)
    rest = op.order[op.index + 1 :]
    order = [c for c in game.operating_order() if c in rest]
    op.order = op.order[: op.index + 1] + order
