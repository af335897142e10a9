"""The embedded default transport: Maildir folders on the local disk, no mail server.

Inbound, the game's inbox is one Maildir and settled messages move into Maildir++
subfolders (``.Processed``, ``.Rejected``, ``.Ignored``) of it, the layout Dovecot and
Courier use, so a real IMAP server can later serve the same tree. Outbound, every message is
delivered into one Maildir per recipient, so a player's reports are all in one folder.

Maildir (https://cr.yp.to/proto/maildir.html) delivers by writing into ``tmp/`` and renaming
into ``new/``; moving a message between folders is one ``rename`` on the same file system, so
no step here can leave half a message behind.
"""

from __future__ import annotations

import asyncio
import copy
import hashlib
import mailbox
import os
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import getaddresses
from pathlib import Path
from typing import Callable

from pbem.durable import fsync_dir
from pbem.transport.base import (FOLDER_FOR_OUTCOME, Envelope, Outcome, PermanentSendError, TransientSendError,
                                 sender_of_head)

KEY_PREFIX = "maildir:"
POLL_INTERVAL = 0.2
"""Seconds between two looks at the inbox in :meth:`MaildirInbound.wait_for_new`."""

_SUBDIRS = ("new", "cur")


@dataclass(frozen=True)
class _Entry:
    key: str
    path: Path
    mtime_ns: int


def _open_maildir(path: Path) -> mailbox.Maildir:
    """Open (creating ``new/ cur/ tmp/`` if missing) the Maildir at ``path``.

    ``mailbox.Maildir(create=True)`` only creates the subdirectories when ``path`` itself is
    missing, so they are made here.
    """
    for sub in ("tmp", "new", "cur"):
        (path / sub).mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(path, factory=None, create=False)


def _message_key(filename: str) -> str:
    """The Maildir unique name: the file name without the ``:2,FLAGS`` info part."""
    return filename.split(mailbox.Maildir.colon, 1)[0]


HEADER_BYTES = 16384
"""How much of a message is read to find its sender (the header block, and no more)."""


def _sender_of(path: Path) -> str:
    """The From address of the message file at ``path``, lower case ("" if none or gone)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(HEADER_BYTES)
    except FileNotFoundError:
        return ""
    return sender_of_head(head)


def _scan(root: Path) -> list[_Entry]:
    """Every message file in ``root/new`` and ``root/cur``, by delivery time then key."""
    entries: list[_Entry] = []
    for sub in _SUBDIRS:
        try:
            it = os.scandir(root / sub)
        except FileNotFoundError:
            continue
        with it:
            for dirent in it:
                if dirent.name.startswith(".") or not dirent.is_file():
                    continue
                try:
                    mtime = dirent.stat().st_mtime_ns
                except FileNotFoundError:  # moved away meanwhile
                    continue
                entries.append(_Entry(_message_key(dirent.name), Path(dirent.path), mtime))
    entries.sort(key=lambda e: (e.mtime_ns, e.key))
    return entries


class MaildirInbound:
    """Inbound transport reading the Maildir at ``root`` (see :class:`~pbem.transport.base.InboundTransport`).

    Layout: ``root/{new,cur,tmp}`` is the inbox; ``root/.Processed``, ``root/.Rejected`` and
    ``root/.Ignored`` are Maildir++ subfolders. Keys are ``"maildir:<unique name>"``.

    All methods are synchronous file operations inside ``async`` functions; each is a few
    directory reads or one rename, so none blocks the loop noticeably.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._inbox: mailbox.Maildir | None = None
        self._last_seen: frozenset[str] | None = None

    async def connect(self) -> None:
        """Create the inbox and the three folders if missing. Idempotent."""
        inbox = _open_maildir(self.root)
        existing = set(inbox.list_folders())
        for folder in FOLDER_FOR_OUTCOME.values():
            if folder not in existing:
                try:
                    inbox.add_folder(folder)
                except FileExistsError:  # another server created it meanwhile
                    pass
        self._inbox = inbox

    def _require_connected(self) -> None:
        if self._inbox is None:
            raise RuntimeError("MaildirInbound.connect() was not called")

    async def fetch(self, limit: int | None = None, first: Callable[[str], bool] | None = None) -> list[Envelope]:
        """The messages in the inbox (``new/`` and ``cur/``), oldest delivery first, at most
        ``limit``; with ``first``, those whose From address it accepts come first (only their
        headers are read to tell, so memory stays bounded by ``limit`` whatever the backlog).

        Ties in delivery time (file mtime, ns) are ordered by key. Files are not moved from
        ``new/`` to ``cur/``: reading leaves the inbox as it was.
        """
        self._require_connected()
        entries = _scan(self.root)
        self._last_seen = frozenset(e.key for e in entries)
        if first is not None:
            ahead = {e.key: first(_sender_of(e.path)) for e in entries}
            entries.sort(key=lambda e: not ahead[e.key])  # stable: by delivery within each group
        envelopes: list[Envelope] = []
        for entry in entries:
            if limit is not None and len(envelopes) >= limit:
                break
            try:
                raw = entry.path.read_bytes()
            except FileNotFoundError:  # settled or moved by someone else meanwhile
                continue
            envelopes.append(Envelope(raw=raw, key=KEY_PREFIX + entry.key))
        return envelopes

    async def settle(self, envelope: Envelope, outcome: Outcome) -> None:
        """Move the message file into the folder for ``outcome`` (same subdir, same name).

        Idempotent: a message no longer in the inbox (already settled, or deleted) is left
        alone.

        :raises ValueError: the key is not a Maildir key, or ``outcome`` is unknown.
        """
        self._require_connected()
        if not envelope.key.startswith(KEY_PREFIX):
            raise ValueError(f"not a Maildir key: {envelope.key!r}")
        if outcome not in FOLDER_FOR_OUTCOME:
            raise ValueError(f"unknown outcome {outcome!r}")
        key = envelope.key[len(KEY_PREFIX) :]
        folder = self.root / ("." + FOLDER_FOR_OUTCOME[outcome])
        for _attempt in range(3):  # another reader may move it new/ -> cur/ between scan and rename
            entry = next((e for e in _scan(self.root) if e.key == key), None)
            if entry is None:
                return
            target = folder / entry.path.parent.name / entry.path.name
            try:
                os.rename(entry.path, target)
            except FileNotFoundError:
                if not entry.path.exists():
                    continue
                raise
            fsync_dir(target.parent)
            fsync_dir(entry.path.parent)
            return

    async def wait_for_new(self, timeout: float) -> None:
        """Return as soon as the inbox holds a message the last :meth:`fetch` did not see,
        or after ``timeout`` seconds. Polls every :data:`POLL_INTERVAL` seconds.

        Without an earlier fetch, the inbox as it is now is the baseline.
        """
        self._require_connected()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max(0.0, timeout)
        baseline = self._last_seen
        if baseline is None:
            baseline = frozenset(e.key for e in _scan(self.root))
        while True:
            if any(e.key not in baseline for e in _scan(self.root)):
                return
            remaining = deadline - loop.time()
            if remaining <= 0:
                return
            await asyncio.sleep(min(POLL_INTERVAL, remaining))

    async def close(self) -> None:
        """Nothing to release; safe to call any number of times."""
        self._inbox = None


_UNSAFE = re.compile(r"[^a-z0-9@._+-]")


TMP_KEPT = 3600.0
"""Seconds a file may stay in a recipient's ``tmp/`` before it counts as left by a crash."""


def delivery_name(message_id: str) -> str | None:
    """The file name a message is delivered under, fixed by its Message-ID (None without
    one), so a message delivered twice (a crash between delivering and recording it) is
    stored once."""
    mid = message_id.strip()
    return f"pbem-{hashlib.sha256(mid.encode()).hexdigest()[:40]}" if mid else None


def _deliver_once(folder: Path, name: str, raw: bytes) -> None:
    """Write ``raw`` into the Maildir ``folder`` as ``name`` unless a message of that name
    is there (in ``new/``, or read into ``cur/``): written in ``tmp/``, fsynced, then
    hard-linked into ``new/`` (which fails if the name is taken) and unlinked from ``tmp/``."""
    _open_maildir(folder)
    if (folder / "new" / name).exists() or any(_message_key(e.name) == name for e in os.scandir(folder / "cur")):
        return
    tmp = folder / "tmp" / f"{name}.{os.getpid()}"
    with open(tmp, "wb") as handle:
        handle.write(raw)
        handle.flush()
        os.fsync(handle.fileno())
    try:
        os.link(tmp, folder / "new" / name)
    except FileExistsError:
        pass  # delivered meanwhile by another server on the same folder
    finally:
        os.unlink(tmp)
    fsync_dir(folder / "new")


def recipient_folder_name(address: str) -> str:
    """The folder name for ``address``: lower-cased, every character outside
    ``[a-z0-9@._+-]`` replaced by ``_``, never starting with ``.`` (which would make it a
    Maildir++ subfolder or a hidden file).

    >>> recipient_folder_name("Alice.Smith@Example.ORG")
    'alice.smith@example.org'
    """
    name = _UNSAFE.sub("_", address.strip().lower())
    if not name or name.startswith("."):
        name = "_" + name
    return name


def recipients_of(message: EmailMessage) -> list[str]:
    """The distinct addresses in To, Cc and Bcc, in that order, lower-cased."""
    found: list[str] = []
    for header in ("To", "Cc", "Bcc"):
        values = [str(v) for v in message.get_all(header, [])]
        for _name, addr in getaddresses(values):
            addr = addr.strip().lower()
            if addr and "@" in addr and addr not in found:
                found.append(addr)
    return found


class MaildirOutbound:
    """Outbound transport writing one Maildir per recipient under ``root``.

    A message to ``Alice@Example.org`` and ``bob@example.org`` lands in
    ``root/alice@example.org/new/`` and ``root/bob@example.org/new/`` (see
    :func:`recipient_folder_name`). The Bcc header is removed from the stored copies.
    """

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    async def send(self, message: EmailMessage) -> None:
        """Deliver ``message`` into the Maildir of each To/Cc/Bcc recipient.

        :raises PermanentSendError: the message has no recipient address.
        :raises TransientSendError: writing failed (disk full, permissions); folders already
            written keep their copy, so a retry may deliver a recipient twice.
        """
        recipients = recipients_of(message)
        if not recipients:
            raise PermanentSendError("message has no To/Cc/Bcc recipient")
        stored = copy.copy(message)
        del stored["Bcc"]
        raw = stored.as_bytes()
        name = delivery_name(str(message.get("Message-ID", "")))
        for address in recipients:
            try:
                folder = self.root / recipient_folder_name(address)
                if name is None:
                    _open_maildir(folder).add(raw)
                else:
                    _deliver_once(folder, name, raw)
            except OSError as exc:
                raise TransientSendError(f"cannot write the Maildir for {address}: {exc}") from exc

    def clean_tmp(self, now: float, older_than: float = TMP_KEPT) -> int:
        """Remove the files left in the recipients' ``tmp/`` folders by a delivery cut short
        (older than ``older_than`` seconds at ``now``, so a delivery under way elsewhere is
        left alone); returns how many."""
        removed = 0
        for tmp in self.root.glob("*/tmp"):
            for entry in os.scandir(tmp):
                try:
                    if entry.is_file() and now - entry.stat().st_mtime > older_than:
                        os.unlink(entry.path)
                        removed += 1
                except FileNotFoundError:
                    continue
        return removed

    def folder_for(self, address: str) -> Path:
        """The Maildir path that holds ``address``'s messages (may not exist yet)."""
        return self.root / recipient_folder_name(address)


def deliver_to_inbox(root: Path, raw: bytes) -> str:
    """Drop ``raw`` (an RFC 5322 message) into ``root/new/`` the way an MDA would.

    Creates the Maildir if missing. For tests and the demo.

    :returns: the key :class:`MaildirInbound` will give the message, ``"maildir:<name>"``.
    """
    return KEY_PREFIX + _open_maildir(Path(root)).add(raw)
