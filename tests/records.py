"""Finding the recorded 18xx.games games the tests replay.

They live outside the project, in ``../shared/fixtures/18xx.games`` beside the checkout, or
where the environment variable ``PBEM_FIXTURES`` points. Where they are absent the tests that
need them are skipped with the reason; under CI (``CI`` set) they fail instead, so CI never
skips them silently.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def fixtures_root() -> Path:
    """The folder holding ``18xx.games/<title>/*.json``."""
    env = os.environ.get("PBEM_FIXTURES")
    return Path(env) if env else REPO.parent / "shared" / "fixtures"


def record_path(title: str, name: str) -> Path:
    """The path of one record; skips (or, under CI, fails) the test when it is absent."""
    path = fixtures_root() / "18xx.games" / title / name
    if not path.exists():
        reason = f"recorded game {path} is absent (set PBEM_FIXTURES to the fixtures folder)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path
