"""The step walk of a corporation's turn: which step takes an action, which are skipped, and
what a player may do now.

The steps come from the title (:meth:`TitleHooks.operating_steps`, kept on the game as
``game.operating_steps``); :data:`CORE_STEPS` are 1830's, which most titles share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pbem.engine.actions import Action, Assign, BuyPrivate, LayTile
from pbem.engine.steps.operating.base import RECEIVER, OpStep, accepted, current_corp, is_passed, mark_passed, op_state
from pbem.engine.steps.operating.buytrains import BuyTrainStep, Discard
from pbem.engine.steps.operating.dividends import DividendStep
from pbem.engine.steps.operating.privates import (
    BuyCompany,
    assign_candidates,
    assign_token,
    buy_candidates,
)
from pbem.engine.steps.operating.runs import Route
from pbem.engine.steps.operating.tokens import Token
from pbem.engine.steps.operating.tracklay import PendingToken, Track, special_lay, special_lay_candidates
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


CORE_STEPS: tuple[type[OpStep], ...] = (PendingToken, Track, Token, Route, DividendStep, Discard, BuyTrainStep,
                                        BuyCompany)
"""A corporation's turn in 1830, in order (1830 rules 6): the steps a title's
``operating_steps`` hook starts from."""


def active_steps(game: Game) -> list[type[OpStep]]:
    """Steps not yet passed that have something to offer, in order."""
    return [s for s in game.operating_steps if not s.anytime and not is_passed(game, s) and s.offers(game)]


def pass_its_own_steps(game: Game) -> None:
    """Mark every step of the operating corporation's own turn passed (it has closed);
    the steps others act in (1870: price protection, connection runs) stay."""
    op = op_state(game)
    for step in game.operating_steps:
        if not step.sticky and step.name not in op.passed_steps:
            op.passed_steps.append(step.name)


RECEIVER_STEPS_LIMIT = 100
"""More steps than any turn has: a receiver's turn that does not end by then is a title's
policy that never passes a sticky step."""


def skip_inactive(game: Game) -> None:
    """Skip (and pass) every step before the first one that offers something. While that
    step is the receiver's (a corporation without a president, :mod:`pbem.engine.receivership`),
    the receiver takes it by the title's policy and the walk goes on: no player is asked.

    :raises RuntimeError: a receiver's turn that does not end (see :data:`RECEIVER_STEPS_LIMIT`).
    """
    for _ in range(RECEIVER_STEPS_LIMIT):
        step = _first_offering(game)
        if step is None or step.actor(game) != RECEIVER:
            return
        from pbem.engine import receivership  # it builds on the steps of this package

        receivership.take_step(game, step)
    raise RuntimeError(f"the receiver's turn of {current_corp(game)} does not end")


def _first_offering(game: Game) -> type[OpStep] | None:
    for step in game.operating_steps:
        if step.anytime or is_passed(game, step):
            continue
        step.prepare(game)
        if step.offers(game):
            return step
        step.skip(game)
        mark_passed(game, step)
    return None


def turn_held_open(game: Game) -> bool:
    """Asked when no step offers anything: whether a step keeps the turn open all the same
    (:meth:`OpStep.at_turn_end`; 1870: connection runs now owed)."""
    return any(step.at_turn_end(game) for step in game.operating_steps)


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

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        corp = current_corp(game)
        return [*special_lay_candidates(game, corp), *assign_candidates(game, corp)]


def legal_moves(game: Game, player: str) -> list[tuple[type[OpStep], Action]]:
    """Every action ``player`` may give now in the operating round, each with the step that
    takes it, or [] if it is not their turn: the first active step's, then — while the steps
    before are optional and the same player's — the later steps' (an order of a later step
    passes the optional ones, as :func:`step_for` does), then what the operating corporation
    may do at any time in its turn (buy a private company at its least price, taken by
    :class:`BuyCompany`; use a private's ability, :class:`Special`). Each comes from the
    step's own check (:meth:`OpStep.legal_actions`); a ``RUN AUTO`` stands for every run.
    An action two steps take (``PASS``) is listed once, with the first."""
    active = active_steps(game)
    if not active or active[0].actor(game) != player:
        return []
    found: dict[Action, type[OpStep]] = {}
    for step in active:
        if step.actor(game) != player:
            break
        for action in step.legal_actions(game, player):
            found.setdefault(action, step)
        if not step.optional:
            break
    if Special.actor(game) == player:
        for action in buy_candidates(game, current_corp(game)):
            if action not in found and accepted(game, player, action):
                found[action] = BuyCompany
        for action in Special.legal_actions(game, player):
            found.setdefault(action, Special)
    return [(step, action) for action, step in found.items()]


def legal_actions(game: Game, player: str) -> list[Action]:
    """The actions of :func:`legal_moves`, in its order."""
    return [action for _, action in legal_moves(game, player)]


def _refusal(game: Game, action: Action, blocking: type[OpStep]) -> str:
    actor = blocking.actor(game)
    text = f"{action.kind.replace('_', ' ')} is not possible now; {actor} must {blocking.describe(game)}"
    if game.probing:
        return text  # a check on a copy of the game: no list, and no search within a search
    kinds = dict.fromkeys(a.kind.replace("_", " ") for a in legal_actions(game, actor))
    return text + (f" (possible now: {', '.join(kinds)})" if kinds else "")


def step_for(game: Game, player: str, action: Action) -> type[OpStep]:
    """The step that takes ``action`` now, passing optional steps before it.

    :raises IllegalOrderError: not this player's turn, or a required step comes first; a
        refusal of an action no step takes now names the kinds of action that are possible
        (:func:`legal_actions`).
    """
    anytime = next((s for s in game.operating_steps if s.anytime and isinstance(action, s.takes)), None)
    if anytime is not None:
        return anytime
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
        raise IllegalOrderError(_refusal(game, action, blocking))
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
