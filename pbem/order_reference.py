"""The order reference: every kind of order with its syntax, meaning and example, which
orders a title has, and what a tile's rotation number means -- the HELP text (issue: HELP
lists only the orders of the game's own title, and shows with a small hex which edge each
rotation number means). :mod:`pbem.orders` reads and writes the orders themselves.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Callable

from pbem.engine.title import TitleData


@dataclass(frozen=True)
class OrderSpec:
    """One kind of order: its keyword, aliases, syntax and meaning (used for HELP too)."""

    keyword: str
    aliases: tuple[str, ...]
    syntax: str
    meaning: str
    example: str
    gm_only: bool = False
    """A ruling only the GM gives (listed in the GM's HELP only)."""
    needs: str = ""
    """What a title must have for the order to be one of its orders (see
    :func:`title_orders`): ``""`` every title, else one of :data:`_NEEDS`."""


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
    OrderSpec("PASS", ("P", "DONE"), "PASS", "pass, or end your stock-round turn, or skip an OR step", "PASS"),
    OrderSpec(
        "LAY", ("TILE", "T"), "LAY <hex> <tile> <rotation 0-5> [USING <private>]",
        "lay or upgrade a tile (USING: a private's special lay)", "LAY H16 57 1",
    ),
    OrderSpec(
        "TOKEN", ("STATION",), "TOKEN <hex>[.<city>] [USING <private>]",
        "place a station token", "TOKEN F20.1",
    ),
    OrderSpec(
        "RUN", ("R",), "RUN <train>: <stop>-<stop>...; ... | RUN AUTO | RUN NONE",
        "run the trains (stops in order; .<n> picks a city on a hex); RUN AUTO: the best run the "
        "server finds; RUN NONE: run no train (no revenue)", "RUN 2: I15-I19; 2: I15-J14",
    ),
    OrderSpec("PAYOUT", ("PAY",), "PAYOUT", "pay the revenue to the shareholders", "PAYOUT"),
    OrderSpec("WITHHOLD", ("KEEP", "HOLD"), "WITHHOLD", "keep the revenue in the treasury", "WITHHOLD"),
    OrderSpec("HALF", (), "HALF", "pay half, keep half (1870)", "HALF", needs="half"),
    OrderSpec(
        "TRAIN", (), "TRAIN <type> [FROM POOL|<corp>] [FOR <price>] [TRADE <type>]",
        "buy a train (default: from the bank at its price)", "TRAIN 3",
    ),
    OrderSpec("DISCARD", (), "DISCARD <train>", "discard a train over the train limit", "DISCARD 2"),
    OrderSpec(
        "BUY", ("B",), "BUY <private> <price>",
        "the operating corporation buys a private from a player", "BUY CS 80",
    ),
    OrderSpec(
        "EXCHANGE", (), "EXCHANGE <private> [POOL]",
        "exchange a private for a share (1830: MH for NYC), any time", "EXCHANGE MH",
        needs="exchange",
    ),
    OrderSpec(
        "REDEEM", (), "REDEEM <corporation> [POOL | FROM <player>]",
        "your corporation buys back a share into its treasury (1870, stock round)", "REDEEM MP POOL",
        needs="redeem",
    ),
    OrderSpec(
        "REISSUE", (), "REISSUE <corporation>",
        "your corporation offers its redeemed shares for sale at a new par (1870, stock round)", "REISSUE MP",
        needs="reissue",
    ),
    OrderSpec(
        "CONNECT", (), "CONNECT <corporation>",
        "GM ruling, given as ACT AS <seat> CONNECT <corporation>: the corporation has connected to "
        "its destination; its connection run comes now (1870)",
        "CONNECT MP", gm_only=True, needs="destination",
    ),
    OrderSpec(
        "ASSIGN", (), "ASSIGN <private> <hex>",
        "place a private's token (1870: SCC cattle, GSC port; again on the port closes it)", "ASSIGN SCC B9",
        needs="assign",
    ),
    OrderSpec(
        "DESTINATION", (), "DESTINATION MAP | CHARTER",
        "on reaching the destination (1870): the token goes on the map (the stop counts twice) "
        "or stays on the charter as a spare", "DESTINATION MAP", needs="destination",
    ),
    OrderSpec("BANKRUPT", (), "BANKRUPT", "declare bankruptcy", "BANKRUPT"),
)

_NEEDS: dict[str, Callable[[TitleData], bool]] = {
    "half": lambda t: "half" in (t.const("dividend_choices") or ()),
    "exchange": lambda t: any(c.ability("exchange") is not None for c in t.companies),
    "redeem": lambda t: bool(t.const("share_redemption")),
    "reissue": lambda t: bool(t.const("share_reissue")),
    "destination": lambda t: any(c.destination for c in t.corporations),
    "assign": lambda t: any(c.ability("assign_hexes") is not None for c in t.companies),
}
"""What a title must have for an order marked ``needs`` to be one of its orders: HALF a
half payout among its dividend choices, EXCHANGE a private with an exchange ability,
REDEEM/REISSUE its share redemption/reissue rules, CONNECT/DESTINATION destinations, ASSIGN
a private with a token to place."""


def title_orders(title: TitleData) -> tuple[str, ...]:
    """The order keywords of ``title`` (issue: an 1830 game lists no REDEEM, CONNECT, HALF
    or DESTINATION), in the order of :data:`ORDER_SPECS`, aliases not included."""
    out: list[str] = []
    for spec in ORDER_SPECS:
        if (not spec.needs or _NEEDS[spec.needs](title)) and spec.keyword not in out:
            out.append(spec.keyword)
    return tuple(out)


ROTATION_PICTURES: dict[str, tuple[str, ...]] = {
    "pointy": (
        "          2 /\\ 3          edges: 0 SW, 1 W, 2 NW,",
        "           /  \\                   3 NE, 4 E, 5 SE",
        "        1 |    | 4",
        "           \\  /",
        "          0 \\/ 5",
    ),
    "flat": (
        "             3             edges: 0 S, 1 SW, 2 NW,",
        "           ____                   3 N, 4 NE, 5 SE",
        "        2 /    \\ 4",
        "        1 \\____/ 5",
        "             0",
    ),
}
"""Layout -> a small ASCII hex with its edge numbers (the numbering of
:data:`pbem.engine.board.EDGE_DELTAS`: edge 0 at the bottom, counting clockwise)."""


def rotation_help(layout: str) -> list[str]:
    """What a rotation number means on a map of ``layout`` (``"pointy"`` or ``"flat"``), with
    a small hex whose edges are numbered: rotation r turns the tile as drawn (rotation 0) r
    sixths of a turn clockwise, so the tile's edge e lands on the hex's edge (e + r) mod 6
    (:meth:`pbem.engine.board.TileData.rotate_endpoint`)."""
    return [
        "Rotations (LAY <hex> <tile> <rotation>; r3 and 3 are the same):",
        "  rotation 0 is the tile as the tile manifest draws it; each step turns it one",
        "  edge clockwise, so the tile's edge e goes on the hex's edge (e + rotation)",
        "  mod 6. The edges of a hex:",
        *("  " + line for line in ROTATION_PICTURES[layout]),
        "  The report lists, for the corporation about to lay track, every hex it may",
        "  lay on with the tiles and rotations that fit (H10: 57 r0 r3 = LAY H10 57 0 or",
        "  LAY H10 57 3).",
    ]


def help_text(*, include_gm: bool = False, title: TitleData | None = None) -> str:
    """The order reference, generated from :data:`ORDER_SPECS` (the GM's rulings too with
    ``include_gm``). With ``title``, only that title's orders (:func:`title_orders`; issue:
    an 1830 game lists no REDEEM, CONNECT, HALF or DESTINATION) and what a rotation means
    on its map; without it (the default, for callers that know no title), every order."""
    lines = ["Orders (one per line, any case):"]
    allowed = title_orders(title) if title is not None else None
    for spec in ORDER_SPECS:
        if spec.gm_only and not include_gm:
            continue
        if allowed is not None and spec.keyword not in allowed:
            continue
        alias = f"  (also {', '.join(spec.aliases)})" if spec.aliases else ""
        lines.append(f"  {spec.syntax}{alias}")
        lines += textwrap.wrap(spec.meaning, width=78, initial_indent="      ", subsequent_indent="      ")
        lines.append(f"      e.g. {spec.example}")
    if title is not None:
        from pbem.engine.board import load_map

        lines += ["", *rotation_help(load_map(title.title, variants=title.variants).layout)]
    return "\n".join(lines)
