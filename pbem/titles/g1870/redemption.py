"""A corporation trading its own shares in a stock round (1870 rules: redemption and reissue).

Both are a corporation's action taken by its president as the president's whole turn:

* **redemption** — the corporation buys back one share a stock round into its treasury, where
  it is out of the market (not for sale) until reissued;
* **reissue** — once the treasury holds only redeemed shares, all of them are offered for sale
  again at a new par: the top-row price nearest three quarters of the current price (rounded
  up), or the old par if that is higher. From then on a share bought from the treasury pays
  the corporation (incremental capitalization) rather than the bank.

1870's stock step (:mod:`pbem.titles.g1870.stock`) offers and handles them. The title's
``game.yaml`` gives their limits (``share_redemption``: ``needs_operated``,
``max_treasury_shares_before``); an option may cap the new par (``share_reissue.max_price``,
1870's "$200 maximum reissue").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import market, shares
from pbem.engine.state import IPO, POOL, Certificate, Owner, StockRoundState
from pbem.errors import IllegalOrderError
from pbem.titles.g1870.settings import settings1870
from pbem.titles.g1870.events import ParChanged, Redeemed, Reissued
from pbem.titles.g1870.state import state1870

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.market import Coord
    from pbem.engine.title import TitleData


def _treasury(game: Game, sym: str) -> list[Certificate]:
    return [c for c in game.state.certificates if c.corporation == sym and c.owner == IPO]


def _presidency_problem(game: Game, player: str, sym: str) -> str | None:
    state = game.state
    if sym not in state.corporations or state.corporations[sym].president != player:
        return f"{player} is not the president of {sym}"
    return None


def redeem_problem(game: Game, sr: StockRoundState, player: str, sym: str, source: str) -> str | None:
    """Why ``player`` may not have ``sym`` redeem a share from ``source`` (``"pool"`` or a
    player's name) now, or None (1870 rules: redemption). The corporation must have operated,
    hold fewer than four of its shares, and pay the current price from its cash as it stood
    when the round first asked; the pool's share goes first; a president is spared only while
    holding as much as the most of the others."""
    state, title = game.state, game.title
    problem = _presidency_problem(game, player, sym)
    if problem:
        return problem
    if sr.turn_actions:
        return "a redemption is the whole turn: nothing else may come before it"
    corp = state.corporations[sym]
    rule = settings1870(title).share_redemption
    if rule.needs_operated and not corp.operated:
        return f"{sym} has not operated yet"
    if len(_treasury(game, sym)) > rule.max_treasury_shares_before:
        return f"{sym} holds four or more of its shares already"
    price = shares.current_price(state, title, sym)
    budget = state1870(state).redeem_cash.get(sym, corp.cash)
    if price > budget:
        return f"{sym} has {game.money(budget)} for redemptions this round; a share costs {game.money(price)}"
    if shares.pick_certificates(state, POOL, sym, 1):
        return None if source == "pool" else f"the bank pool holds a {sym} share: it must be redeemed first"
    if source not in state.players:
        return f"the pool holds no {sym} share: name the player (REDEEM {sym} FROM <player>)"
    holdings = {p: state.percent_of(Owner.player(p), sym) for p in state.seats}
    others_top = max((v for p, v in holdings.items() if p != player), default=0)
    if source == player and holdings[player] == others_top:
        # as 18xx.games plays it: the president is spared only when tied with the others' most
        return f"{player} holds as many {sym} shares as the most of the others and cannot be redeemed from"
    if not shares.pick_certificates(state, Owner.player(source), sym, 1):
        return f"{source} has no ordinary {sym} share"
    return None


def redeem_sources(game: Game, sr: StockRoundState, player: str, sym: str) -> list[str]:
    """Where ``sym`` (presided by ``player``) may redeem a share from now: ``["pool"]`` when the
    bank pool holds one, else the players it may buy from; empty when it may not redeem at all
    (1870 rules: redemption)."""
    if _presidency_problem(game, player, sym):
        return []
    return [source for source in ["pool", *game.state.seats]
            if redeem_problem(game, sr, player, sym, source) is None]


def redeem(game: Game, sr: StockRoundState, player: str, sym: str, source: str) -> None:
    """Redeem one share of ``sym`` from ``source`` (``"pool"`` or a player's name) at the
    current price (see :func:`redeem_problem`).

    :raises IllegalOrderError: the president may not have the corporation redeem, or not from
        ``source`` (with the reason).
    """
    problem = redeem_problem(game, sr, player, sym, source)
    if problem:
        raise IllegalOrderError(problem)
    state, title = game.state, game.title
    corp = state.corporations[sym]
    price = shares.current_price(state, title, sym)
    mine = state1870(state)
    mine.redeem_cash.setdefault(sym, corp.cash)
    pool = shares.pick_certificates(state, POOL, sym, 1)
    cert, payee = (pool[0], None) if pool else (shares.pick_certificates(state, Owner.player(source), sym, 1)[0], source)
    corp.cash -= price
    if payee is None:
        state.bank += price
    else:
        state.players[payee].cash += price
    cert.owner = IPO
    mine.redeemed.add((cert.corporation, cert.index))
    mine.redeem_cash[sym] = 0
    game.event(Redeemed(sym, player, cert.percent, payee, price))
    shares.update_president(state, title, sym, game.pending_events)


def reissue_par(title: TitleData, sym_par: Coord, price: int) -> Coord:
    """The par after a reissue: the top-row cell whose price is nearest ``price`` x 3/4 plus
    one (so an exact half-way case rounds up; the first such cell on a tie), capped by the
    title's ``share_reissue.max_price`` if any; the old par ``sym_par`` if its price is higher
    or equal (1870 rules: reissue)."""
    cap = settings1870(title).share_reissue.max_price
    top = [(0, col) for col, found in enumerate(title.market[0])
           if found is not None and (cap is None or found.price <= int(cap))]
    target = price * 3 / 4 + 1
    nearest = min(top, key=lambda coord: abs(target - market.price_at(title, coord)))
    if market.price_at(title, nearest) > market.price_at(title, sym_par):
        return nearest
    return sym_par


def reissue_problem(game: Game, sr: StockRoundState, player: str, sym: str) -> str | None:
    """Why ``player`` may not have ``sym`` reissue its redeemed shares now, or None. The
    treasury must hold redeemed shares and nothing else for sale, and the bank pool must have
    room for them (the platform's sale check)."""
    problem = _presidency_problem(game, player, sym)
    if problem:
        return problem
    held = _treasury(game, sym)
    mine = state1870(game.state)
    if not any(mine.withheld(c) for c in held):
        return f"{sym} has no redeemed shares to reissue"
    if not all(mine.withheld(c) for c in held):
        return f"{sym} still has shares for sale in its treasury"
    percent = sum(c.percent for c in held)
    if shares.pool_room(game.state, game.title, sym) < percent:
        return f"the bank pool may not hold more than {game.title.settings.pool_share_limit}% of {sym}"
    done = sr.turn_actions
    if "sell" in done and any(k in ("buy", "par") for k in done) and done[-1] in ("buy", "par"):
        return "this turn has sold and then bought: no more sales"
    return None


def reissue(game: Game, sr: StockRoundState, player: str, sym: str) -> None:
    """Reissue every redeemed share of ``sym``: they go on sale in its treasury at the new par
    (:func:`reissue_par`), and the corporation is paid for each share sold from now on.

    :raises IllegalOrderError: see :func:`reissue_problem`.
    """
    problem = reissue_problem(game, sr, player, sym)
    if problem:
        raise IllegalOrderError(problem)
    state, title = game.state, game.title
    corp = state.corporations[sym]
    assert corp.par is not None
    held = _treasury(game, sym)
    mine = state1870(state)
    for cert in held:
        mine.redeemed.discard((cert.corporation, cert.index))
    count = len(held)
    game.event(Reissued(sym, player, count))
    new_par = reissue_par(title, corp.par, shares.current_price(state, title, sym))
    if new_par != corp.par:
        corp.par = new_par
        game.event(ParChanged(sym, market.price_at(title, new_par)))
    mine.reissued.add(sym)
