"""The random driver: a seeded loop that plays a whole game from the engine's legal actions
(:mod:`pbem.randomplay.choose`) and checks the invariants (:mod:`pbem.randomplay.invariants`)
after every action.

Each action is sent as an order line: the candidate is written in the title's vocabulary,
read back (it must read back as itself) and applied; the log keeps the line with the acting
seat, so a played game is a list of order lines another tool can replay or export
(:func:`game_log`). The same seed always plays the same game.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Callable, Mapping

from pbem.engine.state import RoundKind
from pbem.engine.game import Game
from pbem.errors import OrderError
from pbem.orders import Vocabulary, format_order, parse_order
from pbem.randomplay import invariants
from pbem.randomplay.choose import candidates, pick
from pbem.randomplay.invariants import InvariantError
from pbem.randomplay.setups import Setup, resolved
from pbem.ruleset import load_title

MAX_ACTIONS = 20_000
"""A game not over after this many actions fails the ``ends`` invariant."""


@dataclass(frozen=True)
class Checks:
    """Which checks the driver makes and how often: ``offers_every`` / ``reports_every``
    (every n-th action; 0: never), ``lays_sampled`` (how many of the offered tile lays are
    sent to a copy; negative: all), ``wrong_lines`` (random lines sent after each action
    whose refusal must give a reason), ``replay`` (the log replayed at the end),
    ``invariants`` (money, certificates, market and trains after every action; off only
    where the games serve another check, e.g. agreement with another engine)."""

    offers_every: int = 1
    reports_every: int = 1
    lays_sampled: int = 3
    wrong_lines: int = 1
    replay: bool = True
    invariants: bool = True


@dataclass
class PlayedGame:
    """A game the driver played: its ``setup`` and ``seed``, the ``game`` at its end, the
    ``log`` of ``(seat, order line)`` in the order applied, and ``refused``: how many sampled
    lines (not listed by the engine) were refused."""

    setup: Setup
    seed: int
    game: Game
    log: list[tuple[str, str]] = field(default_factory=list)
    refused: int = 0
    ended_by_gm: bool = False
    """Whether the game was dead (:data:`DEAD_ROUNDS`) and ended as its GM would end it."""


DEAD_ROUNDS = 50
"""Stock rounds in a row with no corporation open and floated (none operates, so no money
comes in, while shares of one not yet floated may still change hands for ever, e.g. every
1870 railroad closed but one the players cannot afford to float): the driver then ends the
game as its GM would (``END GAME``; the engine ends only a game in which nobody may act)."""


def dead(game: Game, since: int | None) -> tuple[bool, int | None]:
    """Whether ``game`` has had no corporation open and floated for :data:`DEAD_ROUNDS` stock
    rounds, and the stock round that began that (``since``: the value returned before)."""
    rnd = game.state.round
    if any(c.floated and not c.closed for c in game.state.corporations.values()) or rnd.kind != RoundKind.STOCK:
        return False, since if rnd.kind != RoundKind.STOCK else None
    since = rnd.number if since is None else since
    return rnd.number - since >= DEAD_ROUNDS, since


def _fail(setup: Setup, seed: int, number: int, invariant: str, problems: list[str]) -> None:
    if problems:
        raise InvariantError(setup.name, seed, number, invariant, "; ".join(problems))


def _wrong_lines(game: Game, rng: random.Random, count: int) -> list[tuple[str, str]]:
    """``count`` random lines, most of them refused now: a tile on a random hex, shares of
    a random corporation, a par at an odd price, a train of a random type, a pass by a seat
    not to act."""
    seats = game.state.seats
    coords = sorted(game.board.hexes)
    corps = sorted(game.state.corporations)
    tiles = sorted(game.board.tile_counts) or ["1"]
    makers: list[Callable[[], str]] = [
        lambda: f"LAY {rng.choice(coords)} {rng.choice(tiles)} {rng.randint(0, 5)}",
        lambda: f"BUY {rng.randint(1, 9)} {rng.choice(corps)} POOL",
        lambda: f"PAR {rng.choice(corps)} {rng.randint(1, 999)}",
        lambda: f"SELL {rng.randint(1, 9)} {rng.choice(corps)}",
        lambda: f"TRAIN {rng.choice(game.title.trains).name}",
        lambda: f"TOKEN {rng.choice(coords)}",
        lambda: "PASS",
    ]
    return [(rng.choice(seats), rng.choice(makers)()) for _ in range(count)]


def play_game(setup: Setup, seed: int, checks: Checks = Checks(), max_actions: int = MAX_ACTIONS,
              stop_before: int | None = None, weights: Mapping[str, float] | None = None) -> PlayedGame:
    """Play one game of ``setup`` to its end with ``seed``, checking the invariants; with
    ``stop_before``, stop before that action (to look at the position a failure names: the
    checks' own draws differ, the game's do not); ``weights`` overrides the policy's weights
    of kinds of action (:func:`pbem.randomplay.choose.weight`).

    :raises InvariantError: an invariant failed (naming the seed, the action number, the
        invariant); also ``legal`` (a listed action refused, a line that does not read back,
        no action for the seat to act), ``crash`` (an error that is not a refusal) and
        ``ends`` (no end within ``max_actions``).
    :raises ConfigError: a combination of options the title refuses.
    """
    variants = resolved(setup)
    title = load_title(setup.title, variants)
    game = Game(title, [f"Player {i}" for i in range(1, setup.players + 1)])
    vocab = Vocabulary.from_title(title)
    rng = random.Random(seed)
    checker = random.Random(seed + 1)  # the checks' own draws: the game does not depend on them
    played = PlayedGame(setup, seed, game)
    expected = invariants.total_money(game)
    number = 0
    dead_since: int | None = None
    while not game.state.finished:
        if stop_before is not None and number + 1 >= stop_before:
            return played
        over, dead_since = dead(game, dead_since)
        if over:
            game.end_game("manually_ended")
            played.ended_by_gm = True
            break
        if number >= max_actions:
            _fail(setup, seed, number, "ends", [f"no end after {max_actions} actions ({game.round_label()})"])
        actors = game.current_actors()
        if not actors:
            _fail(setup, seed, number, "legal", [f"the game is not over but nobody acts: {game.waiting_for()}"])
        player = rng.choice(actors)
        found = candidates(game, player, rng)
        if not found:
            _fail(setup, seed, number, "legal", [f"{player} is to act ({game.waiting_for()}) but has no legal action"])
        while True:
            chosen = pick(game, found, rng, weights)
            written = format_order(chosen.action, vocab)
            try:  # the line in its canonical form (a run's stop G19.0 is written G19)
                line = format_order(parse_order(written, vocab), vocab)
                action = parse_order(line, vocab)
            except OrderError as exc:
                _fail(setup, seed, number + 1, "legal", [f"{written!r} ({chosen.action}) does not parse: {exc}"])
                raise
            # a listed action's line reads back as that action (the report writes it once)
            if format_order(action, vocab) != line or (chosen.listed and action != chosen.action):
                _fail(setup, seed, number + 1, "legal", [f"{written!r} reads back as {line!r}, {action}"])
            try:
                game.apply(player, action)
            except OrderError as exc:
                if chosen.listed:
                    _fail(setup, seed, number + 1, "legal",
                          [f"{player}: {line!r}, listed as legal, is refused: {exc}"])
                _fail(setup, seed, number + 1, "refusals", invariants.refusal(line, exc))
                played.refused += 1
                found.remove(chosen)
                if not found:
                    _fail(setup, seed, number + 1, "legal", [f"{player} has no action that is accepted"])
                continue
            except Exception as exc:
                raise InvariantError(setup.name, seed, number + 1, "crash",
                                     f"{player}: {line!r}: {type(exc).__name__}: {exc}") from exc
            break
        number += 1
        played.log.append((player, line))
        _check(played, number, expected, vocab, checks, checker)
    if checks.replay:
        _fail(setup, seed, number, "replay", invariants.replay_equal(game, played.log, vocab, played.ended_by_gm))
    return played


def _check(played: PlayedGame, number: int, expected: int, vocab: Vocabulary, checks: Checks,
           rng: random.Random) -> None:
    """The invariants after action ``number`` of ``played``."""
    game, setup, seed = played.game, played.setup, played.seed
    if checks.invariants:
        _fail(setup, seed, number, "money", invariants.money(game, expected))
        _fail(setup, seed, number, "certificates", invariants.certificates(game))
        _fail(setup, seed, number, "market", invariants.market_grid(game))
        _fail(setup, seed, number, "trains", invariants.train_counts(game))
    actors = game.current_actors()
    if actors and checks.offers_every and number % checks.offers_every == 0:
        _fail(setup, seed, number, "offers",
              invariants.offers(game, actors[0], vocab, rng, checks.lays_sampled, position=number))
    if checks.reports_every and number % checks.reports_every == 0:
        recipient = actors[0] if actors else None
        _fail(setup, seed, number, "report", invariants.report(game, setup.name, resolved(setup), recipient=recipient))
    for seat, line in _wrong_lines(game, rng, checks.wrong_lines):
        try:
            action = parse_order(line, vocab)
            copy_of = _copy(game)
            copy_of.apply(seat, action)
        except OrderError as exc:
            _fail(setup, seed, number, "refusals", invariants.refusal(line, exc))
        except Exception as exc:
            raise InvariantError(setup.name, seed, number, "crash",
                                 f"{seat}: {line!r} sent to a copy: {type(exc).__name__}: {exc}") from exc


def _copy(game: Game) -> Game:
    return copy.deepcopy(game)


def game_log(setup: Setup, seed: int, checks: Checks = Checks(offers_every=0, reports_every=0, wrong_lines=0),
             max_actions: int = MAX_ACTIONS) -> list[tuple[str, str]]:
    """The log of the game ``setup`` played with ``seed`` (:func:`play_game`, by default with
    only the cheap checks): ``[(seat, order line)]`` in the order applied, each line as a
    player would mail it; the seats are ``"Player 1"`` ... in seating order."""
    return play_game(setup, seed, checks, max_actions).log
