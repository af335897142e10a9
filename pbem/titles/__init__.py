"""Title hooks: what a title's data cannot say, as small named methods.

The engine asks :func:`hooks_for` for a title's :class:`TitleHooks` and calls its methods at
the few places titles differ (stock-market moves, dividends, extra revenue, extra tile-lay
rules). The base class is 1830's behaviour; a title overrides only what differs, in its
own module (``pbem/titles/g<title>.py``), registered in :data:`HOOKS`.
"""

from __future__ import annotations

from pbem.titles.base import TitleHooks
from pbem.titles.g1870 import Hooks1870

HOOKS: dict[str, type[TitleHooks]] = {"1870": Hooks1870}
"""Title -> its hooks class (titles not listed use :class:`TitleHooks`)."""


def hooks_for(title: str) -> TitleHooks:
    """The hooks of ``title``."""
    return HOOKS.get(title, TitleHooks)()


__all__ = ["TitleHooks", "hooks_for", "HOOKS"]
