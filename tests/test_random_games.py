"""Random legal games (issue 19): whole games played from the engine's own legal actions,
with the invariants checked after every action (pbem.randomplay). A bounded run: a few games
of each title and of option sets, each with a fixed seed so the run is deterministic; the
costly checks (every offered line sent to a copy, the report at 80 and 132 columns) are
made every few actions. ``benchmarks/random_games.py`` plays any number of them.

The 1825 game of Unit 3 for two players (seed 1) is the one in which a company in
receivership once spent on credit what no run could repay, and the game stuck (issue 19).

1830 (4 players) seed 4 once let a corporation run the train it bought in the same turn
(1830 rules 6: the turn's order is fixed), leaving another over its train limit with no
discard due; tests/test_operating_legal.py has the rule's test.

The games played here: one or more of every title; of 1870 the base game, ``dixon``,
``can_protect_if_sold``, ``original_tiles``, ``original_rules``, ``small_cities``, the
Historical Order Start alone and with ``dixon`` and ``diesels``; of 1825 Units 1 and 2,
Unit 1 with K6 and DB1, Unit 2 with K5, Unit 3, and Lorenz's privates; of 1829 the combined
boards and the South board alone.
"""

from __future__ import annotations

import random

import pytest

from pbem.engine.actions import Bid
from pbem.engine.game import Game
from pbem.engine.steps import auction
from pbem.orders import Vocabulary, parse_order
from pbem.randomplay import Checks, InvariantError, Setup, game_log, play_game
from pbem.randomplay import invariants
from pbem.randomplay.choose import candidates
from pbem.randomplay.setups import SETUPS, resolved
from pbem.ruleset import load_title

CHECKS = Checks(offers_every=40, reports_every=150, lays_sampled=2, wrong_lines=1)

CI_GAMES = [
    (Setup("1830", (), 3), 2),
    (Setup("1830", ("multiple_brown_from_ipo",), 3), 2),
    (Setup("1870", (), 4), 4),
    (Setup("1870", ("dixon",), 3), 2),
    (Setup("1870", ("can_protect_if_sold",), 4), 1),
    (Setup("1870", ("original_tiles",), 4), 3),
    (Setup("1870", ("original_rules",), 5), 3),
    (Setup("1870", ("small_cities",), 3), 1),
    # every corporation closes on the market and none may be started: the game ends stalled
    (Setup("1870", ("historical_order_start",), 4), 1),
    (Setup("1870", ("historical_order_start", "dixon", "diesels"), 4), 3),
    (Setup("1825", ("unit_1",), 4), 1),
    (Setup("1825", ("unit_1", "k6", "db1"), 4), 1),
    (Setup("1825", ("unit_2",), 3), 1),
    (Setup("1825", ("unit_2", "k5"), 3), 1),
    (Setup("1825", ("unit_1", "lorenz"), 4), 1),
    (Setup("1825", ("unit_3",), 2), 1),
    (Setup("1829", (), 5), 0),
    (Setup("1829", ("south",), 4), 0),
]


@pytest.mark.parametrize("setup, seed", CI_GAMES, ids=[f"{s.name}-seed{seed}" for s, seed in CI_GAMES])
def test_a_random_game_plays_to_its_end_with_every_invariant_holding(setup: Setup, seed: int) -> None:
    played = play_game(setup, seed, CHECKS)
    assert played.game.state.finished
    assert len(played.log) > 100
    kinds = {line.split()[0] for _, line in played.log}
    assert {"PASS", "BUY", "PAR", "LAY", "RUN", "TRAIN"} <= kinds, kinds


def test_every_setup_is_a_combination_its_title_allows() -> None:
    for setup in SETUPS:
        variants = resolved(setup)  # raises ConfigError for a combination the title refuses
        assert set(setup.variants) <= set(variants) or setup.title == "1825"
    titles = {s.title for s in SETUPS}
    assert titles == {"1830", "1870", "1825", "1829"}


def test_the_same_seed_plays_the_same_game_and_its_log_replays() -> None:
    setup = Setup("1825", ("unit_2",), 3)
    log = game_log(setup, 1)
    assert log == game_log(setup, 1)
    game = Game(load_title("1825", resolved(setup)), [f"Player {i}" for i in range(1, 4)])
    vocab = Vocabulary.from_title(game.title)
    for seat, line in log:
        game.apply(seat, parse_order(line, vocab))
    assert game.state.finished


def test_bids_are_sampled_up_to_the_bidders_cash() -> None:
    """The first bid of an 1830 auction: the least bid is listed; the samples reach the most
    the player may bid."""
    game = Game(load_title("1830"), ["A", "B", "C"])
    found = candidates(game, "A", random.Random(0))
    bids = [c for c in found if isinstance(c.action, Bid) and c.action.company == "CA"]
    most = auction.max_bid(game, "A", "CA")
    assert any(c.listed for c in bids)
    assert most in [c.action.price for c in bids if isinstance(c.action, Bid)]


def test_a_broken_invariant_names_the_seed_the_action_and_the_invariant() -> None:
    game = Game(load_title("1830"), ["A", "B", "C"])
    assert invariants.certificates(game) == []
    assert invariants.money(game, invariants.total_money(game)) == []
    game.state.certificates.pop()
    assert len(invariants.certificates(game)) == 1 and invariants.certificates(game)[0].endswith("add up to 90%")
    game.state.players["A"].cash += 1
    assert invariants.money(game, invariants.total_money(game) - 1)
    error = InvariantError("1830 base (3 players)", 7, 12, "money", "the game's money is 1, not 0")
    assert "seed 7" in str(error) and "action 12" in str(error) and "'money'" in str(error)


def test_a_failing_check_stops_the_game_naming_its_seed_and_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """The driver raises at the first action after which a check fails, with the seed, the
    action number and the invariant (here a market check made to fail once the first
    operating round has begun)."""
    def market(game: Game) -> list[str]:
        return ["made to fail"] if game.state.round.kind == "operating" else []

    monkeypatch.setattr(invariants, "market_grid", market)
    with pytest.raises(InvariantError) as caught:
        play_game(Setup("1830", (), 3), 5, Checks(offers_every=0, reports_every=0))
    assert caught.value.seed == 5 and caught.value.invariant == "market" and caught.value.action > 10
    assert "seed 5" in str(caught.value) and "made to fail" in str(caught.value)
    before = play_game(Setup("1830", (), 3), 5, Checks(offers_every=0, reports_every=0, replay=False),
                       stop_before=caught.value.action)
    assert before.game.state.round.kind != "operating", "the action named is the first that broke it"


def test_the_setup_arguments_choose_setups_and_seeds() -> None:
    """The benchmarks' shared command line: no words is every setup from seed 1; named
    options and players pick one."""
    import argparse

    from pbem.randomplay.setups import add_setup_arguments

    parser = argparse.ArgumentParser()
    add_setup_arguments(parser)
    plain = parser.parse_args([])
    assert (plain.title, plain.options, plain.games, plain.seed, plain.max_actions) == (None, None, 1, 1, 20_000)
    args = parser.parse_args(["--title", "1870", "--options", "dixon", "--players", "3", "--games", "2", "--seed", "5"])
    assert (args.title, args.options, args.players, args.games, args.seed) == ("1870", ["dixon"], 3, 2, 5)


def test_a_game_with_no_corporation_floated_for_fifty_stock_rounds_is_dead() -> None:
    """No corporation open and floated: nothing operates and no money comes in, while shares
    of an unfloated one may change hands for ever; after DEAD_ROUNDS such stock rounds the
    driver ends the game as its GM would. A floated corporation, or another round, resets it."""
    from pbem.engine.state import RoundState, StockRoundState
    from pbem.randomplay.driver import DEAD_ROUNDS, dead

    game = Game(load_title("1830"), ["A", "B", "C"])
    game.state.round = RoundState(kind="stock", number=3, stock=StockRoundState())
    assert dead(game, None) == (False, 3)
    game.state.round.number = 3 + DEAD_ROUNDS - 1
    assert dead(game, 3) == (False, 3)
    game.state.round.number = 3 + DEAD_ROUNDS
    assert dead(game, 3) == (True, 3)
    game.state.corporations["PRR"].floated = True
    assert dead(game, 3) == (False, None)
    game.state.corporations["PRR"].closed = True
    assert dead(game, None) == (False, 3 + DEAD_ROUNDS)
