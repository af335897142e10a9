"""The one legal-move API: what the player to act may do now, each action with what the
engine knows of it (a price range, the most shares one sale may sell, a run's revenue, a
token's cost), from the steps' own checks. The report's "you may", HELP and the refusals
of a mail all read it; nothing here is checked by applying an action to a copy.

Pure functions of the game (no vocabulary, no text but the steps' descriptions).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from pbem.engine import routes, shares
from pbem.engine.abilities import ExchangeForShare
from pbem.engine.actions import (
    Action, Bid, BuyPrivate, BuyTrain, Dividend, Exchange, PlaceToken, RunAuto, RunRoutes, SellShares,
)
from pbem.engine.state import IPO, POOL, Owner, RoundKind
from pbem.engine.step import Step
from pbem.engine.steps import auction, operating
from pbem.engine.steps.stock import BuySellParShares

if TYPE_CHECKING:
    from pbem.engine.game import Game


@dataclass(frozen=True)
class LegalOffer:
    """``action``, legal for the player to act now, taken by ``step`` (an operating step,
    the round's step, or None for an exchange, taken at any time). What else is known:
    ``low``/``high``, the prices (money) the action may name (a bid: the least bid and the
    most the bidder may bid; a private or another corporation's train bought by a
    corporation, or another player's private bought in a stock round: its range); ``most``, the most shares one sale of this kind may sell;
    ``revenue`` of a run or of the dividend due, with ``proven`` False where the search for
    the best run stopped at its budget; ``cost`` of a token."""

    action: Action
    step: type[Step] | type[operating.OpStep] | None
    low: int | None = None
    high: int | None = None
    most: int = 1
    revenue: int | None = None
    proven: bool = True
    cost: int | None = None


def legal_offers(game: Game, player: str,
                 route_budget: int = routes.DEFAULT_SEARCH_BUDGET) -> tuple[LegalOffer, ...]:
    """Every action ``player`` may give now (empty if it is not their turn), in the engine's
    order (:meth:`Game.legal_actions`; in an operating round
    :func:`~pbem.engine.steps.operating.legal_moves`), each with its known values. The run
    of the step asked for is offered as the best run found (``RunRoutes``, or no runs where
    none is found) before ``RUN AUTO``; in an auction or stock round, each private ``player`` may exchange
    for a share (:func:`exchange_problem`) follows."""
    if player not in game.current_actors() or game.state.finished:
        return ()
    if game.state.round.kind == RoundKind.OPERATING:
        return tuple(_operating(game, player, route_budget))
    step = game.active_step()
    found = [_valued(game, player, LegalOffer(action, step)) for action in game.legal_actions(player)]
    found += [LegalOffer(Exchange(sym), None) for sym in game.state.players[player].companies
              if game.title.company(sym).ability(ExchangeForShare) is not None
              and exchange_problem(game, player, Exchange(sym)) is None]
    return tuple(found)


def _operating(game: Game, player: str, route_budget: int) -> list[LegalOffer]:
    out: list[LegalOffer] = []
    asked = operating.active_steps(game)[0]
    for step, action in operating.legal_moves(game, player):
        offer = _valued(game, player, LegalOffer(action, step))
        if isinstance(action, RunAuto) and step is asked:  # a later step's run is searched when due
            corp, must_join = routes.run_due(game)
            best = routes.cached_best_run(game, corp, route_budget, must_join)
            run = best.action(game) if best.runs else RunRoutes(())
            out.append(LegalOffer(run, step, revenue=best.revenue, proven=best.complete))
            if not best.runs:
                continue  # RUN AUTO would be refused: there is no run to find
        out.append(offer)
    return out


def _valued(game: Game, player: str, offer: LegalOffer) -> LegalOffer:
    """``offer`` with what the engine knows of its action."""
    action, step = offer.action, offer.step
    if isinstance(action, Bid):
        return replace(offer, low=action.price, high=auction.max_bid(game, player, action.company))
    if isinstance(action, BuyPrivate) and game.state.round.kind == RoundKind.OPERATING:
        low, high = operating.price_range(game, action.company)
        return replace(offer, low=low, high=high)
    if isinstance(action, BuyPrivate) and action.price is not None:  # another player's, in a stock round
        return replace(offer, low=1, high=game.state.players[player].cash)
    if isinstance(action, BuyPrivate):
        return replace(offer, low=auction.min_price(game, action.company))
    if isinstance(action, BuyTrain) and action.source not in ("depot", "pool"):
        cash = game.state.corporations[operating.current_corp(game)].cash
        return replace(offer, low=1, high=max(cash, 1))
    if isinstance(action, SellShares) and step is not None and issubclass(step, BuySellParShares):
        return replace(offer, most=largest_sale(game, player, action.corporation, step))
    if isinstance(action, PlaceToken) and step is not None and not issubclass(step, operating.PendingToken):
        return replace(offer, cost=operating.next_token_cost(game, operating.current_corp(game)))
    if isinstance(action, Dividend) and step is not None and issubclass(step, operating.OpStep):
        return replace(offer, revenue=step.revenue(game))
    return offer


def largest_sale(game: Game, player: str, sym: str, step: type[BuySellParShares]) -> int:
    """The most shares of ``sym`` ``player`` may sell at once now in ``step`` (its own
    check, :meth:`BuySellParShares.sale_problem`), 0 if none."""
    unit = shares.share_percent(game.title, sym)
    held = game.state.percent_of(Owner.player(player), sym) // unit if unit else 0
    return next((n for n in range(held, 0, -1) if step.sale_problem(game, player, sym, n) is None), 0)


def exchange_problem(game: Game, player: str, action: Exchange) -> str | None:
    """Why ``player`` may not exchange the private ``action.company`` for a share of its
    corporation now, or None (1830: the MH for an NYC share, at any time): the owner, the
    ability, where the share comes from, a share there, and the holding limit."""
    state, title = game.state, game.title
    company = state.companies.get(action.company)
    if company is None or company.closed or company.owner != Owner.player(player):
        return f"{player} does not own the private company {action.company}"
    ability = title.company(action.company).ability(ExchangeForShare)
    if ability is None:
        return f"{action.company} cannot be exchanged"
    sym = ability.corporation
    if action.source not in ability.from_:
        return f"{action.company} is exchanged from the {' or '.join(ability.from_)}"
    source = IPO if action.source == "ipo" else POOL
    certs = shares.pick_certificates(state, source, sym, 1)
    if not certs:
        return f"there is no {sym} share in the {'IPO' if source == IPO else 'bank pool'}"
    if not shares.holding_ok(state, title, player, sym, certs[0].percent):
        return f"{player} may not hold more than {title.settings.max_percent_per_corporation}% of {sym}"
    return None
