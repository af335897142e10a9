"""1870's own part of the game state (``GameState.title_state``): what the core's state has
no field for — redeemed and reissued shares, the sales waiting for price protection, the
stock round's redemption budgets, and the destinations reached and connection runs owed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.engine import market
from pbem.engine.state import Certificate, GameState, ShareSale, TitleState
from pbem.titles.g1870.settings import settings1870
from pbem.titles.g1870 import market as ledge

if TYPE_CHECKING:
    from pbem.engine.title import TitleData


@dataclass
class State1870(TitleState):
    """1870's fields (1870 rules: redemption, reissue, price protection).

    * ``redeemed`` — certificates ``(corporation, index)`` a corporation has redeemed into its
      treasury (owner ``IPO``): out of the market until reissued, counted as sold;
    * ``reissued`` — corporations that have reissued shares: from then on a share bought from
      the treasury pays the corporation (``capitalization_after_reissue``);
    * ``sell_queue`` — sales whose price drop waits for the president's price protection,
      oldest first;
    * ``protecting`` — in a stock round, the oldest queued sale's president is deciding;
      ``protector`` — the player who just protected (play goes on after them);
    * ``redeem_cash`` — in this stock round, each corporation's cash for redemptions (its cash
      when it first redeemed in the round; spent by a redemption);
    * ``destinations_reached`` — corporations that have connected to their destination, in
      the order they did; ``destination_on_charter`` — of those, the ones that kept the
      destination token on the charter (a spare token, no bonus);
    * ``connections`` — in an operating round, the corporations owed a connection run now,
      the first one's being made; ``connection_revenue`` — that run's revenue once run (money,
      an int), until it is paid out or withheld;
    * ``out_of_order`` — corporations the GM has ruled may be started out of the Historical
      Order Start's order (``OUTOFORDER``);
    * ``connection_rounds`` — for a corporation whose destination token was on the map before
      it connected (the Historical Order Start's Illinois Central, :mod:`.illinois`), the
      round it connected in, as ``(stock round number, operating round number)``.
    """

    redeemed: set[tuple[str, int]] = field(default_factory=set)
    reissued: set[str] = field(default_factory=set)
    sell_queue: list[ShareSale] = field(default_factory=list)
    protecting: bool = False
    protector: str | None = None
    redeem_cash: dict[str, int] = field(default_factory=dict)
    destinations_reached: list[str] = field(default_factory=list)
    destination_on_charter: list[str] = field(default_factory=list)
    connections: list[str] = field(default_factory=list)
    connection_revenue: int | None = None
    out_of_order: list[str] = field(default_factory=list)
    connection_rounds: dict[str, tuple[int, int]] = field(default_factory=dict)

    def copy(self) -> State1870:
        """A structural copy (the queued sales are frozen values, shared)."""
        return State1870(redeemed=set(self.redeemed), reissued=set(self.reissued),
                         sell_queue=self.sell_queue[:], protecting=self.protecting,
                         protector=self.protector, redeem_cash=dict(self.redeem_cash),
                         destinations_reached=self.destinations_reached[:],
                         destination_on_charter=self.destination_on_charter[:],
                         connections=self.connections[:], connection_revenue=self.connection_revenue,
                         out_of_order=self.out_of_order[:],
                         connection_rounds=dict(self.connection_rounds))

    def withheld(self, cert: Certificate) -> bool:
        """A redeemed share in the treasury is out of the market until reissued."""
        return (cert.corporation, cert.index) in self.redeemed

    def incremental(self, title: TitleData, sym: str) -> bool:
        """After a reissue a treasury sale pays the corporation (``capitalization_after_reissue``)."""
        return sym in self.reissued and settings1870(title).capitalization_after_reissue == "incremental"

    def uncounted(self, state: GameState, title: TitleData) -> frozenset[str]:
        """While a sale waits for price protection, a corporation whose drop would take it
        into a zone that does not count against the limit already does not count."""
        if not self.sell_queue:
            return frozenset()
        pending = set()
        for sale in self.sell_queue:
            coord = state.corporations[sale.corporation].price
            if coord is not None:
                found = market.cell(title, ledge.dropped(title, coord, sale.count))
                if found is not None and not found.counts_for_limit:
                    pending.add(sale.corporation)
        return frozenset(pending)


def state1870(state: GameState) -> State1870:
    """``state``'s 1870 part.

    :raises TypeError: the game is not one of 1870 (its title state is another class).
    """
    found = state.title_state
    if not isinstance(found, State1870):
        raise TypeError(f"not an 1870 game state: {type(found).__name__}")
    return found
