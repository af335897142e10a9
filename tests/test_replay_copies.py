"""A replay keeps no copy of the game state per action (the issue's performance goal: "copy
state cheaply ... not a pickle per action"): Game.apply(atomic=False) is used where a refusal
ends the replay, while live orders stay all or nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.actionlog import ActionLog, NewRecord
from pbem.application.state import replay
from pbem.engine.game import Game
from pbem.engine.state import GameState
from pbem.errors import IllegalOrderError
from pbem.games import game_dir, genesis_data
from pbem.importers.e18xx import load_record
from pbem.importers.replay import replay_record
from pbem.orders import Vocabulary, parse_order
from pbem.ruleset import load_title

from tests.records import record_path

SEATS = [("Player 1", "p1@players.example"), ("Player 2", "p2@players.example"), ("Player 3", "p3@players.example")]


def count_copies(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = GameState.copy

    def counted(self: GameState) -> GameState:
        calls.append(1)
        return real(self)

    monkeypatch.setattr(GameState, "copy", counted)
    return calls


def new_game() -> tuple[Game, Vocabulary]:
    title = load_title("1830", ())
    return Game(title, [name for name, _ in SEATS]), Vocabulary.from_title(title)


def test_an_atomic_apply_restores_the_state_of_a_refused_action(monkeypatch: pytest.MonkeyPatch) -> None:
    game, vocab = new_game()
    copies = count_copies(monkeypatch)
    game.apply("Player 1", parse_order("BID CA 165", vocab))
    assert len(copies) == 1
    before = game.state.copy()
    with pytest.raises(IllegalOrderError):
        game.apply("Player 2", parse_order("BID CA 10", vocab))  # below the minimum bid
    assert game.state == before


def test_a_non_atomic_apply_copies_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    game, vocab = new_game()
    twin, _ = new_game()
    copies = count_copies(monkeypatch)
    for seat, line in (("Player 1", "BID CA 165"), ("Player 2", "BID CA 170"), ("Player 3", "PASS")):
        assert game.apply(seat, parse_order(line, vocab), atomic=False) == twin.apply(seat, parse_order(line, vocab))
    assert len(copies) == 3  # the twin's only
    assert game.state == twin.state


def test_replaying_a_log_copies_no_state_per_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    genesis = genesis_data("g", "1830", (), SEATS, "gm@players.example", {n: "s" for n, _ in SEATS}, "gm")
    action_log = ActionLog.create(game_dir(tmp_path, "g") / "log.jsonl", genesis)
    for seat, data in (("Player 1", {"type": "bid", "company": "CA", "price": 165}),
                       ("Player 2", {"type": "bid", "company": "CA", "price": 170}),
                       ("Player 3", {"type": "pass"}), ("Player 1", {"type": "pass"})):
        action_log.append([NewRecord(kind="action", actor=seat, data=data)])
    copies = count_copies(monkeypatch)
    rebuilt = replay(action_log.records)
    assert len(rebuilt.effective) == 4
    assert copies == []


def test_a_record_the_engine_refuses_gives_no_result(monkeypatch: pytest.MonkeyPatch) -> None:
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    bids = [a for a in record["actions"] if a["type"] == "bid"]
    bids[0]["price"] = 1  # below any minimum bid: the engine refuses it
    copies = count_copies(monkeypatch)
    outcome = replay_record(record)
    assert outcome.failed_action == str(bids[0]["id"]) and outcome.error
    assert outcome.result == {} and not outcome.finished
    assert copies == []
