"""Replaying an 18xx.games record through the order language and our engine.

Every recorded action in force is rendered as its order line, parsed back (the line must give
the same action), and applied by the seat that would send it. Every recorded run is checked
by our engine and its revenue computed by us: a difference from the recorded revenue is an
error. The outcome says how far the replay got and, at the end, the final scores keyed as the
record keys its own ``result``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from pbem.engine.actions import RunRoutes
from pbem.errors import OrderError
from pbem.importers.e18xx import Renderer, UnsupportedRecordAction, effective_actions
from pbem.orders import Vocabulary, format_order, parse_order

if TYPE_CHECKING:
    from pbem.engine.game import Game


@dataclass
class ReplayOutcome:
    """How a replay went: ``error`` (with the record's ``failed_action``) is None on success.

    ``result`` maps the record's player keys (id as a string, or name) to our final values;
    after the engine refused an action it is empty and ``finished`` false (the actions are
    applied without keeping a state to restore, so the state after a refusal is not used).
    """

    title: str
    actions_applied: int = 0
    finished: bool = False
    game_end_reason: str | None = None
    result: dict[str, int] = field(default_factory=dict)
    error: str | None = None
    failed_action: str | None = None
    runs_checked: int = 0
    run_revenues: dict[str, int] = field(default_factory=dict)
    """Record action id of each run -> its revenue as our engine computes it."""
    gm_rulings: list[str] = field(default_factory=list)
    """Record action ids applied as GM rulings (a title's translation makes them, e.g. 1870's ungranted connection)."""

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``pbem replay-18xx --json`` prints."""
        out: dict[str, Any] = {
            "title": self.title,
            "actions_applied": self.actions_applied,
            "finished": self.finished,
            "game_end_reason": self.game_end_reason,
            "result": self.result,
        }
        if self.gm_rulings:
            out["gm_rulings"] = self.gm_rulings
        if self.error:
            out["error"] = self.error
            out["failed_action"] = self.failed_action
        return out


def record_keys(record: dict[str, Any]) -> dict[str, str]:
    """Our seat name -> the key the record uses in ``result`` (player id, or the name)."""
    keys: dict[str, str] = {}
    for p in record["players"]:
        if isinstance(p, dict):
            keys[p["name"]] = str(p.get("id", p["name"]))
        else:
            keys[str(p)] = str(p)
    return keys


def replay_record(record: dict[str, Any],
                  before_run: Callable[[dict[str, Any], Game], None] | None = None,
                  after_action: Callable[[dict[str, Any], Game], None] | None = None,
                  after_no_order: bool = True) -> ReplayOutcome:
    """Replay ``record`` (see the module docstring). Never raises for a bad record: the
    outcome carries the error. ``before_run(action, game)`` is called before each recorded
    run is applied (the route check looks for the best run there); each run's revenue as our
    engine computes it is kept in ``outcome.run_revenues``. ``after_action(action, game)`` is
    called after each effective record action (:func:`effective_actions`, auto-actions
    included) has been applied or (with ``after_no_order``) found to need no order, never
    after one that failed."""
    outcome = ReplayOutcome(title=str(record.get("title")))
    try:
        renderer = Renderer(record)
    except (UnsupportedRecordAction, ValueError) as exc:
        outcome.error = str(exc)
        return outcome
    game = renderer.game
    vocab = Vocabulary.from_title(renderer.title)
    refused = False
    for action in effective_actions(record):
        action_id = str(action["id"])
        try:
            if action["type"] == "end_game":
                game.end_game("manually_ended")
                if after_action is not None:
                    after_action(action, game)
                break
            ours = renderer.render(action)
            if ours is None:
                if after_action is not None and after_no_order:
                    after_action(action, game)
                continue
            line = format_order(ours, vocab)
            parsed = parse_order(line, vocab)
            if parsed != ours:
                raise UnsupportedRecordAction(f"the order line {line!r} reads back as {parsed!r}")
            seat = renderer.seat(action)
            if before_run is not None and isinstance(parsed, RunRoutes):
                before_run(action, game)
            refused = True  # until applied: a refusal leaves a state not to be used
            game.apply(seat, parsed, atomic=False)  # no state copy per action: a refusal ends the replay
            refused = False
        except (OrderError, UnsupportedRecordAction) as exc:
            outcome.error = f"action {action_id} ({action['type']}): {exc}"
            outcome.failed_action = action_id
            break
        outcome.actions_applied += 1
        if isinstance(ours, RunRoutes):
            routes_recorded = iter(int(r.get("revenue", 0)) for r in action["routes"])
            # a double-headed run (RUN 2+2) is recorded as one route per train
            recorded = [sum(next(routes_recorded, 0) for _ in range(1 + len(r.joined))) for r in game.last_run]
            recorded += list(routes_recorded)
            computed = [r.revenue for r in game.last_run]
            outcome.runs_checked += 1
            outcome.run_revenues[action_id] = sum(computed)
            if recorded != computed:
                outcome.error = (f"action {action_id} (run_routes): recorded revenue {recorded}, "
                                 f"our engine computes {computed}")
                outcome.failed_action = action_id
                break
        if after_action is not None:
            after_action(action, game)
    outcome.gm_rulings = list(renderer.rulings)
    if refused:
        return outcome
    outcome.finished = game.state.finished
    outcome.game_end_reason = game.state.end_reason
    keys = record_keys(record)
    outcome.result = {keys.get(p, p): v for p, v in game.result().items()}
    return outcome
