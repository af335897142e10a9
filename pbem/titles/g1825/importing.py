"""1825's record actions of 18xx.games as our orders (the importer's extension point,
:mod:`pbem.importers.translation`).

* a company in receivership (its Director's certificate in the bank pool) is operated by a
  player, not a Director: the platform records its actions as the company's, and the order
  is sent by the player acting for it (:func:`pbem.titles.g1825.trains.acting_player`:
  the first player in priority order who directs no company, else the priority deal's);
* ``special_buy`` by such a company is its lease of a train from the bank for the turn
  (``LEASE <train>``; g_1825 step/lease_train.rb, fault 8 of the references);
* ``sell_company``, a player selling a private to the bank (g_1825
  step/buy_sell_par_shares_companies.rb, from stock round 2), is ``SELL <private>``; the
  price the record holds must be ours (face value less £30), else the record is refused;
* the platform has no variant of Kevin Lorenz's private companies (``lorenz`` and its
  readings): such a game is not exported.

A company's ``pass`` in the platform's one step for track and a token needs no translation:
ours is one step too (:mod:`pbem.titles.g1825.track_and_token`), ended by a ``PASS`` alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.importers.translation import NoOrder, RecordTranslation
from pbem.titles.g1825.stock import COMPANY_SALE_FEE, SellPrivate
from pbem.titles.g1825.trains import LEASE_COST, Lease, acting_player

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.exporters.e18xx import Exporter
    from pbem.importers.e18xx import Renderer


class Translation1825(RecordTranslation):
    """1825's own record actions (see the module docstring)."""

    platform_lacks = frozenset({"lorenz", "lorenz_assign_any_time", "lorenz_chp_extra_lay",
                                "lorenz_cw_extra_token", "lorenz_no_price_drop", "lorenz_tww_needs_reach",
                                "lorenz_gwr_sold_out_to_players"})

    def export(self, exporter: Exporter, seat: str, action: Action) -> list[dict[str, Any]] | None:
        """A lease as the platform's ``special_buy`` by the company (its ``description`` the
        train's type, ``cost`` the lease's); every other order is the core's."""
        if isinstance(action, Lease):
            corp = exporter.operator()
            return [{"type": "special_buy", "entity": corp, "entity_type": "corporation",
                     "description": action.train, "cost": LEASE_COST}]
        return None

    def render(self, renderer: Renderer, action: dict[str, Any]) -> Action | NoOrder | None:
        if action["type"] == "special_buy" and action.get("entity_type") == "corporation":
            return Lease(str(action["description"]))
        if action["type"] == "sell_company":
            return self._sell_private(renderer, action)
        return None

    def seat(self, renderer: Renderer, action: dict[str, Any]) -> str | None:
        """For a company with no Director (in receivership), the player acting for it; else
        the core's answer (its Director)."""
        if action.get("entity_type") != "corporation":
            return None
        sym = str(action["entity"])
        corp = renderer.game.state.corporations.get(sym)
        if corp is None or corp.president is not None:
            return None
        return acting_player(renderer.game, sym)

    def _sell_private(self, renderer: Renderer, action: dict[str, Any]) -> SellPrivate:
        """``SELL <private>`` for a player's sale of a private to the bank.

        :raises UnsupportedRecordAction: the private is not one of the game's, or the record's
            price is not its face value less :data:`COMPANY_SALE_FEE`.
        """
        from pbem.importers.e18xx import UnsupportedRecordAction

        sym = str(action["company"])
        if sym not in renderer.game.state.companies:
            raise UnsupportedRecordAction(f"action {action['id']}: no private {sym!r} in this game")
        ours = max(0, renderer.title.company(sym).value - COMPANY_SALE_FEE)
        if int(action.get("price", ours)) != ours:
            raise UnsupportedRecordAction(f"action {action['id']}: {sym} sold to the bank for "
                                          f"{action['price']}; the rules pay {ours}")
        return SellPrivate(sym)


TRANSLATION: type[RecordTranslation] = Translation1825
"""1825's translation of record actions."""
