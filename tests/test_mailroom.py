"""The mailroom (pbem.server.Mailroom): one received mail in, log records and queued mail out.

Every test runs a real Mailroom over a temporary data directory and checks what it wrote:
the action log, the report archive, ``received/``, ``handled.jsonl`` and the
mails in the durable outbox (parsed back with :func:`email.message_from_bytes`).
"""

from __future__ import annotations

import asyncio
import email
import email.policy
import hashlib
import json
import re
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from pathlib import Path
from typing import Any

import pytest

from pbem.commands import full_help
from pbem.demo import builtin_script
from pbem.games import replay
from pbem.ruleset import load_title
from pbem.log_records import parse_records
from pbem.orders import Vocabulary, help_text
from pbem.server import Mailroom, MailroomSettings, Server
from pbem.transport.maildir import MaildirInbound, MaildirOutbound, deliver_to_inbox

SERVER = "pbem@pbem.example"
SERVER_ID = "pbem-test"
GID = "g1"
P1, P2, P3 = "p1@players.example", "p2@players.example", "p3@players.example"
GM = "gm@players.example"
SEATS = [("Player 1", P1), ("Player 2", P2), ("Player 3", P3)]
ADDRESS = {"Player 1": P1, "Player 2": P2, "Player 3": P3, "GM": GM}
T0 = 1_800_000_000.0


# -- helpers ----------------------------------------------------------------------------------


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, t: float = T0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def make_room(data: Path, clock: Clock | None = None, **settings: Any) -> Mailroom:
    """A mailroom on ``data``; without the board's pictures unless ``pictures=True`` is given
    (drawing one takes about half a second: tests/test_mail_pictures.py tests them)."""
    settings.setdefault("pictures", False)
    return Mailroom(
        MailroomSettings(data_dir=data, address=SERVER, server_id=SERVER_ID, **settings),
        clock=clock or Clock(),
    )


def parse(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def one_pass(server: Server) -> Any:
    """One pass of ``server`` (its inbox connected for it); the pass's result."""

    async def run() -> Any:
        await server.inbound.connect()
        try:
            return await server.run_once()
        finally:
            await server.inbound.close()

    return asyncio.run(run())


def queued(room: Mailroom) -> list[tuple[str, EmailMessage]]:
    """Every queued mail, in queue order, as ``(id, message)``."""
    out = []
    for msg_id in room.outbox.pending():
        (path,) = room.outbox.queue_dir.glob(f"*-{msg_id}.eml")
        out.append((msg_id, parse(path.read_bytes())))
    return out


def body(msg: EmailMessage) -> str:
    """The text of a queued mail (its text part where it carries a picture too), with its
    CRLF line ends (SMTP form) as LF."""
    text = msg.get_body(preferencelist=("plain",)) or msg
    return str(text.get_content()).replace("\r\n", "\n")


def flat(msg: EmailMessage) -> str:
    """:func:`body` with its lines joined and runs of blanks as one: a phrase of a reply's
    prose, which is wrapped at 78 columns, reads whole."""
    return " ".join(body(msg).split())


def log_records(data: Path, game_id: str = GID) -> list[dict[str, Any]]:
    path = data / "games" / game_id / "log.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def handled_lines(data: Path) -> list[dict[str, Any]]:
    path = data / "handled.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def build_mail(
    sender: str,
    text: str,
    *,
    subject: str = f"[{GID}] orders",
    mid: str,
    headers: dict[str, str] | None = None,
) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = SERVER
    msg["Subject"] = subject
    msg["Message-ID"] = mid
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(text)
    return msg.as_bytes()


class Table:
    """A 3-player 1830 game ``g1`` on a fresh mailroom, and a player's mail program."""

    def __init__(self, data: Path, clock: Clock | None = None, mail: str = "every", **settings: Any) -> None:
        """``mail``: the players' MAIL default (these tests read every player's report)."""
        self.data = data
        self.clock = clock or Clock()
        self.settings = settings
        self.room = make_room(data, self.clock, **settings)
        self.secrets = self.room.new_game(GID, "1830", (), SEATS, GM, mail=mail)
        self.n = 0

    def reopen(self) -> Mailroom:
        """A new Mailroom on the same data directory (a restarted server)."""
        self.room = make_room(self.data, self.clock, **self.settings)
        return self.room

    def mid(self) -> str:
        self.n += 1
        return f"<m{self.n}.{self.data.name}@players.example>"

    def mail(self, seat: str, *lines: str, secret: str | None = None, sender: str | None = None,
             subject: str = f"[{GID}] orders", mid: str | None = None,
             headers: dict[str, str] | None = None) -> bytes:
        secret = self.secrets[seat] if secret is None else secret
        text = (f"PASSWORD {secret}\n" if secret else "") + "\n".join(lines) + "\n\n-- \nsent by a test\n"
        return build_mail(sender or ADDRESS[seat], text, subject=subject, mid=mid or self.mid(),
                          headers=headers)

    def send(self, raw: bytes) -> tuple[str, list[EmailMessage]]:
        """Handle ``raw``; returns the outcome and the mails it queued."""
        before = set(self.room.outbox.pending())
        outcome = self.room.handle(raw)
        new = [msg for msg_id, msg in queued(self.room) if msg_id not in before]
        return outcome, new

    def order(self, seat: str, *lines: str, **kwargs: Any) -> tuple[str, list[EmailMessage]]:
        return self.send(self.mail(seat, *lines, **kwargs))

    def state(self):  # type: ignore[no-untyped-def]
        return replay(parse_records(log_records(self.data)))


def to_of(msg: EmailMessage) -> str:
    return str(msg["To"])


def by_recipient(mails: list[EmailMessage]) -> dict[str, EmailMessage]:
    out = {to_of(m): m for m in mails}
    assert len(out) == len(mails), "one mail per recipient"
    return out


def only(mails: list[EmailMessage]) -> EmailMessage:
    assert len(mails) == 1, [(to_of(m), str(m["Subject"])) for m in mails]
    return mails[0]


def assert_reply_headers(reply: EmailMessage, raw: bytes, to: str, subject: str) -> None:
    original = parse(raw)
    assert to_of(reply) == to
    assert str(reply["Subject"]) == subject
    assert str(reply["In-Reply-To"]) == str(original["Message-ID"])
    assert str(reply["References"]) == str(original["Message-ID"])
    assert str(reply["Auto-Submitted"]) == "auto-replied"
    assert str(reply["X-PBEM-Server"]) == SERVER_ID
    assert str(reply["From"]) == SERVER


def demo_lines_as_gm(stop_before: int) -> list[str]:
    """The built-in demo's orders up to mail ``stop_before`` (1-based) as ACT AS lines;
    Player 3's pass that the demo takes back with UNDO (mails 13 and 14) is left out."""
    lines = []
    for n, mail in enumerate(builtin_script()["mails"][: stop_before - 1], start=1):
        if n in (13, 14):
            continue
        assert mail["from"] != "GM"
        lines += [f"ACT AS {mail['from']} {order}" for order in mail["orders"]]
    return lines


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path / "data")


# -- an accepted mail ---------------------------------------------------------------------------


def test_new_game_queues_a_welcome_per_seat_and_one_for_the_gm(table: Table) -> None:
    mails = by_recipient([m for _, m in queued(table.room)])
    assert set(mails) == {P1, P2, P3, GM}
    for seat, address in SEATS:
        text = body(mails[address])
        assert f"You play the seat: {seat}" in text
        assert f"Your secret: {table.secrets[seat]}" in text
        assert f"[{GID}]" in text and SERVER in text
    assert table.secrets["GM"] in body(mails[GM])
    assert "GM commands" in body(mails[GM])
    records = log_records(table.data)
    assert len(records) == 1 and records[0]["kind"] == "game"
    # secrets are only stored hashed
    assert all(secret not in json.dumps(records) for secret in table.secrets.values())


def test_accepted_mail_is_logged_archived_and_mailed_to_everyone(table: Table) -> None:
    raw = table.mail("Player 1", "bid ca $165")
    mid = str(parse(raw)["Message-ID"])
    outcome, mails = table.send(raw)
    assert outcome == "processed"

    records = log_records(table.data)
    assert len(records) == 2
    record = records[1]
    assert record["kind"] == "action" and record["actor"] == "Player 1" and record["by"] == P1
    assert record["source"] == mid
    assert record["data"] == {"type": "bid", "company": "CA", "price": 165}

    entries = table.room.archive(GID).entries()
    assert [(e.number, e.seq) for e in entries] == [(1, 1)]
    archived = entries[0].path.read_text()
    assert "#1    Player 1: BID CA 165" in archived
    assert "Player 1 bids $165 for CA" in archived
    assert "Next to act: Player 2" in archived

    mails = by_recipient(mails)
    assert set(mails) == {P1, P2, P3, GM}
    for to, msg in mails.items():
        mark = " — YOUR TURN" if to == P2 else ""  # MAIL EVERY: numbered, the player to act's marked
        assert str(msg["Subject"]) == f"[{GID}] Turn report 1: Private auction{mark}"
        assert str(msg["Auto-Submitted"]) == "auto-generated"
        assert str(msg["X-PBEM-Server"]) == SERVER_ID
        assert "Player 1 bids $165 for CA" in body(msg)
        assert ("Your orders were accepted" in body(msg)) == (to == P1)
        assert (msg["In-Reply-To"] is not None) == (to == P1)
    mine = body(mails[P1])
    assert mine.startswith("Your orders were accepted:\n  BID CA 165\n")
    assert str(mails[P1]["In-Reply-To"]) == mid
    assert "FOR PLAYER 1\n  Nothing is asked of you now." in mine
    assert "FOR PLAYER 2\n  It is your turn." in body(mails[P2])
    assert "FOR PLAYER" not in body(mails[GM])
    assert "TO ACT: PLAYER 2\n  It is Player 2's turn." in body(mails[GM]), "the GM sees what the player to act may do"

    (entry,) = [e for e in handled_lines(table.data) if e["message_id"] == mid]
    assert entry["outcome"] == "processed" and entry["game"] == GID and entry["sender"] == P1
    assert (table.data / "received" / f"{digest(raw)}.eml").read_bytes() == raw
    assert not (table.data / "quarantine" / f"{digest(raw)}.eml").exists()


def test_several_orders_in_one_mail_apply_in_order_as_one_batch(table: Table) -> None:
    lines = demo_lines_as_gm(stop_before=34)
    outcome, mails = table.order("GM", *lines)
    assert outcome == "processed"
    records = log_records(table.data)[1:]
    assert [r["actor"] for r in records] == [line.split()[2] + " " + line.split()[3] for line in lines]
    assert [r["seq"] for r in records] == list(range(1, len(lines) + 1))
    assert [bool(r.get("batch_end")) for r in records] == [False] * (len(lines) - 1) + [True]
    assert all(r["by"] == GM for r in records)
    assert table.state().game.round_label() == "SR 1"
    gm_copy = body(by_recipient(mails)[GM])
    assert gm_copy.startswith("Your orders were accepted:\n  ACT AS Player 1 BID CA 165\n")
    assert len(table.room.archive(GID).entries()) == 1

    # A player's two orders: the second is only possible after the first.
    outcome, mails = table.order("Player 1", "buy nynh", "b prr")
    assert outcome == "processed"
    added = log_records(table.data)[len(lines) + 1 :]
    assert [(r["actor"], r["data"]) for r in added] == [
        ("Player 1", {"type": "buy_shares", "corporation": "NYNH", "source": "ipo", "count": 1}),
        ("Player 1", {"type": "buy_shares", "corporation": "PRR", "source": "ipo", "count": 1}),
    ]
    assert body(by_recipient(mails)[P1]).startswith("Your orders were accepted:\n  BUY NYNH\n  BUY PRR\n")
    assert table.state().game.round_label() == "OR 1.1"


def test_a_failing_order_applies_nothing_of_the_mail(table: Table) -> None:
    before = (table.data / "games" / GID / "log.jsonl").read_bytes()
    raw = table.mail("Player 1", "BID CA 165", "BID CA 170", "PASS")
    outcome, mails = table.send(raw)
    assert outcome == "rejected"
    assert (table.data / "games" / GID / "log.jsonl").read_bytes() == before
    assert table.room.archive(GID).entries() == []
    reply = only(mails)
    assert_reply_headers(reply, raw, P1, f"Re: [{GID}] orders")
    text = body(reply)
    assert "was not applied" in text
    assert "The line that failed:\n  BID CA 170\n" in text
    assert "it is not Player 1's turn" in text
    assert "these lines were not applied:\n  BID CA 165\n  BID CA 170\n  PASS\n" in text

    # The same for a GM mail: the first two ACT AS would be fine, the third is not.
    before = (table.data / "games" / GID / "log.jsonl").read_bytes()
    raw = table.mail("GM", "ACT AS 1 BID CA 165", "ACT AS 2 BID CA 170", "ACT AS 2 BID CA 175")
    outcome, mails = table.send(raw)
    assert outcome == "rejected"
    assert (table.data / "games" / GID / "log.jsonl").read_bytes() == before
    text = body(only(mails))
    assert "The line that failed:\n  ACT AS 2 BID CA 175\n" in text
    assert "it is not Player 2's turn" in text
    # and the game is where it was: Player 1 still to bid
    assert table.state().game.current_actors() == ["Player 1"]


# -- bad input: one reply each, nothing applied ---------------------------------------------------


def _multipart_without_boundary(table: Table) -> bytes:
    head = (f"From: {P1}\nTo: {SERVER}\nSubject: [{GID}] orders\nMessage-ID: {table.mid()}\n"
            "MIME-Version: 1.0\nContent-Type: multipart/mixed\n\n")
    return (head + f"--xyz\nContent-Type: text/plain\n\nPASSWORD {table.secrets['Player 1']}\nBID CA 165\n").encode()


def _unknown_charset(table: Table) -> bytes:
    head = (f"From: {P1}\nTo: {SERVER}\nSubject: [{GID}] orders\nMessage-ID: {table.mid()}\n"
            "MIME-Version: 1.0\nContent-Type: text/plain; charset=x-klingon\n\n")
    return (head + f"PASSWORD {table.secrets['Player 1']}\nBID CA 165\n").encode()


def _attachment_only(table: Table) -> bytes:
    outer = MIMEMultipart("mixed")
    outer["From"] = P1
    outer["To"] = SERVER
    outer["Subject"] = f"[{GID}] orders"
    outer["Message-ID"] = table.mid()
    pdf = MIMEApplication(b"%PDF-1.4 ...", "pdf")
    pdf.add_header("Content-Disposition", "attachment", filename="orders.pdf")
    outer.attach(pdf)
    return outer.as_bytes()


def _oversize(table: Table) -> bytes:
    filler = "\n".join(["PASS"] + ["x" * 70] * 4000)
    return table.mail("Player 1", "BID CA 165", filler)


BAD_INPUTS = {
    # name: (build the raw mail, expected To, expected Subject, text the reply must contain)
    "unknown game": (lambda t: t.mail("Player 1", "BID CA 165", subject="[nosuch] orders"),
                     P1, "Re: [nosuch] orders", ["There is no game 'nosuch' on this server."]),
    "no tag": (lambda t: t.mail("Player 1", "BID CA 165", subject="my orders"),
               P1, "Re: my orders", ["The Subject names no game", "square brackets"]),
    "unknown sender": (lambda t: t.mail("Player 1", "BID CA 165", sender="stranger@else.example"),
                       "stranger@else.example", f"Re: [{GID}] orders",
                       [f"stranger@else.example has no seat in {GID}"]),
    "missing password": (lambda t: t.mail("Player 1", "BID CA 165", secret=""),
                         P1, f"Re: [{GID}] orders", ["no PASSWORD line", "PASSWORD <your secret>"]),
    "wrong secret": (lambda t: t.mail("Player 1", "BID CA 165", secret="notmysecret"),
                     P1, f"Re: [{GID}] orders", ["The PASSWORD does not match"]),
    "another player's secret": (lambda t: t.mail("Player 1", "BID CA 165", secret=t.secrets["Player 2"]),
                                P1, f"Re: [{GID}] orders", ["The PASSWORD does not match"]),
    "not your turn": (lambda t: t.mail("Player 2", "BID CA 170"),
                      P2, f"Re: [{GID}] orders",
                      ["it is not Player 2's turn", "The line that failed:\n  BID CA 170\n"]),
    "a typo in the order word is put right, not taken for chatter": (
        lambda t: t.mail("Player 1", "BYU PRR"), P1, f"Re: [{GID}] orders",
        ["'BYU PRR' -- did you mean BUY PRR?", "line 2"]),
    "a word no order is near is chatter, not an order": (
        lambda t: t.mail("Player 1", "Cheers PRR"), P1, f"Re: [{GID}] orders",
        ["No orders were found in your mail", "Not read as orders:\n  line 2: Cheers PRR\n"]),
    "unparseable line": (lambda t: t.mail("Player 1", "Hi all,", "BUY PRRR"),
                         P1, f"Re: [{GID}] orders",
                         ["no company or corporation 'PRRR'",
                          "The line that failed:\n  BUY PRRR\n(line 3 of your mail)\n",
                          "these lines were not applied:\n  BUY PRRR\n",
                          "Not read as orders:\n  line 2: Hi all,\n"]),
    "malformed MIME": (_multipart_without_boundary, P1, f"Re: [{GID}] orders",
                       ["its MIME structure is broken", "NoBoundaryInMultipartDefect"]),
    "unknown charset": (_unknown_charset, P1, f"Re: [{GID}] orders",
                        ["character set we do not know", "x-klingon"]),
    "empty body": (lambda t: t.mail("Player 1"), P1, f"Re: [{GID}] orders",
                   ["Your mail has no orders in it."]),
    "attachment only": (_attachment_only, P1, f"Re: [{GID}] orders",
                        ["only attachments", "orders.pdf"]),
    "oversize": (_oversize, P1, f"Re: [{GID}] orders", ["too large", "more than the limit of 262144"]),
}


@pytest.mark.parametrize("case", list(BAD_INPUTS))
def test_bad_input_gets_one_reply_and_changes_nothing(table: Table, case: str) -> None:
    build, to, subject, expected = BAD_INPUTS[case]
    raw = build(table)
    log_before = (table.data / "games" / GID / "log.jsonl").read_bytes()
    outcome, mails = table.send(raw)
    assert outcome == "rejected"
    assert (table.data / "games" / GID / "log.jsonl").read_bytes() == log_before
    assert table.room.archive(GID).entries() == []
    reply = only(mails)
    assert_reply_headers(reply, raw, to, subject)
    text = body(reply)
    assert "was not applied" in text
    for piece in expected:
        assert piece in text, (piece, text)
    # kept once on disk: under received/ (no second copy elsewhere in the data directory)
    assert (table.data / "received" / f"{digest(raw)}.eml").read_bytes() == raw
    assert not (table.data / "quarantine").exists()
    (entry,) = [e for e in handled_lines(table.data) if e["message_id"] == str(parse(raw)["Message-ID"])]
    assert entry["outcome"] == "rejected" and entry["replied"] is True and entry["sender"] == to


@pytest.mark.parametrize("tag", ["../games/g1", "g1/../g1", "/etc"])
def test_a_tag_that_is_not_a_game_id_is_an_unknown_game(table: Table, tag: str) -> None:
    outcome, mails = table.order("Player 1", "BID CA 165", subject=f"[{tag}] orders")
    assert outcome == "rejected"
    assert f"There is no game {tag!r} on this server." in body(only(mails))
    assert len(log_records(table.data)) == 1


def test_mail_without_from_is_kept_and_not_answered(table: Table) -> None:
    raw = (f"To: {SERVER}\nSubject: [{GID}] orders\nMessage-ID: {table.mid()}\n\n"
           f"PASSWORD {table.secrets['Player 1']}\nBID CA 165\n").encode()
    assert table.send(raw) == ("rejected", [])
    assert (table.data / "received" / f"{digest(raw)}.eml").read_bytes() == raw
    assert len(log_records(table.data)) == 1


def test_mail_without_message_id_is_still_handled_once(table: Table) -> None:
    msg = parse(table.mail("Player 1", "BID CA 165"))
    del msg["Message-ID"]
    raw = msg.as_bytes()
    outcome, mails = table.send(raw)
    assert outcome == "processed" and len(mails) == 4
    assert log_records(table.data)[-1]["source"] == f"<{digest(raw)}@pbem.invalid>"
    assert table.send(raw) == ("processed", [])
    assert len(log_records(table.data)) == 2


def test_secrets_are_case_insensitive(table: Table) -> None:
    outcome, _ = table.order("Player 1", "BID CA 165", secret=table.secrets["Player 1"].upper())
    assert outcome == "processed"


def test_html_only_mail_is_read_from_the_html_part(table: Table) -> None:
    msg = EmailMessage()
    msg["From"] = f"Player One <{P1}>"
    msg["To"] = SERVER
    msg["Subject"] = f"[{GID}] orders"
    msg["Message-ID"] = table.mid()
    msg.set_content(
        f"<html><body><p>PASSWORD {table.secrets['Player 1']}</p><p>BID CA 165</p>"
        "<blockquote>BID CA 999</blockquote></body></html>",
        subtype="html",
    )
    outcome, mails = table.send(msg.as_bytes())
    assert outcome == "processed"
    assert log_records(table.data)[-1]["data"] == {"type": "bid", "company": "CA", "price": 165}
    mine = body(by_recipient(mails)[P1])
    assert mine.startswith("Your orders were accepted:\n  BID CA 165\n(read from the HTML part)\n")


# -- auto-mail ------------------------------------------------------------------------------------


def _bounce(table: Table) -> bytes:
    """A delivery-status report that quotes a valid order mail."""
    return (
        f"From: {P1}\nTo: {SERVER}\nSubject: [{GID}] orders\nMessage-ID: {table.mid()}\n"
        "MIME-Version: 1.0\n"
        'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\n\n'
        f"--B\nContent-Type: text/plain\n\nPASSWORD {table.secrets['Player 1']}\nBID CA 165\n"
        "--B\nContent-Type: message/delivery-status\n\n"
        "Reporting-MTA: dns; mx.example\n\nFinal-Recipient: rfc822; p9@x.example\nAction: failed\n"
        "--B--\n"
    ).encode()


AUTO_MAIL = {
    "auto-replied": lambda t: t.mail("Player 1", "BID CA 165", headers={"Auto-Submitted": "auto-replied"}),
    "empty return path": lambda t: t.mail("Player 1", "BID CA 165", headers={"Return-Path": "<>"}),
    "multipart/report bounce": _bounce,
    "precedence bulk": lambda t: t.mail("Player 1", "BID CA 165", headers={"Precedence": "bulk"}),
    "list mail": lambda t: t.mail("Player 1", "BID CA 165", headers={"List-Id": "<players.example>"}),
    "our marker header": lambda t: t.mail("Player 1", "BID CA 165", headers={"X-PBEM-Server": "pbem"}),
    "our own address": lambda t: t.mail("Player 1", "BID CA 165", sender=SERVER),
}


@pytest.mark.parametrize("case", list(AUTO_MAIL))
def test_auto_mail_is_kept_but_never_applied_nor_answered(table: Table, case: str) -> None:
    raw = AUTO_MAIL[case](table)
    outcome, mails = table.send(raw)
    assert outcome == "ignored"
    assert mails == []
    assert len(log_records(table.data)) == 1
    assert (table.data / "received" / f"{digest(raw)}.eml").read_bytes() == raw
    assert not (table.data / "quarantine" / f"{digest(raw)}.eml").exists()
    (entry,) = [e for e in handled_lines(table.data) if e["message_id"] == str(parse(raw)["Message-ID"])]
    assert entry["outcome"] == "ignored" and entry["replied"] is False
    # handling it again changes nothing either
    assert table.send(raw) == ("ignored", [])


# -- exactly once -----------------------------------------------------------------------------------


def test_the_same_mail_twice_applies_once_and_is_answered_once(table: Table) -> None:
    raw = table.mail("Player 1", "BID CA 165")
    first = table.send(raw)
    assert first[0] == "processed" and len(first[1]) == 4
    queue_before = table.room.outbox.pending()
    assert table.send(raw) == ("processed", [])
    assert table.room.outbox.pending() == queue_before
    assert len(log_records(table.data)) == 2
    assert len(table.room.archive(GID).entries()) == 1

    bad = table.mail("Player 2", "BYU PRR")
    assert table.send(bad)[0] == "rejected"
    assert table.send(bad) == ("rejected", [])


def test_a_new_message_with_the_same_orders_is_a_new_submission(table: Table) -> None:
    assert table.order("Player 1", "BID CA 165")[0] == "processed"
    # the same orders again under a new Message-ID are read again: now it is not P1's turn
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "rejected"
    assert "it is not Player 1's turn" in body(only(mails))
    # after the GM takes the bid back, the same orders in a third message apply again
    assert table.order("GM", "UNDO")[0] == "processed"
    raw = table.mail("Player 1", "BID CA 165")
    assert table.send(raw)[0] == "processed"
    bids = [r for r in log_records(table.data) if r["kind"] == "action"]
    assert len(bids) == 2 and bids[0]["source"] != bids[1]["source"]
    assert bids[1]["source"] == str(parse(raw)["Message-ID"])


# -- crash safety ---------------------------------------------------------------------------------


class Died(Exception):
    pass


def _die() -> None:
    raise Died("the process died right after the log fsync")


def test_a_crash_after_the_commit_is_completed_from_the_log(table: Table) -> None:
    raw = table.mail("Player 1", "BID CA 165")
    mid = str(parse(raw)["Message-ID"])
    welcomes = table.room.outbox.pending()
    table.room.after_commit = _die
    with pytest.raises(Died):
        table.room.handle(raw)
    assert [r["source"] for r in log_records(table.data)] == [None, mid]
    assert table.room.archive(GID).entries() == []
    assert table.room.outbox.pending() == welcomes

    table.reopen()
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    assert [r["source"] for r in log_records(table.data)] == [None, mid]
    assert [(e.number, e.seq) for e in table.room.archive(GID).entries()] == [(1, 1)]
    mails = by_recipient(mails)
    assert set(mails) == {P1, P2, P3, GM}
    assert body(mails[P1]).startswith("Your orders were accepted:\n  BID CA 165\n")
    assert all("Player 1 bids $165 for CA" in body(m) for m in mails.values())

    # a third start: nothing more happens
    table.reopen()
    queue = table.room.outbox.pending()
    assert table.send(raw) == ("processed", [])
    assert table.room.outbox.pending() == queue
    assert len(log_records(table.data)) == 2
    assert len(table.room.archive(GID).entries()) == 1


def test_after_a_clean_handle_a_restart_changes_nothing(table: Table) -> None:
    raw = table.mail("Player 1", "BID CA 165")
    table.send(raw)
    log_before = (table.data / "games" / GID / "log.jsonl").read_bytes()
    handled_before = (table.data / "handled.jsonl").read_bytes()
    table.reopen()
    queue = table.room.outbox.pending()
    assert table.send(raw) == ("processed", [])
    assert table.room.outbox.pending() == queue
    assert (table.data / "games" / GID / "log.jsonl").read_bytes() == log_before
    assert (table.data / "handled.jsonl").read_bytes() == handled_before


def test_a_crash_after_a_gm_mail_echoes_the_same_lines_after_recovery(table: Table) -> None:
    raw = table.mail("GM", "act as 1 bid ca 165", "PAUSE")
    table.room.after_commit = _die
    with pytest.raises(Died):
        table.room.handle(raw)
    table.reopen()
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    assert body(by_recipient(mails)[GM]).startswith(
        "Your orders were accepted:\n  ACT AS Player 1 BID CA 165\n  PAUSE\n\n")
    assert "THE GAME IS PAUSED BY THE GM." in body(by_recipient(mails)[P2])


def test_a_crash_after_committing_a_broadcast_still_sends_it(table: Table) -> None:
    raw = table.mail("GM", "BROADCAST Game starts on Monday")
    table.room.after_commit = _die
    with pytest.raises(Died):
        table.room.handle(raw)
    table.reopen()
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    notices = [m for m in mails if str(m["Subject"]) == f"[{GID}] Message from the GM"]
    assert sorted(to_of(m) for m in notices) == sorted([P1, P2, P3, GM])
    assert all(body(m).strip() == "Game starts on Monday" for m in notices)
    assert len([r for r in log_records(table.data) if r["kind"] == "gm"]) == 1


def test_a_crash_after_committing_a_replace_still_welcomes_the_new_player(table: Table) -> None:
    raw = table.mail("GM", "REPLACE Player 2 newbie@players.example")
    table.room.after_commit = _die
    with pytest.raises(Died):
        table.room.handle(raw)
    table.reopen()
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    (welcome,) = [m for m in mails if to_of(m) == "newbie@players.example"
                  and "Welcome" in str(m["Subject"])]
    secret = re.search(r"Your secret: (\S+)", body(welcome)).group(1)  # type: ignore[union-attr]
    # the secret in the welcome works
    outcome, _ = table.order("Player 1", "BID CA 165")
    assert outcome == "processed"
    outcome, _ = table.order("Player 2", "BID CA 170", sender="newbie@players.example", secret=secret)
    assert outcome == "processed"
    # and a fourth start sends no second welcome
    table.reopen()
    assert table.send(raw) == ("processed", [])


# -- received/ and quarantine/ ------------------------------------------------------------------------


def test_raw_bytes_of_every_message_are_kept(table: Table) -> None:
    good = table.mail("Player 1", "BID CA 165")
    bad = table.mail("Player 2", "BYU PRR")
    auto = table.mail("Player 3", "PASS", headers={"Auto-Submitted": "auto-generated"})
    for raw in (good, bad, auto):
        table.send(raw)
    received = {p.name: p.read_bytes() for p in (table.data / "received").iterdir()}
    assert received == {f"{digest(r)}.eml": r for r in (good, bad, auto)}
    # the refused one is not stored twice: handled.jsonl says it was refused
    assert not (table.data / "quarantine").exists()
    outcomes = {e["sha256"]: e["outcome"] for e in handled_lines(table.data)}
    assert outcomes == {digest(good): "processed", digest(bad): "rejected", digest(auto): "ignored"}


# -- the rate limit on error replies --------------------------------------------------------------------


def test_error_replies_are_limited_per_sender_and_hour(tmp_path: Path) -> None:
    clock = Clock()
    table = Table(tmp_path / "data", clock, error_replies_per_hour=2)
    stranger = "stranger@else.example"
    replies = []
    for _ in range(3):
        raw = table.mail("Player 1", "BID CA 165", sender=stranger)
        outcome, mails = table.send(raw)
        assert outcome == "rejected"
        replies.append(len(mails))
        assert (table.data / "received" / f"{digest(raw)}.eml").exists()
        clock.t += 60
    assert replies == [1, 1, 0]
    # another sender is not affected
    assert len(table.order("Player 2", "BYU")[1]) == 1
    # still within the hour of the first two: silent
    clock.t = T0 + 3599
    assert table.order("Player 1", "x", sender=stranger)[1] == []
    # an hour after the first two replies, replies resume
    clock.t = T0 + 60 + 3600 + 1
    outcome, mails = table.order("Player 1", "BID CA 165", sender=stranger)
    assert outcome == "rejected"
    assert to_of(only(mails)) == stranger
    rejected = [e for e in handled_lines(table.data) if e["sender"] == stranger]
    assert [e["replied"] for e in rejected] == [True, True, False, False, True]


# -- HELP, REPORT, HISTORY ------------------------------------------------------------------------


def test_help_gives_the_order_reference(table: Table) -> None:
    raw = table.mail("Player 1", "HELP")
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    reply = only(mails)
    assert_reply_headers(reply, raw, P1, f"Re: [{GID}] orders")
    text = body(reply)
    assert help_text(title=load_title("1830")) in text
    for codec in Vocabulary.from_title(load_title("1830")).codecs:
        for entry in () if codec.gm_only else codec.help:
            assert entry.syntax in text and f"e.g. {entry.example}" in text
    assert "REDEEM" not in text and "HALF" not in text, "an 1830 game's help lists only 1830's orders"
    assert "HISTORY <n>" in text
    assert "GM commands" not in text and "ACT AS" not in text
    assert len(log_records(table.data)) == 1

    outcome, mails = table.order("GM", "help")
    text = body(only(mails))
    reference, _, may = text.strip().partition("\n\nWhat Player 1 may do now:\n")
    assert reference == full_help(is_gm=True, title=load_title("1830")).strip()
    assert may.splitlines()[0].startswith("  Private auction: bid"), "the GM is told what the player to act may do"
    for command in ("UNDO <n>", "ACT AS <seat> <order>", "REPLACE <seat> <address>", "PAUSE / RESUME",
                    "BROADCAST <text>", "END GAME"):
        assert command in text


def test_report_resends_the_current_report_to_the_sender_only(table: Table) -> None:
    _, first = table.order("Player 1", "BID CA 165")
    sent_to_p2 = body(by_recipient(first)[P2])
    raw = table.mail("Player 2", "REPORT")
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    reply = only(mails)
    assert_reply_headers(reply, raw, P2, f"Re: [{GID}] orders")
    text = body(reply)
    assert "report 1" in text
    assert "FOR PLAYER 2\n  It is your turn" in text
    # the same report Player 2 got: with the actions since the report before
    assert "#1    Player 1: BID CA 165" in text
    assert text == sent_to_p2
    assert len(log_records(table.data)) == 2
    assert len(table.room.archive(GID).entries()) == 1


def test_history_sends_an_archived_report(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    table.order("Player 2", "BID CA 170")
    archive = table.room.archive(GID)
    assert [e.number for e in archive.entries()] == [1, 2]
    outcome, mails = table.order("Player 3", "HISTORY 1")
    assert outcome == "processed"
    reply = only(mails)
    assert to_of(reply) == P3
    assert body(reply) == archive.get(1).path.read_text()  # type: ignore[union-attr]
    assert "Player 2 bids" not in body(reply)
    _, mails = table.order("Player 3", "HISTORY 7")
    assert body(only(mails)).strip() == "There is no report 7; the archive has reports 1 to 2."
    _, mails = table.order("Player 3", "HISTORY x")
    assert "write HISTORY <report number>" in body(only(mails))


def test_history_before_any_report(table: Table) -> None:
    _, mails = table.order("Player 1", "HISTORY 1")
    assert body(only(mails)).strip() == "There is no report 1; the archive has no reports yet."


def test_info_commands_come_with_orders(table: Table) -> None:
    outcome, mails = table.order("Player 1", "BID CA 165", "HELP")
    assert outcome == "processed"
    mine = [m for m in mails if to_of(m) == P1]
    assert len(mine) == 2 and len(mails) == 5
    assert any(help_text(title=load_title("1830")) in body(m) for m in mine)
    assert body(by_recipient([m for m in mails if "Turn report" in str(m["Subject"])])[P1]).startswith(
        "Your orders were accepted:\n  BID CA 165\n")


# -- GM commands ----------------------------------------------------------------------------------


def test_undo_takes_back_the_last_action_without_deleting_anything(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    table.order("Player 2", "BID CA 170")
    assert table.state().game.current_actors() == ["Player 3"]
    raw = table.mail("GM", "UNDO")
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    records = log_records(table.data)
    assert [r["kind"] for r in records] == ["game", "action", "action", "undo"]
    assert records[3]["data"] == {"to_seq": 2}
    assert records[3]["by"] == GM and records[3]["actor"] == "GM"
    assert records[3]["source"] == str(parse(raw)["Message-ID"])
    state = table.state()
    assert state.game.current_actors() == ["Player 2"]
    assert [r.seq for r in state.effective] == [1]
    assert body(by_recipient(mails)[GM]).startswith("Your orders were accepted:\n  UNDO\n")
    assert "FOR PLAYER 2\n  It is your turn" in body(by_recipient(mails)[P2])
    # Player 2 may bid again, differently
    assert table.order("Player 2", "BID CA 175")[0] == "processed"
    assert table.state().game.state.players["Player 2"].cash == 800


def test_undo_n_goes_back_to_log_number_n(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    table.order("Player 2", "BID CA 170")
    table.order("Player 3", "BID CA 175")
    assert table.order("GM", "UNDO 2")[0] == "processed"
    assert log_records(table.data)[-1]["data"] == {"to_seq": 2}
    state = table.state()
    assert [r.seq for r in state.effective] == [1]
    assert state.game.current_actors() == ["Player 2"]
    assert len(log_records(table.data)) == 5
    # an UNDO past everything in force is refused
    outcome, mails = table.order("GM", "UNDO 9")
    assert outcome == "rejected"
    assert "no action in force at or after log number 9" in body(only(mails))


def test_undo_with_nothing_to_undo_is_refused(table: Table) -> None:
    outcome, mails = table.order("GM", "UNDO")
    assert outcome == "rejected"
    assert "there is no action to undo" in body(only(mails))
    assert len(log_records(table.data)) == 1


def test_act_as_gives_an_order_for_a_seat(table: Table) -> None:
    raw = table.mail("GM", "ACT AS Player 1 bid ca 165", "act as 2 BID CA 170")
    outcome, mails = table.send(raw)
    assert outcome == "processed"
    a, b = log_records(table.data)[1:]
    assert (a["actor"], a["by"], a["data"]["price"]) == ("Player 1", GM, 165)
    assert (b["actor"], b["by"], b["data"]["price"]) == ("Player 2", GM, 170)
    assert a["source"] == b["source"] == str(parse(raw)["Message-ID"])
    assert body(by_recipient(mails)[GM]).startswith(
        "Your orders were accepted:\n  ACT AS Player 1 BID CA 165\n  ACT AS Player 2 BID CA 170\n")
    # the GM has no seat of their own
    outcome, mails = table.order("GM", "BID CA 175")
    assert outcome == "rejected"
    assert "ACT AS <seat> <order>" in body(only(mails))
    outcome, mails = table.order("GM", "ACT AS Player 9 PASS")
    assert outcome == "rejected" and "no seat named there" in body(only(mails))


def test_replace_gives_a_seat_to_a_new_address(table: Table) -> None:
    new = "newbie@players.example"
    outcome, mails = table.order("GM", "REPLACE Player 1 <newbie@players.example>")
    assert outcome == "processed"
    record = log_records(table.data)[-1]
    assert record["kind"] == "gm" and record["by"] == GM
    assert {k: v for k, v in record["data"].items() if k != "secret_hash"} == {
        "command": "replace", "seat": "Player 1", "email": new}
    (welcome,) = [m for m in mails if "Welcome" in str(m["Subject"])]
    assert to_of(welcome) == new
    text = body(welcome)
    assert "You play the seat: Player 1" in text
    secret = re.search(r"Your secret: (\S+)", text).group(1)  # type: ignore[union-attr]
    assert secret != table.secrets["Player 1"]
    assert secret not in json.dumps(log_records(table.data))
    # the reports now go to the new address, not the old one
    reports = {to_of(m) for m in mails if "Turn report" in str(m["Subject"])}
    assert reports == {new, P2, P3, GM}

    # the old address is no longer accepted, even with its secret
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "rejected"
    assert f"{P1} has no seat in {GID}" in body(only(mails))
    # the new address needs the new secret
    outcome, mails = table.order("Player 1", "BID CA 165", sender=new)
    assert outcome == "rejected" and "does not match" in body(only(mails))
    outcome, mails = table.order("Player 1", "BID CA 165", sender=new, secret=secret)
    assert outcome == "processed"
    record = log_records(table.data)[-1]
    assert (record["actor"], record["by"]) == ("Player 1", new)
    assert body(by_recipient(mails)[new]).startswith("Your orders were accepted")


@pytest.mark.parametrize("address", [P2, "P2@Players.Example"])
def test_replace_refuses_an_address_that_has_another_seat(table: Table, address: str) -> None:
    outcome, mails = table.order("GM", f"REPLACE Player 1 {address}")
    assert outcome == "rejected"
    assert "already" in body(only(mails))
    assert len(log_records(table.data)) == 1
    # Player 2 still plays seat 2
    table.order("Player 1", "BID CA 165")
    assert table.order("Player 2", "BID CA 170")[0] == "processed"


def test_pause_and_resume(table: Table) -> None:
    assert table.order("GM", "PAUSE")[0] == "processed"
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "rejected"
    reply = body(only(mails))
    assert "the game is paused by the GM" in reply and "The line that failed:\n  BID CA 165" in reply
    assert len(log_records(table.data)) == 2
    _, mails = table.order("Player 2", "REPORT")
    assert "THE GAME IS PAUSED BY THE GM." in body(only(mails))
    assert table.order("GM", "RESUME")[0] == "processed"
    assert table.order("Player 1", "BID CA 165")[0] == "processed"
    gm = [r["data"]["command"] for r in log_records(table.data) if r["kind"] == "gm"]
    assert gm == ["pause", "resume"]


def test_broadcast_reaches_every_player_and_the_gm(table: Table) -> None:
    outcome, mails = table.order("GM", "BROADCAST Deadline is Friday 18:00 UTC")
    assert outcome == "processed"
    notices = [m for m in mails if str(m["Subject"]) == f"[{GID}] Message from the GM"]
    assert sorted(to_of(m) for m in notices) == sorted([P1, P2, P3, GM])
    for notice in notices:
        assert body(notice).strip() == "Deadline is Friday 18:00 UTC"
        assert str(notice["X-PBEM-Server"]) == SERVER_ID
    record = log_records(table.data)[-1]
    assert record["data"] == {"command": "broadcast", "text": "Deadline is Friday 18:00 UTC"}
    assert record["by"] == GM


def test_two_broadcasts_in_one_mail_are_both_sent(table: Table) -> None:
    outcome, mails = table.order("GM", "BROADCAST first news", "BROADCAST second news")
    assert outcome == "processed"
    for address in (P1, P2, P3, GM):
        texts = sorted(body(m).strip() for m in mails
                       if to_of(m) == address and str(m["Subject"]) == f"[{GID}] Message from the GM")
        assert texts == ["first news", "second news"]


def test_end_game_refuses_later_orders(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    outcome, mails = table.order("GM", "END GAME")
    assert outcome == "processed"
    assert "THE GAME IS OVER." in body(by_recipient(mails)[P1])
    outcome, mails = table.order("Player 2", "BID CA 170")
    assert outcome == "rejected"
    assert "the game is over" in body(only(mails))
    assert [r["kind"] for r in log_records(table.data)] == ["game", "action", "gm"]


@pytest.mark.parametrize("line", ["UNDO", "UNDO 1", "ACT AS Player 2 PASS", "REPLACE Player 2 x@y.example",
                                  "PAUSE", "RESUME", "BROADCAST hello", "END GAME"])
def test_a_player_cannot_give_gm_commands(table: Table, line: str) -> None:
    table.order("Player 1", "BID CA 165")
    outcome, mails = table.order("Player 2", line)
    assert outcome == "rejected"
    text = body(only(mails))
    assert "is a GM command; only the GM may use it" in flat(only(mails))
    assert f"The line that failed:\n  {line}\n" in text
    assert len(log_records(table.data)) == 2


def test_gm_commands_need_the_gm_secret(table: Table) -> None:
    outcome, mails = table.order("GM", "PAUSE", secret=table.secrets["Player 1"])
    assert outcome == "rejected"
    assert "does not match" in body(only(mails))
    assert len(log_records(table.data)) == 1


def test_every_gm_command_is_logged_with_who_gave_it(table: Table) -> None:
    table.order("GM", "ACT AS 1 BID CA 165", "PAUSE", "RESUME", "BROADCAST hi", "UNDO",
                "REPLACE 3 p3new@players.example")
    table.order("GM", "END GAME")
    records = log_records(table.data)[1:]
    assert [(r["kind"], r["actor"], r["by"]) for r in records] == [
        ("action", "Player 1", GM), ("gm", "GM", GM), ("gm", "GM", GM), ("gm", "GM", GM),
        ("undo", "GM", GM), ("gm", "GM", GM), ("gm", "GM", GM),
    ]
    assert [r["data"].get("command") for r in records if r["kind"] == "gm"] == [
        "pause", "resume", "broadcast", "replace", "end"]
    assert all(r["source"] for r in records)
    state = table.state()
    assert state.effective == [] and state.info.ended
    assert state.info.seats[2].email == "p3new@players.example"


# -- the poller -------------------------------------------------------------------------------------


def test_an_unexpected_exception_does_not_stop_the_poller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(tmp_path / "data")
    inbox = tmp_path / "inbox"
    outbound = MaildirOutbound(tmp_path / "delivered")
    server = Server(table.room, MaildirInbound(inbox), outbound)
    poison = table.mail("Player 1", "BID CA 165")
    good = table.mail("Player 1", "BID CA 165")
    poison_id = str(parse(poison)["Message-ID"])
    original = Mailroom._handle_submission

    def explode(self: Mailroom, sub: Any) -> Any:
        if sub.message_id == poison_id:
            raise RuntimeError("bug in the mailroom")
        return original(self, sub)

    monkeypatch.setattr(Mailroom, "_handle_submission", explode)
    deliver_to_inbox(inbox, poison)
    deliver_to_inbox(inbox, good)

    result = one_pass(server)
    assert result.outcomes == {"retry": 1, "processed": 1}
    assert result.sent == 8  # four welcomes and four turn reports
    assert [p.read_bytes() for p in (inbox / "new").iterdir()] == [poison], "left for another try"
    assert one_pass(server).outcomes == {"retry": 1}
    assert one_pass(server).outcomes == {"rejected": 1}, "given up after three attempts"
    assert (table.data / "received" / f"{digest(poison)}.eml").read_bytes() == poison
    assert not (table.data / "quarantine").exists()
    records = log_records(table.data)
    assert [r["source"] for r in records] == [None, str(parse(good)["Message-ID"])]
    # the inbox is empty: one message in Rejected, one in Processed
    assert not list((inbox / "new").iterdir()) and not list((inbox / "cur").iterdir())
    assert [p.read_bytes() for p in (inbox / ".Rejected" / "new").iterdir()] == [poison]
    assert [p.read_bytes() for p in (inbox / ".Processed" / "new").iterdir()] == [good]
    # every player got the report in their Maildir
    for address in (P1, P2, P3, GM):
        subjects = sorted(str(parse(p.read_bytes())["Subject"])
                          for p in (outbound.folder_for(address) / "new").iterdir())
        assert subjects[0].startswith(f"[{GID}] Turn report 1: Private auction")  # P2's: "— YOUR TURN"
    assert table.room.outbox.pending() == []


def test_a_failure_after_the_commit_is_completed_on_the_next_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = Table(tmp_path / "data")
    inbox = tmp_path / "inbox"
    outbound = MaildirOutbound(tmp_path / "delivered")
    server = Server(table.room, MaildirInbound(inbox), outbound)
    raw = table.mail("Player 1", "BID CA 165")
    original = Mailroom.complete
    calls = {"n": 0}

    def fail_once(self: Mailroom, *args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 1:
            raise OSError("disk full while archiving the report")
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Mailroom, "complete", fail_once)
    deliver_to_inbox(inbox, raw)

    assert one_pass(server).outcomes == {"retry": 1}
    assert one_pass(server).outcomes == {"processed": 1}
    records = log_records(table.data)
    assert [r["source"] for r in records].count(str(parse(raw)["Message-ID"])) == 1
    for address in (P1, P2, P3, GM):
        subjects = [str(parse(p.read_bytes())["Subject"]) for p in (outbound.folder_for(address) / "new").iterdir()]
        assert sum(s.startswith(f"[{GID}] Turn report 1: Private auction") for s in subjects) == 1


# -- two servers on one data directory (a lock around each message and each drain) --------------


def _serve_once(data: Path, inbox: Path, delivered: Path, barrier: Any) -> None:
    """One ``pbem serve --once`` pass in a child process, started together with the others,
    on a slow disk (each log append takes 20 ms more), so unlocked servers would overlap."""
    import time

    from pbem.actionlog import ActionLog

    append = ActionLog.append

    def slow_append(self: ActionLog, new: Any) -> Any:
        time.sleep(0.02)
        return append(self, new)

    ActionLog.append = slow_append  # type: ignore[method-assign]
    room = make_room(data)
    server = Server(room, MaildirInbound(inbox), MaildirOutbound(delivered))
    barrier.wait()
    one_pass(server)


def test_two_servers_at_once_apply_each_mail_once(tmp_path: Path) -> None:
    import multiprocessing

    from pbem.actionlog import verify

    table = Table(tmp_path / "data")
    inbox, delivered = tmp_path / "inbox", tmp_path / "delivered"
    texts = [f"news number {n}" for n in range(24)]
    for text in texts:
        deliver_to_inbox(inbox, table.mail("GM", f"BROADCAST {text}"))
    # a server ran here before: the inbox folders exist and the welcomes were sent
    asyncio.run(MaildirInbound(inbox).connect())
    asyncio.run(table.room.outbox.drain(MaildirOutbound(delivered)))
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(3)
    workers = [context.Process(target=_serve_once, args=(table.data, inbox, delivered, barrier)) for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(120)
    records = verify(table.data / "games" / GID / "log.jsonl")
    assert sorted(str(getattr(r, "text", None)) for r in records[1:]) == sorted(texts)
    assert len({r.source for r in records[1:]}) == len(texts)
    assert [worker.exitcode for worker in workers] == [0, 0, 0]
    assert len(handled_lines(table.data)) == len(texts)
    notices = [str(parse(p.read_bytes())["Message-ID"]) for p in (delivered / GM / "new").iterdir()
               if "Message from the GM" in str(parse(p.read_bytes())["Subject"])]
    assert len(notices) == len(set(notices)) == len(texts)
    assert table.reopen().outbox.pending() == []


def _handle_in_child(data: Path, raw: bytes, go: Any, done: Any) -> None:
    go.wait(30)
    make_room(data).handle(raw)
    done.set()


def test_a_second_server_waits_for_the_lock(table: Table) -> None:
    import fcntl
    import multiprocessing

    raw = table.mail("Player 1", "BID CA 165")
    context = multiprocessing.get_context("fork")
    go, done = context.Event(), context.Event()
    # forked before the lock file is opened here, so the child does not share its descriptor
    child = context.Process(target=_handle_in_child, args=(table.data, raw, go, done))
    child.start()
    with open(table.data / "pbem.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        go.set()
        assert not done.wait(1.0), "the mail was handled while another process held the lock"
        assert len(log_records(table.data)) == 1
    assert done.wait(30)
    child.join(30)
    assert child.exitcode == 0
    assert len(log_records(table.data)) == 2


def test_handled_jsonl_is_read_again_when_another_server_wrote_it(table: Table) -> None:
    other = make_room(table.data, table.clock)  # started before the mail came in
    raw = table.mail("Player 1", "BID CA 165")
    assert table.send(raw)[0] == "processed"
    queue = other.outbox.pending()
    assert other.handle(raw) == "processed"
    assert other.outbox.pending() == queue
    assert len(handled_lines(table.data)) == 1
    assert len(log_records(table.data)) == 2


# -- no line crashes the handling --------------------------------------------------------------------

LONG = "9" * 5000


@pytest.mark.parametrize(("seat", "line", "expected"), [
    ("Player 1", "HISTORY ²", "write HISTORY <report number>"),
    ("Player 1", "HISTORY 1234567890", "write HISTORY <report number>"),
    ("Player 1", f"HISTORY {LONG}", "write HISTORY <report number>"),
    ("GM", "UNDO ³", "write UNDO, or UNDO <log number>"),
    ("GM", f"UNDO {LONG}", "write UNDO, or UNDO <log number>"),
    ("GM", "REPLACE ² new@players.example", "no seat '²'"),
    ("Player 1", f"BID CA {LONG}", "the bid must be plain digits 0-9, at most 9 of them"),
    ("GM", f"ACT AS 1 BID CA {LONG}", "the bid must be plain digits 0-9, at most 9 of them"),
    ("Player 1", "BID CA ²", "the bid must be a whole number in plain digits 0-9, not '²'"),
    ("Player 1", "BID CA １６５", "the bid must be a whole number in plain digits 0-9"),
    ("Player 1", "BID CA ١٦٥", "the bid must be a whole number in plain digits 0-9"),
])
def test_odd_numbers_are_refused_with_a_reply(table: Table, seat: str, line: str, expected: str) -> None:
    outcome, mails = table.order(seat, "BID CA 165" if seat == "Player 1" else "ACT AS 1 BID CA 165", line)
    assert outcome == "rejected"
    text = body(only(mails))
    shown = line  # quoted as written (UTF-8), so never as a look-alike such as "HISTORY 2"
    assert expected in flat(only(mails))
    assert f"The line that failed:\n  {shown}\n" in text
    assert len(log_records(table.data)) == 1


def test_undo_0_is_refused(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    outcome, mails = table.order("GM", "UNDO 0")
    assert outcome == "rejected"
    assert "record 0 is the game itself" in body(only(mails))
    assert len(log_records(table.data)) == 2 and [r.seq for r in table.state().effective] == [1]


# -- addresses -------------------------------------------------------------------------------------


@pytest.mark.parametrize("address", ["x@", "@", "<x@>", "x@localhost.", "a@b", "a,b@c.example", "<<x@y>>"])
def test_replace_refuses_what_is_not_an_address(table: Table, address: str) -> None:
    outcome, mails = table.order("GM", f"REPLACE Player 1 {address}")
    assert outcome == "rejected"
    assert "is not a mail address" in flat(only(mails))
    assert len(log_records(table.data)) == 1
    assert table.order("Player 1", "BID CA 165")[0] == "processed"


@pytest.mark.parametrize(("seats", "gm", "expected"), [
    ([("A", "a@x.example"), ("B", "x@"), ("C", "c@x.example")], GM, "'x@' is not a mail address"),
    ([("A", "a@x.example"), ("B", "@"), ("C", "c@x.example")], GM, "'@' is not a mail address"),
    ([("A", "a@x.example"), ("B", "b@x.example"), ("C", "c@x.example")], "gm@", "GM: 'gm@' is not a mail address"),
    ([("A", "a@x.example"), ("", "b@x.example"), ("C", "c@x.example")], GM, "the seat name is empty"),
    ([("A", "a@x.example"), ("  ", "b@x.example"), ("C", "c@x.example")], GM, "the seat name is empty"),
    ([("A B", "a@x.example"), ("a  b", "b@x.example"), ("C", "c@x.example")], GM, "distinct"),
])
def test_new_game_refuses_bad_seats_and_leaves_nothing(tmp_path: Path, seats: list[tuple[str, str]], gm: str,
                                                       expected: str) -> None:
    from pbem.errors import ConfigError

    room = make_room(tmp_path / "data")
    with pytest.raises(ConfigError, match=re.escape(expected)):
        room.new_game(GID, "1830", (), seats, gm)
    assert not (tmp_path / "data" / "games").exists()
    assert room.outbox.pending() == []


def test_a_new_game_that_fails_late_leaves_no_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.server

    original = pbem.server.compose

    def fail_for_the_gm(**kwargs: Any) -> Any:
        if kwargs["to"] == [GM]:
            raise ValueError("cannot compose")
        return original(**kwargs)

    monkeypatch.setattr(pbem.server, "compose", fail_for_the_gm)
    room = make_room(tmp_path / "data")
    with pytest.raises(ValueError):
        room.new_game(GID, "1830", (), SEATS, GM)
    assert not (tmp_path / "data" / "games" / GID / "log.jsonl").exists()
    assert room.outbox.pending() == []
    monkeypatch.setattr(pbem.server, "compose", original)
    assert set(room.new_game(GID, "1830", (), SEATS, GM)) == {"Player 1", "Player 2", "Player 3", "GM"}
    with pytest.raises(FileExistsError, match=f"game {GID} already exists"):
        room.new_game(GID, "1830", (), SEATS, GM)


# -- a damaged log ---------------------------------------------------------------------------------


def test_a_game_with_a_damaged_log_takes_nothing_and_the_gm_is_told_once(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    table.order("Player 2", "BID CA 170")
    path = table.data / "games" / GID / "log.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([lines[0], lines[1].replace(b'"price":165', b'"price":160'), lines[2]]))
    damaged = path.read_bytes()
    for seat, order in (("Player 3", "BID CA 175"), ("Player 3", "PASS"), ("GM", "UNDO")):
        outcome, mails = table.order(seat, order)
        assert outcome == "rejected"
        assert path.read_bytes() == damaged
        replies = [m for m in mails if "Re: " in str(m["Subject"])]
        assert [to_of(m) for m in replies] == [ADDRESS[seat]]
        assert "the game's log failed its integrity check; the gm has been told" in body(replies[0]).lower()
        notices = [m for m in mails if "integrity check" in str(m["Subject"])]
        if (seat, order) == ("Player 3", "BID CA 175"):
            notice = only(notices)
            assert to_of(notice) == GM and "record 1: content does not match its hash" in body(notice)
        else:
            assert notices == [], "the GM is told once"
    assert table.room.archive(GID).latest().number == 2  # type: ignore[union-attr]


def test_a_damaged_head_takes_nothing(table: Table) -> None:
    (table.data / "games" / GID / "head.json").write_text("{not json")
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "rejected"
    assert any("integrity check" in body(m) for m in mails if to_of(m) == P1)
    assert len(log_records(table.data)) == 1


# -- reports after GM commands -------------------------------------------------------------------------


def test_reports_show_what_the_gm_did(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    table.order("Player 2", "BID CA 170")
    table.order("Player 3", "BID CA 175")
    _, mails = table.order("GM", "UNDO 2")
    text = body(by_recipient(mails)[P1])
    assert "#4    GM: UNDO 2: took back #2 Player 2: BID CA 170, #3 Player 3: BID CA 175" in text
    _, mails = table.order("GM", "PAUSE")
    text = body(by_recipient(mails)[P2])
    assert "#5    GM: PAUSE: the game is paused" in text
    assert "THE GAME IS PAUSED BY THE GM." in text
    assert "Next to act" not in text and "It is your turn" not in text
    assert "FOR PLAYER 2\n  The game is paused by the GM" in text
    _, mails = table.order("GM", "RESUME", "REPLACE Player 3 p3new@players.example", "BROADCAST Hello all")
    text = body(by_recipient([m for m in mails if "Turn report" in str(m["Subject"])])[P2])
    assert "#6    GM: RESUME: the game goes on" in text
    assert "#7    GM: REPLACE Player 3: now played by p3new@players.example" in text
    assert "#8    GM: BROADCAST Hello all" in text
    assert "secret" not in text.lower()
    assert "Next to act: Player 2" in text and "FOR PLAYER 2\n  It is your turn" in text
    _, mails = table.order("GM", "END GAME")
    text = body(by_recipient(mails)[P2])
    assert "#9    GM: END GAME: the game is over" in text
    assert "THE GAME IS OVER." in text and "FOR PLAYER 2\n  The game is over." in text
    assert "Next to act" not in text and "It is your turn" not in text
    # REPORT after the end says the same
    _, mails = table.order("Player 2", "REPORT")
    assert "Next to act" not in body(only(mails)) and "THE GAME IS OVER." in body(only(mails))


def test_after_end_game_undo_and_orders_are_refused(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    table.order("GM", "END GAME")
    for seat, line, expected in (("GM", "UNDO", "the game is over"), ("GM", "UNDO 1", "the game is over"),
                                 ("GM", "ACT AS 2 BID CA 170", "the game is over"),
                                 ("Player 2", "BID CA 170", "the game is over")):
        outcome, mails = table.order(seat, line)
        assert outcome == "rejected"
        text = body(only(mails))
        assert expected in text and f"The line that failed:\n  {line}\n" in text
    assert [r["kind"] for r in log_records(table.data)] == ["game", "action", "gm"]


# -- a reused Message-ID ---------------------------------------------------------------------------


def test_a_different_mail_with_a_handled_message_id_is_refused_and_never_applied(table: Table) -> None:
    first = table.mail("Player 1", "BID CA 165", mid="<same@players.example>")
    second = table.mail("Player 1", "BID CA 170", mid="<same@players.example>")
    assert table.send(first)[0] == "processed"
    outcome, mails = table.send(second)
    assert outcome == "rejected"
    reply = only(mails)
    assert to_of(reply) == P1
    assert "Message-ID <same@players.example> of a different mail" in body(reply)
    assert "Nothing of this mail was applied" in body(reply)
    assert [r["source"] for r in log_records(table.data)[1:]] == ["<same@players.example>"]
    assert (table.data / "received" / f"{digest(second)}.eml").read_bytes() == second
    # byte-identical redeliveries of either change nothing and are not answered again
    assert table.send(first) == ("processed", [])
    assert table.send(second) == ("rejected", [])
    table.reopen()
    assert table.send(first) == ("processed", [])
    assert table.send(second) == ("rejected", [])
    assert len(log_records(table.data)) == 2
    entries = handled_lines(table.data)
    assert [(e["sha256"], e["outcome"], e["kind"]) for e in entries] == [
        (digest(first), "processed", "orders"), (digest(second), "rejected", "reused_message_id")]


def test_the_same_message_id_from_another_sender_is_another_mail(table: Table) -> None:
    assert table.order("Player 1", "BID CA 165", mid="<same@players.example>")[0] == "processed"
    assert table.order("Player 2", "BID CA 170", mid="<same@players.example>")[0] == "processed"
    records = log_records(table.data)[1:]
    assert [(r["source"], r["by"]) for r in records] == [("<same@players.example>", P1),
                                                        ("<same@players.example>", P2)]


# -- the rate limit is for senders who were not authenticated -----------------------------------------


def test_error_replies_to_players_and_the_gm_have_a_higher_allowance(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", error_replies_per_hour=1, error_replies_per_hour_authenticated=4)
    for _ in range(2):
        assert len(table.order("Player 2", "BID CA 170")[1]) == 1  # not their turn
        assert len(table.order("Player 2", "BYU")[1]) == 1
        assert len(table.order("GM", "UNDO")[1]) == 1
    # the fifth within the hour is logged, not answered
    assert len(table.order("Player 2", "BYU")[1]) == 0
    assert len(table.order("GM", "UNDO")[1]) == 1
    # a wrong secret is not authenticated: the lower allowance (the player had 4 already)
    assert len(table.order("Player 3", "PASS", secret="wrong")[1]) == 1
    assert len(table.order("Player 3", "PASS", secret="wrong")[1]) == 0
    # and that sender still gets answers once authenticated
    assert len(table.order("Player 3", "BYU")[1]) == 1


def test_all_info_commands_of_a_mail_are_answered_in_one_reply(table: Table) -> None:
    table.order("Player 1", "BID CA 165")
    outcome, mails = table.order("Player 2", *["HISTORY 1"] * 150)
    assert outcome == "processed"
    reply = only(mails)
    assert body(reply) == table.room.archive(GID).get(1).path.read_text()  # type: ignore[union-attr]
    outcome, mails = table.order("Player 2", "HELP", "REPORT", "HISTORY 1", "help", "HISTORY 7")
    text = body(only(mails))
    assert help_text(title=load_title("1830")) in text and "FOR PLAYER 2" in text and "There is no report 7" in text
    assert text.count(help_text(title=load_title("1830"))) == 1
    assert "--- HELP ---" in text and "--- HISTORY 7 ---" in text


# -- ACT AS and seat names -----------------------------------------------------------------------------


def test_act_as_prefers_a_seat_name_over_a_seat_number(tmp_path: Path) -> None:
    room = make_room(tmp_path / "data")
    seats = [("2", "two@players.example"), ("1", "one@players.example"), ("Anna  Maria", "am@players.example")]
    secrets = room.new_game(GID, "1830", (), seats, GM)
    mail = lambda *lines: build_mail(GM, f"PASSWORD {secrets['GM']}\n" + "\n".join(lines) + "\n",  # noqa: E731
                                     mid=f"<{len(lines)}.{lines[0].replace(' ', '')}@players.example>")
    assert room.handle(mail("ACT AS 2 BID CA 165", "ACT AS 1 BID CA 170", "ACT AS  anna   MARIA  BID CA 175",
                            "ACT AS 2 BID CA 180")) == "processed"
    actors = [r["actor"] for r in log_records(tmp_path / "data")[1:]]
    assert actors == ["2", "1", "Anna  Maria", "2"]
    assert room.handle(mail("ACT AS 1 BID CA 185", "ACT AS 3 BID CA 190")) == "processed"
    assert log_records(tmp_path / "data")[-1]["actor"] == "Anna  Maria"  # a number no seat is named
    # REPLACE names a seat the same way
    assert room.handle(mail("REPLACE 1 new@players.example")) == "processed"
    state = replay(parse_records(log_records(tmp_path / "data")))
    assert [s.email for s in state.info.seats] == ["two@players.example", "new@players.example",
                                                   "am@players.example"]


# -- reports are ASCII -------------------------------------------------------------------------------


def test_reports_transliterate_names_to_ascii(tmp_path: Path) -> None:
    room = make_room(tmp_path / "data")
    seats = [("Zoë", "zoe@players.example"), ("Łukasz", "l@players.example"), ("Jürgen", "j@players.example")]
    secrets = room.new_game(GID, "1830", (), seats, GM)
    raw = build_mail("zoe@players.example", f"PASSWORD {secrets['Zoë']}\nBID CA 165\n", mid="<z@players.example>")
    assert room.handle(raw) == "processed"
    text = room.archive(GID).get(1).path.read_text()  # type: ignore[union-attr]
    assert "Zoe" in text and "Jurgen" in text and "?ukasz" in text
    assert "Zo?" not in text and "J?rgen" not in text


# -- the Subject --------------------------------------------------------------------------------------


def test_the_game_may_be_any_tag_of_the_subject(table: Table) -> None:
    outcome, mails = table.order("Player 1", "BID CA 165", subject=f"[URGENT] [{GID}] orders")
    assert outcome == "processed"
    assert str(by_recipient(mails)[P1]["Subject"]) == f"[{GID}] Turn report 1: Private auction"
    outcome, mails = table.order("Player 2", "BID CA 1", subject=f"[URGENT] [{GID}] orders")
    assert outcome == "rejected" and str(only(mails)["Subject"]) == f"Re: [URGENT] [{GID}] orders"
    outcome, mails = table.order("Player 2", "BID CA 170", subject="[URGENT] [other] orders")
    assert outcome == "rejected" and "There is no game 'URGENT'" in body(only(mails))


def test_the_gm_with_a_wrong_secret_is_told_which_secret(table: Table) -> None:
    outcome, mails = table.order("GM", "PAUSE", secret="wrong")
    assert outcome == "rejected"
    assert "The PASSWORD does not match the GM's secret." in body(only(mails))


def test_a_pass_reads_the_inbox_in_batches_players_mail_first(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    inbox = tmp_path / "inbox"
    server = Server(table.room, MaildirInbound(inbox), MaildirOutbound(tmp_path / "out"), batch=2)
    stranger = build_mail("someone@else.example", "Hello, can I join?\n", mid="<s1@else.example>")
    deliver_to_inbox(inbox, stranger)
    for seat, line in (("Player 1", "BID CA 165"), ("Player 2", "BUY SV"), ("Player 3", "BUY CS")):
        deliver_to_inbox(inbox, table.mail(seat, line))
    result = one_pass(server)
    assert sum(result.outcomes.values()) == 4, "every mail in one pass, two at a time"
    order = [e["sender"] for e in handled_lines(table.data)]
    assert order.index("someone@else.example") == 3, "the stranger's mail, the oldest, after the players'"
