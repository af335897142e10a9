"""Applying the commands of one mail to a working copy of a game (no I/O but title data).

:func:`execute` is called for each command of an accepted mail in turn (by
:func:`pbem.application.mail.handle_mail`). Each record a command adds is a typed draft
(:mod:`pbem.log_records`) numbered as it will be written, and is applied to the working
copy at once through :func:`pbem.application.state.apply_record`, the function a replay of
the log uses: so the copy always ends where the log will once the drafts are appended.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from pbem.application.state import Replay, ReplayError, apply_record
from pbem.commands import Command, GmCommand, Info, Order
from pbem.engine import routes
from pbem.engine.actions import Action, RunAuto, RunRoutes
from pbem.engine.events import Note
from pbem.errors import OrderError
from pbem.log_records import GMRecord, LogRecord, UndoRecord, WidthRecord, draft_order


@dataclass(frozen=True)
class Welcome:
    """A seat given to a new address: the welcome mail to send (``secret`` in clear)."""

    seat: str
    email: str
    secret: str


@dataclass
class Work:
    """One mail being applied: the working copy ``state`` (changed in place), who sent it
    (``sender`` address, ``source`` its Message-ID, ``seat`` the sender's seat or None for
    the GM, ``is_gm``), and what the commands so far collected: ``records`` (drafts, in
    order), ``infos`` (HELP, REPORT, HISTORY, WIDTH), ``broadcasts`` (texts), ``welcomes``.

    ``route_budget`` is in search steps of the route optimiser (RUN AUTO); ``new_secret`` makes a new player's
    secret (given, so the application stays deterministic under test).
    """

    state: Replay
    sender: str
    source: str
    seat: str | None
    is_gm: bool
    route_budget: int
    new_secret: Callable[[], str]
    hash_secret: Callable[[str, str], str]
    records: list[LogRecord] = field(default_factory=list)
    infos: list[Info] = field(default_factory=list)
    broadcasts: list[str] = field(default_factory=list)
    welcomes: list[Welcome] = field(default_factory=list)

    @property
    def next_seq(self) -> int:
        """The log number the next record gets."""
        return self.state.last_seq + 1

    def add(self, record: LogRecord) -> None:
        """Apply ``record`` to the working copy and keep it for the log.

        :raises OrderError: the engine refuses it (with the engine's message).
        """
        try:
            apply_record(self.state, record)
        except ReplayError as exc:
            if isinstance(exc.__cause__, OrderError):
                raise exc.__cause__ from None
            raise exc.__cause__ or exc from None  # not the player's fault: an internal error
        self.records.append(record)


def _hexes_named(action: Action) -> list[str]:
    """The hexes an action names (a tile's, a token's, a private token's, a run's stops)."""
    if isinstance(action, RunRoutes):
        return [stop.split(".", 1)[0] for run in action.runs for stop in run.stops]
    named = getattr(action, "hex", None)
    return [named] if isinstance(named, str) else []


def apply_order(work: Work, seat: str, action: Action) -> None:
    """Apply ``action`` for ``seat`` and keep its record. RUN AUTO is logged as the run it
    found (resolved here, outside the engine's ``apply``): the log keeps what was played.

    :raises OrderError: a hex the action names is not on the map, or the engine refuses it.
    """
    state = work.state
    missing = [h for h in _hexes_named(action) if h not in state.game.board.hexes]
    if missing:
        if state.title.variants:  # 1825's units: the hex may be on a unit this game does not play
            where = f"this game's map ({state.title.name} with {', '.join(state.title.variants)})"
        else:
            where = f"the {state.title.name} map"
        raise OrderError(f"there is no hex {missing[0]} on {where}")
    action, notes = routes.resolve_auto(state.game, action, work.route_budget)
    record = draft_order(work.next_seq, seat, action, by=work.sender, source=work.source)
    work.add(record)
    if notes:
        state.events[record.seq] = [Note(note) for note in notes] + state.events.get(record.seq, [])


def execute(command: Command, work: Work) -> None:
    """Apply one command of a mail to ``work`` (see :class:`Work`).

    :raises OrderError: the command is refused (nothing of the mail is applied then).
    """
    info = work.state.info
    if isinstance(command, Info):
        work.infos.append(command)
        if command.what == "width":
            who = work.seat if work.seat is not None and not work.is_gm else "GM"
            work.add(WidthRecord(seq=work.next_seq, actor=who, by=work.sender, source=work.source, seat=who,
                                 value=int(command.number or 132)))
        return
    if isinstance(command, Order):
        if info.ended:
            raise OrderError("the game is over")
        if info.paused:
            raise OrderError("the game is paused by the GM")
        seat = command.seat or work.seat
        if seat is None:
            raise OrderError("the GM has no seat: give orders with ACT AS <seat> <order>")
        if info.auto_runs and routes.run_left_out(work.state.game, command.action):
            # the game leaves runs to the server: the run comes first, as its own record
            apply_order(work, routes.run_actor(work.state.game), RunAuto())
        apply_order(work, seat, command.action)
        return
    _execute_gm(command, work)


def _execute_gm(command: GmCommand, work: Work) -> None:
    info = work.state.info
    envelope: dict[str, Any] = {"seq": work.next_seq, "actor": "GM", "by": work.sender, "source": work.source}
    if command.name == "undo":
        if info.ended:
            raise OrderError("the game is over (END GAME): there is nothing more to undo")
        effective = work.state.effective
        if not effective:
            raise OrderError("there is no action to undo")
        to_seq = int(command.args[0]) if command.args else effective[-1].seq
        if to_seq < 1:
            raise OrderError("record 0 is the game itself; UNDO goes back to a log number from 1 on")
        if not any(r.seq >= to_seq for r in effective):
            raise OrderError(f"no action in force at or after log number {to_seq}")
        work.add(UndoRecord(**envelope, to_seq=to_seq))
    elif command.name == "replace":
        seat_name, email = command.args
        holder = info.seat_for(email)
        if holder is not None and holder.name != seat_name:
            raise OrderError(f"{email} already plays {holder.name}; each seat needs its own address")
        secret = work.new_secret()
        work.add(GMRecord(**envelope, command="replace", seat=seat_name, email=email,
                          secret_hash=work.hash_secret(info.game_id, secret)))
        work.welcomes.append(Welcome(seat_name, email, secret))
    elif command.name in ("pause", "resume", "end"):
        work.add(GMRecord(**envelope, command=command.name))
    elif command.name in ("deadline", "broadcast"):
        work.add(GMRecord(**envelope, command=command.name, text=command.args[0]))
        if command.name == "broadcast":
            work.broadcasts.append(command.args[0])
    else:
        raise OrderError(f"{command.line!r}: no such GM command")
