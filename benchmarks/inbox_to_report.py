"""Time from an order mail landing in the Maildir inbox to the turn reports written.

Plays the built-in 1830 opening (34 order mails) on the embedded default, several times, and
prints the median, p95 and maximum of the time one poller pass takes to read the mail, apply
the orders, append and fsync the log, archive the report and deliver every player's copy.

    python benchmarks/inbox_to_report.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from pbem.demo import run_demo


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    timings: list[float] = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            captured: list[float] = []
            run_demo(Path(tmp) / "demo", None, echo=lambda _line: None, timings=captured)
            timings.extend(captured)
    timings.sort()
    p95 = timings[int(0.95 * (len(timings) - 1))]
    print(f"mails: {len(timings)} in {args.runs} runs")
    print(f"inbox -> reports written: median {statistics.median(timings) * 1000:.1f} ms, "
          f"p95 {p95 * 1000:.1f} ms, max {timings[-1] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
