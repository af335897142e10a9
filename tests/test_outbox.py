"""DurableOutbox: idempotent enqueue, order, back-off, failure handling, and a real SMTP drain."""

from __future__ import annotations

import asyncio
import json
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path

import pytest

from pbem.transport.base import PermanentSendError, TransientSendError
from pbem.transport.outbox import DrainResult, DurableOutbox, message_file_id, retry_delay
from pbem.transport.smtp import SmtpOutbound
from tests.mailservers import MailServers, MailUser, _free_port


def mail(n: int, to: str = "alice@example.org") -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "game@pbem.example"
    msg["To"] = to
    msg["Subject"] = f"report {n}"
    msg["Message-ID"] = f"<report-{n}@pbem.example>"
    msg.set_content(f"Report number {n}: Zürich.\n")
    return msg


class Recorder:
    """An OutboundTransport that records subjects and fails as scripted per subject."""

    def __init__(self, fail: dict[str, Exception] | None = None) -> None:
        self.fail = fail or {}
        self.sent: list[str] = []
        self.calls: list[str] = []

    async def send(self, message: EmailMessage) -> None:
        subject = str(message["Subject"])
        self.calls.append(subject)
        if subject in self.fail:
            raise self.fail[subject]
        self.sent.append(subject)


class Clock:
    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def drain(box: DurableOutbox, transport: Recorder, clock: Clock | None = None) -> DrainResult:
    return asyncio.run(box.drain(transport, now=clock or Clock()))


def test_enqueue_writes_the_message_and_is_idempotent(tmp_path: Path) -> None:
    box = DurableOutbox(tmp_path)
    msg_id = box.enqueue(mail(1))
    assert msg_id == "report-1@pbem.example"
    assert box.enqueue(mail(1)) == msg_id
    assert box.pending() == [msg_id]
    [path] = list((tmp_path / "queue").iterdir())
    assert path.name.endswith(f"-{msg_id}.eml")
    stored = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
    assert stored["Subject"] == "report 1" and "Zürich" in stored.get_content()


def test_enqueue_requires_a_message_id(tmp_path: Path) -> None:
    msg = mail(1)
    del msg["Message-ID"]
    with pytest.raises(ValueError, match="Message-ID"):
        DurableOutbox(tmp_path).enqueue(msg)
    assert list((tmp_path / "queue").iterdir()) == []


def test_pending_keeps_enqueue_order(tmp_path: Path) -> None:
    box = DurableOutbox(tmp_path)
    order = [5, 1, 4, 2, 3, 10, 0]
    ids = [box.enqueue(mail(n)) for n in order]
    assert box.pending() == ids
    assert DurableOutbox(tmp_path).pending() == ids  # survives a restart
    recorder = Recorder()
    result = drain(box, recorder)
    assert recorder.sent == [f"report {n}" for n in order]
    assert result == DrainResult(sent=ids, deferred=[], failed=[])


def test_successful_drain_moves_to_sent_and_enqueue_stays_a_no_op(tmp_path: Path) -> None:
    box = DurableOutbox(tmp_path)
    msg_id = box.enqueue(mail(1))
    drain(box, Recorder())
    assert box.pending() == [] and box.is_sent(msg_id)
    assert (tmp_path / "sent" / f"{msg_id}.eml").exists()
    assert box.enqueue(mail(1)) == msg_id  # replayed after a crash: not sent again
    assert box.pending() == []
    assert drain(box, Recorder()) == DrainResult()


def test_transient_failure_keeps_the_message_with_back_off(tmp_path: Path) -> None:
    box = DurableOutbox(tmp_path)
    clock = Clock()
    first, second = box.enqueue(mail(1)), box.enqueue(mail(2))
    flaky = Recorder(fail={"report 1": TransientSendError("421 try later")})

    result = drain(box, flaky, clock)
    assert result == DrainResult(sent=[second], deferred=[first], failed=[])
    state = box.retry_state(first)
    assert state == {"attempts": 1, "next_attempt": clock.t + 30, "last_error": "TransientSendError: 421 try later"}
    assert box.pending() == [first]

    clock.t += 29  # not due yet: the transport is not called
    flaky.calls.clear()
    assert drain(box, flaky, clock).deferred == [first]
    assert flaky.calls == []

    clock.t += 1
    drain(box, flaky, clock)
    assert box.retry_state(first) == {
        "attempts": 2,
        "next_attempt": clock.t + 60,
        "last_error": "TransientSendError: 421 try later",
    }

    clock.t += 60
    assert drain(box, Recorder(), clock).sent == [first]
    assert box.pending() == [] and box.retry_state(first) is None
    assert sorted(p.name for p in (tmp_path / "queue").iterdir()) == []


def test_retry_delay_doubles_up_to_an_hour() -> None:
    assert [retry_delay(n) for n in range(1, 9)] == [30, 60, 120, 240, 480, 960, 1920, 3600]
    assert retry_delay(50) == 3600


def test_unexpected_errors_never_lose_the_message(tmp_path: Path) -> None:
    box = DurableOutbox(tmp_path)
    msg_id = box.enqueue(mail(1))
    result = drain(box, Recorder(fail={"report 1": RuntimeError("bug")}))
    assert result.deferred == [msg_id] and box.pending() == [msg_id]
    assert box.retry_state(msg_id)["attempts"] == 1  # type: ignore[index]


def test_permanent_failure_moves_to_failed_with_the_reason(tmp_path: Path) -> None:
    box = DurableOutbox(tmp_path)
    clock = Clock()
    msg_id = box.enqueue(mail(1))
    result = drain(box, Recorder(fail={"report 1": PermanentSendError("550 5.1.1 no such user")}), clock)
    assert result == DrainResult(sent=[], deferred=[], failed=[msg_id])
    assert box.pending() == [] and box.is_failed(msg_id)
    info = json.loads((tmp_path / "failed" / f"{msg_id}.json").read_text())
    assert info == {"error": "550 5.1.1 no such user", "failed_at": clock.t, "attempts": 1}
    assert box.enqueue(mail(1)) == msg_id and box.pending() == []  # failure is final
    assert box.requeue_failed(msg_id) and box.pending() == [msg_id] and box.failure(msg_id) is None
    assert drain(box, Recorder()).sent == [msg_id]


def test_no_temporary_files_are_left(tmp_path: Path) -> None:
    box = DurableOutbox(tmp_path)
    for n in range(3):
        box.enqueue(mail(n))
    drain(box, Recorder(fail={"report 0": TransientSendError("x"), "report 1": PermanentSendError("y")}))
    names = [p.name for p in tmp_path.rglob("*")]
    assert not [n for n in names if n.endswith(".tmp")]


def test_message_file_ids() -> None:
    assert message_file_id("<a.b+c=d@host-1.example>") == "a.b+c=d@host-1.example"
    odd = message_file_id("<../etc/passwd@x>")
    assert "/" not in odd and not odd.startswith(".")
    assert message_file_id("<a/b@x>") != message_file_id("<a_b@x>")
    assert len(message_file_id("<" + "x" * 500 + "@y>")) <= 140
    with pytest.raises(ValueError):
        message_file_id("<>")


def test_drain_through_real_smtp(mail_servers: MailServers, mail_user: MailUser, tmp_path: Path) -> None:
    box = DurableOutbox(tmp_path)
    good = box.enqueue(mail(1, to=mail_user.address))
    bad = box.enqueue(mail(2, to="nosuch@localhost"))
    clock = Clock()

    down = SmtpOutbound("127.0.0.1", _free_port(), security="plain", timeout=2.0)
    assert asyncio.run(box.drain(down, now=clock)) == DrainResult(deferred=[good, bad])

    clock.t += 30
    up = SmtpOutbound(mail_servers.host, mail_servers.smtp_port, security="plain", timeout=5.0)
    assert asyncio.run(box.drain(up, now=clock)) == DrainResult(sent=[good], failed=[bad])
    [raw] = mail_servers.fetch_all(mail_user.name, mail_user.password)
    assert b"Message-ID: <report-1@pbem.example>" in raw
    assert "550" in (box.failure(bad) or {})["error"]
