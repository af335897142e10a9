"""Rounds and their sequence (issue 11: "rounds hold their steps; one walk dispatches through
{action type: handler} tables; the title owns its round sequence")."""

from __future__ import annotations

import copy
import dataclasses

import pytest

from pbem.engine.sequence import RoundSequence
from pbem.engine.actions import Action, Bid, BuyPrivate, BuyShares, Par, Pass
from pbem.engine.events import render_all
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.rounds import OperatingRound, StartRound, StockRound
from pbem.engine.state import RoundState
from pbem.engine.steps.auction import WaterfallAuction
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


class StockFirst(RoundSequence):
    """A made-up start: no auction, the game opens with stock round 1."""

    def first_round(self, game: Game) -> RoundState:
        return RoundState(kind="stock", number=1)


class NoOperating(StockFirst):
    """A made-up sequence: stock rounds follow one another, with no operating rounds."""

    def next_round(self, game: Game, finished: RoundState) -> RoundState | None:
        return RoundState(kind="stock", number=finished.number + 1)


def game_with(hooks: TitleHooks) -> Game:
    return Game(dataclasses.replace(load_title("1830"), hooks=hooks), [P1, P2, P3])


def lines(game: Game, *orders: tuple[str, Action]) -> list[str]:
    """The report lines of ``orders`` applied in turn."""
    return [line for player, action in orders for line in render_all(game.apply(player, action), game.money)]


def test_1830_begins_with_the_auction_and_its_round_walks_the_auction_steps() -> None:
    game = Game(load_title("1830"), [P1, P2, P3])
    assert isinstance(game.round, StartRound) and game.round_label() == "Private auction"
    assert game.active_step() is WaterfallAuction
    assert game.round.handler_for(game, P1, Bid("CS", 45)) == WaterfallAuction.process_bid
    with pytest.raises(IllegalOrderError, match="it is not Player 2's turn"):
        game.round.handler_for(game, P2, Pass())
    with pytest.raises(IllegalOrderError, match="par is not possible now; Player 1 may bid"):
        game.apply(P1, Par("PRR", 100))


def test_the_auction_gives_way_to_stock_round_1_with_the_priority_deal() -> None:
    game = Game(load_title("1830"), [P1, P2, P3])
    events = lines(game, *((player, BuyPrivate(company)) for player, company in (
        (P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO"))), (P3, Par("B&O", 100)))
    assert isinstance(game.round, StockRound) and game.round_label() == "SR 1"
    assert events[-2:] == ["Player 1 has priority deal", "-- SR 1 --"]
    assert game.current_actors() == [P1]


def test_a_titles_first_round_hook_decides_the_start() -> None:
    game = game_with(TitleHooks(sequence=StockFirst()))
    assert game.round_label() == "SR 1" and game.current_actors() == [P1]
    assert Par("PRR", 100) in game.legal_actions(P1)
    game.apply(P1, Par("PRR", 100))
    assert game.state.corporations["PRR"].president == P1


def test_1830s_sequence_after_a_stock_round_is_its_set_of_operating_rounds() -> None:
    """Nobody starts a corporation: SR 1 ends, OR 1.1 has no one to operate, SR 2 follows."""
    game = game_with(TitleHooks(sequence=StockFirst()))
    events = lines(game, (P1, Pass()), (P2, Pass()), (P3, Pass()))
    assert "-- OR 1.1 --" in events and events[-1] == "-- SR 2 --", events
    assert game.round_label() == "SR 2" and game.state.round.entity_index == 0


def test_a_titles_next_round_hook_decides_what_follows() -> None:
    game = game_with(TitleHooks(sequence=NoOperating()))
    events = lines(game, (P1, Pass()), (P2, Pass()), (P3, Pass()))
    assert not any(e.startswith("-- OR") for e in events) and events[-1] == "-- SR 2 --", events


def test_the_operating_round_takes_actions_through_its_walk() -> None:
    game = game_with(TitleHooks(sequence=StockFirst()))
    game.apply(P1, Par("PRR", 100))
    for player in (P2, P3, P1, P2):
        game.apply(player, BuyShares("PRR", "ipo"))  # 60% sold: PRR floats
    while game.state.round.kind == "stock":
        game.apply(game.current_actors()[0], Pass())
    assert isinstance(game.round, OperatingRound) and game.round_label() == "OR 1.1"
    assert game.operating_corporation() == "PRR" and game.current_actors() == [P1]
    with pytest.raises(IllegalOrderError, match="it is not Player 2's turn"):
        game.apply(P2, Pass())
    twin = copy.deepcopy(game)
    assert twin.round is game.round, "a copy shares the round objects (they keep no state)"


def test_a_corporation_closed_earlier_in_the_round_is_skipped_between_two_turns() -> None:
    """PRR's turn ends as it begins (no steps to offer anything), NYC closed earlier in the
    round, B&O operates once; the round then ends (formerly the walk lost its place here,
    announced B&O again and again and ran past the end of the order)."""
    from tests.test_engine_operating import float_corp

    game = game_with(TitleHooks(sequence=StockFirst()))
    for sym, price in (("PRR", 100), ("NYC", 90), ("B&O", 82)):
        float_corp(game, sym, P1, price, 0)
    game.state.corporations["NYC"].closed = True
    game.operating_order = lambda: ["PRR", "NYC", "B&O"]  # type: ignore[method-assign]
    game.operating_steps = ()  # nothing to offer: every turn is over as it begins
    game.pending_events = []
    game.begin_round(RoundState(kind="operating", number=1, or_number=1))
    events = render_all(game.pending_events, game.money)
    assert events.count("Player 1 operates PRR") == 1 and events.count("Player 1 operates B&O") == 1, events
    assert "Player 1 operates NYC" not in events and events[-1] == "-- SR 2 --", events
