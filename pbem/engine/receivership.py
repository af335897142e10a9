"""Receivership: a corporation with no president is run by rules (issue 11, "receivership";
1825: a company whose Director's certificate lies in the bank pool is run by a receiver).

The core supplies the mechanism, the title the rules:

* a title that has receivership gives a :class:`ReceivershipPolicy` as
  ``TitleHooks.receivership`` (1830 has None: the president's certificate never reaches
  the pool, and a corporation always has a president once started);
* with a policy, a president who sells below the president's certificate while no other
  player can take it over sells it to the bank pool (:func:`pbem.engine.shares.sell_presidency_to_pool`);
  the corporation then has no president;
* in the operating round such a corporation's steps are taken by :data:`RECEIVER`, not a
  player: the walk (:func:`pbem.engine.steps.operating.walk.skip_inactive`) asks the policy
  for each step's action (:meth:`ReceivershipPolicy.action`) and applies it through the
  step's own ``process``, so nothing is checked twice; ``Game.current_actors`` is [] and
  the game goes on by itself;
* a player who comes to hold enough shares becomes president again, as the policy's
  :meth:`ReceivershipPolicy.new_president` says.

The receiver's actions are not logged: they follow from the log's actions by these rules
(RUN AUTO's search has a counted budget), so a replay takes them again exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import market, routes, shares, trains
from pbem.engine.actions import Action, BuyTrain, Dividend, Pass, RunAuto
from pbem.engine.events import Note
from pbem.engine.events.receivership import ReceiverPassed
from pbem.engine.steps.operating.base import RECEIVER, OpStep, mark_passed
from pbem.engine.steps.operating.buytrains import BuyTrainStep
from pbem.engine.steps.operating.dividends import DividendStep
from pbem.engine.values import DividendChoice, Owner
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.state import GameState
    from pbem.engine.title import TitleData

__all__ = ["RECEIVER", "ReceivershipPolicy", "in_receivership", "take_step"]


class ReceivershipPolicy:
    """How a title runs a corporation with no president. The base policy is a plain one that
    titles adjust by overriding a method: lay no track and place no token, run the best
    routes (RUN AUTO's search), withhold, buy the cheapest train the bank sells when the
    treasury can pay for it, buy no private company. A title with its own step (1825's
    lease of a train) answers for it in :meth:`action`."""

    def action(self, game: Game, step: type[OpStep], corp: str) -> Action | None:
        """What the receiver orders for ``corp`` at ``step`` (the first step of its turn
        that offers something), or None to pass the step. An action the step refuses is
        taken as a pass (the step is skipped, with a line in the report)."""
        if step.runs_trains:
            return RunAuto()
        if issubclass(step, DividendStep):
            return Dividend(self.dividend(game, corp))
        if issubclass(step, BuyTrainStep):
            return self.train(game, corp)
        return None

    def dividend(self, game: Game, corp: str) -> DividendChoice:
        """The receiver's dividend choice (one of the title's ``dividend_kinds``): withhold."""
        return DividendChoice.WITHHOLD

    def train(self, game: Game, corp: str) -> Action | None:
        """The receiver's train purchase: the cheapest train the bank (or pool) sells, if
        ``corp`` has room for it, can pay for it from its treasury and is not closing
        (:func:`closing`); else None."""
        treasury = game.state.corporations[corp]
        if len(treasury.trains) >= trains.train_limit(game) or closing(game, corp):
            return None
        offer = sorted(trains.depot_offer(game), key=lambda t: trains.train_data(game.title, t).price)
        for train_id in offer:
            data = trains.train_data(game.title, train_id)
            if data.price <= treasury.cash:
                source = "pool" if train_id in game.state.pool_trains else "depot"
                return BuyTrain(data.name, source)
        return None

    def new_president(self, state: GameState, title: TitleData, sym: str) -> str | None:
        """Who becomes president of ``sym``, now without one, or None: the player holding
        the most of it, if that is at least the president's certificate's worth; on a tie,
        the first of them in priority order (1825: whoever buys the Director's worth of
        shares takes the Director's certificate from the pool)."""
        need = shares.president_percent(title, sym)
        holdings = {p: state.percent_of(Owner.player(p), sym) for p in state.order}
        top = max(holdings.values(), default=0)
        if top < need:
            return None
        return next(p for p in state.order if holdings[p] == top)


def closing(game: Game, corp: str) -> bool:
    """Whether ``corp``'s share price stands on a closing space (it closes as its turn ends,
    so the receiver buys it no train; 18xx.games removes it at once)."""
    price = game.state.corporations[corp].price
    found = market.cell(game.title, price) if price is not None else None
    return found is not None and found.closes


def in_receivership(game: Game, corp: str) -> bool:
    """Whether ``corp`` is run by the receiver: started, open, without a president, in a
    title that has receivership."""
    state = game.state.corporations[corp]
    return (state.ipoed and not state.closed and state.president is None
            and game.hooks.receivership is not None)


def take_step(game: Game, step: type[OpStep]) -> None:
    """The receiver takes ``step`` (the first step that offers something, the receiver's):
    the policy's action for the step's corporation goes through the step's own ``process``
    (``RUN AUTO`` resolved by the counted search first). When the policy passes, the step's
    own PASS is given, or, for a step that takes none (a lifted token to place again, a
    train over the limit), the first of the step's candidates it accepts. When nothing is
    accepted the step is passed, with a line for the report.

    :raises RuntimeError: the title has no receivership policy (a corporation without a
        president in a title that cannot have one).
    """
    policy = game.hooks.receivership
    if policy is None:
        raise RuntimeError("a corporation without a president in a title without receivership")
    corp = step.subject(game)
    chosen = policy.action(game, step, corp)
    if chosen is not None:
        tries: list[Action] = [chosen]
    elif Pass in step.takes:
        tries = [Pass()]  # the step's own pass, with its own line
    else:
        tries = list(step.candidates(game, RECEIVER))
    for action in tries:
        if _taken(game, step, action):
            return
    step.skip(game)
    mark_passed(game, step)
    game.event(ReceiverPassed(corp, step.name))


def _taken(game: Game, step: type[OpStep], action: Action) -> bool:
    """Apply ``action`` to ``step`` for the receiver; on a refusal undo it and say False."""
    backup = game.state.copy()
    events = len(game.pending_events)
    try:
        if isinstance(action, RunAuto):
            action, notes = routes.resolve_auto(game, action)
            game.pending_events.extend(Note(note) for note in notes)
        step.process(game, RECEIVER, action)
    except (IllegalOrderError, ValueError):
        game.state.__dict__.update(backup.__dict__)
        del game.pending_events[events:]
        return False
    return True
