"""Dividend rules: 1830's, which a title's :class:`DividendRules` subclass adjusts where it
differs (its ``HOOKS.dividends``; issue 20: the title interface split by concern). Asked by
the dividend step (:mod:`pbem.engine.steps.operating.dividends`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pbem.engine.state import POOL, Owner
from pbem.engine.values import DividendChoice
from pbem.engine.stock_rules import PriceMove

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.title import TitleData


class DividendRules:
    """The choices for a run's revenue, how it is split and paid, and the price moves it
    makes (1830 rules 6.6)."""

    def dividend_kinds(self, title: TitleData) -> tuple[DividendChoice, ...]:
        """The choices a corporation has for its revenue: the title data's
        ``dividend_choices`` (1830: payout or withhold; 1870 adds half)."""
        return title.settings.dividend_choices

    def split(self, revenue: int, choice: DividendChoice, shares: int) -> tuple[int, float]:
        """``(kept by the corporation, paid per share)`` for ``revenue`` and ``choice``."""
        if choice == DividendChoice.WITHHOLD:
            return revenue, 0.0
        return 0, revenue / shares

    def pays_the_corporation(self, holder: Owner) -> bool:
        """Whether shares held by ``holder`` (``IPO`` or ``POOL``) pay the corporation
        (1830: the pool's shares do; the IPO's pay no one)."""
        return holder == POOL

    def dividend_moves(self, game: Game, corp: str, revenue: int, paid: int) -> tuple[PriceMove, ...]:
        """The cells ``corp``'s price moves after a dividend of ``paid`` out of ``revenue``
        (money), in order, each taken by the title's
        :meth:`~pbem.engine.stock_rules.StockRules.moved`, so a title may move several cells by the dividend's size against
        the share price (:func:`pbem.engine.shares.current_price`). 1830 rules 6.6: right when
        anything was paid, left when nothing was."""
        return (PriceMove.RIGHT,) if paid > 0 else (PriceMove.LEFT,)

    def dividend_amount(self, percent: int, share_percent: int, per_share: float) -> int:
        """A holder's dividend: shares times the per-share amount, rounded up."""
        return math.ceil(percent / share_percent * per_share)
