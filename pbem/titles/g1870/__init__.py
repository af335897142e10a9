"""1870: its hooks (:mod:`.hooks`) and its own order words (:mod:`.orders`)."""

from __future__ import annotations

from pbem.titles.g1870.hooks import Hooks1870

HOOKS = Hooks1870
"""The hooks class of 1870."""

__all__ = ["HOOKS", "Hooks1870"]
