"""The order language: one order per line, parsed to a typed action and formatted back.

A line is read by the codec of its first word (:mod:`pbem.order_codecs`): the core's codecs
(:mod:`pbem.core_codecs`) and the title's own (1870: :mod:`pbem.titles.g1870.orders`), as
the title's :class:`Vocabulary` holds them; an order word of another title is an unknown
order (issue 11: "HELP and the parser know only the codecs of the game's title").

``parse_order`` and ``format_order`` are exact inverses on canonical lines:
``parse_order(format_order(a, vocab), vocab) == a`` for every action ``a`` of the title.
Parsing is case-insensitive, accepts the abbreviations players use (``B`` for BUY, ``S`` for
SELL, ``P``/``DONE`` for PASS, ``$`` before amounts, ``FROM POOL``/``MARKET``/``IPO``) and
needs only the title's vocabulary (company and corporation symbols, order words), never the
game state: whether an order is *legal* is the engine's business.

>>> from pbem.ruleset import load_title
>>> vocab = Vocabulary.from_title(load_title("1830"))
>>> parse_order("bid ca $165", vocab)
Bid(company='CA', price=165)
>>> format_order(parse_order("b 2 prr from pool", vocab))
'BUY 2 PRR POOL'
"""

from __future__ import annotations

from pbem.engine.actions import Action
from pbem.errors import OrderSyntaxError
from pbem.order_codecs import (
    MAX_DIGITS,
    HelpEntry,
    OrderCodec,
    Vocabulary,
    every_codec,
    every_writer,
    first_word,
    rest_of_line,
    split_words,
    title_codecs,
)
from pbem.order_reference import (  # the reference of the order language, re-exported here
    ROTATION_PICTURES,
    help_text,
    rotation_help,
    title_orders,
)

__all__ = [
    "HelpEntry", "MAX_DIGITS", "OrderCodec", "ROTATION_PICTURES", "Vocabulary", "every_codec",
    "first_word", "format_order", "help_text", "is_order_word", "order_words", "parse_order",
    "rest_of_line", "rotation_help", "split_words", "title_codecs", "title_orders",
]


def order_words(vocab: Vocabulary | None = None) -> frozenset[str]:
    """Every word (upper case, abbreviations included) that starts an order of ``vocab``'s
    title, or of any title without ``vocab``: the words the parser dispatches on, so the
    chatter rule ("a line is an order only if its first word is an order word of the
    title", :func:`pbem.commands.is_command_line`) and the parser never disagree."""
    return frozenset((vocab or _ANY).by_word)


def is_order_word(word: str, vocab: Vocabulary | None = None) -> bool:
    """Whether ``word`` (any case) starts an order of ``vocab``'s title (see :func:`order_words`)."""
    return word.upper() in (vocab or _ANY).by_word


_ANY = Vocabulary((), ())
"""A vocabulary of no symbols and every title's codecs (for :func:`order_words`)."""


def parse_order(line: str, vocab: Vocabulary) -> Action:
    """Parse one order line to an action, with the codec of its first word
    (:func:`~pbem.order_codecs.split_words`: a comma separates words).

    An unknown first word is refused with the orders of the vocabulary's title only (issue:
    an 1830 game lists no REDEEM, CONNECT, HALF or DESTINATION, and reads none of them).

    :raises OrderSyntaxError: unknown order word, wrong shape, unknown symbol, bad number.
    :raises AmbiguousOrderError: a shortened symbol matching more than one name.
    """
    words = split_words(line)
    if not words:
        raise OrderSyntaxError("cannot read an empty line as an order")
    codec = vocab.by_word.get(words[0].upper())
    if codec is None:
        raise OrderSyntaxError(
            f"cannot read {line!r}: unknown order {words[0]!r} "
            f"(orders: {', '.join(sorted(vocab.keywords()))}; send HELP for the list)"
        )
    return codec.parse(words[1:], line, vocab)


def format_order(action: Action, vocab: Vocabulary | None = None) -> str:
    """The canonical order line for ``action`` (upper case, no abbreviations), written by the
    codec of its type (a title's before the core's), which :func:`parse_order` reads back as
    ``action``. A share purchase from the IPO names its source (``BUY MKT IPO``) where a
    private company shares the corporation's symbol (1870: SLSF, MKT; a bare ``BUY MKT``
    buys the private) -- and, without the title's ``vocab`` to tell, always
    (``BUY PRR IPO``), so that a line written without it still reads back as shares in every
    title. With ``vocab``: ``BUY PRR``. Without ``vocab`` every title's codecs write.

    :raises TypeError: an action no codec of the title writes.
    """
    table = vocab.by_type if vocab is not None else every_writer()
    for kind in type(action).__mro__:
        for codec in table.get(kind, ()):
            text = codec.format(action, vocab)
            if text is not None:
                return text
    raise TypeError(f"no order form for {action!r}")
