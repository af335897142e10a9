"""1870: the title's code (its hooks, its own order words, its operating steps, its connection runs)."""

from __future__ import annotations

from pbem.titles.g1870.hooks import Hooks1870

HOOKS = Hooks1870
"""The title's hooks class."""

__all__ = ["HOOKS", "Hooks1870"]
