"""Random legal games: play games from the engine's legal actions, check the invariants after
every action, and print games/s, actions/s and every failure with the command that
reproduces it (pbem.randomplay).

    python benchmarks/random_games.py --title 1870 --options dixon --games 5 --seed 100
    python benchmarks/random_games.py --games 1            # one game of every setup

Without ``--title`` every title and option set of ``pbem.randomplay.SETUPS`` is played;
``--options`` names the variants of one setup (as ``pbem new-game --variant``). Game ``i``
of a setup uses seed ``S + i``. ``--cheap`` leaves out the costly checks (the offered lines
and the reports) for speed.
"""

from __future__ import annotations

import argparse
import sys
import time

from pbem.errors import ConfigError
from pbem.randomplay import Checks, InvariantError, play_game, setups_for
from pbem.randomplay.setups import add_setup_arguments


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_setup_arguments(parser)
    parser.add_argument("--cheap", action="store_true", help="no offer or report checks")
    args = parser.parse_args(argv)
    checks = Checks(offers_every=0, reports_every=0) if args.cheap else Checks()
    try:
        chosen = setups_for(args.title, tuple(args.options) if args.options is not None else None, args.players)
    except ConfigError as exc:
        parser.error(str(exc))
    games = actions = 0
    failures: list[str] = []
    start = time.perf_counter()
    for setup in chosen:
        for seed in range(args.seed, args.seed + args.games):
            began = time.perf_counter()
            try:
                played = play_game(setup, seed, checks, args.max_actions)
            except (InvariantError, ConfigError) as exc:
                command = (f"python benchmarks/random_games.py {setup.command_options()} --games 1 --seed {seed}"
                           + (" --cheap" if args.cheap else ""))
                failures.append(f"{exc}\n    reproduce: {command}")
                print(f"FAIL {setup.name} seed {seed}: {exc}", flush=True)
                continue
            games += 1
            actions += len(played.log)
            state = played.game.state
            print(f"{setup.name} seed {seed}: {len(played.log)} actions, ended ({state.end_reason}) in "
                  f"{played.game.round_label()}, {time.perf_counter() - began:.1f} s", flush=True)
    elapsed = time.perf_counter() - start
    print(f"\n{games} games, {actions} actions in {elapsed:.1f} s: {games / elapsed:.2f} games/s, "
          f"{actions / elapsed:.0f} actions/s; {len(failures)} failures")
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
