"""The poller: fetch the inbox, hand each message to the mailroom, send the mail, settle.

Nothing a mail holds stops the poller: a message whose handling fails unexpectedly (our
bug) stays in the inbox and is tried again on the next passes — after a commit, the retry
completes it from the log — and only after ``max_attempts`` is it settled as rejected (its
raw bytes are under ``received/``).

A data directory that cannot be written (disk full, read-only, see
:func:`pbem.durable.is_storage_error`) is no fault of a message: the pass stops, the mail
stays in the inbox and counts no attempt, and :meth:`Server.serve` waits
:func:`storage_backoff` seconds (1, 2, 4, ... capped at 300) before the next pass. Every GM
is told once per outage, as soon as a mail can be sent (straight through the transport
while the outbox cannot be written; through the outbox once it can).

Logging (logger ``pbem.server``, INFO): one line per mail handled (game, sender, outcome)
and one per pass (counts).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any, Callable, Literal

from pbem.deadline_watch import watch
from pbem.durable import is_storage_error, write_atomic
from pbem.games import gm_addresses
from pbem.transport.base import Envelope, InboundTransport, OutboundTransport, Outcome

if TYPE_CHECKING:
    from pbem.server import Mailroom

log = logging.getLogger("pbem.server")

BACKOFF_FIRST = 1.0
"""Seconds before the first pass after a storage fault; doubled after each further one."""
BACKOFF_MAX = 300.0
"""The longest wait between two passes while the data directory cannot be written."""


def storage_backoff(failures: int) -> float:
    """Seconds to wait after the ``failures``-th pass in a row that the data directory
    failed (1-based): 1, 2, 4, 8, ... 256, then 300 for good."""
    return min(BACKOFF_FIRST * 2.0 ** max(0, failures - 1), BACKOFF_MAX)


class StorageFault(Exception):
    """A pass stopped because the data directory cannot be written; ``error`` is the cause."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


@dataclass
class Outage:
    """The data directory has failed since ``since`` (epoch seconds), ``failures`` passes in
    a row; ``told`` holds the GM addresses told so far."""

    since: float
    error: str
    failures: int = 0
    told: set[str] = field(default_factory=set)


@dataclass
class PassResult:
    """What one pass over the inbox did: counts by outcome, and mail sent."""

    outcomes: dict[str, int] = field(default_factory=dict)
    sent: int = 0
    deferred: int = 0


INBOX_BATCH = 50
"""The most messages a pass reads from the inbox at once (it reads batch after batch)."""


class Server:
    """Polls an inbound transport, hands each message to the mailroom, drains the outbox
    (see the module doc)."""

    def __init__(self, mailroom: Mailroom, inbound: InboundTransport, outbound: OutboundTransport,
                 *, max_attempts: int = 3, backoff: Callable[[int], float] = storage_backoff,
                 batch: int = INBOX_BATCH) -> None:
        """``backoff(n)``: seconds to wait after the n-th failed pass in a row (1-based);
        ``batch``: the most messages read from the inbox at once."""
        self.batch = batch
        self.mailroom = mailroom
        self.backoff = backoff
        self.inbound = inbound
        self.outbound = outbound
        self.max_attempts = max_attempts
        self.outage: Outage | None = None
        """The storage fault going on, or None."""
        self._failures: dict[str, int] = {}

    async def start(self) -> None:
        """Connect the inbox and remove the temporary files a crash left behind (a data
        directory that cannot be written now is left as it is, and logged)."""
        await self.inbound.connect()
        try:
            self.mailroom.clean_up()
            clean_tmp = getattr(self.outbound, "clean_tmp", None)  # the embedded Maildir's
            if clean_tmp is not None:
                removed = clean_tmp(self.mailroom.clock())
                if removed:
                    log.info("removed %d file(s) a cut-short delivery left in the recipients' tmp/", removed)
        except OSError as exc:
            log.warning("cannot clean the data directory now: %s", exc)

    async def run_once(self) -> PassResult:
        """Fetch everything in the inbox, handle it oldest first, send the mail; one pass.

        ``outcomes`` counts ``processed``, ``rejected``, ``ignored`` and ``retry`` (left in
        the inbox after an unexpected failure).

        :raises StorageFault: the data directory cannot be written; the pass stopped there
            and the unhandled mail is still in the inbox.
        """
        try:
            if self.outage is not None:
                self._check_storage()
            result = await self._pass()
        except OSError as exc:
            if not is_storage_error(exc):
                raise
            raise StorageFault(exc) from exc
        if self.outage is not None:
            await self._recovered()
        log.info("pass: %d mail(s) %s; sent %d, waiting %d", sum(result.outcomes.values()),
                 dict(sorted(result.outcomes.items())), result.sent, result.deferred)
        return result

    async def _pass(self) -> PassResult:
        result = PassResult()
        drained = await self.mailroom.drain(self.outbound)
        result.sent += len(drained.sent)
        result.deferred = len(drained.deferred)
        known: list[frozenset[str]] = []

        def is_player(address: str) -> bool:  # the games' addresses, read only when mail is there
            if not known:
                known.append(self.mailroom.known_addresses())
            return address in known[0]

        tried: set[str] = set()
        while True:  # bounded batches, players' mail first: memory does not grow with the backlog
            batch = [e for e in await self.inbound.fetch(self.batch, is_player) if e.key not in tried]
            if not batch:
                break
            for envelope in batch:
                tried.add(envelope.key)
                outcome = self._handle_safely(envelope)
                result.outcomes[outcome] = result.outcomes.get(outcome, 0) + 1
                drained = await self.mailroom.drain(self.outbound)
                result.sent += len(drained.sent)
                result.deferred = len(drained.deferred)
                if outcome != "retry":
                    await self.inbound.settle(envelope, outcome)
        applied = watch(self.mailroom)  # the server wakes for deadlines too
        if applied:
            result.outcomes["deadline"] = applied
        drained = await self.mailroom.drain(self.outbound)
        result.sent += len(drained.sent)
        result.deferred = len(drained.deferred)
        return result

    def _handle_safely(self, envelope: Envelope) -> Outcome | Literal["retry"]:
        try:
            outcome = self.mailroom.handle(envelope.raw)
        except Exception as exc:  # one bad message must never stop the poller
            if is_storage_error(exc):
                raise  # not the message's fault: the pass stops, no attempt is counted
            attempts = self._failures.get(envelope.key, 0) + 1
            self._failures[envelope.key] = attempts
            log.exception("failed to handle %s (attempt %d of %d)", envelope.key, attempts, self.max_attempts)
            self._keep_raw(envelope.raw)
            return "retry" if attempts < self.max_attempts else "rejected"
        self._failures.pop(envelope.key, None)
        last = self.mailroom.last
        log.info("mail %s: game %s, from %s: %s (%s)", envelope.key, last.game if last else None,
                 last.sender if last else None, outcome, last.kind if last else "?")
        return outcome

    async def storage_failed(self, fault: StorageFault) -> float:
        """Note a pass that failed on the data directory: log it, tell the GMs if not yet
        told and mail can be sent, and return the seconds to wait before the next pass."""
        if self.outage is None:
            self.outage = Outage(since=self.mailroom.clock(), error=str(fault.error))
        outage = self.outage
        outage.failures += 1
        delay = self.backoff(outage.failures)
        log.error("the data directory cannot be written (%s); pass %d failed, next try in %.0f s; "
                  "the mail stays in the inbox", fault.error, outage.failures, delay)
        await self._tell_gms(outage, queue=False)
        return delay

    async def _recovered(self) -> None:
        outage = self.outage
        assert outage is not None
        log.warning("the data directory can be written again (after %d failed passes)", outage.failures)
        await self._tell_gms(outage, queue=True)
        self.outage = None

    async def _tell_gms(self, outage: Outage, *, queue: bool) -> None:
        """Send the outage notice to every GM not yet told: straight through the transport,
        or (``queue``, the disk works again) into the durable outbox."""
        try:
            gms = gm_addresses(self.mailroom.data)
        except OSError as exc:
            log.error("cannot read the GMs' addresses: %s", exc)
            return
        for gm in gms:
            if gm.lower() in outage.told:
                continue
            notice = self._storage_notice(gm, outage)
            try:
                if queue:
                    with self.mailroom.locked():
                        self.mailroom.outbox.enqueue(notice)
                else:
                    await self.outbound.send(notice)
            except Exception as exc:  # mail cannot be sent yet: try again after the next pass
                log.warning("cannot tell the GM %s about the data directory yet: %s", gm, exc)
                continue
            outage.told.add(gm.lower())

    def _check_storage(self) -> None:
        """Write a small file durably into the data directory (``storage-check``) to see
        whether it can be written again. :raises OSError: it cannot."""
        with self.mailroom.locked():
            write_atomic(self.mailroom.data / "storage-check", f"{self.mailroom.clock():.0f}\n".encode())

    def _keep_raw(self, raw: bytes) -> None:
        """Keep the raw bytes of a mail whose handling failed under ``received/`` (once)."""
        path = self.mailroom.data / "received" / f"{hashlib.sha256(raw).hexdigest()}.eml"
        with self.mailroom.locked():
            if not path.exists():
                write_atomic(path, raw)

    def _storage_notice(self, to: str, outage: Outage) -> EmailMessage:
        """The notice to a GM that the data directory cannot be written; its Message-ID is
        fixed by the outage's start, so queueing it again sends it once."""
        began = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(outage.since))
        return self.mailroom.notice(
            to=to, subject="[pbem] The game server cannot write its data directory",
            body=f"Since {began} the game server cannot write its data directory:\n\n  {outage.error}\n\n"
            f"{outage.failures} pass(es) over the inbox have failed so far. No mail is lost: every mail "
            "stays in the inbox and is handled as soon as the directory can be written again (free "
            "some space, or make it writable). The server keeps trying, waiting longer each time (at "
            f"most {BACKOFF_MAX:.0f} seconds). You are told this once.\n",
            key=("storage-fault", f"{outage.since:.0f}"))

    async def serve(self, poll_interval: float, stop: asyncio.Event | None = None) -> None:
        """Poll until ``stop`` is set: a pass, then wait for new mail (IDLE) or the interval;
        after a storage fault (or any other failed pass, e.g. the mail server is away), wait
        :func:`storage_backoff` seconds instead (or until stop)."""
        stop = stop or asyncio.Event()
        await self.start()
        try:
            errors = 0
            while not stop.is_set():
                try:
                    await self.run_once()
                except StorageFault as fault:
                    await self._wait(stop, asyncio.sleep(await self.storage_failed(fault)))
                    continue
                except Exception:  # e.g. the mail server is away: never stop, try again later
                    errors += 1
                    log.exception("the pass failed; next try in %.0f s", self.backoff(errors))
                    await self._wait(stop, asyncio.sleep(self.backoff(errors)))
                    continue
                errors = 0
                await self._wait(stop, self.inbound.wait_for_new(poll_interval))
        finally:
            await self.inbound.close()

    @staticmethod
    async def _wait(stop: asyncio.Event, waiting: Any) -> None:
        waiter = asyncio.ensure_future(waiting)
        stopper = asyncio.ensure_future(stop.wait())
        await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
        for task in (waiter, stopper):
            if not task.done():
                task.cancel()


def summary(result: PassResult) -> dict[str, Any]:
    """A JSON-ready summary of a pass."""
    return {"outcomes": result.outcomes, "sent": result.sent, "deferred": result.deferred}
