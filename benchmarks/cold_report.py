"""Cold start of ``pbem report`` on a late game: each run a fresh interpreter.

Imports a recorded game (default: the fixtures' ``1870/1870_game_end_bank.json``) into a
temporary data folder with ``pbem import-18xx``, then times ``python -m pbem.cli report``
in new processes: with the game's snapshot current (the usual case: the server and every
report keep it), and with the snapshot removed before each run (the log replayed). Prints
the wall time and the CPU time (user + system, of the child) of each kind: the minimum and
the median of the runs. The CPU time is the figure to compare on a machine shared with other
work, where the wall time also counts waiting for a core.

    python -m benchmarks.cold_report [--runs 7] [RECORD]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEFAULT = (Path(__file__).resolve().parent.parent.parent / "shared" / "fixtures" / "18xx.games" / "1870"
           / "1870_game_end_bank.json")
ROOT = Path(__file__).resolve().parent.parent


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one child process running ``args``.

    :raises subprocess.CalledProcessError: the command failed.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    fixtures = os.environ.get("PBEM_FIXTURES")
    default = Path(fixtures, "18xx.games", "1870", "1870_game_end_bank.json") if fixtures else DEFAULT
    parser.add_argument("record", nargs="?", default=str(default))
    args = parser.parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        config = Path(tmp, "pbem.yaml")
        config.write_text(f"data_dir: {Path(tmp, 'data')}\n")
        game = "late"
        subprocess.run([sys.executable, "-m", "pbem.cli", "import-18xx", "--config", str(config), args.record,
                        "--game", game], check=True, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
        report = [sys.executable, "-m", "pbem.cli", "report", "--config", str(config), game]
        snapshot = Path(tmp, "data", "games", game, "snapshot.pickle")
        results: dict[str, list[tuple[float, float]]] = {"snapshot current": [], "log replayed": []}
        timed(report, env)  # writes the snapshot and the byte-code caches
        for _ in range(args.runs):
            results["snapshot current"].append(timed(report, env))
            snapshot.unlink()
            results["log replayed"].append(timed(report, env))
    print(f"pbem report, {Path(args.record).name}, {args.runs} runs each ({sys.executable})")
    print(f"{'':<18} {'wall min':>9} {'wall med':>9} {'cpu min':>9} {'cpu med':>9}")
    for kind, runs in results.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"{kind:<18} {min(walls):>9.3f} {statistics.median(walls):>9.3f} "
              f"{min(cpus):>9.3f} {statistics.median(cpus):>9.3f}")


if __name__ == "__main__":
    main()
