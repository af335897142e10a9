"""1825's operating rules: track, routes, dividends, trains (to be filled in)."""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks


class OperatingRules(TitleHooks):
    """1825's operating-round hooks (to be filled in)."""
