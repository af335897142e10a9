"""Tests for pbem.mail.reading.read_message: one test per kind of real-world mail."""

from __future__ import annotations

import base64
import dataclasses
import email
import email.policy
import hashlib
import importlib.util
import time
from email.message import EmailMessage
from email.mime.application import MIMEApplication
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.mail.reading import game_tags, read_message
from pbem.mail.types import BodyLine, Ignored, Submission, Unreadable

OWN = frozenset({"pbem@example.org"})
ALICE = "Alice Example <alice@example.org>"
SUBJECT = "Re: [demo-1830] Orders"
MID = "<m1@mail.example.org>"


def read(raw: bytes, **kwargs: object) -> object:
    return read_message(raw, own_addresses=OWN, **kwargs)  # type: ignore[arg-type]


def plain(body: str, *, headers: dict[str, str] | None = None, subject: str = SUBJECT) -> bytes:
    """A text/plain mail from Alice with extra ``headers``."""
    msg = EmailMessage()
    msg["From"] = ALICE
    msg["To"] = "pbem@example.org"
    msg["Subject"] = subject
    msg["Message-ID"] = MID
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return msg.as_bytes()


def submission(lines: tuple[str, ...] = (), **changes: object) -> Submission:
    """The Submission expected from Alice's mail with these line texts (numbers and the
    order/chatter mark are not compared, see :func:`same`)."""
    fields: dict[str, object] = dict(
        message_id=MID,
        sender="alice@example.org",
        sender_name="Alice Example",
        subject=SUBJECT,
        game_tag="demo-1830",
        secret=None,
        body=tuple(BodyLine(0, line, False) for line in lines),
        notes=(),
    )
    fields.update(changes)
    return Submission(**fields)  # type: ignore[arg-type]


def texts(result: object) -> tuple[str, ...]:
    assert isinstance(result, Submission), result
    return tuple(line.text for line in result.body)


def same(result: object, expected: Submission) -> bool:
    """Whether ``result`` is ``expected`` up to the line numbers and order marks."""
    assert isinstance(result, Submission), result
    assert texts(result) == texts(expected)
    blank = tuple(BodyLine(0, line.text, False) for line in result.body)
    return dataclasses.replace(result, body=blank) == expected


def unreadable(kind: str, reason: str, **changes: object) -> Unreadable:
    fields: dict[str, object] = dict(
        message_id=MID,
        sender="alice@example.org",
        subject=SUBJECT,
        game_tag="demo-1830",
        kind=kind,
        reason=reason,
    )
    fields.update(changes)
    return Unreadable(**fields)  # type: ignore[arg-type]


def raw_mail(head: str, body: bytes) -> bytes:
    """A hand-made mail: ``head`` lines (LF) then a blank line then ``body``."""
    return head.encode("ascii") + b"\n" + body


BASE_HEAD = f"From: {ALICE}\nTo: pbem@example.org\nSubject: {SUBJECT}\nMessage-ID: {MID}\n"


# -- plain text and the line rules ------------------------------------------------------------


def test_plain_mail_gives_its_lines() -> None:
    raw = plain("BUY PRR\n\n  PAR B&O 67  \nPASS\n")
    assert same(read(raw), submission(("BUY PRR", "PAR B&O 67", "PASS")))


def test_crlf_bodies_and_blank_lines() -> None:
    raw = raw_mail(BASE_HEAD.replace("\n", "\r\n"), b"\r\nBUY PRR\r\n\r\n\r\nPASS\r\n")
    assert same(read(raw), submission(("BUY PRR", "PASS")))


def test_password_line_is_taken_out() -> None:
    raw = plain("PASSWORD s3cr3t\nBUY PRR\n")
    assert same(read(raw), submission(("BUY PRR",), secret="s3cr3t"))


@pytest.mark.parametrize("line", ["pw hunter2", "Password: hunter2", "PW=hunter2"])
def test_password_spellings(line: str) -> None:
    raw = plain(f"BUY PRR\n{line}\nPASS\n")
    assert same(read(raw), submission(("BUY PRR", "PASS"), secret="hunter2"))


def test_begin_orders_marker_and_end_line() -> None:
    raw = plain("Hi GM,\nBEGIN ORDERS\nBUY PRR\nend\nBUY NYC\n")
    # BEGIN ORDERS is dropped only when it leads; "Hi GM," is a line like any other.
    assert same(read(raw), submission(("Hi GM,", "BEGIN ORDERS", "BUY PRR")))
    raw = plain("begin orders\nBUY PRR\nEND\nPASS\n")
    assert same(read(raw), submission(("BUY PRR",)))


@pytest.mark.parametrize("separator", ["-- ", "--"])
def test_signature_ends_the_orders(separator: str) -> None:
    raw = plain(f"BUY PRR\n{separator}\nAlice\nPASS\n")
    assert same(read(raw), submission(("BUY PRR",)))


def test_quoted_lines_are_skipped_and_reading_goes_on() -> None:
    raw = plain("BUY PRR\n> BUY NYC\nPASS\n")
    result = read(raw)
    assert same(result, submission(("BUY PRR", "PASS")))
    assert isinstance(result, Submission)
    assert [(line.number, line.text) for line in result.body] == [(1, "BUY PRR"), (3, "PASS")]


def test_gmail_attribution_split_over_two_lines() -> None:
    body = (
        "BUY PRR\n\n"
        "On Mon, 1 Jan 2024 at 10:00, PBEM Server <\n"
        "pbem@example.org> wrote:\n\n"
        "> Your turn\n"
    )
    assert same(read(plain(body)), submission(("BUY PRR",)))


def test_gmail_attribution_on_one_line() -> None:
    body = "BUY PRR\nOn Mon, Jan 1, 2024 at 10:00 AM PBEM <pbem@example.org> wrote:\nold\n"
    assert same(read(plain(body)), submission(("BUY PRR",)))


def test_german_attribution() -> None:
    body = "KAUFE PRR\nAm 01.01.2024 um 10:00 schrieb PBEM <pbem@example.org>:\nalt\n"
    assert same(read(plain(body)), submission(("KAUFE PRR",)))


def test_outlook_header_block() -> None:
    body = (
        "BUY PRR\n"
        "\n"
        "From: PBEM Server <pbem@example.org>\n"
        "Sent: Monday, January 1, 2024 10:00 AM\n"
        "To: Alice <alice@example.org>\n"
        "Subject: [demo-1830] Your turn\n"
        "\n"
        "BUY NYC\n"
    )
    assert same(read(plain(body)), submission(("BUY PRR",)))


def test_from_line_without_a_header_block_is_kept() -> None:
    body = "From: the GM's advice\nBUY PRR\nPASS\nSELL NYC\nPASS\n"
    assert same(read(plain(body)), submission(
        ("From: the GM's advice", "BUY PRR", "PASS", "SELL NYC", "PASS")
    ))


@pytest.mark.parametrize(
    "marker",
    [
        "-----Original Message-----",
        "________________________________",
        "_____",
        "Sent from my iPhone",
        "sent from my phone",
    ],
)
def test_reply_markers_end_the_orders(marker: str) -> None:
    raw = plain(f"BUY PRR\n{marker}\nBUY NYC\n")
    assert same(read(raw), submission(("BUY PRR",)))


def test_lines_are_truncated_with_a_note() -> None:
    raw = plain("".join(f"PASS {i}\n" for i in range(5)))
    assert same(read(raw, max_lines=3), submission(
        ("PASS 0", "PASS 1", "PASS 2"), notes=("only the first 3 lines were read",), cut_at=3
    ))


def test_only_signature_and_password_is_an_empty_body() -> None:
    raw = plain("PASSWORD x\n\n-- \nAlice\n")
    assert read(raw) == unreadable("empty_body", "the message has no order lines")


def test_whitespace_body_is_empty() -> None:
    assert read(plain("\n  \n\t\n")) == unreadable("empty_body", "the message has no order lines")


# -- MIME structure and encodings -------------------------------------------------------------


def test_multipart_alternative_prefers_the_plain_part() -> None:
    msg = EmailMessage()
    msg["From"] = ALICE
    msg["Subject"] = SUBJECT
    msg["Message-ID"] = MID
    msg.set_content("BUY PRR\n")
    msg.add_alternative("<p>BUY NYC</p>", subtype="html")
    assert same(read(msg.as_bytes()), submission(("BUY PRR",)))


def test_html_only_mail_with_gmail_quote() -> None:
    html = (
        '<div dir="ltr">BUY PRR<br>PAR B&amp;O 67<br></div><br>'
        '<div class="gmail_quote"><div dir="ltr" class="gmail_attr">'
        "On Mon, Jan 1, 2024 at 10:00 AM PBEM &lt;pbem@example.org&gt; wrote:<br></div>"
        "<blockquote class=\"gmail_quote\"><div>BUY NYC</div></blockquote></div>"
    )
    msg = EmailMessage()
    msg["From"] = ALICE
    msg["Subject"] = SUBJECT
    msg["Message-ID"] = MID
    msg.set_content(html, subtype="html")
    assert same(read(msg.as_bytes()), submission(
        ("BUY PRR", "PAR B&O 67"), notes=("read from the HTML part",)
    ))


@pytest.mark.parametrize(
    "quote",
    [
        '<div id="appendonsend"></div><hr><div id="divRplyFwdMsg"><b>From:</b> PBEM</div>'
        "<div>BUY NYC</div>",
        '<div id="divRplyFwdMsg"><b>From:</b> PBEM<br><b>Sent:</b> Monday</div><p>BUY NYC</p>',
        '<div class="moz-cite-prefix">Earlier:</div><blockquote type="cite">BUY NYC'
        "<blockquote>SELL NYC</blockquote>still quoted</blockquote>",
    ],
)
def test_html_quotes_of_outlook_and_thunderbird_are_removed(quote: str) -> None:
    html = f"<html><body><p>BUY PRR</p>{quote}</body></html>"
    msg = EmailMessage()
    msg["From"] = ALICE
    msg["Subject"] = SUBJECT
    msg["Message-ID"] = MID
    msg.set_content(html, subtype="html")
    assert same(read(msg.as_bytes()), submission(("BUY PRR",), notes=("read from the HTML part",)))


def test_base64_body() -> None:
    encoded = base64.encodebytes("BUY PRR\nZÜRICH\n".encode("utf-8")).decode("ascii")
    head = BASE_HEAD + (
        'MIME-Version: 1.0\nContent-Type: text/plain; charset="utf-8"\n'
        "Content-Transfer-Encoding: base64\n"
    )
    assert same(read(raw_mail(head, encoded.encode("ascii"))), submission(("BUY PRR", "ZÜRICH")))


def test_quoted_printable_body_with_soft_breaks() -> None:
    head = BASE_HEAD + (
        "MIME-Version: 1.0\nContent-Type: text/plain; charset=iso-8859-1\n"
        "Content-Transfer-Encoding: quoted-printable\n"
    )
    body = b"BUY PRR=\n AND PAR=3D67\nZ=FCrich =A350\n"
    assert same(read(raw_mail(head, body)), submission(("BUY PRR AND PAR=67", "Zürich £50")))


def test_eight_bit_utf8_without_charset() -> None:
    raw = raw_mail(BASE_HEAD, "BUY PRR\nZürich £50\n".encode("utf-8"))
    assert same(read(raw), submission(("BUY PRR", "Zürich £50")))


def test_eight_bit_cp1252_without_charset() -> None:
    raw = raw_mail(BASE_HEAD, "BUY PRR\nZürich £50 – ok\n".encode("cp1252"))
    assert same(read(raw), submission(("BUY PRR", "Zürich £50 – ok")))


def test_mislabelled_charset_falls_back() -> None:
    head = BASE_HEAD + "Content-Type: text/plain; charset=us-ascii\n"
    raw = raw_mail(head, "Zürich\n".encode("utf-8"))
    assert same(read(raw), submission(("Zürich",)))


def test_unknown_charset() -> None:
    head = BASE_HEAD + "MIME-Version: 1.0\nContent-Type: text/plain; charset=x-unknown\n"
    assert read(raw_mail(head, b"BUY PRR\n")) == unreadable(
        "unknown_charset", "the charset 'x-unknown' is unknown"
    )


def test_attachment_only() -> None:
    outer = MIMEMultipart("mixed")
    outer["From"] = ALICE
    outer["Subject"] = SUBJECT
    outer["Message-ID"] = MID
    pdf = MIMEApplication(b"%PDF-1.4 ...", "pdf")
    pdf.add_header("Content-Disposition", "attachment", filename="orders.pdf")
    outer.attach(pdf)
    assert read(outer.as_bytes()) == unreadable(
        "attachment_only", "the message has no text body, only attachments: orders.pdf"
    )


def test_text_plain_attachment_is_read() -> None:
    outer = MIMEMultipart("mixed")
    outer["From"] = ALICE
    outer["Subject"] = SUBJECT
    outer["Message-ID"] = MID
    text = MIMEText("BUY PRR\nPASSWORD pw1\nPASS\n", "plain", "utf-8")
    text.add_header("Content-Disposition", "attachment", filename="orders.txt")
    outer.attach(text)
    assert same(read(outer.as_bytes()), submission(
        ("BUY PRR", "PASS"), secret="pw1", notes=("read from the attachment orders.txt",)
    ))


def test_text_attachment_is_read_when_the_body_has_no_orders() -> None:
    msg = EmailMessage()
    msg["From"] = ALICE
    msg["Subject"] = SUBJECT
    msg["Message-ID"] = MID
    msg.set_content("-- \nAlice\n")
    msg.add_attachment("BUY PRR\n", filename="orders.txt")
    assert same(read(msg.as_bytes()), submission(
        ("BUY PRR",), notes=("read from the attachment orders.txt",)
    ))


def test_missing_boundary_is_malformed() -> None:
    head = BASE_HEAD + "MIME-Version: 1.0\nContent-Type: multipart/mixed\n"
    assert read(raw_mail(head, b"--xyz\nContent-Type: text/plain\n\nBUY PRR\n")) == unreadable(
        "malformed_mime",
        "the MIME structure is broken (NoBoundaryInMultipartDefect), "
        "so no text part can be found",
    )


def test_boundary_not_found_is_malformed() -> None:
    head = BASE_HEAD + 'MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary="abc"\n'
    assert read(raw_mail(head, b"BUY PRR\n")) == unreadable(
        "malformed_mime",
        "the MIME structure is broken (StartBoundaryNotFoundDefect), "
        "so no text part can be found",
    )


def test_header_line_without_colon_is_malformed() -> None:
    raw = b"From: alice@example.org\nMessage-ID: <m2@x>\nthis is no header\n\nBUY PRR\n"
    assert read(raw) == Unreadable(
        message_id="<m2@x>",
        sender="alice@example.org",
        subject="",
        game_tag=None,
        kind="malformed_mime",
        reason="a header line cannot be parsed (MissingHeaderBodySeparatorDefect)",
    )


def test_garbage_base64_is_malformed() -> None:
    head = BASE_HEAD + "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n"
    assert read(raw_mail(head, b"!!!!\n")) == unreadable(
        "malformed_mime", "the base64 body cannot be decoded"
    )


def test_deeply_nested_parts_are_malformed() -> None:
    nest = b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(40)
    )
    raw = BASE_HEAD.encode() + nest + b"Content-Type: text/plain\n\nBUY PRR\n"
    assert read(raw) == unreadable(
        "malformed_mime", "the MIME parts are nested more than 32 deep"
    )


def test_nesting_beyond_the_parsers_recursion_limit() -> None:
    nest = b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(1500)
    )
    raw = BASE_HEAD.encode() + nest + b"Content-Type: text/plain\n\nBUY PRR\n"
    assert read(raw) == unreadable(
        "malformed_mime", "the MIME parts are nested too deeply (more than 64 multipart parts)"
    )


# -- headers: sender, subject, Message-ID, size ----------------------------------------------


def test_no_from_header() -> None:
    raw = b"Subject: [demo-1830] Orders\nMessage-ID: <m3@x>\n\nBUY PRR\n"
    assert read(raw) == Unreadable(
        message_id="<m3@x>",
        sender=None,
        subject="[demo-1830] Orders",
        game_tag="demo-1830",
        kind="no_sender",
        reason="the message has no From address",
    )


def test_from_without_an_address() -> None:
    raw = b"From: Alice\nMessage-ID: <m3@x>\n\nBUY PRR\n"
    assert read(raw) == Unreadable(
        message_id="<m3@x>",
        sender=None,
        subject="",
        game_tag=None,
        kind="no_sender",
        reason="the From header 'Alice' has no usable address",
    )


def test_quoted_local_part_is_an_address() -> None:
    raw = b'From: "alice smith"@example.org\nMessage-ID: <m3@x>\n\nPASS\n'
    result = read(raw)
    assert isinstance(result, Submission)
    assert result.sender == '"alice smith"@example.org'


def test_from_header_that_the_stdlib_cannot_parse() -> None:
    raw = b'From: alice@example.org, "\nMessage-ID: <m3@x>\n\nBUY PRR\n'
    try:
        email.message_from_bytes(raw, policy=email.policy.default)["From"].addresses
    except IndexError:
        pass
    else:  # pragma: no cover - depends on the Python version
        pytest.skip("this Python parses the header")
    assert read(raw) == Unreadable(
        message_id="<m3@x>",
        sender="alice@example.org",
        subject="",
        game_tag=None,
        kind="malformed_mime",
        reason="the From header cannot be parsed (IndexError)",
    )


def test_missing_message_id_uses_the_hash_of_the_raw_bytes() -> None:
    raw = b"From: ALICE@Example.ORG\n\nBUY PRR\n"
    digest = hashlib.sha256(raw).hexdigest()
    assert read(raw) == Submission(
        message_id=f"<{digest}@pbem.invalid>",
        sender="alice@example.org",
        sender_name="",
        subject="",
        game_tag=None,
        secret=None,
        body=(BodyLine(1, "BUY PRR", True),),
    )


def test_message_id_is_stripped_and_bracketed() -> None:
    raw = b"From: alice@example.org\nMessage-ID:\n   abc@host  \n\nBUY PRR\n"
    result = read(raw)
    assert isinstance(result, Submission)
    assert result.message_id == "<abc@host>"


def test_encoded_headers_are_decoded() -> None:
    raw = (
        b"From: =?utf-8?q?J=C3=BCrgen?= <juergen@example.org>\n"
        b"Subject: =?utf-8?q?Re=3A_=5Bdemo-1830=5D_Z=C3=BCge?=\n"
        b"Message-ID: <m4@x>\n\nBUY PRR\n"
    )
    assert read(raw) == Submission(
        message_id="<m4@x>",
        sender="juergen@example.org",
        sender_name="Jürgen",
        subject="Re: [demo-1830] Züge",
        game_tag="demo-1830",
        secret=None,
        body=(BodyLine(1, "BUY PRR", True),),
    )


def test_raw_utf8_in_headers_is_decoded() -> None:
    raw = "From: Jürgen <juergen@example.org>\nSubject: [g1] Züge\nMessage-ID: <m5@x>\n\nPASS\n"
    assert read(raw.encode("utf-8")) == Submission(
        message_id="<m5@x>",
        sender="juergen@example.org",
        sender_name="Jürgen",
        subject="[g1] Züge",
        game_tag="g1",
        secret=None,
        body=(BodyLine(1, "PASS", True),),
    )


@pytest.mark.parametrize(
    ("subject", "tag"),
    [
        ("Re: [demo-1830] Orders", "demo-1830"),
        ("[ demo-1830 ]", "demo-1830"),
        ("Re[2]: [g7] Orders", "g7"),
        ("AW[3]: Fwd: [1830 #4] x", "1830 #4"),
        ("[Fwd: old] [g2] x", "g2"),
        ("[] [g3]", "g3"),
        ("Orders", None),
        ("", None),
    ],
)
def test_game_tag(subject: str, tag: str | None) -> None:
    result = read(plain("PASS\n", subject=subject))
    assert isinstance(result, Submission)
    assert (result.subject, result.game_tag) == (subject, tag)


@pytest.mark.parametrize(
    ("subject", "tags"),
    [
        ("[URGENT] [my-game] orders", ["URGENT", "my-game"]),
        ("Re[2]: [Fwd: x] [ a ] [] [b]", ["a", "b"]),
        ("Re: [g1] Orders", ["g1"]),
        ("Orders", []),
    ],
)
def test_game_tags_lists_every_tag_in_order(subject: str, tags: list[str]) -> None:
    assert game_tags(subject) == tags
    result = read(plain("PASS\n", subject=subject))
    assert isinstance(result, Submission) and result.game_tag == (tags[0] if tags else None)


def test_oversize_is_refused_before_the_body() -> None:
    raw = plain("PASS\n" * 100)
    assert read(raw, max_bytes=200) == unreadable(
        "oversize", f"the message has {len(raw)} bytes, more than the limit of 200"
    )


def test_oversize_bounce_is_still_ignored() -> None:
    raw = plain("x\n" * 100, headers={"Auto-Submitted": "auto-replied"})
    assert read(raw, max_bytes=200) == Ignored(
        message_id=MID, sender="alice@example.org", reason="Auto-Submitted: auto-replied"
    )


# -- auto-mail --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ({"Return-Path": "<>"}, "Return-Path: <> (a bounce or notification)"),
        ({"Auto-Submitted": "auto-replied"}, "Auto-Submitted: auto-replied"),
        ({"Auto-Submitted": "auto-generated"}, "Auto-Submitted: auto-generated"),
        (
            {"Auto-Submitted": "auto-notified; owner-email=x@y"},
            "Auto-Submitted: auto-notified; owner-email=x@y",
        ),
        ({"Precedence": "bulk"}, "Precedence: bulk"),
        ({"Precedence": "List"}, "Precedence: List"),
        ({"Precedence": "junk"}, "Precedence: junk"),
        ({"Precedence": "auto_reply"}, "Precedence: auto_reply"),
        ({"X-Autoreply": "yes"}, "X-Autoreply header present"),
        ({"X-Autorespond": "yes"}, "X-Autorespond header present"),
        ({"X-Autogenerated": "Reply"}, "X-Autogenerated header present"),
        ({"X-Loop": "x@y"}, "X-Loop header present"),
        ({"List-Id": "<games.example.org>"}, "List-Id header present"),
        ({"List-Unsubscribe": "<mailto:u@x>"}, "List-Unsubscribe header present"),
        ({"X-PBEM-Server": "pbem-1"}, "X-PBEM-Server header present (our own mail)"),
    ],
)
def test_auto_mail_headers_are_ignored(headers: dict[str, str], reason: str) -> None:
    assert read(plain("BUY PRR\n", headers=headers)) == Ignored(
        message_id=MID, sender="alice@example.org", reason=reason
    )


@pytest.mark.parametrize(
    ("headers"),
    [{"Auto-Submitted": "no"}, {"Precedence": "first-class"}, {"X-Auto-Response-Suppress": "All"}],
)
def test_harmless_headers_are_not_auto_mail(headers: dict[str, str]) -> None:
    assert same(read(plain("BUY PRR\n", headers=headers)), submission(("BUY PRR",)))


def test_custom_marker_header() -> None:
    raw = plain("BUY PRR\n", headers={"X-My-Server": "a"})
    assert read(raw, marker_header="X-My-Server") == Ignored(
        message_id=MID,
        sender="alice@example.org",
        reason="X-My-Server header present (our own mail)",
    )


@pytest.mark.parametrize(
    "sender",
    ["MAILER-DAEMON@mx.example.org", "postmaster@x.org", "No-Reply@x.org", "noreply@x.org"],
)
def test_robot_senders_are_ignored(sender: str) -> None:
    msg = EmailMessage()
    msg["From"] = sender
    msg["Message-ID"] = MID
    msg.set_content("BUY PRR\n")
    assert read(msg.as_bytes()) == Ignored(
        message_id=MID,
        sender=sender.lower(),
        reason=f"From: {sender.lower()} (an automatic sender)",
    )


def test_our_own_address_is_ignored() -> None:
    msg = EmailMessage()
    msg["From"] = "PBEM <PBEM@example.org>"
    msg["Message-ID"] = MID
    msg.set_content("BUY PRR\n")
    assert read(msg.as_bytes()) == Ignored(
        message_id=MID,
        sender="pbem@example.org",
        reason="From: pbem@example.org (our own address)",
    )


def test_delivery_status_notification_is_ignored() -> None:
    raw = (
        b"From: Mail Delivery System <mailer@mx.example.org>\n"
        b"Message-ID: <m1@mail.example.org>\n"
        b"MIME-Version: 1.0\n"
        b'Content-Type: multipart/report; report-type=delivery-status; boundary="B"\n'
        b"\n"
        b"--B\nContent-Type: text/plain\n\nYour message could not be delivered.\n"
        b"--B\nContent-Type: message/delivery-status\n\n"
        b"Reporting-MTA: dns; mx.example.org\n\nFinal-Recipient: rfc822; bob@x\nAction: failed\n"
        b"--B--\n"
    )
    assert read(raw) == Ignored(
        message_id=MID,
        sender="mailer@mx.example.org",
        reason="Content-Type: multipart/report (a delivery or read report)",
    )


def test_read_receipt_part_inside_a_mixed_mail_is_ignored() -> None:
    outer = MIMEMultipart("mixed")
    outer["From"] = ALICE
    outer["Message-ID"] = MID
    outer.attach(MIMEText("Read receipt\n"))
    mdn = MIMEText("Reporting-UA: x\n")
    mdn.replace_header("Content-Type", "message/disposition-notification")
    outer.attach(mdn)
    assert read(outer.as_bytes()) == Ignored(
        message_id=MID,
        sender="alice@example.org",
        reason="Content-Type: message/disposition-notification (a delivery or read report)",
    )


def test_bounce_without_from_is_ignored_not_unreadable() -> None:
    raw = b"Return-Path: <>\nMessage-ID: <b1@x>\n\nundeliverable\n"
    assert read(raw) == Ignored(
        message_id="<b1@x>", sender=None, reason="Return-Path: <> (a bounce or notification)"
    )


# -- never raises -----------------------------------------------------------------------------


def _check(result: object) -> None:
    assert isinstance(result, (Submission, Ignored, Unreadable))
    assert result.message_id.startswith("<") and result.message_id.endswith(">")
    # The catch-all guard of read_message must not be what saved us.
    assert not (
        isinstance(result, Unreadable)
        and result.reason.startswith("the message could not be parsed")
    ), result


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=4000))
def test_never_raises_on_arbitrary_bytes(raw: bytes) -> None:
    _check(read(raw))


def _samples() -> list[bytes]:
    msg = EmailMessage()
    msg["From"] = ALICE
    msg["Subject"] = SUBJECT
    msg["Message-ID"] = MID
    msg.set_content("BUY PRR\nZürich\n-- \nA\n")
    msg.add_alternative("<p>BUY PRR</p><blockquote>x</blockquote>", subtype="html")
    msg.add_attachment("PASS\n", filename="orders.txt")
    base64_head = BASE_HEAD + "Content-Type: text/plain\nContent-Transfer-Encoding: base64\n"
    return [
        plain("PASSWORD x\nBUY PRR\nOn Mon wrote:\n> y\n"),
        msg.as_bytes(),
        raw_mail(base64_head, base64.encodebytes(b"BUY PRR\n")),
        raw_mail(BASE_HEAD, "Zürich\n".encode("cp1252")),
    ]


SAMPLES = _samples()


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SAMPLES)))
    for _ in range(draw(st.integers(1, 8))):
        if not data:
            break
        where = draw(st.integers(0, len(data) - 1))
        action = draw(st.sampled_from(["flip", "cut", "insert", "delete", "truncate"]))
        if action == "flip":
            data[where] = draw(st.integers(0, 255))
        elif action == "insert":
            data[where:where] = draw(
                st.sampled_from(
                    [
                        b"\n", b"\r\n", b":", b"<", b">", b"=?", b"?=", b"--", b"\x00", b"\xff",
                        b"\nContent-Type: multipart/mixed\n", b";boundary=", b'"', b"\\",
                    ]
                )
            )
        elif action == "delete":
            del data[where : where + draw(st.integers(1, 40))]
        elif action == "cut":
            del data[where:]
        else:
            del data[: where]
    return bytes(data)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_never_raises_on_mutated_mail(raw: bytes) -> None:
    _check(read(raw))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_never_raises_on_arbitrary_body_text(body: str) -> None:
    _check(read(raw_mail(BASE_HEAD, body.encode("utf-8", "surrogatepass"))))


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(
        [
            "From", "Subject", "Message-ID", "Content-Type", "Return-Path",
            "Content-Transfer-Encoding", "Content-Disposition", "To", "Auto-Submitted",
        ]
    ),
    st.binary(max_size=200),
)
def test_never_raises_on_odd_header_values(name: str, value: bytes) -> None:
    raw = name.encode() + b": " + value + b"\n" + BASE_HEAD.encode() + b"\nBUY PRR\n"
    _check(read(raw))


# -- chatter, line numbers, quotes and format=flowed (the reading rules) --------------


def numbered(result: object) -> list[tuple[int, str, bool]]:
    assert isinstance(result, Submission), result
    return [(line.number, line.text, line.is_order) for line in result.body]


def test_lines_are_numbered_as_written_and_marked_as_orders_or_chatter() -> None:
    raw = plain("Hi all,\n\nPASSWORD s3cr3t\nb prr\n  SELL, 2 NYC\nPass.\nBuy me a beer\n\ncheers, Priya\n")
    result = read(raw)
    assert numbered(result) == [
        (1, "Hi all,", False),
        (4, "b prr", True),
        (5, "SELL, 2 NYC", True),
        (6, "Pass.", False),  # "PASS." is not the word PASS: chatter, listed in the reply
        (7, "Buy me a beer", True),  # its first word is an order word: an order line
        (9, "cheers, Priya", False),
    ]
    assert isinstance(result, Submission)
    assert result.lines == ("b prr", "SELL, 2 NYC", "Buy me a beer")
    assert [line.text for line in result.chatter] == ["Hi all,", "Pass.", "cheers, Priya"]


@pytest.mark.parametrize("word", ["HELP", "report", "History 2", "WIDTH 80", "undo", "ACT AS 1 PASS",
                                  "REPLACE a b@c", "pause", "Resume", "BROADCAST hi", "END GAME",
                                  "DEADLINE Friday", "BID CA 1", "par PRR 67", "T H16 57 1", "r auto",
                                  "DONE", "p", "keep", "HALF", "DISCARD 2", "bankrupt"])
def test_every_order_and_command_word_makes_an_order_line(word: str) -> None:
    assert numbered(read(plain(f"{word}\n"))) == [(1, word, True)]


def test_end_still_ends_the_reading() -> None:
    assert numbered(read(plain("Hi\nPASS\nEND\nBUY PRR\n"))) == [(1, "Hi", False), (2, "PASS", True)]


def test_a_bottom_posted_reply_is_read_below_the_quote() -> None:
    body = (
        "Hi all,\n"
        "On Mon, Dec 1, 2026 at 9:00\u202fAM PBEM Server <pbem@example.org>\n"
        "wrote:\n"
        "\n"
        "> It is your turn. You may:\n"
        ">   BUY SV\n"
        "> PASS\n"
        "\n"
        "BID CA 165\n"
        "\n"
        "cheers, Priya\n"
        "-- \n"
        "Priya\n"
    )
    assert numbered(read(plain(body))) == [
        (1, "Hi all,", False), (9, "BID CA 165", True), (11, "cheers, Priya", False),
    ]


def test_an_attribution_without_a_quote_still_ends_the_reading() -> None:
    body = "BID CA 165\nAm 01.12.2026 um 09:00 schrieb PBEM <pbem@example.org>:\nBUY SV\n"
    assert numbered(read(plain(body))) == [(1, "BID CA 165", True)]


def test_interleaved_quotes_are_skipped() -> None:
    body = "> Your turn in the auction\nBID CA 165\n>> old\n> PASS\nthanks\n"
    assert numbered(read(plain(body))) == [(2, "BID CA 165", True), (5, "thanks", False)]


def flowed(text: str, delsp: str | None = None) -> bytes:
    params = "; format=flowed" + (f"; delsp={delsp}" if delsp else "")
    head = BASE_HEAD + f"MIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8{params}\n"
    return raw_mail(head, text.encode("utf-8"))


def test_format_flowed_prose_that_wraps_onto_an_order_word_is_one_chatter_line() -> None:
    text = "I am not sure whether to \npass or to \nbuy this turn.\nBID CA 165\n-- \nPriya \n"
    assert numbered(read(flowed(text))) == [
        (1, "I am not sure whether to pass or to buy this turn.", False),
        (4, "BID CA 165", True),
    ]


def test_format_flowed_with_delsp_deletes_the_soft_space() -> None:
    text = "I am not sure whether to  \npass this turn or to buy some\u00adthing lo\nng.\nPASS\n"
    assert numbered(read(flowed(text, "yes"))) == [
        (1, "I am not sure whether to pass this turn or to buy some\u00adthing lo", False),
        (3, "ng.", False),
        (4, "PASS", True),
    ]
    assert numbered(read(flowed("wor \nd\nPASS\n", "yes"))) == [(1, "word", False), (3, "PASS", True)]


def test_format_flowed_space_stuffing_and_quote_depth() -> None:
    text = " From the GM: \nplease hurry\n> quoted \n> still quoted\nBID CA 165\n"
    assert numbered(read(flowed(text))) == [
        (1, "From the GM: please hurry", False), (5, "BID CA 165", True),
    ]


def test_without_format_flowed_a_trailing_space_is_no_soft_break() -> None:
    assert numbered(read(plain("I will \npass\n"))) == [(1, "I will", False), (2, "pass", True)]


def test_a_body_with_only_chatter_is_a_submission_without_orders() -> None:
    result = read(plain("Thanks for the game!\n\nPriya\n"))
    assert isinstance(result, Submission)
    assert result.orders == () and len(result.chatter) == 2


def test_an_attachment_is_read_when_the_body_has_only_chatter() -> None:
    msg = EmailMessage()
    msg["From"] = ALICE
    msg["Subject"] = SUBJECT
    msg["Message-ID"] = MID
    msg.set_content("Hi, my orders are attached.\nPASSWORD pw1\nAlice\n")
    msg.add_attachment("BUY PRR\n", filename="orders.txt")
    result = read(msg.as_bytes())
    assert numbered(result) == [(1, "BUY PRR", True)]
    assert isinstance(result, Submission)
    assert result.secret == "pw1" and result.notes == ("read from the attachment orders.txt",)


def test_the_protected_subject_of_a_pgp_mail_names_the_game() -> None:
    head = BASE_HEAD.replace(SUBJECT, "...") + (
        'MIME-Version: 1.0\nContent-Type: multipart/signed; protocol="application/pgp-signature"; '
        'micalg=pgp-sha256; boundary="s"\n'
    )
    body = (
        '--s\nContent-Type: multipart/mixed; boundary="m"; protected-headers="v1"\n'
        "Subject: [G1] Orders\n\n--m\nContent-Type: text/plain\n\nPASS\n--m--\n"
        '--s\nContent-Type: application/pgp-signature; name="sig.asc"\n\nxx\n--s--\n'
    )
    result = read(raw_mail(head, body.encode()))
    assert isinstance(result, Submission)
    assert (result.subject, result.game_tag, result.lines) == ("[G1] Orders", "G1", ("PASS",))


@pytest.mark.parametrize(("subject", "tags"), [
    ("RE: Fwd: Re: [My-Game] x", ["My-Game"]),
    ("re [2] [g1]", ["g1"]),
    ("RE[12]: [G1]", ["G1"]),
    ("SV[1]: [g1]", ["g1"]),
    ("SV: [1] [g1]", ["1", "g1"]),
    ("[1] [g1]", ["1", "g1"]),
])
def test_game_tags_are_read_case_insensitively_and_kept_as_written(subject: str, tags: list[str]) -> None:
    assert game_tags(subject) == tags


def test_the_line_limit_is_reported_as_cut_at() -> None:
    result = read(plain("Hi\n" + "PASS\n" * 10), max_lines=4)
    assert isinstance(result, Submission)
    assert result.cut_at == 4 and len(result.body) == 4
    assert isinstance(read(plain("PASS\n" * 4), max_lines=4), Submission)
    assert read(plain("PASS\n" * 4), max_lines=4).cut_at is None  # type: ignore[union-attr]


# -- time: linear in the mail, whatever its shape --------------------------------------------


def _pathological() -> dict[str, bytes]:
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "pathological_mail.py"
    spec = importlib.util.spec_from_file_location("pathological_mail", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.pathological_mails()  # type: ignore[no-any-return]


PATHOLOGICAL = _pathological()


@pytest.mark.parametrize("name", list(PATHOLOGICAL))
def test_pathological_mails_at_the_size_limit_are_read_quickly(name: str) -> None:
    raw = PATHOLOGICAL[name]
    assert len(raw) <= 262144
    start = time.perf_counter()
    result = read(raw)
    assert time.perf_counter() - start < 2.0, name  # ~0.1 s here; 2 s leaves room for slow CI
    assert isinstance(result, (Submission, Unreadable))


def test_a_subject_of_repeated_counters_is_read_in_linear_time() -> None:
    # The quadratic reading took 30 s for this Subject of 48 KB.
    subject = "[g1] " + "[1]" * 16000
    start = time.perf_counter()
    assert game_tags(subject) == ["g1"] + ["1"] * 16000
    assert game_tags("Re" + "[2]" * 16000 + " [g1]")[-1] == "g1"
    assert time.perf_counter() - start < 2.0
