"""ImapInbound against a real Dovecot, with mail delivered over SMTP → LMTP."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Awaitable, Callable
from email.message import EmailMessage
from typing import TypeVar

import pytest
from aioimaplib import aioimaplib

from pbem.transport.base import Envelope
from pbem.transport.imap import (
    ImapAuthenticationError,
    ImapConnectionError,
    ImapInbound,
    make_key,
    parse_key,
    parse_search,
)
from pbem.transport.smtp import SmtpOutbound
from tests.mailservers import MailServers, MailUser

T = TypeVar("T")


def order_mail(to: str, n: int) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = f"player{n}@example.org"
    msg["To"] = to
    msg["Subject"] = f"orders {n}"
    msg["Message-ID"] = f"<orders-{n}-{time.time_ns()}@example.org>"
    msg.set_content(f"BUY PRR {n}\n")
    return msg


def run(servers: MailServers, user: MailUser, body: Callable[[ImapInbound, SmtpOutbound], Awaitable[T]], **kw: object) -> T:
    """Connect an ImapInbound for ``user``, run ``body``, always close."""

    async def main() -> T:
        inbound = ImapInbound(
            servers.host, servers.imap_port, user.name, user.password, ssl=False, timeout=5.0, **kw  # type: ignore[arg-type]
        )
        smtp = SmtpOutbound(servers.host, servers.smtp_port, security="plain", timeout=5.0)
        await inbound.connect()
        try:
            return await body(inbound, smtp)
        finally:
            await inbound.close()

    return asyncio.run(main())


def test_connect_creates_folders_and_selects(mail_servers: MailServers, mail_user: MailUser) -> None:
    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        assert inbound.connected
        assert inbound.uidvalidity is not None and inbound.uidvalidity > 0
        assert {"MOVE", "UIDPLUS", "IDLE"} <= inbound.capabilities

    run(mail_servers, mail_user, body)
    assert set(mail_servers.mailboxes(mail_user.name, mail_user.password)) == {
        "INBOX",
        "Processed",
        "Rejected",
        "Ignored",
    }
    run(mail_servers, mail_user, body)  # folders exist now: connect again must not fail


def test_smtp_to_inbox_fetch_settle_refetch(mail_servers: MailServers, mail_user: MailUser) -> None:
    s, u = mail_servers, mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> list[Envelope]:
        assert await inbound.fetch() == []
        await smtp.send(order_mail(u.address, 1))
        await smtp.send(order_mail(u.address, 2))
        assert len(s.fetch_all(u.name, u.password)) == 2  # landed in the real INBOX
        first = await inbound.fetch()
        assert [e.key for e in first] == [make_key("INBOX", inbound.uidvalidity or 0, uid) for uid in (1, 2)]
        assert b"Subject: orders 1" in first[0].raw and b"BUY PRR 1" in first[0].raw
        assert first[0].raw.startswith(b"Return-Path: <player1@example.org>")
        await inbound.settle(first[0], "processed")
        await inbound.settle(first[0], "processed")  # idempotent
        await inbound.settle(first[1], "rejected")
        assert await inbound.fetch() == []
        return first

    envelopes = run(s, u, body)
    assert s.fetch_all(u.name, u.password) == []
    assert s.fetch_all(u.name, u.password, "Processed") == [envelopes[0].raw]
    assert s.fetch_all(u.name, u.password, "Rejected") == [envelopes[1].raw]
    assert s.fetch_all(u.name, u.password, "Ignored") == []


def test_a_batch_takes_the_players_mail_before_strangers(mail_servers: MailServers, mail_user: MailUser) -> None:
    """Issue 22: a backlog larger than a batch gives the players' mail (From accepted by
    ``first``) first, each group in arrival order; a batch holding everything keeps arrival."""
    s, u = mail_servers, mail_user
    players = {"player4@example.org", "player5@example.org"}

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> tuple[list[bytes], list[bytes]]:
        for n in (1, 4, 2, 5, 3):  # strangers 1-3, players 4-5, interleaved
            await smtp.send(order_mail(u.address, n))
        for _ in range(50):  # LMTP delivery is asynchronous
            if len(s.fetch_all(u.name, u.password)) == 5:
                break
            await asyncio.sleep(0.05)
        batch = await inbound.fetch(limit=3, first=lambda sender: sender in players)
        everything = await inbound.fetch(limit=10, first=lambda sender: sender in players)
        return [e.raw for e in batch], [e.raw for e in everything]

    batch, everything = run(s, u, body)
    subjects = [next(line for line in raw.splitlines() if line.startswith(b"Subject:")) for raw in batch]
    assert subjects == [b"Subject: orders 4", b"Subject: orders 5", b"Subject: orders 1"]
    assert [next(line for line in raw.splitlines() if line.startswith(b"Subject:")) for raw in everything] == \
        [f"Subject: orders {n}".encode() for n in (1, 4, 2, 5, 3)]


def test_fetch_does_not_mark_seen(mail_servers: MailServers, mail_user: MailUser) -> None:
    s, u = mail_servers, mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        await smtp.send(order_mail(u.address, 1))
        assert len(await inbound.fetch()) == 1

    run(s, u, body)
    import imaplib

    with imaplib.IMAP4(s.host, s.imap_port) as imap:
        imap.login(u.name, u.password)
        imap.select("INBOX", readonly=True)
        assert imap.uid("SEARCH", "UNSEEN")[1][0].split() == [b"1"]


def test_settle_without_move_uses_copy_and_uid_expunge(mail_servers: MailServers, mail_user: MailUser) -> None:
    s, u = mail_servers, mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        assert "MOVE" not in inbound.capabilities and "UIDPLUS" in inbound.capabilities
        await smtp.send(order_mail(u.address, 1))
        [env] = await inbound.fetch()
        await inbound.settle(env, "ignored")
        await inbound.settle(env, "ignored")
        assert await inbound.fetch() == []

    run(s, u, body, ignore_capabilities={"MOVE"})
    assert s.fetch_all(u.name, u.password) == []
    assert len(s.fetch_all(u.name, u.password, "Ignored")) == 1


def test_settle_without_move_or_uidplus_flags_keyword(mail_servers: MailServers, mail_user: MailUser) -> None:
    s, u = mail_servers, mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        await smtp.send(order_mail(u.address, 1))
        await smtp.send(order_mail(u.address, 2))
        first, second = await inbound.fetch()
        await inbound.settle(first, "processed")
        await inbound.settle(first, "processed")  # keyword already set: no second copy
        assert [e.key for e in await inbound.fetch()] == [second.key]

    run(s, u, body, ignore_capabilities={"MOVE", "UIDPLUS"})
    assert len(s.fetch_all(u.name, u.password)) == 2  # still there, but flagged
    assert len(s.fetch_all(u.name, u.password, "Processed")) == 1
    import imaplib

    with imaplib.IMAP4(s.host, s.imap_port) as imap:
        imap.login(u.name, u.password)
        imap.select("INBOX", readonly=True)
        flags = imap.uid("FETCH", "1", "(FLAGS)")[1][0]
        assert b"$PbemProcessed" in flags and b"\\Seen" in flags


def test_settle_of_another_uidvalidity_is_a_no_op(mail_servers: MailServers, mail_user: MailUser) -> None:
    s, u = mail_servers, mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        await smtp.send(order_mail(u.address, 1))
        [env] = await inbound.fetch()
        stale = Envelope(env.raw, make_key("INBOX", (inbound.uidvalidity or 0) + 1, 1))
        await inbound.settle(stale, "processed")
        assert await inbound.fetch() == [env]
        with pytest.raises(ValueError):
            await inbound.settle(Envelope(env.raw, make_key("Other", inbound.uidvalidity or 0, 1)), "processed")

    run(s, u, body)
    assert s.fetch_all(u.name, u.password, "Processed") == []


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["dropped", "bye"])
def test_reconnects_after_the_server_session_dies(mail_servers: MailServers, mail_user: MailUser, sig: int) -> None:
    s, u = mail_servers, mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        await smtp.send(order_mail(u.address, 1))
        [env] = await inbound.fetch()
        assert s.kill_imap_processes(sig) >= 1
        await smtp.send(order_mail(u.address, 2))
        got = await inbound.fetch()  # reconnects, same UIDVALIDITY
        assert [e.key for e in got] == [env.key, make_key("INBOX", inbound.uidvalidity or 0, 2)]
        assert s.kill_imap_processes(sig) >= 1
        await inbound.settle(got[0], "processed")  # reconnects too
        assert [e.key for e in await inbound.fetch()] == [got[1].key]
        assert inbound.reconnects == 2

    run(s, u, body)
    assert len(s.fetch_all(u.name, u.password, "Processed")) == 1


def test_wait_for_new_returns_soon_after_delivery_with_idle(mail_servers: MailServers, mail_user: MailUser) -> None:
    u = mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> float:
        assert await inbound.fetch() == []

        async def deliver_later() -> None:
            await asyncio.sleep(0.2)
            await smtp.send(order_mail(u.address, 1))

        task = asyncio.create_task(deliver_later())
        start = time.monotonic()
        await inbound.wait_for_new(10.0)
        elapsed = time.monotonic() - start
        await task
        assert len(await inbound.fetch()) == 1
        return elapsed

    elapsed = run(mail_servers, u, body)
    assert 0.2 <= elapsed < 3.0  # Dovecot's IDLE notify delay is about 0.5 s


def test_wait_for_new_times_out_or_returns_at_once(mail_servers: MailServers, mail_user: MailUser) -> None:
    u = mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        await inbound.fetch()
        start = time.monotonic()
        await inbound.wait_for_new(0.5)
        assert 0.45 <= time.monotonic() - start < 2.0
        await smtp.send(order_mail(u.address, 1))  # arrives between fetch and wait
        start = time.monotonic()
        await inbound.wait_for_new(10.0)
        assert time.monotonic() - start < 0.5
        assert len(await inbound.fetch()) == 1  # the connection is still usable after IDLE

    run(mail_servers, u, body)


def test_fetch_and_close_interrupt_idle(mail_servers: MailServers, mail_user: MailUser) -> None:
    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        await inbound.fetch()
        waiter = asyncio.create_task(inbound.wait_for_new(30.0))
        await asyncio.sleep(0.2)  # now in IDLE
        start = time.monotonic()
        assert await inbound.fetch() == []
        await asyncio.wait_for(waiter, 2.0)
        assert time.monotonic() - start < 1.0
        waiter = asyncio.create_task(inbound.wait_for_new(30.0))
        await asyncio.sleep(0.2)
        await inbound.close()
        await asyncio.wait_for(waiter, 2.0)
        assert not inbound.connected
        await inbound.close()  # twice is fine

    run(mail_servers, mail_user, body)


def test_wait_for_new_reconnects_on_bye_during_idle(mail_servers: MailServers, mail_user: MailUser) -> None:
    s, u = mail_servers, mail_user

    async def body(inbound: ImapInbound, smtp: SmtpOutbound) -> None:
        await inbound.fetch()
        waiter = asyncio.create_task(inbound.wait_for_new(10.0))
        await asyncio.sleep(0.2)
        assert s.kill_imap_processes(signal.SIGTERM) >= 1  # "* BYE Server shutting down."
        await asyncio.sleep(0.2)
        await smtp.send(order_mail(u.address, 1))
        await asyncio.wait_for(waiter, 5.0)
        assert inbound.reconnects == 1
        assert len(await inbound.fetch()) == 1

    run(s, u, body)


def test_wrong_password_raises_authentication_error(mail_servers: MailServers, mail_user: MailUser) -> None:
    async def main() -> None:
        inbound = ImapInbound(mail_servers.host, mail_servers.imap_port, mail_user.name, "wrong", ssl=False, timeout=5)
        with pytest.raises(ImapAuthenticationError):
            await inbound.connect()
        await inbound.close()

    asyncio.run(main())


def test_unreachable_server_raises_connection_error_after_retries(mail_servers: MailServers) -> None:
    from tests.mailservers import _free_port

    async def main() -> float:
        inbound = ImapInbound(
            "127.0.0.1", _free_port(), "x", "y", ssl=False, timeout=2, reconnect_attempts=3, reconnect_backoff=0.05
        )
        start = time.monotonic()
        with pytest.raises(ImapConnectionError):
            await inbound.connect()
        return time.monotonic() - start

    assert asyncio.run(main()) < 2.0  # refused at once; back-off 0.05 + 0.1 s


def test_parse_helpers() -> None:
    assert parse_key(make_key("INBOX", 1700000000, 42)) == ("INBOX", 1700000000, 42)
    assert parse_key("imap:Orders:Game 1:7:3") == ("Orders:Game 1", 7, 3)
    with pytest.raises(ValueError):
        parse_key("maildir:123")
    with pytest.raises(ValueError):
        parse_key("imap:INBOX:x:3")
    assert parse_search(aioimaplib.Response("OK", [b"3 4 10", b"Search completed (0.001 + 0.000 secs)."])) == [3, 4, 10]
    assert parse_search(aioimaplib.Response("OK", [b"", b"Search completed."])) == []
    # iCloud: only the completion text, whose "2" is not a UID.
    assert parse_search(aioimaplib.Response("OK", [b"SEARCH completed (took 2 ms)"])) == []
