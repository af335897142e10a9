"""Tests for pbem.mail.compose: headers, encoding and stable Message-IDs."""

from __future__ import annotations

import email
import email.policy
import hashlib
from datetime import datetime, timedelta, timezone

import pytest

from pbem.mail.compose import MARKER_HEADER, MASK, compose, deterministic_message_id, mask_secret, reply_subject
from pbem.mail.reading import read_message
from pbem.mail.types import Ignored

DATE = datetime(2024, 1, 1, 10, 0, tzinfo=timezone.utc)
MID = "<0123456789abcdef@pbem.example>"


def build(**changes: object):  # type: ignore[no-untyped-def]
    fields: dict[str, object] = dict(
        sender="PBEM Server <pbem@example.org>",
        to=["Alice <alice@example.org>"],
        subject="[demo-1830] Your turn",
        body="Zürich £50\nBUY PRR\n",
        kind="report",
        message_id=MID,
        server_id="pbem-1",
        date=DATE,
    )
    fields.update(changes)
    return compose(**fields)  # type: ignore[arg-type]


def test_headers_of_a_report() -> None:
    msg = build()
    assert [(name, str(value)) for name, value in msg.items()] == [
        ("From", "PBEM Server <pbem@example.org>"),
        ("To", "Alice <alice@example.org>"),
        ("Subject", "[demo-1830] Your turn"),
        ("Date", "Mon, 01 Jan 2024 10:00:00 +0000"),
        ("Message-ID", MID),
        ("Auto-Submitted", "auto-generated"),
        ("X-PBEM-Server", "pbem-1"),
        ("Content-Type", 'text/plain; charset="utf-8"'),
        ("Content-Transfer-Encoding", "quoted-printable"),
        ("MIME-Version", "1.0"),
    ]
    assert MARKER_HEADER == "X-PBEM-Server"
    assert "Precedence" not in msg


def test_reply_headers() -> None:
    msg = build(
        kind="reply",
        to=["alice@example.org", "bob@example.org"],
        in_reply_to="<orig@mail.example.org>",
        references=("<first@x>", "<orig@mail.example.org>"),
    )
    assert msg["Auto-Submitted"] == "auto-replied"
    assert msg["To"] == "alice@example.org, bob@example.org"
    assert msg["In-Reply-To"] == "<orig@mail.example.org>"
    assert msg["References"] == "<first@x> <orig@mail.example.org>"


@pytest.mark.parametrize("kind", ["report", "welcome", "notice"])
def test_non_replies_are_auto_generated(kind: str) -> None:
    msg = build(kind=kind)
    assert (msg["Auto-Submitted"], msg["In-Reply-To"], msg["References"]) == (
        "auto-generated",
        None,
        None,
    )


def test_date_defaults_to_now_and_naive_dates_are_utc() -> None:
    before = datetime.now(timezone.utc).replace(microsecond=0)
    sent = email.utils.parsedate_to_datetime(build(date=None)["Date"])
    assert before <= sent <= datetime.now(timezone.utc) + timedelta(seconds=1)
    assert build(date=datetime(2024, 1, 1, 10, 0))["Date"] == "Mon, 01 Jan 2024 10:00:00 +0000"
    cet = timezone(timedelta(hours=1))
    assert build(date=datetime(2024, 1, 1, 11, 0, tzinfo=cet))["Date"] == (
        "Mon, 01 Jan 2024 11:00:00 +0100"
    )


def test_bytes_are_seven_bit_and_the_body_round_trips() -> None:
    msg = build(
        subject="[demo-1830] Zürich", sender="Jürgen Server <pbem@example.org>", body="Zürich £50\n"
    )
    data = msg.as_bytes(policy=email.policy.SMTP)
    for line in data.split(b"\r\n"):
        assert line.isascii() and len(line) <= 78, line
    assert b"\n" not in data.replace(b"\r\n", b"")
    back = email.message_from_bytes(data, policy=email.policy.default)
    # The wire form has CRLF line ends, and get_content() keeps them.
    assert back.get_content() == "Zürich £50\r\n"
    assert back["Subject"] == "[demo-1830] Zürich"
    assert back["From"].addresses[0].display_name == "Jürgen Server"


def test_long_lines_are_folded_and_round_trip() -> None:
    body = "x" * 300 + " ü\n" + "BUY PRR\n"
    data = build(body=body).as_bytes(policy=email.policy.SMTP)
    assert all(len(line) <= 78 and line.isascii() for line in data.split(b"\r\n"))
    back = email.message_from_bytes(data, policy=email.policy.default).get_content()
    assert back == body.replace("\n", "\r\n")


def test_our_mail_is_ignored_when_it_comes_back() -> None:
    raw = build(kind="reply").as_bytes()
    assert read_message(raw, own_addresses=frozenset()) == Ignored(
        message_id=MID, sender="pbem@example.org", reason="Auto-Submitted: auto-replied"
    )


def test_bad_arguments() -> None:
    with pytest.raises(ValueError, match="'to' has no address"):
        build(to=[])
    with pytest.raises(ValueError, match="is not '<local@domain>'"):
        build(message_id="no-brackets@x")
    with pytest.raises(ValueError, match="linefeed or carriage return"):
        build(subject="a\r\nBcc: eve@example.org")


def test_deterministic_message_id() -> None:
    expected = hashlib.sha256("demo-1830\x1fSR 1\x1falice@example.org".encode()).hexdigest()[:32]
    mid = deterministic_message_id("demo-1830", "SR 1", "alice@example.org", domain="pbem.example")
    assert mid == f"<{expected}@pbem.example>"
    assert mid == "<75910508d7a644ea2bb57c6f717b112b@pbem.example>"
    assert mid == deterministic_message_id(
        "demo-1830", "SR 1", "alice@example.org", domain="pbem.example"
    )
    # The separator keeps ("ab", "c") apart from ("a", "bc").
    assert deterministic_message_id("ab", "c", domain="x") != deterministic_message_id(
        "a", "bc", domain="x"
    )
    assert build(message_id=mid)["Message-ID"] == mid


@pytest.mark.parametrize("domain", ["", "a b", "x@y", "<x>"])
def test_deterministic_message_id_refuses_bad_domains(domain: str) -> None:
    with pytest.raises(ValueError, match="bad domain"):
        deterministic_message_id("a", domain=domain)


@pytest.mark.parametrize(
    ("subject", "tag", "expected"),
    [
        ("[demo-1830] Orders", "demo-1830", "Re: [demo-1830] Orders"),
        ("Re: [demo-1830] Orders", "demo-1830", "Re: [demo-1830] Orders"),
        ("Re: RE: re:[demo-1830] Orders", "demo-1830", "Re: [demo-1830] Orders"),
        ("AW: Re[2]: [demo-1830] Orders", "demo-1830", "Re: [demo-1830] Orders"),
        ("[demo-1830] Re: Orders", "demo-1830", "Re: [demo-1830] Orders"),
        ("Orders", "demo-1830", "Re: [demo-1830] Orders"),
        ("Fwd: my [demo-1830] orders", "demo-1830", "Re: Fwd: my [demo-1830] orders"),
        ("Orders\r\n  for\tSR 2", "demo-1830", "Re: [demo-1830] Orders for SR 2"),
        ("", "demo-1830", "Re: [demo-1830]"),
        ("Re: Orders", None, "Re: Orders"),
        ("Orders", None, "Re: Orders"),
        ("", None, "Re:"),
    ],
)
def test_reply_subject(subject: str, tag: str | None, expected: str) -> None:
    assert reply_subject(subject, tag) == expected


@pytest.mark.parametrize(
    ("subject", "secret", "expected"),
    [
        ("[g1] orders PASSWORD k3xm9tqa", None, f"Re: [g1] orders PASSWORD {MASK}"),
        ("[g1] pw: k3xm9tqa orders", None, f"Re: [g1] pw: {MASK} orders"),
        ("[g1] Password=k3xm9tqa", None, f"Re: [g1] Password={MASK}"),
        ("[g1] orders (K3XM9TQA)", "k3xm9tqa", f"Re: [g1] orders ({MASK})"),
        ("[g1] orders", "k3xm9tqa", "Re: [g1] orders"),
        ("[g1] passwords are boring", None, "Re: [g1] passwords are boring"),
    ],
)
def test_a_secret_is_never_echoed_in_a_reply_subject(subject: str, secret: str | None, expected: str) -> None:
    assert reply_subject(subject, "g1", secret) == expected


def test_mask_secret_masks_whole_words_only() -> None:
    assert mask_secret("ab abc xabc abc.", "abc") == f"ab {MASK} xabc {MASK}."
    assert mask_secret("my password is hunter2", None, keyword=False) == "my password is hunter2"
    assert mask_secret("my password is hunter2") == f"my password is {MASK}"
    assert mask_secret("nothing here", "") == "nothing here"
