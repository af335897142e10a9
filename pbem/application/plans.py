"""Standing and conditional orders (issue 21): a player's plan for their later turns in the
round, applied by the server when each turn comes, in the order written.

A plan is the ``NEXT`` lines of a mail, one entry each::

    NEXT BUY PRR IF PRICE PRR <= 90 ELSE PASS
    NEXT PASS UNTIL END

An entry is an order with conditions (``IF``, joined by ``AND``) and an order for when they
fail (``ELSE``; without it, that turn is left to the player), or a programmed pass: ``PASS
UNTIL END`` (the rest of this round), ``UNTIL SALE`` (until anyone sells a share) or ``UNTIL
SR`` (until the next stock round). Conditions are on what every player can see: ``PRICE
<corp> <op> <n>``, ``CASH <op> <n>``, ``CERTS <op> <n>`` (``<``, ``<=``, ``=``, ``>=``,
``>``), ``<corp> STARTED``, ``<corp> FLOATED``, ``POOL <corp>`` (a share of it in the bank
pool), ``UNSOLD <corp>`` (nobody has sold it since the plan was sent); ``NOT`` before one
turns it round. Entries other than ``PASS UNTIL SR`` hold for the round the plan was sent
in.

Pure functions of the game; the mail path (:mod:`pbem.execution`) applies and logs them.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Callable

from pbem.engine.actions import Action
from pbem.engine.game import Game
from pbem.engine.state import POOL, RoundKind
from pbem.engine import shares
from pbem.errors import OrderSyntaxError
from pbem.order_codecs import Vocabulary, corporation
from pbem.orders import format_order, parse_order

UNTIL = ("END", "SALE", "SR")
"""What a programmed pass lasts until: the round's end, a sale, the next stock round."""

_OPS: dict[str, Callable[[int, int], bool]] = {
    "<": operator.lt, "<=": operator.le, "=": operator.eq, ">=": operator.ge, ">": operator.gt}


@dataclass(frozen=True)
class Condition:
    """One test: ``what`` (``PRICE``, ``CASH``, ``CERTS``, ``STARTED``, ``FLOATED``,
    ``POOL``, ``UNSOLD``) of ``corp`` where it names one, compared by ``op`` with ``value``
    where it is a number; ``negated`` for ``NOT``."""

    what: str
    corp: str = ""
    op: str = ""
    value: int = 0
    negated: bool = False

    def text(self) -> str:
        """The condition as written in canonical form."""
        body = {"PRICE": f"PRICE {self.corp} {self.op} {self.value}", "CASH": f"CASH {self.op} {self.value}",
                "CERTS": f"CERTS {self.op} {self.value}", "POOL": f"POOL {self.corp}",
                "UNSOLD": f"UNSOLD {self.corp}"}.get(self.what, f"{self.corp} {self.what}")
        return ("NOT " if self.negated else "") + body


@dataclass(frozen=True)
class Entry:
    """One turn of a plan: ``order`` if every one of ``conditions`` holds, else
    ``otherwise`` (None: the turn is left to the player); or, with ``until`` set, a PASS
    each turn until then (:data:`UNTIL`)."""

    order: Action | None = None
    conditions: tuple[Condition, ...] = ()
    otherwise: Action | None = None
    until: str = ""

    def text(self, vocab: Vocabulary) -> str:
        """The entry in canonical form (``parse_entry`` reads it back as itself)."""
        if self.until:
            return f"PASS UNTIL {self.until}"
        assert self.order is not None
        out = format_order(self.order, vocab)
        if self.conditions:
            out += " IF " + " AND ".join(c.text() for c in self.conditions)
        if self.otherwise is not None:
            out += " ELSE " + format_order(self.otherwise, vocab)
        return out


def parse_entry(text: str, vocab: Vocabulary) -> Entry:
    """One plan entry (the text after ``NEXT``).

    :raises OrderSyntaxError: an order or a condition that does not read, with the form.
    """
    words = text.split()
    upper = [w.upper() for w in words]
    if upper[:2] == ["PASS", "UNTIL"]:
        if len(words) != 3 or upper[2] not in UNTIL:
            raise OrderSyntaxError(f"cannot read {text!r}: write PASS UNTIL END, PASS UNTIL SALE or PASS UNTIL SR")
        return Entry(until=upper[2])
    head, has_else, otherwise = _split(text, "ELSE")
    order, has_if, tests = _split(head, "IF")
    if not order.strip() or (has_if and not tests.strip()) or (has_else and not otherwise.strip()):
        raise OrderSyntaxError(f"cannot read {text!r}: write NEXT <order> [IF <condition>] [ELSE <order>]")
    conditions = tuple(_condition(part, text, vocab) for part in re.split(r"\s+AND\s+", tests.strip(), flags=re.I)
                       if part.strip()) if tests.strip() else ()
    return Entry(parse_order(order.strip(), vocab), conditions,
                 parse_order(otherwise.strip(), vocab) if otherwise.strip() else None)


def _split(text: str, word: str) -> tuple[str, str, str]:
    found = re.search(rf"\s{word}\s", f" {text} ", flags=re.I)
    if found is None:
        return text, "", ""
    start, end = found.start() - 1, found.end() - 1
    return text[:max(start, 0)], word, text[end:]


def _condition(part: str, line: str, vocab: Vocabulary) -> Condition:
    words = part.split()
    negated = bool(words) and words[0].upper() == "NOT"
    words = words[1:] if negated else words
    upper = [w.upper() for w in words]
    form = (f"cannot read the condition {part!r} of {line!r}: write e.g. PRICE PRR <= 90, CASH >= 200, "
            "CERTS < 12, PRR FLOATED, PRR STARTED, POOL PRR, UNSOLD PRR (NOT before one turns it round)")
    def corp(word: str) -> str:
        return corporation(word, line, vocab)

    try:
        if upper[0] == "PRICE" and len(words) == 4 and upper[2] in _OPS:
            return Condition("PRICE", corp(words[1]), upper[2], int(words[3]), negated)
        if upper[0] in ("CASH", "CERTS") and len(words) == 3 and upper[1] in _OPS:
            return Condition(upper[0], "", upper[1], int(words[2]), negated)
        if upper[0] in ("POOL", "UNSOLD") and len(words) == 2:
            return Condition(upper[0], corp(words[1]), negated=negated)
        if len(words) == 2 and upper[1] in ("STARTED", "FLOATED"):
            return Condition(upper[1], corp(words[0]), negated=negated)
    except (IndexError, ValueError):  # OrderSyntaxError is a ValueError: an unknown corporation
        pass
    raise OrderSyntaxError(form)


def holds(condition: Condition, game: Game, seat: str, sold_since: Callable[[str], bool]) -> bool:
    """Whether ``condition`` holds for ``seat`` now; ``sold_since(corp)``: whether anyone has
    sold ``corp`` since the plan was sent."""
    state, title = game.state, game.title
    result: bool
    if condition.what == "PRICE":
        price = game.share_price(condition.corp)
        result = price is not None and _OPS[condition.op](price, condition.value)
    elif condition.what == "CASH":
        result = _OPS[condition.op](state.players[seat].cash, condition.value)
    elif condition.what == "CERTS":
        result = _OPS[condition.op](shares.certificate_count(state, title, seat), condition.value)
    elif condition.what == "POOL":
        result = state.percent_of(POOL, condition.corp) > 0
    elif condition.what == "UNSOLD":
        result = not sold_since(condition.corp)
    elif condition.what == "STARTED":
        result = state.corporations[condition.corp].ipoed
    else:
        result = state.corporations[condition.corp].floated
    return result != condition.negated


def pass_over(entry: Entry, round_now: str, round_set: str, kind_now: str, sold: bool) -> bool:
    """Whether a programmed pass ``entry`` has run out: ``END`` when the round it was sent
    in is over, ``SALE`` once anyone has sold, ``SR`` when a stock round other than the one
    it was sent in has begun."""
    if entry.until == "END":
        return round_now != round_set
    if entry.until == "SALE":
        return sold or round_now != round_set
    return kind_now == RoundKind.STOCK and round_now != round_set

