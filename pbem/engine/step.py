"""The step contract of the auction and stock rounds: a round is an ordered list of small steps.

A step says whether it is active, who may act in it, which action types it takes (an explicit
``{ActionType: handler}`` table, never dispatch by string) and which concrete actions are legal
now. The round (:class:`pbem.engine.rounds.StepRound`) walks its steps in order and gives an
action to the first active step; an active step blocks the steps after it. The operating
round's steps (:class:`pbem.engine.steps.operating.OpStep`) take their action types to their
``process`` the same way (:func:`pbem.engine.steps.operating.walk.handlers`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, ClassVar, Iterable

from pbem.engine.actions import Action

if TYPE_CHECKING:
    from pbem.engine.game import Game

Handler = Callable[["Game", str, Action], None]
"""A handler: ``handler(game, player, action)`` changes the game or raises
:class:`~pbem.errors.IllegalOrderError` (the game restores its state)."""


class Step:
    """Base class of steps; subclasses fill :attr:`handlers` and override the queries."""

    name: ClassVar[str] = "step"
    description: ClassVar[str] = ""
    handlers: ClassVar[dict[type[Action], Handler]] = {}

    @classmethod
    def active(cls, game: Game) -> bool:
        """Whether this step takes actions now."""
        raise NotImplementedError

    @classmethod
    def actors(cls, game: Game) -> list[str]:
        """The players who may act in this step now (in order of precedence)."""
        raise NotImplementedError

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> Iterable[Action]:
        """Every concrete legal action for ``player`` (bids at their minimum only)."""
        raise NotImplementedError
