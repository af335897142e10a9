"""Random legal games: a seeded driver that plays whole games from the engine's own legal
actions and checks invariants after every action (a tool for tests and benchmarks; the
server never imports it).

- :mod:`pbem.randomplay.setups` -- the titles and option sets to play;
- :mod:`pbem.randomplay.choose` -- the candidate actions of a position and the policy that
  picks one;
- :mod:`pbem.randomplay.invariants` -- the checks made after each action and at the end;
- :mod:`pbem.randomplay.driver` -- the loop: :func:`play_game`, and :func:`game_log` for
  the order lines of a played game.
"""

from __future__ import annotations

from pbem.randomplay.driver import Checks, PlayedGame, game_log, play_game
from pbem.randomplay.invariants import InvariantError
from pbem.randomplay.setups import SETUPS, Setup, setups_for

__all__ = ["Checks", "InvariantError", "PlayedGame", "SETUPS", "Setup", "game_log", "play_game", "setups_for"]
