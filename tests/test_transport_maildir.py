"""Maildir transports: inbox round trip, settling into Maildir++ folders, per-recipient outbox."""

from __future__ import annotations

import asyncio
import mailbox
import os
import time
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from pbem.transport.base import Envelope, PermanentSendError
from pbem.transport.maildir import (
    MaildirInbound,
    MaildirOutbound,
    deliver_to_inbox,
    recipient_folder_name,
    recipients_of,
)


def raw_message(n: int) -> bytes:
    return (
        f"From: player{n}@example.org\r\nTo: game@pbem.example\r\nSubject: orders {n}\r\n"
        f"Message-ID: <m{n}@example.org>\r\n\r\nBUY PRR {n}\r\n"
    ).encode()


def files_in(folder: Path) -> list[Path]:
    return sorted(p for sub in ("new", "cur") for p in (folder / sub).iterdir())


def connected(root: Path) -> MaildirInbound:
    inbound = MaildirInbound(root)
    asyncio.run(inbound.connect())
    return inbound


def test_connect_creates_inbox_and_maildirplusplus_folders(tmp_path: Path) -> None:
    root = tmp_path / "game"
    connected(root)
    for sub in ("new", "cur", "tmp"):
        assert (root / sub).is_dir()
    for folder in (".Processed", ".Rejected", ".Ignored"):
        assert (root / folder / "new").is_dir()
        assert (root / folder / "maildirfolder").exists()  # Maildir++ marker
    assert sorted(mailbox.Maildir(root).list_folders()) == ["Ignored", "Processed", "Rejected"]
    connected(root)  # idempotent


def test_round_trip_fetch_returns_raw_bytes_and_key(tmp_path: Path) -> None:
    inbound = connected(tmp_path)
    key = deliver_to_inbox(tmp_path, raw_message(1))
    assert key.startswith("maildir:")
    [env] = asyncio.run(inbound.fetch())
    assert env == Envelope(raw=raw_message(1), key=key)
    assert asyncio.run(inbound.fetch()) == [env]  # reading does not consume


def test_fetch_orders_by_delivery_time_then_key(tmp_path: Path) -> None:
    inbound = connected(tmp_path)
    keys = [deliver_to_inbox(tmp_path, raw_message(n)) for n in range(4)]
    base = time.time() - 100
    # Delivery times: message 2 oldest, then 0 and 3 at the same time, then 1.
    times = {0: base + 10, 1: base + 20, 2: base, 3: base + 10}
    for n, key in enumerate(keys):
        [path] = [p for p in files_in(tmp_path) if p.name.startswith(key.removeprefix("maildir:"))]
        os.utime(path, (times[n], times[n]))
    got = [e.key for e in asyncio.run(inbound.fetch())]
    tied = sorted([keys[0], keys[3]])
    assert got == [keys[2], *tied, keys[1]]


def test_fetch_sees_messages_in_cur_with_flags(tmp_path: Path) -> None:
    inbound = connected(tmp_path)
    key = deliver_to_inbox(tmp_path, raw_message(1))
    [path] = files_in(tmp_path)
    os.rename(path, tmp_path / "cur" / (path.name + ":2,S"))  # a MUA read it
    [env] = asyncio.run(inbound.fetch())
    assert env.key == key
    asyncio.run(inbound.settle(env, "rejected"))
    assert [p.name for p in files_in(tmp_path / ".Rejected")] == [path.name + ":2,S"]
    assert files_in(tmp_path) == []


@pytest.mark.parametrize(
    ("outcome", "folder"), [("processed", ".Processed"), ("rejected", ".Rejected"), ("ignored", ".Ignored")]
)
def test_settle_moves_to_the_outcome_folder(tmp_path: Path, outcome: str, folder: str) -> None:
    inbound = connected(tmp_path)
    deliver_to_inbox(tmp_path, raw_message(1))
    deliver_to_inbox(tmp_path, raw_message(2))
    first, second = asyncio.run(inbound.fetch())
    asyncio.run(inbound.settle(first, outcome))  # type: ignore[arg-type]
    moved = files_in(tmp_path / folder)
    assert [p.read_bytes() for p in moved] == [first.raw]
    assert [e.key for e in asyncio.run(inbound.fetch())] == [second.key]
    assert mailbox.Maildir(tmp_path).get_folder(folder[1:]).get_bytes(first.key.removeprefix("maildir:")) == first.raw


def test_settle_is_idempotent(tmp_path: Path) -> None:
    inbound = connected(tmp_path)
    deliver_to_inbox(tmp_path, raw_message(1))
    [env] = asyncio.run(inbound.fetch())
    asyncio.run(inbound.settle(env, "processed"))
    asyncio.run(inbound.settle(env, "processed"))
    asyncio.run(inbound.settle(env, "ignored"))  # already gone from the inbox: no-op
    assert len(files_in(tmp_path / ".Processed")) == 1
    assert files_in(tmp_path / ".Ignored") == []
    assert asyncio.run(inbound.fetch()) == []
    asyncio.run(inbound.settle(Envelope(b"", "maildir:never-existed"), "processed"))
    with pytest.raises(ValueError):
        asyncio.run(inbound.settle(Envelope(b"", "imap:INBOX:1:1"), "processed"))


def test_wait_for_new_returns_soon_after_delivery(tmp_path: Path) -> None:
    inbound = connected(tmp_path)

    async def scenario() -> float:
        await inbound.fetch()

        async def deliver_later() -> None:
            await asyncio.sleep(0.1)
            deliver_to_inbox(tmp_path, raw_message(1))

        task = asyncio.create_task(deliver_later())
        start = time.monotonic()
        await inbound.wait_for_new(5.0)
        await task
        return time.monotonic() - start

    assert 0.1 <= asyncio.run(scenario()) < 1.0


def test_wait_for_new_times_out_and_sees_unfetched_mail(tmp_path: Path) -> None:
    inbound = connected(tmp_path)

    async def timed(timeout: float) -> float:
        start = time.monotonic()
        await inbound.wait_for_new(timeout)
        return time.monotonic() - start

    asyncio.run(inbound.fetch())
    assert 0.3 <= asyncio.run(timed(0.3)) < 0.8
    deliver_to_inbox(tmp_path, raw_message(1))  # arrives between fetch and wait
    assert asyncio.run(timed(5.0)) < 0.1


def make_report(to: list[str], cc: list[str] = (), bcc: list[str] = ()) -> EmailMessage:  # type: ignore[assignment]
    msg = EmailMessage()
    msg["From"] = "game@pbem.example"
    msg["To"] = ", ".join(to)
    if cc:
        msg["Cc"] = ", ".join(cc)
    if bcc:
        msg["Bcc"] = ", ".join(bcc)
    msg["Subject"] = "[Game 7] SR 2 report"
    msg["Message-ID"] = "<report-7-2@pbem.example>"
    msg.set_content("Stock round 2: PRR par 67.\nIt is your turn — Zürich.\n")
    return msg


def test_outbound_writes_one_maildir_per_recipient(tmp_path: Path) -> None:
    out = MaildirOutbound(tmp_path)
    msg = make_report(["Alice <Alice@Example.ORG>", "bob@example.org"], cc=["carol@example.org"], bcc=["dan@example.org"])
    asyncio.run(out.send(msg))
    second = make_report(["alice@example.org"])
    second.replace_header("Message-ID", "<report-7-3@pbem.example>")
    asyncio.run(out.send(second))
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "alice@example.org",
        "bob@example.org",
        "carol@example.org",
        "dan@example.org",
    ]
    alice = mailbox.Maildir(out.folder_for("ALICE@example.org"), create=False)
    assert len(alice) == 2
    for folder, count in (("bob@example.org", 1), ("carol@example.org", 1), ("dan@example.org", 1)):
        box = mailbox.Maildir(tmp_path / folder, create=False)
        assert len(box) == count
        [raw] = [box.get_bytes(k) for k in box.keys()]
        stored = BytesParser(policy=policy.default).parsebytes(raw)
        assert stored["Subject"] == "[Game 7] SR 2 report"
        assert stored["Bcc"] is None  # never shown to the other recipients
        assert "Zürich" in stored.get_content()


def test_outbound_delivers_a_message_once_by_its_message_id(tmp_path: Path) -> None:
    """A crash between delivering a report and recording it sends it again: the copy is
    stored once, also after the player's mail program has read it (moved into ``cur/``)."""
    out = MaildirOutbound(tmp_path)
    asyncio.run(out.send(make_report(["alice@example.org"])))
    asyncio.run(out.send(make_report(["alice@example.org"])))
    folder = out.folder_for("alice@example.org")
    [delivered] = files_in(folder)
    delivered.rename(folder / "cur" / f"{delivered.name}:2,S")  # read by the mail program
    asyncio.run(out.send(make_report(["alice@example.org"])))
    assert [p.name for p in files_in(folder)] == [f"{delivered.name}:2,S"]
    assert not list((folder / "tmp").iterdir()), "nothing left in tmp/"


def test_outbound_cleans_what_a_cut_short_delivery_left_in_tmp(tmp_path: Path) -> None:
    out = MaildirOutbound(tmp_path)
    asyncio.run(out.send(make_report(["alice@example.org"])))
    tmp = out.folder_for("alice@example.org") / "tmp"
    old, fresh = tmp / "pbem-old.123", tmp / "pbem-fresh.456"
    old.write_bytes(b"half a message")
    fresh.write_bytes(b"a delivery under way")
    now = time.time()
    os.utime(old, (now - 7200, now - 7200))
    assert out.clean_tmp(now) == 1
    assert not old.exists() and fresh.exists()


def test_outbound_without_recipients_is_permanent(tmp_path: Path) -> None:
    msg = EmailMessage()
    msg["From"] = "game@pbem.example"
    msg.set_content("nobody")
    with pytest.raises(PermanentSendError):
        asyncio.run(MaildirOutbound(tmp_path).send(msg))


def test_recipient_folder_names_are_safe() -> None:
    assert recipient_folder_name("Alice.Smith@Example.ORG") == "alice.smith@example.org"
    assert recipient_folder_name("o'brien/../x@example.org") == "o_brien_.._x@example.org"
    assert recipient_folder_name(".hidden@example.org") == "_.hidden@example.org"
    assert "/" not in recipient_folder_name("a/b@c")
    assert recipients_of(make_report(["A@x.org", "a@x.org"], cc=["b@x.org"])) == ["a@x.org", "b@x.org"]


def test_the_server_cleans_the_recipients_tmp_at_start(tmp_path: Path) -> None:
    from pbem.server import Server
    from tests.test_mailroom import Table

    table = Table(tmp_path / "data")
    out = MaildirOutbound(tmp_path / "delivered")
    asyncio.run(out.send(make_report(["alice@example.org"])))
    left = out.folder_for("alice@example.org") / "tmp" / "pbem-left.1"
    left.write_bytes(b"half")
    os.utime(left, (table.clock() - 7200, table.clock() - 7200))
    asyncio.run(Server(table.room, MaildirInbound(tmp_path / "inbox"), out).start())
    assert not left.exists()


def test_fetch_reads_at_most_a_batch_and_the_players_mail_first(tmp_path: Path) -> None:
    inbound = connected(tmp_path)
    for n in (1, 2, 3, 4):
        deliver_to_inbox(tmp_path, raw_message(n))
        time.sleep(0.01)  # distinct delivery times
    players = {"player3@example.org", "player4@example.org"}.__contains__
    batch = asyncio.run(inbound.fetch(2, players))
    assert [b"orders 3" in e.raw for e in batch] == [True, False] and b"orders 4" in batch[1].raw
    assert len(asyncio.run(inbound.fetch(3))) == 3, "without a preference: oldest first, at most the limit"
    assert [b"orders 1" in e.raw for e in asyncio.run(inbound.fetch(1))] == [True]
