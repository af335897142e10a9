"""Fault 2 of issue 11: an owned private's unused tile-lay ability keeps the track step open
(1870's Mississippi River Bridge Company, as 18xx.games plays it), so a PASS after the
corporation's normal lays passes the track step and the token step still follows; and the
bridge company's discounted river lay may also be made after both normal lays (it takes one
of the normal lays only while one is left, and never at home in the buyer's first turn)."""

from __future__ import annotations

import pytest

from pbem.engine.values import CityRef
from pbem.engine.actions import BuyPrivate, LayTile, Pass, PlaceToken
from pbem.engine.game import Game
from pbem.engine.steps import operating
from pbem.engine.events import render_all
from tests.positions import mp_operating_with_the_bridge_company


@pytest.fixture
def game() -> Game:
    """1870 OR 1: MP ($500, home token on C18, president B) operates first; A owns MRBC."""
    return mp_operating_with_the_bridge_company()


def steps(game: Game) -> list[str]:
    return [step.name for step in operating.active_steps(game)]


def lay_two_normal_tiles(game: Game) -> None:
    game.apply("B", BuyPrivate("MRBC", 40))
    game.apply("B", LayTile("C18", "57", 0))  # home, but without the bridge company: a normal lay
    game.apply("B", LayTile("B19", "57", 0))  # C18's track reaches B19 and the river hex D17
    assert game.state.round.operating.tiles_laid == 2


def test_an_unused_bridge_lay_keeps_the_track_step_open_and_a_pass_passes_only_it(game: Game) -> None:
    lay_two_normal_tiles(game)
    assert "MRBC" not in game.state.used_abilities
    assert steps(game)[0] == "track", "MRBC's lay is still to be made or passed"
    assert game.waiting_for() == "B for MP: lay MRBC's tile (LAY <hex> <tile> <rotation> USING MRBC), or PASS"
    assert "token" in steps(game)
    events = render_all(game.apply("B", Pass()), game.money)
    assert "MP passes laying track" in events
    assert "MP passes placing a token" not in events
    assert steps(game)[0] == "token", "the token step follows the track step's pass"
    game.apply("B", PlaceToken("B19"))
    assert game.state.tokens[CityRef("B19", 0)] == ["MP"]


def test_the_free_home_lay_and_a_normal_lay_then_a_pass_leaves_the_token_step(game: Game) -> None:
    game.apply("B", BuyPrivate("MRBC", 40))
    game.apply("B", LayTile("C18", "57", 0, using="MRBC"))
    assert game.state.round.operating.tiles_laid == 0, "the free home lay is extra"
    game.apply("B", LayTile("B19", "57", 0))
    events = render_all(game.apply("B", Pass()), game.money)
    assert "MP passes laying track" in events
    assert steps(game)[0] == "token"


def test_the_discounted_river_lay_may_come_after_both_normal_lays(game: Game) -> None:
    lay_two_normal_tiles(game)
    assert LayTile("D17", "3", 2, "MRBC") in game.legal_actions("B")
    cash = game.state.corporations["MP"].cash
    events = render_all(game.apply("B", LayTile("D17", "3", 2, "MRBC")), game.money)
    assert game.board.hexes["D17"].cost == 40
    assert game.state.corporations["MP"].cash == cash, "the $40 river costs nothing with the discount"
    assert "MP receives a discount of $40 from MRBC" in events
    assert "MRBC" in game.state.used_abilities
    assert steps(game)[0] == "token", "nothing is left to lay: the track step is done"


def test_the_river_lay_made_first_takes_one_of_the_normal_lays(game: Game) -> None:
    game.apply("B", BuyPrivate("MRBC", 40))
    game.apply("B", LayTile("C18", "57", 0))  # the one normal lay before it
    game.apply("B", LayTile("D17", "3", 2, "MRBC"))
    assert game.state.round.operating.tiles_laid == 2, "made while a normal lay was left, it took it"
    with pytest.raises(Exception, match="lay tile is not possible now"):
        game.apply("B", LayTile("B19", "57", 0))
