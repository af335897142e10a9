"""A game in which no player may act and nothing operates any more (every corporation closed
on the market, none to start) ends, reason ``stalled``, rather than passing empty rounds for
ever; while something still changes between sets (a private's revenue), it goes on to its
own end."""

from __future__ import annotations

import signal
from collections.abc import Iterator

import pytest

from pbem.engine.closing import close_corporation
from pbem.engine.game import Game
from pbem.engine.state import RoundState
from pbem.engine.values import Owner
from pbem.ruleset import load_title


@pytest.fixture(autouse=True)
def _no_endless_loop() -> Iterator[None]:
    """A game that follows empty rounds for ever fails the test instead of hanging it."""
    def stop(signum: int, frame: object) -> None:
        raise TimeoutError("the rounds follow one another for ever")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(20)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def _every_corporation_closed(owner_of_mrbc: str | None) -> Game:
    """1870 with players A, B, C: every corporation started and closed on the market (so
    none may be started again); every private closed but the Mississippi River Bridge
    Company when ``owner_of_mrbc`` holds it."""
    game = Game(load_title("1870"), ["A", "B", "C"])
    for sym in list(game.state.corporations):
        game.state.corporations[sym].ipoed = True
        close_corporation(game, sym)
    for sym in list(game.state.companies):
        if sym == "MRBC" and owner_of_mrbc is not None:
            game.state.companies[sym].owner = Owner.player(owner_of_mrbc)
            game.state.players[owner_of_mrbc].companies.append(sym)
        else:
            game.close_company(sym)
    return game


def test_a_game_nobody_can_act_in_any_more_ends_stalled() -> None:
    game = _every_corporation_closed(None)
    cash = {p: s.cash for p, s in game.state.players.items()}
    game.begin_round(RoundState(kind="stock", number=2))
    assert game.state.finished and game.state.end_reason == "stalled"
    assert {p: s.cash for p, s in game.state.players.items()} == cash
    assert game.legal_actions("A") == [] and "stalled" in game.waiting_for()


def test_a_private_paying_its_owner_keeps_the_game_going_to_the_bank_breaking() -> None:
    game = _every_corporation_closed("A")
    game.state.players["B"].cash += game.state.bank - 25  # a bank of $25: MRBC's $10 breaks it
    game.state.bank = 25
    game.begin_round(RoundState(kind="stock", number=2))
    assert game.state.finished and game.state.end_reason == "bank"
    assert game.state.players["A"].cash > 0
