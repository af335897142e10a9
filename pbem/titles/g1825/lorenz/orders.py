"""The variant's order words: ``ASSIGN <private> <company>`` (the owner designates the public
company that gets the private's power), and ``LAY ... USING <private>`` / ``TOKEN ... USING
<private>`` read as a use of that power when the private is one of the variant's.

Each wraps the codec of its word that the title had before (the core's): a line the variant
does not read (``ASSIGN SCC B9``, a lay using another private, or none) is read and written
by that codec, so the words keep their meaning for every other title and reader.
"""

from __future__ import annotations

import functools

from pbem.engine.actions import Action, LayTile, PlaceToken
from pbem.errors import OrderSyntaxError
from pbem.order_codecs import HelpEntry, OrderCodec, Vocabulary, company, corporation
from pbem.titles.g1825.lorenz.actions import Designate, PowerLay, PowerToken
from pbem.engine.title import TitleData
from pbem.titles.g1825.lorenz.facts import CHP, CW, DESIGNATED, DOVER, DURHAM, PEAK, TWW, plays

__all__ = ["ASSIGN_EXAMPLE", "codecs_over"]

ASSIGN_EXAMPLE = "ASSIGN C&HP LNWR"
"""HELP's example of ``ASSIGN``; a game whose map has no use for C&HP's power or no LNWR names
its own (game.yaml ``help_examples``, :func:`pbem.titles.g1825.lorenz.rules.compose_lorenz`)."""

LAYING = (TWW, CHP)
TOKENING = (CW,)


def _played(title: TitleData) -> bool:
    """Whether HELP lists the variant's entries: only in a game that plays it."""
    return plays(title.variants)


def _entry(syntax: str, meaning: str, example: str, needs: tuple[str, ...] = (), on: str | None = None) -> HelpEntry:
    """A HELP entry of the variant, listed in a game that plays it and has one of the
    privates ``needs`` (none named: always) and the hex ``on`` on its map (none named:
    any map): TWW's lay only where Unit 3 brings TWW, C&HP's only where P14 is in play."""
    def listed(title: TitleData) -> bool:
        return (_played(title) and (not needs or any(c.sym in needs for c in title.companies))
                and (on is None or on in title.board.hexes))

    return HelpEntry(syntax, meaning, example, listed=listed)


def _assign(base: OrderCodec | None) -> OrderCodec:
    def parse(words: list[str], line: str, vocab: Vocabulary) -> Action:
        kept = [w for w in words if w.upper() not in ("TO", "FOR")]
        if len(kept) == 2 and kept[0].upper() in (s.upper() for s in DESIGNATED):
            return Designate(company(kept[0], line, vocab), corporation(kept[1], line, vocab))
        if len(kept) == 2 and kept[1].upper() in (c.upper() for c in vocab.corporations):
            raise OrderSyntaxError(
                f"cannot read {line!r}: only {', '.join(DESIGNATED)} have a power to give to a company "
                "(ASSIGN <private> <company>, e.g. ASSIGN TWW LNWR)")
        if base is not None:
            return base.parse(words, line, vocab)
        raise OrderSyntaxError(f"cannot read {line!r}: write ASSIGN <private> <company>, e.g. ASSIGN TWW LNWR")

    def write(action: Action, vocab: Vocabulary | None) -> str | None:
        if isinstance(action, Designate):
            return f"ASSIGN {action.company} {action.corporation}"
        return base.format(action, vocab) if base is not None else None

    actions: tuple[type[Action], ...] = (Designate, *(base.actions if base is not None else ()))
    # the word's other meaning (1870's tokens) is listed only for a title that offers it
    inherited = () if base is None else tuple(
        HelpEntry(e.syntax, e.meaning, e.example, listed=base.offered or e.listed) for e in base.help)
    entries = (_entry("ASSIGN <private> <company>",
                         "give the power of your TWW, C&HP or C&W to an operating company you direct, at "
                         "any time of an operating round; a designation stands once given (Lorenz's variant; "
                         "with lorenz_assign_any_time also in your stock turn, and a power not yet used may "
                         "be moved)", ASSIGN_EXAMPLE, DESIGNATED),
               *inherited)
    return OrderCodec("ASSIGN", base.aliases if base is not None else (), actions, parse, write, entries)


def _with_help(base: OrderCodec, entry: HelpEntry) -> OrderCodec:
    """``base`` with one more HELP entry (what the word means in the variant)."""
    return OrderCodec(base.word, base.aliases, base.actions, base.parse, base.format, (*base.help, entry),
                      base.gm_only, base.offered)


def _with_power(base: OrderCodec, kind: type[LayTile] | type[PlaceToken], privates: tuple[str, ...],
                entries: tuple[HelpEntry, ...]) -> OrderCodec:
    def parse(words: list[str], line: str, vocab: Vocabulary) -> Action:
        found = base.parse(words, line, vocab)
        if isinstance(found, LayTile) and found.using in privates and kind is PowerLay:
            return PowerLay(found.hex, found.tile, found.rotation, found.using)
        if isinstance(found, PlaceToken) and found.using in privates and kind is PowerToken:
            return PowerToken(found.hex, found.city, found.using)
        return found

    return OrderCodec(base.word, base.aliases, (*base.actions, kind), parse, base.format,
                      (*base.help, *entries), base.gm_only, base.offered)


@functools.lru_cache(maxsize=32)
def codecs_over(before: tuple[OrderCodec, ...]) -> tuple[OrderCodec, ...]:
    """The variant's codecs, each wrapping the codec of its word among ``before`` (the title's
    other codecs, or the core's where the title has none of its own): ASSIGN, LAY, TOKEN, and
    PASS (its HELP only). Each HELP entry says how the game reads the variant where its text is
    silent, and the variant that reads it otherwise (:mod:`.readings`)."""
    from pbem.core_codecs import CORE_CODECS

    def last(word: str) -> OrderCodec | None:
        return next((c for c in reversed((*CORE_CODECS, *before)) if c.word == word), None)

    lay, token, passing = last("LAY"), last("TOKEN"), last("PASS")
    assert lay is not None and token is not None and passing is not None, "the core has LAY, TOKEN and PASS"
    return (
        _assign(last("ASSIGN")),
        _with_power(lay, PowerLay, LAYING, (
            _entry(f"LAY {DURHAM} <tile> <rotation> USING TWW",
                      f"the company holding TWW's power makes a free extra lay or upgrade at Durham ({DURHAM}) in "
                      "its turn, connected or not; an upgrade closes TWW (Lorenz's variant; with "
                      f"lorenz_tww_needs_reach its track must reach {DURHAM})", f"LAY {DURHAM} 57 0 USING TWW", (TWW,)),
            _entry(f"LAY {PEAK} <tile> <rotation> USING C&HP",
                      f"the company holding C&HP's power builds on the mountain {PEAK} at half the terrain cost, "
                      f"as one of its lays this turn, its track reaching {PEAK}; no company lays there before "
                      "(Lorenz's variant; with lorenz_chp_extra_lay an extra lay, connected or not)",
                      f"LAY {PEAK} 9 0 USING C&HP", (CHP,), PEAK))),
        _with_power(token, PowerToken, TOKENING, (_entry(
            f"TOKEN {DOVER} USING C&W",
            f"the company holding C&W's power places a free token in Dover ({DOVER}), connected or not, one of "
            "its own tokens; C&W closes (Lorenz's variant; with lorenz_cw_extra_token an extra token)",
            f"TOKEN {DOVER} USING C&W", (CW,)),)),
        _with_help(passing, _entry(
            "PASS", "in the start of Lorenz's variant: when every player passes in succession, the cheapest "
                    "private still for sale falls by £5, as in 1830 (with lorenz_no_price_drop no price falls)",
            "PASS")),
    )
