"""1829's own order words: SURVEY (move a survey party) and PARK (leave it parked on a home
station), read and listed after the core's (:mod:`pbem.titles.g1829.presentation`)."""

from __future__ import annotations

from pbem.core_codecs import word_alone
from pbem.engine.actions import Action
from pbem.errors import OrderSyntaxError
from pbem.order_codecs import HelpEntry, OrderCodec, Vocabulary, hex_ref
from pbem.titles.g1829.survey import MoveParty, ParkParty

__all__ = ["CODECS"]

_SYNTAX = "write SURVEY <hex>, or SURVEY <from> <to> for a company with several parties"


def _hex(word: str, line: str, vocab: Vocabulary) -> str:
    coord, city = hex_ref(word, line, vocab)
    if city:
        raise OrderSyntaxError(f"cannot read {line!r}: a survey party moves to a hex ({coord}), not a city")
    return coord


def _parse_survey(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) == 1:
        return MoveParty(_hex(words[0], line, vocab))
    if len(words) == 2:
        return MoveParty(_hex(words[1], line, vocab), _hex(words[0], line, vocab))
    raise OrderSyntaxError(f"cannot read {line!r}: {_SYNTAX}")


def _format_survey(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, MoveParty)
    return f"SURVEY {action.to}" if action.origin is None else f"SURVEY {action.origin} {action.to}"


CODECS: tuple[OrderCodec, ...] = (
    OrderCodec("SURVEY", (), (MoveParty,), _parse_survey, _format_survey, (
        HelpEntry("SURVEY [<from>] <hex>",
                  "first in a company's turn (1829): its survey party moves to a hex next to it; new track "
                  "goes only on the hex it has just left, upgrades wherever no rival party closes the hex",
                  "SURVEY P12"),
    )),
    word_alone("PARK", ParkParty(), (), "first in a company's turn (1829), instead of SURVEY: its survey party "
               "stays parked on one of its home stations (upgrades only)"),
)
"""1829's codecs, in the order HELP lists them after the core's."""
