"""The lines of an order mail: game orders, player commands and GM commands.

Player commands: ``HELP``, ``REPORT`` (resend the current report to me), ``TILES`` (the tile
manifest), ``HISTORY n`` (archived report n), ``TAKEBACK`` (my last order),
``ACCEPT``/``DECLINE`` (a deal offered to me). GM commands (from the GM address with the GM
secret):
``UNDO`` / ``UNDO n``, ``ACT AS <seat> <order>``, ``REPLACE <seat> <address>``, ``PAUSE``,
``RESUME``, ``BROADCAST <text>``, ``END GAME``. A line whose first word is none of these and
no order word (:func:`is_command_line`) is chatter, which the server lists but never applies.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from datetime import date

from pbem.addresses import valid_address
from pbem.application.plans import Entry, parse_entry
from pbem.engine.actions import Action, Bid, BuyShares
from pbem.engine.title import TitleData
from pbem.errors import OrderSyntaxError
from pbem.application.state import GameInfo, same_name
from pbem.orders import (
    Vocabulary,
    first_word,
    format_order,
    help_text,
    is_order_word,
    parse_order,
    rest_of_line,
    split_words,
)


@dataclass(frozen=True)
class Order:
    """A game order by the sender's own seat (or, for ACT AS, by ``seat``)."""

    line: str
    action: Action
    seat: str | None = None


@dataclass(frozen=True)
class Info:
    """A request that changes nothing: ``what`` is ``help``, ``report``, ``tiles`` or ``history``."""

    line: str
    what: str
    number: int | None = None


@dataclass(frozen=True)
class GmCommand:
    """A GM command: ``name`` is ``undo``, ``replace``, ``pause``, ``resume``, ``broadcast``
    or ``end``; ``args`` holds its arguments as strings."""

    line: str
    name: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True)
class DealAnswer:
    """``ACCEPT`` (``accept``) or ``DECLINE`` of a deal offered to the sender's seat: the
    offer of log number ``deal``, or None for the only one standing (issue 21: consent)."""

    line: str
    accept: bool
    deal: int | None = None


@dataclass(frozen=True)
class TakeBack:
    """``TAKEBACK``: the sender takes back their own last order, while nobody has acted
    since (issue 21)."""

    line: str


@dataclass(frozen=True)
class Away:
    """``AWAY <first> TO <last>``: the sender's seat is away those days (UTC, both
    included); its deadlines move past them (issue 21)."""

    line: str
    first: date
    last: date


@dataclass(frozen=True)
class PlanLine:
    """``NEXT <entry>``: one turn of the sender's standing orders (issue 21; the mail's
    ``NEXT`` lines together replace the seat's plan)."""

    line: str
    entry: Entry


@dataclass(frozen=True)
class MailChoice:
    """``MAIL EVERY|TURN|ROUND``: how often the sender is mailed the full report; the GM's
    ``MAIL DEFAULT ...`` (``default``) sets the game's default (issue 22); ``MAIL PICTURES
    ON|OFF`` (``setting`` ``pictures-on``/``pictures-off``): whether the sender's reports
    carry the board's pictures (issue 23)."""

    line: str
    setting: str
    default: bool = False


@dataclass(frozen=True)
class Press:
    """``PRESS ALL: <text>`` or ``PRESS <seat>: <text>``: table talk relayed from the sender's
    seat to every player (``to`` None) or to seat ``to`` as written (issue 22). It never
    changes the game."""

    line: str
    to: str | None
    text: str


@dataclass(frozen=True)
class CancelPlan:
    """``CANCEL``: the sender's standing orders are dropped."""

    line: str


@dataclass(frozen=True)
class ProxyBid:
    """``BID <private> UP TO <limit>``: bid the least now, and raise by the least step up
    to ``limit`` whenever asked to raise or pass while the private is auctioned (issue 21)."""

    line: str
    company: str
    limit: int


@dataclass(frozen=True)
class AutoOrders:
    """``AUTO <corp> [PAYOUT|WITHHOLD|OFF]``: the corporation's operating turns are played by
    the safe default with that dividend, or no longer (``dividend`` ``""``; issue 21)."""

    line: str
    corporation: str
    dividend: str


Command = (Order | Info | GmCommand | DealAnswer | TakeBack | Away | PlanLine | CancelPlan | ProxyBid | AutoOrders
           | Press | MailChoice)

PLAYER_COMMANDS = ("HELP", "REPORT", "TILES", "HISTORY", "WIDTH", "ACCEPT", "DECLINE", "TAKEBACK", "AWAY", "NEXT",
                   "CANCEL", "AUTO", "PRESS", "MAIL")
"""The first words of the player commands (:func:`parse_line`)."""

GM_ONLY = ("UNDO", "ACT", "REPLACE", "PAUSE", "RESUME", "BROADCAST", "END", "DEADLINE", "TIMING")

COMMAND_WORDS = frozenset(PLAYER_COMMANDS) | frozenset(GM_ONLY)
"""The first words of the player and GM commands, upper case. With the order words of the
title (:func:`pbem.orders.order_words`, the words the parser dispatches on) they are every
word that makes a line an order or command line."""


def is_command_line(line: str, vocab: Vocabulary | None = None) -> bool:
    """Whether ``line`` is an order or command line: its first word
    (:func:`pbem.orders.first_word`, any case; a comma ends it) is a command word
    (:data:`COMMAND_WORDS`) or an order word of ``vocab``'s title (of any title without
    ``vocab``). Every other line is chatter: never applied, never a reason to refuse a mail
    (the issue's rule "chatter is not an order").

    A line whose first word is an order word is an order line even when it is prose:
    ``"Buy me a beer"`` is an order line (and refuses the mail, quoting it), ``"Pass."`` and
    ``"Hi all,"`` are chatter (``"PASS."`` is not the word PASS).

    >>> is_command_line("Buy me a beer"), is_command_line("cheers, Priya"), is_command_line("p")
    (True, False, True)
    """
    word = first_word(line)
    return word in COMMAND_WORDS or is_order_word(word, vocab)


def number(word: str) -> int | None:
    """``word`` as a number if it is 1 to 9 ASCII digits (``"12"``), else None.

    ``str.isdigit`` would also accept ``"²"`` (which ``int`` refuses) and numbers too long
    for ``int``; neither is a report or log number.
    """
    return int(word) if re.fullmatch(r"[0-9]{1,9}", word) else None


def parse_line(line: str, vocab: Vocabulary, info: GameInfo, *, is_gm: bool) -> Command:
    """Parse one line of a submission.

    :raises OrderSyntaxError: the line is not an order or command, or a GM command from a
        player, or names an unknown seat.
    """
    words = split_words(line)
    head = words[0].upper() if words else ""
    if head == "HELP" and len(words) == 1:
        return Info(line, "help")
    if head == "REPORT" and len(words) == 1:
        return Info(line, "report")
    if head == "TILES":
        if len(words) > 1:
            raise OrderSyntaxError(f"cannot read {line!r}: write TILES alone (the tile manifest); a tile is laid "
                                   "with LAY <hex> <tile> <rotation>")
        return Info(line, "tiles")
    if head == "WIDTH":
        n = number(words[1]) if len(words) == 2 else None
        if n not in (80, 132):
            raise OrderSyntaxError(f"cannot read {line!r}: write WIDTH 80 (small screens) or WIDTH 132")
        return Info(line, "width", n)
    if head == "HISTORY":
        n = number(words[1]) if len(words) == 2 else None
        if n is None:
            raise OrderSyntaxError(
                f"cannot read {line!r}: write HISTORY <report number> (digits 0-9, at most 9), e.g. HISTORY 3")
        return Info(line, "history", n)
    if head in ("ACCEPT", "DECLINE"):
        deal = number(words[1].removeprefix("#")) if len(words) == 2 else None
        if len(words) > 2 or (len(words) == 2 and deal is None):
            raise OrderSyntaxError(f"cannot read {line!r}: write {head}, or {head} <deal number>, e.g. {head} 12")
        return DealAnswer(line, head == "ACCEPT", deal)
    if head == "AWAY":
        return _parse_away(line, words)
    if head == "NEXT":
        if len(words) < 2:
            raise OrderSyntaxError(f"cannot read {line!r}: write NEXT <order> [IF <condition>] [ELSE <order>], "
                                   "e.g. NEXT BUY PRR IF PRICE PRR <= 90 ELSE PASS, or NEXT PASS UNTIL END")
        return PlanLine(line, parse_entry(rest_of_line(line), vocab))
    if head == "AUTO":
        corps = {c.upper(): c for c in vocab.corporations} | dict(vocab.map_codes)
        choice = words[2].upper() if len(words) == 3 else "PAYOUT"
        if len(words) not in (2, 3) or words[1].upper() not in corps or choice not in ("PAYOUT", "WITHHOLD", "OFF"):
            raise OrderSyntaxError(f"cannot read {line!r}: write AUTO <corporation> [PAYOUT|WITHHOLD|OFF], "
                                   "e.g. AUTO PRR")
        return AutoOrders(line, corps[words[1].upper()], "" if choice == "OFF" else choice.lower())
    if head == "PRESS":
        return _parse_press(line, is_gm)
    if head == "MAIL":
        upper = [w.upper() for w in words]
        if len(upper) == 3 and upper[1] == "PICTURES" and upper[2] in ("ON", "OFF"):
            return MailChoice(line, f"pictures-{upper[2].lower()}")
        default = len(upper) == 3 and upper[1] == "DEFAULT" and is_gm
        if (len(upper) != 2 and not default) or upper[-1] not in ("EVERY", "TURN", "ROUND"):
            raise OrderSyntaxError(f"cannot read {line!r}: write MAIL EVERY, MAIL TURN, MAIL ROUND or "
                                   "MAIL PICTURES OFF" + (" (the game's default: MAIL DEFAULT TURN)" if is_gm else ""))
        return MailChoice(line, upper[-1].lower(), default)
    if head == "CANCEL":
        if len(words) > 1:
            raise OrderSyntaxError(f"cannot read {line!r}: write CANCEL alone (it drops your standing orders)")
        return CancelPlan(line)
    if head == "TAKEBACK":
        if len(words) > 1:
            raise OrderSyntaxError(f"cannot read {line!r}: write TAKEBACK alone (it takes back your last order)")
        return TakeBack(line)
    if head == "BID" and len(words) == 5 and [w.upper() for w in words[2:4]] == ["UP", "TO"]:
        bid = parse_order(f"BID {words[1]} {words[4]}", vocab)
        assert isinstance(bid, Bid)
        return ProxyBid(line, bid.company, bid.price)
    if head in GM_ONLY:
        if not is_gm:
            raise OrderSyntaxError(f"{line!r}: {head} is a GM command; only the GM may use it")
        return _parse_gm(line, words, vocab, info)
    action = parse_order(line, vocab)
    if action.gm_only and not is_gm:
        raise OrderSyntaxError(f"{line!r}: {head} is a GM ruling; only the GM may give it (ACT AS <seat> {line})")
    return Order(line, action)


PRESS_LEVELS = ("ALL", "PRIVATE", "NONE")
"""What table talk the GM allows (``PRESS ALLOW <level>``): to all and to one, to one only, none."""


def _parse_press(line: str, is_gm: bool) -> Press | GmCommand:
    """``PRESS ALL: <text>``, ``PRESS <seat>: <text>``; the GM's ``PRESS ALLOW ALL|PRIVATE|NONE``."""
    setting = re.fullmatch(r"\s*PRESS\s+ALLOW\s+(\w+)\s*", line, re.IGNORECASE)
    if setting and is_gm and setting.group(1).upper() in PRESS_LEVELS:
        return GmCommand(line, "press", (setting.group(1).lower(),))
    found = re.fullmatch(r"\s*PRESS\s+([^:]+?)\s*:\s*(\S.*?)\s*", line, re.IGNORECASE)
    if found is None:
        raise OrderSyntaxError(f"cannot read {line!r}: write PRESS ALL: <message> or PRESS <player>: <message>"
                               + (" (the GM: PRESS ALLOW ALL|PRIVATE|NONE)" if is_gm else ""))
    to, text = found.group(1), found.group(2)
    return Press(line, None if to.upper() == "ALL" else to, text)


def _parse_away(line: str, words: list[str]) -> Away:
    form = f"cannot read {line!r}: write AWAY <first day> TO <last day>, e.g. AWAY 2026-12-24 TO 2027-01-02"
    if len(words) != 4 or words[2].upper() != "TO":
        raise OrderSyntaxError(form)
    try:
        first, last = date.fromisoformat(words[1]), date.fromisoformat(words[3])
    except ValueError:
        raise OrderSyntaxError(form) from None
    if last < first:
        raise OrderSyntaxError(f"cannot read {line!r}: the last day comes before the first")
    if first.year < 2000 or last.year > 2999 or (last - first).days >= 366:
        raise OrderSyntaxError(f"cannot read {line!r}: an absence is at most a year, from 2000 to 2999")
    return Away(line, first, last)


MOST_HOURS = 8760
"""The longest time allowed TIMING sets (a year of hours; as many days of absence)."""


TIMED_WORDS = {"AUCTION": "auction", "STOCK": "stock", "OPERATING": "operating"}
"""The kinds of round TIMING names, as written in orders."""


def _parse_timing(line: str, words: list[str]) -> GmCommand:
    """``TIMING <AUCTION|STOCK|OPERATING> <hours|NONE> [WAIT|PASS|DEFAULT]``,
    ``TIMING REMIND <hours>``, ``TIMING DEALS <hours>``, ``TIMING AWAY <days a year> [FOR
    <seat>]``. Args: the record's round, hours, policy and seat (``""``: every seat)."""
    form = (f"cannot read {line!r}: write TIMING STOCK 48 PASS (AUCTION, STOCK or OPERATING; hours or NONE; "
            "WAIT, PASS or DEFAULT), TIMING REMIND 24, TIMING DEALS 48, TIMING AWAY 30 or TIMING AWAY 45 FOR Bob")
    upper = [w.upper() for w in words]
    if len(words) < 3:
        raise OrderSyntaxError(form)
    amount = 0 if upper[2] == "NONE" else number(words[2])
    if amount is None or amount > MOST_HOURS:
        raise OrderSyntaxError(form + f" (at most {MOST_HOURS})")
    if upper[1] in ("REMIND", "AWAY", "DEALS") and len(words) == 3:
        return GmCommand(line, "timing", (upper[1].lower(), str(amount), "", ""))
    if upper[1] == "AWAY" and len(words) >= 5 and upper[3] == "FOR":
        return GmCommand(line, "timing", ("away", str(amount), "", " ".join(words[4:])))
    policy = upper[3] if len(words) == 4 else "WAIT"
    if upper[1] not in TIMED_WORDS or len(words) > 4 or policy not in ("WAIT", "PASS", "DEFAULT"):
        raise OrderSyntaxError(form)
    return GmCommand(line, "timing", (TIMED_WORDS[upper[1]], str(amount), policy.lower(), ""))


def _parse_gm(line: str, words: list[str], vocab: Vocabulary, info: GameInfo) -> Command:
    head = words[0].upper()
    if head == "TIMING":
        return _parse_timing(line, words)
    if head == "UNDO":
        if len(words) == 1:
            return GmCommand(line, "undo")
        n = number(words[1]) if len(words) == 2 else None
        if n == 0:
            raise OrderSyntaxError(f"cannot read {line!r}: record 0 is the game itself; UNDO goes back to "
                                   "a log number from 1 on")
        if n is not None:
            return GmCommand(line, "undo", (str(n),))
        raise OrderSyntaxError(f"cannot read {line!r}: write UNDO, or UNDO <log number> to go back to it")
    if head == "ACT":
        if len(words) < 2 or words[1].upper() != "AS":
            raise OrderSyntaxError(f"cannot read {line!r}: write ACT AS <seat> <order>")
        rest = words[2:]
        # A seat's exact name wins over a seat number ("ACT AS 1 ..." with a seat named "1").
        # Names are compared word by word (runs of blanks do not matter), longest first.
        for seat in sorted(info.seats, key=lambda s: -len(s.name.split())):
            width = len(seat.name.split())
            if 0 < width < len(rest) and same_name(" ".join(rest[:width]), seat.name):
                return Order(line, parse_order(" ".join(rest[width:]), vocab), seat=seat.name)
        seat_number = number(rest[0]) if len(rest) > 1 else None
        if seat_number is not None and 1 <= seat_number <= len(info.seats):
            return Order(line, parse_order(" ".join(rest[1:]), vocab), seat=info.seats[seat_number - 1].name)
        seats = ", ".join(s.name for s in info.seats)
        raise OrderSyntaxError(f"cannot read {line!r}: no seat named there (seats: {seats}, or their numbers)")
    if head == "REPLACE":
        raw = rest_of_line(line).split()  # an address is one word as written, commas and all
        if len(raw) < 2:
            raise OrderSyntaxError(f"cannot read {line!r}: write REPLACE <seat> <new address>")
        address = raw[-1].removeprefix("<").removesuffix(">")
        if not valid_address(address):
            raise OrderSyntaxError(f"cannot read {line!r}: {raw[-1]!r} is not a mail address "
                                   "(write REPLACE <seat> <name@example.org>)")
        name = " ".join(split_words(" ".join(raw[:-1])))
        target = info.seat_named(name)
        if target is None:
            raise OrderSyntaxError(f"cannot read {line!r}: no seat {name!r}")
        return GmCommand(line, "replace", (target.name, address))
    if head == "DEADLINE" and len(words) > 1:
        text = rest_of_line(line)
        return GmCommand(line, "deadline", ("" if text.upper() == "NONE" else text,))
    if head in ("PAUSE", "RESUME") and len(words) == 1:
        return GmCommand(line, head.lower())
    if head == "BROADCAST" and len(words) > 1:
        return GmCommand(line, "broadcast", (rest_of_line(line),))
    if head == "END" and len(words) == 2 and words[1].upper() == "GAME":
        return GmCommand(line, "end")
    raise OrderSyntaxError(f"cannot read {line!r} as a GM command")


HELP_WIDTH = 78
"""The widest line of HELP (a reply no wider than a report at 80 columns)."""

def fit(lines: list[str], width: int = HELP_WIDTH) -> list[str]:
    """HELP's lines (each may hold several) at most ``width`` wide: a table row (a command
    from column 2, its meaning from column 32, continued on lines of 32 blanks; a long
    command alone on its line, its meaning below) is joined and wrapped under its column; a
    paragraph of prose (lines from column 0, up to a blank line or a heading ending ":") is
    joined and wrapped; any other line wraps under its own indent."""
    given = "\n".join(lines).splitlines()
    rows: list[tuple[str, str]] = []  # (command, meaning), or ("", a line of text)
    for n, line in enumerate(given):
        follows = n + 1 < len(given) and given[n + 1].startswith(" " * 32)
        if line.startswith(" " * 32) and rows and rows[-1][0]:
            rows[-1] = (rows[-1][0], f"{rows[-1][1]} {line.strip()}".strip())
        elif line.startswith("  ") and line[2:3] != " " and len(line) > 32 and line[31] == " " and line[32] != " ":
            rows.append((line[:32].rstrip(), line[32:].strip()))
        elif line.startswith("  ") and line[2:3] != " " and follows:
            rows.append((line.rstrip(), ""))
        elif line and not line.startswith(" ") and rows and rows[-1][0] == "" and rows[-1][1] \
                and not rows[-1][1].startswith(" ") and not rows[-1][1].endswith(":"):
            rows[-1] = ("", f"{rows[-1][1]} {line}")  # the same paragraph
        else:
            rows.append(("", line))
    out: list[str] = []
    for head, text in rows:
        if not head:
            indent = " " * (len(text) - len(text.lstrip()))
            out += textwrap.wrap(text, width, subsequent_indent=indent, break_on_hyphens=False) or [""]
        elif len(head) > 30:
            out += [head] + [" " * 32 + part for part in textwrap.wrap(text, width - 32, break_on_hyphens=False)]
        else:
            wrapped = textwrap.wrap(text, width - 32, break_on_hyphens=False) or [""]
            out += [head.ljust(32) + wrapped[0]] + [" " * 32 + part for part in wrapped[1:]]
    return [line.rstrip() for line in out]


SHARES_EXAMPLE = "BUY PRR POOL"
"""The core's example of buying shares (:data:`pbem.core_codecs.CORE_CODECS`); the
corporation it names is the one the commands' examples name, unless the title's
``help_examples`` give one of its own."""


def sample_corporation(title: TitleData | None = None) -> str:
    """The corporation the commands' examples name (``NEXT BUY PRR IF PRICE PRR <= 90``):
    the one of the title's own example of buying shares (game.yaml ``help_examples`` of
    :data:`SHARES_EXAMPLE`: 1870's ``BUY ATSF POOL``); the title's first corporation where
    that example names none of this game's (a part of the title without it); the core's PRR
    without a title or an example of its own."""
    core = SHARES_EXAMPLE.split()[1]
    line = title.settings.help_examples.get(SHARES_EXAMPLE) if title is not None else None
    if title is None or line is None:
        return core
    try:
        action: Action | None = parse_order(line, Vocabulary.from_title(title))
    except OrderSyntaxError:
        action = None
    if isinstance(action, BuyShares):
        return action.corporation
    return title.corporations[0].sym if title.corporations else core


def full_help(*, is_gm: bool, title: TitleData | None = None) -> str:
    """The HELP text: the order reference (from the grammar; with ``title``, that title's
    orders only and what a rotation means on its map) and the commands, their examples
    naming the title's own corporation (:func:`sample_corporation`)."""
    corp = sample_corporation(title)
    parts = [
        help_text(include_gm=is_gm, title=title),
        "",
        "Commands:",
        "  HELP                          this text",
        "  REPORT                        resend the current turn report to me",
        "  TILES                         the tile manifest: each tile left in the supply, its count,",
        "                                colour and track in words, whether it may be laid now",
        "  HISTORY <n>                   send me archived report number n",
        "  WIDTH 80 | WIDTH 132          my reports no wider than that (the map is split at 80)",
        "  TAKEBACK                      take back my last order, while nobody has acted since",
        "  ACCEPT [<n>] | DECLINE [<n>]  answer deal n offered to me (a corporation buying my",
        "                                private, or my corporation's train, at a price it names)",
        "  NEXT <order> [IF <condition> [AND ...]] [ELSE <order>]",
        "                                my standing orders, one line a later turn of mine, sent",
        f"                                for me as each comes: NEXT BUY {corp} IF PRICE {corp} <= 90",
        "                                ELSE PASS; conditions PRICE <corp> <= 90, CASH >= 200,",
        f"                                CERTS < 12, {corp} STARTED, {corp} FLOATED, POOL {corp}, UNSOLD {corp}",
        "                                (nobody sold it since), NOT ...; NEXT PASS UNTIL END|SALE|SR",
        "  CANCEL                        drop my standing orders",
        "  PRESS ALL: <message>          table talk to every player (PRESS <player>: to one)",
        "  MAIL EVERY|TURN|ROUND         mail me the full report after every move, on my turn and",
        "                                when a round ends, or when a round ends only",
        "  MAIL PICTURES OFF|ON          my reports as text only, or with the board's pictures",
        "  AUTO <corp> [PAYOUT|WITHHOLD] my corporation's operating turns played for me as they",
        "                                come: no track or token, RUN AUTO, that dividend, no train",
        "                                unless one must be bought (then I am asked); AUTO <corp> OFF",
        "  BID <private> UP TO <price>   bid the least now, and whenever the private is auctioned",
        "                                and I am outbid, raise by the least step up to <price>",
        "                                (then pass); only I see the limit",
        "  AWAY <day> TO <day>           I am away those days (2026-12-24 TO 2027-01-02): my",
        "                                deadlines move past them, within the game's yearly days",
        "",
        "Send orders to this address with the game's tag in the Subject, e.g. [my-game],",
        "and a line PASSWORD <your secret>. Several orders may follow, one per line; they",
        "apply in order, all or nothing. A line that does not start with an order or command",
        "word is chatter: never applied, listed in the reply. Quoted text (>) is skipped;",
        "reading stops at END or a signature (--).",
    ]
    if is_gm:
        parts += [
            "",
            "GM commands (from the GM address with the GM secret):",
            "  UNDO                          take back the last action",
            "  UNDO <n>                      take back every action from log number n on",
            "  ACT AS <seat> <order>         give an order for a seat (name or number)",
            "  REPLACE <seat> <address>      give a seat to a new address",
            "  PAUSE / RESUME                stop or restart the game",
            "  BROADCAST <text>              mail every player",
            "  DEADLINE <text>               show a deadline in every report (DEADLINE NONE clears it)",
            "  TIMING <round> <hours> [WAIT|PASS|DEFAULT]",
            "                                time allowed in AUCTION, STOCK or OPERATING rounds (NONE:",
            "                                no deadline) and what happens then: WAIT (I am told), PASS,",
            "                                DEFAULT (no track or token, RUN AUTO, PAYOUT, no train",
            "                                unless one must be bought); TIMING REMIND <hours> before;",
            "                                TIMING AWAY <days> [FOR <seat>] a seat may be away a",
            "                                year; TIMING DEALS <hours> a deal offered stands (NONE:",
            "                                until the buyer's turn ends)",
            "  PRESS ALLOW ALL|PRIVATE|NONE  the table talk players may send",
            "  MAIL DEFAULT EVERY|TURN|ROUND the players' MAIL setting unless they choose",
            "  END GAME                      end the game now",
        ]
    return "\n".join(parts[:1] + fit(parts[1:]))  # the order reference is laid out already


def describe(command: Command, vocab: Vocabulary | None = None) -> str:
    """The canonical form of a command for echoing back (orders in canonical order form,
    in the title's ``vocab`` where given: ``BUY PRR``, ``BUY MKT IPO``)."""
    if isinstance(command, Order):
        text = format_order(command.action, vocab)
        return f"ACT AS {command.seat} {text}" if command.seat else text
    return command.line.strip()
