"""1825's record actions of 18xx.games as our orders (the importer's extension point,
:mod:`pbem.importers.translation`).

* a company in receivership (its Director's certificate in the bank pool) is operated by a
  player, not its Director: the platform records its actions as the company's; the order is
  sent by the player our engine has acting for it now;
* a company's ``pass`` after its token, while it has not run: the platform's one step for
  track and a token in either order (g_1825 step/track_and_token.rb) ends with a pass when a
  second tile could still be laid; where our engine has left its track and token steps with
  the token (so a pass is no legal order there) it becomes no order;
* ``special_buy`` by a company in receivership is the lease of a train from the bank for
  £10 for the turn (18xx.games g_1825 step/lease_train.rb; reference fault 8).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pbem.engine.actions import Pass
from pbem.importers.translation import NO_ORDER, NoOrder, RecordTranslation

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.importers.e18xx import Renderer


class Translation1825(RecordTranslation):
    """1825's own record actions (see the module docstring)."""

    def render(self, renderer: Renderer, action: dict[str, Any]) -> Action | NoOrder | None:
        if action["type"] == "special_buy":
            return self._lease(renderer, action)
        if action["type"] == "pass" and action.get("entity_type") == "corporation":
            return self._pass_after_token(renderer, action)
        return None

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

    def seat(self, renderer: Renderer, action: dict[str, Any]) -> str | None:
        """For a company with no Director (in receivership), the one player our engine has
        acting now; else the core's answer (its Director)."""
        if action.get("entity_type") != "corporation":
            return None
        corp = renderer.game.state.corporations.get(str(action["entity"]))
        if corp is None or corp.president is not None:
            return None
        actors = renderer.game.current_actors()
        return actors[0] if len(actors) == 1 else None

    def _lease(self, renderer: Renderer, action: dict[str, Any]) -> Action:
        """The lease of the train type the record names (``description``, e.g. ``"5"``).

        :raises UnsupportedRecordAction: our engine has no lease order yet.
        """
        from pbem.importers.e18xx import UnsupportedRecordAction

        raise UnsupportedRecordAction(f"action {action['id']}: the lease of a "
                                      f"{action.get('description')}-train has no order yet")


TRANSLATION: type[RecordTranslation] = Translation1825
"""1825's translation of record actions."""
