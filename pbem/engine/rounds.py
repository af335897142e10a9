"""Rounds: the auction (or a title's own start), the stock round and the operating round.

A round kind holds its steps, taken from the title (the data's ``round_steps`` and the hooks'
``stock_step`` and ``operating_steps``), and answers the same questions for every kind: who
acts (:meth:`Round.actors`), what is legal (:meth:`Round.legal_actions`), which handler takes
an action (:meth:`Round.handler_for`, the walk through the steps' ``{action type: handler}``
tables), how play moves on after an action (:meth:`Round.advance`) and what the round does
as it begins and ends. Which round follows a finished one is the title's
(:meth:`~pbem.engine.sequence.RoundSequence.next_round`; 1830: the auction, then stock rounds each
followed by the phase's number of operating rounds).

A round object keeps no game state (all of it is in ``game.state.round``), so one object per
kind serves a game and its copies.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from pbem.engine import closing
from pbem.engine.actions import Action
from pbem.engine.events import NoValidActions, PriorityDeal, RoundStarted
from pbem.engine.state import OperatingState, RoundKind, StockRoundState
from pbem.engine.step import Handler, Step
from pbem.engine.steps.operating import walk
from pbem.engine.steps.auction import PendingPar, WaterfallAuction
from pbem.engine.steps.stock import BuySellParShares, end_turn, finish_stock_round
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game

STEP_TYPES: dict[str, type[Step]] = {
    cls.name: cls for cls in (PendingPar, WaterfallAuction, BuySellParShares)
}
"""Every step of the core's auction and stock rounds, by the name the title data uses."""


class Round:
    """What every round kind answers; one object per kind and game (it keeps no state)."""

    settles_late: ClassVar[bool] = True
    """Whether the game settles the market once more after an action of this round has been
    followed to its end (a turn's end may drop prices: 1870's price protection), then asks
    :meth:`after_closing`. The operating walk settles as it goes."""

    def actors(self, game: Game) -> list[str]:
        """The players who may act now, in order of precedence."""
        raise NotImplementedError

    def legal_actions(self, game: Game, player: str) -> list[Action]:
        """Every legal action for ``player`` now ([] if it is not their turn)."""
        raise NotImplementedError

    def waiting_for(self, game: Game) -> str:
        """One line: who must act and what for."""
        raise NotImplementedError

    def handler_for(self, game: Game, player: str, action: Action) -> Handler:
        """The handler that takes ``action`` by ``player`` now (the walk through the steps).

        :raises IllegalOrderError: not this player's turn, or no step takes the action now.
        """
        raise NotImplementedError

    def process(self, game: Game, player: str, action: Action) -> None:
        """Apply ``action`` by ``player``: the handler :meth:`handler_for` finds takes it.

        :raises IllegalOrderError: as :meth:`handler_for`, or the handler refuses the action.
        """
        self.handler_for(game, player, action)(game, player, action)

    def begin(self, game: Game) -> bool:
        """Set up the round just entered (``game.state.round`` holds its kind and numbers);
        True if it is over at once (nobody has anything to do)."""
        raise NotImplementedError

    def advance(self, game: Game, player: str) -> bool:
        """After an action by ``player`` (the game not over): move the turn on within the
        round, passing whoever has nothing to do; True once the round is over."""
        raise NotImplementedError

    def after_closing(self, game: Game) -> bool:
        """A corporation closed on the market at the very end of an action: pass whoever it
        left with nothing to do; True if that ends the round. Default: nothing to do."""
        return False

    def finish(self, game: Game) -> None:
        """What the round does as it ends, before the next one begins (may end the game)."""


class StepRound(Round):
    """A round whose steps follow the core's :class:`~pbem.engine.step.Step` contract, named in
    the title data's ``round_steps`` for the round's kind: the first active step takes the
    action through its ``handlers`` table."""

    def __init__(self, steps: tuple[type[Step], ...]) -> None:
        self.steps = steps

    def active_step(self, game: Game) -> type[Step] | None:
        """The first active step, or None."""
        return next((s for s in self.steps if s.active(game)), None)

    def actors(self, game: Game) -> list[str]:
        step = self.active_step(game)
        return step.actors(game) if step else []

    def legal_actions(self, game: Game, player: str) -> list[Action]:
        step = self.active_step(game)
        if step is None or player not in step.actors(game):
            return []
        return list(step.legal_actions(game, player))

    def waiting_for(self, game: Game) -> str:
        step = self.active_step(game)
        if step is None:
            return f"{game.round_label()}: this server does not yet run this round."
        return f"{', '.join(step.actors(game))}: {step.description}"

    def handler_for(self, game: Game, player: str, action: Action) -> Handler:
        step = self.active_step(game)
        if step is None:
            raise IllegalOrderError(game.waiting_for())
        if player not in step.actors(game):
            raise IllegalOrderError(f"it is not {player}'s turn: waiting for {game.waiting_for()}")
        handler = step.handlers.get(type(action))
        if handler is None:
            raise IllegalOrderError(
                f"{action.spoken} is not possible now; {player} may {step.description}"
            )
        return handler


def rotate_priority(game: Game) -> None:
    """The player at the round's entity index gets the priority deal (1830: the player after
    the one who acted last)."""
    order = game.state.order
    idx = game.state.round.entity_index % len(order)
    game.state.order = order[idx:] + order[:idx]
    game.event(PriorityDeal(game.state.order[0]))


def _reset_passes(game: Game) -> None:
    for p in game.state.players.values():
        p.passed = False


class StartRound(StepRound):
    """The round the game begins with (1830: the private auction, rules 4.2; a title's own
    start kind runs its own steps the same way): over when no step is active; the player
    after the last to act then gets the priority deal."""

    def begin(self, game: Game) -> bool:
        return self.active_step(game) is None

    def advance(self, game: Game, player: str) -> bool:
        return self.active_step(game) is None

    def finish(self, game: Game) -> None:
        rotate_priority(game)


class StockRound(StepRound):
    """The stock round (1830 rules 5): players in priority order take turns in the title's
    stock step until all pass in succession; a player with nothing legal to do is passed.
    The stock step may interrupt the turn order (1870: a price protection decided by another
    player)."""

    def __init__(self, steps: tuple[type[Step], ...], stock_step: type[BuySellParShares]) -> None:
        super().__init__(steps)
        self.stock_step = stock_step

    def legal_actions(self, game: Game, player: str) -> list[Action]:
        found = super().legal_actions(game, player)
        step = self.active_step(game)
        if step is not None and issubclass(step, BuySellParShares) and found:
            found[-1:-1] = step.corporation_actions(game, player)  # before the PASS
        return found

    def begin(self, game: Game) -> bool:
        _reset_passes(game)
        if game.state.round.stock is None:
            game.state.round.stock = StockRoundState()
        game.hooks.sequence.new_stock_round(game)
        game.event(RoundStarted(game.round_label()))
        return self.skip_turns(game)

    def _over(self, game: Game) -> bool:
        return all(game.state.players[p].passed for p in game.state.order)

    def skip_turns(self, game: Game) -> bool:
        """Pass players who have nothing legal to do, from the current one on; True if the
        round is then over (everyone has passed)."""
        while True:
            current = game.state.order[game.state.round.entity_index]
            if self.stock_step.has_actions(game, current):
                return False
            game.event(NoValidActions(current))
            end_turn(game, current)
            if self._over(game):
                return True
            game.next_entity_index()

    def advance(self, game: Game, player: str) -> bool:
        step = self.stock_step
        if step.hold(game):
            return False  # a title's interruption (1870: a price protection) is being decided
        if not game.turn_over and not step.has_actions(game, player):
            end_turn(game, player)
        if not game.turn_over or step.before_next_turn(game):
            return False
        if self._over(game):
            return True
        game.next_entity_index()
        return self.skip_turns(game)

    def after_closing(self, game: Game) -> bool:
        if game.state.finished or self.stock_step.interrupted(game):
            return False
        return self.skip_turns(game)

    def finish(self, game: Game) -> None:
        """Sold-out corporations rise (1830 rules 5.3); the market may then end the game
        (1870's $400 finish); else the player after the last to act gets the priority deal."""
        game.next_entity_index()
        finish_stock_round(game)
        closing.settle_market(game)
        if game.state.finished:
            return
        rotate_priority(game)
        _reset_passes(game)


class OperatingRound(Round):
    """An operating round (1830 rules 6): each floated corporation in the title's operating
    order takes its turn through the title's operating steps
    (:mod:`pbem.engine.steps.operating.walk`). The first round of a set fixes how many the
    set has (the phase's ``operating_rounds``, 1830 rules 6)."""

    settles_late = False

    def actors(self, game: Game) -> list[str]:
        """The president the first active step waits for; never the receiver of a corporation
        without a president (:mod:`pbem.engine.receivership`), whose steps the game takes."""
        active = walk.active_steps(game)
        actor = active[0].actor(game) if active else None
        return [actor] if actor is not None and actor in game.state.players else []

    def legal_actions(self, game: Game, player: str) -> list[Action]:
        return walk.legal_actions(game, player)

    def waiting_for(self, game: Game) -> str:
        active = walk.active_steps(game)
        if not active:
            return f"{game.round_label()}: nothing to do"
        return f"{active[0].actor(game)} for {active[0].subject(game)}: {active[0].describe(game)}"

    def handler_for(self, game: Game, player: str, action: Action) -> Handler:
        return walk.handler_for(game, player, action)

    def begin(self, game: Game) -> bool:
        rnd = game.state.round
        if rnd.or_number == 1:
            game.state.operating_rounds = game.phase().operating_rounds
        rnd.operating = OperatingState(order=game.operating_order())
        game.hooks.sequence.new_operating_round(game)
        game.event(RoundStarted(game.round_label()))
        game.payout_companies()
        return walk.start_corporation_turns(game)

    def advance(self, game: Game, player: str) -> bool:
        return walk.advance(game)


def round_for(game: Game, kind: str) -> Round:
    """The round object of ``kind`` for ``game``'s title: ``"stock"``, ``"operating"``, or a
    start kind (1830: ``"auction"``) whose steps the title data's ``round_steps`` names (the
    core's steps, or the title's own from :meth:`~pbem.engine.sequence.RoundSequence.step_types`).

    :raises KeyError: a step name the engine does not know.
    """
    if kind == RoundKind.OPERATING:
        return OperatingRound()
    stock_step, own = game.hooks.sequence.stock_step(), game.hooks.sequence.step_types()
    steps = tuple(stock_step if n == BuySellParShares.name else own.get(n) or STEP_TYPES[n]
                  for n in game.title.round_steps.get(kind, ()))
    if kind == RoundKind.STOCK:
        return StockRound(steps, stock_step)
    return StartRound(steps)
