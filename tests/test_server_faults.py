"""No mail may crash, stall or double-apply: mixed lines, redelivery, a reused Message-ID, a
full or read-only disk, crash leftovers, the error-reply allowance, hexes that do not
exist, game tags in any case, HELP without a game, and the poller's log lines.

Every test runs a real Mailroom (and, where the poller matters, a real Server over Maildir
folders) on a temporary data directory.
"""

from __future__ import annotations

import asyncio
import errno
import hashlib
import json
import logging
import os
from pathlib import Path
from typing import Any

import pytest

import pbem.durable
from pbem.commands import full_help
from pbem.games import replay
from pbem.handled import content_digest, rate_key
from pbem.log_records import parse_records
from pbem.poller import BACKOFF_MAX, Server, StorageFault, storage_backoff
from pbem.transport.maildir import MaildirInbound, MaildirOutbound, deliver_to_inbox
from tests.test_mailroom import (
    ADDRESS, GID, GM, P1, P2, T0, Clock, Table, body, demo_lines_as_gm, flat, handled_lines, log_records, only,
    parse, to_of,
)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path / "data")


def cached_matches_log(table: Table) -> None:
    """The mailroom's state of the game is what a fresh replay of the log gives."""
    _, cached = table.room.load(GID)
    fresh = replay(parse_records(log_records(table.data)))
    assert cached.last_seq == fresh.last_seq
    assert cached.info == fresh.info
    assert cached.game.state == fresh.game.state


# -- 1. WIDTH and orders in one mail ------------------------------------------------------------


def test_an_order_then_width_in_one_mail_is_applied_and_logged(table: Table) -> None:
    outcome, mails = table.order("Player 1", "BID CS 45", "WIDTH 80")
    assert outcome == "processed"
    records = log_records(table.data)
    assert [r["kind"] for r in records] == ["game", "action", "setting"]
    assert table.state().info.widths == {"Player 1": 80}
    cached_matches_log(table)
    # the game goes on: the next order is record 3
    assert table.order("Player 2", "PASS")[0] == "processed"
    assert [r["seq"] for r in log_records(table.data)] == [0, 1, 2, 3]
    cached_matches_log(table)


def test_width_between_orders_and_gm_commands(table: Table) -> None:
    assert table.order("GM", "ACT AS 1 BID CS 45", "WIDTH 80", "ACT AS 2 PASS", "WIDTH 132", "UNDO",
                       "DEADLINE Friday")[0] == "processed"
    cached_matches_log(table)
    state = table.state()
    assert state.info.widths == {"GM": 132} and state.info.deadline == "Friday"
    assert [r.seq for r in state.effective] == [1]


# -- 2. redelivery ------------------------------------------------------------------------------


def with_trace(raw: bytes, n: int, *, crlf: bool = False) -> bytes:
    """``raw`` as a server delivers it again: trace fields in front, maybe CRLF line ends."""
    trace = (f"Return-Path: <gm@players.example>\nDelivered-To: pbem@pbem.example\n"
             f"Received: from mx{n}.example by pbem.example; Tue, 1 Dec 2026 10:0{n}:00 +0000\n"
             f"X-Spam-Score: {n}\nAuthentication-Results: mx{n}.example; spf=pass\n").encode()
    out = trace + raw
    return out.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n") if crlf else out


def test_a_gm_undo_redelivered_with_new_trace_fields_undoes_once(table: Table) -> None:
    for seat, line in (("Player 1", "BID CS 45"), ("Player 2", "PASS"), ("Player 3", "PASS")):
        assert table.order(seat, line)[0] == "processed"
    undo = table.mail("GM", "UNDO")
    copies = [undo, with_trace(undo, 1), with_trace(undo, 2), with_trace(undo, 3, crlf=True)]
    results = [table.send(raw) for raw in copies]
    assert [outcome for outcome, _ in results] == ["processed"] * 4
    assert [len(mails) for _, mails in results] == [4, 0, 0, 0]
    records = log_records(table.data)
    assert [r["kind"] for r in records].count("undo") == 1
    assert [r.seq for r in table.state().effective] == [1, 2]
    assert len(handled_lines(table.data)) == 4 + 0  # three orders and the undo: redeliveries add nothing
    assert len(list((table.data / "received").iterdir())) == 4


def test_redelivery_through_the_poller_applies_once(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    inbox = tmp_path / "inbox"
    server = Server(table.room, MaildirInbound(inbox), MaildirOutbound(tmp_path / "delivered"))
    raw = table.mail("Player 1", "BID CA 165")
    for n in range(3):
        deliver_to_inbox(inbox, with_trace(raw, n, crlf=n == 2))

    async def run() -> Any:
        await server.start()
        try:
            return await server.run_once()
        finally:
            await server.inbound.close()

    assert asyncio.run(run()).outcomes == {"processed": 3}
    assert len([r for r in log_records(table.data) if r["kind"] == "action"]) == 1
    assert len(list((inbox / ".Processed" / "new").iterdir())) == 3


def test_a_mail_without_message_id_redelivered_is_the_same_mail(table: Table) -> None:
    msg = parse(table.mail("Player 1", "BID CA 165"))
    del msg["Message-ID"]
    raw = msg.as_bytes()
    assert table.send(raw)[0] == "processed"
    assert table.send(with_trace(raw, 1)) == ("processed", [])
    assert len(log_records(table.data)) == 2


def test_trace_fields_do_not_change_the_digest_but_the_content_does(table: Table) -> None:
    raw = table.mail("Player 1", "BID CA 165", mid="<x@players.example>")
    assert content_digest(with_trace(raw, 1)) == content_digest(raw) == content_digest(with_trace(raw, 2, crlf=True))
    other = table.mail("Player 1", "BID CA 170", mid="<x@players.example>")
    assert content_digest(other) != content_digest(raw)
    resubject = raw.replace(b"Subject: [g1] orders", b"Subject: [g1] my orders")
    assert content_digest(resubject) != content_digest(raw)


def test_older_handled_lines_stay_readable_and_still_stop_a_redelivery(table: Table) -> None:
    first = table.mail("Player 1", "BID CA 165")
    assert table.send(first)[0] == "processed"
    # as an older version wrote it: no digest; and a line from before the raw copy was kept
    lines = handled_lines(table.data)
    for line in lines:
        del line["digest"]
    older = {"message_id": "<old@players.example>", "outcome": "processed", "kind": "orders",
             "sender": P2, "time": T0, "replied": True, "game": GID}
    path = table.data / "handled.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in [older] + lines) + '{"torn": ')
    table.reopen()
    assert table.send(with_trace(first, 1)) == ("processed", [])
    assert table.order("Player 2", "PASS", mid="<old@players.example>") == ("processed", [])
    assert len(log_records(table.data)) == 2


# -- 3. a full or read-only data directory --------------------------------------------------------


def fail_writes(monkeypatch: pytest.MonkeyPatch, code: int) -> dict[str, bool]:
    """Make every durable write fail with ``code`` while ``switch["on"]``."""
    switch = {"on": True}
    real = pbem.durable._put

    def put(fh: Any, data: bytes) -> None:
        if switch["on"]:
            raise OSError(code, os.strerror(code))
        real(fh, data)

    monkeypatch.setattr(pbem.durable, "_put", put)
    return switch


def test_the_backoff_schedule_doubles_up_to_five_minutes() -> None:
    assert [storage_backoff(n) for n in range(1, 12)] == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]
    assert storage_backoff(1000) == BACKOFF_MAX == 300


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
def test_a_storage_fault_stops_the_pass_and_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           code: int) -> None:
    table = Table(tmp_path / "data")
    inbox = tmp_path / "inbox"
    server = Server(table.room, MaildirInbound(inbox), MaildirOutbound(tmp_path / "delivered"), max_attempts=2)
    raw = table.mail("Player 1", "BID CA 165")
    deliver_to_inbox(inbox, raw)
    switch = fail_writes(monkeypatch, code)

    async def run() -> Any:
        await server.start()
        try:
            return await server.run_once()
        finally:
            await server.inbound.close()

    for _ in range(4):  # more passes than max_attempts: a storage fault is no attempt
        with pytest.raises(StorageFault) as fault:
            asyncio.run(run())
        assert fault.value.error.errno == code
    assert [p.read_bytes() for p in (inbox / "new").iterdir()] == [raw], "still in the inbox"
    assert len(log_records(table.data)) == 1
    switch["on"] = False
    assert asyncio.run(run()).outcomes == {"processed": 1}
    assert len(log_records(table.data)) == 2
    assert not list((inbox / "new").iterdir())


def test_a_fault_after_the_commit_is_completed_once_the_disk_works(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(tmp_path / "data")
    inbox = tmp_path / "inbox"
    delivered = tmp_path / "delivered"
    server = Server(table.room, MaildirInbound(inbox), MaildirOutbound(delivered))
    raw = table.mail("Player 1", "BID CA 165")
    deliver_to_inbox(inbox, raw)
    switch = {"on": False}
    real = pbem.durable._put

    def put(fh: Any, data: bytes) -> None:
        if switch["on"]:
            raise OSError(errno.ENOSPC, "No space left on device")
        real(fh, data)

    monkeypatch.setattr(pbem.durable, "_put", put)
    table.room.after_commit = lambda: switch.update(on=True)  # the disk fills right after the commit

    async def run() -> Any:
        await server.start()
        try:
            return await server.run_once()
        finally:
            await server.inbound.close()

    with pytest.raises(StorageFault):
        asyncio.run(run())
    table.room.after_commit = None
    switch["on"] = False
    assert asyncio.run(run()).outcomes == {"processed": 1}
    records = log_records(table.data)
    assert [r["source"] for r in records].count(str(parse(raw)["Message-ID"])) == 1
    subjects = [str(parse(p.read_bytes())["Subject"]) for p in (delivered / P2 / "new").iterdir()]
    assert sum(s.startswith(f"[{GID}] Turn report 1: Private auction") for s in subjects) == 1


def test_serve_keeps_running_backs_off_tells_the_gm_once_and_catches_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    table = Table(tmp_path / "data")
    inbox = tmp_path / "inbox"
    delivered = tmp_path / "delivered"
    outbound = MaildirOutbound(delivered)  # on another disk than the data directory
    waits: list[float] = []

    def backoff(failures: int) -> float:  # the schedule, recorded but not waited for
        waits.append(storage_backoff(failures))
        if failures == 5:
            switch["on"] = False  # space is freed
        return 0.0

    server = Server(table.room, MaildirInbound(inbox), outbound, backoff=backoff)
    deliver_to_inbox(inbox, table.mail("Player 1", "BID CA 165"))
    switch = fail_writes(monkeypatch, errno.ENOSPC)

    async def serve() -> None:
        stop = asyncio.Event()
        task = asyncio.ensure_future(server.serve(0.05, stop))
        for _ in range(400):
            await asyncio.sleep(0.01)
            if len(log_records(table.data)) == 2 and server.outage is None:
                break
        stop.set()
        await task

    caplog.set_level(logging.INFO, logger="pbem.server")
    asyncio.run(serve())
    assert waits == [1, 2, 4, 8, 16]
    assert len(log_records(table.data)) == 2, "the mail was applied once the disk had space"
    notices = [parse(p.read_bytes()) for p in (delivered / GM / "new").iterdir()]
    about_disk = [m for m in notices if "cannot write its data directory" in str(m["Subject"])]
    assert len(about_disk) == 1, "the GM is told once"
    assert "No space left on device" in body(about_disk[0])
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 5 and all("the data directory cannot be written" in e for e in errors)
    assert any("can be written again" in r.getMessage() for r in caplog.records)


def test_a_gm_notice_that_cannot_be_sent_yet_goes_out_later_once(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    table = Table(tmp_path / "data")
    delivered = tmp_path / "delivered"
    server = Server(table.room, MaildirInbound(tmp_path / "inbox"), MaildirOutbound(delivered))
    switch = fail_writes(monkeypatch, errno.EROFS)
    monkeypatch.setattr(MaildirOutbound, "send", _refuse)  # the mail server is away too

    async def passes(n: int) -> None:
        await server.start()
        for _ in range(n):
            try:
                await server.run_once()
            except StorageFault as fault:
                await server.storage_failed(fault)

    asyncio.run(passes(3))
    assert server.outage is not None and server.outage.told == set()
    monkeypatch.undo()  # writes and sending work again
    asyncio.run(passes(1))
    assert server.outage is None
    asyncio.run(table.room.drain(MaildirOutbound(delivered)))
    asyncio.run(passes(2))
    subjects = [str(parse(p.read_bytes())["Subject"]) for p in (delivered / GM / "new").iterdir()]
    assert subjects.count("[pbem] The game server cannot write its data directory") == 1
    assert switch["on"], "the fault was on until undone"


async def _refuse(self: Any, message: Any) -> None:
    from pbem.transport.base import TransientSendError

    raise TransientSendError("connection refused")


# -- 5. one stored copy; temporary files of a crash ---------------------------------------------------


def test_temporary_files_left_by_a_crash_are_removed_at_start(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    dead = 2 ** 22 + 12345  # above the largest pid Linux hands out
    assert not os.path.exists(f"/proc/{dead}")
    stale = [
        table.data / "received" / f".abc.eml.{dead}.tmp",
        table.data / "outbox" / "queue" / f".00000000000000000001-x@y.eml.{dead}.tmp",
        table.data / "games" / GID / f".head.json.{os.getpid()}.tmp",  # a restart with the crashed pid
        table.data / "games" / GID / "reports" / f".report-0001.txt.{dead}.tmp",
    ]
    live = table.data / "outbox" / "sent" / f".busy.eml.{os.getppid()}.tmp"  # another process writes it now
    for path in stale + [live]:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"half a file")
    keep = table.data / "received" / "not-temporary.tmp"
    keep.write_bytes(b"x")
    server = Server(table.room, MaildirInbound(tmp_path / "inbox"), MaildirOutbound(tmp_path / "delivered"))
    asyncio.run(server.start())
    assert [p.exists() for p in stale] == [False] * len(stale)
    assert live.exists() and keep.exists()


def test_a_failed_atomic_write_leaves_no_temporary_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fail_writes(monkeypatch, errno.ENOSPC)
    with pytest.raises(OSError):
        pbem.durable.write_atomic(tmp_path / "f.json", b"{}")
    assert list(tmp_path.iterdir()) == []


# -- 4. the error-reply allowance ------------------------------------------------------------------


def test_tagged_variants_of_an_address_share_one_allowance(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", error_replies_per_hour=2)
    senders = ["robot@else.example", "robot+a@else.example", "Robot+b@Else.Example"]
    replies = [len(table.order("Player 1", "BID CA 165", sender=s)[1]) for s in senders + senders]
    assert replies == [1, 1, 0, 0, 0, 0]
    assert rate_key("Robot+b@Else.Example") == rate_key("robot@else.example") == "robot@else.example"


def test_an_auto_responder_loop_of_a_player_runs_dry(tmp_path: Path) -> None:
    clock = Clock()
    table = Table(tmp_path / "data", clock, error_replies_per_hour_authenticated=5)
    answered = 0
    for _ in range(40):  # a player's program mails the same wrong order again on every reply
        answered += len(table.order("Player 2", "BID CA 170")[1])
        clock.t += 10
    assert answered == 5
    clock.t += 3600
    assert len(table.order("Player 2", "BID CA 170")[1]) == 1


# -- 6. hexes that do not exist, numbers -------------------------------------------------------------


@pytest.mark.parametrize("line", ["LAY Z99 57 0", "TOKEN Z99", "TOKEN Z99.1", "RUN 2: Z99-H16"])
def test_an_order_naming_a_hex_not_on_the_map_is_refused_clearly(table: Table, line: str,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    assert table.order("GM", *demo_lines_as_gm(stop_before=35))[0] == "processed"
    before = len(log_records(table.data))
    outcome, mails = table.order("Player 3", line)  # B&O's president: it is their turn
    assert outcome == "rejected"
    text = body(only(mails))
    assert "there is no hex Z99 on the 1830" in text
    assert f"The line that failed:\n  {line}\n" in text
    assert len(log_records(table.data)) == before
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_an_engine_fault_is_refused_with_a_reply_and_logged(table: Table, monkeypatch: pytest.MonkeyPatch,
                                                             caplog: pytest.LogCaptureFixture) -> None:
    from pbem.engine.game import Game

    def broken(self: Any, player: str, action: Any) -> Any:
        raise KeyError("a bug")

    monkeypatch.setattr(Game, "apply", broken)
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "rejected"
    reply = only([m for m in mails if to_of(m) != GM])
    assert "an error of the server, not of your order" in flat(reply)
    assert any("failed unexpectedly" in r.getMessage() for r in caplog.records if r.levelno == logging.ERROR)
    assert handled_lines(table.data)[-1]["kind"] == "internal"


def test_an_engine_fault_reaches_the_gm_by_mail_and_the_server_goes_on(table: Table,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The refusal promises the GM is told: the GM's mail names the game, the sender, the
    mail's lines, the line that failed and the error with its innermost frames, and where
    the raw mail is kept; the player gets the promised reply; nothing is applied, and the
    next mail is handled as ever."""
    from pbem.engine.actions import Bid
    from pbem.engine.steps.auction import WaterfallAuction

    def broken(*args: Any) -> Any:
        raise KeyError("a bug in the auction")

    before = len(log_records(table.data))
    monkeypatch.setitem(WaterfallAuction.handlers, Bid, broken)  # the engine's handler of a bid
    raw = table.mail("Player 1", "Hi all,", "BID CA 165")
    outcome, mails = table.send(raw)
    assert outcome == "rejected"
    assert sorted(to_of(m) for m in mails) == sorted([ADDRESS["Player 1"], GM])
    reply = next(m for m in mails if to_of(m) == ADDRESS["Player 1"])
    assert "an error of the server, not of your order. The GM has been sent the details" in flat(reply)
    assert "Traceback" not in body(reply) and "a bug" not in body(reply)
    notice = body(next(m for m in mails if to_of(m) == GM))
    subject = str(next(m for m in mails if to_of(m) == GM)["Subject"])
    assert subject == f"[{GID}] An error of the server on a mail from {ADDRESS['Player 1']}"
    assert f"Game: {GID}\n" in notice and f"Sender: {ADDRESS['Player 1']}\n" in notice
    assert "The line that failed (line 3):\n  BID CA 165\n" in notice  # line 1 is the PASSWORD line
    assert "    3  BID CA 165" in notice and "Hi all" not in notice
    assert "KeyError: 'a bug in the auction'" in notice
    assert "in broken" in notice and 'File "pbem/engine/rounds.py"' in notice, notice
    sha = hashlib.sha256(raw).hexdigest()
    assert f"received/{sha}.eml" in notice and (table.data / "received" / f"{sha}.eml").read_bytes() == raw
    assert table.secrets["Player 1"] not in notice
    assert len(log_records(table.data)) == before
    assert table.send(raw) == ("rejected", []), "a redelivered copy is not told again"
    monkeypatch.undo()
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "processed" and len(log_records(table.data)) == before + 1


def test_thousands_of_digits_are_a_player_error_not_an_internal_one(table: Table,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    outcome, mails = table.order("Player 1", "BID CA " + "9" * 5000)
    assert outcome == "rejected"
    assert "plain digits 0-9, at most 9" in body(only(mails))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert handled_lines(table.data)[-1]["kind"] == "syntax"


@pytest.mark.parametrize("amount", ["１６５", "١٦٥", "۱۶۵", "१६५"])
def test_digits_of_other_scripts_are_not_applied(table: Table, amount: str) -> None:
    outcome, mails = table.order("Player 1", f"BID CA {amount}")
    assert outcome == "rejected"
    assert "plain digits 0-9" in body(only(mails))
    assert len(log_records(table.data)) == 1


# -- 7. game tags in any case; HELP without a game --------------------------------------------------


@pytest.mark.parametrize("subject", ["[G1] orders", "[URGENT] [g1] orders", "Re: [URGENT] [G1] orders"])
def test_the_game_tag_is_found_in_any_case(table: Table, subject: str) -> None:
    outcome, mails = table.order("Player 1", "BID CA 165", subject=subject)
    assert outcome == "processed" and len(mails) == 4
    assert log_records(table.data)[-1]["source"] is not None


def test_a_subject_naming_two_games_is_refused_and_applies_nothing(tmp_path: Path) -> None:
    """One mail, one game: with two games' tags an order meant for the second game must never
    land in the first."""
    table = Table(tmp_path / "data")
    table.room.new_game("g2", "1830", (), [("Ann", P1), ("Bo", "bo@else.example"), ("Cy", "cy@else.example")], P2)
    outcome, mails = table.order("Player 1", "BID CA 165", subject="[g1] [G2] orders")
    assert outcome == "rejected"
    assert "names 2 games on this server (g1, g2)" in body(only(mails))
    assert len(log_records(table.data)) == 1
    outcome, _ = table.order("Player 1", "BID CA 165", subject="[g1] [no-such-game] orders")
    assert outcome == "processed"


def test_help_without_a_game_gives_the_reference_and_the_senders_games(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    table.room.new_game("g2", "1830", (), [("Ann", P1), ("Bo", "bo@else.example"), ("Cy", "cy@else.example")], P2)
    outcome, mails = table.order("Player 1", "HELP", subject="help please", secret="")
    assert outcome == "processed"
    reply = only(mails)
    assert to_of(reply) == P1
    text = body(reply)
    assert full_help(is_gm=False) in text
    assert "[g1] Player 1" in text and "[g2] Ann" in text
    assert "GM commands" not in text
    gm_reply = body(only(table.order("Player 2", "help", subject="?", secret="")[1]))
    assert "[g1] Player 2" in gm_reply and "[g2] GM" in gm_reply
    stranger = body(only(table.order("Player 1", "HELP", subject="hi", secret="", sender="x@else.example")[1]))
    assert "x@else.example has no seat in any game on this server." in stranger
    # anything but HELP without a game is still refused
    outcome, mails = table.order("Player 1", "BID CA 165", subject="orders")
    assert outcome == "rejected" and "The Subject names no game" in body(only(mails))


def test_help_without_a_game_is_rate_limited(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", error_replies_per_hour=2)
    replies = [len(table.order("Player 1", "HELP", subject="x", secret="", sender="bot+1@else.example")[1])
               for _ in range(4)]
    assert replies == [1, 1, 0, 0]


# -- 8. what the poller logs -------------------------------------------------------------------------


def test_the_poller_logs_a_line_per_mail_and_per_pass(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    table = Table(tmp_path / "data")
    inbox = tmp_path / "inbox"
    server = Server(table.room, MaildirInbound(inbox), MaildirOutbound(tmp_path / "delivered"))
    deliver_to_inbox(inbox, table.mail("Player 1", "BID CA 165"))
    deliver_to_inbox(inbox, table.mail("Player 2", "BUY PRRR"))
    caplog.set_level(logging.INFO, logger="pbem.server")

    async def run() -> Any:
        await server.start()
        try:
            return await server.run_once()
        finally:
            await server.inbound.close()

    asyncio.run(run())
    lines = [r.getMessage() for r in caplog.records if r.name == "pbem.server"]
    mails = [line for line in lines if line.startswith("mail ")]
    assert len(mails) == 2
    assert f"game {GID}, from {P1}: processed (orders)" in mails[0]
    assert f"game {GID}, from {P2}: rejected (syntax)" in mails[1]
    (summary,) = [line for line in lines if line.startswith("pass:")]
    assert "2 mail(s)" in summary and "'processed': 1" in summary and "'rejected': 1" in summary
    assert "sent 9" in summary  # four welcomes, four reports, one reply


# -- 3b. the same with a real file system: a small tmpfs, filled up, then made read-only ----------------


@pytest.fixture
def small_disk(tmp_path: Path) -> Any:
    """A 4 MB tmpfs at ``tmp_path/disk`` (root only; skipped where mounting is not allowed)."""
    import subprocess

    disk = tmp_path / "disk"
    disk.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(disk)],
                                           capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root and the right to mount")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_a_really_full_then_read_only_disk_loses_nothing(small_disk: Path, tmp_path: Path) -> None:
    import subprocess

    table = Table(small_disk / "data")
    inbox = tmp_path / "inbox"  # the mail server's disk
    server = Server(table.room, MaildirInbound(inbox), MaildirOutbound(tmp_path / "delivered"))
    raw = table.mail("Player 1", "BID CA 165")
    deliver_to_inbox(inbox, raw)
    filler = small_disk / "filler"
    with filler.open("wb", buffering=0) as fh:  # fill the disk to the last byte (unbuffered: nothing
        try:                                      # left to flush, and fail, as the file closes)
            while True:
                fh.write(b"\0" * 65536)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC

    async def run() -> Any:
        await server.start()
        try:
            return await server.run_once()
        finally:
            await server.inbound.close()

    with pytest.raises(StorageFault) as fault:
        asyncio.run(run())
    assert fault.value.error.errno == errno.ENOSPC
    filler.unlink()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    with pytest.raises(StorageFault) as fault:
        asyncio.run(run())
    assert fault.value.error.errno == errno.EROFS
    assert [p.read_bytes() for p in (inbox / "new").iterdir()] == [raw]
    subprocess.run(["mount", "-o", "remount,rw", str(small_disk)], check=True)
    assert asyncio.run(run()).outcomes == {"processed": 1}
    assert len(log_records(table.data)) == 2
    assert not [p for p in table.data.rglob("*.tmp")], "no temporary file left behind"


def test_a_working_copy_that_disagrees_with_the_log_is_rebuilt_not_fatal(
        table: Table, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import pbem.application.mail
    from pbem.execution import Work, execute

    def off_by_one(command: Any, work: Work) -> None:
        execute(command, work)
        work.state.last_seq -= 1  # as the WIDTH record once did

    monkeypatch.setattr(pbem.application.mail, "execute", off_by_one)
    assert table.order("Player 1", "BID CS 45")[0] == "processed"
    assert any("rebuilt from the log" in r.getMessage() for r in caplog.records)
    cached_matches_log(table)
