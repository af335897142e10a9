"""Time to render a late-game turn report (context, ASCII map and template).

Imports the recorded game 1830_game_end_bank at its end, then renders the full report for
each recipient 20 times and prints the median and the maximum.

    python benchmarks/render_report.py [FIXTURES]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pbem.actionlog import verify
from pbem.games import replay
from pbem.importers.e18xx import load_record
from pbem.importers.log_import import create_imported_game
from pbem.reports import render, report_context

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures"


def main() -> None:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PBEM_FIXTURES", str(DEFAULT)))
    record = load_record(root / "18xx.games" / "1830" / "1830_game_end_bank.json")
    with tempfile.TemporaryDirectory() as tmp:
        create_imported_game(Path(tmp), "bench", record)
        rebuilt = replay(verify(Path(tmp) / "games" / "bench" / "log.jsonl"))
    # the position just before the end: the last operating round is still on
    times = []
    for _ in range(20):
        for recipient in [None, *rebuilt.game.state.seats]:
            start = time.perf_counter()
            render("report.txt.j2", report_context(rebuilt, since_seq=rebuilt.last_seq - 10, number=1,
                                                   recipient=recipient))
            times.append(time.perf_counter() - start)
    print(f"late-game report ({len(times)} renders): median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
