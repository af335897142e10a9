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
* a company's ``pass`` after its token, while it has not run: the platform's one step for
  track and a token in either order (g_1825 step/track_and_token.rb) ends with a pass when a
  second tile could still be laid; where our engine has left its track and token steps with
  the token (so a pass is no legal order there) it becomes no order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.actions import Pass
from pbem.importers.translation import NO_ORDER, NoOrder, RecordTranslation
from pbem.titles.g1825.stock import COMPANY_SALE_FEE, SellPrivate
from pbem.titles.g1825.trains import Lease, acting_player

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.importers.e18xx import Renderer


class Translation1825(RecordTranslation):
    """1825's own record actions (see the module docstring)."""

    def render(self, renderer: Renderer, action: dict[str, Any]) -> Action | NoOrder | None:
        if action["type"] == "special_buy" and action.get("entity_type") == "corporation":
            return Lease(str(action["description"]))
        if action["type"] == "pass" and action.get("entity_type") == "corporation":
            return self._pass_after_token(renderer, action)
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

    def _pass_after_token(self, renderer: Renderer, action: dict[str, Any]) -> NoOrder | None:
        """NO_ORDER for the pass that ends the platform's track-and-token step after the
        company's token, where our engine has ended its own track and token steps; else None
        (the core's pass)."""
        game = renderer.game
        op = game.state.round.operating
        if op is None or op.index >= len(op.order) or op.order[op.index] != str(action["entity"]):
            return None
        if not op.token_placed or op.revenue is not None:
            return None
        seat = renderer.seat(action)
        if any(isinstance(a, Pass) for a in game.legal_actions(seat)):
            return None
        return NO_ORDER


TRANSLATION: type[RecordTranslation] = Translation1825
"""1825's translation of record actions."""
