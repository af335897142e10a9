"""The order language: one order per line, parsed to a typed action and formatted back.

``parse_order`` and ``format_order`` are exact inverses on canonical lines:
``parse_order(format_order(a), vocab) == a`` for every action ``a``. Parsing is
case-insensitive, accepts the abbreviations players use (``B`` for BUY, ``S`` for SELL,
``P``/``DONE`` for PASS, ``$`` before amounts, ``FROM POOL``/``MARKET``/``IPO``) and needs
only the title's vocabulary (company and corporation symbols), never the game state: whether
an order is *legal* is the engine's business.

>>> from pbem.engine.title import load_title
>>> vocab = Vocabulary.from_title(load_title("1830"))
>>> parse_order("bid ca $165", vocab)
Bid(company='CA', price=165)
>>> format_order(parse_order("b 2 prr from pool", vocab))
'BUY 2 PRR POOL'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from pbem.engine.actions import Action, Bid, BuyPrivate, BuyShares, Par, Pass, SellShares
from pbem.engine.title import TitleData
from pbem.errors import AmbiguousOrderError, OrderSyntaxError


@dataclass(frozen=True)
class Vocabulary:
    """The symbols an order may name: private companies and corporations of one title."""

    companies: tuple[str, ...]
    corporations: tuple[str, ...]

    @classmethod
    def from_title(cls, title: TitleData) -> Vocabulary:
        """The vocabulary of ``title``."""
        return cls(
            companies=tuple(c.sym for c in title.companies),
            corporations=tuple(c.sym for c in title.corporations),
        )

    def resolve(self, word: str, line: str) -> tuple[str, str]:
        """``(kind, symbol)`` for ``word``: kind is ``"company"`` or ``"corporation"``.

        An exact symbol (any case) wins; otherwise the symbol with ``&`` and ``-`` left out
        (``BANDO`` is not guessed, but ``BM`` finds ``B&M``) if that names exactly one.

        :raises OrderSyntaxError: no such symbol.
        :raises AmbiguousOrderError: the shortened form names more than one.
        """
        upper = word.upper()
        for kind, syms in (("company", self.companies), ("corporation", self.corporations)):
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
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            names = " or ".join(sym for _, sym in matches)
            raise AmbiguousOrderError(f"cannot read {line!r}: {word!r} could be {names}")
        known = ", ".join(self.companies + self.corporations)
        raise OrderSyntaxError(f"cannot read {line!r}: no company or corporation {word!r} (known: {known})")


@dataclass(frozen=True)
class OrderSpec:
    """One kind of order: its keyword, aliases, syntax and meaning (used for HELP too)."""

    keyword: str
    aliases: tuple[str, ...]
    syntax: str
    meaning: str
    example: str


ORDER_SPECS: tuple[OrderSpec, ...] = (
    OrderSpec("BID", (), "BID <private> <amount>", "bid on a private company in the auction", "BID CA 165"),
    OrderSpec(
        "BUY", ("B",), "BUY <private>",
        "buy the cheapest private company at its price (auction)", "BUY SV",
    ),
    OrderSpec(
        "BUY", ("B",), "BUY [n] <corporation> [IPO|POOL]",
        "buy shares from the IPO (the default) or the bank pool", "BUY PRR POOL",
    ),
    OrderSpec("PAR", ("START",), "PAR <corporation> <price>", "start a corporation at a par price", "PAR NYNH 100"),
    OrderSpec("SELL", ("S",), "SELL [n] <corporation>", "sell shares to the bank pool", "SELL 2 B&O"),
    OrderSpec("PASS", ("P", "DONE"), "PASS", "pass, or end your stock-round turn", "PASS"),
)

_AMOUNT = re.compile(r"^\$?(\d+)$")
_COUNT = re.compile(r"^(\d+)(?:x)?$", re.IGNORECASE)
_SOURCES = {"IPO": "ipo", "POOL": "pool", "MARKET": "pool", "BANK": "pool", "TREASURY": "ipo"}


def _amount(word: str, line: str, what: str) -> int:
    match = _AMOUNT.match(word)
    if not match:
        raise OrderSyntaxError(f"cannot read {line!r}: {what} must be a whole number, not {word!r}")
    value = int(match.group(1))
    if value <= 0:
        raise OrderSyntaxError(f"cannot read {line!r}: {what} must be more than 0")
    return value


def _parse_bid(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 2:
        raise OrderSyntaxError(f"cannot read {line!r}: write BID <private> <amount>, e.g. BID CA 165")
    kind, sym = vocab.resolve(words[0], line)
    if kind != "company":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is a corporation; bids are on private companies")
    return Bid(sym, _amount(words[1], line, "the bid"))


def _parse_buy(words: list[str], line: str, vocab: Vocabulary) -> Action:
    rest = [w for w in words if w.upper() not in ("FROM", "THE", "SHARE", "SHARES", "OF")]
    count = 1
    if rest and _COUNT.match(rest[0]):
        count = int(_COUNT.match(rest[0]).group(1))  # type: ignore[union-attr]
        rest = rest[1:]
    source = "ipo"
    if rest and rest[-1].upper() in _SOURCES:
        source = _SOURCES[rest[-1].upper()]
        rest = rest[:-1]
    if len(rest) != 1:
        raise OrderSyntaxError(
            f"cannot read {line!r}: write BUY <private>, or BUY [n] <corporation> [IPO|POOL]"
        )
    kind, sym = vocab.resolve(rest[0], line)
    if kind == "company":
        if count != 1 or len(words) != 1:
            raise OrderSyntaxError(f"cannot read {line!r}: a private company is bought with BUY {sym}")
        return BuyPrivate(sym)
    if count <= 0:
        raise OrderSyntaxError(f"cannot read {line!r}: the number of shares must be more than 0")
    return BuyShares(sym, source, count)  # type: ignore[arg-type]


def _parse_par(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words = [w for w in words if w.upper() not in ("AT",)]
    if len(words) != 2:
        raise OrderSyntaxError(f"cannot read {line!r}: write PAR <corporation> <price>, e.g. PAR PRR 100")
    kind, sym = vocab.resolve(words[0], line)
    if kind != "corporation":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is a private company, not a corporation")
    return Par(sym, _amount(words[1], line, "the par price"))


def _parse_sell(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words = [w for w in words if w.upper() not in ("SHARE", "SHARES", "OF")]
    count = 1
    if len(words) == 2 and _COUNT.match(words[0]):
        count, target = int(_COUNT.match(words[0]).group(1)), words[1]  # type: ignore[union-attr]
    elif len(words) == 2 and _COUNT.match(words[1]):
        count, target = int(_COUNT.match(words[1]).group(1)), words[0]  # type: ignore[union-attr]
    elif len(words) == 1:
        target = words[0]
    else:
        raise OrderSyntaxError(f"cannot read {line!r}: write SELL [n] <corporation>, e.g. SELL 2 PRR")
    if count <= 0:
        raise OrderSyntaxError(f"cannot read {line!r}: the number of shares must be more than 0")
    kind, sym = vocab.resolve(target, line)
    if kind != "corporation":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is a private company; sell shares of a corporation")
    return SellShares(sym, count)


def _parse_pass(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words:
        raise OrderSyntaxError(f"cannot read {line!r}: PASS takes nothing after it")
    return Pass()


_PARSERS: dict[str, Callable[[list[str], str, Vocabulary], Action]] = {
    "BID": _parse_bid,
    "BUY": _parse_buy,
    "B": _parse_buy,
    "PAR": _parse_par,
    "START": _parse_par,
    "SELL": _parse_sell,
    "S": _parse_sell,
    "PASS": _parse_pass,
    "P": _parse_pass,
    "DONE": _parse_pass,
}

ORDER_KEYWORDS = frozenset(_PARSERS)
"""Every word that starts an order (used to tell orders from other commands)."""


def parse_order(line: str, vocab: Vocabulary) -> Action:
    """Parse one order line to an action.

    :raises OrderSyntaxError: unknown keyword, wrong shape, unknown symbol, bad number.
    :raises AmbiguousOrderError: a shortened symbol matching more than one name.
    """
    words = line.replace(",", " ").split()
    if not words:
        raise OrderSyntaxError("cannot read an empty line as an order")
    keyword = words[0].upper()
    parser = _PARSERS.get(keyword)
    if parser is None:
        raise OrderSyntaxError(
            f"cannot read {line!r}: unknown order {words[0]!r} "
            f"(orders: {', '.join(sorted({s.keyword for s in ORDER_SPECS}))}; send HELP for the list)"
        )
    return parser(words[1:], line, vocab)


def format_order(action: Action) -> str:
    """The canonical order line for ``action`` (upper case, no abbreviations).

    :raises TypeError: an action type the order language does not know.
    """
    if isinstance(action, Bid):
        return f"BID {action.company} {action.price}"
    if isinstance(action, BuyPrivate):
        return f"BUY {action.company}"
    if isinstance(action, BuyShares):
        count = f"{action.count} " if action.count != 1 else ""
        source = " POOL" if action.source == "pool" else ""
        return f"BUY {count}{action.corporation}{source}"
    if isinstance(action, Par):
        return f"PAR {action.corporation} {action.price}"
    if isinstance(action, SellShares):
        count = f"{action.count} " if action.count != 1 else ""
        return f"SELL {count}{action.corporation}"
    if isinstance(action, Pass):
        return "PASS"
    raise TypeError(f"no order form for {action!r}")


def help_text() -> str:
    """The order reference, generated from :data:`ORDER_SPECS`."""
    width = max(len(s.syntax) for s in ORDER_SPECS)
    lines = ["Orders (one per line, any case):"]
    for spec in ORDER_SPECS:
        alias = f"  (also {', '.join(spec.aliases)})" if spec.aliases else ""
        lines.append(f"  {spec.syntax.ljust(width)}  {spec.meaning}{alias}")
        lines.append(f"  {'':{width}}  e.g. {spec.example}")
    return "\n".join(lines)
