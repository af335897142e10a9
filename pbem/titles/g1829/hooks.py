"""1829's hooks: its rounds (:mod:`.sequence`), shares (:mod:`.stock`), dividends and runs
(:mod:`.operating`), and track gated by the survey parties (:mod:`.survey`)."""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks
from pbem.titles.g1829.operating import Dividends1829, Routes1829
from pbem.titles.g1829.sequence import Sequence1829
from pbem.titles.g1829.stock import StockRules1829
from pbem.titles.g1829.survey import Track1829

HOOKS = TitleHooks(sequence=Sequence1829(), stock=StockRules1829(), dividends=Dividends1829(),
                   track=Track1829(), routes=Routes1829())
"""1829's parts (see the module text)."""
