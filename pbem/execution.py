"""Applying the commands of one mail to a working copy of a game (no I/O but title data).

:func:`execute` is called for each command of an accepted mail in turn; the records it
collects are appended to the action log in one batch afterwards (:mod:`pbem.server`).
"""

from __future__ import annotations

from pbem.actionlog import ActionLog, NewRecord
from pbem.commands import Command, GmCommand, Info, Order
from pbem.engine import routes
from pbem.engine.actions import Action, RunAuto, RunRoutes
from pbem.engine.events import Note
from pbem.errors import OrderError
from pbem.games import Replay, hash_secret, new_secret, replay
from pbem.mail.types import Submission


def _hexes_named(action: Action) -> list[str]:
    """The hexes an action names (a tile's, a token's, a private token's, a run's stops)."""
    if isinstance(action, RunRoutes):
        return [stop.split(".", 1)[0] for run in action.runs for stop in run.stops]
    named = getattr(action, "hex", None)
    return [named] if isinstance(named, str) else []


def apply_logged(work: Replay, seat: str, action: Action, sub: Submission, action_log: ActionLog,
                 pending: list[NewRecord], route_time_limit: float) -> None:
    """Apply ``action`` for ``seat`` and queue its log record. RUN AUTO is logged as the
    run it found: the log keeps what was played.

    :raises OrderError: a hex the action names is not on the map, or the engine refuses it.
    """
    missing = [h for h in _hexes_named(action) if h not in work.game.board.hexes]
    if missing:
        raise OrderError(f"there is no hex {missing[0]} on the {work.title.name} map")
    action, notes = routes.resolve_auto(work.game, action, route_time_limit)
    events = [Note(note) for note in notes] + work.game.apply(seat, action)
    record = NewRecord("action", seat, action.to_dict(), by=sub.sender, source=sub.message_id)
    seq = action_log.records[-1]["seq"] + 1 + len(pending)  # the seq it will be written with
    pending.append(record)
    work.events[seq] = events
    work.effective.append({"seq": seq, "kind": "action", "actor": seat, "data": record.data})
    work.last_seq = seq


def execute(command: Command, sub: Submission, own_seat: str | None, is_gm: bool,
            action_log: ActionLog, work: Replay, pending: list[NewRecord], infos: list[Info],
            broadcasts: list[str], welcomes: list[tuple[str, str, str]], route_time_limit: float) -> Replay:
    """Apply one command of ``sub`` to ``work`` (the working copy of the game): its records
    go to ``pending``, HELP/REPORT/HISTORY/WIDTH to ``infos``, broadcasts and welcomes
    (seat, address, secret) to theirs. Every record in ``pending`` advances
    ``work.last_seq``, so the copy always ends where the log will once ``pending`` is
    appended. Returns the working copy (a new one after a GM command: rebuilt from the log
    plus ``pending``).

    ``own_seat`` is the sender's seat (None for the GM); ``route_time_limit`` in seconds.

    :raises OrderError: the command is refused (nothing of the mail is applied then).
    """
    info = work.info
    if isinstance(command, Info):
        infos.append(command)
        if command.what == "width":
            who = own_seat if own_seat is not None and not is_gm else "GM"
            pending.append(NewRecord("setting", who, {"setting": "width", "seat": who, "value": command.number},
                                     by=sub.sender, source=sub.message_id))
            info.widths[who] = int(command.number or 132)
            # a setting is a record too: the copy ends where the log will (as a replay would)
            work.last_seq = action_log.records[-1]["seq"] + len(pending)
        return work
    if isinstance(command, Order):
        if info.ended:
            raise OrderError("the game is over")
        if info.paused:
            raise OrderError("the game is paused by the GM")
        seat = command.seat or own_seat
        if seat is None:
            raise OrderError("the GM has no seat: give orders with ACT AS <seat> <order>")
        if info.auto_runs and routes.run_left_out(work.game, command.action):
            # the game leaves runs to the server: the run comes first, as its own record
            actor = routes.run_actor(work.game)
            apply_logged(work, actor, RunAuto(), sub, action_log, pending, route_time_limit)
        apply_logged(work, seat, command.action, sub, action_log, pending, route_time_limit)
        return work
    assert isinstance(command, GmCommand)
    base = action_log.records[-1]["seq"]
    if command.name == "undo":
        if info.ended:
            raise OrderError("the game is over (END GAME): there is nothing more to undo")
        effective = work.effective + [
            {"seq": base + 1 + i, **r.__dict__} for i, r in enumerate(pending) if r.kind == "action"
        ]
        if not effective:
            raise OrderError("there is no action to undo")
        to_seq = int(command.args[0]) if command.args else effective[-1]["seq"]
        if to_seq < 1:
            raise OrderError("record 0 is the game itself; UNDO goes back to a log number from 1 on")
        if not any(r["seq"] >= to_seq for r in effective):
            raise OrderError(f"no action in force at or after log number {to_seq}")
        pending.append(NewRecord("undo", "GM", {"to_seq": to_seq}, by=sub.sender, source=sub.message_id))
    elif command.name == "replace":
        seat_name, email = command.args
        holder = info.seat_for(email)
        if holder is not None and holder.name != seat_name:
            raise OrderError(f"{email} already plays {holder.name}; each seat needs its own address")
        secret = new_secret()
        pending.append(NewRecord("gm", "GM", {"command": "replace", "seat": seat_name, "email": email,
                                              "secret_hash": hash_secret(info.game_id, secret)},
                                 by=sub.sender, source=sub.message_id))
        welcomes.append((seat_name, email, secret))
    elif command.name in ("pause", "resume", "end"):
        pending.append(NewRecord("gm", "GM", {"command": command.name}, by=sub.sender, source=sub.message_id))
    elif command.name == "deadline":
        pending.append(NewRecord("gm", "GM", {"command": "deadline", "text": command.args[0]},
                                 by=sub.sender, source=sub.message_id))
    elif command.name == "broadcast":
        pending.append(NewRecord("gm", "GM", {"command": "broadcast", "text": command.args[0]},
                                 by=sub.sender, source=sub.message_id))
        broadcasts.append(command.args[0])
    # Rebuild from the log plus what this mail adds so far (undo changes history).
    provisional = list(action_log.records) + [
        {"seq": base + 1 + i, "kind": r.kind, "actor": r.actor, "data": r.data}
        for i, r in enumerate(pending)
    ]
    return replay(provisional)
