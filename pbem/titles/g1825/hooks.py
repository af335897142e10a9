"""1825's hooks: for each concern of the core's :class:`~pbem.engine.hooks.TitleHooks` a class
mixing 1825's parts (cooperative ``super()``, the first named wins), each part in a module of
its own:

* Kevin Lorenz's private companies (variant ``lorenz``; each part defers to plain 1825 where
  the variant is not in play): :mod:`pbem.titles.g1825.lorenz.rules`;
* the start, the stock round, receivership and the end of the game:
  :mod:`pbem.titles.g1825.stock_rules`;
* track, routes, dividends and trains: :mod:`pbem.titles.g1825.operating_rules`.

Its data is composed by :class:`Composer1825`: the units and kits in play
(:class:`~pbem.titles.g1825.compose.Composition`), then Lorenz's privates where the variant
is in play (:class:`~pbem.titles.g1825.lorenz.rules.LorenzComposition`).
"""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks
from pbem.titles.g1825 import trains as trains1825
from pbem.titles.g1825.compose import Composition
from pbem.titles.g1825.lorenz.rules import LorenzComposition, LorenzSequence, LorenzShares, LorenzTrack
from pbem.titles.g1825.operating_rules import Dividends1825, OperatingTurn1825, Routes1825, TrackAndTokens1825
from pbem.titles.g1825.stock_rules import Receivership1825, Shares1825, StartAndRounds1825


class Sequence1825(LorenzSequence, StartAndRounds1825, OperatingTurn1825):
    """1825's rounds: Lorenz's start where the variant is in play, 1825's start, stock and
    operating rounds otherwise."""


class StockRules1825(LorenzShares, Shares1825):
    """1825's shares, with Lorenz's launches and sales."""


class Track1825Rules(LorenzTrack, TrackAndTokens1825):
    """1825's track and tokens, with the uses of Lorenz's powers."""


HOOKS = TitleHooks(sequence=Sequence1825(), stock=StockRules1825(), dividends=Dividends1825(), track=Track1825Rules(),
                   routes=Routes1825(), receivership=Receivership1825(trains1825.Receiver1825()))
"""1825's hooks: its parts, and a company whose Director's certificate lies in the pool run by
1825's receiver (:class:`~pbem.titles.g1825.stock_rules.Receivership1825` around
:class:`~pbem.titles.g1825.trains.Receiver1825`)."""


class Composer1825(LorenzComposition, Composition):
    """1825's data: its units and kits, then Lorenz's changes (see the module docstring)."""
