"""A game's history for its archive: the log replayed once, incrementally.

:func:`walk` applies the records in order as :func:`pbem.application.state.replay` does, and
brings the engine up to date only where something is to be seen: at each archived report's
log position (its board is drawn then) and at the end. As each action is applied it notes
what the charts show: every corporation's share price and every player's worth after it, and
the revenue each corporation ran in each operating round. An undo that takes back an action
already applied rebuilds the game as :func:`~pbem.application.state.settle` does, and the
notes of actions taken back are dropped: the charts follow the actions in force.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Iterable, Mapping, Sequence, TypeVar

from pbem.application.state import Replay, ReplayError, apply_record, start
from pbem.engine.events import DividendPaid, Event, NoRun, RoundStarted, Withheld
from pbem.engine.game import Game
from pbem.errors import OrderError
from pbem.log_records import GameRecord, LogRecord
from pbem.order_codecs import Vocabulary

T = TypeVar("T")


@dataclass(frozen=True)
class Sample:
    """The values the charts draw after log record ``seq`` (0: the opening), an action taken
    in round ``round``: share prices (None before par or once closed) and players' worth."""

    seq: int
    round: str
    prices: Mapping[str, int | None]
    worth: Mapping[str, int]


@dataclass(frozen=True)
class Revenue:
    """``corporation`` ran ``amount`` (0: no run) in operating round ``round``; the action
    at log record ``seq`` paid or withheld it."""

    seq: int
    round: str
    corporation: str
    amount: int


@dataclass
class History(Generic[T]):
    """What :func:`walk` gives: the game after every record, the opening values, one
    :class:`Sample` per action in force (in order), the revenues, and the picture taken at
    each archived report (by report number)."""

    final: Replay
    opening: Sample
    samples: list[Sample]
    revenues: list[Revenue]
    pictures: dict[int, T]


def sample_of(game: Game, seq: int, round_label: str) -> Sample:
    """The chart values of ``game`` now: price of each corporation, worth of each player
    (:meth:`~pbem.engine.game.Game.player_value`: cash, shares at market, privates at face)."""
    corporations = game.state.corporations
    prices = {c.sym: None if corporations[c.sym].closed else game.share_price(c.sym) for c in game.title.corporations}
    return Sample(seq, round_label, prices, {p: game.player_value(p) for p in game.state.seats})


def revenues_in(events: Iterable[Event], seq: int, round_label: str) -> list[Revenue]:
    """The revenues ``events`` pay or withhold (a run of nothing counts 0), each in the round
    it was run in: ``round_label`` until the events start another round."""
    out = []
    for event in events:
        if isinstance(event, RoundStarted):
            round_label = event.label
        elif isinstance(event, DividendPaid):
            out.append(Revenue(seq, round_label, event.corporation, event.revenue))
        elif isinstance(event, Withheld):
            out.append(Revenue(seq, round_label, event.corporation, event.amount))
        elif isinstance(event, NoRun):
            out.append(Revenue(seq, round_label, event.corporation, 0))
    return out


class _Walker:
    """The state being carried forward and the notes taken on the actions applied."""

    def __init__(self, state: Replay) -> None:
        self.state = state
        self.types = Vocabulary.from_title(state.title).action_types
        self.samples: dict[int, Sample] = {}
        self.revenues: dict[int, list[Revenue]] = {}

    def settle(self) -> None:
        """Apply the actions in force not yet applied (as :func:`pbem.application.state.
        settle` with ``atomic=False``), noting each one's values.

        :raises ReplayError: the engine refuses an action.
        """
        state = self.state
        if state.stale:  # an undo took back an applied action: the game is rebuilt
            state.game = Game(state.title, [s.name for s in state.info.seats])
            state.applied = 0
            state.stale = False
        while state.applied < len(state.effective):
            record = state.effective[state.applied]
            label = state.game.round_label()
            try:
                events = state.game.apply(record.actor, record.action_in(self.types), atomic=False)
            except (OrderError, ValueError) as exc:
                raise ReplayError(record.seq, str(exc)) from exc
            state.events[record.seq] = events
            state.applied += 1
            self.revenues[record.seq] = revenues_in(events, record.seq, label)
            self.samples[record.seq] = sample_of(state.game, record.seq, label)


def walk(records: Sequence[LogRecord], at: Iterable[tuple[int, int]], picture: Callable[[Game], T]) -> History[T]:
    """Replay ``records`` (record 0 first) once; ``at`` lists ``(report number, log seq)``:
    ``picture`` is taken of the game as it stood after record ``seq`` of each.

    :raises ReplayError: the log does not replay (see :func:`pbem.application.state.replay`).
    """
    if not records or not isinstance(records[0], GameRecord):
        raise ReplayError(0, "record 0 is not a game record")
    walker = _Walker(start(records[0]))
    state = walker.state
    opening = sample_of(state.game, 0, state.game.round_label())
    due = sorted(at, key=lambda pair: pair[1])
    pictures: dict[int, T] = {}

    def take(before: int | None) -> None:
        while due and (before is None or due[0][1] < before):
            walker.settle()
            pictures[due.pop(0)[0]] = picture(state.game)

    for record in records[1:]:
        take(record.seq)
        apply_record(state, record, settle_now=False)
    walker.settle()
    take(None)
    kept = [r.seq for r in state.effective]
    return History(final=state, opening=opening, samples=[walker.samples[seq] for seq in kept],
                   revenues=[r for seq in kept for r in walker.revenues[seq]], pictures=pictures)


def round_start(history: History[T]) -> int:
    """The log number of the last action before the current round (0: none), where a
    report of the round so far starts."""
    current = history.final.game.round_label()
    earlier = [s.seq for s in history.samples if s.round != current]
    return earlier[-1] if earlier else 0
