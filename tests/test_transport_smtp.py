"""SmtpOutbound against the aiosmtpd → Dovecot LMTP relay and small scripted SMTP servers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import Any

import aiosmtplib
import pytest
from aiosmtpd.controller import Controller

from pbem.transport.base import PermanentSendError, TransientSendError
from pbem.transport.smtp import SmtpOutbound
from tests.mailservers import MailServers, MailUser, _free_port


def report(to: str, *, cc: str | None = None) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "Game Master <game@pbem.example>"
    msg["To"] = to
    if cc:
        msg["Cc"] = cc
    msg["Subject"] = "[Game 3] Operating round 1.1 — your turn"
    msg["Message-ID"] = f"<or-{time.time_ns()}@pbem.example>"
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content("PRR runs 2 trains for 80.\nZürich → Genève.\n")
    return msg


def plain(servers: MailServers, **kw: Any) -> SmtpOutbound:
    return SmtpOutbound(servers.host, servers.smtp_port, security="plain", timeout=5.0, **kw)


def parse(raw: bytes) -> EmailMessage:
    return BytesParser(policy=policy.default).parsebytes(raw)


def test_send_lands_in_the_imap_inbox(mail_servers: MailServers, mail_user: MailUser) -> None:
    asyncio.run(plain(mail_servers).send(report(mail_user.address)))
    [raw] = mail_servers.fetch_all(mail_user.name, mail_user.password)
    got = parse(raw)
    assert got["Subject"] == "[Game 3] Operating round 1.1 — your turn"
    assert got["Return-Path"] == "<game@pbem.example>"
    assert "Zürich → Genève." in got.get_content()


def test_envelope_sender_null_and_bounce_address(mail_servers: MailServers, mail_user: MailUser) -> None:
    asyncio.run(plain(mail_servers, envelope_sender="").send(report(mail_user.address)))
    asyncio.run(plain(mail_servers, envelope_sender="bounces+g3@pbem.example").send(report(mail_user.address)))
    first, second = (parse(r) for r in mail_servers.fetch_all(mail_user.name, mail_user.password))
    assert first["Return-Path"] == "<>"  # RFC 3834 null sender
    assert second["Return-Path"] == "<bounces+g3@pbem.example>"


def test_nothing_listening_is_transient() -> None:
    out = SmtpOutbound("127.0.0.1", _free_port(), security="plain", timeout=2.0)
    start = time.monotonic()
    with pytest.raises(TransientSendError) as info:
        asyncio.run(out.send(report("a@localhost")))
    assert time.monotonic() - start < 1.5  # refused, not timed out
    assert isinstance(info.value.__cause__, aiosmtplib.SMTPConnectError)


def test_unknown_user_through_the_relay_is_permanent(mail_servers: MailServers) -> None:
    # The relay accepts RCPT, Dovecot LMTP refuses the user, the relay answers DATA with it.
    with pytest.raises(PermanentSendError) as info:
        asyncio.run(plain(mail_servers).send(report("nosuch@localhost")))
    cause = info.value.__cause__
    assert isinstance(cause, aiosmtplib.SMTPDataError) and cause.code == 550
    assert "5.1.1" in str(info.value)


# -- scripted servers -------------------------------------------------------------------


class Scripted:
    """aiosmtpd handler answering RCPT and DATA as told; records accepted recipients."""

    def __init__(self, rcpt: dict[str, str] | None = None, data: str = "250 OK") -> None:
        self.rcpt = rcpt or {}
        self.data = data
        self.delivered: list[list[str]] = []

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        reply = self.rcpt.get(address, "250 OK")
        if reply.startswith("250"):
            envelope.rcpt_tos.append(address)
        return reply

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.data.startswith("250"):
            self.delivered.append(list(envelope.rcpt_tos))
        return self.data


@pytest.fixture
def scripted() -> Iterator[tuple[Scripted, int]]:
    handler = Scripted()
    port = _free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def send_to(port: int, msg: EmailMessage, security: str = "plain") -> None:
    asyncio.run(SmtpOutbound("127.0.0.1", port, security=security, timeout=3.0).send(msg))  # type: ignore[arg-type]


def test_all_recipients_refused_with_5xx_is_permanent(scripted: tuple[Scripted, int]) -> None:
    handler, port = scripted
    handler.rcpt = {"a@x.org": "550 5.1.1 no such user", "b@x.org": "553 5.1.3 bad address"}
    with pytest.raises(PermanentSendError) as info:
        send_to(port, report("a@x.org", cc="b@x.org"))
    assert isinstance(info.value.__cause__, aiosmtplib.SMTPRecipientsRefused)
    assert "a@x.org: 550" in str(info.value) and "b@x.org: 553" in str(info.value)


def test_all_recipients_deferred_with_4xx_is_transient(scripted: tuple[Scripted, int]) -> None:
    handler, port = scripted
    handler.rcpt = {"a@x.org": "450 4.2.1 mailbox busy"}
    with pytest.raises(TransientSendError):
        send_to(port, report("a@x.org"))


def test_4xx_at_data_is_transient_and_5xx_permanent(scripted: tuple[Scripted, int]) -> None:
    handler, port = scripted
    handler.data = "451 4.3.0 try again later"
    with pytest.raises(TransientSendError):
        send_to(port, report("a@x.org"))
    handler.data = "554 5.6.0 message refused"
    with pytest.raises(PermanentSendError):
        send_to(port, report("a@x.org"))
    assert handler.delivered == []
    handler.data = "250 OK"
    send_to(port, report("a@x.org", cc="b@x.org"))
    assert handler.delivered == [["a@x.org", "b@x.org"]]


def test_partial_refusal_is_permanent_and_names_the_refused(scripted: tuple[Scripted, int]) -> None:
    handler, port = scripted
    handler.rcpt = {"b@x.org": "550 5.1.1 no such user"}
    with pytest.raises(PermanentSendError) as info:
        send_to(port, report("a@x.org", cc="b@x.org"))
    assert handler.delivered == [["a@x.org"]]  # a@ got it: a retry would duplicate
    assert "b@x.org: 550" in str(info.value)


def test_tls_modes_against_a_plain_server_are_transient(scripted: tuple[Scripted, int]) -> None:
    _handler, port = scripted
    with pytest.raises(TransientSendError):  # STARTTLS required but not offered
        send_to(port, report("a@x.org"), security="starttls")
    with pytest.raises(TransientSendError):  # TLS handshake against a plain-text greeting
        send_to(port, report("a@x.org"), security="tls")


def test_constructor_validates() -> None:
    with pytest.raises(ValueError):
        SmtpOutbound("h", 25, security="ssl")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SmtpOutbound("h", 25, security="plain", username="u")
