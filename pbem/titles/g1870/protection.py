"""Price protection (1870 rules): a sale's price drop waits for the corporation's president.

When a player sells shares of a corporation — in a stock round, or to raise cash for a train
in an operating round — the price does not drop at once. The sale is queued
(``State1870.sell_queue``, oldest first) and the corporation's president as it stood
before the sale may buy the sold shares from the bank pool at the sale price; then the price
holds. Declined, or not possible, the drop follows (a row a share, 1870's ledge respected).

Not possible for the seller, for a president who sold that corporation earlier in the same
stock round (unless the title drops that bar: the "original price protection" option), for
one who cannot pay, or beyond the certificate limit where the shares count against it. A
president who sells and so hands the presidency on is the one asked, and as the seller may not
protect: the new president is not asked (reference fault 6). Protection is offered even when
the drop would reach a closing cell.

When the queue is settled is the round's business: in a stock round at the end of the seller's
turn (the protection is then the protector's turn), in an operating round at the end of the
operating corporation's turn (the operating round's ``PriceProtection`` step). The stock
round's part is here too (:func:`protect_in_stock_round`, :func:`decline_in_stock_round`,
:func:`settle_stock_round`), called by 1870's stock step (:mod:`pbem.titles.g1870.stock`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import market, shares
from pbem.engine.events import PriceMoved
from pbem.engine.state import POOL, Owner, ShareSale
from pbem.errors import IllegalOrderError
from pbem.titles.g1870.settings import settings1870
from pbem.titles.g1870 import market as ledge
from pbem.titles.g1870.events import NotProtected, PriceProtected
from pbem.titles.g1870.state import state1870

if TYPE_CHECKING:
    from pbem.engine.actions import BuyShares
    from pbem.engine.game import Game


def queue_sale(game: Game, sale: ShareSale) -> None:
    """Queue the drop of ``sale`` (its ``president`` is the one before the sale, the one to be
    asked)."""
    state1870(game.state).sell_queue.append(sale)


def queue(game: Game) -> list[ShareSale]:
    """The sales waiting for price protection, oldest first (the game's own list)."""
    return state1870(game.state).sell_queue


def head(game: Game) -> ShareSale:
    """The oldest queued sale. :raises IndexError: nothing is queued."""
    return state1870(game.state).sell_queue[0]


def possible(game: Game) -> bool:
    """Whether the oldest queued sale's president may protect its price now."""
    state, title = game.state, game.title
    entry = head(game)
    protector = entry.president
    sym, count = entry.corporation, entry.count
    if protector is None or protector == entry.seller or protector not in state.players:
        return False
    sr = state.round.stock
    if sr is not None and settings1870(title).price_protection_barred_if_president_sold_this_round \
            and sym in sr.sold.get(protector, []):
        return False
    if state.players[protector].cash < entry.price * count:
        return False
    if shares.counts_for_limit(state, title, sym) and (
        shares.certificate_count(state, title, protector, uncounted=()) + count
        > shares.certificate_limit(state, title)
    ):
        return False
    return True


def protect(game: Game, player: str, action: BuyShares) -> None:
    """``player`` buys the oldest queued sale's shares from the pool at the sale price; the
    price holds.

    :raises IllegalOrderError: the order does not name exactly those shares, or protection is
        not possible (see :func:`possible`).
    """
    state = game.state
    entry = head(game)
    sym, count, price = entry.corporation, entry.count, entry.price
    if action.corporation != sym or action.source != "pool" or action.count != count:
        raise IllegalOrderError(f"to protect the price, buy the {count} {sym} share(s) from the pool "
                                f"(BUY {count} {sym} POOL), or PASS")
    if player != entry.president or not possible(game):
        raise IllegalOrderError(f"{player} cannot protect the price of {sym}")
    for cert in shares.pick_certificates(state, POOL, sym, count):
        cert.owner = Owner.player(player)
    state.players[player].cash -= price * count
    state.bank += price * count
    queue(game).pop(0)
    game.event(PriceProtected(player, count, sym, price * count))
    shares.update_president(state, game.title, sym, game.pending_events)


def decline(game: Game, *, forced: bool) -> None:
    """The oldest queued sale's drop happens: a row a share, except that the first share does
    not push the price into a cell marked ``i`` below it (1870's ledge)."""
    state, title = game.state, game.title
    entry = queue(game).pop(0)
    sym, count = entry.corporation, entry.count
    corp = state.corporations[sym]
    before = corp.price
    assert before is not None
    coord = ledge.dropped(title, before, count, game.hooks.stock.down)
    who = entry.president or "nobody"
    game.event(NotProtected(who, count, sym, forced))
    if market.move(state, title, sym, coord):
        game.event(PriceMoved(sym, market.price_at(title, before), market.price_at(title, coord), "falls"))


def settle(game: Game) -> bool:
    """Drop the prices of queued sales that cannot be protected, oldest first, until one can;
    True while a president must decide."""
    while queue(game):
        if possible(game):
            return True
        decline(game, forced=True)
    return False


# -- the stock round's part ------------------------------------------------------------------


def protect_in_stock_round(game: Game, player: str, action: BuyShares) -> None:
    """The stock round's price protection (:func:`protect`): it is the protector's turn, and
    play goes on after them."""
    mine = state1870(game.state)
    protect(game, player, action)
    mine.protecting = False
    mine.protector = player


def decline_in_stock_round(game: Game, *, forced: bool) -> None:
    """The stock round's declined protection (:func:`decline`)."""
    decline(game, forced=forced)
    state1870(game.state).protecting = False


def settle_stock_round(game: Game) -> bool:
    """Offer price protection for the queued sales in turn, dropping prices where it cannot
    be offered; True while a president must decide."""
    mine = state1870(game.state)
    mine.protecting = settle(game)
    return mine.protecting


def resume_after_protection(game: Game) -> bool:
    """After a stock-round action: if a player has just protected, the turn moves to them
    (their protection was their turn; play goes on after them) and False; else whether a
    president is still deciding (True: the game waits)."""
    mine = state1870(game.state)
    if mine.protector is not None:
        state = game.state
        protector, mine.protector = mine.protector, None
        state.players[protector].passed = False
        state.round.entity_index = state.order.index(protector)
        sr = state.round.stock
        assert sr is not None, "not in a stock round"
        sr.turn_actions = []
        game.turn_over = True
        return False
    return mine.protecting
