"""Price protection (1870 rules): a sale's price drop waits for the corporation's president.

When a player sells shares of a corporation — in a stock round, or to raise cash for a train
in an operating round — the price does not drop at once. The sale is queued
(:attr:`GameState.sell_queue`, oldest first) and the corporation's president as it stood
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
operating corporation's turn (``pbem.engine.steps.operating.PriceProtection``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine import market, shares
from pbem.engine.state import POOL
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.actions import BuyShares
    from pbem.engine.game import Game


def queue_sale(game: Game, sym: str, count: int, seller: str, president: str | None, price: int) -> None:
    """Queue the drop of a sale of ``count`` shares of ``sym`` by ``seller`` at ``price`` each;
    ``president`` is the president before the sale (the one to be asked)."""
    game.state.sell_queue.append({"corporation": sym, "count": count, "seller": seller,
                                  "president": president, "price": price})


def head(game: Game) -> dict[str, Any]:
    """The oldest queued sale. :raises IndexError: nothing is queued."""
    return game.state.sell_queue[0]


def possible(game: Game) -> bool:
    """Whether the oldest queued sale's president may protect its price now."""
    state, title = game.state, game.title
    entry = head(game)
    protector = entry["president"]
    sym, count = entry["corporation"], int(entry["count"])
    if protector is None or protector == entry["seller"] or protector not in state.players:
        return False
    sr = state.round.stock
    if sr is not None and title.const("price_protection_barred_if_president_sold_this_round", True) \
            and sym in sr.sold.get(protector, []):
        return False
    if state.players[protector].cash < int(entry["price"]) * count:
        return False
    if shares.counts_for_limit(state, title, sym) and (
        shares.certificate_count(state, title, protector, protecting=True) + count
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
    sym, count, price = entry["corporation"], int(entry["count"]), int(entry["price"])
    if action.corporation != sym or action.source != "pool" or action.count != count:
        raise IllegalOrderError(f"to protect the price, buy the {count} {sym} share(s) from the pool "
                                f"(BUY {count} {sym} POOL), or PASS")
    if player != entry["president"] or not possible(game):
        raise IllegalOrderError(f"{player} cannot protect the price of {sym}")
    for cert in shares.pick_certificates(state, POOL, sym, count):
        cert.owner = player
    state.players[player].cash -= price * count
    state.bank += price * count
    state.sell_queue.pop(0)
    game.event(f"{player} price protects {count} share{'s' if count > 1 else ''} of {sym} for {game.money(price * count)}")
    shares.update_president(state, game.title, sym, game.pending_events)


def decline(game: Game, *, forced: bool) -> None:
    """The oldest queued sale's drop happens: a row a share, except that the first share does
    not push the price into a cell marked ``i`` below it (1870's ledge)."""
    state, title = game.state, game.title
    entry = state.sell_queue.pop(0)
    sym, count = entry["corporation"], int(entry["count"])
    corp = state.corporations[sym]
    before = corp.price
    assert before is not None
    coord = market.dropped(title, before, count, game.hooks.down)
    who = entry["president"] or "nobody"
    game.event(f"{who} {'can' + chr(39) + 't' if forced else 'does not'} price protect {count} share"
               f"{'s' if count > 1 else ''} of {sym}")
    if market.move(state, title, sym, coord):
        game.event(f"{sym}'s share price falls from {game.money(market.price_at(title, before))} "
                   f"to {game.money(market.price_at(title, coord))}")


def settle(game: Game) -> bool:
    """Drop the prices of queued sales that cannot be protected, oldest first, until one can;
    True while a president must decide."""
    while game.state.sell_queue:
        if possible(game):
            return True
        decline(game, forced=True)
    return False
