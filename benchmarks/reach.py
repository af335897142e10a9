"""Time of the reach search (what a corporation's routes reach, for its tile lays and tokens)
on the last position of each recorded game in the fixtures folder: every open corporation
with a token, repeated for a few seconds; prints milliseconds per corporation and how many
of them the search over routes had to decide (the breadth-first walk alone answers the rest;
:func:`pbem.engine.reach.reach`).

    python benchmarks/reach.py [--seconds 2] [FIXTURES]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from pbem.engine import reach, track
from pbem.engine.game import Game
from pbem.importers.e18xx import load_record
from pbem.importers.replay import replay_record

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures"


def last_position(path: Path) -> Game:
    """The game of the record at ``path`` after its last action."""
    games: list[Game] = []
    replay_record(load_record(path), after_action=lambda _action, game: games.append(game) if not games else None)
    return games[0]  # one game object, played on to the end


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("fixtures", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    print(f"{'record':55} {'corps':>5} {'decided':>7} {'ms each':>8}")
    for path in sorted((args.fixtures / "18xx.games").glob("*/*.json")):
        game = last_position(path)
        tracks = track.track_graph(game)
        corps = [c for c, s in game.state.corporations.items() if not s.closed and track.token_vertices(game, c)]
        if not corps:
            continue
        searched = 0
        search = reach._trails

        def counted(*a: object, **k: object) -> object:
            nonlocal searched
            searched += 1
            return search(*a, **k)  # type: ignore[arg-type]

        reach._trails = counted  # type: ignore[assignment]
        for corp in corps:
            reach.reach(tracks, track.token_vertices(game, corp), lambda v, c=corp: track.blocks(game, v, c))
        reach._trails = search
        began, count = time.perf_counter(), 0
        while time.perf_counter() - began < args.seconds:
            for corp in corps:
                reach.reach(tracks, track.token_vertices(game, corp), lambda v, c=corp: track.blocks(game, v, c))
                count += 1
        spent = (time.perf_counter() - began) / count * 1000
        print(f"{str(path.relative_to(args.fixtures / '18xx.games')):55} {len(corps):5} {searched:7} {spent:8.2f}")


if __name__ == "__main__":
    main()
