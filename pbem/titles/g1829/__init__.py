"""1829 on Stuart Dagger's combined boards (seed 003): the title's code, one module a concern.

* :mod:`.hooks` — :data:`~pbem.titles.g1829.hooks.HOOKS`, what differs from 1830;
* :mod:`.settings` — its own settings and ability kinds; :mod:`.composer` — its boards;
* :mod:`.state` — ``State1829``; :mod:`.sequence` — its rounds and end;
* :mod:`.stock` — its stock round (private railways and packets bought from the bank, fixed
  starting prices, falls won back); :mod:`.launches` — the share launches;
* :mod:`.packets`, :mod:`.lm` — the packets and the L&M;
* :mod:`.operating` — the 5% rule, the 2+2 and 5E runs;
* :mod:`.survey` — the survey parties; :mod:`.orders`, :mod:`.presentation` — SURVEY, PARK and
  the report's sections.
"""

from __future__ import annotations

from pbem.titles.g1829.hooks import HOOKS
from pbem.titles.g1829.composer import Composer1829
from pbem.titles.g1829.presentation import Presentation1829

COMPOSER = Composer1829
"""How 1829's data is composed."""

PRESENTATION = Presentation1829
"""1829's order words (SURVEY, PARK) and report sections."""

__all__ = ["COMPOSER", "HOOKS", "PRESENTATION"]
