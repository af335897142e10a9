"""The exactly-once index of received mail (``<data>/handled.jsonl``) and what it keys on.

A mail is known by its Message-ID *and* its sender (:func:`mail_key`). Two copies of one
mail are the same mail when they agree byte for byte once the trace header fields that
mail servers add on the way are left out (:func:`content_digest`): a mail redelivered with
another ``Received:`` line is a duplicate, never applied again. A mail with a handled key
but other content reuses a Message-ID and is refused (see :mod:`pbem.server`).

``handled.jsonl`` is append-only; every line is one :class:`Handled`. Lines written before
``digest`` was kept (only ``sha256`` of the raw bytes, or neither) stay readable.

The index also counts the error replies sent to an address for the rate limit; the
variants ``name+tag@domain`` of one address share one allowance (:func:`rate_key`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from pbem.durable import append_durably
from pbem.transport.base import Outcome

TRACE_FIELDS = frozenset({
    "received",                     # RFC 5321 section 4.4
    "return-path",                  # RFC 5321 section 4.4
    "delivered-to",                 # added by the delivering MTA (Postfix, qmail, Dovecot)
    "x-original-to",
    "received-spf",                 # RFC 7208 section 9.1
    "authentication-results",       # RFC 8601
    "arc-seal", "arc-message-signature", "arc-authentication-results",  # RFC 8617
})
"""Header fields (lower case) that servers add while passing a mail on; any ``X-`` field
counts as one too. They are left out of :func:`content_digest`."""

AUTHENTICATED_KINDS = frozenset({"syntax", "illegal", "internal", "no_orders"})
"""Rejection kinds given only after the sender's secret was checked."""

RATE_LIMITED_ANSWERS = frozenset({"general_help", "info"})
"""Kinds of answered (``processed``) mail that count towards the sender's error-reply
allowance, like refusals: HELP without a game, and a mail asking only HELP, REPORT or
HISTORY of a game."""


def is_trace_field(name: str) -> bool:
    """Whether header field ``name`` (any case) is one a mail server adds in transit."""
    lower = name.strip().lower()
    return lower in TRACE_FIELDS or lower.startswith("x-")


def content_digest(raw: bytes) -> str:
    """sha256 hex of a mail without its trace header fields (:func:`is_trace_field`).

    Line ends are taken as LF (a mail stored by IMAP has CRLF, by a Maildir often LF); an
    mbox ``From`` line before the first field is left out. The body is taken as it is.
    """
    text = raw.replace(b"\r\n", b"\n")
    head, sep, body = text.partition(b"\n\n")
    if not sep:  # no body at all
        head, body = text, b""
    kept: list[bytes] = []
    keep = True
    for line in head.split(b"\n"):
        if line[:1] in (b" ", b"\t"):  # a folded continuation line
            if keep:
                kept.append(line)
            continue
        name, colon, _ = line.partition(b":")
        if not colon:
            keep = False  # not a field (an mbox From line): never part of the mail's content
            continue
        keep = not is_trace_field(name.decode("ascii", "replace"))
        if keep:
            kept.append(line)
    return hashlib.sha256(b"\n".join(kept) + b"\n\n" + body).hexdigest()


def rate_key(address: str | None) -> str:
    """The address an error-reply allowance belongs to: lower case, any ``+tag`` of the local
    part left out (``Ann+pbem@Example.org`` -> ``ann@example.org``); ``""`` for none."""
    if not address:
        return ""
    local, at, domain = address.strip().lower().rpartition("@")
    if not at:
        return domain
    return f"{local.split('+', 1)[0] or local}@{domain}"


def mail_key(message_id: str, sender: str | None) -> tuple[str, str]:
    """The idempotency key of a mail: its Message-ID and its sender (lower case)."""
    return (message_id, (sender or "").lower())


@dataclass
class Handled:
    """What was done with one message (a line of ``handled.jsonl``).

    ``sha256`` is of the raw bytes (the file name under ``received/``), ``digest`` of the
    mail without its trace fields (:func:`content_digest`); either is None in lines written
    before it was kept. ``time`` is epoch seconds.
    """

    message_id: str
    outcome: Outcome
    kind: str
    sender: str | None
    time: float
    replied: bool = False
    game: str | None = None
    sha256: str | None = None
    digest: str | None = None


def same_mail(entry: Handled, sha256: str, digest: str, received: Path) -> bool:
    """Whether the mail with raw ``sha256`` and :func:`content_digest` ``digest`` is the
    one ``entry`` was written for. Entries without a digest are compared through the raw
    copy kept under ``received/<sha256>.eml``; entries with neither count as the same."""
    if entry.digest is not None:
        return entry.digest == digest
    if entry.sha256 is None or entry.sha256 == sha256:
        return True
    try:
        kept = (received / f"{entry.sha256}.eml").read_bytes()
    except FileNotFoundError:
        return False
    return content_digest(kept) == digest


def _file_stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@dataclass
class HandledIndex:
    """``<data>/handled.jsonl``: append-only, fsynced; the exactly-once index of messages.

    ``entries`` holds every entry of each :func:`mail_key`, oldest first (the mail itself,
    then refusals of other mails that reused its key); ``history`` every line, for the rate
    limit.
    """

    path: Path
    entries: dict[tuple[str, str], list[Handled]] = field(default_factory=dict)
    history: list[Handled] = field(default_factory=list)
    _stamp: tuple[int, int, int] | None = field(default=None, repr=False)

    @classmethod
    def load(cls, path: Path) -> HandledIndex:
        """Read the index (a torn last line, or one that is not an entry, is ignored)."""
        index = cls(path)
        index._stamp = _file_stamp(path)
        if path.exists():
            for line in path.read_text(errors="replace").splitlines():
                try:
                    entry = Handled(**json.loads(line))
                except (ValueError, TypeError):
                    continue
                index._remember(entry)
        return index

    def _remember(self, entry: Handled) -> None:
        self.entries.setdefault(mail_key(entry.message_id, entry.sender), []).append(entry)
        self.history.append(entry)

    def refresh(self) -> None:
        """Read the file again if it changed since this process last read or wrote it
        (another server appended to it)."""
        if _file_stamp(self.path) != self._stamp:
            fresh = HandledIndex.load(self.path)
            self.entries, self.history, self._stamp = fresh.entries, fresh.history, fresh._stamp

    def get(self, message_id: str, sender: str | None) -> list[Handled]:
        """The entries of the mails with this key, oldest first (empty: a new key)."""
        return self.entries.get(mail_key(message_id, sender), [])

    def copies(self, message_id: str, sender: str | None, sha256: str) -> list[Handled]:
        """The entries of mails handled before with this key, oldest first; lines written
        before the key held the sender, for a mail handled under ``<sha256@pbem.invalid>``
        (a reused Message-ID then), count too."""
        return self.get(message_id, sender) or self.get(f"<{sha256}@pbem.invalid>", sender)

    def add(self, entry: Handled) -> None:
        """Record ``entry`` durably.

        :raises OSError: the file cannot be written (nothing is remembered then).
        """
        unchanged = _file_stamp(self.path) == self._stamp
        append_durably(self.path, (json.dumps(entry.__dict__) + "\n").encode())
        self._remember(entry)
        if unchanged:
            self._stamp = _file_stamp(self.path)

    def replies_since(self, address: str, since: float, *, authenticated: bool) -> int:
        """Error replies sent to ``address`` (and its ``+tag`` variants, :func:`rate_key`)
        since ``since`` (epoch seconds): every one when ``authenticated``, else only those to
        senders who were not authenticated (plus HELP without a game)."""
        key = rate_key(address)
        count = 0
        for e in self.history:
            if not e.replied or e.time < since or rate_key(e.sender) != key:
                continue
            stranger = e.kind not in AUTHENTICATED_KINDS
            if e.outcome == "rejected" and (authenticated or stranger):
                count += 1
            elif e.outcome == "processed" and e.kind in RATE_LIMITED_ANSWERS:
                count += 1
        return count

    def prune_strangers(self, received: Path, cutoff: float) -> list[Path]:
        """Remove from ``received`` the raw copies (``<sha256>.eml``) of mail from senders
        never authenticated (refused or ignored) handled before ``cutoff`` (seconds since the
        epoch), unless another handled mail names the same copy; returns those removed."""
        keep: set[str] = set()
        old: set[str] = set()
        for entry in self.history:
            if entry.sha256 is None:
                continue
            stranger = entry.outcome in ("rejected", "ignored") and entry.kind not in AUTHENTICATED_KINDS
            (old if stranger and entry.time < cutoff else keep).add(entry.sha256)
        removed = []
        for sha256 in sorted(old - keep):
            path = received / f"{sha256}.eml"
            if path.exists():
                path.unlink()
                removed.append(path)
        return removed
