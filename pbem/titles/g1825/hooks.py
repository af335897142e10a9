"""1825's hooks: the core's :class:`~pbem.engine.hooks.TitleHooks` with 1825's rules mixed
in, each part in a module of its own (cooperative ``super()``, the first named wins):

* :class:`~pbem.titles.g1825.lorenz.rules.LorenzRules`: Kevin Lorenz's private companies
  (variant ``lorenz``; defers to plain 1825 otherwise);
* :class:`~pbem.titles.g1825.stock_rules.StockRules`: the start, the stock round,
  receivership and the end of the game;
* :class:`~pbem.titles.g1825.operating_rules.OperatingRules`: track, routes, dividends and
  trains;
* :class:`~pbem.titles.g1825.compose.Composition`: the data of the units and kits in play.
"""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks
from pbem.titles.g1825.compose import Composition
from pbem.titles.g1825.lorenz.rules import LorenzRules
from pbem.titles.g1825.operating_rules import OperatingRules
from pbem.titles.g1825.stock_rules import StockRules


class Hooks1825(LorenzRules, StockRules, OperatingRules, Composition, TitleHooks):
    """1825's differences from 1830 (see the module docstring)."""
