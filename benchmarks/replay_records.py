"""Replay time and peak memory of every recorded game in the fixtures folder.

For each record: the median wall time of 5 full replays (order lines rendered and parsed
back, every route checked and its revenue computed), and the peak resident memory of a
fresh process replaying it once.

    python benchmarks/replay_records.py [--runs 5] [FIXTURES]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from pbem.importers.e18xx import load_record
from pbem.importers.replay import replay_record

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures"


def peak_memory_mb(path: Path) -> float:
    """Peak RSS (MiB) of a child process that loads and replays ``path`` once."""
    code = (
        "import resource, sys; from pathlib import Path; "
        "from pbem.importers.e18xx import load_record; from pbem.importers.replay import replay_record; "
        "replay_record(load_record(Path(sys.argv[1]))); "
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.strip()) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("fixtures", nargs="?", default=os.environ.get("PBEM_FIXTURES", str(DEFAULT)))
    args = parser.parse_args()
    paths = sorted(Path(args.fixtures, "18xx.games").glob("*/*.json"))
    print(f"{'record':<58} {'actions':>7} {'median s':>9} {'peak MiB':>9}  result")
    for path in paths:
        record = load_record(path)
        times = []
        outcome = None
        for _ in range(args.runs):
            start = time.perf_counter()
            outcome = replay_record(record)
            times.append(time.perf_counter() - start)
        assert outcome is not None
        status = "exact" if outcome.error is None and outcome.result == record.get("result") else (
            f"stopped: {outcome.error}"[:60] if outcome.error else "result differs")
        print(f"{path.parent.name + '/' + path.name:<58} {outcome.actions_applied:>7} "
              f"{statistics.median(times):>9.2f} {peak_memory_mb(path):>9.1f}  {status}")


if __name__ == "__main__":
    main()
