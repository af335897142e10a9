"""Turning an 18xx.games record into one of our games: an action log written in the record's
own order, undo and redo included.

Each recorded action becomes the order line its player would email, parsed back and applied
by its seat, and is appended as an action record. A recorded ``undo`` becomes our ``undo``
record (taking back the same actions); a ``redo`` appends the actions it restores again.
The log therefore replays to exactly the position the record ends in.

An action the record takes back for good (undone and never redone) never shapes the game, and
``pbem replay-18xx`` never applies it; where our engine refuses such an action (or cannot
render it) the import leaves it out and names it in :attr:`Imported.left_out`, so every record
that replays also imports. An action in force that our engine refuses stops the import.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.actionlog import NewRecord
from pbem.engine.actions import Action
from pbem.errors import OrderError
from pbem.importers.e18xx import Renderer, UnsupportedRecordAction, effective_actions
from pbem.orders import Vocabulary, format_order, parse_order


@dataclass
class Imported:
    """The records to append after record 0, and the renderer's game at the end."""

    records: list[NewRecord]
    renderer: Renderer
    applied: int
    undos: int
    left_out: list[str] = field(default_factory=list)
    """Record action ids taken back for good that our engine refused, each with the reason
    (``"153: TRAIN 2 by Player 4 refused: ..."``); they are not in the log."""


def _expand(action: dict[str, Any]) -> list[dict[str, Any]]:
    out = [action]
    for i, auto in enumerate(action.get("auto_actions") or [], start=1):
        out.append({**auto, "id": f"{action['id']}.{i}"})
    return out


def _undo_start(actions: list[dict[str, Any]], kept: list[int], undo: dict[str, Any]) -> int:
    """Where in ``kept`` (indices of the record actions in force, in order) the actions that
    ``undo`` takes back begin: the last one, every one after its ``action_id``, or all for
    ``action_id`` 0 (as :func:`pbem.importers.e18xx.effective_actions` resolves them)."""
    target = undo.get("action_id")
    if target is None:
        return len(kept) - 1 if kept else 0
    if target == 0:
        return 0
    position = next(i for i, a in enumerate(actions) if a["id"] == target)
    return next((k for k, index in enumerate(kept) if index > position), len(kept))


def _taken_back(actions: list[dict[str, Any]]) -> set[int]:
    """Indices of the record actions that some undo takes back (redone or not)."""
    kept: list[int] = []
    undone: list[list[int]] = []
    out: set[int] = set()
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            start = _undo_start(actions, kept, action)
            out.update(kept[start:])
            undone.append(kept[start:])
            del kept[start:]
        elif kind == "redo":
            kept.extend(undone.pop() if undone else [])
        elif kind != "message":
            undone.clear()
            kept.append(index)
    return out


def import_record(record: dict[str, Any], *, by: str = "import") -> Imported:
    """Render and apply every action of ``record`` in its order (see the module docstring).

    :raises UnsupportedRecordAction: an action in force that we cannot render, or that our
        engine refuses (the message names the record's action id).
    """
    in_force = {str(a["id"]) for a in effective_actions(record)}
    taken_back = _taken_back(record["actions"])
    left_out: list[str] = []
    renderer = Renderer(record)
    vocab = Vocabulary.from_title(renderer.title)
    records: list[NewRecord] = []
    # Each kept record action: (index in the record, its first seq, renderer before it, rendered).
    # The position is kept only for the actions some undo takes back (copying it is costly).
    kept: list[tuple[int, int, Renderer | None, list[tuple[str, Action]]]] = []
    undone: list[list[tuple[int, int, Renderer | None, list[tuple[str, Action]]]]] = []
    next_seq = 1
    applied = 0
    undos = 0

    def apply(seat: str, action: Action, source_id: str) -> None:
        nonlocal next_seq, applied
        line = format_order(action, vocab)
        try:
            parsed = parse_order(line, vocab)
        except OrderError as exc:
            raise UnsupportedRecordAction(f"action {source_id}: {line!r} does not read back: {exc}") from exc
        if parsed != action:
            raise UnsupportedRecordAction(f"action {source_id}: {line!r} reads back as {parsed!r}")
        try:
            renderer.game.apply(seat, parsed)
        except ValueError as exc:
            raise UnsupportedRecordAction(f"action {source_id}: {line} by {seat} refused: {exc}") from exc
        records.append(NewRecord("action", seat, parsed.to_dict(), by=by))
        next_seq += 1
        applied += 1

    actions = record["actions"]

    def play(index: int) -> None:
        """Apply record action ``index`` and its auto-actions; keep it for undo and redo."""
        nonlocal renderer, next_seq
        before = copy.deepcopy(renderer) if index in taken_back else None
        first = next_seq
        rendered: list[tuple[str, Action]] = []
        for part in _expand(actions[index]):
            if part["type"] == "end_game":
                if str(part["id"]) in in_force:  # as the GM's END GAME would
                    renderer.game.end_game("manually_ended")
                    records.append(NewRecord("gm", "GM", {"command": "end"}, by=by))
                    next_seq += 1
                continue
            try:
                rendered_action = renderer.render(part)
                if rendered_action is None:
                    continue
                seat = renderer.seat(part)
                apply(seat, rendered_action, str(part["id"]))
            except UnsupportedRecordAction as exc:
                if str(part["id"]) in in_force:
                    raise
                left_out.append(str(exc).removeprefix("action "))
                if not rendered and before is not None:  # nothing of it applied: as it was before it
                    renderer = before
                break
            rendered.append((seat, rendered_action))
        kept.append((index, first, before, rendered))

    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            start = _undo_start(actions, [item[0] for item in kept], action)
            group = kept[start:]
            del kept[start:]
            undone.append(group)
            real = [item for item in group if item[3]]
            if real:
                records.append(NewRecord("undo", "GM", {"to_seq": real[0][1]}, by=by))
                next_seq += 1
                undos += 1
                restored = real[0][2]
                assert restored is not None  # every action an undo takes back has its position kept
                renderer = copy.deepcopy(restored)
        elif kind == "redo":  # rendered again: the renderer follows the record's pieces
            for item in undone.pop() if undone else []:
                play(item[0])
        elif kind == "message":
            continue
        else:
            undone.clear()
            play(index)
    return Imported(records, renderer, applied, undos, left_out)


def create_imported_game(data_dir: Path, game_id: str, record: dict[str, Any],
                         gm_email: str = "gm@import.invalid") -> tuple[dict[str, str], Imported]:
    """Create game ``game_id`` under ``data_dir`` from ``record``: record 0 names the seats
    (placeholder addresses ``<seat>@import.invalid``, for the GM to REPLACE), then every
    imported record. Returns the secrets by seat (and ``"GM"``) and the import.

    :raises UnsupportedRecordAction: see :func:`import_record` (nothing is written then).
    :raises ConfigError: a bad game id; :raises FileExistsError: the game exists.
    """
    from pbem.actionlog import ActionLog
    from pbem.games import game_dir, genesis_data, new_secret
    from pbem.importers.e18xx import player_names, record_variants

    imported = import_record(record)
    names = list(player_names(record).values())
    seats = [(n, re.sub(r"[^a-z0-9]+", "-", n.lower()).strip("-") + "@import.invalid") for n in names]
    secrets = {n: new_secret() for n in names}
    gm_secret = new_secret(10)
    genesis = genesis_data(game_id, str(record["title"]), record_variants(record), seats, gm_email,
                           secrets, gm_secret)
    log = ActionLog.create(game_dir(data_dir, game_id) / "log.jsonl", genesis, by=gm_email)
    for start in range(0, len(imported.records), 500):
        log.append(imported.records[start : start + 500])
    return {**secrets, "GM": gm_secret}, imported
