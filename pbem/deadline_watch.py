"""The server's side of deadlines that act (issue 21): on every pass, for each game, the
reminder due is queued once, and a deadline passed applies the game's no-move policy for the
player to act (:func:`pbem.application.deadlines.default_action`) as orders of that seat,
logged and reported like mail; where nothing may be done for the player (WAIT, or a train
that must be bought), the GM is told once. A deal offered and unanswered for the time the
GM allows (TIMING DEALS) lapses.

Crash safety: the orders a deadline applies are appended under a Message-ID fixed by the
game and its log position (``<deadline.<game>.<seq>@domain>``), and their reports are queued
after the append; a crash between the two is completed on the next pass (the last record is
the deadline's and its report is not archived yet). Every mail's Message-ID is fixed by what
it is about, so the outbox never holds it twice.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from pbem.application.deadlines import Deadline, NoMove, default_action, parse_time, time_left, when
from pbem.application.mail import Decision, TurnReports
from pbem.application.state import Replay, deadline_of, open_deals
from pbem.errors import OrderError
from pbem.execution import Work, apply_order, apply_plans
from pbem.games import list_games
from pbem.log_records import DealRecord, OrderRecord
from pbem.mail.types import Submission
from pbem.engine.deals import turn_key

if TYPE_CHECKING:
    from pbem.actionlog import ActionLog
    from pbem.server import Mailroom

log = logging.getLogger("pbem.server")

MAX_DEFAULTS = 12
"""The most orders one deadline applies (an operating turn's steps, one after another)."""


def watch(room: Mailroom) -> int:
    """One look at every game's deadline at ``room.clock()``; returns the orders applied.
    A game whose log cannot be read is left to the mail that names it."""
    now = datetime.fromtimestamp(room.clock(), timezone.utc)
    applied = 0
    with room.locked():
        for game_id in list_games(room.data):
            try:
                action_log, committed = room.load(game_id)
            except Exception:  # a damaged log: the next mail for it tells the GM
                log.exception("deadlines: cannot read game %s", game_id)
                continue
            try:
                applied += _look(room, game_id, action_log, committed, now)
            except OSError:
                raise  # the data directory: the poller's storage fault
            except Exception:  # ours to fix; the other games and the mail go on
                log.exception("deadlines: game %s failed", game_id)
    return applied


def _look(room: Mailroom, game_id: str, action_log: ActionLog, committed: Replay, now: datetime) -> int:
    if _finish_crashed(room, game_id, action_log, committed):
        return 0
    if _lapse_deals(room, game_id, action_log, committed, now):
        return 0
    deadline = deadline_of(committed)
    if deadline is None:
        return 0
    if now >= deadline.at:
        return _act(room, game_id, action_log, committed, deadline)
    if deadline.remind_at is not None and now >= deadline.remind_at:
        _remind(room, game_id, committed, deadline, now)
    return 0


def deadline_id(room: Mailroom, game_id: str, seq: int) -> str:
    """The Message-ID the orders of the deadline passed at log position ``seq`` are logged under."""
    return f"<deadline.{game_id}.{seq}@{room.domain}>"


def _work(room: Mailroom, committed: Replay, message_id: str, seat: str | None) -> Work:
    """The server's own orders for ``seat`` (None: no seat's) on a copy of ``committed``,
    logged under ``message_id``; they make no secrets."""
    return Work(committed.fork(), room.settings.address, message_id, seat, False, room.settings.route_budget,
                lambda: "", lambda game, secret: "")


def _submission(room: Mailroom, game_id: str, message_id: str) -> Submission:
    """The deadline as the mail path sees a mail: from the server, naming the game."""
    return Submission(message_id, room.settings.address, "deadline", f"[{game_id}] deadline", game_id, None, ())


def _finish_crashed(room: Mailroom, game_id: str, action_log: ActionLog, committed: Replay) -> bool:
    """Queue the reports of a deadline's records appended before a crash (the log's last
    record is the deadline's and no report covers it yet); whether it did."""
    last = action_log.records[-1] if action_log.records else None
    if last is None or last.seq != committed.last_seq or not (last.source or "").startswith("<deadline."):
        return False
    if any(entry.seq == committed.last_seq for entry in room.archive(game_id).entries()):
        return False
    sub = _submission(room, game_id, last.source or "")
    room.complete(sub, committed, Decision((), committed, (TurnReports(""),), "deadline"))
    return True


def _act(room: Mailroom, game_id: str, action_log: ActionLog, committed: Replay, deadline: Deadline) -> int:
    """Apply the no-move policy for ``deadline.seat``: its orders, one after another while
    the seat is still to act in the same turn; none applicable: the GM is told."""
    message_id = deadline_id(room, game_id, committed.last_seq)
    work = _work(room, committed, message_id, deadline.seat)
    turn = turn_key(committed.game)
    for _ in range(MAX_DEFAULTS):
        game = work.state.game
        if deadline.seat not in game.current_actors() or turn_key(game) != turn:
            break
        action = default_action(game, deadline.seat, deadline.policy)
        if action is None:
            break
        try:
            apply_order(work, deadline.seat, action)
        except OrderError as exc:  # the engine's own legal move refused: ours to fix, the GM decides
            log.error("game %s: the deadline's %r for %s was refused: %s", game_id, action, deadline.seat, exc)
            break
    if not work.records:
        _tell_gm(room, game_id, committed, deadline)
        return 0
    apply_plans(work)  # the next players' standing orders
    sub = _submission(room, game_id, message_id)
    room.commit(sub, action_log, Decision(tuple(work.records), work.state, (TurnReports(""),), "deadline"))
    orders = sum(isinstance(r, OrderRecord) for r in work.records)
    log.info("game %s: the deadline for %s passed; %d order(s) applied (%s)", game_id, deadline.seat, orders,
             deadline.policy.value)
    return orders


def _lapse_deals(room: Mailroom, game_id: str, action_log: ActionLog, committed: Replay, now: datetime) -> bool:
    """End the deals offered more than the game's ``deal_hours`` ago and not answered
    (TIMING DEALS), logged as lapsed under their owners' seats and reported; whether any did."""
    hours = committed.info.deal_hours
    lapsed = [deal for deal in open_deals(committed)
              if hours > 0 and (offered := parse_time(deal.time)) is not None
              and now >= offered + timedelta(hours=hours)]
    if not lapsed:
        return False
    message_id = deadline_id(room, game_id, committed.last_seq)
    work = _work(room, committed, message_id, None)
    for deal in lapsed:
        work.add(DealRecord(seq=work.next_seq, actor=deal.owner or "GM", by=room.settings.address,
                            source=message_id, status="lapsed", deal=deal.seq))
    sub = _submission(room, game_id, message_id)
    room.commit(sub, action_log, Decision(tuple(work.records), work.state, (TurnReports(""),), "deadline"))
    log.info("game %s: %d deal offer(s) lapsed unanswered", game_id, len(lapsed))
    return True


def _tell_gm(room: Mailroom, game_id: str, committed: Replay, deadline: Deadline) -> None:
    why = ("the game waits for the player (WAIT)" if deadline.policy == NoMove.WAIT
           else "nothing the policy allows can be sent for the player now (e.g. a train must be bought)")
    body = (f"The deadline for {deadline.seat} in {game_id} passed at {when(deadline.at)}; {why}.\n"
            f"Next to act: {committed.game.waiting_for()}\n\n"
            f"Rule with ACT AS {deadline.seat} <order>, or wait for the player's mail.\n")
    room.queue(to=committed.info.gm_email, subject=f"[{game_id}] Deadline passed: {deadline.seat}", body=body,
                kind="notice", key=("deadline", game_id, str(committed.last_seq)))


def _remind(room: Mailroom, game_id: str, committed: Replay, deadline: Deadline, now: datetime) -> None:
    seat = committed.info.seat_named(deadline.seat)
    if seat is None:
        return
    then = {"wait": "the GM will be told", "pass": "PASS will be sent for you",
            "default": "the safe default will be sent for you"}[deadline.policy.value]
    body = (f"{deadline.seat}, it is your turn in {game_id}: {committed.game.waiting_for()}\n"
            f"Your deadline is {when(deadline.at)} ({time_left(deadline, now)}); then {then}.\n"
            "Send REPORT for the current report, HELP for what you may send.\n")
    room.queue(to=seat.email, subject=f"[{game_id}] Reminder: your turn, deadline {when(deadline.at)}",
                body=body, kind="notice", key=("reminder", game_id, str(committed.last_seq), deadline.seat))
