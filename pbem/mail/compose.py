"""Build every mail the server sends: headers for loop prevention (RFC 3834), stable
Message-IDs for an idempotent outbox, and reply subjects that keep the game tag.

Pure functions: nothing here sends mail or keeps state.
"""

from __future__ import annotations

import email.policy
import email.utils
import hashlib
import re
import time
from datetime import datetime, timezone
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Callable, Literal

__all__ = ["MARKER_HEADER", "MASK", "InlineImage", "compose", "deterministic_message_id", "mask_secret",
           "reply_subject"]

MARKER_HEADER = "X-PBEM-Server"
"""The header added to everything we send, so :func:`pbem.mail.reading.read_message` can
recognise (and ignore) our own mail when it comes back."""

MailKind = Literal["report", "reply", "welcome", "notice"]

_MESSAGE_ID = re.compile(r"<[^<>@\s]+@[^<>@\s]+>")
_DOMAIN = re.compile(r"[^<>@\s\"(),;:\\\[\]]+")
_REPLY_PREFIXES = re.compile(r"(?i)^(?:(?:re|aw|antw)(?:\[\d+\]|\(\d+\))?\s*:\s*)+")
_SPACES = re.compile(r"[\s\x00-\x1f\x7f]+")
_PASSWORD_WORD = re.compile(r"(?i)\b(password|pw)(\s*[:=]\s*|\s+(?:is\s+)?)(?!\*{8}(?!\S))\S+")

@dataclass(frozen=True)
class InlineImage:
    """A PNG shown in the mail's body by clients that show inline images (an attachment
    elsewhere): ``filename`` (``map-24.png``) and the PNG's bytes."""

    filename: str
    png: bytes


MASK = "********"
"""What a secret is replaced by wherever a mail we send would quote it."""


def compose(
    *,
    sender: str,
    to: list[str],
    subject: str,
    body: str,
    kind: MailKind,
    message_id: str,
    server_id: str,
    in_reply_to: str | None = None,
    references: tuple[str, ...] = (),
    date: datetime | None = None,
    clock: Callable[[], float] = time.time,
    images: Sequence[InlineImage] = (),
) -> EmailMessage:
    """Build one plain-text UTF-8 mail, ready for ``aiosmtplib.send``; with ``images``, a
    ``multipart/mixed`` whose text part comes first and each PNG follows it marked
    ``Content-Disposition: inline`` (shown below the text by common clients; a text-only
    reader loses nothing).

    Headers, in this order: ``From``, ``To`` (the addresses joined by ``", "``), ``Subject``,
    ``Date`` (RFC 5322 section 3.3, via :func:`email.utils.format_datetime`; ``date`` or
    now, a naive ``date`` is taken as UTC), ``Message-ID``, ``In-Reply-To`` and
    ``References`` (only when given, RFC 5322 section 3.6.4), ``Auto-Submitted``
    (RFC 3834 section 5: ``auto-replied`` for ``kind="reply"``, ``auto-generated`` for
    ``"report"``, ``"welcome"`` and ``"notice"``) and ``X-PBEM-Server: <server_id>``.
    ``Precedence`` is not set (RFC 3834 section 3.1.8 discourages it).

    The message uses :data:`email.policy.SMTP` (CRLF line ends) and the body is
    ``text/plain; charset="utf-8"`` with ``Content-Transfer-Encoding: quoted-printable``,
    so ``msg.as_bytes()`` is 7-bit ASCII whatever the text.

    :param message_id: ``"<local@domain>"``, e.g. from :func:`deterministic_message_id`.
    :param date: the ``Date`` header; without it, ``clock`` (seconds since the epoch) gives it.
    :returns: a new :class:`email.message.EmailMessage`.
    :raises ValueError: ``to`` is empty, ``message_id`` is not ``<local@domain>``, or a header
        value contains a line break.
    """
    if not to:
        raise ValueError("compose: 'to' has no address")
    if not _MESSAGE_ID.fullmatch(message_id):
        raise ValueError(f"compose: message_id {message_id!r} is not '<local@domain>'")
    when = date if date is not None else datetime.fromtimestamp(clock(), timezone.utc)
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)

    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender
    msg["To"] = ", ".join(to)
    msg["Subject"] = subject
    msg["Date"] = email.utils.format_datetime(when)
    msg["Message-ID"] = message_id
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    if references:
        msg["References"] = " ".join(references)
    msg["Auto-Submitted"] = "auto-replied" if kind == "reply" else "auto-generated"
    msg[MARKER_HEADER] = server_id
    msg.set_content(body, subtype="plain", charset="utf-8", cte="quoted-printable")
    for image in images:
        msg.add_attachment(image.png, maintype="image", subtype="png", filename=image.filename,
                           disposition="inline")
    return msg


def deterministic_message_id(*parts: str, domain: str) -> str:
    """A Message-ID that depends only on ``parts`` and ``domain``.

    ``"<" + sha256("\\x1f".join(parts)).hexdigest()[:32] + "@" + domain + ">"``, so the same
    mail queued twice (e.g. after a crash) keeps the same Message-ID (RFC 5322 section 3.6.4
    asks for a unique id; the parts must make it unique, e.g. game, turn, recipient).

    >>> deterministic_message_id("demo-1830", "SR 1", "alice@example.org", domain="pbem.example")
    '<75910508d7a644ea2bb57c6f717b112b@pbem.example>'

    :returns: ``"<32-hex-digits@domain>"``.
    :raises ValueError: ``domain`` is empty or contains spaces, ``@``, ``<`` or ``>``.
    """
    if not _DOMAIN.fullmatch(domain):
        raise ValueError(f"deterministic_message_id: bad domain {domain!r}")
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:32]
    return f"<{digest}@{domain}>"


def mask_secret(text: str, secret: str | None = None, *, keyword: bool = True) -> str:
    """``text`` with no secret left in it: every whole-word occurrence of ``secret`` (any
    case; secrets are compared case-insensitively) and, with ``keyword`` (for the player's
    own text, not for ours), the word after ``PASSWORD``/``PW`` (any case, with or without
    ``:``/``=``, or ``is``) become :data:`MASK`. The issue's rule: a secret is never echoed, neither in a
    reply's Subject nor in a quoted line.

    >>> mask_secret("[g1] orders PASSWORD: k3xm9tqa")
    '[g1] orders PASSWORD: ********'
    >>> mask_secret("my secret is K3XM9TQA, ok?", "k3xm9tqa")
    'my secret is ********, ok?'
    """
    if keyword:
        text = _PASSWORD_WORD.sub(lambda m: m.group(1) + m.group(2) + MASK, text)
    if secret and secret.strip():
        pattern = r"(?<!\w)" + re.escape(secret.strip()) + r"(?!\w)"
        text = re.sub(pattern, MASK, text, flags=re.IGNORECASE)
    return text


def reply_subject(subject: str, game_tag: str | None, secret: str | None = None) -> str:
    """The Subject for a reply to ``subject``: one ``Re: `` prefix and the game tag, and no
    secret (:func:`mask_secret`, with the ``secret`` the mail gave when known).

    Leading ``Re:``/``RE:``/``Aw:``/``Re[2]:`` prefixes (also right after the tag) collapse
    into one ``Re: ``; ``[game_tag]`` is put first when the subject does not already contain
    it (case-insensitively); line breaks and runs of spaces become one space.

    >>> reply_subject("Re: RE: [demo-1830] Orders", "demo-1830")
    'Re: [demo-1830] Orders'
    >>> reply_subject("Orders", "demo-1830")
    'Re: [demo-1830] Orders'

    :returns: a one-line subject, ``"Re:"`` alone when there is neither text nor tag.
    """
    rest = _REPLY_PREFIXES.sub("", mask_secret(_SPACES.sub(" ", subject).strip(), secret))
    if game_tag:
        tag = "[" + _SPACES.sub(" ", game_tag).strip() + "]"
        if rest.lower().startswith(tag.lower()):
            rest = tag + " " + _REPLY_PREFIXES.sub("", rest[len(tag) :].strip())
        elif tag.lower() not in rest.lower():
            rest = tag + " " + rest
    rest = rest.strip()
    return f"Re: {rest}" if rest else "Re:"
