"""The operating round's step contract and the small queries every step uses (1830 rules 6)."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, ClassVar, Iterable

from pbem.engine.actions import Action
from pbem.engine.events import StepPassed
from pbem.engine.state import OperatingState

if TYPE_CHECKING:
    from pbem.engine.game import Game


def op_state(game: Game) -> OperatingState:
    """The operating round's state (an assertion error outside an operating round)."""
    op = game.state.round.operating
    assert op is not None, "not in an operating round"
    return op


def current_corp(game: Game) -> str:
    """The corporation operating now."""
    op = op_state(game)
    return op.order[op.index]


RECEIVER = "(the receiver)"
"""The actor of a corporation in receivership (no president; :mod:`pbem.engine.receivership`):
no player's name, so no player is asked; the walk takes its steps by the title's policy."""


def president(game: Game, corp: str) -> str:
    """The president of ``corp`` (the player who gives its orders), or :data:`RECEIVER`
    when it has none and the title has receivership (``TitleHooks.receivership``)."""
    pres = game.state.corporations[corp].president
    if pres is None and game.hooks.receivership is not None:
        return RECEIVER
    assert pres is not None, f"{corp} has no president"
    return pres


class OpStep:
    """A step of a corporation's turn."""

    name: ClassVar[str] = "op_step"
    description: ClassVar[str] = ""
    blocks: ClassVar[bool] = True
    optional: ClassVar[bool] = False
    sticky: ClassVar[bool] = False
    """A sticky step is never passed: it offers itself whenever its condition holds."""
    players_own: ClassVar[bool] = False
    """The step is its actor's own decision as a player, not the corporation's (1870's price
    protection): the player, not its ``subject``, is the one to act."""
    takes: ClassVar[tuple[type[Action], ...]] = ()
    anytime: ClassVar[bool] = False
    """An anytime step is offered nowhere: it takes its actions whenever they come in the
    round, from any seat (a ruling the GM gives as a seat, such as 1870's ``CONNECT``), and
    its :meth:`process` checks them."""
    runs_trains: ClassVar[bool] = False
    """The step takes the run of a corporation's trains (``RUN``, ``RUN AUTO``)."""

    @classmethod
    def pass_note(cls, game: Game) -> str:
        """What the step's ``PASS`` declines now, for the report's "you may" (e.g. "no track
        this turn"); empty: no note."""
        return ""

    @classmethod
    def offers(cls, game: Game) -> bool:
        """Whether the step has anything to offer now (if not, it is skipped)."""
        raise NotImplementedError

    @classmethod
    def actor(cls, game: Game) -> str:
        """Who acts in this step: by default the operating corporation's president."""
        return president(game, current_corp(game))

    @classmethod
    def describe(cls, game: Game) -> str:
        """What the step asks for now, with the order to give (by default ``description``)."""
        return cls.description

    @classmethod
    def subject(cls, game: Game) -> str:
        """The corporation the step is about: by default the operating one."""
        return current_corp(game)

    @classmethod
    def prepare(cls, game: Game) -> None:
        """What happens as the step comes up, every earlier step done (usually nothing)."""

    @classmethod
    def skip(cls, game: Game) -> None:
        """What happens when the step is skipped (usually nothing)."""

    @classmethod
    def heading(cls, game: Game) -> str | None:
        """Who acts in this step, for the report's task line where that is not the operating
        corporation with its treasury (a private's own turn, which has no treasury), or None
        for the default ``<corporation> ($<cash> in the treasury)``."""
        return None

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        raise NotImplementedError

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        """The actions ``player`` might give this step now, for :meth:`legal_actions` to
        check (prices at their least; one ``RUN AUTO`` stands for every run). Default: none."""
        return ()

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """The :meth:`candidates` the game accepts now: each is applied to a copy of the game,
        so legality is decided once, by the step's own :meth:`process` (the issue: one
        legal-move generator that feeds validation, the report and the refusals). A step
        whose own check is cheaper than a copy (the track step) overrides this."""
        return [action for action in cls.candidates(game, player) if accepted(game, player, action)]

    @classmethod
    def run_ends(cls, game: Game) -> tuple[str, str] | None:
        """For a step that runs trains: the two hexes one of its runs must join end to end
        (1870's connection run: home and destination), or None."""
        return None

    @classmethod
    def revenue(cls, game: Game) -> int | None:
        """For a step that shares out revenue (takes a dividend order): the revenue it shares
        now (money, an int); None for other steps (the base). 1830: the dividend step's, the
        turn's run."""
        return None

    @classmethod
    def at_turn_end(cls, game: Game) -> bool:
        """Asked as the operating corporation's turn would end (no step offers anything
        more): whether the step now has work that keeps the turn open (1870: the connection
        runs now owed). Usually False."""
        return False


def accepted(game: Game, player: str, action: Action) -> bool:
    """Whether ``game`` accepts ``action`` by ``player`` now: it is applied to a copy (nothing
    of ``game`` changes); a refusal (:class:`~pbem.errors.IllegalOrderError`, or another
    ``ValueError`` of the rules) counts as no."""
    twin = copy.deepcopy(game)
    twin.probing = True  # its refusals do not list the legal actions (no search within a search)
    try:
        twin.apply(player, action, atomic=False)  # the twin is dropped: no backup to restore
    except ValueError:
        return False
    return True


def is_passed(game: Game, step: type[OpStep]) -> bool:
    """Whether ``step`` has been passed this turn (a sticky step never is)."""
    return not step.sticky and step.name in op_state(game).passed_steps


def pass_step(game: Game, step: type[OpStep], what: str) -> None:
    """The operating corporation passes ``step`` (``what`` it declines, for the log)."""
    game.event(StepPassed(current_corp(game), what))
    mark_passed(game, step)


def mark_passed(game: Game, step: type[OpStep]) -> None:
    """Mark ``step`` passed for the rest of the turn (not a sticky one), without a log line."""
    if step.sticky:
        return
    op = op_state(game)
    if step.name not in op.passed_steps:
        op.passed_steps.append(step.name)
