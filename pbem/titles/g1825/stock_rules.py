"""1825's start, stock round, receivership and end of the game (to be filled in)."""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks


class StockRules(TitleHooks):
    """1825's stock-round hooks (to be filled in)."""
