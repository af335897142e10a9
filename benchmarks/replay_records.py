"""Replay time and peak memory of every recorded game in the fixtures folder.

For each record: the minimum and median wall time of 5 full replays (order lines rendered
and parsed back, every route checked and its revenue computed), the minimum CPU time of the
process over those replays (the figure to compare on a machine shared with other work, where
the wall time also counts waiting for a core), and the peak resident memory of a fresh
process replaying it once.

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
    print(f"{'record':<58} {'actions':>7} {'min s':>7} {'median s':>9} {'cpu min s':>9} {'peak MiB':>9}  result")
    for path in paths:
        record = load_record(path)
        times = []
        cpu = []
        outcome = None
        for _ in range(args.runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            outcome = replay_record(record)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        assert outcome is not None
        status = "exact" if outcome.error is None and outcome.result == record.get("result") else (
            f"stopped: {outcome.error}"[:60] if outcome.error else "result differs")
        print(f"{path.parent.name + '/' + path.name:<58} {outcome.actions_applied:>7} "
              f"{min(times):>7.3f} {statistics.median(times):>9.3f} {min(cpu):>9.3f} {peak_memory_mb(path):>9.1f}  {status}")


if __name__ == "__main__":
    main()
