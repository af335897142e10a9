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

from pbem.engine.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyPrivate,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunAuto,
    RunRoutes,
    Exchange,
    GrantConnection,
    Redeem,
    Reissue,
    Assign,
    DestinationToken,
    SellShares,
    TrainRun,
)
from pbem.engine.title import TitleData
from pbem.errors import AmbiguousOrderError, OrderSyntaxError
from pbem.order_reference import (  # the reference of the order language, re-exported here
    ORDER_SPECS,
    OrderSpec,
    ROTATION_PICTURES,
    help_text,
    rotation_help,
    title_orders,
)

__all__ = [
    "ORDER_KEYWORDS", "ORDER_SPECS", "OrderSpec", "ROTATION_PICTURES", "Vocabulary", "format_order",
    "help_text", "parse_order", "rotation_help", "title_orders",
]


@dataclass(frozen=True)
class Vocabulary:
    """The symbols an order may name: private companies and corporations of one title."""

    companies: tuple[str, ...]
    corporations: tuple[str, ...]
    trains: tuple[str, ...] = ()
    orders: tuple[str, ...] = ()
    """The order keywords of the title (:func:`title_orders`), which a refusal of an unknown
    order lists; empty: every order."""

    @classmethod
    def from_title(cls, title: TitleData) -> Vocabulary:
        """The vocabulary of ``title``, its orders included."""
        return cls(
            companies=tuple(c.sym for c in title.companies),
            corporations=tuple(c.sym for c in title.corporations),
            trains=tuple(t.name for t in title.trains),
            orders=title_orders(title),
        )

    def shared(self, sym: str) -> bool:
        """Whether ``sym`` names both a private company and a corporation (1870: SLSF, MKT)."""
        return sym in self.companies and sym in self.corporations

    def train(self, word: str, line: str) -> str:
        """The train type named ``word`` (``"3"``, ``"D"``; a trailing ``T`` or ``-train`` is
        allowed: ``3T``, ``3-train``).

        :raises OrderSyntaxError: no such train type.
        """
        upper = re.sub(r"(-?TRAIN|T)$", "", word.upper()) or word.upper()
        for name in self.trains:
            if name.upper() in (upper, word.upper()):
                return name
        raise OrderSyntaxError(
            f"cannot read {line!r}: no train type {word!r} (trains: {', '.join(self.trains)})"
        )

    def resolve(self, word: str, line: str, prefer: str = "company") -> tuple[str, str]:
        """``(kind, symbol)`` for ``word``: kind is ``"company"`` or ``"corporation"``.

        An exact symbol (any case) wins — of the ``prefer`` kind first when a private company
        and a corporation share the symbol (1870: SLSF, MKT); otherwise the symbol with ``&``
        and ``-`` left out (``BANDO`` is not guessed, but ``BM`` finds ``B&M``) if that
        names exactly one.

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
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            names = " or ".join(sym for _, sym in matches)
            raise AmbiguousOrderError(f"cannot read {line!r}: {word!r} could be {names}")
        known = ", ".join(self.companies + self.corporations)
        raise OrderSyntaxError(f"cannot read {line!r}: no company or corporation {word!r} (known: {known})")


MAX_DIGITS = 9
"""The most digits a number in an order may have (a billion is far above any amount)."""

_DIGITS = "[0-9]"
"""A digit of an order: ASCII only. ``\\d`` would take any script's digits (``１６５``,
``٣``), which a reply could not show back as the number that was applied."""
_AMOUNT = re.compile(rf"^\$?({_DIGITS}+)$")
_COUNT = re.compile(rf"^({_DIGITS}+)(?:x)?$", re.IGNORECASE)
_SOURCES = {"IPO": "ipo", "POOL": "pool", "MARKET": "pool", "BANK": "pool", "TREASURY": "ipo"}


def _whole_number(digits: str, line: str, what: str) -> int:
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


def _amount(word: str, line: str, what: str) -> int:
    match = _AMOUNT.match(word)
    if not match:
        raise OrderSyntaxError(f"cannot read {line!r}: {what} must be a whole number in plain digits 0-9, "
                               f"not {word!r}")
    value = _whole_number(match.group(1), line, what)
    if value <= 0:
        raise OrderSyntaxError(f"cannot read {line!r}: {what} must be more than 0")
    return value


def _count(word: str, line: str) -> int:
    """A share count (``2`` or ``2x``); see :func:`_whole_number`."""
    match = _COUNT.match(word)
    assert match is not None, "callers check _COUNT first"
    return _whole_number(match.group(1), line, "the number of shares")


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
        count = _count(rest[0], line)
        rest = rest[1:]
    source = "ipo"
    shares_meant = count != 1 or any(w.upper() in ("SHARE", "SHARES") for w in words)
    if rest and rest[-1].upper() in _SOURCES:
        source = _SOURCES[rest[-1].upper()]
        rest = rest[:-1]
        shares_meant = True
    if len(rest) == 2 and _AMOUNT.match(rest[1]):
        kind, sym = vocab.resolve(rest[0], line)
        if kind == "company" and count == 1:
            return BuyPrivate(sym, _amount(rest[1], line, "the price"))
        raise OrderSyntaxError(f"cannot read {line!r}: BUY <private> <price> buys a private company")
    if len(rest) != 1:
        raise OrderSyntaxError(
            f"cannot read {line!r}: write BUY <private>, or BUY [n] <corporation> [IPO|POOL]"
        )
    kind, sym = vocab.resolve(rest[0], line, prefer="corporation" if shares_meant else "company")
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
    kind, sym = vocab.resolve(words[0], line, prefer="corporation")
    if kind != "corporation":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is a private company, not a corporation")
    return Par(sym, _amount(words[1], line, "the par price"))


def _parse_sell(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words = [w for w in words if w.upper() not in ("SHARE", "SHARES", "OF")]
    count = 1
    if len(words) == 2 and _COUNT.match(words[0]):
        count, target = _count(words[0], line), words[1]
    elif len(words) == 2 and _COUNT.match(words[1]):
        count, target = _count(words[1], line), words[0]
    elif len(words) == 1:
        target = words[0]
    else:
        raise OrderSyntaxError(f"cannot read {line!r}: write SELL [n] <corporation>, e.g. SELL 2 PRR")
    if count <= 0:
        raise OrderSyntaxError(f"cannot read {line!r}: the number of shares must be more than 0")
    kind, sym = vocab.resolve(target, line, prefer="corporation")
    if kind != "corporation":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is a private company; sell shares of a corporation")
    return SellShares(sym, count)


def _parse_pass(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words:
        raise OrderSyntaxError(f"cannot read {line!r}: PASS takes nothing after it")
    return Pass()


_HEX = re.compile(rf"^([A-Za-z]{{1,2}}-?{_DIGITS}{{1,3}})(?:[./]({_DIGITS}))?$")


def _hex(word: str, line: str) -> tuple[str, int]:
    match = _HEX.match(word)
    if not match:
        raise OrderSyntaxError(f"cannot read {line!r}: {word!r} is not a hex (like F20, or F20.1 for its second city)")
    return match.group(1).upper(), int(match.group(2) or 0)


def _using(words: list[str], line: str, vocab: Vocabulary) -> tuple[list[str], str | None]:
    """Split off a trailing ``USING <private>``."""
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


def _parse_lay(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words, using = _using(words, line, vocab)
    words = [w for w in words if w.upper() not in ("ON", "IN", "AT", "ROT", "ROTATION", "TILE")]
    if len(words) != 3:
        raise OrderSyntaxError(f"cannot read {line!r}: write LAY <hex> <tile> <rotation>, e.g. LAY H16 57 1")
    if _HEX.match(words[0]) and re.match(r"^[Rr]?[0-5]$", words[2]):  # canonical order
        hexes = [words[0]]
    else:
        hexes = [w for w in words if _HEX.match(w) and w[0].isalpha() and not re.match(r"^[Rr][0-5]$", w)]
    if len(hexes) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write LAY <hex> <tile> <rotation>, e.g. LAY H16 57 1")
    hex_id, city = _hex(hexes[0], line)
    if city:
        raise OrderSyntaxError(f"cannot read {line!r}: a tile goes on a hex, not a city")
    others = list(words)
    others.pop(words.index(hexes[0]))
    marked = [i for i, w in enumerate(others) if re.match(r"^[Rr][0-5]$", w)]
    rotation_index = marked[0] if marked else len(others) - 1
    rotation_word = others[rotation_index]
    tile = others[1 - rotation_index if rotation_index < 2 else 0].lstrip("#").upper()
    rotation = rotation_word.upper().lstrip("R")
    if not re.fullmatch(f"{_DIGITS}+", rotation) or not 0 <= _whole_number(rotation, line, "the rotation") <= 5:
        raise OrderSyntaxError(f"cannot read {line!r}: the rotation must be 0 to 5, not {rotation_word!r}")
    return LayTile(hex_id, tile, int(rotation), using)


def _parse_token(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words, using = _using(words, line, vocab)
    words = [w for w in words if w.upper() not in ("IN", "AT", "ON")]
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write TOKEN <hex>, or TOKEN <hex>.<city>")
    hex_id, city = _hex(words[0], line)
    return PlaceToken(hex_id, city, using)


def _parse_run(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) == 1 and words[0].upper() == "AUTO":
        return RunAuto()
    text = " ".join(words)
    runs: list[TrainRun] = []
    for part in re.split(r"[;,]", text):
        part = part.strip()
        if not part:
            continue
        match = re.match(r"^(\S+?)\s*[:=]\s*(.+)$", part) or re.match(r"^(\S+)\s+(.+)$", part)
        if not match:
            raise OrderSyntaxError(f"cannot read {line!r}: write RUN <train>: <stop>-<stop>..., e.g. RUN 2: I15-J14")
        train = vocab.train(match.group(1), line)
        stops = [s for s in re.split(r"[\s\-]+", match.group(2).strip()) if s]
        if len(stops) < 2:
            raise OrderSyntaxError(f"cannot read {line!r}: a run needs at least two stops")
        parsed = []
        for stop in stops:
            hex_id, city = _hex(stop, line)
            parsed.append(f"{hex_id}.{city}" if city else hex_id)
        runs.append(TrainRun(train, tuple(parsed)))
    if not runs:
        raise OrderSyntaxError(f"cannot read {line!r}: name at least one train and its stops")
    return RunRoutes(tuple(runs))


def _parse_payout(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words:
        raise OrderSyntaxError(f"cannot read {line!r}: PAYOUT takes nothing after it")
    return Dividend("payout")


def _parse_half(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words:
        raise OrderSyntaxError(f"cannot read {line!r}: HALF takes nothing after it")
    return Dividend("half")


def _parse_withhold(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words:
        raise OrderSyntaxError(f"cannot read {line!r}: WITHHOLD takes nothing after it")
    return Dividend("withhold")


def _parse_train(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if not words:
        raise OrderSyntaxError(f"cannot read {line!r}: write TRAIN <type>, e.g. TRAIN 3")
    train = vocab.train(words[0], line)
    source, price, exchange = "depot", None, None
    rest = words[1:]
    while rest:
        key = rest[0].upper()
        if key == "FROM" and len(rest) >= 2:
            target = rest[1].upper()
            if target in ("POOL", "MARKET", "BANK"):
                source = "pool" if target != "BANK" else "depot"
            else:
                kind, sym = vocab.resolve(rest[1], line, prefer="corporation")
                if kind != "corporation":
                    raise OrderSyntaxError(f"cannot read {line!r}: trains are bought from the bank or a corporation")
                source = sym
            rest = rest[2:]
        elif key == "FOR" and len(rest) >= 2:
            price = _amount(rest[1], line, "the price")
            rest = rest[2:]
        elif key in ("TRADE", "EXCHANGE") and len(rest) >= 2:
            exchange = vocab.train(rest[1], line)
            rest = rest[2:]
        else:
            raise OrderSyntaxError(
                f"cannot read {line!r}: write TRAIN <type> [FROM POOL|<corp>] [FOR <price>] [TRADE <type>]"
            )
    return BuyTrain(train, source, price, exchange)


def _parse_discard(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write DISCARD <train>, e.g. DISCARD 2")
    return DiscardTrain(vocab.train(words[0], line))


def _parse_exchange(words: list[str], line: str, vocab: Vocabulary) -> Action:
    source = "ipo"
    if len(words) == 2 and words[1].upper() in _SOURCES:
        source = _SOURCES[words[1].upper()]
        words = words[:1]
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write EXCHANGE <private> [POOL]")
    kind, sym = vocab.resolve(words[0], line)
    if kind != "company":
        raise OrderSyntaxError(f"cannot read {line!r}: EXCHANGE names a private company")
    return Exchange(sym, source)  # type: ignore[arg-type]


def _parse_redeem(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if not words:
        raise OrderSyntaxError(f"cannot read {line!r}: write REDEEM <corporation> [POOL | FROM <player>]")
    sym = _corporation(words[0], line, vocab)
    rest = words[1:]
    if not rest or (len(rest) == 1 and rest[0].upper() == "POOL"):
        return Redeem(sym, "pool")
    if rest[0].upper() == "FROM" and len(rest) > 1:
        return Redeem(sym, " ".join(rest[1:]))
    raise OrderSyntaxError(f"cannot read {line!r}: write REDEEM <corporation> [POOL | FROM <player>]")


def _corporation(word: str, line: str, vocab: Vocabulary) -> str:
    kind, sym = vocab.resolve(word, line, prefer="corporation")
    if kind != "corporation":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is not a corporation")
    return sym


def _parse_reissue(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write REISSUE <corporation>")
    return Reissue(_corporation(words[0], line, vocab))


def _parse_connect(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write CONNECT <corporation>")
    return GrantConnection(_corporation(words[0], line, vocab))


def _parse_assign(words: list[str], line: str, vocab: Vocabulary) -> Action:
    words = [w for w in words if w.upper() not in ("ON", "TO", "IN")]
    if len(words) != 2:
        raise OrderSyntaxError(f"cannot read {line!r}: write ASSIGN <private> <hex>, e.g. ASSIGN SCC B9")
    kind, sym = vocab.resolve(words[0], line)
    if kind != "company":
        raise OrderSyntaxError(f"cannot read {line!r}: {sym} is not a private company")
    hex_id, city = _hex(words[1], line)
    return Assign(sym, hex_id)


def _parse_destination(words: list[str], line: str, vocab: Vocabulary) -> Action:
    choice = words[0].upper() if len(words) == 1 else ""
    if choice not in ("MAP", "CHARTER"):
        raise OrderSyntaxError(f"cannot read {line!r}: write DESTINATION MAP or DESTINATION CHARTER")
    return DestinationToken("map" if choice == "MAP" else "charter")


def _parse_bankrupt(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words:
        raise OrderSyntaxError(f"cannot read {line!r}: BANKRUPT takes nothing after it")
    return Bankrupt()


def _parse_buy_or_train(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if words and words[0].upper() == "TRAIN":
        return _parse_train(words[1:], line, vocab)
    return _parse_buy(words, line, vocab)


_PARSERS: dict[str, Callable[[list[str], str, Vocabulary], Action]] = {
    "BID": _parse_bid,
    "BUY": _parse_buy_or_train,
    "B": _parse_buy_or_train,
    "PAR": _parse_par,
    "START": _parse_par,
    "SELL": _parse_sell,
    "S": _parse_sell,
    "PASS": _parse_pass,
    "P": _parse_pass,
    "DONE": _parse_pass,
    "LAY": _parse_lay,
    "TILE": _parse_lay,
    "T": _parse_lay,
    "TOKEN": _parse_token,
    "STATION": _parse_token,
    "RUN": _parse_run,
    "R": _parse_run,
    "PAYOUT": _parse_payout,
    "PAY": _parse_payout,
    "WITHHOLD": _parse_withhold,
    "HALF": _parse_half,
    "KEEP": _parse_withhold,
    "HOLD": _parse_withhold,
    "TRAIN": _parse_train,
    "DISCARD": _parse_discard,
    "BANKRUPT": _parse_bankrupt,
    "EXCHANGE": _parse_exchange,
    "REDEEM": _parse_redeem,
    "REISSUE": _parse_reissue,
    "CONNECT": _parse_connect,
    "ASSIGN": _parse_assign,
    "DESTINATION": _parse_destination,
}

ORDER_KEYWORDS = frozenset(_PARSERS)
"""Every word that starts an order (used to tell orders from other commands)."""


def order_words(line: str) -> list[str]:
    """The words of an order or command line: blanks and commas separate words
    (``"UNDO, 5"`` is ``["UNDO", "5"]``). The one split every reader of a line uses."""
    return line.replace(",", " ").split()


def parse_order(line: str, vocab: Vocabulary) -> Action:
    """Parse one order line to an action.

    An unknown keyword is refused with the orders of the vocabulary's title only (issue:
    an 1830 game lists no REDEEM, CONNECT, HALF or DESTINATION). An order of another title
    still reads; the engine refuses it.

    :raises OrderSyntaxError: unknown keyword, wrong shape, unknown symbol, bad number.
    :raises AmbiguousOrderError: a shortened symbol matching more than one name.
    """
    words = order_words(line)
    if not words:
        raise OrderSyntaxError("cannot read an empty line as an order")
    keyword = words[0].upper()
    parser = _PARSERS.get(keyword)
    known = vocab.orders or tuple(dict.fromkeys(s.keyword for s in ORDER_SPECS))
    if parser is None:
        raise OrderSyntaxError(
            f"cannot read {line!r}: unknown order {words[0]!r} "
            f"(orders: {', '.join(sorted(known))}; send HELP for the list)"
        )
    return parser(words[1:], line, vocab)


def format_order(action: Action, vocab: Vocabulary | None = None) -> str:
    """The canonical order line for ``action`` (upper case, no abbreviations), which
    :func:`parse_order` reads back as ``action``. A share purchase from the IPO names its
    source (``BUY MKT IPO``) where a private company shares the corporation's symbol (1870:
    SLSF, MKT; a bare ``BUY MKT`` buys the private) -- and, without the title's ``vocab``
    to tell, always (``BUY PRR IPO``), so that a line written without it still reads back
    as shares in every title. With ``vocab``: ``BUY PRR``.

    :raises TypeError: an action type the order language does not know.
    """
    if isinstance(action, Bid):
        return f"BID {action.company} {action.price}"
    if isinstance(action, BuyPrivate):
        return f"BUY {action.company}" + (f" {action.price}" if action.price is not None else "")
    if isinstance(action, BuyShares):
        count = f"{action.count} " if action.count != 1 else ""
        source = " POOL" if action.source == "pool" else ""
        if not source and (vocab is None or action.corporation in vocab.companies):
            source = " IPO"
        return f"BUY {count}{action.corporation}{source}"
    if isinstance(action, Par):
        return f"PAR {action.corporation} {action.price}"
    if isinstance(action, SellShares):
        count = f"{action.count} " if action.count != 1 else ""
        return f"SELL {count}{action.corporation}"
    if isinstance(action, Pass):
        return "PASS"
    if isinstance(action, LayTile):
        using = f" USING {action.using}" if action.using else ""
        return f"LAY {action.hex} {action.tile} {action.rotation}{using}"
    if isinstance(action, PlaceToken):
        using = f" USING {action.using}" if action.using else ""
        return f"TOKEN {action.hex}" + (f".{action.city}" if action.city else "") + using
    if isinstance(action, RunAuto):
        return "RUN AUTO"
    if isinstance(action, RunRoutes):
        return "RUN " + "; ".join(f"{r.train}: {'-'.join(r.stops)}" for r in action.runs)
    if isinstance(action, Dividend):
        return {"payout": "PAYOUT", "half": "HALF"}.get(action.choice, "WITHHOLD")
    if isinstance(action, BuyTrain):
        text = f"TRAIN {action.train}"
        if action.source != "depot":
            text += f" FROM {'POOL' if action.source == 'pool' else action.source}"
        if action.price is not None:
            text += f" FOR {action.price}"
        if action.exchange is not None:
            text += f" TRADE {action.exchange}"
        return text
    if isinstance(action, DiscardTrain):
        return f"DISCARD {action.train}"
    if isinstance(action, Bankrupt):
        return "BANKRUPT"
    if isinstance(action, Assign):
        return f"ASSIGN {action.company} {action.hex}"
    if isinstance(action, DestinationToken):
        return f"DESTINATION {action.choice.upper()}"
    if isinstance(action, Redeem):
        return f"REDEEM {action.corporation} " + ("POOL" if action.source == "pool" else f"FROM {action.source}")
    if isinstance(action, GrantConnection):
        return f"CONNECT {action.corporation}"
    if isinstance(action, Reissue):
        return f"REISSUE {action.corporation}"
    if isinstance(action, Exchange):
        return f"EXCHANGE {action.company}" + (" POOL" if action.source == "pool" else "")
    raise TypeError(f"no order form for {action!r}")
