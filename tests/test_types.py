"""The package type-checks under ``mypy --strict`` (settings in pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

from mypy import api

REPO = Path(__file__).resolve().parent.parent


def test_mypy_strict_is_clean() -> None:
    stdout, stderr, status = api.run(["--config-file", str(REPO / "pyproject.toml"), str(REPO / "pbem")])
    assert status == 0, stdout + stderr
