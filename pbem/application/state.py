"""A game's state as its log makes it, and the one function that applies a record to it.

:func:`apply_record` is the only place a log record is interpreted: :func:`replay` calls it
for every record of a log, and the application (:mod:`pbem.application.mail`) calls it for
each record a mail adds, so a game rebuilt from its log and one carried forward mail by mail
are the same (the issue: "one ``apply_record`` shared by replay and live mail").

Engine work is deferred while a log is replayed (``settle=False``): the actions in force are
collected, undos take actions back before they are ever applied, and :func:`settle` applies
what is left once. Live mail settles after each record, so a refused order is known at once.
"""

from __future__ import annotations

import copy
import dataclasses
import re
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Mapping, Sequence

from pbem.actionlog import LogIntegrityError
from pbem.engine.events import Event
from pbem.engine.deals import turn_key
from pbem.engine.game import Game
from pbem.engine.title import TitleData
from pbem.errors import OrderError
from pbem.application.mailing import MailSetting
from pbem.application.deadlines import Absence, Deadline, NoMove, Timing, current_deadline, parse_time
from pbem.log_records import (
    AutoRecord, AwayRecord, DealRecord, GameRecord, GMRecord, LogRecord, MailRecord, OrderRecord, PlanRecord,
    ProxyRecord,
    TimingRecord,
    UndoRecord,
    WidthRecord,
)
from pbem.order_codecs import Vocabulary


class ReplayError(LogIntegrityError):
    """A record of the log cannot be applied: ``seq`` is its log number, ``reason`` why
    (the log and the rules disagree; the engine's error is the ``__cause__``)."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"record {seq} no longer applies: {reason}")
        self.seq = seq
        self.reason = reason


def same_name(a: str, b: str) -> bool:
    """Whether two seat names are the same: case-insensitive, blanks runs count as one."""
    return a.split() != [] and [w.lower() for w in a.split()] == [w.lower() for w in b.split()]


@dataclass
class Seat:
    """A seat: its name in the game (``"Player 1"``), the player's address, the secret's hash."""

    name: str
    email: str
    secret_hash: str


@dataclass
class GameInfo:
    """Who plays a game and how it is set up, as the log says now."""

    game_id: str
    title: str
    variants: tuple[str, ...]
    seats: list[Seat]
    gm_email: str
    gm_secret_hash: str
    paused: bool = False
    ended: bool = False
    deadline: str | None = None
    mail_default: MailSetting = MailSetting.EVERY
    """The game's default MAIL setting (record 0's, then the GM's MAIL DEFAULT)."""
    mail: dict[str, MailSetting] = field(default_factory=dict)
    """Each seat's (and ``"GM"``'s) own MAIL setting."""
    no_pictures: set[str] = field(default_factory=set)
    """The seats (and ``"GM"``) who chose MAIL PICTURES OFF."""
    widths: dict[str, int] = field(default_factory=dict)
    """Report width chosen by each seat (and ``"GM"``) with WIDTH; 132 when not chosen."""
    auto_runs: bool = False
    """Game setting: a run left out of the orders is made by the server (RUN AUTO)."""
    timing: dict[str, Timing] = field(default_factory=dict)
    """The time allowed per kind of round (``auction``, ``stock``, ``operating``) and its
    no-move policy (issue 21); none set: no deadline."""
    remind_hours: int = 24
    """A reminder goes to the player to act this many hours before the deadline (0: none)."""
    away_days: int = 30
    """The days of absence (AWAY) a seat may take in a calendar year."""
    away_granted: dict[str, int] = field(default_factory=dict)
    """The days a year the GM allows a seat in place of :attr:`away_days` (TIMING AWAY n FOR seat)."""
    press: str = "all"
    """The table talk players may send (PRESS): ``all`` (to all and to one), ``private``
    (to one only) or ``none``; the GM's PRESS ALLOW."""
    deal_hours: int = 0
    """A deal offered lapses after this many hours unanswered (0: only when the buyer's turn ends)."""
    absences: list[Absence] = field(default_factory=list)
    """The seats' absences (AWAY), in the order sent."""

    def mail_setting(self, who: str | None) -> MailSetting:
        """How often seat ``who`` (None or ``"GM"``: the GM, EVERY unless the GM chose) is
        mailed the full report."""
        if who is None or who == "GM":
            return self.mail.get("GM", MailSetting.EVERY)
        return self.mail.get(who, self.mail_default)

    def pictures_for(self, who: str | None) -> bool:
        """Whether seat ``who`` (None: the GM) is mailed the board's pictures with its reports."""
        return (who or "GM") not in self.no_pictures

    def away_allowance(self, seat: str) -> int:
        """The days of absence ``seat`` may take in a calendar year."""
        return self.away_granted.get(seat, self.away_days)

    def width_for(self, who: str | None) -> int:
        """The report width for seat ``who`` (None or ``"GM"`` for the GM's copy)."""
        return self.widths.get(who or "GM", 132)

    def seat_for(self, email: str) -> Seat | None:
        """The seat whose address is ``email`` (case-insensitive), or None."""
        email = email.lower()
        return next((s for s in self.seats if s.email.lower() == email), None)

    def seat_named(self, name: str) -> Seat | None:
        """The seat called ``name`` (see :func:`same_name`), else the seat with that number
        (``"2"``, ASCII digits), or None. A seat's name wins over another seat's number."""
        named = next((s for s in self.seats if same_name(s.name, name)), None)
        if named is not None:
            return named
        if re.fullmatch(r"[0-9]{1,9}", name.strip()) and 1 <= int(name) <= len(self.seats):
            return self.seats[int(name) - 1]
        return None

    def recipients(self) -> list[str]:
        """Every player's address, then the GM's (no duplicates)."""
        out: list[str] = []
        for email in [s.email for s in self.seats] + [self.gm_email]:
            if email and email.lower() not in (e.lower() for e in out):
                out.append(email)
        return out


@dataclass(frozen=True)
class Undone:
    """An undo as the game saw it: ``record`` and the action records it took back
    (``taken_back``, oldest first; empty when none was in force)."""

    record: UndoRecord
    taken_back: tuple[OrderRecord, ...]

    @property
    def seq(self) -> int:
        """The undo record's log number."""
        return self.record.seq

    @property
    def actor(self) -> str:
        """Who undid (``"GM"``)."""
        return self.record.actor

    @property
    def undone(self) -> list[int]:
        """The log numbers taken back."""
        return [r.seq for r in self.taken_back]


@dataclass(frozen=True)
class StandingPlan:
    """A seat's standing orders as the log left them: sent at log number ``seq`` in round
    ``round``; ``entries`` as written (canonical); ``next`` the index of the entry due."""

    seq: int
    entries: tuple[str, ...]
    round: str
    next: int = 0
    held: bool = False
    """An entry left a turn to the player: the plan waits until another player acts."""


PLAN_GOES_ON = {"applied": 1, "else": 1, "left": 1, "over": 1, "kept": 0}
"""How far each outcome of a plan's entry moves the plan on (other outcomes end it)."""


GIVEN_BY = {"plan": "a standing order", "proxy": "a proxy bid", "auto": "the corporation's standing orders"}
"""How the reports mark an order a seat's standing orders gave rather than a mail."""


GmEntry = GMRecord | Undone
"""A GM record as a report lists it."""


@dataclass
class Replay:
    """A game rebuilt from its log (or carried forward by :func:`apply_record`).

    ``events`` maps each action record's ``seq`` to the events it produced (the report
    renders them: :mod:`pbem.engine.events`); ``effective``
    lists the action records in force (undone ones removed), in order; ``gm`` the undo and
    GM records (:data:`GmEntry`), in order; ``last_seq`` the log number of the last record
    applied. ``game`` is up to date with ``effective`` once :func:`settle` has run (after
    every :func:`apply_record` with ``settle=True``).
    """

    info: GameInfo
    title: TitleData
    game: Game
    events: dict[int, list[Event]] = field(default_factory=dict)
    effective: list[OrderRecord] = field(default_factory=list)
    last_seq: int = 0
    gm: list[GmEntry] = field(default_factory=list)
    deals: dict[int, DealRecord] = field(default_factory=dict)
    """The deals offered and not yet answered, by log number (:func:`open_deals`: those
    still standing)."""
    deal_records: list[DealRecord] = field(default_factory=list)
    """Every deal record, offers and answers, in order (the reports list them)."""
    plans: dict[str, StandingPlan] = field(default_factory=dict)
    """The seats' standing orders still to come (:mod:`pbem.application.plans`)."""
    proxies: dict[str, dict[str, int]] = field(default_factory=dict)
    """Each seat's proxy bids: private -> the most it bids (issue 21)."""
    given_by: dict[int, str] = field(default_factory=dict)
    """The log number of each order a standing order, a proxy or a corporation's standing
    orders gave -> what gave it (:data:`GIVEN_BY`; the reports mark them)."""
    autos: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Each corporation's standing orders: corporation -> (the president who set them, the
    dividend: ``payout`` or ``withhold``)."""
    plan_records: list[PlanRecord] = field(default_factory=list)
    """Every plan record, in order (the reports mark the orders plans gave)."""
    clock_since: str = ""
    """The time of the last record that moved the game (:func:`moves_clock`): the player to
    act has had to act since then ("" while unknown: a draft not yet written)."""
    applied: int = field(default=0, repr=False, compare=False)
    """How many of ``effective`` the engine has applied (the rest wait for :func:`settle`)."""
    stale: bool = field(default=False, repr=False, compare=False)
    """An undo took back an action the engine had applied: the game is rebuilt on settling."""

    @property
    def proxy_orders(self) -> set[int]:
        """The log numbers of the bids and passes proxies gave."""
        return {seq for seq, what in self.given_by.items() if what == GIVEN_BY["proxy"]}

    @property
    def auto_orders(self) -> set[int]:
        """The log numbers of the orders corporations' standing orders gave."""
        return {seq for seq, what in self.given_by.items() if what == GIVEN_BY["auto"]}

    def stamp(self, written: Sequence[LogRecord]) -> None:
        """Take the times of ``written``, the drafts this state was built from as the log
        stamped them: the clock's start and the deals' offers (a deal's time ends it)."""
        self.clock_since = next((r.time for r in reversed(written) if moves_clock(r)), self.clock_since)
        stamped = {r.seq: r for r in written if isinstance(r, DealRecord)}
        if stamped:
            self.deals = {seq: stamped.get(seq, deal) for seq, deal in self.deals.items()}
            self.deal_records = [stamped.get(deal.seq, deal) for deal in self.deal_records]

    def fork(self) -> Replay:
        """A copy to work on: its own game state, info and lists (the title, the records and
        the events already there are immutable and shared)."""
        return dataclasses.replace(
            self, info=copy.deepcopy(self.info), game=copy.deepcopy(self.game), events=dict(self.events),
            effective=list(self.effective), gm=list(self.gm), deals=dict(self.deals),
            deal_records=list(self.deal_records), plans=dict(self.plans), plan_records=list(self.plan_records),
            proxies={seat: dict(limits) for seat, limits in self.proxies.items()}, autos=dict(self.autos),
            given_by=dict(self.given_by))


def info_from_genesis(data: Mapping[str, Any]) -> GameInfo:
    """The :class:`GameInfo` in record 0's data (see :func:`pbem.games.genesis_data`)."""
    return GameInfo(
        game_id=data["game_id"],
        title=data["title"],
        variants=tuple(data.get("variants", ())),
        seats=[Seat(s["name"], s["email"], s["secret_hash"]) for s in data["seats"]],
        gm_email=data["gm"]["email"],
        gm_secret_hash=data["gm"]["secret_hash"],
        auto_runs=bool((data.get("settings") or {}).get("auto_runs", False)),
        mail_default=MailSetting((data.get("settings") or {}).get("mail", "every")),
        timing={str(kind): Timing(int(t["hours"]), NoMove(t.get("policy", "wait")))
                for kind, t in ((data.get("settings") or {}).get("timing") or {}).items()},
    )


def apply_to_info(info: GameInfo, record: LogRecord) -> None:
    """What ``record`` changes of who plays and how (GM commands, WIDTH); other records
    change nothing here. Mutates ``info``."""
    if isinstance(record, WidthRecord):
        info.widths[record.seat] = record.value
    elif isinstance(record, MailRecord) and record.value.startswith("pictures-"):
        (info.no_pictures.add if record.value == "pictures-off" else info.no_pictures.discard)(record.seat or "GM")
    elif isinstance(record, MailRecord):
        if record.seat:
            info.mail[record.seat] = MailSetting(record.value)
        else:
            info.mail_default = MailSetting(record.value)
    elif isinstance(record, GMRecord):
        if record.command == "replace" and record.seat is not None and record.email is not None:
            seat = info.seat_named(record.seat)
            if seat is not None:
                seat.email = record.email
                # the new player's secret replaces the old one (else the old secret would still
                # work and the one mailed to the new player would not)
                seat.secret_hash = record.secret_hash or seat.secret_hash
        elif record.command == "pause":
            info.paused = True
        elif record.command == "resume":
            info.paused = False
        elif record.command == "end":
            info.ended = True
        elif record.command == "deadline":
            info.deadline = record.text or None
        elif record.command == "press":
            info.press = record.text or "all"
    elif isinstance(record, TimingRecord):
        if record.round == "remind":
            info.remind_hours = record.hours
        elif record.round == "away" and record.seat:
            info.away_granted[record.seat] = record.hours
        elif record.round == "away":
            info.away_days = record.hours
        elif record.round == "deals":
            info.deal_hours = record.hours
        else:
            info.timing[record.round] = Timing(record.hours, NoMove(record.policy or "wait"))
    elif isinstance(record, AwayRecord):
        info.absences.append(Absence(record.seat, date.fromisoformat(record.first), date.fromisoformat(record.last)))


def info_from_records(records: Sequence[LogRecord]) -> GameInfo:
    """Who plays the game and how, after every record (no engine: actions are skipped).

    :raises ReplayError: the first record is not a game record.
    """
    if not records or not isinstance(records[0], GameRecord):
        raise ReplayError(0, "record 0 is not a game record")
    info = info_from_genesis(records[0].genesis)
    for record in records[1:]:
        apply_to_info(info, record)
    return info


def start(genesis: GameRecord) -> Replay:
    """The state a game's record 0 makes: its seats and the title's opening position.

    :raises ConfigError: the title or a variant is unknown.
    """
    info = info_from_genesis(genesis.genesis)
    from pbem.ruleset import load_title

    title = load_title(info.title, info.variants)
    return Replay(info, title, Game(title, [s.name for s in info.seats]), last_seq=genesis.seq,
                  clock_since=genesis.time)


def apply_record(state: Replay, record: LogRecord, *, settle_now: bool = True) -> None:
    """Apply one record after record 0 to ``state`` (mutated): an action joins the actions
    in force, an undo takes the actions from ``to_seq`` on back, GM and WIDTH records change
    the game's info; any other kind changes nothing but ``last_seq``. With ``settle_now``
    the engine applies the record at once (:func:`settle`).

    :raises ReplayError: the engine refuses the action (only with ``settle_now``), or
        ``record`` is a second game record.
    """
    if isinstance(record, GameRecord):
        raise ReplayError(record.seq, "a game record after record 0")
    if isinstance(record, OrderRecord):
        state.effective.append(record)
        for seat, plan in list(state.plans.items()):
            if plan.held and seat != record.actor:  # the turn left to the player is over
                state.plans[seat] = dataclasses.replace(plan, held=False)
    elif isinstance(record, UndoRecord):
        taken: list[OrderRecord] = []
        while state.effective and state.effective[-1].seq >= record.to_seq:
            taken.append(state.effective.pop())
        taken.reverse()
        if len(state.effective) < state.applied:
            state.stale = True
        state.gm.append(Undone(record, tuple(taken)))
        _undo_plan_uses(state, record.to_seq)
    elif isinstance(record, GMRecord):
        state.gm.append(record)
    elif isinstance(record, PlanRecord):
        _apply_plan_record(state, record)
    elif isinstance(record, AutoRecord):
        if record.status == "used":
            state.given_by[record.seq + 1] = GIVEN_BY["auto"]
        elif record.dividend:
            state.autos[record.corporation] = (record.seat, record.dividend)
        else:
            state.autos.pop(record.corporation, None)
    elif isinstance(record, ProxyRecord):
        if record.status == "set":
            state.proxies.setdefault(record.seat, {})[record.company] = record.limit
        elif record.status == "cancel":
            state.proxies.pop(record.seat, None)
        else:
            state.given_by[record.seq + 1] = GIVEN_BY["proxy"]
            if record.limit == 0:
                state.proxies.get(record.seat, {}).pop(record.company, None)
    elif isinstance(record, DealRecord):
        state.deal_records.append(record)
        if record.status == "offered":
            state.deals[record.seq] = record
        elif record.deal is not None:
            state.deals.pop(record.deal, None)
    apply_to_info(state.info, record)
    if moves_clock(record) and record.time:
        state.clock_since = record.time
    state.last_seq = record.seq
    if settle_now:
        settle(state)


def _undo_plan_uses(state: Replay, to_seq: int) -> None:
    """The standing orders as they were before the actions from ``to_seq`` on were taken
    back: their uses from then on are void (sent, cancelled and changed plans stand). A plan
    so restored waits for the next mail (the server applies plans after a mail, not after
    the GM's undo)."""
    def void(r: PlanRecord) -> bool:  # a use that gave an order is logged just before it
        gave = r.outcome in ("applied", "else", "kept")
        return r.status == "used" and r.seq + (1 if gave else 0) >= to_seq

    kept = [r for r in state.plan_records if not void(r)]
    if len(kept) == len(state.plan_records):
        return
    state.plans, state.plan_records = {}, []
    for record in kept:
        _apply_plan_record(state, record)


def _apply_plan_record(state: Replay, record: PlanRecord) -> None:
    state.plan_records.append(record)
    if record.status == "used" and record.outcome in ("applied", "else", "kept"):
        state.given_by[record.seq + 1] = GIVEN_BY["plan"]  # its order is the next record
    if record.status == "set":
        state.plans[record.seat] = StandingPlan(record.seq, record.entries, record.round)
        return
    plan = state.plans.pop(record.seat, None)
    if record.status != "used" or plan is None or record.outcome not in PLAN_GOES_ON:
        return
    step = record.index + PLAN_GOES_ON[record.outcome]
    if step < len(plan.entries):
        state.plans[record.seat] = dataclasses.replace(plan, next=step, held=record.outcome == "left")


def settle(state: Replay, *, atomic: bool = True) -> None:
    """Bring ``state.game`` up to date with the actions in force: applied from where the
    engine is, or from the start when an undo took back an applied action. ``atomic=False``
    (a whole log replayed) keeps no copy of the game state to restore when an action is
    refused (see :meth:`Game.apply`).

    :raises ReplayError: the engine refuses an action (the state is then not to be used).
    """
    if state.stale:
        state.game = Game(state.title, [s.name for s in state.info.seats])
        state.applied = 0
        state.stale = False
    types = Vocabulary.from_title(state.title).action_types
    while state.applied < len(state.effective):
        record = state.effective[state.applied]
        try:
            action = record.action_in(types)
            state.events[record.seq] = state.game.apply(record.actor, action, atomic=atomic)
        except OrderError as exc:
            raise ReplayError(record.seq, str(exc)) from exc
        except ValueError as exc:
            raise ReplayError(record.seq, str(exc)) from exc
        state.applied += 1


def replay(records: Sequence[LogRecord]) -> Replay:
    """Rebuild a game from its typed log records (record 0 first): :func:`start`, then
    :func:`apply_record` of every other record, then :func:`settle`.

    :raises ReplayError: the first record is not a game record, or a recorded action is
        refused by the engine (the log and the rules disagree).
    """
    if not records or not isinstance(records[0], GameRecord):
        raise ReplayError(0, "record 0 is not a game record")
    state = start(records[0])
    for record in records[1:]:
        apply_record(state, record, settle_now=False)
    settle(state, atomic=False)  # a refusal ends the replay: no state copy per action to restore
    return state


def open_deals(state: Replay) -> list[DealRecord]:
    """The deals offered and not answered that still stand: offered in the turn the game is
    in now (:func:`pbem.engine.deals.turn_key`; an offer lapses when its turn ends)."""
    if not state.deals:
        return []
    state_turn = turn_key(state.game)
    return [deal for deal in state.deals.values() if deal.turn == state_turn]


def moves_clock(record: LogRecord) -> bool:
    """Whether ``record`` starts the clock of the player to act anew: an action, an undo, a
    GM command, a change of the time allowed, the game's start; not a seat's width, absence,
    deal offer, standing orders or proxy (which must not put a deadline off)."""
    return isinstance(record, (OrderRecord, UndoRecord, GMRecord, TimingRecord, GameRecord))


def deadline_of(state: Replay) -> Deadline | None:
    """The deadline of the player to act in ``state`` (:func:`pbem.application.deadlines.
    current_deadline`), or None."""
    info = state.info
    return current_deadline(state.game, since=parse_time(state.clock_since), timing=info.timing,
                            remind_hours=info.remind_hours, absences=info.absences,
                            paused=info.paused or info.ended)
