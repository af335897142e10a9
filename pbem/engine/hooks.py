"""A title's rules where they differ from the core's, by concern (issue 20: a title interface
made small): each part is a class living beside the core code it adjusts, whose base is
1830's behaviour, and a title gives a subclass only for the parts it changes.

* ``sequence`` — :class:`~pbem.engine.sequence.RoundSequence`: the start, the rounds and their
  steps, the operating order, the title's own state, the end by the bank;
* ``stock`` — :class:`~pbem.engine.stock_rules.StockRules`: shares on offer, sales, the
  market's moves;
* ``dividends`` — :class:`~pbem.engine.steps.operating.dividend_rules.DividendRules`;
* ``track`` — :class:`~pbem.engine.track_rules.TrackRules`: lays, upgrades, homes, slots,
  tokens;
* ``routes`` — :class:`~pbem.engine.route_rules.RouteRules`: what a run may visit and earns;
* ``receivership`` — a :class:`~pbem.engine.receivership.ReceivershipPolicy`, or None (1830).

A title's package (``pbem/titles/g<title>/``) exposes ``HOOKS``, a :class:`TitleHooks` built
from its parts; the loader puts it on the title's data and the game asks it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.engine.route_rules import RouteRules
from pbem.engine.sequence import RoundSequence
from pbem.engine.steps.operating.dividend_rules import DividendRules
from pbem.engine.stock_rules import StockRules
from pbem.engine.track_rules import TrackRules

if TYPE_CHECKING:
    from pbem.engine.receivership import ReceivershipPolicy


@dataclass(frozen=True, eq=False)
class TitleHooks:
    """A title's rules by concern; each part defaults to 1830's. Compared and hashed by
    identity (a game's cached rounds are kept per hooks)."""

    sequence: RoundSequence = field(default_factory=RoundSequence)
    stock: StockRules = field(default_factory=StockRules)
    dividends: DividendRules = field(default_factory=DividendRules)
    track: TrackRules = field(default_factory=TrackRules)
    routes: RouteRules = field(default_factory=RouteRules)
    receivership: ReceivershipPolicy | None = None
    """The rules that run a corporation with no president, or None. With a policy, a
    president may sell the president's certificate to the bank pool when no other player can
    take it over, and the receiver then takes the corporation's operating turns (1825: a
    company whose Director's certificate is in the pool). 1830: None — the president's
    certificate never lies in the pool."""
