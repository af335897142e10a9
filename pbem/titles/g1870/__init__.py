"""1870 (Mayfair rules as 18xx.games plays them): the title's code, one module a concern.

* :mod:`.hooks` — :data:`~pbem.titles.g1870.hooks.HOOKS`, what differs from 1830, by concern;
* :mod:`.composer` — :class:`~pbem.titles.g1870.composer.Composer1870`, its settings and
  composed documents;
* :mod:`.presentation` — :class:`~pbem.titles.g1870.presentation.Presentation1870`, its order
  words and report sections;
* :mod:`.state` — ``State1870``, 1870's own part of the game state;
* :mod:`.stock` — its stock-round step (the core's plus redemption, reissue, protection);
* :mod:`.protection` — price protection of a sale, in stock and operating rounds;
* :mod:`.redemption` — a corporation redeeming and reissuing its own shares;
* :mod:`.actions` — its own actions (destination token, the GM's connection ruling, redeem,
  reissue), registered with the core's log reader when this package is imported;
* :mod:`.orders` — its own order words (HALF, REDEEM, REISSUE, CONNECT, DESTINATION);
* :mod:`.operating`, :mod:`.connections` — its operating-round steps: price protection and
  destination (connection) runs.
"""

from __future__ import annotations

from pbem.titles.g1870 import actions as _actions  # registers 1870's actions with the log reader
from pbem.titles.g1870.composer import Composer1870
from pbem.titles.g1870.hooks import HOOKS
from pbem.titles.g1870.presentation import Presentation1870

COMPOSER = Composer1870
"""How 1870's data is composed."""

PRESENTATION = Presentation1870
"""1870's order words and report sections."""

__all__ = ["COMPOSER", "HOOKS", "PRESENTATION", "Composer1870", "Presentation1870"]
