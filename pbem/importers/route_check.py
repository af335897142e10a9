"""Every recorded run of an 18xx.games record against our route optimiser.

The record is replayed (:func:`pbem.importers.replay.replay_record`); before each recorded
run the optimiser searches the corporation's best run on the same position. For each run:
the recorded revenue, the revenue our engine computes for the recorded run (verified), the
optimum, the search time and whether the search finished. An optimum below the recorded
revenue would be a fault of the optimiser.
"""

from __future__ import annotations

import time
from typing import Any

from pbem.engine import routes
from pbem.engine.game import Game
from pbem.importers.replay import ReplayOutcome, replay_record


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` (0-1) of ``values`` lie (nearest rank; 0 if empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


def check_routes(record: dict[str, Any], budget: int = routes.DEFAULT_SEARCH_BUDGET
                 ) -> tuple[dict[str, Any], ReplayOutcome]:
    """``({"runs": [...], "summary": {...}}, the replay's outcome)`` for ``record``.

    Each run: ``{"action_id", "corporation", "recorded_revenue", "verified_revenue",
    "optimal_revenue", "ms", "complete", "routes", "combinations", "steps"}`` (``ms``: the
    search's wall time, measured here, outside the engine). The summary: ``runs``,
    ``optimal_at_least_recorded``, ``complete``, ``median_ms``, ``p95_ms``, ``max_ms`` and the
    ``largest_search`` (routes listed, combinations tried).
    """
    found: list[dict[str, Any]] = []

    def before_run(action: dict[str, Any], game: Game) -> None:
        corp, must_join = routes.run_due(game)
        started = time.perf_counter()
        best = routes.best_run(game, corp, budget, must_join=must_join)
        ms = (time.perf_counter() - started) * 1000
        found.append({
            "action_id": str(action["id"]), "corporation": corp,
            "recorded_revenue": sum(int(r.get("revenue", 0)) for r in action["routes"]),
            "optimal_revenue": best.revenue, "ms": round(ms, 2), "complete": best.complete,
            "routes": best.routes, "combinations": best.combinations, "steps": best.steps,
        })

    outcome = replay_record(record, before_run=before_run)
    for run in found:
        run["verified_revenue"] = outcome.run_revenues.get(run["action_id"])
    times = [float(run["ms"]) for run in found]
    largest = max(found, key=lambda run: (run["routes"], run["combinations"]), default=None)
    summary = {
        "runs": len(found),
        "optimal_at_least_recorded": sum(1 for run in found if run["optimal_revenue"] >= run["recorded_revenue"]),
        "complete": sum(1 for run in found if run["complete"]),
        "median_ms": percentile(times, 0.5),
        "p95_ms": percentile(times, 0.95),
        "max_ms": max(times, default=0.0),
        "largest_search": ({"action_id": largest["action_id"], "routes": largest["routes"],
                            "combinations": largest["combinations"]} if largest else None),
    }
    return {"runs": found, "summary": summary}, outcome
