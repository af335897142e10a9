"""1870's own order words: HALF (a half payout), REDEEM and REISSUE (a corporation's own
shares, 1870 rules), DESTINATION (where the destination token goes), the GM's CONNECT
ruling and the GM's OUTOFORDER ruling (the Historical Order Start), the Katy's NEWHOME and
MOVEHOME (the Historical Order Start, :mod:`pbem.titles.g1870.katy`). Price protection needs
no word of its own: the president protects with
``BUY <n> <corporation> POOL`` or declines with ``PASS`` (core orders).

Registered by :meth:`pbem.titles.g1870.presentation.Presentation1870.order_codecs`; an 1830 game neither
reads nor lists them (issue 11).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from pbem.engine.values import DividendChoice
from pbem.core_codecs import word_alone
from pbem.engine.actions import Action, Dividend
from pbem.titles.g1870.actions import DestinationToken, GrantConnection, Redeem, Reissue, StartOutOfOrder
from pbem.errors import OrderSyntaxError
from pbem.order_codecs import HelpEntry, OrderCodec, Vocabulary, corporation, hex_ref
from pbem.titles.g1870.katy import KatyHome, MoveHomeToken

if TYPE_CHECKING:
    from pbem.engine.title import TitleData

__all__ = ["CODECS"]


def _plays_the_order(title: TitleData) -> bool:
    """Whether the title's game plays the Historical Order Start's order of starting (HELP
    lists OUTOFORDER only then)."""
    return bool(title.title_rule("historical_order"))


def _katy_has_a_new_home(title: TitleData) -> bool:
    """Whether the Katy may take a new home in Kansas City (HELP lists NEWHOME only then)."""
    return bool(title.title_rule("katy_kansas_city_home"))


def _katy_moves_its_token(title: TitleData) -> bool:
    """Whether the Katy may move its Junction City token (HELP lists MOVEHOME only then)."""
    return int(title.title_rule("katy_junction_city_move_cost")) > 0


def _parse_redeem(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if not words:
        raise OrderSyntaxError(f"cannot read {line!r}: write REDEEM <corporation> [POOL | FROM <player>]")
    sym = corporation(words[0], line, vocab)
    rest = words[1:]
    if not rest or (len(rest) == 1 and rest[0].upper() == "POOL"):
        return Redeem(sym, "pool")
    if rest[0].upper() == "FROM" and len(rest) > 1:
        return Redeem(sym, " ".join(rest[1:]))
    raise OrderSyntaxError(f"cannot read {line!r}: write REDEEM <corporation> [POOL | FROM <player>]")


def _format_redeem(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, Redeem)
    return f"REDEEM {action.corporation} " + ("POOL" if action.source == "pool" else f"FROM {action.source}")


def _corporation_order(word: str, kind: type[Reissue] | type[GrantConnection] | type[StartOutOfOrder]) -> tuple[
        Callable[[list[str], str, Vocabulary], Action], Callable[[Action, Vocabulary | None], str]]:
    """The parse and format of an order ``<word> <corporation>`` writing a ``kind`` of one
    field, ``corporation`` (REISSUE, the GM's CONNECT and OUTOFORDER)."""

    def parse(words: list[str], line: str, vocab: Vocabulary) -> Action:
        if len(words) != 1:
            raise OrderSyntaxError(f"cannot read {line!r}: write {word} <corporation>")
        return kind(corporation(words[0], line, vocab))

    def format_(action: Action, vocab: Vocabulary | None) -> str:
        assert isinstance(action, kind)
        return f"{word} {action.corporation}"

    return parse, format_


def _parse_destination(words: list[str], line: str, vocab: Vocabulary) -> Action:
    choice = words[0].upper() if len(words) == 1 else ""
    if choice not in ("MAP", "CHARTER"):
        raise OrderSyntaxError(f"cannot read {line!r}: write DESTINATION MAP or DESTINATION CHARTER")
    return DestinationToken("map" if choice == "MAP" else "charter")


def _format_destination(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, DestinationToken)
    return f"DESTINATION {action.choice.upper()}"


def _katy_order(word: str, kind: type[KatyHome] | type[MoveHomeToken]) -> tuple[
        Callable[[list[str], str, Vocabulary], Action], Callable[[Action, Vocabulary | None], str]]:
    """The parse and format of the Katy's ``<word> <hex>[.<city>]`` (NEWHOME, MOVEHOME)."""

    def parse(words: list[str], line: str, vocab: Vocabulary) -> Action:
        if len(words) != 1:
            raise OrderSyntaxError(f"cannot read {line!r}: write {word} <hex>, or {word} <hex>.<city>")
        return kind(*hex_ref(words[0], line, vocab))

    def format_(action: Action, vocab: Vocabulary | None) -> str:
        assert isinstance(action, kind)
        return f"{word} {action.hex}" + (f".{action.city}" if action.city else "")

    return parse, format_


CODECS: tuple[OrderCodec, ...] = (
    OrderCodec("OUTOFORDER", (), (StartOutOfOrder,), *_corporation_order("OUTOFORDER", StartOutOfOrder), (
        HelpEntry("OUTOFORDER <corporation>",
                  "GM ruling, given in a stock round as ACT AS <seat> OUTOFORDER <corporation>, <seat> "
                  "being the seat to act now (the ruling is no part of its turn): the corporation may be "
                  "started now, out of the Historical Order Start's order; the report says so until it "
                  "has started (1870; the order is our reading of a rule whose base text is not public)",
                  "OUTOFORDER SP", _plays_the_order),
    ), gm_only=True),
    OrderCodec("NEWHOME", (), (KatyHome,), *_katy_order("NEWHOME", KatyHome), (
        HelpEntry("NEWHOME <hex>", "the Katy, once floated, places an unused token free in Kansas City as its "
                  "new home (1870 Historical Order Start)", "NEWHOME B11", _katy_has_a_new_home),
    )),
    OrderCodec("MOVEHOME", (), (MoveHomeToken,), *_katy_order("MOVEHOME", MoveHomeToken), (
        HelpEntry("MOVEHOME <hex>[.<city>]", "the Katy, with a token in Kansas City, moves its Junction City token "
                  "to a city its track reaches, for $100 (1870 Historical Order Start)", "MOVEHOME D5",
                  _katy_moves_its_token),
    )),
    word_alone("HALF", Dividend(DividendChoice.HALF), (), "pay half, keep half (1870)"),
    OrderCodec("REDEEM", (), (Redeem,), _parse_redeem, _format_redeem, (
        HelpEntry("REDEEM <corporation> [POOL | FROM <player>]",
                  "your corporation buys back a share into its treasury (1870, stock round)", "REDEEM MP POOL"),
    )),
    OrderCodec("REISSUE", (), (Reissue,), *_corporation_order("REISSUE", Reissue), (
        HelpEntry("REISSUE <corporation>",
                  "your corporation offers its redeemed shares for sale at a new par (1870, stock round)",
                  "REISSUE MP"),
    )),
    OrderCodec("CONNECT", (), (GrantConnection,), *_corporation_order("CONNECT", GrantConnection), (
        HelpEntry("CONNECT <corporation>",
                  "GM ruling, given as ACT AS <seat> CONNECT <corporation>: the corporation has connected to "
                  "its destination; its connection run comes now (1870)", "CONNECT MP"),
    ), gm_only=True),
    OrderCodec("DESTINATION", (), (DestinationToken,), _parse_destination, _format_destination, (
        HelpEntry("DESTINATION MAP | CHARTER",
                  "on reaching the destination (1870): the token goes on the map (the stop counts twice) "
                  "or stays on the charter as a spare", "DESTINATION MAP"),
    )),
)
"""1870's codecs, in the order the order reference lists them after the core's."""
