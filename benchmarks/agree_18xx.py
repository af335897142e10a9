"""Agreement with the reference engine: replay 18xx.games records in our engine and in the
platform's public Ruby engine, and compare the two states after every record action.

Compared after each action: every player's cash, certificates (percent held per
corporation) and private companies; every open corporation's cash, trains and share price;
the phase; whose turn it is. Printed per record: "agreed through N actions", or the first
action after which the states differ (its index, id and JSON, the differences, both states).

    python benchmarks/agree_18xx.py FILE.json [FILE.json ...] [--engine PATH] [--json]

The platform's engine is not part of this project: clone the public repository
(``git clone https://github.com/tobymao/18xx``) anywhere and name the folder holding its
``lib/engine`` with ``--engine PATH`` or the environment variable ``PBEM_18XX_ENGINE``.
Ruby 3.1 or later runs it; no gem is needed (the driver ``benchmarks/agree/engine_states.rb``
loads only the engine's base and the record's title). Exit status: 0 when every record
agreed, 1 when one did not, 2 when the engine cannot be found.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pbem.importers.agreement import Agreement, compare_states, our_states
from pbem.importers.e18xx import load_record

HERE = Path(__file__).resolve().parent / "agree"
DRIVER = HERE / "engine_states.rb"
RUBYLIB = HERE / "rubylib"
ENV_VAR = "PBEM_18XX_ENGINE"


class EngineNotFound(Exception):
    """The platform's engine (or Ruby) is not where we were told; the message says how to get it."""


def engine_dir(option: str | None) -> Path:
    """The folder holding the platform's ``lib/engine``: ``option``, else ``$PBEM_18XX_ENGINE``.

    :raises EngineNotFound: neither is given, or the folder has no ``lib/engine``.
    """
    given = option or os.environ.get(ENV_VAR)
    if not given:
        raise EngineNotFound(f"name the platform's engine with --engine PATH or {ENV_VAR}=PATH "
                             "(a clone of https://github.com/tobymao/18xx: the folder holding lib/engine)")
    path = Path(given)
    if not (path / "lib" / "engine").is_dir():
        raise EngineNotFound(f"{path} has no lib/engine (clone https://github.com/tobymao/18xx there)")
    return path


def platform_states(record_path: Path, engine: Path, ruby: str = "ruby") -> list[dict[str, Any]]:
    """The platform's state lines for a record file (see ``agree/engine_states.rb``).

    :raises EngineNotFound: Ruby cannot be run.
    :raises RuntimeError: the driver failed (its error output is in the message).
    """
    try:
        done = subprocess.run([ruby, "-I", str(RUBYLIB), str(DRIVER), str(engine), str(record_path)],
                              capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise EngineNotFound(f"cannot run {ruby!r}: Ruby 3.1 or later is needed") from exc
    if done.returncode != 0:
        raise RuntimeError(f"the platform's driver failed on {record_path}:\n{done.stderr.strip()[-3000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def compare_record(record: dict[str, Any] | Path, engine: Path, name: str | None = None) -> Agreement:
    """Replay one record (a dict, or the path of its JSON file) in both engines and compare
    them after every action in force. ``name`` labels the result (default: the file's name,
    else the record's id)."""
    if isinstance(record, Path):
        name = name or record.name
        data = load_record(record)
        lines = platform_states(record, engine)
    else:
        import tempfile

        data = record
        name = name or str(record.get("id", "record"))
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False, encoding="utf-8") as fh:
            json.dump(record, fh)
        try:
            lines = platform_states(Path(fh.name), engine)
        finally:
            os.unlink(fh.name)
    ours, outcome = our_states(data)
    return compare_states(data, name, ours, lines, our_error=outcome.error)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog=f"The platform's engine: git clone https://github.com/tobymao/18xx (MIT), then "
               f"--engine PATH or {ENV_VAR}=PATH naming that folder (it holds lib/engine); "
               "Ruby 3.1 or later runs it, no gems needed.")
    parser.add_argument("records", nargs="+", type=Path, help="18xx.games record files (JSON)")
    parser.add_argument("--engine", help=f"the platform's checkout (holding lib/engine); default ${ENV_VAR}")
    parser.add_argument("--json", action="store_true", help="one JSON object per record instead of text")
    args = parser.parse_args(argv)
    try:
        engine = engine_dir(args.engine)
    except EngineNotFound as exc:
        print(f"agree_18xx: {exc}", file=sys.stderr)
        return 2
    status = 0
    for path in args.records:
        try:
            result = compare_record(path, engine)
        except (EngineNotFound, RuntimeError, OSError, ValueError) as exc:
            print(f"{path.name}: not compared: {exc}")
            status = 1
            continue
        if not result.agreed:
            status = 1
        if args.json:
            print(json.dumps(result.to_json()))
        else:
            print(result.summary())
    return status


if __name__ == "__main__":
    sys.exit(main())
