"""The lines of an order mail: game orders, player commands and GM commands.

Player commands: ``HELP``, ``REPORT`` (resend the current report to me), ``HISTORY n``
(archived report n). GM commands (from the GM address with the GM secret):
``UNDO`` / ``UNDO n``, ``ACT AS <seat> <order>``, ``REPLACE <seat> <address>``, ``PAUSE``,
``RESUME``, ``BROADCAST <text>``, ``END GAME``. Any other line must be an order
(:mod:`pbem.orders`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.engine.actions import Action
from pbem.errors import OrderSyntaxError
from pbem.games import GameInfo
from pbem.orders import Vocabulary, format_order, help_text, parse_order


@dataclass(frozen=True)
class Order:
    """A game order by the sender's own seat (or, for ACT AS, by ``seat``)."""

    line: str
    action: Action
    seat: str | None = None


@dataclass(frozen=True)
class Info:
    """A request that changes nothing: ``what`` is ``help``, ``report`` or ``history``."""

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


Command = Order | Info | GmCommand

GM_ONLY = ("UNDO", "ACT", "REPLACE", "PAUSE", "RESUME", "BROADCAST", "END")


def parse_line(line: str, vocab: Vocabulary, info: GameInfo, *, is_gm: bool) -> Command:
    """Parse one line of a submission.

    :raises OrderSyntaxError: the line is not an order or command, or a GM command from a
        player, or names an unknown seat.
    """
    words = line.split()
    head = words[0].upper() if words else ""
    if head == "HELP" and len(words) == 1:
        return Info(line, "help")
    if head == "REPORT" and len(words) == 1:
        return Info(line, "report")
    if head == "HISTORY":
        if len(words) != 2 or not words[1].isdigit():
            raise OrderSyntaxError(f"cannot read {line!r}: write HISTORY <report number>, e.g. HISTORY 3")
        return Info(line, "history", int(words[1]))
    if head in GM_ONLY:
        if not is_gm:
            raise OrderSyntaxError(f"{line!r}: {head} is a GM command; only the GM may use it")
        return _parse_gm(line, words, vocab, info)
    return Order(line, parse_order(line, vocab))


def _parse_gm(line: str, words: list[str], vocab: Vocabulary, info: GameInfo) -> Command:
    head = words[0].upper()
    if head == "UNDO":
        if len(words) == 1:
            return GmCommand(line, "undo")
        if len(words) == 2 and words[1].isdigit():
            return GmCommand(line, "undo", (words[1],))
        raise OrderSyntaxError(f"cannot read {line!r}: write UNDO, or UNDO <log number> to go back to it")
    if head == "ACT":
        match = re.match(r"^\s*ACT\s+AS\s+(.*)$", line, re.IGNORECASE)
        if not match:
            raise OrderSyntaxError(f"cannot read {line!r}: write ACT AS <seat> <order>")
        rest = match.group(1).strip()
        for seat in sorted(info.seats, key=lambda s: -len(s.name)):
            for label in (seat.name, str(info.seats.index(seat) + 1)):
                if rest.lower().startswith(label.lower() + " "):
                    order_line = rest[len(label) :].strip()
                    return Order(line, parse_order(order_line, vocab), seat=seat.name)
        seats = ", ".join(s.name for s in info.seats)
        raise OrderSyntaxError(f"cannot read {line!r}: no seat named there (seats: {seats}, or their numbers)")
    if head == "REPLACE":
        if len(words) < 3 or "@" not in words[-1]:
            raise OrderSyntaxError(f"cannot read {line!r}: write REPLACE <seat> <new address>")
        target = info.seat_named(" ".join(words[1:-1]))
        if target is None:
            raise OrderSyntaxError(f"cannot read {line!r}: no seat {' '.join(words[1:-1])!r}")
        return GmCommand(line, "replace", (target.name, words[-1].strip("<>")))
    if head in ("PAUSE", "RESUME") and len(words) == 1:
        return GmCommand(line, head.lower())
    if head == "BROADCAST" and len(words) > 1:
        return GmCommand(line, "broadcast", (line.split(None, 1)[1],))
    if head == "END" and len(words) == 2 and words[1].upper() == "GAME":
        return GmCommand(line, "end")
    raise OrderSyntaxError(f"cannot read {line!r} as a GM command")


def full_help(*, is_gm: bool) -> str:
    """The HELP text: the order reference (from the grammar) and the commands."""
    parts = [
        help_text(),
        "",
        "Commands:",
        "  HELP                          this text",
        "  REPORT                        resend the current turn report to me",
        "  HISTORY <n>                   send me archived report number n",
        "",
        "Send orders to this address with the game's tag in the Subject, e.g. [my-game],",
        "and a line PASSWORD <your secret>. Several orders may follow, one per line; they",
        "apply in order, all or nothing. Reading stops at END, a signature (--) or quoted text.",
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
            "  END GAME                      end the game now",
        ]
    return "\n".join(parts)


def describe(command: Command) -> str:
    """The canonical form of a command for echoing back (orders in canonical order form)."""
    if isinstance(command, Order):
        text = format_order(command.action)
        return f"ACT AS {command.seat} {text}" if command.seat else text
    return command.line.strip()
