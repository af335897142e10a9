"""1825's hooks: the core's :class:`~pbem.engine.hooks.TitleHooks` with 1825's rules mixed
in, each part in a module of its own (cooperative ``super()``, the first named wins):

* :class:`~pbem.titles.g1825.lorenz.rules.LorenzRules`: Kevin Lorenz's private companies
  (variant ``lorenz``; defers to plain 1825 otherwise);
* :class:`~pbem.titles.g1825.stock_rules.StockRules`: the start, the stock round,
  receivership and the end of the game;
* :class:`~pbem.titles.g1825.operating_rules.OperatingRules`: track, routes, dividends and
  trains.

Its data is composed by :class:`Composer1825`: the units and kits in play
(:class:`~pbem.titles.g1825.compose.Composition`), then Lorenz's privates where the variant
is in play (:class:`~pbem.titles.g1825.lorenz.rules.LorenzComposition`).
"""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks
from pbem.titles.g1825.compose import Composition
from pbem.titles.g1825.lorenz.rules import LorenzComposition, LorenzRules
from pbem.titles.g1825.operating_rules import OperatingRules
from pbem.titles.g1825.stock_rules import StockRules


class Hooks1825(LorenzRules, StockRules, OperatingRules, TitleHooks):
    """1825's differences from 1830 (see the module docstring)."""


class Composer1825(LorenzComposition, Composition):
    """1825's data: its units and kits, then Lorenz's changes (see the module docstring)."""
