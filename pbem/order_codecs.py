"""Order codecs: one order word each, with how it reads, how it is written and its HELP.

An :class:`OrderCodec` is one order word (``BID``, ``LAY``, 1870's ``REDEEM``): the words
that start it (the keyword and the abbreviations players use), the action types it writes,
``parse`` (the words after the first one -> an action), ``format`` (an action -> the
canonical order line) and the HELP entries (syntax, meaning, example). The core's codecs are
in :mod:`pbem.core_codecs`; a title adds its own with
:meth:`pbem.presentation.TitlePresentation.order_codecs` (issue 11: "its own actions and order
words, one codec per action ... registered by the title"). :class:`Vocabulary` holds the
symbols an order may name and the codecs of one title; :mod:`pbem.orders` walks them.

This module also holds the readers the codecs share (amounts, counts, hexes, symbols) and
:func:`split_words`, the one place that says how a line splits into words: a comma
separates words as a blank does (``b, 2 PRR``; ``UNDO, 5``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache, cached_property
from typing import TYPE_CHECKING, Callable, Mapping

from pbem.engine.actions import Action
from pbem.errors import AmbiguousOrderError, OrderSyntaxError

if TYPE_CHECKING:
    from pbem.engine.title import TitleData

__all__ = [
    "HelpEntry", "MAX_DIGITS", "OrderCodec", "Vocabulary", "amount", "company", "corporation",
    "count", "effective", "every_codec", "every_writer", "first_word", "hex_ref", "rest_of_line", "split_words",
    "title_codecs", "using", "whole_number",
]


# -- words ------------------------------------------------------------------------------------

_WORD = re.compile(r"[^\s,]+")
_REST = re.compile(r"[\s,]*[^\s,]+[\s,]*(.*)\Z", re.DOTALL)


def split_words(line: str) -> list[str]:
    """The words of ``line``: split at blanks and commas (``"UNDO, 5"`` -> ``["UNDO", "5"]``).

    Every reader of an order or command line splits here, so the first word a chatter check
    sees is the word the parser dispatches on (issue 11).
    """
    return _WORD.findall(line)


def first_word(line: str) -> str:
    """The first word of ``line`` (:func:`split_words`) in upper case, ``""`` for a blank line.

    >>> first_word("b, 2 PRR"), first_word("PASS,"), first_word("  ")
    ('B', 'PASS', '')
    """
    match = _WORD.search(line)
    return match.group(0).upper() if match else ""


def rest_of_line(line: str) -> str:
    """The text after the first word of ``line`` and the blanks and commas that follow it, as
    written (``"BROADCAST, Hello, all"`` -> ``"Hello, all"``); ``""`` if there is none."""
    match = _REST.match(line)
    return match.group(1).rstrip() if match else ""


# -- codecs -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HelpEntry:
    """One line of the order reference: ``syntax`` (``"BID <private> <amount>"``), its
    one-line ``meaning`` and an ``example`` the codec reads (``"BID CA 165"``; a title's
    ``help_examples`` in game.yaml may name its own companies instead). ``listed``: whether
    the reference of a title lists the entry (a variant's own use of a word); None: always."""

    syntax: str
    meaning: str
    example: str
    listed: Callable[[TitleData], bool] | None = None


Parser = Callable[[list[str], str, "Vocabulary"], Action]
"""``(words after the order word, the whole line, vocabulary) -> action``; raises
:class:`~pbem.errors.OrderSyntaxError` (quoting the line) for a line it cannot read."""

Formatter = Callable[[Action, "Vocabulary | None"], "str | None"]
"""``(action, vocabulary or None) -> canonical line``, or None when the action is of one of
the codec's types but written by another codec (``Dividend("half")`` is HALF's, not PAYOUT's)."""


@dataclass(frozen=True)
class OrderCodec:
    """One order word: how it reads and is written, and its HELP.

    :param word: the keyword, upper case (``"BUY"``); the canonical lines start with it.
    :param aliases: other first words that read the same (``("B",)``), upper case.
    :param actions: the action types it writes (:attr:`format` is asked only for these).
    :param parse: see :data:`Parser`.
    :param format: see :data:`Formatter`.
    :param help: its entries in the order reference, in order.
    :param gm_only: a GM ruling: listed only in the GM's HELP (the action says whether a
        player may send it).
    :param offered: for a core codec that only some titles' data call for (EXCHANGE needs a
        private with an exchange ability): whether ``title`` has it; None: every title.
    """

    word: str
    aliases: tuple[str, ...]
    actions: tuple[type[Action], ...]
    parse: Parser
    format: Formatter
    help: tuple[HelpEntry, ...]
    gm_only: bool = False
    offered: Callable[[TitleData], bool] | None = None

    @property
    def words(self) -> tuple[str, ...]:
        """The keyword and its aliases."""
        return (self.word, *self.aliases)

    def writes(self, action: Action, vocab: Vocabulary | None) -> str | None:
        """The canonical line for ``action`` if this codec writes it, else None."""
        return self.format(action, vocab) if isinstance(action, self.actions) else None


# -- the vocabulary -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Vocabulary:
    """What an order may name in one title: private companies, corporations, train types,
    and the title's order words (its codecs).

    :param codecs: the codecs of the title, the core's first, then the title's own (a title's
        codec for a word the core has replaces the core's); empty: the codecs of every title
        (:func:`every_codec`), for callers that know no title.
    """

    companies: tuple[str, ...]
    corporations: tuple[str, ...]
    trains: tuple[str, ...] = ()
    codecs: tuple[OrderCodec, ...] = field(default=(), compare=False, repr=False)
    lowercase_hexes: frozenset[str] = frozenset()
    """The board's coordinates written in lower case (18xx.games' rows north of ``A``, 1825's
    Unit 4): an order naming one exactly as written means it; any other hex is read in upper
    case, so ``f20`` is ``F20``, unless only its lower-case form is on the board (``C8`` is
    1825's ``c8``, Wick: :attr:`uppercase_hexes`)."""
    uppercase_hexes: frozenset[str] = frozenset()
    """The board's other coordinates (empty: not known, every hex not in lower case is read
    in upper case)."""
    map_codes: Mapping[str, str] = field(default_factory=dict, compare=False)
    """The codes the ASCII map writes for corporations, upper case -> the symbol (1829's
    ``LNW`` for LNWR), where a code is not the symbol: an order may name a corporation so."""

    @classmethod
    def from_title(cls, title: TitleData) -> Vocabulary:
        """The vocabulary of ``title``, its codecs included (:func:`title_codecs`)."""
        return cls(
            companies=tuple(c.sym for c in title.companies),
            corporations=tuple(c.sym for c in title.corporations),
            trains=tuple(t.name for t in title.trains),
            codecs=title_codecs(title),
            lowercase_hexes=frozenset(c for c in title.board.hexes if c != c.upper()),
            uppercase_hexes=frozenset(c for c in title.board.hexes if c == c.upper()),
            map_codes={c.short.strip().upper(): c.sym for c in title.corporations
                       if c.short.strip() and c.short.strip().upper() != c.sym.upper()},
        )

    @cached_property
    def action_types(self) -> Mapping[str, type[Action]]:
        """The action types its codecs write, by ``kind`` (what a reader of the title's log
        passes to :func:`pbem.engine.actions.action_from_dict`)."""
        return {kind.kind: kind for codec in self.walk for kind in codec.actions}

    @cached_property
    def walk(self) -> tuple[OrderCodec, ...]:
        """The codecs orders are read and written with: :attr:`codecs`, a codec another of
        its keyword replaces left out (with its aliases; :func:`effective`)."""
        return effective(self.codecs) if self.codecs else every_codec()

    @cached_property
    def by_word(self) -> dict[str, OrderCodec]:
        """Every first word (keywords and aliases, upper case) -> its codec; where two
        codecs have a word, the later one's."""
        table: dict[str, OrderCodec] = {}
        for codec in self.walk:
            for word in codec.words:
                table[word] = codec
        return table

    @cached_property
    def by_type(self) -> dict[type[Action], tuple[OrderCodec, ...]]:
        """Action type -> the codecs that may write it, a later codec of :attr:`walk` first
        (a title's codec before the core's)."""
        return _writers(self.walk)

    def keywords(self) -> tuple[str, ...]:
        """The order keywords (no aliases), in :attr:`walk` order, each once: the words an
        unknown order's refusal lists."""
        return tuple(c.word for c in effective(self.walk))

    def shared(self, sym: str) -> bool:
        """Whether ``sym`` names both a private company and a corporation (1870: SLSF, MKT)."""
        return sym in self.companies and sym in self.corporations

    def train(self, word: str, line: str) -> str:
        """The train type named ``word`` (``"3"``, ``"D"``; a trailing ``T`` or ``-train`` is
        allowed: ``3T``, ``3-train``).

        :raises OrderSyntaxError: no such train type.
        """
        for name in self.trains:  # a type named with its T (1825's 4T) is that type, not the 4
            if name.upper() == word.upper():
                return name
        upper = re.sub(r"(-?TRAIN|T)$", "", word.upper()) or word.upper()
        for name in self.trains:
            if name.upper() == upper:
                return name
        raise OrderSyntaxError(
            f"cannot read {line!r}: no train type {word!r} (trains: {', '.join(self.trains)})"
        )

    def resolve(self, word: str, line: str, prefer: str = "company") -> tuple[str, str]:
        """``(kind, symbol)`` for ``word``: kind is ``"company"`` or ``"corporation"``.

        An exact symbol (any case) wins — of the ``prefer`` kind first when a private company
        and a corporation share the symbol (1870: SLSF, MKT); otherwise the symbol with ``&``
        and ``-`` left out (``BANDO`` is not guessed, but ``BM`` finds ``B&M``) if that
        names exactly one; else a corporation's code on the map (:attr:`map_codes`).

        :raises OrderSyntaxError: no such symbol.
        :raises AmbiguousOrderError: the shortened form names more than one.
        """
        upper = word.upper()
        kinds = (("company", self.companies), ("corporation", self.corporations))
        if prefer == "corporation":
            kinds = kinds[::-1]
        for kind, syms in kinds:
            for sym in syms:
                if sym.upper() == upper:
                    return kind, sym
        squeezed = re.sub(r"[&\-.]", "", upper)
        matches = [
            (kind, sym)
            for kind, syms in (("company", self.companies), ("corporation", self.corporations))
            for sym in syms
            if re.sub(r"[&\-.]", "", sym.upper()) == squeezed
        ]
        if not matches and upper in self.map_codes:
            return "corporation", self.map_codes[upper]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            names = " or ".join(sym for _, sym in matches)
            raise AmbiguousOrderError(f"cannot read {line!r}: {word!r} could be {names}")
        known = ", ".join(self.companies + self.corporations)
        raise OrderSyntaxError(f"cannot read {line!r}: no company or corporation {word!r} (known: {known})")


def title_codecs(title: TitleData) -> tuple[OrderCodec, ...]:
    """The codecs of ``title``: the core's it has (:attr:`OrderCodec.offered`), then its own
    (:meth:`~pbem.presentation.TitlePresentation.order_codecs`)."""
    from pbem.core_codecs import CORE_CODECS

    core = tuple(c for c in CORE_CODECS if c.offered is None or c.offered(title))
    return core + title.presentation.order_codecs()


def effective(codecs: tuple[OrderCodec, ...]) -> tuple[OrderCodec, ...]:
    """``codecs`` with each keyword once: a later codec of a keyword replaces an earlier one
    in its place (a title's PAR stands where the core's stood)."""
    return tuple({c.word: c for c in codecs}.values())


@cache
def every_codec() -> tuple[OrderCodec, ...]:
    """The core's codecs, then those of every title package in :mod:`pbem.titles`
    (``g<title>``), by title: what a caller that knows no title reads, writes and lists.
    Where two titles have a word, the later title's codec reads it."""
    import pkgutil

    import pbem.titles
    from pbem.core_codecs import CORE_CODECS
    from pbem.titles import presentation_class

    out = list(CORE_CODECS)
    names = sorted(m.name[1:] for m in pkgutil.iter_modules(pbem.titles.__path__)
                   if re.fullmatch(r"g[0-9A-Za-z_]+", m.name))
    for name in names:
        out += [c for c in presentation_class(name)().order_codecs() if c not in out]
    return tuple(out)


def _writers(codecs: tuple[OrderCodec, ...]) -> dict[type[Action], tuple[OrderCodec, ...]]:
    table: dict[type[Action], list[OrderCodec]] = {}
    for codec in reversed(codecs):
        for kind in codec.actions:
            table.setdefault(kind, []).append(codec)
    return {kind: tuple(found) for kind, found in table.items()}


@cache
def every_writer() -> dict[type[Action], tuple[OrderCodec, ...]]:
    """:attr:`Vocabulary.by_type` for :func:`every_codec` (the writers without a title)."""
    return _writers(every_codec())


# -- the readers the codecs share ------------------------------------------------------------------

MAX_DIGITS = 9
"""The most digits a number in an order may have (a billion is far above any amount)."""

_DIGITS = "[0-9]"
"""A digit of an order: ASCII only. ``\\d`` would take any script's digits (``１６５``,
``٣``), which a reply could not show back as the number that was applied."""
AMOUNT = re.compile(rf"^(?:\$|£|L)?({_DIGITS}+)$", re.IGNORECASE)
"""An amount: digits, after the currency sign if any (``$165``; 1825's ``£100``, or ``L100``
as its ASCII reports write pounds)."""
COUNT = re.compile(rf"^({_DIGITS}+)(?:x)?$", re.IGNORECASE)
HEX = re.compile(rf"^([A-Za-z]{{1,2}}-?{_DIGITS}{{1,3}})(?:[./]({_DIGITS}))?$")
SOURCES = {"IPO": "ipo", "POOL": "pool", "MARKET": "pool", "BANK": "pool", "TREASURY": "ipo"}
"""The words for where shares come from -> ``"ipo"`` or ``"pool"``."""


def whole_number(digits: str, line: str, what: str) -> int:
    """``digits`` (ASCII digits, as the patterns above matched them) as an int.

    Every number an order holds is read here, so one rule holds for all of them: plain
    digits 0-9, at most :data:`MAX_DIGITS` (``int`` itself would also take other scripts'
    digits, and fails on more than 4300 digits with an error that is not the player's).

    :raises OrderSyntaxError: not 1 to 9 ASCII digits.
    """
    if not re.fullmatch(f"{_DIGITS}{{1,{MAX_DIGITS}}}", digits):
        raise OrderSyntaxError(
            f"cannot read {line!r}: {what} must be plain digits 0-9, at most {MAX_DIGITS} of them")
    return int(digits)


def amount(word: str, line: str, what: str) -> int:
    """An amount of money (``165``, ``$165``, ``£165`` or ``L165``, more than 0), ``what``
    naming it in errors.

    :raises OrderSyntaxError: not a whole number, or 0.
    """
    match = AMOUNT.match(word)
    if not match:
        raise OrderSyntaxError(f"cannot read {line!r}: {what} must be a whole number in plain digits 0-9, "
                               f"not {word!r}")
    value = whole_number(match.group(1), line, what)
    if value <= 0:
        raise OrderSyntaxError(f"cannot read {line!r}: {what} must be more than 0")
    return value


def count(word: str, line: str) -> int:
    """A share count (``2`` or ``2x``; the caller has matched :data:`COUNT`); see
    :func:`whole_number`."""
    match = COUNT.match(word)
    assert match is not None, "callers check COUNT first"
    return whole_number(match.group(1), line, "the number of shares")


def hex_ref(word: str, line: str, vocab: Vocabulary | None = None) -> tuple[str, int]:
    """``(hex, city)`` for ``F20`` (city 0) or ``F20.1`` / ``F20/1`` (the hex's second city),
    in upper case unless ``vocab`` has the hex as written in lower case, or has it only in
    lower case (:attr:`Vocabulary.lowercase_hexes`, :attr:`Vocabulary.uppercase_hexes`).

    :raises OrderSyntaxError: not a hex.
    """
    match = HEX.match(word)
    if not match:
        raise OrderSyntaxError(f"cannot read {line!r}: {word!r} is not a hex (like F20, or F20.1 for its second city)")
    coord, city = match.group(1), int(match.group(2) or 0)
    if vocab is not None and coord in vocab.lowercase_hexes:
        return coord, city
    if (vocab is not None and vocab.uppercase_hexes and coord.upper() not in vocab.uppercase_hexes
            and coord.lower() in vocab.lowercase_hexes):
        return coord.lower(), city  # on the board only in lower case
    return coord.upper(), city


def using(words: list[str], line: str, vocab: Vocabulary) -> tuple[list[str], str | None]:
    """``words`` without a trailing ``USING <private>``, and that private (or None).

    :raises OrderSyntaxError: USING not last, or not naming a private company.
    """
    upper = [w.upper() for w in words]
    if "USING" in upper:
        i = upper.index("USING")
        if i != len(words) - 2:
            raise OrderSyntaxError(f"cannot read {line!r}: USING <private> comes last")
        kind, sym = vocab.resolve(words[i + 1], line)
        if kind != "company":
            raise OrderSyntaxError(f"cannot read {line!r}: USING names a private company")
        return words[:i], sym
    return words, None


def corporation(word: str, line: str, vocab: Vocabulary) -> str:
    """The corporation ``word`` names.

    :raises OrderSyntaxError: it names none (or a private company).
    """
    kind, sym = vocab.resolve(word, line, prefer="corporation")
    if kind != "corporation":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is not a corporation")
    return sym


def company(word: str, line: str, vocab: Vocabulary) -> str:
    """The private company ``word`` names.

    :raises OrderSyntaxError: it names none (or a corporation).
    """
    kind, sym = vocab.resolve(word, line)
    if kind != "company":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is not a private company")
    return sym

