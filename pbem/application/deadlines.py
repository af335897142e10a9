"""Deadlines that act (issue 21): how long a player has to act in each kind of round, when the
current deadline falls (the clock starts at the last record that moved the game, and a
player's absences push it back), and what the server does for a player who has not acted
by then — the game's no-move policy for that kind of round.

Pure functions of a game's replayed state and a time given by the caller (the server's
injected clock); nothing here reads the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from enum import StrEnum

from pbem.engine.actions import Action, Dividend, Pass, RunAuto
from pbem.engine.game import Game
from pbem.engine.state import RoundKind
from pbem.engine.steps import operating
from pbem.engine.values import DividendChoice

TIMED_ROUNDS = ("auction", "stock", "operating")
"""The kinds of round a time allowed is set for (a title's own start round counts as the
auction)."""

TIME_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
"""How the log writes a record's time (UTC)."""


class NoMove(StrEnum):
    """What happens when a deadline passes: ``wait`` (the GM is told), ``pass`` (PASS where
    it is legal, else the GM is told), ``default`` (the safe default: no track, no token,
    RUN AUTO, PAYOUT, no train unless one must be bought — then the GM is told; PASS in an
    auction or stock round)."""

    WAIT = "wait"
    PASS = "pass"
    DEFAULT = "default"


@dataclass(frozen=True)
class Timing:
    """The time allowed in one kind of round: ``hours`` (0: no deadline) and the ``policy``
    applied when it runs out."""

    hours: int = 0
    policy: NoMove = NoMove.WAIT


@dataclass(frozen=True)
class Absence:
    """Seat ``seat`` is away from the start of day ``first`` to the end of day ``last`` (UTC)."""

    seat: str
    first: date
    last: date

    @property
    def days(self) -> int:
        """Whole days away."""
        return (self.last - self.first).days + 1

    def span(self) -> tuple[datetime, datetime]:
        """The absence as UTC instants: [start of ``first``, start of the day after ``last``)."""
        start = datetime(self.first.year, self.first.month, self.first.day, tzinfo=timezone.utc)
        return start, start + timedelta(days=self.days)


@dataclass(frozen=True)
class Deadline:
    """The player ``seat`` is to act in a round of kind ``kind`` since ``since``; the deadline
    falls at ``at``, the reminder at ``remind_at`` (None: no reminder); ``policy`` applies
    then."""

    seat: str
    kind: str
    since: datetime
    at: datetime
    remind_at: datetime | None
    policy: NoMove


def parse_time(text: str) -> datetime | None:
    """A log record's time as a UTC datetime, or None if it has none."""
    try:
        return datetime.strptime(text, TIME_FORMAT).replace(tzinfo=timezone.utc)
    except ValueError:
        return None


def round_kind(game: Game) -> str:
    """The kind of round whose time allowed applies now (:data:`TIMED_ROUNDS`)."""
    kind = game.state.round.kind
    if kind == RoundKind.OPERATING:
        return "operating"
    return "stock" if kind == RoundKind.STOCK else "auction"


def pushed_back(since: datetime, at: datetime, absences: list[Absence]) -> datetime:
    """``at`` moved past the absences that begin before it: each absence's time after
    ``since`` is added, in order (an absence the deadline falls into moves it on by the rest
    of the absence and all the time that was left before it)."""
    for absence in sorted(absences, key=lambda a: a.first):
        start, end = absence.span()
        if start < at and end > since:
            at += end - max(start, since)
    return at


def current_deadline(game: Game, *, since: datetime | None, timing: dict[str, Timing], remind_hours: int,
                     absences: list[Absence], paused: bool = False) -> Deadline | None:
    """The deadline of the player to act now, or None: the game is paused or over, nobody is
    to act, no time is set for this kind of round, or the time the clock started
    (``since``, the last record that moved the game) is unknown."""
    actors = game.current_actors()
    if paused or game.state.finished or not actors or since is None:
        return None
    kind = round_kind(game)
    allowed = timing.get(kind)
    if allowed is None or allowed.hours <= 0:
        return None
    seat = actors[0]
    mine = [a for a in absences if a.seat == seat]
    at = pushed_back(since, since + timedelta(hours=allowed.hours), mine)
    remind = at - timedelta(hours=remind_hours) if 0 < remind_hours < allowed.hours else None
    return Deadline(seat, kind, since, at, remind, allowed.policy)


def default_action(game: Game, seat: str, policy: NoMove) -> Action | None:
    """What the deadline's ``policy`` does for ``seat`` now, from the legal offers
    (the engine's legal moves), or None (the GM is told): PASS where it is
    legal; with ``default`` in an operating round, of the step asked for: RUN AUTO, then
    PAYOUT, then PASS (an optional step, or no train when none must be bought)."""
    if policy == NoMove.WAIT:
        return None
    if game.state.round.kind == RoundKind.OPERATING and policy == NoMove.DEFAULT:
        asked = operating.active_steps(game)[0]
        mine = [action for step, action in operating.legal_moves(game, seat) if step is asked]
        for wanted in (RunAuto(), Dividend(DividendChoice.PAYOUT), Pass()):
            if wanted in mine:
                return wanted
        return None
    return Pass() if Pass() in game.legal_actions(seat) else None


def time_left(deadline: Deadline, now: datetime) -> str:
    """``"1 day 3 hours left"``, ``"40 minutes left"`` or ``"passed"``."""
    seconds = int((deadline.at - now).total_seconds())
    if seconds <= 0:
        return "passed"
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    parts = [f"{days} day{'s' * (days != 1)}"] if days else []
    parts += [f"{hours} hour{'s' * (hours != 1)}"] if hours else []
    if not parts:
        minutes = max(1, rest // 60)
        parts = [f"{minutes} minute{'s' * (minutes != 1)}"]
    return " ".join(parts) + " left"


def when(moment: datetime) -> str:
    """A moment as reports write it: ``"Tue 2026-12-01 14:00 UTC"``."""
    return moment.astimezone(timezone.utc).strftime("%a %Y-%m-%d %H:%M UTC")
