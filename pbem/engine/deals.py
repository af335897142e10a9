"""Deals between different owners (issue 21: consent): a corporation buying a private from a
player who is not its president, a train from a corporation another player presides, or a
player buying another player's private in a stock round where the title allows it.
Such an order is an offer the other owner accepts or declines; this module says whose
consent an action needs and in which turn the offer stands. Pure functions of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.actions import Action, BuyPrivate, BuyTrain
from pbem.engine.state import RoundKind

if TYPE_CHECKING:
    from pbem.engine.game import Game

BANK_SOURCES = ("depot", "pool")
"""Where a train comes from the bank (no one's consent needed)."""


def counterparty(game: Game, player: str, action: Action) -> str | None:
    """The seat whose consent ``action`` by ``player`` needs, or None: the owner of the
    private a corporation buys (1830 rules 6.10: "at a price agreed with its owner"), or
    the president of the corporation whose train it buys (6.9: "at any price agreed"), where
    that seat is not ``player``; in a stock round, the owner of the private a player buys
    at a price (:mod:`pbem.engine.steps.private_trades`)."""
    kind = game.state.round.kind
    if kind == RoundKind.STOCK and isinstance(action, BuyPrivate) and action.price is not None:
        company = game.state.companies.get(action.company)
        owner = company.owner if company is not None else None
        return owner.name if owner is not None and owner.is_player and owner.name != player else None
    if kind != RoundKind.OPERATING:
        return None
    other: str | None = None
    if isinstance(action, BuyPrivate):
        company = game.state.companies.get(action.company)
        other = company.owner.player_name() if company is not None and company.owner is not None else None
    elif isinstance(action, BuyTrain) and action.source not in BANK_SOURCES:
        seller = game.state.corporations.get(action.source)
        other = seller.president if seller is not None else None
    return other if other is not None and other != player else None


def turn_key(game: Game) -> str:
    """The turn an offer stands in (``"OR 2.1 PRR"``, ``"SR 2 turn 5"``): an offer lapses
    when this changes."""
    sr = game.state.round.stock
    if game.state.round.kind == RoundKind.STOCK and sr is not None:
        return f"{game.round_label()} turn {sr.turns + 1}"
    return f"{game.round_label()} {game.operating_corporation() or ''}".strip()
