"""The route optimiser over every recorded run of the fixtures' records that replay.

For each record: how many runs, how many optima are at least the recorded revenue, how many
searches finished within the budget, and the search times; then the figures over all runs:
median, p95 and maximum time, and the largest search (routes listed, combinations tried).

    python benchmarks/routes.py [--budget 500000] [FIXTURES]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
from pbem.importers.e18xx import load_record
from pbem.importers.route_check import check_routes, percentile

DEFAULT = Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=DEFAULT_SEARCH_BUDGET)
    parser.add_argument("fixtures", nargs="?", default=os.environ.get("PBEM_FIXTURES", str(DEFAULT)))
    args = parser.parse_args()
    paths = sorted(Path(args.fixtures, "18xx.games").glob("*/*.json"))
    every: list[dict] = []
    print(f"{'record':<52} {'runs':>5} {'>=rec':>6} {'done':>5} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
    for path in paths:
        report, outcome = check_routes(load_record(path), args.budget)
        s = report["summary"]
        name = path.parent.name + "/" + path.name
        if outcome.error and not report["runs"]:
            print(f"{name:<52} skipped: {outcome.error[:60]}")
            continue
        every += report["runs"]
        print(f"{name:<52} {s['runs']:>5} {s['optimal_at_least_recorded']:>6} {s['complete']:>5} "
              f"{s['median_ms']:>10.1f} {s['p95_ms']:>8.1f} {s['max_ms']:>8.1f}"
              + (f"  (replay stopped: {outcome.error[:40]})" if outcome.error else ""))
    times = [float(r["ms"]) for r in every]
    largest = max(every, key=lambda r: (r["routes"], r["combinations"]))
    most = max(every, key=lambda r: (r["combinations"], r["routes"]))
    print(f"\nall {len(every)} runs: optimum >= recorded in "
          f"{sum(r['optimal_revenue'] >= r['recorded_revenue'] for r in every)}, finished in "
          f"{sum(bool(r['complete']) for r in every)}; median {percentile(times, 0.5):.1f} ms, "
          f"p95 {percentile(times, 0.95):.1f} ms, max {max(times):.1f} ms")
    steps = max(every, key=lambda r: r["steps"])
    print(f"most search steps: {steps['steps']} ({steps['corporation']}, action {steps['action_id']}, "
          f"{'finished' if steps['complete'] else 'budget used up'}) of a budget of {args.budget}")
    print(f"largest search: {largest['routes']} routes listed ({largest['corporation']}, action "
          f"{largest['action_id']}); most combinations tried: {most['combinations']} "
          f"({most['corporation']}, action {most['action_id']})")


if __name__ == "__main__":
    main()
