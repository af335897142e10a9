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
from pbem.titles.g1825.lorenz.facts import CHP, CW, DESIGNATED, DOVER, DURHAM, PEAK, TWW

__all__ = ["codecs_over"]

LAYING = (TWW, CHP)
TOKENING = (CW,)


def _assign(base: OrderCodec | None) -> OrderCodec:
    def parse(words: list[str], line: str, vocab: Vocabulary) -> Action:
        kept = [w for w in words if w.upper() not in ("TO", "FOR")]
        if len(kept) == 2 and kept[0].upper() in (s.upper() for s in DESIGNATED):
            return Designate(company(kept[0], line, vocab), corporation(kept[1], line, vocab))
        if base is not None:
            return base.parse(words, line, vocab)
        raise OrderSyntaxError(f"cannot read {line!r}: write ASSIGN <private> <company>, e.g. ASSIGN TWW LNWR")

    def write(action: Action, vocab: Vocabulary | None) -> str | None:
        if isinstance(action, Designate):
            return f"ASSIGN {action.company} {action.corporation}"
        return base.format(action, vocab) if base is not None else None

    actions: tuple[type[Action], ...] = (Designate, *(base.actions if base is not None else ()))
    entries = (HelpEntry("ASSIGN <private> <company>",
                         "give the power of your TWW, C&HP or C&W to an operating company you direct "
                         "(Lorenz's variant)", "ASSIGN TWW LNWR"),
               *(base.help if base is not None else ()))
    return OrderCodec("ASSIGN", base.aliases if base is not None else (), actions, parse, write, entries)


def _with_power(base: OrderCodec, kind: type[LayTile] | type[PlaceToken], privates: tuple[str, ...],
                entry: HelpEntry) -> OrderCodec:
    def parse(words: list[str], line: str, vocab: Vocabulary) -> Action:
        found = base.parse(words, line, vocab)
        if isinstance(found, LayTile) and found.using in privates and kind is PowerLay:
            return PowerLay(found.hex, found.tile, found.rotation, found.using)
        if isinstance(found, PlaceToken) and found.using in privates and kind is PowerToken:
            return PowerToken(found.hex, found.city, found.using)
        return found

    return OrderCodec(base.word, base.aliases, (*base.actions, kind), parse, base.format,
                      (*base.help, entry), base.gm_only, base.offered)


@functools.lru_cache(maxsize=32)
def codecs_over(before: tuple[OrderCodec, ...]) -> tuple[OrderCodec, ...]:
    """The variant's codecs, each wrapping the codec of its word among ``before`` (the title's
    other codecs, or the core's where the title has none of its own): ASSIGN, LAY, TOKEN."""
    from pbem.core_codecs import CORE_CODECS

    def last(word: str) -> OrderCodec | None:
        return next((c for c in reversed((*CORE_CODECS, *before)) if c.word == word), None)

    lay, token = last("LAY"), last("TOKEN")
    assert lay is not None and token is not None, "the core has LAY and TOKEN"
    return (
        _assign(last("ASSIGN")),
        _with_power(lay, PowerLay, LAYING, HelpEntry(
            "LAY <hex> <tile> <rotation> USING TWW|C&HP",
            f"the designated company uses TWW (a free extra lay or upgrade on {DURHAM}) or C&HP (its lay on "
            f"the mountain {PEAK} at half price) (Lorenz's variant)", f"LAY {DURHAM} 57 0 USING TWW")),
        _with_power(token, PowerToken, TOKENING, HelpEntry(
            "TOKEN W25 USING C&W",
            f"the designated company places a free token in Dover ({DOVER}), connected or not; C&W closes "
            "(Lorenz's variant)", f"TOKEN {DOVER} USING C&W")),
    )
