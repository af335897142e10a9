"""What reading one received message can give: a submission, an ignored auto-mail, or an
unreadable message that deserves a reply."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True)
class BodyLine:
    """One line of an order mail as read.

    :param number: the line's number in the body as the player wrote it, from 1 (blank and
        quoted lines count; a format=flowed paragraph has the number of its first line).
    :param text: the line, stripped, soft-wrapped parts joined (RFC 3676).
    :param is_order: whether its first word is an order or command word
        (:func:`pbem.commands.is_command_line`); otherwise it is chatter.
    """

    number: int
    text: str
    is_order: bool


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
    :param body: the lines read, in order: order/command lines and chatter; blank lines,
        the PASSWORD line, quoted blocks (``>`` lines and their attribution) and everything
        after the first signature, reply header or ``END`` line left out.
    :param notes: remarks for the reply, e.g. ``"read from the HTML part"``.
    :param cut_at: the line limit (``max_lines``) when the mail had more lines than that
        and the rest was not read; None when everything was read.
    """

    message_id: str
    sender: str
    sender_name: str
    subject: str
    game_tag: str | None
    secret: str | None
    body: tuple[BodyLine, ...]
    notes: tuple[str, ...] = ()
    cut_at: int | None = None

    @property
    def orders(self) -> tuple[BodyLine, ...]:
        """The order and command lines, in order."""
        return tuple(line for line in self.body if line.is_order)

    @property
    def chatter(self) -> tuple[BodyLine, ...]:
        """The lines that are not orders ("Hi all,", "cheers, Priya"), in order."""
        return tuple(line for line in self.body if not line.is_order)

    @property
    def lines(self) -> tuple[str, ...]:
        """The texts of the order and command lines, in order."""
        return tuple(line.text for line in self.body if line.is_order)


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
