"""A title's anytime step (an operating step that takes its actions at any time of the round)
lists its legal actions for the player to act: they are among the game's legal moves, the
report offers them, and a refusal of another action names them (issue 12's extension point;
Lorenz's 1825 gives and uses its privates' powers so). A made-up title built from 1870's data
whose anytime step lets the operating president ring a bell once a turn; 1870 itself, whose
anytime step (the GM's CONNECT) lists nothing, is unchanged."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar, Iterable

import pytest

from pbem.engine.actions import Action, Pass
from pbem.engine.events import Note
from pbem.engine.game import Game
from pbem.engine.steps import operating
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state
from pbem.errors import IllegalOrderError
from pbem.order_codecs import HelpEntry, OrderCodec, Vocabulary
from pbem.report_sections import options
from tests.positions import mp_operating_with_the_bridge_company


@dataclass(frozen=True, slots=True)
class Ring(Action):
    """The operating corporation rings its bell (once a turn)."""

    kind: ClassVar[str] = "ring"


def _parse(words: list[str], line: str, vocab: Vocabulary) -> Action:
    return Ring()


RING = OrderCodec("RING", (), (Ring,), _parse, lambda action, vocab: "RING" if isinstance(action, Ring) else None,
                  (HelpEntry("RING", "ring the operating corporation's bell", "RING"),))


class Bell(OpStep):
    """At any time of its turn the operating corporation may ring once."""

    name = "bell"
    description = "ring the bell"
    takes = (Ring,)
    anytime = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        return False

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if operating.president(game, corp) != player:
            raise IllegalOrderError(f"{player} does not direct {corp}")
        if "bell" in op_state(game).laid_hexes:
            raise IllegalOrderError(f"{corp} has rung its bell this turn")
        op_state(game).laid_hexes.append("bell")
        game.event(Note(f"{corp} rings its bell"))

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return [Ring()]


def ringing() -> Game:
    """1870's OR 1 position (MP operating, B its president) with the bell step."""
    game = mp_operating_with_the_bridge_company()
    base = type(game.title.hooks.sequence)

    class Ringing(base):  # type: ignore[misc, valid-type]
        def operating_steps(self) -> tuple[type[OpStep], ...]:
            return (*super().operating_steps(), Bell)

    class RingWord(type(game.title.presentation)):  # type: ignore[misc]
        def order_codecs(self) -> tuple[OrderCodec, ...]:
            return (*super().order_codecs(), RING)

    hooks = dataclasses.replace(game.title.hooks, sequence=Ringing())
    found = Game(dataclasses.replace(game.title, hooks=hooks, presentation=RingWord()), ["A", "B", "C"])
    found.state = game.state
    return found


def test_an_anytime_steps_legal_actions_are_among_the_legal_moves_of_the_player_to_act() -> None:
    game = ringing()
    assert Ring() in game.legal_actions("B")
    assert (Bell, Ring()) in operating.legal_moves(game, "B")
    assert Ring() not in game.legal_actions("A"), "not A's turn"
    game.apply("B", Ring())
    assert Ring() not in game.legal_actions("B"), "its own check refuses a second ring"
    assert Pass() in game.legal_actions("B")


def test_the_report_offers_them_with_the_steps_description() -> None:
    game = ringing()
    assert "RING  -- ring the bell" in options(game, "B")
    game.apply("B", Ring())
    assert not any(line.startswith("RING") for line in options(game, "B"))


def test_1870_s_gm_ruling_step_lists_nothing() -> None:
    game = mp_operating_with_the_bridge_company()
    assert not any(step.anytime for step, _ in operating.legal_moves(game, "B"))
