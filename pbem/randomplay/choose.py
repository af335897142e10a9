"""The candidate actions of a position and the policy that picks one.

Candidates come from the engine's one generator of legal moves (:meth:`Game.legal_actions`,
which in an operating round is :func:`pbem.engine.steps.operating.legal_moves`: the steps'
own checks, the legal-lay generator, the private companies' powers). Where that generator
lists one action for a choice that is infinite or large, the candidates add a bounded sample
that includes its edges, each marked as not listed (the driver sends it and a refusal is
then an ordinary answer, not a fault):

- a bid: the least bid, the most the bidder may bid, and amounts between;
- a sale of one share: two, three and four shares of the same corporation;
- a purchase of one share: two and three shares (where a title allows several at once);
- a train from another corporation: for 1, for the buyer's whole treasury, for the train's
  face value, and one amount between;
- a private company bought by a corporation: its least and highest price and one between;
- another player's private bought in a stock round: for 1, for the buyer's cash and one
  amount between;
- ``RUN AUTO``: the best run found (as a ``RUN`` line), the best run less one of its
  trains' routes, and ``RUN NONE``.

The policy (:func:`pick`) first draws a kind of action, weighted, then one action of that
kind uniformly, so that a kind with hundreds of lines (tile lays) does not crowd out the
rest. The weights bias the games to end: in stock rounds buying and starting corporations
weigh 5 and selling 1 against a pass's 1 (a pass 0.3 in the first three stock rounds), in
operating rounds tile lays and tokens weigh 4, trains 6, a pass 1; runs favour the best run
and RUN AUTO (4 each) over a random run (1) and RUN NONE (0.2); dividends pay out (3)
rather than withhold or pay half (1 each); a bid raising the bidder's own highest bid 0.02
(in a waterfall auction such bids can go on for ever while the owned privates pay), another
player's private 0.05 (each purchase keeps the round going; the kind of one that comes with a
share is told apart, which the agreement with 18xx.games leaves out); redemptions and reissues weigh 0.5, a discard,
an emergency sale and bankruptcy 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Mapping

from pbem.engine.state import RoundKind
from pbem.engine import routes
from pbem.engine.abilities import Shares
from pbem.engine.actions import (
    Action, Bid, BuyPrivate, BuyShares, BuyTrain, Dividend, RunAuto, RunRoutes, SellShares,
)
from pbem.engine.game import Game
from pbem.engine.steps import auction, operating


@dataclass(frozen=True)
class Candidate:
    """An action the driver may send: ``listed`` if the engine listed it as legal (a
    refusal is then a fault), else one of the bounded samples around a listed one."""

    action: Action
    listed: bool
    kind: str


def _kind(action: Action, game: Game | None = None, player: str = "") -> str:
    if isinstance(action, Dividend):
        return f"dividend_{action.choice}"
    if isinstance(action, BuyPrivate) and game is not None and game.state.round.kind == RoundKind.STOCK \
            and action.price is not None:
        return "trade_private_share" if game.title.company(action.company).ability(Shares) else "trade_private"
    auction_state = game.state.round.auction if game is not None else None
    if isinstance(action, Bid) and auction_state is not None:
        bids = auction_state.bids.get(action.company, [])
        if bids and max(bids, key=lambda bid: bid[1])[0] == player:
            return "raise_own_bid"
    return type(action).__name__


def _bids(game: Game, player: str, bid: Bid, rng: random.Random) -> list[Action]:
    """Bids on ``bid.company`` from the least to the most ``player`` may bid."""
    if game.state.round.auction is None:
        return []
    low = bid.price
    high = auction.max_bid(game, player, bid.company)
    if high <= low:
        return []
    step = game.title.settings.bid_increment
    amounts = {high, low + step, low + step * rng.randint(1, max(1, (high - low) // step))}
    return [Bid(bid.company, amount) for amount in sorted(amounts) if low < amount <= high]


def _train_prices(game: Game, corp: str, buy: BuyTrain, rng: random.Random) -> list[Action]:
    """A train from another corporation at the edges of its price and between (the legal
    range, with the president's money where the title's reading allows it, and the
    treasury's)."""
    from pbem.engine.steps.operating.buytrains import corporation_train_prices

    cash = game.state.corporations[corp].cash
    face = next((t.price for t in game.title.trains if t.name == buy.train), cash)
    amounts = {1, max(1, cash), face, rng.randint(1, max(1, cash))}
    legal = corporation_train_prices(game, corp, face)
    if legal is not None:
        amounts |= {legal[0], legal[1], rng.randint(*legal)}
    return [BuyTrain(buy.train, buy.source, amount, buy.exchange) for amount in sorted(amounts)
            if amount != buy.price]


def _private_prices(game: Game, buy: BuyPrivate, rng: random.Random) -> list[Action]:
    low, high = operating.price_range(game, buy.company)
    amounts = {low, high, rng.randint(low, max(low, high))}
    return [BuyPrivate(buy.company, amount) for amount in sorted(amounts) if amount != buy.price]


def _runs(game: Game) -> list[Action]:
    """The best run found, that run less one train's route, and no run."""
    out: list[Action] = [RunRoutes(())]
    try:
        corp, must_join = routes.run_due(game)
    except ValueError:
        return out
    found = routes.cached_best_run(game, corp, must_join=must_join)
    if found.runs:
        best = found.action(game)
        out.append(best)
        if len(best.runs) > 1:
            out.append(RunRoutes(best.runs[1:]))
    return out


def candidates(game: Game, player: str, rng: random.Random) -> list[Candidate]:
    """Every action the engine lists for ``player`` now, and the bounded samples around the
    ones whose values are open (the module's list); none that only the GM may give."""
    listed = [a for a in game.legal_actions(player) if not a.gm_only]
    # RUN AUTO stands for every run (Game.legal_actions), so it is listed even when no run
    # can be made: it is sent as a sample, whose refusal is an answer
    out = [Candidate(a, not isinstance(a, RunAuto), _kind(a, game, player)) for a in listed]
    extra: list[Action] = []
    corp = game.operating_corporation()
    for action in listed:
        if isinstance(action, Bid):
            extra += _bids(game, player, action, rng)
        elif isinstance(action, SellShares) and action.count == 1:
            extra += [SellShares(action.corporation, n) for n in (2, 3, 4)]
        elif isinstance(action, BuyShares) and action.count == 1:
            extra += [BuyShares(action.corporation, action.source, n) for n in (2, 3)]
        elif isinstance(action, BuyTrain) and corp is not None and action.source not in ("depot", "pool"):
            extra += _train_prices(game, corp, action, rng)
        elif isinstance(action, BuyPrivate) and corp is not None and game.state.round.kind == RoundKind.OPERATING:
            extra += _private_prices(game, action, rng)
        elif isinstance(action, BuyPrivate) and game.state.round.kind == RoundKind.STOCK and action.price is not None:
            cash = game.state.players[player].cash
            extra += [BuyPrivate(action.company, n) for n in sorted({cash, rng.randint(1, max(1, cash))}) if n > 1]
        elif isinstance(action, RunAuto):
            extra += _runs(game)
    seen = set(listed)
    for action in extra:
        if action not in seen:
            seen.add(action)
            kind = "random_run" if isinstance(action, RunRoutes) and action.runs else _kind(action, game, player)
            if isinstance(action, RunRoutes) and action.runs and action == _best(game, extra):
                kind = "best_run"
            out.append(Candidate(action, False, kind))
    return out


def _best(game: Game, extra: list[Action]) -> Action | None:
    runs = [a for a in extra if isinstance(a, RunRoutes) and a.runs]
    return runs[0] if runs else None


STOCK_WEIGHTS = {"BuyShares": 5.0, "Par": 5.0, "BuyPrivate": 5.0, "Bid": 5.0, "SellShares": 1.0, "Pass": 1.0,
                 "raise_own_bid": 0.02, "trade_private": 0.05, "trade_private_share": 0.05}
OPERATING_WEIGHTS = {
    "LayTile": 4.0, "PlaceToken": 4.0, "BuyTrain": 6.0, "Pass": 1.0, "RunAuto": 4.0, "best_run": 4.0,
    "random_run": 1.0, "RunRoutes": 0.2, "dividend_payout": 3.0, "dividend_withhold": 1.0, "dividend_half": 1.0,
    "DiscardTrain": 1.0, "SellShares": 1.0, "Bankrupt": 1.0, "BuyPrivate": 2.0,
}
OTHER_WEIGHT = 0.5
"""A kind of action not named above (a title's own: 1870's REDEEM and REISSUE, 1825's LEASE)."""


def weight(game: Game, kind: str, overrides: Mapping[str, float] | None = None) -> float:
    """The policy's weight of a kind of action now (see the module's text), unless
    ``overrides`` names the kind."""
    if overrides and kind in overrides:
        return overrides[kind]
    if game.state.round.kind == RoundKind.OPERATING:
        return OPERATING_WEIGHTS.get(kind, OTHER_WEIGHT)
    if kind == "Pass" and game.state.round.kind == RoundKind.STOCK and game.state.round.number <= 3:
        return 0.3
    return STOCK_WEIGHTS.get(kind, OTHER_WEIGHT)


def pick(game: Game, found: list[Candidate], rng: random.Random,
         overrides: Mapping[str, float] | None = None) -> Candidate:
    """One of ``found`` (not empty): a kind drawn by :func:`weight` (a kind weighing 0 is
    never drawn while another may be), then one of its candidates uniformly."""
    kinds = sorted({c.kind for c in found})
    weights = [weight(game, k, overrides) for k in kinds]
    if not any(weights):
        weights = [1.0] * len(kinds)
    kind = rng.choices(kinds, weights=weights)[0]
    return rng.choice([c for c in found if c.kind == kind])

