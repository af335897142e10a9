"""1825's record actions of 18xx.games as our orders (the importer's extension point,
:mod:`pbem.importers.translation`).

* a company in receivership (its Director's certificate in the bank pool): the platform has
  a player operate it and records the actions as the company's (``special_buy``: the lease
  of a train for £10, g_1825 step/lease_train.rb; lays, runs). Our receiver takes the
  company's turn by its own rules (:mod:`pbem.titles.g1825.trains`: the lease, no track, the
  best run, withhold, a train bought), so the recorded actions become no order and are
  listed in ``Renderer.by_rules``; a recorded run among them must be the receiver's run
  (the same hexes, the same revenue per train);
* a company's ``pass`` after its token, while it has not run: the platform's one step for
  track and a token in either order (g_1825 step/track_and_token.rb) ends with a pass when a
  second tile could still be laid; where our engine has left its track and token steps with
  the token (so a pass is no legal order there) it becomes no order;
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
        if self._taken_by_the_receiver(renderer, action):
            if action["type"] == "run_routes":
                self._check_receivers_run(renderer, action)
            renderer.by_rules.append(str(action["id"]))
            return NO_ORDER
        if action["type"] == "pass" and action.get("entity_type") == "corporation":
            return self._pass_after_token(renderer, action)
        return None

    def _taken_by_the_receiver(self, renderer: Renderer, action: dict[str, Any]) -> bool:
        """Whether ``action`` is a company's in receivership whose turn our engine has taken
        by itself: the company has no Director and is not the company our engine has
        operating now (its receiver's turn came and went as the previous turn ended)."""
        if action.get("entity_type") != "corporation":
            return False
        sym = str(action["entity"])
        corp = renderer.game.state.corporations.get(sym)
        if corp is None or corp.president is not None:
            return False
        op = renderer.game.state.round.operating
        operating = op.order[op.index] if op is not None and op.index < len(op.order) else None
        return operating != sym or not renderer.game.current_actors()

    def _check_receivers_run(self, renderer: Renderer, action: dict[str, Any]) -> None:
        """The recorded run of a company our receiver ran must be the receiver's last run:
        per train (in any order) the same hexes visited and the same revenue.

        :raises UnsupportedRecordAction: they differ (the message gives both).
        """
        from pbem.importers.e18xx import UnsupportedRecordAction

        def key(hexes: list[str], revenue: int) -> tuple[tuple[str, ...], int]:
            return tuple(sorted(hexes)), revenue

        recorded = sorted(key([str(h) for h in r["hexes"]], int(r.get("revenue", 0))) for r in action["routes"])
        ran = sorted(key([v.coord for v in r.stops], r.revenue) for r in renderer.game.last_run)
        if recorded != ran:
            raise UnsupportedRecordAction(f"action {action['id']}: the record runs {action['entity']} "
                                          f"{recorded}, our receiver ran {ran}")

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
