"""Deadlines that act (issue 21), with a fake clock and the real mailroom: the GM sets the time
allowed per kind of round and what happens when it runs out; reports say when the deadline
falls and whom the game waits for; a reminder goes once; at the deadline the no-move policy
is applied for the player (PASS, the safe default) or the GM is told (WAIT); absences move a
player's deadline; a crash between the log and the mail is completed on the next pass."""

from __future__ import annotations

import signal
import subprocess
import sys
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from pbem.application.deadlines import (
    Absence, NoMove, Timing, current_deadline, default_action, pushed_back, time_left,
)
from pbem.commands import Away, GmCommand, parse_line
from pbem.deadline_watch import watch
from pbem.engine.actions import Pass, RunAuto
from pbem.engine.game import Game
from pbem.engine.steps import operating
from pbem.errors import OrderSyntaxError
from pbem.log_records import AwayRecord, OrderRecord, TimingRecord, parse_record, parse_records
from pbem.orders import Vocabulary
from pbem.ruleset import load_title
from pbem.server import Server
from pbem.transport.maildir import MaildirInbound, MaildirOutbound
from tests.records import replayed_before
from tests.test_mailroom import GID, GM, P1, P2, T0, Table, body, flat, log_records, one_pass, queued

HOUR = 3600.0
ROOT = Path(__file__).resolve().parent.parent
START = datetime.fromtimestamp(T0, timezone.utc)


class Killed(BaseException):
    """The process killed (kill -9): no handler of ours runs."""


def at(hours: float) -> datetime:
    return START + timedelta(hours=hours)


# -- the rules of a deadline, pure -------------------------------------------------------------


def test_an_absence_moves_the_deadline_by_the_time_it_takes_after_the_clock_started() -> None:
    since, due = at(0), at(48)
    away = Absence("Player 1", (START + timedelta(days=1)).date(), (START + timedelta(days=2)).date())
    start, end = away.span()
    assert pushed_back(since, due, [away]) == due + (end - start), "two whole days inside the time allowed"
    before = Absence("Player 1", date(2020, 1, 1), date(2020, 1, 3))
    assert pushed_back(since, due, [before]) == due, "an absence before the clock started counts nothing"
    after = Absence("Player 1", (START + timedelta(days=5)).date(), (START + timedelta(days=6)).date())
    assert pushed_back(since, due, [after]) == due, "an absence after the deadline counts nothing"


def test_the_deadline_is_the_time_allowed_for_the_kind_of_round_after_the_clock_started() -> None:
    game = Game(load_title("1830"), ["Player 1", "Player 2", "Player 3"])
    timing = {"auction": Timing(48, NoMove.PASS)}
    found = current_deadline(game, since=at(0), timing=timing, remind_hours=24, absences=[])
    assert found is not None
    assert (found.seat, found.kind, found.at, found.remind_at, found.policy) == (
        "Player 1", "auction", at(48), at(24), NoMove.PASS)
    assert current_deadline(game, since=at(0), timing={"stock": Timing(48)}, remind_hours=24, absences=[]) is None
    assert current_deadline(game, since=at(0), timing=timing, remind_hours=24, absences=[], paused=True) is None
    assert current_deadline(game, since=None, timing=timing, remind_hours=24, absences=[]) is None
    short = current_deadline(game, since=at(0), timing={"auction": Timing(12)}, remind_hours=24, absences=[])
    assert short is not None and short.remind_at is None, "no reminder before the clock even starts"
    assert time_left(found, at(20.5)) == "1 day 3 hours left"
    assert time_left(found, at(47.5)) == "30 minutes left"
    assert time_left(found, at(49)) == "passed"


def test_the_policy_sends_pass_or_the_safe_default_and_never_decides_a_train() -> None:
    game = Game(load_title("1830"), ["Player 1", "Player 2", "Player 3"])
    assert default_action(game, "Player 1", NoMove.PASS) == Pass()
    assert default_action(game, "Player 1", NoMove.DEFAULT) == Pass()
    assert default_action(game, "Player 1", NoMove.WAIT) is None
    # 1830_game_end_bank before a run (action 440 on): the default runs the trains
    from pbem.importers.e18xx import effective_actions, load_record
    from tests.records import record_path

    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    run_id = next(a["id"] for a in effective_actions(record) if a["type"] == "run_routes" and float(a["id"]) >= 440)
    running = replayed_before("1830", "1830_game_end_bank.json", run_id).game
    president = running.current_actors()[0]
    assert operating.active_steps(running)[0] is operating.Route
    assert default_action(running, president, NoMove.DEFAULT) == RunAuto()
    assert default_action(running, president, NoMove.PASS) is None, "a run is no step to pass"


# -- orders and records ----------------------------------------------------------------------


def test_timing_and_away_read_as_written() -> None:
    title = load_title("1830")
    vocab = Vocabulary.from_title(title)
    from pbem.application.state import GameInfo

    info = GameInfo(GID, "1830", (), [], GM, "")
    assert parse_line("TIMING STOCK 48 PASS", vocab, info, is_gm=True) == GmCommand(
        "TIMING STOCK 48 PASS", "timing", ("stock", "48", "pass", ""))
    assert parse_line("timing operating none", vocab, info, is_gm=True) == GmCommand(
        "timing operating none", "timing", ("operating", "0", "wait", ""))
    assert parse_line("TIMING REMIND 12", vocab, info, is_gm=True) == GmCommand(
        "TIMING REMIND 12", "timing", ("remind", "12", "", ""))
    assert parse_line("AWAY 2026-12-24 TO 2027-01-02", vocab, info, is_gm=False) == Away(
        "AWAY 2026-12-24 TO 2027-01-02", date(2026, 12, 24), date(2027, 1, 2))
    for bad in ("TIMING STOCK", "TIMING LUNCH 4", "TIMING STOCK 4 SLEEP"):
        with pytest.raises(OrderSyntaxError, match="TIMING STOCK 48 PASS"):
            parse_line(bad, vocab, info, is_gm=True)
    for bad in ("AWAY tomorrow", "AWAY 2027-01-02 TO 2026-12-24"):
        with pytest.raises(OrderSyntaxError):
            parse_line(bad, vocab, info, is_gm=False)
    with pytest.raises(OrderSyntaxError, match="GM command"):
        parse_line("TIMING STOCK 48", vocab, info, is_gm=False)
    for record in (TimingRecord(seq=3, round="stock", hours=48, policy="pass"),
                   AwayRecord(seq=4, actor="Player 1", seat="Player 1", first="2026-12-24", last="2027-01-02")):
        assert parse_record(record.to_dict()) == record


# -- through the mailroom, with a fake clock -------------------------------------------------------


def timed(tmp_path: Path, *lines: str) -> Table:
    table = Table(tmp_path / "data")
    outcome, _ = table.order("GM", *lines)
    assert outcome == "processed"
    return table


def new_mail(table: Table, before: set[str]) -> list[Any]:
    return [msg for msg_id, msg in queued(table.room) if msg_id not in before]


def test_reports_say_when_the_deadline_falls_and_whom_the_game_waits_for(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 48 PASS")
    table.clock.t = T0 + 2 * HOUR
    _, mails = table.order("Player 1", "REPORT")
    text = body(mails[0])
    deadline = (START + timedelta(hours=48)).strftime("%a %Y-%m-%d %H:%M UTC")
    assert f"Deadline: Player 1 by {deadline} (1 day 22 hours left)\n" in text
    assert f"Waiting for Player 1 since {START.strftime('%a %Y-%m-%d %H:%M UTC')}; then PASS is sent\n" in text


def test_a_reminder_goes_once_and_the_deadline_passes_for_the_player(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 48 PASS", "TIMING REMIND 6")
    before = set(table.room.outbox.pending())
    table.clock.t = T0 + 41 * HOUR
    assert watch(table.room) == 0 and new_mail(table, before) == [], "not yet"
    table.clock.t = T0 + 43 * HOUR
    assert watch(table.room) == 0
    [reminder] = new_mail(table, before)
    assert str(reminder["To"]) == P1 and "Reminder: your turn" in str(reminder["Subject"])
    assert "PASS will be sent for you" in body(reminder)
    assert watch(table.room) == 0 and len(new_mail(table, before)) == 1, "once"

    table.clock.t = T0 + 48 * HOUR + 1
    assert watch(table.room) == 1
    records = parse_records(log_records(table.data))
    last = records[-1]
    assert isinstance(last, OrderRecord) and last.actor == "Player 1" and last.data() == {"type": "pass"}
    assert (last.source or "").startswith(f"<deadline.{GID}.")
    reports = [m for m in new_mail(table, before) if "Turn report" in str(m["Subject"])]
    assert {str(m["To"]) for m in reports} == {P1, P2, "p3@players.example", GM}
    assert "Player 1: PASS (sent by the deadline)" in body(reports[0])
    assert watch(table.room) == 0, "the next player's clock has just started"
    assert len(parse_records(log_records(table.data))) == len(records)


def test_wait_tells_the_gm_once_and_applies_nothing(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 24")
    before = set(table.room.outbox.pending())
    count = len(log_records(table.data))
    table.clock.t = T0 + 25 * HOUR
    assert watch(table.room) == 0 and watch(table.room) == 0
    [notice] = [m for m in new_mail(table, before) if "Deadline passed" in str(m["Subject"])]
    assert str(notice["To"]) == GM and "ACT AS Player 1 <order>" in body(notice)
    assert len(log_records(table.data)) == count


def test_an_absence_moves_the_deadline_within_the_yearly_allowance(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 48 PASS", "TIMING AWAY 5")
    first = START.date() + timedelta(days=1)
    outcome, _ = table.order("Player 1", f"AWAY {first} TO {first + timedelta(days=2)}")
    assert outcome == "processed"
    table.clock.t = T0 + 49 * HOUR
    assert watch(table.room) == 0, "three days away: the deadline moved by them"
    table.clock.t = T0 + (48 + 72) * HOUR + 1
    assert watch(table.room) == 1
    outcome, mails = table.order("Player 2", f"AWAY {first} TO {first + timedelta(days=5)}")
    assert outcome == "rejected" and "the game allows 5 a year" in body(mails[0])
    assert "TIMING AWAY <days> FOR Player 2" in body(mails[0])


def test_the_gm_grants_one_seat_more_days_away(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AWAY 5", "TIMING AWAY 12 FOR 2")
    first = START.date() + timedelta(days=1)
    ten_days = f"AWAY {first} TO {first + timedelta(days=9)}"
    outcome, mails = table.order("Player 1", ten_days)
    assert outcome == "rejected" and "the game allows 5 a year" in body(mails[0])
    assert table.order("Player 2", ten_days)[0] == "processed", "the GM's grant to Player 2"
    outcome, mails = table.order("Player 2", f"AWAY {first + timedelta(days=20)} TO {first + timedelta(days=22)}")
    assert outcome == "rejected" and "the game allows 12 a year (10 taken)" in flat(mails[0])
    outcome, mails = table.order("GM", "TIMING AWAY 9 FOR Nobody")
    assert outcome == "rejected" and "no seat 'Nobody'" in body(mails[0])
    grant = [r for r in parse_records(log_records(table.data)) if isinstance(r, TimingRecord) and r.seat]
    assert [(r.round, r.hours, r.seat) for r in grant] == [("away", 12, "Player 2")]
    assert parse_record(grant[0].to_dict()) == grant[0]


def killed_during_watch(table: Table) -> None:
    """A pass of the deadline watch killed right after its log append (kill -9: no handler
    of ours runs), before any report is queued."""

    def die() -> None:
        raise Killed("killed right after the log fsync")

    table.room.after_commit = die
    with pytest.raises(Killed):
        watch(table.room)


def test_a_crash_between_the_log_and_the_reports_is_completed_once(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 24 PASS")
    table.clock.t = T0 + 25 * HOUR
    before = set(table.room.outbox.pending())
    killed_during_watch(table)
    count = len(log_records(table.data))
    assert new_mail(table, before) == []
    table.reopen()
    table.clock.t = T0 + 26 * HOUR
    assert watch(table.room) == 0
    reports = [m for m in new_mail(table, before) if "Turn report" in str(m["Subject"])]
    assert len(reports) == 4 and "(sent by the deadline)" in body(reports[0])
    table.reopen()
    assert watch(table.room) == 0
    assert len(new_mail(table, before)) == 4 and len(log_records(table.data)) == count, "nothing doubled"


KILL_DURING_WATCH = """
import os, signal, sys
from pathlib import Path
from pbem.deadline_watch import watch
from tests.test_mailroom import Clock, make_room
room = make_room(Path(sys.argv[1]), Clock(float(sys.argv[2])))
room.after_commit = lambda: os.kill(os.getpid(), signal.SIGKILL)
watch(room)
"""


def test_a_server_killed_with_sigkill_after_the_log_append_completes_the_deadline_once(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 24 PASS")
    before = set(table.room.outbox.pending())
    count = len(log_records(table.data))
    done = subprocess.run([sys.executable, "-c", KILL_DURING_WATCH, str(table.data), str(T0 + 25 * HOUR)],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert len(log_records(table.data)) == count + 1 and new_mail(table, before) == []
    table.reopen()
    table.clock.t = T0 + 26 * HOUR
    assert watch(table.room) == 0 and watch(table.room) == 0
    reports = [m for m in new_mail(table, before) if "Turn report" in str(m["Subject"])]
    assert len(reports) == 4 and len(log_records(table.data)) == count + 1, "applied once, reported once"


def test_the_server_wakes_for_deadlines_without_mail(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 24 PASS")
    table.clock.t = T0 + 25 * HOUR
    result = one_pass(Server(table.room, MaildirInbound(tmp_path / "inbox"), MaildirOutbound(tmp_path / "out")))
    assert result.outcomes == {"deadline": 1}
    assert parse_records(log_records(table.data))[-1].actor == "Player 1"


def test_standing_orders_of_others_do_not_put_a_deadline_off(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 48 PASS")
    table.clock.t = T0 + 40 * HOUR
    outcome, _ = table.order("Player 2", "NEXT PASS UNTIL END")
    assert outcome == "processed"
    table.clock.t = T0 + 49 * HOUR
    assert watch(table.room) == 2, "Player 1's clock ran from the start, not from Player 2's plan"
    orders = [r for r in parse_records(log_records(table.data)) if isinstance(r, OrderRecord)]
    assert [(r.actor, r.data()) for r in orders] == [("Player 1", {"type": "pass"}), ("Player 2", {"type": "pass"})]


def test_absences_and_times_beyond_reason_are_refused(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 48 PASS")
    for line in ("AWAY 9999-12-31 TO 9999-12-31", "AWAY 2027-01-01 TO 2028-06-01"):
        outcome, mails = table.order("Player 1", line)
        assert outcome == "rejected" and "at most a year" in body(mails[0])
    outcome, mails = table.order("GM", "TIMING AUCTION 999999999 PASS")
    assert outcome == "rejected" and "at most 8760" in flat(mails[0])
    _, mails = table.order("Player 1", "REPORT")
    assert "Deadline: Player 1 by" in body(mails[0]), "the game goes on"


def test_a_crash_after_a_deadline_whose_last_record_is_a_plans_is_completed(tmp_path: Path) -> None:
    table = timed(tmp_path, "TIMING AUCTION 24 PASS")
    outcome, _ = table.order("Player 2", "NEXT BUY CS IF CASH > 99999")   # fails, no ELSE: left to Player 2
    assert outcome == "processed"
    table.clock.t = T0 + 25 * HOUR
    before = set(table.room.outbox.pending())
    killed_during_watch(table)
    assert parse_records(log_records(table.data))[-1].kind_name == "plan"
    table.reopen()
    assert watch(table.room) == 0
    reports = [m for m in new_mail(table, before) if "Turn report" in str(m["Subject"])]
    assert len(reports) == 4, "the reports of the deadline's pass go out after the restart"
