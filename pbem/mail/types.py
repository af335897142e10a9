"""What reading one received message can give: a submission, an ignored auto-mail, or an
unreadable message that deserves a reply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class Submission:
    """A readable order mail.

    :param message_id: the Message-ID with angle brackets (``"<abc@host>"``); when the mail
        has none, ``"<sha256-hex-of-raw@pbem.invalid>"`` so the key is still stable.
    :param sender: the From address, lower-cased addr-spec (``"alice@example.org"``).
    :param sender_name: the From display name, may be empty.
    :param subject: the decoded Subject, ``Re:``/``Fwd:`` prefixes kept.
    :param game_tag: the game id inside the first ``[...]`` of the Subject (``"demo-1830"``),
        or None (the server also tries the later tags,
        :func:`pbem.mail.reading.game_tags`).
    :param secret: the seat's (or GM's) secret from a ``PASSWORD <secret>`` line, or None.
    :param lines: the command lines in order, stripped, blank lines, the PASSWORD line and
        everything after the first signature/quote/END marker removed.
    :param notes: remarks for the reply, e.g. ``"read from the HTML part"``.
    """

    message_id: str
    sender: str
    sender_name: str
    subject: str
    game_tag: str | None
    secret: str | None
    lines: tuple[str, ...]
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ignored:
    """An auto-mail (bounce, auto-reply, list mail, our own mail): kept, logged, never answered."""

    message_id: str
    sender: str | None
    reason: str


UnreadableKind = Literal[
    "malformed_mime", "unknown_charset", "empty_body", "oversize", "attachment_only", "no_sender"
]


@dataclass(frozen=True)
class Unreadable:
    """A mail from a person that cannot be read as orders; answered (if ``sender``) with ``reason``."""

    message_id: str
    sender: str | None
    subject: str
    game_tag: str | None
    kind: UnreadableKind
    reason: str


ReadResult = Submission | Ignored | Unreadable
