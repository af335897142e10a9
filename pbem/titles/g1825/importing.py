"""1825's record actions of 18xx.games as our orders (the importer's extension point,
:mod:`pbem.importers.translation`).

* a company in receivership (its Director's certificate in the bank pool) is operated by a
  player, not a Director: the platform records its actions as the company's, and the order
  is sent by the player acting for it (:func:`pbem.titles.g1825.trains.acting_player`:
  the first player in priority order who directs no company, else the priority deal's);
* ``special_buy`` by such a company is its lease of a train from the bank for the turn
  (``LEASE <train>``; g_1825 step/lease_train.rb, fault 8 of the references);
* the platform has no variant of Kevin Lorenz's private companies (``lorenz`` and its
  readings): such a game is not exported;
* a company's ``pass`` after its token, while it has not run: the platform's one step for
  track and a token in either order (g_1825 step/track_and_token.rb) ends with a pass when a
  second tile could still be laid; where our engine has left its track and token steps with
  the token (so a pass is no legal order there) it becomes no order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.actions import Pass
from pbem.importers.translation import NO_ORDER, NoOrder, RecordTranslation
from pbem.titles.g1825.trains import LEASE_COST, Lease, acting_player

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.exporters.e18xx import Exporter
    from pbem.importers.e18xx import Renderer


class Translation1825(RecordTranslation):
    """1825's own record actions (see the module docstring)."""

    platform_lacks = frozenset({"lorenz", "lorenz_assign_any_time", "lorenz_chp_extra_lay",
                                "lorenz_cw_extra_token", "lorenz_no_price_drop", "lorenz_tww_needs_reach"})

    def export(self, exporter: Exporter, seat: str, action: Action) -> list[dict[str, Any]] | None:
        """A lease as the platform's ``special_buy`` by the company (its ``description`` the
        train's type, ``cost`` the lease's); every other order is the core's."""
        if isinstance(action, Lease):
            corp = exporter.operator()
            return [{"type": "special_buy", "entity": corp, "entity_type": "corporation",
                     "description": action.train, "cost": LEASE_COST}]
        return None

    def following_actions(self, exporter: Exporter, seat: str) -> list[dict[str, Any]]:
        """The pass that ends the platform's track-and-token step after a company's token
        while it could still lay a tile there (its first lay, or a second yellow after no
        upgrade: g_1825 TILE_LAYS), where our engine has ended its track and token steps with
        the token (no PASS is legal for ``seat``); see :meth:`_pass_after_token`."""
        last = exporter.actions[-1] if exporter.actions else {}
        if last.get("type") != "place_token" or last.get("entity_type") != "corporation":
            return []
        op = exporter.game.state.round.operating
        corp = str(last["entity"])
        if (op is None or op.index >= len(op.order) or op.order[op.index] != corp or not op.token_placed
                or op.revenue is not None):
            return []
        if op.tiles_laid >= 2 or (op.tiles_laid == 1 and op.upgraded):
            return []
        if any(isinstance(a, Pass) for a in exporter.game.legal_actions(seat)):
            return []
        return [{"type": "pass", "entity": corp, "entity_type": "corporation"}]

    def render(self, renderer: Renderer, action: dict[str, Any]) -> Action | NoOrder | None:
        if action["type"] == "special_buy" and action.get("entity_type") == "corporation":
            return Lease(str(action["description"]))
        if action["type"] == "pass" and action.get("entity_type") == "corporation":
            return self._pass_after_token(renderer, action)
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
