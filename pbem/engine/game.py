"""The game: title data plus state, and the one entry point that changes it, :meth:`Game.apply`.

No I/O here: the engine never touches mail, files or templates. A round is an ordered list of
steps named in the title's ``game.yaml`` (``round_steps``); the first active step takes the
action through its ``{ActionType: handler}`` table. After each action the game advances:
players with nothing legal to do are passed, finished rounds give way to the next.
"""

from __future__ import annotations

from typing import Iterable

from pbem.engine import market, shares
from pbem.engine.actions import Action
from pbem.engine.state import (
    CompanyState,
    CorporationState,
    GameState,
    PlayerState,
    RoundState,
    StockRoundState,
)
from pbem.engine.step import Step
from pbem.engine.steps.auction import PendingPar, WaterfallAuction, new_auction_state
from pbem.engine.steps.stock import BuySellParShares, end_turn, finish_stock_round
from pbem.engine.title import TitleData
from pbem.errors import IllegalOrderError

STEP_TYPES: dict[str, type[Step]] = {
    cls.name: cls for cls in (PendingPar, WaterfallAuction, BuySellParShares)
}
"""Every step the engine knows, by the name the title data uses."""

ROUND_NAMES = {"auction": "Private auction", "stock": "Stock round", "operating": "Operating round"}


def new_state(title: TitleData, players: list[str]) -> GameState:
    """The state before the first action: cash dealt, privates unsold, shares in the IPO.

    :raises ValueError: a player count the title does not allow, or duplicate names.
    """
    if not title.min_players <= len(players) <= title.max_players:
        raise ValueError(
            f"{title.title} takes {title.min_players} to {title.max_players} players, not {len(players)}"
        )
    if len(set(players)) != len(players):
        raise ValueError("player names must be distinct")
    cash = title.starting_cash[len(players)]
    return GameState(
        seats=list(players),
        order=list(players),
        players={p: PlayerState(name=p, cash=cash) for p in players},
        bank=title.bank_cash - cash * len(players),
        corporations={c.sym: CorporationState(sym=c.sym) for c in title.corporations},
        companies={c.sym: CompanyState(sym=c.sym) for c in title.companies},
        certificates=shares.new_certificates(title),
        market={},
        round=RoundState(kind="auction"),
    )


class Game:
    """One game of one title: apply actions, ask who acts and what is legal.

    :param title: the title's data with its variants.
    :param players: seat names in seating order (the first holds the priority deal).
    """

    def __init__(self, title: TitleData, players: list[str]) -> None:
        self.title = title
        self.state = new_state(title, players)
        self.pending_events: list[str] = []
        self.turn_over = False
        self.state.round.auction = new_auction_state(self)

    # -- small helpers used by the steps --------------------------------------------------

    def money(self, amount: int) -> str:
        """Format ``amount`` in the title's currency."""
        return self.title.format_money(amount)

    def event(self, text: str) -> None:
        """Record one line of what happened (shown in the turn report)."""
        self.pending_events.append(text)

    def next_entity_index(self) -> None:
        """Move the turn to the next player in priority order."""
        self.state.round.entity_index = (self.state.round.entity_index + 1) % len(self.state.order)

    def payout_companies(self) -> None:
        """Each owned private pays its revenue from the bank to its owner (1830 rules 6.1)."""
        for sym, company in self.state.companies.items():
            if company.owner is None or company.closed:
                continue
            revenue = self.title.company(sym).revenue
            if company.owner in self.state.players:
                self.state.players[company.owner].cash += revenue
            else:
                self.state.corporations[company.owner[2:]].cash += revenue
            self.state.bank -= revenue
            self.event(f"{company.owner} collects {self.money(revenue)} from {sym}")

    # -- queries -------------------------------------------------------------------------

    def steps(self) -> list[type[Step]]:
        """The current round's steps, in order."""
        names = self.title.round_steps.get(self.state.round.kind, ())
        return [STEP_TYPES[n] for n in names]

    def active_step(self) -> type[Step] | None:
        """The first active step of the current round, or None."""
        if self.state.finished:
            return None
        return next((s for s in self.steps() if s.active(self)), None)

    def current_actors(self) -> list[str]:
        """The players who may act now (empty when the game waits for something we do not
        support yet, or has ended)."""
        step = self.active_step()
        return step.actors(self) if step else []

    def round_label(self) -> str:
        """``"Private auction"``, ``"SR 2"``, ``"OR 1.2"``."""
        rnd = self.state.round
        if rnd.kind == "stock":
            return f"SR {rnd.number}"
        if rnd.kind == "operating":
            return f"OR {rnd.number}.{rnd.or_number}"
        return ROUND_NAMES.get(rnd.kind, rnd.kind)

    def waiting_for(self) -> str:
        """One line: who must act and what for (``"Player 2: bid on the private companies"``)."""
        if self.state.finished:
            return f"The game is over ({self.state.end_reason})."
        step = self.active_step()
        if step is None:
            return f"{self.round_label()}: this server does not yet run this round."
        return f"{', '.join(step.actors(self))}: {step.description}"

    def legal_actions(self, player: str) -> list[Action]:
        """Every legal action for ``player`` now (bids at their minimum), [] if not their turn."""
        step = self.active_step()
        if step is None or player not in step.actors(self):
            return []
        return list(step.legal_actions(self, player))

    # -- the one way to change the game --------------------------------------------------

    def apply(self, player: str, action: Action) -> list[str]:
        """Apply ``action`` by ``player`` and advance the game; returns what happened.

        All or nothing: on error the state is unchanged.

        :raises IllegalOrderError: not this player's turn, or the rules forbid the action.
        """
        if player not in self.state.players:
            raise IllegalOrderError(f"{player!r} is not a player in this game")
        step = self.active_step()
        if step is None:
            raise IllegalOrderError(self.waiting_for())
        actors = step.actors(self)
        if player not in actors:
            raise IllegalOrderError(f"it is not {player}'s turn: waiting for {self.waiting_for()}")
        handler = step.handlers.get(type(action))
        if handler is None:
            raise IllegalOrderError(
                f"{action.kind.replace('_', ' ')} is not possible now; {player} may {step.description}"
            )
        backup = self.state.copy()
        self.pending_events = []
        self.turn_over = False
        try:
            handler(self, player, action)
            self._advance(player)
        except Exception:
            self.state.__dict__.update(backup.__dict__)  # same object: callers keep their reference
            raise
        events, self.pending_events = self.pending_events, []
        return events

    # -- advancing -----------------------------------------------------------------------

    def _advance(self, player: str) -> None:
        kind = self.state.round.kind
        if kind == "auction":
            if self.active_step() is None:
                self._start_stock_round()
        elif kind == "stock":
            if not self.turn_over and not BuySellParShares.legal_actions(self, player):
                end_turn(self, player)
            if self.turn_over:
                self._next_stock_turn()

    def _rotate_priority(self) -> None:
        """The player at the round's entity index gets the priority deal."""
        order = self.state.order
        idx = self.state.round.entity_index % len(order)
        self.state.order = order[idx:] + order[:idx]
        self.event(f"{self.state.order[0]} has priority deal")

    def _start_stock_round(self, number: int = 1) -> None:
        self._rotate_priority()
        for p in self.state.players.values():
            p.passed = False
        self.state.round = RoundState(kind="stock", number=number, stock=StockRoundState())
        self.event(f"-- {self.round_label()} --")
        self._skip_stock_turns()

    def _skip_stock_turns(self) -> None:
        """Pass players who have nothing legal to do, from the current one on."""
        while True:
            current = self.state.order[self.state.round.entity_index]
            if BuySellParShares.legal_actions(self, current):
                return
            self.event(f"{current} has no valid actions and passes")
            end_turn(self, current)
            if self._stock_round_over():
                self._finish_stock_round()
                return
            self.next_entity_index()

    def _stock_round_over(self) -> bool:
        return all(self.state.players[p].passed for p in self.state.order)

    def _next_stock_turn(self) -> None:
        if self._stock_round_over():
            self._finish_stock_round()
            return
        self.next_entity_index()
        self._skip_stock_turns()

    def _finish_stock_round(self) -> None:
        self.next_entity_index()
        finish_stock_round(self)
        self._rotate_priority()
        number = self.state.round.number
        for p in self.state.players.values():
            p.passed = False
        self.state.round = RoundState(kind="operating", number=number, or_number=1)
        self.event(f"-- {self.round_label()} --")

    # -- reading -------------------------------------------------------------------------

    def share_price(self, sym: str) -> int | None:
        """Current share price of ``sym`` or None before par."""
        coord = self.state.corporations[sym].price
        return market.price_at(self.title, coord) if coord else None

    def player_value(self, player: str) -> int:
        """Cash plus shares at market price plus privates at face value (the final score)."""
        state = self.state
        total = state.players[player].cash
        for cert in state.certificates:
            if cert.owner == player:
                price = self.share_price(cert.corporation) or 0
                total += price * cert.percent // shares.share_percent(self.title, cert.corporation)
        total += sum(self.title.company(c).value for c in state.players[player].companies)
        return total

    def iter_players(self) -> Iterable[str]:
        """Players in seating order."""
        return iter(self.state.seats)
