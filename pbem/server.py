"""The server loop: one received message at a time, checked, applied, logged and answered.

For each message (:meth:`Mailroom.handle`), under an exclusive lock on ``<data>/pbem.lock``
(so two servers on one data directory take turns; ``handled.jsonl`` is read again when
another process changed it):

1. read it (:func:`pbem.mail.reading.read_message`); keep its raw bytes under ``received/``;
2. if its Message-ID was handled before, do nothing but settle it again (exactly once); a
   different mail (other bytes, by sha256) that reuses a handled Message-ID is handled
   under the id ``<sha256@pbem.invalid>``;
3. auto-mail is ignored (never answered); unreadable mail gets a reply and goes to
   ``quarantine/``;
4. find the game by the Subject tags (the first that names a game here), the seat by the
   From address, check the secret; a game whose log fails its integrity check takes
   nothing (the sender is told, the GM gets a notice once);
5. parse every line, apply every order to a copy of the game; if any line fails, nothing is
   applied and the sender gets the failed line, why, and the lines not applied;
6. otherwise append the records to the action log (fsync: the commit point), archive the turn
   report, queue the mail in the durable outbox, and mark the message handled.

If the server dies after the commit but before step 6 ends, the next run finds the
Message-ID in the log and completes the step from the log (deterministic Message-IDs make
re-queuing idempotent), so nothing is lost or applied twice. The outbox is drained after
each message (:meth:`Mailroom.drain`, under the same lock); the transport then moves the
message out of the inbox.

Error replies to senders who were not authenticated (unreadable mail, unknown game or
sender, wrong secret, a damaged log) are limited per sender and hour; replies to a seat or
the GM who gave the right secret never are.
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import fcntl
import hashlib
import json
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Callable, Literal

from pbem.actionlog import ActionLog, LogIntegrityError, NewRecord
from pbem.addresses import valid_address
from pbem.durable import append_durably, write_atomic
from pbem.engine import routes
from pbem.engine.actions import Action, RunAuto
from pbem.commands import Command, GmCommand, Info, Order, describe, full_help, parse_line
from pbem.games import Replay, game_dir, game_exists, hash_secret, new_secret, open_log, replay
from pbem.mail.compose import compose, deterministic_message_id, reply_subject
from pbem.mail.reading import game_tags, read_message
from pbem.mail.replies import NO_ORDERS, accepted_text, refusal_text
from pbem.mail.types import BodyLine, Ignored, Submission, Unreadable
from pbem.orders import Vocabulary
from pbem.reports import ReportArchive, render, report_context
from pbem.transport.base import Envelope, InboundTransport, OutboundTransport, Outcome
from pbem.transport.outbox import DrainResult, DurableOutbox, message_file_id
from pbem.errors import OrderError

log = logging.getLogger("pbem.server")

LOCK_FILE = "pbem.lock"
"""The lock file in the data directory (see :meth:`Mailroom.locked`)."""

AUTHENTICATED_KINDS = frozenset({"syntax", "illegal", "no_orders"})
"""Rejection kinds given only after the sender's secret was checked (never rate-limited)."""


class Rejection(Exception):
    """A submission that is answered with an error and changes nothing.

    ``kind`` is what went wrong (``unknown_game``, ``wrong_secret``, ``syntax`` ...);
    ``game_id`` the game it was for, when known.
    """

    def __init__(self, reason: str, failed_line: str | None = None, not_applied: list[str] | None = None,
                 kind: str = "rejected", game_id: str | None = None, *, line_number: int | None = None,
                 chatter: tuple[BodyLine, ...] = (), cut_at: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.failed_line = failed_line
        self.not_applied = not_applied or []
        self.kind = kind
        self.game_id = game_id
        self.line_number = line_number  # of the failed line in the mail, from 1
        self.chatter = chatter  # the lines read as chatter, quoted in the reply
        self.cut_at = cut_at  # the line limit, when the mail was cut there

    @property
    def authenticated(self) -> bool:
        """Whether the sender was a seat or the GM with the right secret."""
        return self.kind in AUTHENTICATED_KINDS


@dataclass
class Handled:
    """What was done with one message (a line of ``handled.jsonl``)."""

    message_id: str
    outcome: Outcome
    kind: str
    sender: str | None
    time: float
    replied: bool = False
    game: str | None = None
    sha256: str | None = None  # of the raw message; None in entries written before it was kept


def _file_stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


@dataclass
class HandledIndex:
    """``<data>/handled.jsonl``: append-only, fsynced; the exactly-once index of messages."""

    path: Path
    entries: dict[str, Handled] = field(default_factory=dict)
    _stamp: tuple[int, int, int] | None = field(default=None, repr=False)

    @classmethod
    def load(cls, path: Path) -> HandledIndex:
        """Read the index (a torn last line is ignored)."""
        index = cls(path)
        index._stamp = _file_stamp(path)
        if path.exists():
            for line in path.read_text().splitlines():
                try:
                    d = json.loads(line)
                except ValueError:
                    continue
                index.entries[d["message_id"]] = Handled(**d)
        return index

    def refresh(self) -> None:
        """Read the file again if it changed since this process last read or wrote it
        (another server appended to it)."""
        if _file_stamp(self.path) != self._stamp:
            fresh = HandledIndex.load(self.path)
            self.entries, self._stamp = fresh.entries, fresh._stamp

    def add(self, entry: Handled) -> None:
        """Record ``entry`` durably."""
        unchanged = _file_stamp(self.path) == self._stamp
        append_durably(self.path, (json.dumps(entry.__dict__) + "\n").encode())
        self.entries[entry.message_id] = entry
        if unchanged:
            self._stamp = _file_stamp(self.path)

    def replies_since(self, sender: str, since: float) -> int:
        """Rate-limited error replies (to senders not authenticated) sent to ``sender`` since
        ``since`` (epoch seconds)."""
        return sum(
            1
            for e in self.entries.values()
            if e.sender == sender and e.replied and e.outcome == "rejected" and e.time >= since
            and e.kind not in AUTHENTICATED_KINDS
        )


@dataclass
class MailroomSettings:
    """What the mailroom needs from the config."""

    data_dir: Path
    address: str
    server_id: str = "pbem"
    max_message_bytes: int = 262144
    max_lines: int = 200
    error_replies_per_hour: int = 10
    route_time_limit: float = 2.0
    """Seconds for the route optimiser (RUN AUTO; the best run in reports)."""


def _write_durably(path: Path, data: bytes) -> None:
    """Keep ``data`` at ``path`` unless a file is there already (content-addressed names)."""
    if not path.exists():
        write_atomic(path, data)


class Mailroom:
    """Turns received messages into log records and outgoing mail; no network here.

    Hooks for tests of crash safety: ``after_commit`` is called right after the log append.
    """

    def __init__(self, settings: MailroomSettings, *, clock: Callable[[], float] = time.time) -> None:
        self.settings = settings
        self.clock = clock
        self.data = settings.data_dir
        self.handled = HandledIndex.load(self.data / "handled.jsonl")
        self.outbox = DurableOutbox(self.data / "outbox")
        self._cache: dict[str, tuple[str, Replay]] = {}
        self.after_commit: Callable[[], None] | None = None
        self._lock_depth = 0
        self._sha256: str | None = None  # of the message being handled

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the exclusive lock on ``<data>/pbem.lock`` (``fcntl.flock``, blocking: another
        process on the same data directory waits). Re-entrant within this mailroom."""
        if self._lock_depth:
            self._lock_depth += 1
            try:
                yield
            finally:
                self._lock_depth -= 1
            return
        self.data.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.data / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            self._lock_depth = 1
            try:
                yield
            finally:
                self._lock_depth = 0
        finally:
            os.close(fd)  # releases the lock

    async def drain(self, transport: OutboundTransport) -> DrainResult:
        """Send the queued mail (:meth:`DurableOutbox.drain`) under the lock, so two servers
        never send the same queued message at once."""
        with self.locked():
            return await self.outbox.drain(transport)

    @property
    def domain(self) -> str:
        """The domain of our address, for Message-IDs."""
        return self.settings.address.rsplit("@", 1)[-1] or "localhost"

    # -- games --------------------------------------------------------------------------

    def load(self, game_id: str) -> tuple[ActionLog, Replay]:
        """The game's log, opened to be appended to (a torn tail is cut), and its replay
        (cached by the log's last hash).

        :raises KeyError: no such game.
        :raises LogIntegrityError: the log is damaged (or no longer replays).
        """
        action_log = open_log(self.data, game_id, repair=True)
        last = action_log.records[-1]["hash"]
        cached = self._cache.get(game_id)
        if cached and cached[0] == last:
            return action_log, cached[1]
        rebuilt = replay(action_log.records)
        self._cache[game_id] = (last, rebuilt)
        return action_log, rebuilt

    def archive(self, game_id: str) -> ReportArchive:
        """The report archive of ``game_id``."""
        return ReportArchive(self.data / "games" / game_id / "reports")

    def new_game(self, game_id: str, title: str, variants: tuple[str, ...], seats: list[tuple[str, str]],
                 gm_email: str, *, auto_runs: bool = False) -> dict[str, str]:
        """Create a game: its log (record 0) and a welcome mail per seat in the outbox.

        Everything is checked and every welcome composed before the log is created, so a
        failure leaves no game behind. Returns the secrets by seat name, and the GM's under
        ``"GM"``.

        :raises ConfigError: bad id, title, variant, seats, addresses (see
            :func:`pbem.games.genesis_data`).
        :raises FileExistsError: a game with that id exists (``"game X already exists"``).
        """
        from pbem.games import genesis_data

        if game_exists(self.data, game_id):
            raise FileExistsError(f"game {game_id} already exists")
        secrets_by_seat = {name: new_secret() for name, _ in seats}
        gm_secret = new_secret(10)
        data = genesis_data(game_id, title, variants, seats, gm_email, secrets_by_seat, gm_secret, auto_runs)
        committed = replay([{"seq": 0, "kind": "game", "actor": "GM", "data": data}])
        welcomes = [
            self._compose(to=email, subject=f"[{game_id}] Welcome to {game_id}",
                          body=self.welcome_text(committed, name, secrets_by_seat[name]), kind="welcome",
                          key=(game_id, "welcome", name))
            for name, email in seats
        ]
        welcomes.append(self._compose(
            to=gm_email, subject=f"[{game_id}] You are the GM of {game_id}",
            body=f"You are the game master of {game_id}.\nYour GM secret: {gm_secret}\n\n"
            + full_help(is_gm=True) + "\n", kind="welcome", key=(game_id, "welcome-gm")))
        with self.locked():
            try:
                ActionLog.create(game_dir(self.data, game_id) / "log.jsonl", data, by=gm_email)
            except FileExistsError:
                raise FileExistsError(f"game {game_id} already exists") from None
            for message in welcomes:
                self.outbox.enqueue(message)
        return {**secrets_by_seat, "GM": gm_secret}

    # -- one message ---------------------------------------------------------------------

    def handle(self, raw: bytes) -> Outcome:
        """Process one received message completely (except sending), under the lock;
        returns its outcome."""
        with self.locked():
            self.handled.refresh()
            digest = hashlib.sha256(raw).hexdigest()
            self._sha256 = digest
            try:
                return self._handle(raw, digest)
            finally:
                self._sha256 = None

    def _handle(self, raw: bytes, digest: str) -> Outcome:
        result = read_message(
            raw,
            own_addresses=frozenset({self.settings.address.lower()}),
            max_bytes=self.settings.max_message_bytes,
            max_lines=self.settings.max_lines,
        )
        prior = self.handled.entries.get(result.message_id)
        if prior is not None and prior.sha256 is not None and prior.sha256 != digest:
            # Another mail reused a handled Message-ID: it is a new mail, under an id of its own.
            fresh_id = f"<{digest}@pbem.invalid>"
            log.warning("message %s reuses the Message-ID of another mail; handled as %s",
                        result.message_id, fresh_id)
            result = dataclasses.replace(result, message_id=fresh_id)
            prior = self.handled.entries.get(fresh_id)
        if prior is not None:
            log.info("message %s already handled (%s)", result.message_id, prior.outcome)
            return prior.outcome
        _write_durably(self.data / "received" / f"{digest}.eml", raw)
        if isinstance(result, Ignored):
            log.info("ignored %s: %s", result.message_id, result.reason)
            self._mark(result.message_id, "ignored", "auto", result.sender, replied=False)
            return "ignored"
        if isinstance(result, Unreadable):
            _write_durably(self.data / "quarantine" / f"{digest}.eml", raw)
            replied = False
            if result.sender:
                replied = self._reply_error(
                    result.message_id, result.sender, result.subject, result.game_tag,
                    Rejection(_unreadable_reason(result), kind=result.kind),
                )
            self._mark(result.message_id, "rejected", result.kind, result.sender, replied=replied)
            return "rejected"
        try:
            return self._handle_submission(result)
        except Rejection as rejection:
            _write_durably(self.data / "quarantine" / f"{digest}.eml", raw)
            game = rejection.game_id or result.game_tag
            replied = self._reply_error(result.message_id, result.sender, result.subject, game, rejection,
                                        secret=result.secret)
            self._mark(result.message_id, "rejected", rejection.kind, result.sender, replied=replied, game=game)
            return "rejected"

    def _mark(self, message_id: str, outcome: Outcome, kind: str, sender: str | None, *,
              replied: bool, game: str | None = None) -> None:
        self.handled.add(Handled(message_id, outcome, kind, sender, self.clock(), replied, game, self._sha256))

    def _handle_submission(self, sub: Submission) -> Outcome:
        if not sub.game_tag:
            raise Rejection(
                "The Subject names no game. Put the game's tag in square brackets in the "
                "Subject, e.g. [demo-1830].", kind="unknown_game",
            )
        tags = [sub.game_tag] + [t for t in game_tags(sub.subject) if t != sub.game_tag]
        game_id = next((t for t in tags if game_exists(self.data, t)), sub.game_tag)
        try:
            action_log, committed = self.load(game_id)
        except KeyError:
            raise Rejection(f"There is no game {sub.game_tag!r} on this server.", kind="unknown_game") from None
        except LogIntegrityError as exc:
            self._notify_damaged(game_id, exc)
            raise Rejection(
                "The game's log failed its integrity check; the GM has been told. Nothing was "
                "applied: send your mail again when the GM says the game goes on.",
                kind="damaged_log", game_id=game_id,
            ) from None
        if sub.message_id in action_log.sources():
            # Committed before a crash: finish the job from the log, without applying again.
            self._recover(sub, action_log, committed)
            return "processed"
        info = committed.info
        seat = info.seat_for(sub.sender)
        is_gm_address = sub.sender.lower() == info.gm_email.lower()
        if seat is None and not is_gm_address:
            raise Rejection(
                f"{sub.sender} has no seat in {info.game_id}. Orders must come from the address "
                "registered for a seat.", kind="unknown_sender", game_id=info.game_id,
            )
        if not sub.secret:
            raise Rejection("Your mail has no PASSWORD line. Add a line: PASSWORD <your secret>.",
                            kind="wrong_secret", game_id=info.game_id)
        hashed = hash_secret(info.game_id, sub.secret)
        is_gm = is_gm_address and hashed == info.gm_secret_hash
        if not is_gm and not (seat is not None and hashed == seat.secret_hash):
            whose = {(True, False): "your seat's secret", (False, True): "the GM's secret",
                     (True, True): "either your seat's secret or the GM's secret"}[(seat is not None, is_gm_address)]
            raise Rejection(f"The PASSWORD does not match {whose}.", kind="wrong_secret", game_id=info.game_id)
        vocab = Vocabulary.from_title(committed.title)
        # Only order and command lines are parsed; chatter ("Hi all,") is listed, never applied.
        if not sub.orders:
            raise Rejection(NO_ORDERS, kind="no_orders", game_id=info.game_id, chatter=sub.chatter,
                            cut_at=sub.cut_at)
        commands: list[Command] = []
        for body_line in sub.orders:
            line = body_line.text
            try:
                commands.append(parse_line(line, vocab, info, is_gm=is_gm))
            except OrderError as exc:
                raise Rejection(str(exc), failed_line=line, not_applied=list(sub.lines), kind="syntax",
                                game_id=info.game_id, line_number=body_line.number, chatter=sub.chatter,
                                cut_at=sub.cut_at) from None
            except Exception:  # a line must never crash the handling: our parser's fault, logged
                log.exception("parsing %r of %s failed unexpectedly", line, sub.message_id)
                raise Rejection(_UNREADABLE_LINE, failed_line=line, not_applied=list(sub.lines),
                                kind="syntax", game_id=info.game_id, line_number=body_line.number,
                                chatter=sub.chatter, cut_at=sub.cut_at) from None
        work = copy.deepcopy(committed)
        pending: list[NewRecord] = []
        accepted: list[str] = []
        infos: list[Info] = []
        broadcasts: list[str] = []
        welcomes: list[tuple[str, str, str]] = []
        for command, body_line in zip(commands, sub.orders):
            try:
                work = self._execute(command, sub, seat.name if seat else None, is_gm, action_log, work,
                                     pending, infos, broadcasts, welcomes)
            except OrderError as exc:
                raise Rejection(str(exc), failed_line=command.line, not_applied=list(sub.lines),
                                kind="illegal", game_id=info.game_id, line_number=body_line.number,
                                chatter=sub.chatter, cut_at=sub.cut_at) from None
            if not isinstance(command, Info):
                accepted.append(describe(command))
        if pending:
            written = action_log.append(pending)
            if self.after_commit is not None:
                self.after_commit()
            # The copy the orders were applied to is now the committed state.
            assert written[-1]["seq"] == work.last_seq, "log and working copy disagree"
            committed = work
            self._cache[info.game_id] = (written[-1]["hash"], committed)
        self._complete(sub, committed, accepted=accepted, infos=infos, broadcasts=broadcasts,
                       welcomes=welcomes, changed=any(r.kind != "setting" for r in pending))
        return "processed"

    def _recover(self, sub: Submission, action_log: ActionLog, committed: Replay) -> None:
        """Complete a submission whose records are in the log but whose mail was not queued."""
        mine = [r for r in action_log.records if r.get("source") == sub.message_id]
        # The mail's lines all parsed before its records were committed: parse them again for
        # the same echo (and HELP/REPORT/HISTORY answers) as without the crash.
        vocab = Vocabulary.from_title(committed.title)
        is_gm = sub.sender.lower() == committed.info.gm_email.lower()
        accepted: list[str] = []
        infos: list[Info] = []
        for line in sub.lines:
            try:
                command = parse_line(line, vocab, committed.info, is_gm=is_gm)
            except Exception:  # it parsed before the commit; never let it stop the recovery
                continue
            if isinstance(command, Info):
                infos.append(command)
            else:
                accepted.append(describe(command))
        gm_records = [r for r in mine if r["kind"] == "gm"]
        broadcasts = [r["data"]["text"] for r in gm_records if r["data"].get("command") == "broadcast"]
        # A new player's secret is in the log only as a hash: if its welcome was not queued
        # before the crash, give the seat a fresh secret (one more replace record) and send that.
        welcomes: list[tuple[str, str, str]] = []
        fresh: list[NewRecord] = []
        replaced = {r["data"]["seat"]: r for r in gm_records if r["data"].get("command") == "replace"}
        for seat_name, record in replaced.items():
            email = record["data"]["email"]
            seat = committed.info.seat_named(seat_name)
            welcome_id = message_file_id(self._mid(sub.message_id, "welcome", seat_name, email.lower()))
            if (seat is None or seat.email.lower() != email.lower() or welcome_id in self.outbox.pending()
                    or self.outbox.is_sent(welcome_id) or self.outbox.is_failed(welcome_id)):
                continue
            secret = new_secret()
            fresh.append(NewRecord("gm", "GM", {"command": "replace", "seat": seat_name, "email": email,
                                                 "secret_hash": hash_secret(committed.info.game_id, secret)},
                                   by=record["by"], source=sub.message_id))
            welcomes.append((seat_name, email, secret))
        if fresh:
            action_log.append(fresh)
            self._cache.pop(committed.info.game_id, None)
            _, committed = self.load(committed.info.game_id)
        self._complete(sub, committed, accepted=accepted, infos=infos, broadcasts=broadcasts,
                       welcomes=welcomes)

    def _apply_logged(self, work: Replay, seat: str, action: Action, sub: Submission, action_log: ActionLog,
                      pending: list[NewRecord]) -> None:
        """Apply ``action`` for ``seat`` and queue its log record. RUN AUTO is logged as the
        run it found: the log keeps what was played."""
        action, notes = routes.resolve_auto(work.game, action, self.settings.route_time_limit)
        events = notes + work.game.apply(seat, action)
        record = NewRecord("action", seat, action.to_dict(), by=sub.sender, source=sub.message_id)
        seq = action_log.records[-1]["seq"] + 1 + len(pending)  # the seq it will be written with
        pending.append(record)
        work.events[seq] = events
        work.effective.append({"seq": seq, "kind": "action", "actor": seat, "data": record.data})
        work.last_seq = seq

    def _execute(self, command: Command, sub: Submission, own_seat: str | None, is_gm: bool,
                 action_log: ActionLog, work: Replay, pending: list[NewRecord], infos: list[Info],
                 broadcasts: list[str], welcomes: list[tuple[str, str, str]]) -> Replay:
        info = work.info
        if isinstance(command, Info):
            infos.append(command)
            if command.what == "width":
                who = own_seat if own_seat is not None and not is_gm else "GM"
                pending.append(NewRecord("setting", who, {"setting": "width", "seat": who, "value": command.number},
                                         by=sub.sender, source=sub.message_id))
                info.widths[who] = int(command.number or 132)
            return work
        if isinstance(command, Order):
            if info.ended:
                raise OrderError("the game is over")
            if info.paused:
                raise OrderError("the game is paused by the GM")
            seat = command.seat or own_seat
            if seat is None:
                raise OrderError("the GM has no seat: give orders with ACT AS <seat> <order>")
            if info.auto_runs and routes.run_left_out(work.game, command.action):
                # the game leaves runs to the server: the run comes first, as its own record
                actor = routes.run_actor(work.game)
                self._apply_logged(work, actor, RunAuto(), sub, action_log, pending)
            self._apply_logged(work, seat, command.action, sub, action_log, pending)
            return work
        assert isinstance(command, GmCommand)
        base = action_log.records[-1]["seq"]
        if command.name == "undo":
            if info.ended:
                raise OrderError("the game is over (END GAME): there is nothing more to undo")
            effective = work.effective + [
                {"seq": base + 1 + i, **r.__dict__} for i, r in enumerate(pending) if r.kind == "action"
            ]
            if not effective:
                raise OrderError("there is no action to undo")
            to_seq = int(command.args[0]) if command.args else effective[-1]["seq"]
            if to_seq < 1:
                raise OrderError("record 0 is the game itself; UNDO goes back to a log number from 1 on")
            if not any(r["seq"] >= to_seq for r in effective):
                raise OrderError(f"no action in force at or after log number {to_seq}")
            pending.append(NewRecord("undo", "GM", {"to_seq": to_seq}, by=sub.sender, source=sub.message_id))
        elif command.name == "replace":
            seat_name, email = command.args
            holder = info.seat_for(email)
            if holder is not None and holder.name != seat_name:
                raise OrderError(f"{email} already plays {holder.name}; each seat needs its own address")
            secret = new_secret()
            pending.append(NewRecord("gm", "GM", {"command": "replace", "seat": seat_name, "email": email,
                                                  "secret_hash": hash_secret(info.game_id, secret)},
                                     by=sub.sender, source=sub.message_id))
            welcomes.append((seat_name, email, secret))
        elif command.name in ("pause", "resume", "end"):
            pending.append(NewRecord("gm", "GM", {"command": command.name}, by=sub.sender, source=sub.message_id))
        elif command.name == "deadline":
            pending.append(NewRecord("gm", "GM", {"command": "deadline", "text": command.args[0]},
                                     by=sub.sender, source=sub.message_id))
        elif command.name == "broadcast":
            pending.append(NewRecord("gm", "GM", {"command": "broadcast", "text": command.args[0]},
                                     by=sub.sender, source=sub.message_id))
            broadcasts.append(command.args[0])
        # Rebuild from the log plus what this mail adds so far (undo changes history).
        provisional = list(action_log.records) + [
            {"seq": base + 1 + i, "kind": r.kind, "actor": r.actor, "data": r.data}
            for i, r in enumerate(pending)
        ]
        return replay(provisional)

    # -- outgoing mail -------------------------------------------------------------------

    def _mid(self, *parts: str) -> str:
        return deterministic_message_id(*parts, domain=self.domain)

    def _queue(self, *, to: str, subject: str, body: str, kind: str, key: tuple[str, ...],
               in_reply_to: str | None = None) -> None:
        self.outbox.enqueue(self._compose(to=to, subject=subject, body=body, kind=kind, key=key,
                                          in_reply_to=in_reply_to))

    def _compose(self, *, to: str, subject: str, body: str, kind: str, key: tuple[str, ...],
                 in_reply_to: str | None = None) -> EmailMessage:
        return compose(
            sender=self.settings.address,
            to=[to],
            subject=subject,
            body=body,
            kind=kind,  # type: ignore[arg-type]
            message_id=self._mid(*key, to.lower()),
            server_id=self.settings.server_id,
            in_reply_to=in_reply_to,
            references=(in_reply_to,) if in_reply_to else (),
        )

    def _complete(self, sub: Submission, committed: Replay, *, accepted: list[str], infos: list[Info],
                  broadcasts: list[str] | None = None, welcomes: list[tuple[str, str, str]] | None = None,
                  changed: bool = True) -> None:
        """Archive the report and queue every mail for an accepted submission (idempotent)."""
        info = committed.info
        game_id = info.game_id
        archive = self.archive(game_id)
        tag = f"[{game_id}]"
        seq = committed.last_seq
        if changed:
            existing = archive.for_seq(seq)
            entries = archive.entries()
            if existing is None:
                since = entries[-1].seq if entries else 0
                number = entries[-1].number + 1 if entries else 1
                neutral = render("report.txt.j2", report_context(committed, since_seq=since, number=number,
                                                                  route_time_limit=self.settings.route_time_limit))
                existing = archive.add(seq, neutral, committed.game.round_label())
            else:
                before = [e for e in entries if e.number < existing.number]
                since = before[-1].seq if before else 0
            number = existing.number
            for n, broadcast in enumerate(broadcasts or []):
                for to in info.recipients():
                    self._queue(to=to, subject=f"{tag} Message from the GM", body=broadcast + "\n",
                                kind="notice", key=(sub.message_id, "broadcast", str(n)))
            for seat_name, email, secret in welcomes or []:
                self._queue(to=email, subject=f"{tag} Welcome to {game_id}",
                            body=self.welcome_text(committed, seat_name, secret), kind="welcome",
                            key=(sub.message_id, "welcome", seat_name))
            for to in info.recipients():
                seat = info.seat_for(to)
                who = seat.name if seat else None
                body = render("report.txt.j2", report_context(
                    committed, since_seq=since, number=number, recipient=who, width=info.width_for(who),
                    route_time_limit=self.settings.route_time_limit))
                if to.lower() == sub.sender.lower() and accepted:
                    body = accepted_text(accepted, sub.notes, sub.chatter, sub.secret) + body
                self._queue(to=to, subject=f"{tag} Turn report {number}: {committed.game.round_label()}",
                            body=body, kind="report", key=(sub.message_id, "report", str(seq)),
                            in_reply_to=sub.message_id if to.lower() == sub.sender.lower() else None)
        if infos:
            self._queue(to=sub.sender, subject=reply_subject(sub.subject, game_id, sub.secret),
                        body=self.info_reply(committed, infos, sub.sender), kind="reply",
                        key=(sub.message_id, "info"), in_reply_to=sub.message_id)
        self._mark(sub.message_id, "processed", "orders" if accepted or changed else "info", sub.sender,
                   replied=True, game=game_id)

    def info_reply(self, committed: Replay, infos: list[Info], sender: str) -> str:
        """One reply to every HELP, REPORT and HISTORY n of a mail (each asked once)."""
        distinct: list[Info] = []
        for item in infos:
            if all((item.what, item.number) != (d.what, d.number) for d in distinct):
                distinct.append(item)
        if len(distinct) == 1:
            return self.info_text(committed, distinct[0], sender)
        return "\n".join(f"--- {' '.join(i.line.split()).upper()} ---\n\n" + self.info_text(committed, i, sender)
                         for i in distinct)

    def info_text(self, committed: Replay, item: Info, sender: str) -> str:
        """The answer to HELP, REPORT or HISTORY n."""
        info = committed.info
        is_gm = sender.lower() == info.gm_email.lower()
        if item.what == "help":
            return full_help(is_gm=is_gm) + "\n"
        if item.what == "width":
            return f"Your reports will be at most {item.number} columns wide.\n"
        archive = self.archive(info.game_id)
        if item.what == "report":
            seat = info.seat_for(sender)
            entries = archive.entries()
            latest = entries[-1] if entries else None
            # the report as it was sent: the actions since the report before it
            if latest is not None and latest.seq < committed.last_seq:
                since = latest.seq
            else:
                since = entries[-2].seq if len(entries) > 1 else 0
            who = seat.name if seat else None
            return render("report.txt.j2", report_context(
                committed, since_seq=since, number=latest.number if latest else 0,
                recipient=who, width=info.width_for(who), route_time_limit=self.settings.route_time_limit))
        entry = archive.get(item.number or 0)
        if entry is None:
            numbers = [e.number for e in archive.entries()]
            have = f"reports 1 to {max(numbers)}" if numbers else "no reports yet"
            return f"There is no report {item.number}; the archive has {have}.\n"
        return entry.path.read_text()

    def welcome_text(self, committed: Replay, seat: str, secret: str) -> str:
        """The welcome mail for a seat: seat, secret, how to send orders, the HELP text."""
        info = committed.info
        return render("welcome.txt.j2", {
            "game_id": info.game_id,
            "title": committed.title.name,
            "variants": ", ".join(info.variants) or "none",
            "seat": seat,
            "secret": secret,
            "seats": [f"{s.name} <{s.email}>" for s in info.seats],
            "gm": info.gm_email,
            "server": self.settings.address,
            "help": full_help(is_gm=False),
        })

    def _notify_damaged(self, game_id: str, error: LogIntegrityError) -> None:
        """Tell the GM (once per fault) that the game's log failed its integrity check."""
        log.error("game %s: %s", game_id, error)
        gm = _gm_address(game_dir(self.data, game_id) / "log.jsonl")
        if gm is None:
            log.error("game %s: no GM address to tell about the damaged log", game_id)
            return
        fault = hashlib.sha256(str(error).encode()).hexdigest()[:16]
        self._queue(to=gm, subject=f"[{game_id}] The game's log failed its integrity check",
                    body=f"The action log of {game_id} failed its integrity check:\n\n  {error}\n\n"
                    "No mail for this game is applied until the log is repaired; senders are told "
                    f"so. Run: pbem verify {game_id}\n", kind="notice", key=(game_id, "damaged-log", fault))

    def _reply_error(self, message_id: str, sender: str, subject: str, game_tag: str | None,
                     rejection: Rejection, *, secret: str | None = None) -> bool:
        since = self.clock() - 3600
        if (not rejection.authenticated
                and self.handled.replies_since(sender, since) >= self.settings.error_replies_per_hour):
            log.warning("not replying to %s: error-reply limit reached", sender)
            return False
        body = refusal_text(  # what the sender wrote is quoted as written (UTF-8), never the secret
            game_id=game_tag, reason=rejection.reason, failed_line=rejection.failed_line,
            line_number=rejection.line_number, not_applied=rejection.not_applied,
            chatter=rejection.chatter, cut_at=rejection.cut_at, secret=secret)
        self._queue(to=sender, subject=reply_subject(subject, game_tag, secret), body=body, kind="reply",
                    key=(message_id, "rejected"), in_reply_to=message_id)
        return True


_UNREADABLE_LINE = ("This line cannot be read as an order or command (numbers must be plain digits "
                    "0-9, at most 9 of them). Send HELP for the order reference.")


def _gm_address(log_path: Path) -> str | None:
    """The GM's address from record 0 of a (possibly damaged) log, or None."""
    try:
        with log_path.open("rb") as fh:
            first = json.loads(fh.readline())
        email = first["data"]["gm"]["email"]
    except Exception:
        return None
    return email if isinstance(email, str) and valid_address(email) else None


def _unreadable_reason(result: Unreadable) -> str:
    titles = {
        "malformed_mime": "Your mail could not be read: its MIME structure is broken.",
        "unknown_charset": "Your mail could not be read: it uses a character set we do not know.",
        "empty_body": "Your mail has no orders in it.",
        "oversize": "Your mail is too large for the game server.",
        "attachment_only": "Your mail has only attachments; write the orders in the mail text.",
        "no_sender": "Your mail has no From address.",
    }
    return f"{titles.get(result.kind, 'Your mail could not be read.')} ({result.reason})"


@dataclass
class PassResult:
    """What one pass over the inbox did: counts by outcome, and mail sent."""

    outcomes: dict[str, int] = field(default_factory=dict)
    sent: int = 0
    deferred: int = 0


class Server:
    """Polls an inbound transport, hands each message to the mailroom, drains the outbox.

    A message whose handling fails unexpectedly (our bug, a full disk) stays in the inbox and
    is tried again on the next passes — after a commit, the retry completes it from the log —
    and only after ``max_attempts`` is it settled as rejected; its raw bytes are kept in
    ``quarantine/`` from the first failure. The poller itself never stops on one message.
    """

    def __init__(self, mailroom: Mailroom, inbound: InboundTransport, outbound: OutboundTransport,
                 *, max_attempts: int = 3) -> None:
        self.mailroom = mailroom
        self.inbound = inbound
        self.outbound = outbound
        self.max_attempts = max_attempts
        self._failures: dict[str, int] = {}

    async def run_once(self) -> PassResult:
        """Fetch everything in the inbox, handle it oldest first, send the mail; one pass.

        ``outcomes`` counts ``processed``, ``rejected``, ``ignored`` and ``retry`` (left in
        the inbox after an unexpected failure).
        """
        result = PassResult()
        drained = await self.mailroom.drain(self.outbound)
        result.sent += len(drained.sent)
        for envelope in await self.inbound.fetch():
            outcome = self._handle_safely(envelope)
            result.outcomes[outcome] = result.outcomes.get(outcome, 0) + 1
            drained = await self.mailroom.drain(self.outbound)
            result.sent += len(drained.sent)
            result.deferred = len(drained.deferred)
            if outcome != "retry":
                await self.inbound.settle(envelope, outcome)
        return result

    def _handle_safely(self, envelope: Envelope) -> Outcome | Literal["retry"]:
        try:
            outcome = self.mailroom.handle(envelope.raw)
        except Exception:  # one bad message must never stop the poller
            attempts = self._failures.get(envelope.key, 0) + 1
            self._failures[envelope.key] = attempts
            log.exception("failed to handle %s (attempt %d of %d)", envelope.key, attempts, self.max_attempts)
            digest = hashlib.sha256(envelope.raw).hexdigest()
            _write_durably(self.mailroom.data / "quarantine" / f"{digest}.eml", envelope.raw)
            return "retry" if attempts < self.max_attempts else "rejected"
        self._failures.pop(envelope.key, None)
        return outcome

    async def serve(self, poll_interval: float, stop: asyncio.Event | None = None) -> None:
        """Poll until ``stop`` is set: a pass, then wait for new mail (IDLE) or the interval."""
        stop = stop or asyncio.Event()
        await self.inbound.connect()
        try:
            while not stop.is_set():
                await self.run_once()
                waiter = asyncio.ensure_future(self.inbound.wait_for_new(poll_interval))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait({waiter, stopper}, return_when=asyncio.FIRST_COMPLETED)
                for task in (waiter, stopper):
                    if not task.done():
                        task.cancel()
        finally:
            await self.inbound.close()


def summary(result: PassResult) -> dict[str, Any]:
    """A JSON-ready summary of a pass."""
    return {"outcomes": result.outcomes, "sent": result.sent, "deferred": result.deferred}
