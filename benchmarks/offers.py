"""Time to work out what the player to act may send (the report's "you may" list, also
HELP's and a refusal's) at every position of recorded games.

Replays each record and, before each of its actions, times the offers to the player to act
with the game's caches emptied first (so the best run is searched each time, as for a new
report); prints the positions, the total and the mean per position.

    python benchmarks/offers.py [FIXTURES]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from pbem import report_sections as sections
from pbem.importers.e18xx import Renderer, effective_actions, load_record

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures"
RECORDS = [("1830", "1830_game_end_bank.json"), ("1870", "1870_game_end_bank.json")]


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PBEM_FIXTURES", str(DEFAULT)))
    for title, name in RECORDS:
        record = load_record(root / "18xx.games" / title / name)
        renderer = Renderer(record)
        spent, positions, lines = 0.0, 0, 0
        for action in effective_actions(record):
            game = renderer.game
            actors = game.current_actors()
            if actors:
                game.cache.clear()
                start = time.perf_counter()
                found = sections.offer(game, actors[0])
                spent += time.perf_counter() - start
                positions += 1
                lines += sum(len(c.orders) for c in found.choices) if found else 0
            try:
                ours = renderer.render(action)
            except Exception:  # the end of what the renderer supports (a manual end)
                break
            if ours is not None:
                game.apply(renderer.seat(action), ours)
        print(f"{title} {name}: {positions} positions, {lines} order lines offered, "
              f"{spent:.2f} s, {spent / positions * 1000:.2f} ms a position")


if __name__ == "__main__":
    main()
