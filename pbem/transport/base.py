"""The contracts every transport keeps.

An inbound transport hands over :class:`Envelope` objects (raw bytes plus a stable key) and,
once the server has committed what it did with one, is told to *settle* it (move it to the
Processed, Rejected or Ignored folder). An outbound transport sends one
:class:`email.message.EmailMessage` at a time.
"""

from __future__ import annotations

from email.parser import BytesHeaderParser
from email.policy import compat32
from email.utils import getaddresses

from dataclasses import dataclass
from email.message import EmailMessage
from typing import Callable, Literal, Protocol

Outcome = Literal["processed", "rejected", "ignored"]
"""Where a settled message goes: ``processed`` (orders applied or a command answered),
``rejected`` (answered with an error), ``ignored`` (auto-mail: kept, never answered)."""

FOLDER_FOR_OUTCOME: dict[str, str] = {
    "processed": "Processed",
    "rejected": "Rejected",
    "ignored": "Ignored",
}


@dataclass(frozen=True)
class Envelope:
    """One received message as a transport hands it over.

    :param raw: the message bytes exactly as received (RFC 5322).
    :param key: a key stable across restarts for this copy of the message in this mailbox,
        e.g. ``"imap:INBOX:1700000000:42"`` (UIDVALIDITY and UID) or ``"maildir:<key>"``.
    """

    raw: bytes
    key: str


class InboundTransport(Protocol):
    """Where order mail comes from (Maildir folder or IMAP mailbox)."""

    async def connect(self) -> None:
        """Open the mailbox; create the Processed/Rejected/Ignored folders if missing."""

    async def fetch(self, limit: int | None = None, first: Callable[[str], bool] | None = None) -> list[Envelope]:
        """The messages still in the inbox, oldest first (by arrival / UID), at most
        ``limit`` (None: all); where the transport can tell the sender cheaply, those whose
        sender address ``first`` accepts (the players') come before the rest."""

    async def settle(self, envelope: Envelope, outcome: Outcome) -> None:
        """Move the message out of the inbox into the folder for ``outcome``.

        Idempotent: settling a message that is already gone is not an error.
        """

    async def wait_for_new(self, timeout: float) -> None:
        """Return when new mail may have arrived, or after ``timeout`` seconds (IDLE or sleep)."""

    async def close(self) -> None:
        """Close connections; safe to call twice."""


class TransientSendError(Exception):
    """Sending failed in a way that may succeed later (connection refused, 4xx reply)."""


class PermanentSendError(Exception):
    """Sending failed for good (5xx reply, recipient refused): do not retry."""


class OutboundTransport(Protocol):
    """Where outgoing mail goes (per-recipient Maildir folders, or an SMTP server)."""

    async def send(self, message: EmailMessage) -> None:
        """Deliver one message to all its To/Cc recipients.

        :raises TransientSendError: try again later.
        :raises PermanentSendError: never try again.
        """


def sender_of_head(head: bytes) -> str:
    """The From address in a message's header bytes, lower case ("" if none)."""
    found = getaddresses([str(BytesHeaderParser(policy=compat32).parsebytes(head).get("From", ""))])
    return found[0][1].strip().lower() if found else ""
