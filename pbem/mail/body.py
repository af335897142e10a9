"""From the decoded text of an order mail to its numbered lines: soft-wrapped paragraphs
joined (RFC 3676 format=flowed), quoted blocks skipped, reading ended at a signature, a reply
header or ``END``, the secret taken out, each line marked as an order line or chatter.

Every function here is pure and takes time linear in the length of the text: each line is
looked at a bounded number of times, and every pattern is matched against one line (at most
two joined lines) with no nested repetition.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.commands import is_command_line
from pbem.mail.types import BodyLine

__all__ = ["BodyText", "numbered_lines", "read_lines", "unflow"]

_SECRET = re.compile(r"(?i)^(?:password|pw)(?:\s*[:=]\s*|\s+)(\S+)$")
_BEGIN = re.compile(r"(?i)^begin\s+orders$")
_ON = re.compile(r"(?i)on\s")
_WROTE = re.compile(r"(?i)\bwrote:$")
_AM = re.compile(r"(?i)am\s")
_SCHRIEB = re.compile(r"(?i)\bschrieb\b")
_ORIGINAL = re.compile(
    r"(?i)^-{2,}\s*(?:original message|message d'origine|mensaje original|messaggio originale"
    r"|urspr\u00fcngliche nachricht|original-nachricht|oorspronkelijk bericht|originalmeddelande"
    r"|oprindelig meddelelse|opprinnelig melding|mensagem original|wiadomo\u015b\u0107 oryginalna)\s*-{2,}$"
)
"""The separator Outlook writes above a replied-to or forwarded mail, in the languages of its
most common installations."""
_UNDERSCORES = re.compile(r"^_{5,}$")
_SENT_FROM = re.compile(r"(?i)^sent from my\b")
_VON_MEINEM = re.compile(r"(?i)^von meinem\b")
_OUTLOOK_FROM = re.compile(r"(?i)^(?:from|von|de|van|da|fra|fr\u00e5n|od)\s?:")
_OUTLOOK_SENT = re.compile(
    r"(?i)^(?:sent|date|gesendet|datum|envoy\u00e9|enviado(?: el)?|fecha|verzonden|inviato|data"
    r"|skickat|sendt|wys\u0142ano)\s?:"
)
"""An Outlook header block (``From:`` then ``Sent:``), in English, German, French (``De :``
with its space before the colon), Spanish, Portuguese, Dutch, Italian, the Scandinavian
languages and Polish."""
_INVISIBLE = "\ufeff\u200b\u200c\u200d\u2060"
_WIDE_SPACES = str.maketrans({"\u00a0": " ", "\u202f": " ", "\u2007": " "})

_ATTRIBUTION_MAX = 500
"""An attribution line ("On ... wrote:") is longer than this only in a crafted mail."""
_OUTLOOK_LOOKAHEAD = 6
"""How many lines after a ``From:`` line may hold the ``Sent:``/``Date:`` of a header block."""


@dataclass(frozen=True)
class BodyText:
    """The lines read from one body text.

    :param lines: the kept lines (order lines and chatter), numbered as written.
    :param secret: the first ``PASSWORD <secret>`` / ``PW <secret>``, or None.
    :param cut: True when there were more than ``max_lines`` lines and the rest was not read.
    """

    lines: tuple[BodyLine, ...]
    secret: str | None
    cut: bool

    @property
    def has_orders(self) -> bool:
        """Whether any kept line is an order or command line."""
        return any(line.is_order for line in self.lines)


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """``(number from 1, line)`` for every line of ``text`` (CRLF, CR or LF ends; other
    Unicode line separators are not line ends, so the numbers match what the player sees)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return list(enumerate(lines, start=1))


def unflow(text: str, *, delsp: bool) -> list[tuple[int, str]]:
    """The lines of a ``format=flowed`` text with its soft line breaks undone (RFC 3676
    section 4.2): a line ending in a space is continued by the next line of the same quote
    depth (with ``delsp`` that trailing space is deleted, section 4.5); one leading space
    after the quote marks is space-stuffing and removed (section 4.4); the signature line
    ``"-- "`` is never flowed (section 4.3). Quoted lines keep their ``>`` marks.

    :returns: ``(number of the paragraph's first line, joined line)`` in order.
    """
    out: list[tuple[int, str]] = []
    open_number = 0
    open_depth = -1
    parts: list[str] = []

    def close() -> None:
        nonlocal open_depth, parts
        if open_depth >= 0:
            joined = "".join(parts)
            out.append((open_number, (">" * open_depth + " " + joined) if open_depth else joined))
        open_depth, parts = -1, []

    for number, line in numbered_lines(text):
        content = line.lstrip(">")
        depth = len(line) - len(content)
        if content.startswith(" "):
            content = content[1:]
        signature = content == "-- "
        if signature or depth != open_depth:
            close()
        if open_depth < 0:
            open_number, open_depth = number, depth
        flowed = content.endswith(" ") and not signature
        if flowed and delsp:
            content = content[:-1]
        parts.append(content)
        if not flowed:
            close()
    close()
    return out


def read_lines(numbered: list[tuple[int, str]], max_lines: int) -> BodyText:
    """The lines of an order mail from its numbered body lines.

    Rules, line by line (each line stripped; no-break and narrow no-break spaces read as
    spaces):

    - a blank line is skipped (and does not count as the next line for the rules below);
    - a quoted line (starting with ``>``) is skipped, and so is an attribution line
      (``On … wrote:``, ``Am … schrieb …:``, possibly wrapped onto two lines) that a
      quoted line follows: reading goes on after the quote (bottom-posting);
    - reading ends at a signature (``--``), a line ``END``, ``-----Original Message-----``,
      a line of 5+ underscores, ``Sent from my …``/``Von meinem … gesendet``, an Outlook
      header block (``From:`` with ``Sent:``/``Date:`` in the next lines), or an
      attribution with no quote after it (the quoted mail is not marked);
    - the first ``PASSWORD <secret>`` / ``PW <secret>`` line gives the secret (every such
      line is left out); a leading ``BEGIN ORDERS`` line is left out;
    - every other line is kept, marked as an order line or chatter
      (:func:`pbem.commands.is_command_line`); at most ``max_lines`` are kept.
    """
    limit = max(max_lines, 0)
    numbered = [(number, line) for number, line in numbered if line.strip()]
    texts = _Texts(numbered)
    kept: list[BodyLine] = []
    secret: str | None = None
    cut = False
    index = 0
    while index < len(texts):
        line = texts[index]
        if not line:
            index += 1
            continue
        if line.startswith(">"):
            index += 1
            continue
        attribution = _attribution_length(texts, index)
        if attribution:
            after = _next_nonblank(texts, index + attribution)
            if after is not None and texts[after].startswith(">"):
                index = after
                continue
            break
        if _ends_reading(texts, index):
            break
        password = _SECRET.match(line)
        if password is not None:
            if secret is None:
                secret = password.group(1)
            index += 1
            continue
        if not kept and _BEGIN.match(line):
            index += 1
            continue
        if len(kept) >= limit:
            cut = True
            break
        kept.append(BodyLine(numbered[index][0], line, is_command_line(line)))
        index += 1
    return BodyText(tuple(kept), secret, cut)


class _Texts:
    """The cleaned lines, each cleaned when first looked at (reading often stops early)."""

    def __init__(self, numbered: list[tuple[int, str]]) -> None:
        self._numbered = numbered
        self._clean: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self._numbered)

    def __getitem__(self, index: int) -> str:
        text = self._clean.get(index)
        if text is None:
            raw = self._numbered[index][1]
            text = raw.translate(_WIDE_SPACES).strip().strip(_INVISIBLE).strip()
            self._clean[index] = text
        return text


def _next_nonblank(texts: _Texts, start: int) -> int | None:
    for index in range(start, len(texts)):
        if texts[index]:
            return index
    return None


def _is_attribution(text: str) -> bool:
    if len(text) > _ATTRIBUTION_MAX:
        return False
    if _ON.match(text) and _WROTE.search(text):
        return True
    return bool(_AM.match(text) and text.endswith(":") and _SCHRIEB.search(text))


def _attribution_length(texts: _Texts, index: int) -> int:
    """2 when ``texts[index]`` and the next line together are an attribution, 1 when the line
    alone is one, else 0."""
    line = texts[index]
    if _is_attribution(line):
        return 1
    following = texts[index + 1] if index + 1 < len(texts) else ""
    if following and _is_attribution(f"{line} {following}"):
        return 2
    return 0


def _ends_reading(texts: _Texts, index: int) -> bool:
    """Whether ``texts[index]`` starts the signature, a forwarded or replied-to mail, a
    mobile footer or the end of the orders."""
    line = texts[index]
    if line == "--" or line.upper() == "END":
        return True
    if _ORIGINAL.match(line) or _UNDERSCORES.match(line) or _SENT_FROM.match(line):
        return True
    if _VON_MEINEM.match(line) and line.lower().endswith("gesendet"):
        return True
    if _OUTLOOK_FROM.match(line):
        nearby = range(index + 1, min(index + 1 + _OUTLOOK_LOOKAHEAD, len(texts)))
        return any(_OUTLOOK_SENT.match(texts[i]) for i in nearby)
    return False
