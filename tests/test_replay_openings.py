"""Recorded 1830 games from 18xx.games: every action up to the first operating round is
rendered as an order line, parsed back, and accepted by our engine."""

from __future__ import annotations

import pytest

from pbem.engine.state import IPO, POOL
from pbem.importers.e18xx import Renderer, UnsupportedRecordAction, load_record
from pbem.orders import Vocabulary, parse_order
from tests.records import record_path


def play_opening(name: str) -> tuple[Renderer, int, str]:
    renderer = Renderer(load_record(record_path("1830", name)))
    vocab = Vocabulary.from_title(renderer.title)
    played = 0
    stopped = ""
    try:
        for order in renderer.orders():
            assert parse_order(order.line, vocab) == order.action
            played += 1
    except UnsupportedRecordAction as exc:
        stopped = str(exc)
    return renderer, played, stopped


def money_total(renderer: Renderer) -> int:
    state = renderer.game.state
    return state.bank + sum(p.cash for p in state.players.values()) + sum(
        c.cash for c in state.corporations.values()
    )


def test_1830_game_end_bank_opening() -> None:
    renderer, played, stopped = play_opening("1830_game_end_bank.json")
    game = renderer.game
    assert stopped.startswith("action 28: lay_tile")
    assert game.round_label() == "OR 1.1"
    assert played == 33
    cash = {p: s.cash for p, s in game.state.players.items()}
    assert cash == {"Player 1": 50, "Player 2": 30, "Player 3": 45}
    assert game.state.order[0] == "Player 2"
    assert {s for s, c in game.state.corporations.items() if c.floated} == {"PRR", "NYNH", "B&O"}
    assert {s: c.president for s, c in game.state.corporations.items() if c.ipoed} == {
        "PRR": "Player 2", "NYNH": "Player 1", "B&O": "Player 3"}
    assert money_total(renderer) == 12000
    assert game.state.percent_of(IPO, "PRR") == 30


@pytest.mark.parametrize("name", ["1830_game_end_bank.json", "26855.json"])
def test_openings_replay_to_the_first_operating_round(name: str) -> None:
    renderer, played, stopped = play_opening(name)
    assert "lay_tile" in stopped
    assert renderer.game.round_label() == "OR 1.1"
    assert money_total(renderer) == 12000
    state = renderer.game.state
    for sym in state.corporations:
        total = sum(c.percent for c in state.certificates if c.corporation == sym)
        assert total == 100
        assert state.percent_of(POOL, sym) == 0, "no sales in the first stock round"
