"""Titles that live only in the tests: their data in ``rules/`` beside this file, their code
in modules here (``g9999``). They prove that a title needs no edit of the core (issue 11)."""

from __future__ import annotations

from pathlib import Path

RULES = Path(__file__).resolve().parent / "rules"
"""The test titles' data folder (a ``rules_dir`` for :func:`pbem.ruleset.load_title`)."""
