"""The step walk of a corporation's turn: which step takes an action, which are skipped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.actions import Action, Assign, BuyPrivate, LayTile
from pbem.engine.steps.operating.base import OpStep, current_corp, is_passed, mark_passed, op_state
from pbem.engine.steps.operating.buytrains import BuyTrainStep, Discard
from pbem.engine.steps.operating.connections import ConnectionDividend, ConnectionRoute, ConnectionToken
from pbem.engine.steps.operating.dividends import DividendStep
from pbem.engine.steps.operating.privates import BuyCompany, assign_token
from pbem.engine.steps.operating.protection_step import PriceProtection
from pbem.engine.steps.operating.runs import Route
from pbem.engine.steps.operating.tokens import Token
from pbem.engine.steps.operating.tracklay import PendingToken, Track, special_lay
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


STEPS: tuple[type[OpStep], ...] = (ConnectionToken, ConnectionRoute, ConnectionDividend, PendingToken, Track, Token, Route, DividendStep, Discard, BuyTrainStep, BuyCompany,
                                        PriceProtection)
"""A corporation's turn, in order (1830 rules 6)."""


def active_steps(game: Game) -> list[type[OpStep]]:
    """Steps not yet passed that have something to offer, in order."""
    return [s for s in STEPS if not is_passed(game, s) and s.offers(game)]


def pass_its_own_steps(game: Game) -> None:
    """Mark every step of the operating corporation's own turn passed (it has closed);
    the steps others act in (price protection, connection runs) stay."""
    op = op_state(game)
    for step in STEPS:
        if not step.sticky and step.name not in op.passed_steps:
            op.passed_steps.append(step.name)


def skip_inactive(game: Game) -> None:
    """Skip (and pass) every step before the first one that offers something."""
    for step in STEPS:
        if is_passed(game, step):
            continue
        step.prepare(game)
        if step.offers(game):
            return
        step.skip(game)
        mark_passed(game, step)


class Special(OpStep):
    """A private company's ability, used at any time in its corporation's turn: a tile lay
    (1830: the CS's extra tile on B20, the DH's tile on F16; 1870: the MRBC) or a token
    (1870: SCC's cattle token; GSC's port, which a second use on the same hex closes)."""

    name = "special"
    description = "use a private company's ability"
    takes = (LayTile, Assign)

    @classmethod
    def offers(cls, game: Game) -> bool:
        return False

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        if isinstance(action, Assign):
            assign_token(game, current_corp(game), action)
        else:
            assert isinstance(action, LayTile)
            special_lay(game, current_corp(game), action)


def step_for(game: Game, player: str, action: Action) -> type[OpStep]:
    """The step that takes ``action`` now, passing optional steps before it.

    :raises IllegalOrderError: not this player's turn, or a required step comes first.
    """
    if (isinstance(action, LayTile) and action.using) or isinstance(action, Assign):
        if Special.actor(game) != player:
            raise IllegalOrderError(f"it is not {player}'s turn: {current_corp(game)} is operating")
        return Special
    active = active_steps(game)
    if not active:
        raise IllegalOrderError("no corporation is operating")
    blocking = active[0]
    taker = next((s for s in active if isinstance(action, s.takes)), None)
    if isinstance(action, BuyPrivate) and action.price is not None:
        taker = BuyCompany  # at any time in the turn; buy_company says why not, if not
    if taker is None:
        raise IllegalOrderError(f"{action.kind.replace('_', ' ')} is not possible now; {blocking.actor(game)} must {blocking.describe(game)}")
    if blocking is not taker and not isinstance(action, BuyPrivate):
        for step in active[: active.index(taker)]:
            if not step.optional:
                raise IllegalOrderError(f"first {step.describe(game)}")
    if taker is BuyCompany and isinstance(action, BuyPrivate):
        if BuyCompany.actor(game) != player:
            raise IllegalOrderError(f"it is not {player}'s turn: {current_corp(game)} is operating")
        return taker
    if taker.actor(game) != player:
        raise IllegalOrderError(f"it is not {player}'s turn: waiting for {taker.actor(game)} to {taker.describe(game)}")
    if taker is not blocking and blocking.actor(game) != player:
        raise IllegalOrderError(f"it is not {player}'s turn: waiting for {blocking.actor(game)} to {blocking.describe(game)}")
    if taker is not blocking and not isinstance(action, BuyPrivate):
        for step in active[: active.index(taker)]:
            mark_passed(game, step)
    return taker
