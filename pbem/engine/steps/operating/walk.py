"""The step walk of the operating round: which step takes an action (through its ``{action
type: handler}`` table), which are skipped, what a player may do now, and the corporations'
turns one after another.

The steps come from the title (:meth:`~pbem.engine.sequence.RoundSequence.operating_steps`, kept on the game as
``game.operating_steps``); :data:`CORE_STEPS` are 1830's, which most titles share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pbem.engine.values import DividendChoice
from pbem.engine import closing, market
from pbem.engine.actions import Action, Assign, BuyPrivate, LayTile, Pass, PlaceToken
from pbem.engine.events import Operates
from pbem.engine.state import OperatingState
from pbem.engine.step import Handler
from pbem.engine.steps.operating.base import RECEIVER, OpStep, accepted, current_corp, is_passed, mark_passed, op_state
from pbem.engine.steps.operating.buytrains import BuyTrainStep, Discard
from pbem.engine.steps.operating.dividends import DividendStep, pay_dividend
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
    may do at any time in its turn while it is open (buy a private company at its least
    price, taken by :class:`BuyCompany`; use a private's ability, :class:`Special`), then what the title's
    anytime steps (:attr:`OpStep.anytime`) list for ``player`` (Lorenz's 1825: a private's
    power given or used). Each comes from the step's own check (:meth:`OpStep.legal_actions`);
    a ``RUN AUTO`` stands for every run. An action two steps take (``PASS``) is listed once,
    with the first."""
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
    if not game.state.corporations[current_corp(game)].closed and Special.actor(game) == player:
        for action in buy_candidates(game, current_corp(game)):
            if action not in found and accepted(game, player, action):
                found[action] = BuyCompany
        for action in Special.legal_actions(game, player):
            found.setdefault(action, Special)
    for step in game.operating_steps:
        if step.anytime:
            for action in step.legal_actions(game, player):
                found.setdefault(action, step)
    return [(step, action) for action, step in found.items()]


def legal_actions(game: Game, player: str) -> list[Action]:
    """The actions of :func:`legal_moves`, in its order."""
    return [action for _, action in legal_moves(game, player)]


def _token_reason(game: Game, player: str, action: Action) -> str | None:
    """Why the operating corporation may not place the token a ``TOKEN`` order no step takes
    now asks for, or None: the one token check's reason (:func:`pbem.engine.track.token_problem`,
    with the title's own, e.g. a token not yet due), asked only for the corporation's
    president, so a refusal names the rule rather than only the step waited for."""
    from pbem.engine import track
    from pbem.engine.steps.operating.base import president

    if not isinstance(action, PlaceToken) or action.using or game.state.pending_teleport:
        return None
    corp = current_corp(game)
    if president(game, corp) != player or op_state(game).token_placed:
        return None
    return track.token_problem(game, corp, action.hex, action.city)


def _refusal(game: Game, action: Action, blocking: type[OpStep], player: str | None = None) -> str:
    actor = blocking.actor(game)
    reason = _token_reason(game, player, action) if player is not None else None
    text = (f"{action.spoken} is not possible now{f' ({reason})' if reason else ''}; "
            f"{actor} must {blocking.describe(game)}")
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
    taker, passed, behind = _taker(game, player, action)
    for step in passed:
        mark_passed(game, step)
    for step in behind:  # skipped as the walk skips a step with nothing to offer (a withheld run)
        step.skip(game)
        mark_passed(game, step)
    corp = current_corp(game)
    coord = game.state.corporations[corp].price
    found = market.cell(game.title, coord) if behind and coord is not None else None
    if found is not None and found.closes and not isinstance(action, Pass):
        raise IllegalOrderError(f"{corp} has no run, and its share price falls to a closing space: it closes "
                                f"before it could {taker.describe(game)} (PASS)")
    return taker


def passed_over(game: Game, player: str, action: Action) -> list[type[OpStep]]:
    """The optional steps (in order) that ``action`` by ``player`` would pass on its way to
    the step taking it (:func:`step_for`), nothing changed; empty when it goes to the step
    due now or is refused."""
    try:
        return _taker(game, player, action)[1]
    except IllegalOrderError:
        return []


Steps = list[type[OpStep]]


def _taker(game: Game, player: str, action: Action) -> tuple[type[OpStep], Steps, Steps]:
    """The step taking ``action``, the optional steps passed over before it (see
    :func:`step_for`) and the earlier steps of the turn's sequence that offered nothing and
    are over too once a later one acts (1830 rules 6: the steps come in order, so a train
    bought with no train to run before does not run this turn); an interjected (sticky) or
    anytime step ends none."""
    anytime = next((s for s in game.operating_steps if s.anytime and isinstance(action, s.takes)), None)
    if anytime is not None:
        return anytime, [], []
    if (isinstance(action, LayTile) and action.using) or isinstance(action, Assign):
        if Special.actor(game) != player:
            raise IllegalOrderError(f"it is not {player}'s turn: {current_corp(game)} is operating")
        return Special, [], []
    active = active_steps(game)
    if not active:
        raise IllegalOrderError("no corporation is operating")
    blocking = active[0]
    taker = next((s for s in active if isinstance(action, s.takes)), None)
    if isinstance(action, BuyPrivate) and action.price is not None:
        taker = BuyCompany  # at any time in the turn; buy_company says why not, if not
    if taker is None:
        raise IllegalOrderError(_refusal(game, action, blocking, player))
    if blocking is not taker and not isinstance(action, BuyPrivate):
        for step in active[: active.index(taker)]:
            if not step.optional:
                raise IllegalOrderError(f"first {step.describe(game)}")
    if taker is BuyCompany and isinstance(action, BuyPrivate):
        if BuyCompany.actor(game) != player:
            raise IllegalOrderError(f"it is not {player}'s turn: {current_corp(game)} is operating")
        return taker, [], []
    if taker.actor(game) != player:
        raise IllegalOrderError(f"it is not {player}'s turn: waiting for {taker.actor(game)} to {taker.describe(game)}")
    if taker is not blocking and blocking.actor(game) != player:
        raise IllegalOrderError(f"it is not {player}'s turn: waiting for {blocking.actor(game)} to {blocking.describe(game)}")
    over = active[: active.index(taker)] if taker is not blocking and not isinstance(action, BuyPrivate) else []
    steps = list(game.operating_steps)
    behind = [] if taker.sticky or taker not in steps else [
        s for s in steps[: steps.index(taker)]
        if not s.sticky and not s.anytime and s not in active and not is_passed(game, s)]
    return taker, over, behind


def handlers(step: type[OpStep]) -> dict[type[Action], Handler]:
    """``step``'s ``{action type: handler}`` table: each type it :attr:`~OpStep.takes` goes to
    its :meth:`~OpStep.process` (the walk has already checked order and seat)."""
    return {kind: step.process for kind in step.takes}


def handler_for(game: Game, player: str, action: Action) -> Handler:
    """The handler that takes ``action`` by ``player`` now: the table entry of the step
    :func:`step_for` finds (optional steps before it are passed on the way).

    :raises IllegalOrderError: as :func:`step_for`.
    """
    step = step_for(game, player, action)
    return handlers(step)[type(action)]


# -- the corporations' turns in order (1830 rules 6) -------------------------------------------


def start_corporation_turns(game: Game) -> bool:
    """Begin the turn of the corporation at the round's index (the president named, its home
    token placed), passing every turn with nothing to do; True once the order is done (the
    round is over), False while a turn waits for an order or when the game has ended. A
    corporation closed earlier in the round is skipped."""
    op = op_state(game)
    while op.index < len(op.order):
        if game.state.finished:
            return False
        corp = op.order[op.index]
        if game.state.corporations[corp].closed:
            op.index += 1  # closed on the market earlier in this round
            continue
        game.event(Operates(game.state.corporations[corp].president, corp))
        game.hooks.track.place_home_token(game, corp)
        game.hooks.sequence.corporation_turn_started(game, corp)
        if not corporation_turn_over(game) or game.state.finished:
            return False
        end_corporation_turn(game)
        op = op_state(game)
    return True


def corporation_turn_over(game: Game) -> bool:
    """Pass the operating corporation's steps that offer nothing (all of them once it has
    closed), settle the market (a price in a closing cell closes its corporation) and say
    whether its turn is over: nothing left to do (a step of the title's waiting included)
    and no step holding the turn open (1870: a connection run owed), or the game ended."""
    op = op_state(game)
    if game.state.corporations[op.order[op.index]].closed:
        # the rest of its turn is lost; a title's step owed to others (1870: a price
        # protection or a connection run) still comes before the next turn
        pass_its_own_steps(game)
    skip_inactive(game)
    closing.settle_market(game)
    if game.state.finished:
        return True
    return not (active_steps(game) or turn_held_open(game))


def end_corporation_turn(game: Game) -> None:
    """End the operating corporation's turn: a dividend never decided is withheld (1830 rules
    6.6); the next corporation's turn starts from fresh step state."""
    op = op_state(game)
    corp = op.order[op.index]
    if "dividend_done" not in op.passed_steps and not game.state.corporations[corp].closed:
        pay_dividend(game, corp, DividendChoice.WITHHOLD)
        closing.settle_market(game)
    game.state.round.operating = OperatingState(order=op.order, index=op.index + 1)
    game.state.pending_teleport = None


def advance(game: Game) -> bool:
    """After an action of the operating round: once the corporation's turn is over, the next
    turns begin (:func:`start_corporation_turns`); True when the round is over."""
    if game.state.finished or not corporation_turn_over(game) or game.state.finished:
        return False
    end_corporation_turn(game)
    return start_corporation_turns(game)
