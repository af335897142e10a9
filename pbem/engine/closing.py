"""Corporations closing on the stock market, and the market's own game end.

Both are read from the market's data, so any title whose market has such cells gets them
(1870 has closing cells, and its "$400 finish" option a game-end cell).

A corporation whose share price reaches a closing cell (zone letter ``c`` of
``market.yaml``) closes at once, whatever moved it there (a sale, a withheld dividend):

* its station tokens leave the map and its home is no longer held for it;
* its cash goes to the bank, its trains to the bank pool (``closed_corporation_trains``) and
  its private companies close;
* its certificates are gone, from players, the bank pool and its treasury alike (worth
  nothing), and its marker leaves the market;
* it no longer operates: the rest of its turn is lost, and a later turn in this operating
  round is skipped; the title drops what its own state holds for it
  (``RoundSequence.corporation_closed``; 1870: a price protection, a connection run owed);
* the certificate limit is then read from the table for fewer corporations
  (``shares.certificate_limit``).

A price reaching a cell of zone ``e`` (1870's "$400 finish" option) ends the game at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from pbem.engine import market
from pbem.engine.events import CorporationClosed, OwnedPrivatesClosed, TrainsRemoved
from pbem.engine.values import Owner

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.market import Coord


def close_corporation(game: Game, sym: str) -> None:
    """Close ``sym`` now (see the module text for what that takes away)."""
    state, title = game.state, game.title
    corp = state.corporations[sym]
    game.event(CorporationClosed(sym))
    for key in list(state.tokens):
        corps = [c for c in state.tokens[key] if c != sym]
        if corps:
            state.tokens[key] = corps
        else:
            del state.tokens[key]
    state.bank += corp.cash
    corp.cash = 0
    if corp.trains:
        kinds = tuple(t.kind for t in corp.trains)
        if title.settings.closed_corporation_trains == "to_pool":
            state.pool_trains.extend(corp.trains)
            game.event(TrainsRemoved(sym, kinds, to_pool=True))
        else:
            game.event(TrainsRemoved(sym, kinds, to_pool=False))
        corp.trains = []
    owned = [c for c, company in state.companies.items() if company.owner == Owner.corporation(sym) and not company.closed]
    for company in owned:
        game.close_company(company)
    if owned:
        game.event(OwnedPrivatesClosed(sym, tuple(owned)))
    state.certificates = [c for c in state.certificates if c.corporation != sym]
    if corp.price is not None and sym in state.market.get(corp.price, []):
        state.market[corp.price].remove(sym)
    corp.price = None
    corp.president = None
    corp.closed = True
    game.hooks.sequence.corporation_closed(game, sym)


def special_cells(game: Game) -> frozenset[Coord]:
    """The market's closing and game-end cells (fixed by the title; worked out once a game
    and kept in ``game.cache``)."""
    cached = game.cache.get("special_market_cells")
    if cached is None:
        cells = frozenset((r, c) for r, row in enumerate(game.title.market) for c, found in enumerate(row)
                          if found is not None and (found.closes or found.ends_game))
        cached = (None, cells)
        game.cache["special_market_cells"] = cached
    return cast("frozenset[Coord]", cached[1])


def settle_market(game: Game) -> list[str]:
    """Close every open corporation whose price is in a closing cell, then end the game if a
    price is in a game-end cell; returns the corporations closed (after any action). Called
    after every action: with no price on such a cell it returns at once."""
    state, title = game.state, game.title
    special = special_cells(game)
    if not special or not any(corp.price in special for corp in state.corporations.values() if not corp.closed):
        return []
    closed: list[str] = []
    for sym, corp in state.corporations.items():
        found = market.cell(title, corp.price) if corp.price is not None and not corp.closed else None
        if found is not None and found.closes:
            close_corporation(game, sym)
            closed.append(sym)
    if not state.finished and any(
        (found := market.cell(title, corp.price)) is not None and found.ends_game
        for corp in state.corporations.values() if corp.price is not None and not corp.closed
    ):
        game.end_game("stock_market")
    return closed
