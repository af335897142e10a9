"""A durable outbox: outgoing mail is written to disk first and sent later, with retries.

Layout under ``root``::

    queue/<seq>-<id>.eml   waiting to be sent; <seq> is 20 digits and orders the queue
    queue/<id>.json        after a transient failure: {"attempts", "next_attempt", "last_error"}
    sent/<id>.eml          sent
    failed/<id>.eml        refused for good, with failed/<id>.json {"error", "failed_at", "attempts"}

``<id>`` comes from the Message-ID (RFC 5322 section 3.6.4), so enqueueing the same message
twice (e.g. after a crash and a replay) queues it once.

Guarantees: a message is on disk (written to a temporary file, flushed, fsynced, renamed,
directory fsynced) before :meth:`DurableOutbox.enqueue` returns, and it leaves ``queue/`` only
by a rename into ``sent/`` or ``failed/``, so no queued message is ever lost. Delivery is
*at least once*: if the process dies after the server accepted a message but before the
rename into ``sent/``, the next drain sends it again (recipients may see a duplicate with the
same Message-ID, which most clients collapse).

It is not safe for two processes to drain one outbox at once: the server drains it only
through :meth:`pbem.server.Mailroom.drain`, under the data directory's lock.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from pathlib import Path
from typing import Any, cast

from pbem.durable import fsync_dir, write_atomic
from pbem.transport.base import OutboundTransport, PermanentSendError, TransientSendError

log = logging.getLogger(__name__)

FIRST_RETRY_SECONDS = 30.0
"""Delay after the first transient failure; it doubles with each further failure."""
MAX_RETRY_SECONDS = 3600.0
"""Longest delay between two attempts."""

_SEQ_DIGITS = 20
_SAFE = re.compile(r"[^A-Za-z0-9@._+=-]")
_MAX_ID = 120


def message_file_id(message_id: str) -> str:
    """A file-name-safe id for a Message-ID.

    Angle brackets and surrounding blanks are dropped; characters outside
    ``[A-Za-z0-9@._+=-]`` become ``_``; a leading dot becomes ``_``. When anything had to be
    replaced or cut (at 120 characters), 12 hex digits of the SHA-256 of the original are
    appended, so different Message-IDs never share an id.

    >>> message_file_id("<20261130.42@pbem.example>")
    '20261130.42@pbem.example'

    :raises ValueError: empty Message-ID.
    """
    raw = message_id.strip()
    core = raw[1:-1].strip() if raw.startswith("<") and raw.endswith(">") else raw
    if not core:
        raise ValueError(f"empty Message-ID {message_id!r}")
    safe = _SAFE.sub("_", core)
    if safe.startswith("."):
        safe = "_" + safe[1:]
    if safe != core or len(safe) > _MAX_ID:
        digest = hashlib.sha256(core.encode("utf-8", "surrogateescape")).hexdigest()[:12]
        safe = f"{safe[:_MAX_ID]}-{digest}"
    return safe


def retry_delay(attempts: int) -> float:
    """Seconds to wait after the ``attempts``-th consecutive transient failure (1-based):
    30, 60, 120, … capped at 3600."""
    return min(FIRST_RETRY_SECONDS * 2.0 ** max(0, attempts - 1), MAX_RETRY_SECONDS)


@dataclass
class DrainResult:
    """What one :meth:`DurableOutbox.drain` did, as message ids in queue order.

    :ivar sent: accepted by the transport, now in ``sent/``.
    :ivar deferred: still queued: failed transiently now, or not yet due for a retry.
    :ivar failed: refused permanently, now in ``failed/``.
    """

    sent: list[str] = field(default_factory=list)
    deferred: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


class DurableOutbox:
    """Outgoing mail queued in files under ``root`` (see the module docstring for the layout).

    The directories are created on construction.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.queue_dir = self.root / "queue"
        self.sent_dir = self.root / "sent"
        self.failed_dir = self.root / "failed"
        for d in (self.queue_dir, self.sent_dir, self.failed_dir):
            d.mkdir(parents=True, exist_ok=True)

    # -- queue contents -----------------------------------------------------------------

    def _queued(self) -> list[tuple[str, Path]]:
        """``(id, path)`` of every queued message, in queue order."""
        out: list[tuple[str, Path]] = []
        for name in os.listdir(self.queue_dir):
            if not name.endswith(".eml") or name.startswith("."):
                continue
            seq, sep, rest = name.partition("-")
            if not sep or len(seq) != _SEQ_DIGITS or not seq.isdigit():
                continue
            out.append((rest[: -len(".eml")], self.queue_dir / name))
        out.sort(key=lambda item: item[1].name)
        return out

    def _queued_path(self, msg_id: str) -> Path | None:
        for queued_id, path in self._queued():
            if queued_id == msg_id:
                return path
        return None

    def pending(self) -> list[str]:
        """Ids of the queued messages, in the order they were enqueued."""
        return [msg_id for msg_id, _ in self._queued()]

    def is_sent(self, msg_id: str) -> bool:
        """True if the message with this id was sent."""
        return (self.sent_dir / f"{msg_id}.eml").exists()

    def is_failed(self, msg_id: str) -> bool:
        """True if the message with this id was refused for good."""
        return (self.failed_dir / f"{msg_id}.eml").exists()

    def retry_state(self, msg_id: str) -> dict[str, Any] | None:
        """The sidecar of a queued message after transient failures, or None:
        ``{"attempts": int, "next_attempt": float (epoch s), "last_error": str}``."""
        try:
            return cast(dict[str, Any], json.loads((self.queue_dir / f"{msg_id}.json").read_text()))
        except FileNotFoundError:
            return None

    def failure(self, msg_id: str) -> dict[str, Any] | None:
        """Why a failed message failed: ``{"error": str, "failed_at": float, "attempts": int}``."""
        try:
            return cast(dict[str, Any], json.loads((self.failed_dir / f"{msg_id}.json").read_text()))
        except FileNotFoundError:
            return None

    # -- enqueue ------------------------------------------------------------------------

    def enqueue(self, message: EmailMessage) -> str:
        """Store ``message`` durably in the queue and return its id.

        A message whose id is already queued, sent or failed is not stored again; the same
        id is returned (enqueue is idempotent).

        :raises ValueError: no Message-ID header.
        """
        message_id = message["Message-ID"]
        if message_id is None or not str(message_id).strip():
            raise ValueError("cannot enqueue a message without a Message-ID header")
        msg_id = message_file_id(str(message_id))
        if self._queued_path(msg_id) is not None or self.is_sent(msg_id) or self.is_failed(msg_id):
            return msg_id
        data = message.as_bytes(policy=message.policy.clone(linesep="\r\n"))
        path = self.queue_dir / f"{self._next_seq():0{_SEQ_DIGITS}d}-{msg_id}.eml"
        write_atomic(path, data)
        return msg_id

    def _next_seq(self) -> int:
        """A sequence number above every queued one: the clock in ns, or last + 1.

        Ordering only matters among queued messages, so no counter needs to survive an
        empty queue, and a clock stepping back cannot reorder the queue.
        """
        queued = self._queued()
        last = int(queued[-1][1].name[:_SEQ_DIGITS]) if queued else 0
        return max(time.time_ns(), last + 1)

    def requeue_failed(self, msg_id: str) -> bool:
        """Move a failed message back into the queue (at its end), e.g. after an operator
        fixed the address. Returns False if there is no such failed message."""
        src = self.failed_dir / f"{msg_id}.eml"
        if not src.exists():
            return False
        dst = self.queue_dir / f"{self._next_seq():0{_SEQ_DIGITS}d}-{msg_id}.eml"
        os.rename(src, dst)
        fsync_dir(self.queue_dir)
        fsync_dir(self.failed_dir)
        (self.failed_dir / f"{msg_id}.json").unlink(missing_ok=True)
        return True

    # -- drain --------------------------------------------------------------------------

    async def drain(self, transport: OutboundTransport, *, now: Callable[[], float] = time.time) -> DrainResult:
        """Try every due queued message once, in queue order.

        A message is due if it never failed or its ``next_attempt`` (from ``now()``, epoch
        seconds) has come. Success moves it to ``sent/``. :class:`TransientSendError` (and any
        unexpected exception, logged) keeps it queued with ``attempts + 1`` and
        ``next_attempt = now() + retry_delay(attempts)``. :class:`PermanentSendError` moves it
        to ``failed/`` with the error text.

        Messages are sent one after another; with the server down, each one waits for the
        transport's own connect timeout.
        """
        result = DrainResult()
        for msg_id, path in self._queued():
            state = self.retry_state(msg_id) or {}
            if float(state.get("next_attempt", 0.0)) > now():
                result.deferred.append(msg_id)
                continue
            message = BytesParser(policy=policy.default).parsebytes(path.read_bytes())
            attempts = int(state.get("attempts", 0)) + 1
            try:
                await transport.send(message)
            except PermanentSendError as exc:
                self._fail(msg_id, path, str(exc) or type(exc).__name__, attempts, now())
                result.failed.append(msg_id)
                log.warning("outbox: %s failed for good: %s", msg_id, exc)
            except Exception as exc:  # TransientSendError, or a transport bug: never drop the message
                if not isinstance(exc, TransientSendError):
                    log.exception("outbox: unexpected error sending %s; will retry", msg_id)
                self._defer(msg_id, attempts, f"{type(exc).__name__}: {exc}", now())
                result.deferred.append(msg_id)
            else:
                self._done(msg_id, path)
                result.sent.append(msg_id)
        return result

    def _done(self, msg_id: str, path: Path) -> None:
        os.rename(path, self.sent_dir / f"{msg_id}.eml")
        fsync_dir(self.sent_dir)
        fsync_dir(self.queue_dir)
        (self.queue_dir / f"{msg_id}.json").unlink(missing_ok=True)

    def _defer(self, msg_id: str, attempts: int, error: str, at: float) -> None:
        state = {"attempts": attempts, "next_attempt": at + retry_delay(attempts), "last_error": error}
        write_atomic(self.queue_dir / f"{msg_id}.json", json.dumps(state).encode())

    def _fail(self, msg_id: str, path: Path, error: str, attempts: int, at: float) -> None:
        # The reason first: a crash between the two steps leaves the message queued (sent
        # again later), never in failed/ without a reason.
        info = {"error": error, "failed_at": at, "attempts": attempts}
        write_atomic(self.failed_dir / f"{msg_id}.json", json.dumps(info).encode())
        os.rename(path, self.failed_dir / f"{msg_id}.eml")
        fsync_dir(self.failed_dir)
        fsync_dir(self.queue_dir)
        (self.queue_dir / f"{msg_id}.json").unlink(missing_ok=True)
