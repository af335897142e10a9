"""The record an export writes and what it is made from: the record's players and actions
(:class:`ExportedRecord`), the orders in force of a log (:func:`orders_in_force`), and the
options the platform has (:func:`platform_options`). The writing itself is
:mod:`pbem.exporters.e18xx`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from pbem.engine.actions import Action
from pbem.engine.title import TitleData
from pbem.log_records import GameRecord, GMRecord, LogRecord
from pbem.order_codecs import Vocabulary


class UnsupportedExport(Exception):
    """A game or order the record format cannot hold (the message names it)."""


@dataclass(frozen=True)
class RecordPlayer:
    """A seat as the record names it: ``id`` (1, 2 ... in seating order) and ``name``."""

    id: int
    name: str


@dataclass(frozen=True)
class ExportedRecord:
    """An 18xx.games record: ``actions`` are its JSON objects with ids 1, 2 ...;
    ``sources[i]`` is the log number (``seq``) of our record that ``actions[i]`` came from
    (kept beside the record, not in its JSON)."""

    title: str
    players: tuple[RecordPlayer, ...]
    optional_rules: tuple[str, ...]
    actions: tuple[dict[str, Any], ...]
    sources: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The record's JSON object (``title``, ``players``, ``settings.optional_rules``,
        ``actions``)."""
        return {
            "title": self.title,
            "players": [{"id": p.id, "name": p.name} for p in self.players],
            "settings": {"optional_rules": list(self.optional_rules)},
            "actions": [dict(a) for a in self.actions],
        }


@dataclass(frozen=True)
class LoggedOrder:
    """One order in force: our log number ``seq``, the ``seat`` it is for and the action."""

    seq: int
    seat: str
    action: Action


def platform_options(title: TitleData, variants: Sequence[str]) -> tuple[str, ...]:
    """The record's ``optional_rules`` for a game of ``title`` with ``variants`` (our variant
    names are the platform's option symbols); a variant is lacking when it, or one it
    includes, is in the title's ``platform_lacks``; one in its ``platform_plays`` is left out.

    :raises UnsupportedExport: a variant the platform does not have, named.
    """
    from pbem.importers.translation import translation_for
    from pbem.ruleset.files import variant_overlays

    lacks = translation_for(title.title).platform_lacks
    missing = [v for v in variants
               if {path.stem for path, _ in variant_overlays(title.title, (v,))} & lacks]
    if missing:
        raise UnsupportedExport(f"18xx.games has no variant {', '.join(missing)} of {title.title}: "
                                "this game cannot be exported")
    plays = translation_for(title.title).platform_plays
    return tuple(v for v in variants if v not in plays)


def orders_in_force(records: Sequence[LogRecord]) -> tuple[GameRecord, list[LoggedOrder], int | None]:
    """Record 0, the orders in force after every undo (in log order) and the log number of
    the GM's END GAME (None when the game was not ended by the GM).

    :raises UnsupportedExport: the first record is not a game record.
    """
    from pbem.application.state import apply_record, start

    if not records or not isinstance(records[0], GameRecord):
        raise UnsupportedExport("record 0 of the log is not a game record")
    state = start(records[0])
    ended: int | None = None
    types = Vocabulary.from_title(state.title).action_types
    for record in records[1:]:
        apply_record(state, record, settle_now=False)
        if isinstance(record, GMRecord) and record.command == "end":
            ended = record.seq
    orders = [LoggedOrder(r.seq, r.actor, r.action_in(types)) for r in state.effective]
    return records[0], orders, ended
