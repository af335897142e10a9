"""The header section of a received mail: Message-ID, sender, Subject and game tags, read
defensively and in time linear in their length (long values are cut before the stdlib's
header parser sees them)."""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import re
from dataclasses import dataclass
from email.message import Message
from email.parser import BytesParser

__all__ = ["Head", "game_tag", "game_tags", "read_head"]

CONTROL = re.compile(r"[\x00-\x1f\x7f]+")
_MAX_FROM = 998
"""A From header longer than this (RFC 5322's line limit) is not given to the stdlib's
address parser, which is slow on long address lists; its first address is read leniently."""
_MAX_SUBJECT = 998
"""Only this much of a Subject is read (RFC 5322's line limit); the game tag comes early."""
_FOLD = re.compile(r"\r?\n[ \t]*")
_TAG = re.compile(r"(?i)(\b(?:re|aw|fwd?|wg|sv|antw)\s*)?\[([^\[\]]*)\]")
"""A ``[...]`` tag, with the reply word right before it when there is one (``Re[2]``)."""
_FORWARD_INSIDE = re.compile(r"(?i)(?:re|aw|fwd?|wg)\s*:")
_ADDR_SPEC = re.compile(
    r'(?:[^\s@<>()\[\]\\,;:"]+|"[^"\\\r\n]*")'
    r"@(?:[^\s@<>()\[\]\\,;:\".]+(?:\.[^\s@<>()\[\]\\,;:\".]+)*|\[[^\[\]\s\\]+\])"
)


@dataclass(frozen=True)
class Head:
    """What the headers say, read defensively (see :func:`read_head`)."""

    message_id: str
    sender: str | None
    sender_name: str
    sender_problem: str | None  # set when From is present but could not be parsed
    subject: str
    game_tag: str | None
    raw_headers: tuple[tuple[str, str], ...]  # (lower-cased name, unfolded value) in order


def parse_headers_only(raw: bytes, max_bytes: int) -> Message:
    """Parse only the header section, looking at no more than ``max_bytes`` bytes."""
    head = raw[:max_bytes]
    end = re.search(rb"\r?\n\r?\n", head)
    if end is not None:
        head = head[: end.end()]
    try:
        return BytesParser(policy=email.policy.default).parsebytes(head, headersonly=True)
    except Exception:
        return email.message_from_bytes(b"", policy=email.policy.default)


def read_head(msg: Message, raw: bytes) -> Head:
    """What the headers of ``msg`` (parsed from ``raw``) say: Message-ID (bracketed; the
    sha256 of ``raw`` when missing), the From address and name, the Subject and its game tag."""
    raw_headers = tuple(
        (str(name).lower(), _unfold(value)) for name, value in _raw_items(msg)
    )
    message_id = next((v for n, v in raw_headers if n == "message-id" and v), "")
    message_id = re.sub(r"\s+", "", message_id)
    if not message_id:
        message_id = fallback_message_id(raw)
    elif not (message_id.startswith("<") and message_id.endswith(">")):
        message_id = f"<{message_id.strip('<>')}>"
    sender, name, problem = _read_from(msg, raw_headers)
    subject = _read_subject(msg, raw_headers)
    return Head(
        message_id=message_id,
        sender=sender,
        sender_name=name,
        sender_problem=problem,
        subject=subject,
        game_tag=game_tag(subject),
        raw_headers=raw_headers,
    )


def _raw_items(msg: Message) -> list[tuple[str, str]]:
    try:
        return [(str(n), str(v)) for n, v in msg.raw_items()]
    except Exception:
        return []


def _read_from(
    msg: Message, raw_headers: tuple[tuple[str, str], ...]
) -> tuple[str | None, str, str | None]:
    """(lower-cased addr-spec or None, display name, problem) from the first From header."""
    raw_from = next((v for n, v in raw_headers if n == "from"), None)
    if raw_from is None:
        return None, "", None
    if len(raw_from) > _MAX_FROM:
        lenient = normalise_address(raw_from[:_MAX_FROM])
        return (
            lenient if is_address(lenient) else None,
            "",
            f"the From header has {len(raw_from)} characters, more than {_MAX_FROM}",
        )
    try:
        header = msg.get("From")
        addresses = tuple(getattr(header, "addresses", ()))
        if not addresses:
            return None, "", None
        first = addresses[0]
        addr = clean(str(first.addr_spec)).strip().lower()
        name = clean(str(first.display_name)).strip()
    except Exception as exc:
        lenient = normalise_address(raw_from)
        return (
            lenient if is_address(lenient) else None,
            "",
            f"the From header cannot be parsed ({type(exc).__name__})",
        )
    return (addr if is_address(addr) else None), name, None


def _read_subject(msg: Message, raw_headers: tuple[tuple[str, str], ...]) -> str:
    """The decoded Subject (RFC 2047), one line; only its first :data:`_MAX_SUBJECT`
    characters are decoded (the stdlib's header parser is slow on long values)."""
    raw_subject = next((v for n, v in raw_headers if n == "subject"), None)
    try:
        if raw_subject is not None and len(raw_subject) > _MAX_SUBJECT:
            text = str(email.policy.default.header_factory("Subject", raw_subject[:_MAX_SUBJECT]))
        else:
            value = msg.get("Subject")
            text = "" if value is None else str(value)
    except Exception:
        text = raw_subject or ""
    return re.sub(r"\s+", " ", CONTROL.sub(" ", clean(text))).strip()


def game_tags(subject: str) -> list[str]:
    """The trimmed texts of every ``[...]`` in ``subject`` that is not ``Re[2]:`` or
    ``[Fwd: ...]``, in order and as written (``"[URGENT] [my-game] orders"`` gives
    ``["URGENT", "my-game"]``); the server takes the first that names one of its games.

    One pass of one pattern over the subject: time linear in its length (a Subject of
    thousands of ``[1]`` is read at once).
    """
    tags: list[str] = []
    for match in _TAG.finditer(subject):
        counter, inner = match.group(1), match.group(2).strip()
        if not inner:
            continue
        if counter is not None and inner.isdigit():
            continue
        if _FORWARD_INSIDE.match(inner):
            continue
        tags.append(inner)
    return tags


def game_tag(subject: str) -> str | None:
    """The first of :func:`game_tags`, or None."""
    tags = game_tags(subject)
    return tags[0] if tags else None


def fallback_message_id(raw: object) -> str:
    """``<sha256-hex-of-raw@pbem.invalid>`` for a mail without a Message-ID."""
    try:
        digest = hashlib.sha256(bytes(raw)).hexdigest()  # type: ignore[call-overload]
    except Exception:
        digest = hashlib.sha256(repr(raw).encode("utf-8", "replace")).hexdigest()
    return f"<{digest}@pbem.invalid>"


def clean(text: str) -> str:
    """Undo the parser's surrogate escapes of raw 8-bit bytes (UTF-8, else cp1252)."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        data = text.encode("utf-8", "surrogateescape") if _escapes_only(text) else None
    if data is None:
        return text.encode("utf-8", "replace").decode("utf-8")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def _escapes_only(text: str) -> bool:
    try:
        text.encode("utf-8", "surrogateescape")
        return True
    except UnicodeEncodeError:
        return False


def _unfold(value: str) -> str:
    return clean(_FOLD.sub(" ", str(value))).strip()


def normalise_address(text: str) -> str:
    """The addr-spec in ``text`` (``"A <a@B.org>"`` -> ``"a@b.org"``), lower-cased, leniently."""
    address = email.utils.parseaddr(text)[1] or text
    return clean(address).strip().lower()


def is_address(address: str) -> bool:
    """Whether ``address`` is a usable addr-spec (``local@domain``, RFC 5322 section 3.4.1)."""
    return _ADDR_SPEC.fullmatch(address) is not None
