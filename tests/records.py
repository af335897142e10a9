"""Finding the recorded 18xx.games games the tests replay.

They live outside the project, in ``../shared/fixtures/18xx.games`` beside the checkout, or
where the environment variable ``PBEM_FIXTURES`` points. Where they are absent the tests that
need them are skipped with the reason; under CI (``CI`` set) they fail instead, so CI never
skips them silently.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pbem.importers.e18xx import Renderer

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


def replayed_before(title: str, name: str, action_id: float) -> Renderer:
    """A renderer whose game has applied every effective action of the record before
    ``action_id`` (skipping or failing as :func:`record_path` does)."""
    from pbem.importers.e18xx import Renderer, effective_actions, load_record

    record = load_record(record_path(title, name))
    renderer = Renderer(record)
    for action in effective_actions(record):
        if float(action["id"]) >= action_id:
            break
        ours = renderer.render(action)
        if ours is not None:
            renderer.game.apply(renderer.seat(action), ours)
    return renderer
