"""HTML bodies: the quoted parts of the common mail clients removed, the rest as text."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from inscriptis import get_text  # type: ignore[import-untyped]

__all__ = ["MAX_TAGS", "cut_markup", "html_to_text"]

_HTML_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_TAG_OPEN = re.compile(r"<")

MAX_TAGS = 6000
"""Only the markup before this many tags is converted (the HTML parsers take ~12 µs a tag;
a reply that quotes a turn report has about a thousand)."""


class _QuoteFinder(HTMLParser):
    """Finds the character spans of quoted parts in an HTML document.

    Removed elements: ``blockquote``, ``div.gmail_quote``, ``div.moz-cite-prefix``. Outlook's
    ``div#appendonsend`` and ``div#divRplyFwdMsg`` start the quoted mail, so everything from
    them to the end goes.
    """

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self._html = html
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", html)]
        self.spans: list[tuple[int, int]] = []
        self._open: tuple[str, int, int] | None = None  # (tag, start offset, depth)

    def _offset(self) -> int:
        line, column = self.getpos()
        return self._line_starts[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._open is not None:
            open_tag, start, depth = self._open
            if tag == open_tag:
                self._open = (open_tag, start, depth + 1)
            return
        values = {name: (value or "") for name, value in attrs}
        classes = values.get("class", "").split()
        element_id = values.get("id", "")
        if tag == "div" and element_id in ("appendonsend", "divRplyFwdMsg"):
            self.spans.append((self._offset(), len(self._html)))
            self._open = ("#rest", 0, 1)  # nothing after this is kept
        elif tag == "blockquote" or (
            tag == "div" and ("gmail_quote" in classes or "moz-cite-prefix" in classes)
        ):
            self._open = (tag, self._offset(), 1)

    def handle_endtag(self, tag: str) -> None:
        if self._open is None or tag != self._open[0]:
            return
        open_tag, start, depth = self._open
        if depth > 1:
            self._open = (open_tag, start, depth - 1)
            return
        here = self._offset()
        close = self._html.find(">", here)
        self.spans.append((start, len(self._html) if close < 0 else close + 1))
        self._open = None

    def finish(self) -> list[tuple[int, int]]:
        self.close()
        if self._open is not None and self._open[0] != "#rest":
            self.spans.append((self._open[1], len(self._html)))
        return self.spans


def _strip_html_quotes(html: str) -> str:
    """``html`` without its quoted parts (see :class:`_QuoteFinder`)."""
    try:
        finder = _QuoteFinder(html)
        finder.feed(html)
        spans = finder.finish()
    except Exception:
        return html
    kept: list[str] = []
    position = 0
    for start, end in sorted(spans):
        if start > position:
            kept.append(html[position:start])
        position = max(position, end)
    kept.append(html[position:])
    return "".join(kept)


def cut_markup(html: str, max_tags: int = MAX_TAGS) -> tuple[str, bool]:
    """``(html before its max_tags-th tag, whether it was cut)``."""
    for count, match in enumerate(_TAG_OPEN.finditer(html), start=1):
        if count > max_tags:
            return html[: match.start()], True
    return html, False


def html_to_text(html: str) -> str:
    """The text of an HTML body without its quoted parts (see :class:`_QuoteFinder`),
    converted by inscriptis (entities such as ``&nbsp;`` and ``&amp;`` decoded). The caller
    cuts long markup first (:func:`cut_markup`).

    :raises ValueError: inscriptis could not convert it (the message names the error).
    """
    html = _HTML_CONTROL.sub("", html)
    try:
        return str(get_text(_strip_html_quotes(html)))
    except Exception as exc:
        raise ValueError(type(exc).__name__) from None
