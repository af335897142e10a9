"""Private companies sold between players in a stock round, where the title's
``private_trades`` setting allows it (1830 as 18xx.games plays it: phases 2 to 4 from the
second stock round; 1870: phases 2 and 3): the player on turn buys another player's private
at a price agreed with its owner, as the turn's one purchase. The owner's consent is the
mail's business (:mod:`pbem.engine.deals`); the engine checks what the rules check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import shares
from pbem.engine.abilities import NoBuy
from pbem.engine.actions import BuyPrivate
from pbem.engine.events import CompanyTraded
from pbem.engine.state import Owner, RoundKind
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


def trades_open(game: Game) -> bool:
    """Whether the title allows private sales between players in this round and phase."""
    rule = game.title.settings.private_trades
    rnd = game.state.round
    return (rnd.kind == RoundKind.STOCK and game.state.phase in rule.phases
            and rnd.number >= rule.from_stock_round)


def tradeable(game: Game, player: str) -> list[str]:
    """The private companies another player owns that ``player`` might buy now: open, not
    barred from sale (1830's B&O)."""
    return [sym for sym, company in game.state.companies.items()
            if not company.closed and company.owner is not None and company.owner.is_player
            and company.owner.name != player and game.title.company(sym).ability(NoBuy) is None]


def trade_problem(game: Game, player: str, company: str, price: int, bought: bool) -> str | None:
    """Why ``player``, on turn, may not buy private ``company`` from its owner for ``price``
    (money, at least 1, at most the buyer's cash) now, or None; ``bought``: the turn has
    made its purchase already. The buyer's certificates stay within the limit."""
    state, title = game.state, game.title
    if not trades_open(game):
        return f"private companies are not sold between players now ({game.round_label()}, phase {state.phase})"
    if company not in tradeable(game, player):
        return f"{company} is not another player's private company for sale"
    if bought:
        return f"{player} has already bought a certificate this turn"
    cash = state.players[player].cash
    if not 1 <= price <= cash:
        return f"{player} may pay {game.money(1)} to {game.money(cash)} for {company}"
    if title.settings.certificate_limit_includes_privates and \
            shares.certificate_count(state, title, player) >= shares.certificate_limit(state, title):
        return f"{player} is at the certificate limit of {shares.certificate_limit(state, title)}"
    return None


def trade_offers(game: Game, player: str, bought: bool) -> list[BuyPrivate]:
    """A purchase of each private ``player`` may buy now, at the least price (any price up to
    the buyer's cash is as legal)."""
    if not trades_open(game) or bought:
        return []
    return [BuyPrivate(sym, 1) for sym in tradeable(game, player)
            if trade_problem(game, player, sym, 1, bought) is None]


def price_missing(game: Game, player: str, company: str) -> str:
    """The refusal of ``BUY <private>`` with no price in a stock round: where another
    player's private may be bought now, the price to name; else that corporations buy
    privates in their operating turns (1870's ``BUY MKT``)."""
    where = (f"a corporation buys a private company in its operating turn (BUY {company} <price>, "
             "within the price range)")
    if trades_open(game) and company in tradeable(game, player):
        return f"name the price agreed with its owner: BUY {company} <price>; or {where}"
    return f"private companies are not sold in this stock round: {where}"


def trade(game: Game, player: str, action: BuyPrivate, bought: bool) -> None:
    """``player`` buys ``action.company`` from its owner for ``action.price``, announced.

    :raises IllegalOrderError: :func:`trade_problem` (or no price named)."""
    if action.price is None:
        raise IllegalOrderError(price_missing(game, player, action.company))
    problem = trade_problem(game, player, action.company, action.price, bought)
    if problem:
        raise IllegalOrderError(problem)
    state = game.state
    company = state.companies[action.company]
    assert company.owner is not None
    seller = company.owner.name
    state.players[player].cash -= action.price
    state.players[seller].cash += action.price
    state.players[seller].companies.remove(action.company)
    state.players[player].companies.append(action.company)
    company.owner = Owner.player(player)
    game.event(CompanyTraded(player, action.company, seller, action.price))
