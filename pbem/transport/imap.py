"""Inbound transport over IMAP4rev1 (RFC 3501) with aioimaplib.

The game's mailbox (``INBOX`` by default) is read with ``UID SEARCH`` and ``UID FETCH
(BODY.PEEK[])`` (so nothing gets ``\\Seen`` by reading); a settled message is moved to
``Processed``, ``Rejected`` or ``Ignored`` with ``UID MOVE`` (RFC 6851), or with ``UID COPY``,
``\\Deleted`` and ``UID EXPUNGE`` (RFC 4315 UIDPLUS), or, on a server with neither, copied and
marked ``\\Seen $PbemProcessed`` (the keyword hides it from later fetches).

aioimaplib 2.0.3 has known issues, and this module follows the rules that come from them
(the project's mail test-server notes, section 4, list them with links):

* one command at a time per connection (iroco-co/aioimaplib#106): every use of the
  connection holds an :class:`asyncio.Lock`;
* FETCH responses are flat lines (#72): one UID per FETCH;
* ``idle_start()`` can hang when the server drops the connection (#110), and a dropped
  connection never fails the pending command: every command races a per-connection
  "connection lost" future and a timeout;
* ``wait_server_push()`` can return ``+ idling`` or ``BYE`` (#30): BYE means reconnect;
* an empty SEARCH can come back as only the completion text (iCloud; see
  Wh1isper/mcp-email-server#237): only numeric tokens of untagged lines count;
* no STARTTLS (#1): TLS from the first byte (port 993) when ``ssl=True``, plain otherwise.
"""

from __future__ import annotations

import asyncio
import logging
import re
import ssl as ssl_module
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeVar

from aioimaplib import aioimaplib
from tenacity import AsyncRetrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from pbem.transport.base import FOLDER_FOR_OUTCOME, Envelope, Outcome, sender_of_head

log = logging.getLogger(__name__)

T = TypeVar("T")

PROCESSED_KEYWORD = "$PbemProcessed"
"""Keyword set on settled messages when the server has neither MOVE nor UIDPLUS."""

IDLE_MAX_SECONDS = 25 * 60.0
"""Longest single IDLE; RFC 2177 asks clients to re-issue IDLE at least every 29 minutes."""

_UIDVALIDITY_RE = re.compile(rb"\[UIDVALIDITY (\d+)\]")
_LITERAL_RE = re.compile(rb"\{(\d+)\}$")


class ImapError(Exception):
    """Base of the errors raised by :class:`ImapInbound`."""


class ImapConnectionError(ImapError, ConnectionError):
    """The server could not be reached, or the connection broke again after one reconnect."""


class ImapAuthenticationError(ImapError):
    """LOGIN was refused (wrong user or password). Not retried."""


class ImapCommandError(ImapError):
    """The server answered NO or BAD to a command (e.g. SELECT of a missing mailbox)."""


class _Broken(Exception):
    """Internal: the connection is unusable (lost, BYE, or a command timed out)."""


_BROKEN = (_Broken, OSError, asyncio.TimeoutError, aioimaplib.AioImapException)
"""Errors after which the connection is dropped and opened again (OSError covers refused,
reset and TimeoutError)."""


def _quote(text: str) -> str:
    """An IMAP quoted string (RFC 3501 section 4.3)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _untagged(response: aioimaplib.Response) -> list[Any]:
    """The response lines without the final tagged completion text."""
    return list(response.lines[:-1])


def parse_search(response: aioimaplib.Response) -> list[int]:
    """UIDs from a ``UID SEARCH`` response: the numeric tokens of the untagged lines.

    aioimaplib strips ``SEARCH`` from the untagged line (``* SEARCH 3 4`` gives ``b'3 4'``,
    an empty result ``b''``), and the last line is the tagged completion text, which can
    hold numbers too (``SEARCH completed (took 2 ms)``), so it is never read.
    """
    uids: set[int] = set()
    for line in _untagged(response):
        if isinstance(line, (bytes, bytearray)):
            uids.update(int(tok) for tok in line.split() if tok.isdigit())
    return sorted(uids)


def parse_fetch_literal(response: aioimaplib.Response) -> bytes | None:
    """The first literal (the message) of a one-UID FETCH response, or None if absent.

    aioimaplib gives ``[b'1 FETCH (UID 2 BODY[] {108}', bytearray(raw), b')', b'...']``.
    """
    lines = response.lines
    for i, line in enumerate(lines[:-1]):
        if isinstance(line, bytes) and _LITERAL_RE.search(line) and b"FETCH" in line.upper():
            nxt = lines[i + 1]
            if isinstance(nxt, (bytes, bytearray)):
                return bytes(nxt)
    return None


_UID_RE = re.compile(rb"\bUID (\d+)")


def parse_fetch_headers(response: aioimaplib.Response) -> dict[int, bytes]:
    """The literal of each message of a many-UID FETCH response, by UID: aioimaplib gives
    ``[b'1 FETCH (UID 2 BODY[HEADER.FIELDS (FROM)] {30}', bytearray(head), b')', ...]``
    (the UID may also follow the literal, as ``b' UID 2)'``)."""
    lines = response.lines
    found: dict[int, bytes] = {}
    for i, line in enumerate(lines[:-1]):
        if isinstance(line, bytes) and _LITERAL_RE.search(line) and b"FETCH" in line.upper():
            literal = lines[i + 1]
            after = lines[i + 2] if i + 2 < len(lines) else b""
            uid = _UID_RE.search(line) or (_UID_RE.search(after) if isinstance(after, bytes) else None)
            if uid is not None and isinstance(literal, (bytes, bytearray)):
                found[int(uid.group(1))] = bytes(literal)
    return found


def make_key(mailbox: str, uidvalidity: int, uid: int) -> str:
    """The envelope key ``"imap:<mailbox>:<uidvalidity>:<uid>"``."""
    return f"imap:{mailbox}:{uidvalidity}:{uid}"


def parse_key(key: str) -> tuple[str, int, int]:
    """``(mailbox, uidvalidity, uid)`` from a key made by :func:`make_key`.

    :raises ValueError: not an IMAP key.
    """
    if not key.startswith("imap:"):
        raise ValueError(f"not an IMAP key: {key!r}")
    try:
        mailbox, validity, uid = key[len("imap:") :].rsplit(":", 2)
        return mailbox, int(validity), int(uid)
    except ValueError:
        raise ValueError(f"not an IMAP key: {key!r}") from None


class ImapInbound:
    """Inbound transport on an IMAP mailbox (see :class:`~pbem.transport.base.InboundTransport`).

    :param host: server name or address.
    :param port: 993 for ``ssl=True`` (implicit TLS), 143 for plain.
    :param ssl: TLS from connect on (aioimaplib has no STARTTLS). The certificate is
        verified with ``ssl_context`` or the system's default context.
    :param mailbox: the mailbox orders arrive in.
    :param timeout: seconds for connecting and for each command.
    :param ignore_capabilities: capabilities to act as if the server lacked (e.g.
        ``{"MOVE"}`` for a server whose MOVE is broken; the tests use it for the fallbacks).
    :param reconnect_attempts: connection attempts per (re)connect, spaced by exponential
        back-off starting at ``reconnect_backoff`` seconds and at most 10 s.

    Keys are ``"imap:<mailbox>:<UIDVALIDITY>:<UID>"``. Every operation that finds the
    connection broken (lost, BYE, timeout) drops it, connects again and retries once, then
    raises :class:`ImapConnectionError`. Operations are serialized; a :meth:`fetch` or
    :meth:`settle` called while :meth:`wait_for_new` is in IDLE ends the IDLE first.
    """

    def __init__(
        self,
        host: str,
        port: int,
        user: str,
        password: str,
        *,
        ssl: bool,
        mailbox: str = "INBOX",
        timeout: float = 30.0,
        ssl_context: ssl_module.SSLContext | None = None,
        ignore_capabilities: Iterable[str] = (),
        reconnect_attempts: int = 3,
        reconnect_backoff: float = 0.2,
    ) -> None:
        self.host = host
        self.port = port
        self.user = user
        self._password = password
        self.ssl = ssl
        self.mailbox = mailbox
        self.timeout = timeout
        self._ssl_context = ssl_context
        self._ignored = frozenset(c.upper() for c in ignore_capabilities)
        self._reconnect_attempts = max(1, reconnect_attempts)
        self._reconnect_backoff = reconnect_backoff
        self._lock = asyncio.Lock()
        self._client: aioimaplib.IMAP4 | None = None
        self._lost: asyncio.Future[None] | None = None
        self._capabilities: frozenset[str] = frozenset()
        self._uidvalidity: int | None = None
        self._last_uids: frozenset[int] | None = None
        self._waiting = False
        self._interrupt = asyncio.Event()
        self._closed = False
        self.reconnects = 0
        """How many times a broken connection was replaced (for logs and tests)."""

    # -- public state -------------------------------------------------------------------

    @property
    def capabilities(self) -> frozenset[str]:
        """The server's capabilities (upper case) minus ``ignore_capabilities``."""
        return self._capabilities

    @property
    def uidvalidity(self) -> int | None:
        """UIDVALIDITY of the selected mailbox, once connected."""
        return self._uidvalidity

    @property
    def connected(self) -> bool:
        """True while a logged-in connection is believed to be alive."""
        return self._client is not None and self._lost is not None and not self._lost.done()

    # -- the contract -------------------------------------------------------------------

    async def connect(self) -> None:
        """Connect, LOGIN, CAPABILITY, create the three folders if missing, SELECT the mailbox.

        :raises ImapConnectionError: not reachable after ``reconnect_attempts`` tries.
        :raises ImapAuthenticationError: LOGIN refused.
        :raises ImapCommandError: CREATE or SELECT refused.
        """
        async with self._lock:
            self._closed = False
            await self._reconnect()

    async def fetch(self, limit: int | None = None, first: Callable[[str], bool] | None = None) -> list[Envelope]:
        """The messages in the mailbox, by UID (arrival order), at most ``limit``, read with
        ``BODY.PEEK[]``; with ``first`` and more messages than ``limit``, those whose From
        address it accepts come first (one FETCH of every message's From header tells).

        Messages that vanish between SEARCH and FETCH are skipped.

        :raises ImapConnectionError: see the class docstring.
        """

        async def op() -> list[Envelope]:
            uids = await self._search()
            if first is not None and limit is not None and len(uids) > limit:
                heads = await self._from_headers(uids)
                uids = sorted(uids, key=lambda u: not first(sender_of_head(heads.get(u, b""))))  # stable
            envelopes: list[Envelope] = []
            for uid in uids[:limit]:
                resp = await self._ok(self._client_().uid("fetch", str(uid), "(BODY.PEEK[])"), f"UID FETCH {uid}")
                raw = parse_fetch_literal(resp)
                if raw is not None:
                    envelopes.append(Envelope(raw=raw, key=make_key(self.mailbox, self._validity(), uid)))
            self._last_uids = frozenset(uids)
            return envelopes

        return await self._run(op)

    async def _from_headers(self, uids: list[int]) -> dict[int, bytes]:
        """Each message's From header, by UID (one UID FETCH of them all)."""
        uid_set = ",".join(str(u) for u in uids)
        resp = await self._ok(self._client_().uid("fetch", uid_set, "(BODY.PEEK[HEADER.FIELDS (FROM)])"),
                              "UID FETCH (FROM)")
        return parse_fetch_headers(resp)

    async def settle(self, envelope: Envelope, outcome: Outcome) -> None:
        """Move the message to the folder for ``outcome``.

        Idempotent: a UID that is no longer in the mailbox is a no-op (the server answers OK
        to a UID command on no messages), and so is a key of an older UIDVALIDITY (the UID
        then names nothing we can find; logged as a warning). A connection broken in the
        middle of the COPY fallback and retried can leave two copies in the folder.

        :raises ValueError: the key is not an IMAP key of this mailbox, or unknown outcome.
        :raises ImapCommandError: the server refused the move.
        :raises ImapConnectionError: see the class docstring.
        """
        mailbox, validity, uid = parse_key(envelope.key)
        if mailbox != self.mailbox:
            raise ValueError(f"key {envelope.key!r} is not from mailbox {self.mailbox!r}")
        if outcome not in FOLDER_FOR_OUTCOME:
            raise ValueError(f"unknown outcome {outcome!r}")
        folder = _quote(FOLDER_FOR_OUTCOME[outcome])

        async def op() -> None:
            if validity != self._validity():
                log.warning("not settling %s: UIDVALIDITY is now %s", envelope.key, self._uidvalidity)
                return
            client = self._client_()
            caps = self._capabilities
            if "MOVE" in caps:
                await self._ok(client.uid("move", str(uid), folder), f"UID MOVE {uid}")
            elif "UIDPLUS" in caps:
                await self._ok(client.uid("copy", str(uid), folder), f"UID COPY {uid}")
                await self._ok(client.uid("store", str(uid), "+FLAGS.SILENT", r"(\Deleted)"), f"UID STORE {uid}")
                await self._ok(client.uid("expunge", str(uid)), f"UID EXPUNGE {uid}")
            else:
                resp = await self._ok(client.uid("fetch", str(uid), "(FLAGS)"), f"UID FETCH {uid} FLAGS")
                flags = b" ".join(x for x in _untagged(resp) if isinstance(x, (bytes, bytearray)))
                if b"FETCH" not in flags.upper() or PROCESSED_KEYWORD.encode().lower() in flags.lower():
                    return  # gone, or settled before
                await self._ok(client.uid("copy", str(uid), folder), f"UID COPY {uid}")
                await self._ok(
                    client.uid("store", str(uid), "+FLAGS.SILENT", rf"(\Seen {PROCESSED_KEYWORD})"),
                    f"UID STORE {uid}",
                )

        await self._run(op)

    async def wait_for_new(self, timeout: float) -> None:
        """Return when new mail may have arrived, or after ``timeout`` seconds.

        Returns at once if the mailbox holds a UID the last :meth:`fetch` did not return
        (without an earlier fetch, the mailbox as it is now is the baseline). Otherwise IDLEs (RFC 2177) when the server offers it, ending on EXISTS/RECENT, on
        :meth:`fetch`/:meth:`settle`/:meth:`close` from another task, or at the timeout; a
        BYE or dropped connection reconnects (once) and looks again. Without IDLE it sleeps.

        :raises ImapConnectionError: see the class docstring.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, timeout)

        async def op() -> bool:
            uids = frozenset(await self._search())
            if self._last_uids is None:
                self._last_uids = uids
            elif uids - self._last_uids:
                return True
            if "IDLE" not in self._capabilities:
                return False
            while (remaining := deadline - loop.time()) > 0 and not self._closed:
                if await self._idle(min(remaining, IDLE_MAX_SECONDS)):
                    return True
            return True

        if await self._run(op, is_wait=True):
            return
        remaining = deadline - loop.time()
        if remaining > 0:
            await asyncio.sleep(remaining)

    async def close(self) -> None:
        """LOGOUT (best effort) and close the socket. Safe to call twice, and from another
        task while :meth:`wait_for_new` is in IDLE (which then returns)."""
        self._closed = True
        self._interrupt.set()
        if self._client is None:
            return
        try:
            await asyncio.wait_for(self._lock.acquire(), timeout=min(self.timeout, 5.0))
        except asyncio.TimeoutError:
            self._drop()
            return
        try:
            if self.connected:
                try:
                    await self._guard(self._client_().logout(), "LOGOUT", timeout=min(self.timeout, 5.0))
                except (*_BROKEN, ImapError):
                    pass
        finally:
            self._drop()
            self._lock.release()

    # -- connection handling ------------------------------------------------------------

    def _client_(self) -> aioimaplib.IMAP4:
        if self._client is None:
            raise _Broken("not connected")
        return self._client

    def _validity(self) -> int:
        if self._uidvalidity is None:
            raise _Broken("no mailbox selected")
        return self._uidvalidity

    async def _run(self, op: Callable[[], Awaitable[T]], *, is_wait: bool = False) -> T:
        """Run ``op`` holding the lock; on a broken connection reconnect and retry once.

        ``is_wait`` marks :meth:`wait_for_new`: while it holds the lock, any other caller
        sets the interrupt event so that the IDLE ends and the lock is handed over.
        """
        if self._waiting and not is_wait:
            self._interrupt.set()
        async with self._lock:
            if self._closed:
                raise ImapError("the transport is closed")
            if is_wait:
                self._waiting = True
                self._interrupt.clear()
            try:
                if not self.connected:
                    if self._client is not None:
                        log.warning("IMAP %s:%s connection was lost; reconnecting", self.host, self.port)
                        self.reconnects += 1
                    await self._reconnect()
                try:
                    return await op()
                except _BROKEN as exc:
                    if self._closed:
                        raise ImapError("the transport was closed") from exc
                    log.warning("IMAP %s:%s broken (%s); reconnecting", self.host, self.port, exc or type(exc).__name__)
                    self.reconnects += 1
                    await self._reconnect()
                try:
                    return await op()
                except _BROKEN as exc:
                    self._drop()
                    raise ImapConnectionError(
                        f"IMAP {self.host}:{self.port} broken again after reconnect: {exc}"
                    ) from exc
            finally:
                if is_wait:
                    self._waiting = False

    async def _reconnect(self) -> None:
        self._drop()
        try:
            async for attempt in AsyncRetrying(
                stop=stop_after_attempt(self._reconnect_attempts),
                wait=wait_exponential(multiplier=self._reconnect_backoff, max=10.0),
                retry=retry_if_exception_type(_BROKEN),
                reraise=True,
            ):
                with attempt:
                    try:
                        await self._open()
                    except BaseException:
                        self._drop()
                        raise
        except _BROKEN as exc:
            raise ImapConnectionError(f"cannot connect to IMAP {self.host}:{self.port}: {exc!r}") from exc

    async def _open(self) -> None:
        loop = asyncio.get_running_loop()
        lost: asyncio.Future[None] = loop.create_future()

        def on_lost(exc: Exception | None) -> None:
            if not lost.done():
                lost.set_result(None)

        context = None
        if self.ssl:
            context = self._ssl_context or ssl_module.create_default_context()
        # IMAP4 with an ssl_context is what IMAP4_SSL does, but IMAP4_SSL drops conn_lost_cb.
        client = aioimaplib.IMAP4(
            host=self.host, port=self.port, timeout=self.timeout, conn_lost_cb=on_lost, ssl_context=context
        )
        self._client, self._lost = client, lost
        await self._guard(client.wait_hello_from_server(), "greeting")
        resp = await self._guard(client.login(_quote(self.user), self._password), "LOGIN")
        if resp.result != "OK":
            raise ImapAuthenticationError(f"LOGIN as {self.user!r} refused: {_text(resp)}")
        await self._guard(client.protocol.capability(), "CAPABILITY")
        self._capabilities = frozenset(c.upper() for c in client.protocol.capabilities) - self._ignored
        for folder in FOLDER_FOR_OUTCOME.values():
            listed = await self._ok(client.list('""', _quote(folder)), f"LIST {folder}")
            if not any(isinstance(x, (bytes, bytearray)) and x.startswith(b"(") for x in _untagged(listed)):
                await self._ok(client.create(_quote(folder)), f"CREATE {folder}")
        selected = await self._ok(client.select(_quote(self.mailbox)), f"SELECT {self.mailbox}")
        validity = None
        for line in selected.lines:
            if isinstance(line, (bytes, bytearray)) and (m := _UIDVALIDITY_RE.search(line)):
                validity = int(m.group(1))
        if validity is None:
            raise ImapCommandError(f"SELECT {self.mailbox} gave no UIDVALIDITY")
        if self._uidvalidity is not None and validity != self._uidvalidity:
            log.warning("UIDVALIDITY of %s changed from %s to %s", self.mailbox, self._uidvalidity, validity)
            self._last_uids = None
        self._uidvalidity = validity

    def _drop(self) -> None:
        """Forget the connection and close its socket (no LOGOUT)."""
        client, self._client = self._client, None
        if client is not None:
            transport = getattr(client.protocol, "transport", None)
            if transport is not None:
                transport.close()
            if not client._client_task.done():
                client._client_task.cancel()

    async def _guard(self, aw: Awaitable[T], what: str, *, timeout: float | None = None) -> T:
        """Await ``aw`` racing the connection-lost future and the timeout.

        :raises _Broken: connection lost or no answer in time (the connection is then unusable,
            since aioimaplib keeps waiting for the abandoned command).
        """
        lost = self._lost
        task = asyncio.ensure_future(aw)
        waiters: set[asyncio.Future[Any]] = {task}
        if lost is not None:
            waiters.add(lost)
        try:
            done, _ = await asyncio.wait(
                waiters, timeout=self.timeout if timeout is None else timeout, return_when=asyncio.FIRST_COMPLETED
            )
        except asyncio.CancelledError:
            task.cancel()
            raise
        if task in done:
            return task.result()
        task.cancel()
        if lost is not None and lost.done():
            raise _Broken(f"{what}: connection lost")
        raise _Broken(f"{what}: no answer in {self.timeout if timeout is None else timeout} s")

    async def _ok(self, aw: Awaitable[aioimaplib.Response], what: str) -> aioimaplib.Response:
        resp = await self._guard(aw, what)
        if resp.result != "OK":
            if any(isinstance(x, (bytes, bytearray)) and x.upper().startswith(b"BYE") for x in resp.lines):
                raise _Broken(f"{what}: BYE {_text(resp)}")
            raise ImapCommandError(f"{what}: {resp.result} {_text(resp)}")
        return resp

    async def _search(self) -> list[int]:
        """UIDs in the mailbox that are not settled, after a NOOP.

        The NOOP matters: an IMAP server updates the session's view of the mailbox only at
        command boundaries (RFC 3501 section 5.2), so without it a SEARCH right after a
        delivery can miss the new message (seen with Dovecot: ``* SEARCH`` then ``* 1 EXISTS``).
        """
        client = self._client_()
        await self._ok(client.noop(), "NOOP")
        if "MOVE" in self._capabilities or "UIDPLUS" in self._capabilities:
            criteria: tuple[str, ...] = ("ALL",)
        else:
            criteria = ("NOT", "KEYWORD", PROCESSED_KEYWORD)
        return parse_search(await self._ok(client.uid_search(*criteria, charset=None), "UID SEARCH"))

    async def _idle(self, seconds: float) -> bool:
        """One IDLE of at most ``seconds``. True if EXISTS/RECENT came or we were interrupted.

        :raises _Broken: BYE, lost connection, or no ``+ idling`` in time.
        """
        client = self._client_()
        queue = client.protocol.idle_queue
        while not queue.empty():  # stale pushes from an earlier IDLE
            queue.get_nowait()
        idle: asyncio.Future[Any] | None = None
        try:
            idle_fut: asyncio.Future[Any] = await self._guard(client.idle_start(timeout=seconds + self.timeout), "IDLE")
            idle = idle_fut
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            news = False
            while not news and (remaining := end - loop.time()) > 0:
                if self._interrupt.is_set():
                    news = True
                    break
                push = asyncio.ensure_future(queue.get())
                interrupt = asyncio.ensure_future(self._interrupt.wait())
                lost = self._lost
                assert lost is not None
                try:
                    done, _ = await asyncio.wait(
                        {push, interrupt, lost}, timeout=remaining, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    interrupt.cancel()
                    if not push.done():
                        push.cancel()
                if push in done:
                    lines = [x for x in push.result() if isinstance(x, (bytes, bytearray))]
                    if any(x.upper().startswith(b"BYE") for x in lines):
                        raise _Broken(f"IDLE: {lines!r}")
                    news = any(x.upper().endswith((b"EXISTS", b"RECENT")) for x in lines)
                elif lost.done():
                    raise _Broken("IDLE: connection lost")
                elif interrupt in done:
                    news = True
            client.idle_done()
            resp = await self._guard(idle_fut, "IDLE DONE")
            idle = None
            if resp.result != "OK":
                raise _Broken(f"IDLE ended with {resp.result} {_text(resp)}")
            return news
        finally:
            if idle is not None and not idle.done():
                idle.cancel()


def _text(resp: aioimaplib.Response) -> str:
    parts = [bytes(x).decode(errors="replace") for x in resp.lines if isinstance(x, (bytes, bytearray))]
    return " | ".join(parts)[:300]
