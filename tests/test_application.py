"""The application layer on its own: a state, a mail's lines, a decision. No mail servers,
no disk: the decision is checked, then its records are replayed (issue 11: one
``apply_record`` shared by replay and live mail)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from pbem.application.mail import (AppConfig, Broadcast, Decision, InfoAnswer, Refusal, TurnReports, handle_mail,
                                   recover_mail)
from pbem.application.state import Replay, Undone, apply_record, replay, start
from pbem.commands import first_word, is_command_line, parse_line
from pbem.execution import Welcome
from pbem.games import genesis_data, hash_secret
from pbem.log_records import (GameRecord, GMRecord, LogRecord, OrderRecord, UndoRecord, UnknownRecord, WidthRecord,
                              parse_record)
from pbem.mail.types import BodyLine, Submission
from pbem.orders import Vocabulary

GID = "app-1830"
SEATS = [("Alice", "alice@example.org"), ("Bob", "bob@example.org"), ("Cleo", "cleo@example.org")]
SECRETS = {"Alice": "alicepw", "Bob": "bobpw", "Cleo": "cleopw"}
GM, GM_SECRET = "gm@example.org", "gmsecret"


def config() -> AppConfig:
    """Secrets from a counter, so a decision is the same every run."""
    counter = itertools.count(1)
    return AppConfig(new_secret=lambda: f"fresh{next(counter)}", hash_secret=hash_secret, route_budget=50_000)


def genesis() -> GameRecord:
    data = genesis_data(GID, "1830", (), SEATS, GM, SECRETS, GM_SECRET)
    return GameRecord(seq=0, genesis=data)


def mail(sender: str, *lines: str, secret: str | None = None, mid: str = "<m1@example.org>") -> Submission:
    """A mail from seat ``sender`` (or ``"GM"``) with its secret, every line an order line
    unless :func:`is_command_line` says it is chatter."""
    address = GM if sender == "GM" else dict(SEATS)[sender]
    if secret is None:
        secret = GM_SECRET if sender == "GM" else SECRETS[sender]
    body = tuple(BodyLine(n, text, is_command_line(text)) for n, text in enumerate(lines, start=1))
    return Submission(mid, address, sender, f"[{GID}] orders", GID, secret, body)


def commit(records: list[LogRecord], decision: Decision) -> list[LogRecord]:
    """The log after ``decision``: its drafts numbered on from ``records`` (as the action
    log would write them)."""
    assert [r.seq for r in decision.records] == list(range(len(records), len(records) + len(decision.records)))
    return records + list(decision.records)


def play(records: list[LogRecord], *mails: Submission) -> tuple[list[LogRecord], Replay, list[Decision]]:
    state = replay(records)
    decisions = []
    for m in mails:
        decision = handle_mail(state, m, config())
        assert decision.refusal is None, decision.refusal
        records = commit(records, decision)
        state = decision.state
        decisions.append(decision)
    return records, state, decisions


def same(a: Replay, b: Replay) -> None:
    """Two states are the same game (state, info, what is in force, the GM's records)."""
    assert a.game.state == b.game.state
    assert a.info == b.info
    assert a.last_seq == b.last_seq
    assert [r.seq for r in a.effective] == [r.seq for r in b.effective]
    assert a.gm == b.gm


# -- the pure function -------------------------------------------------------------------------


def test_orders_become_records_and_the_state_is_the_replay_of_them() -> None:
    records, state, (decision,) = play([genesis()], mail("Alice", "BID CS 45", "Hi all,"))
    (record,) = decision.records
    assert isinstance(record, OrderRecord)
    assert (record.seq, record.actor, record.by, record.source) == (1, "Alice", "alice@example.org",
                                                                     "<m1@example.org>")
    assert record.data() == {"type": "bid", "company": "CS", "price": 45}
    assert decision.kind == "orders"
    (reports,) = [r for r in decision.replies if isinstance(r, TurnReports)]
    assert "BID CS 45" in reports.echo and "Hi all," in reports.echo
    same(state, replay(records))


def test_the_input_state_is_not_changed() -> None:
    state = replay([genesis()])
    before = (state.last_seq, list(state.effective), state.game.state.round.kind, dict(state.info.widths))
    handle_mail(state, mail("Alice", "BID CS 45", "WIDTH 80"), config())
    assert (state.last_seq, list(state.effective), state.game.state.round.kind, dict(state.info.widths)) == before


def test_a_refused_line_refuses_the_whole_mail_with_no_records() -> None:
    state = replay([genesis()])
    decision = handle_mail(state, mail("Alice", "BID CS 45", "BID CS 40"), config())
    assert decision.records == () and decision.state is state
    (refusal,) = decision.replies
    assert isinstance(refusal, Refusal)
    assert refusal.rejection.kind == "illegal" and refusal.rejection.line_number == 2
    assert refusal.rejection.failed_line == "BID CS 40"
    assert "BID CS 40" in refusal.rejection.text(GID, "alicepw")


@pytest.mark.parametrize("secret, kind", [("wrong", "wrong_secret"), ("", "wrong_secret")])
def test_the_secret_is_checked_before_any_line(secret: str, kind: str) -> None:
    decision = handle_mail(replay([genesis()]), mail("Alice", "BID CS 45", secret=secret), config())
    assert decision.refusal is not None and decision.refusal.kind == kind and decision.records == ()


def test_a_stranger_is_refused_and_a_player_may_not_give_gm_commands() -> None:
    state = replay([genesis()])
    stranger = Submission("<x@y>", "eve@example.org", "", f"[{GID}]", GID, "pw", (BodyLine(1, "PASS", True),))
    assert handle_mail(state, stranger, config()).kind == "unknown_sender"
    decision = handle_mail(state, mail("Alice", "PAUSE"), config())
    assert decision.kind == "syntax" and "GM command" in (decision.refusal.reason if decision.refusal else "")


def test_width_alone_is_a_record_but_no_new_report() -> None:
    records, state, (decision,) = play([genesis()], mail("Bob", "WIDTH 80"))
    assert decision.records == (WidthRecord(seq=1, actor="Bob", by="bob@example.org", source="<m1@example.org>",
                                            seat="Bob", value=80),)
    assert decision.kind == "info" and not decision.report_due
    assert [type(r) for r in decision.replies] == [InfoAnswer]
    assert state.info.widths == {"Bob": 80} == replay(records).info.widths


def test_undo_takes_back_the_last_action_and_names_it() -> None:
    records, _, _ = play([genesis()], mail("Alice", "BID CS 45"), mail("Bob", "PASS", mid="<m2@x>"))
    records, state, (decision,) = play(records, mail("GM", "UNDO", mid="<m3@x>"))
    assert decision.records[0] == UndoRecord(seq=3, actor="GM", by=GM, source="<m3@x>", to_seq=2)
    assert [r.seq for r in state.effective] == [1]
    (undone,) = state.gm
    assert isinstance(undone, Undone) and undone.undone == [2]
    same(state, replay(records))


def test_undo_with_a_comma_is_the_gm_command_undo() -> None:
    """``UNDO, 5`` was taken as a command line by its first word but not parsed as UNDO."""
    assert first_word("UNDO, 1") == "UNDO" and is_command_line("UNDO, 1")
    state = replay([genesis()])
    command = parse_line("UNDO, 1", Vocabulary.from_title(state.title), state.info, is_gm=True)
    assert (command.name, command.args) == ("undo", ("1",))  # type: ignore[union-attr]
    records, _, _ = play([genesis()], mail("Alice", "BID CS 45"), mail("Bob", "PASS", mid="<m2@x>"))
    records, state, (decision,) = play(records, mail("GM", "UNDO, 1", mid="<m3@x>"))
    assert decision.records[0].data() == {"to_seq": 1}
    assert state.effective == []
    same(state, replay(records))


def test_broadcast_and_deadline_keep_the_text_after_a_comma() -> None:
    _, state, (decision,) = play([genesis()], mail("GM", "BROADCAST, Game on", "DEADLINE, Friday noon"))
    assert [r.data() for r in decision.records] == [{"command": "broadcast", "text": "Game on"},
                                                    {"command": "deadline", "text": "Friday noon"}]
    assert Broadcast("Game on", 0) in decision.replies
    assert state.info.deadline == "Friday noon"


def test_gm_commands_are_applied_by_the_same_function_as_a_replay() -> None:
    lines = ["PAUSE", "RESUME", "REPLACE Bob dora@example.org", "ACT AS Alice PASS", "END GAME"]
    records, state, (decision,) = play([genesis()], mail("GM", *lines))
    assert [r.kind_name for r in decision.records] == ["gm", "gm", "gm", "action", "gm"]
    (welcome,) = [r for r in decision.replies if isinstance(r, Welcome)]
    assert welcome == Welcome("Bob", "dora@example.org", "fresh1", replaced="bob@example.org")
    bob = state.info.seat_named("Bob")
    assert bob is not None and bob.email == "dora@example.org" and bob.secret_hash == hash_secret(GID, "fresh1")
    assert state.info.ended and not state.info.paused
    same(state, replay(records))
    # after END GAME nothing more is applied
    assert handle_mail(state, mail("GM", "ACT AS Alice PASS", mid="<m9@x>"), config()).kind == "illegal"


def test_a_paused_game_refuses_orders_but_answers_help() -> None:
    _, state, _ = play([genesis()], mail("GM", "PAUSE"))
    assert handle_mail(state, mail("Alice", "PASS", mid="<m2@x>"), config()).kind == "illegal"
    decision = handle_mail(state, mail("Alice", "HELP", mid="<m3@x>"), config())
    assert decision.kind == "info" and decision.records == ()
    assert [type(r) for r in decision.replies] == [InfoAnswer]


def test_recovery_gives_a_fresh_secret_only_when_the_welcome_was_not_queued() -> None:
    first = mail("GM", "REPLACE Bob dora@example.org")
    records, state, (decision,) = play([genesis()], first)
    mine = list(decision.records)
    queued = recover_mail(state, first, mine, config(), lambda seat, email: True)
    assert queued.records == () and not any(isinstance(r, Welcome) for r in queued.replies)
    lost = recover_mail(state, first, mine, config(), lambda seat, email: False)
    (record,) = lost.records
    assert isinstance(record, GMRecord) and record.seq == 2 and record.command == "replace"
    assert Welcome("Bob", "dora@example.org", "fresh1") in lost.replies
    assert lost.kind == "orders" and lost.report_due
    same(lost.state, replay(commit(records, lost)))


# -- apply_record and the typed records ---------------------------------------------------------


def test_apply_record_one_by_one_is_the_replay() -> None:
    records, _, _ = play([genesis()], mail("Alice", "BID CS 45"), mail("Bob", "PASS", "WIDTH 80", mid="<m2@x>"),
                         mail("GM", "UNDO 2", "DEADLINE soon", mid="<m3@x>"))
    live = start(genesis())
    for record in records[1:]:
        apply_record(live, record)
    same(live, replay(records))


def test_records_round_trip_to_the_json_on_disk() -> None:
    records, _, _ = play([genesis()], mail("Alice", "BID CS 45", "WIDTH 132"),
                         mail("GM", "UNDO", "REPLACE Bob dora@example.org", "PAUSE", mid="<m2@x>"))
    for record in records:
        raw: dict[str, Any] = record.to_dict()
        assert parse_record(raw) == record
    unknown = {"seq": 9, "time": "t", "kind": "note", "actor": "GM", "by": "", "source": None,
               "data": {"text": "hi"}, "prev": "p", "hash": "h"}
    parsed = parse_record(unknown)
    assert isinstance(parsed, UnknownRecord) and parsed.to_dict() == unknown


# -- refusals before a game is at hand ----------------------------------------------------------


def test_the_game_is_the_first_subject_tag_that_names_one_and_never_two() -> None:
    from pbem.application.refusals import Rejection, game_for

    games = {"a": "a", "b": "b"}

    def sub(subject: str, tag: str | None, *lines: str) -> Submission:
        body = tuple(BodyLine(n, t, True) for n, t in enumerate(lines, start=1))
        return Submission("<m@x>", "alice@example.org", "", subject, tag, "pw", body)

    assert game_for(sub("[zz] [A] orders", "zz", "PASS"), lambda t: games.get(t.lower())) == "a"
    with pytest.raises(Rejection, match="names 2 games"):
        game_for(sub("[a] [b]", "a", "PASS"), lambda t: games.get(t.lower()))
    with pytest.raises(Rejection, match="names no game"):
        game_for(sub("orders", None, "PASS"), games.get)
    assert game_for(sub("help please", None, "HELP", "help,"), games.get) is None, "HELP needs no game"


def test_an_engine_fault_is_refused_and_asks_for_a_notice_to_the_gm(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line our own code fails on: the sender's refusal promises the GM is told, and the
    decision asks for the GM's notice with the sender, the lines, the line that failed and
    the error; nothing is applied."""
    from pbem.application.mail import INTERNAL_LINE, FaultNotice
    from pbem.engine.actions import Bid
    from pbem.engine.steps.auction import WaterfallAuction

    def broken(*args: Any) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setitem(WaterfallAuction.handlers, Bid, broken)
    state = replay([genesis()])
    decision = handle_mail(state, mail("Alice", "BID CS 45"), config())
    assert decision.kind == "internal" and not decision.records and decision.state is state
    refusal, notice = decision.replies
    assert isinstance(refusal, Refusal) and refusal.rejection.reason == INTERNAL_LINE
    assert isinstance(notice, FaultNotice)
    assert (notice.sender, notice.lines, notice.line_number, notice.failed_line) == (
        "alice@example.org", ((1, "BID CS 45"),), 1, "BID CS 45")
    assert notice.error.startswith("Traceback (innermost frames):")
    assert notice.error.endswith("ZeroDivisionError: a bug") and "in broken" in notice.error
    monkeypatch.undo()
    assert handle_mail(state, mail("Alice", "BID CS 45"), config()).refusal is None
