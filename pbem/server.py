"""The server loop: one received message at a time, checked, applied, logged and answered.

For each message (:meth:`Mailroom.handle`), under an exclusive lock on ``<data>/pbem.lock``
(so two servers on one data directory take turns; ``handled.jsonl`` is read again when
another process changed it):

1. read it (:func:`pbem.mail.reading.read_message`);
2. a mail is known by its Message-ID and its sender (:mod:`pbem.handled`): if that key was
   handled before and the mail is the same (byte for byte once the trace fields servers add
   in transit, ``Received:`` and the like, are left out), do nothing but settle it again
   (exactly once); a different mail that reuses a handled key is refused with a reply
   saying so, and never applied;
3. keep its raw bytes, once, under ``received/<sha256>.eml`` (a refused mail too: it is not
   copied anywhere else on disk; the transport then settles it into its Rejected folder,
   and ``handled.jsonl`` says what was done with it); auto-mail is ignored (never
   answered); unreadable mail gets a reply;
4. find the game by the Subject tags (the first that names a game here, in any case), the
   seat by the From address, check the secret; a game whose log fails its integrity check
   takes nothing (the sender is told, the GM gets a notice once). A mail naming no game
   whose lines are all HELP gets the general order reference and the sender's games;
5. parse every line, apply every order to a copy of the game; if any line fails, nothing is
   applied and the sender gets the failed line, why, and the lines not applied;
6. otherwise append the records to the action log (fsync: the commit point), archive the turn
   report, queue the mail in the durable outbox, and mark the message handled.

If the server dies after the commit but before step 6 ends, the next run finds the
Message-ID and sender in the log and completes the step from the log (deterministic
Message-IDs make re-queuing idempotent), so nothing is lost or applied twice. The outbox is
drained after each message (:meth:`Mailroom.drain`, under the same lock); the transport then
moves the message out of the inbox. The poller is :class:`pbem.poller.Server`.

Error replies are limited per address and hour (``name+tag@domain`` shares the allowance
of ``name@domain``): ``error_replies_per_hour`` to senders who were not authenticated
(unreadable mail, unknown game or sender, wrong secret, a damaged log, a reused
Message-ID, HELP without a game), the higher ``error_replies_per_hour_authenticated`` to a
seat or the GM who gave the right secret, so no auto-responder loop can run away.
"""

from __future__ import annotations

import copy
import dataclasses
import fcntl
import hashlib
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

from pbem.actionlog import ActionLog, LogIntegrityError, NewRecord
from pbem.durable import clean_temporary_files, is_storage_error, write_atomic
from pbem.commands import Command, Info, describe, full_help, parse_line
from pbem.execution import execute
from pbem.games import (Replay, find_game, game_dir, game_exists, gm_address, hash_secret, new_secret, open_log,
                        replay, seats_of)
from pbem.handled import AUTHENTICATED_KINDS, Handled, HandledIndex, content_digest, same_mail
from pbem.mail.compose import compose, deterministic_message_id, reply_subject
from pbem.mail.reading import game_tags, read_message
from pbem.mail.replies import NO_ORDERS, accepted_text, refusal_text
from pbem.mail.types import BodyLine, Ignored, Submission, Unreadable
from pbem.orders import Vocabulary
from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
from pbem.reports import ReportArchive, render, report_context
from pbem.transport.base import OutboundTransport, Outcome
from pbem.transport.outbox import DrainResult, DurableOutbox, message_file_id
from pbem.errors import OrderError

log = logging.getLogger("pbem.server")

LOCK_FILE = "pbem.lock"
"""The lock file in the data directory (see :meth:`Mailroom.locked`)."""


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
class MailroomSettings:
    """What the mailroom needs from the config."""

    data_dir: Path
    address: str
    server_id: str = "pbem"
    max_message_bytes: int = 262144
    max_lines: int = 200
    error_replies_per_hour: int = 10
    """Error replies an hour to an address not authenticated (see the module doc)."""
    error_replies_per_hour_authenticated: int = 30
    """Error replies an hour to an address that gave a seat's or the GM's secret."""
    route_budget: int = DEFAULT_SEARCH_BUDGET
    """Search steps for the route optimiser (RUN AUTO; the best run in reports): a count, so
    the run found never depends on the machine's speed."""


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
        self._sha256: str | None = None  # of the raw message being handled
        self._digest: str | None = None  # of it without its trace fields
        self.last: Handled | None = None
        """What was recorded for the message :meth:`handle` handled last (None before)."""

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
            + full_help(is_gm=True, title=committed.title) + "\n", kind="welcome", key=(game_id, "welcome-gm")))
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
        returns its outcome. :attr:`last` is then what was recorded for it.

        :raises OSError: the data directory cannot be written (nothing of the message is
            lost: handling it again later completes it, see the module doc).
        """
        with self.locked():
            self.handled.refresh()
            self.last = None
            self._sha256 = hashlib.sha256(raw).hexdigest()
            self._digest = content_digest(raw)
            try:
                return self._handle(raw, self._sha256, self._digest)
            finally:
                self._sha256 = self._digest = None

    def clean_up(self) -> list[Path]:
        """Remove the temporary files a crash left in the data directory (its folders and
        the outbox), under the lock; returns them. Call it when the server starts."""
        with self.locked():
            removed = clean_temporary_files(self.data)
        for path in removed:
            log.info("removed %s (left by a crash)", path)
        return removed

    def _handle(self, raw: bytes, sha256: str, digest: str) -> Outcome:
        result = read_message(
            raw,
            own_addresses=frozenset({self.settings.address.lower()}),
            max_bytes=self.settings.max_message_bytes,
            max_lines=self.settings.max_lines,
        )
        if result.message_id == f"<{sha256}@pbem.invalid>":
            # no Message-ID: name the mail by its content, so a redelivery is the same mail
            result = dataclasses.replace(result, message_id=f"<{digest}@pbem.invalid>")
        prior = self.handled.copies(result.message_id, result.sender, sha256)
        same = next((e for e in prior if same_mail(e, sha256, digest, self.data / "received")), None)
        if same is not None:
            log.info("message %s from %s already handled (%s)", result.message_id, result.sender, same.outcome)
            self.last = same
            return same.outcome
        _write_durably(self.data / "received" / f"{sha256}.eml", raw)
        if prior:
            return self._refuse_reused(result, prior[0])
        if isinstance(result, Ignored):
            log.info("ignored %s: %s", result.message_id, result.reason)
            self._mark(result.message_id, "ignored", "auto", result.sender, replied=False)
            return "ignored"
        if isinstance(result, Unreadable):
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
            game = rejection.game_id or result.game_tag
            replied = self._reply_error(result.message_id, result.sender, result.subject, game, rejection,
                                        secret=result.secret)
            self._mark(result.message_id, "rejected", rejection.kind, result.sender, replied=replied, game=game)
            return "rejected"

    def _refuse_reused(self, result: Submission | Ignored | Unreadable, prior: Handled) -> Outcome:
        """A different mail under the key (Message-ID and sender) of one handled before:
        logged, refused with a reply (not to auto-mail), never applied."""
        log.warning("message %s from %s reuses the Message-ID of a different mail handled before (%s); "
                    "refused, raw copy in received/%s.eml", result.message_id, result.sender,
                    prior.outcome, self._sha256)
        if isinstance(result, Ignored) or not result.sender:
            self._mark(result.message_id, "ignored" if isinstance(result, Ignored) else "rejected",
                       "reused_message_id", result.sender, replied=False)
            return "ignored" if isinstance(result, Ignored) else "rejected"
        game = result.game_tag
        rejection = Rejection(
            f"Your mail has the Message-ID {result.message_id} of a different mail you sent before, "
            "which was handled already. Nothing of this mail was applied. Send it again as a new "
            "mail (your mail program gives every new mail its own Message-ID).",
            kind="reused_message_id")
        replied = self._reply_error(result.message_id, result.sender, result.subject, game, rejection,
                                    key=(result.message_id, "reused", self._digest or ""),
                                    secret=result.secret if isinstance(result, Submission) else None)
        self._mark(result.message_id, "rejected", "reused_message_id", result.sender, replied=replied, game=game)
        return "rejected"

    def _mark(self, message_id: str, outcome: Outcome, kind: str, sender: str | None, *,
              replied: bool, game: str | None = None) -> None:
        entry = Handled(message_id, outcome, kind, sender, self.clock(), replied, game, self._sha256, self._digest)
        self.handled.add(entry)
        self.last = entry

    def _handle_submission(self, sub: Submission) -> Outcome:
        tags = ([sub.game_tag] if sub.game_tag else []) + [t for t in game_tags(sub.subject) if t != sub.game_tag]
        named = list(dict.fromkeys(found for found in (find_game(self.data, t) for t in tags) if found))
        if len(named) > 1:  # one mail, one game: never apply one game's orders to another
            raise Rejection(
                f"The Subject names {len(named)} games on this server ({', '.join(named)}). Send one "
                "mail per game, with only that game's tag in the Subject.", kind="unknown_game")
        game_id = named[0] if named else None
        if game_id is None and sub.lines and all(line.upper().split() == ["HELP"] for line in sub.lines):
            return self._general_help(sub)
        if not sub.game_tag:
            raise Rejection(
                "The Subject names no game. Put the game's tag in square brackets in the "
                "Subject, e.g. [demo-1830].", kind="unknown_game",
            )
        try:
            action_log, committed = self.load(game_id or sub.game_tag)
        except KeyError:
            raise Rejection(f"There is no game {sub.game_tag!r} on this server.", kind="unknown_game") from None
        except LogIntegrityError as exc:
            self._notify_damaged(game_id or sub.game_tag, exc)
            raise Rejection(
                "The game's log failed its integrity check; the GM has been told. Nothing was "
                "applied: send your mail again when the GM says the game goes on.",
                kind="damaged_log", game_id=game_id,
            ) from None
        if (sub.message_id, sub.sender.lower()) in action_log.sources_by():
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
                work = execute(command, sub, seat.name if seat else None, is_gm, action_log, work,
                               pending, infos, broadcasts, welcomes, self.settings.route_budget)
            except OrderError as exc:
                raise Rejection(str(exc), failed_line=command.line, not_applied=list(sub.lines),
                                kind="illegal", game_id=info.game_id, line_number=body_line.number,
                                chatter=sub.chatter, cut_at=sub.cut_at) from None
            except Exception as exc:  # the engine's fault, not the player's: logged, refused
                if is_storage_error(exc):
                    raise
                log.exception("applying %r of %s to %s failed unexpectedly", command.line, sub.message_id,
                              info.game_id)
                raise Rejection(_INTERNAL_LINE, failed_line=command.line, not_applied=list(sub.lines),
                                kind="internal", game_id=info.game_id, line_number=body_line.number,
                                chatter=sub.chatter, cut_at=sub.cut_at) from None
            if not isinstance(command, Info):
                accepted.append(describe(command, vocab))
        if pending:
            written = action_log.append(pending)
            if self.after_commit is not None:
                self.after_commit()
            # The copy the orders were applied to is now the committed state; the log is the
            # truth should they ever disagree (the mail is committed: it must not fail now).
            if written[-1]["seq"] != work.last_seq:
                log.error("game %s: the working copy ends at #%d, the log at #%d; rebuilt from the log",
                          info.game_id, work.last_seq, written[-1]["seq"])
                work = replay(action_log.records)
            committed = work
            self._cache[info.game_id] = (written[-1]["hash"], committed)
        self._complete(sub, committed, accepted=accepted, infos=infos, broadcasts=broadcasts,
                       welcomes=welcomes, changed=any(r.kind != "setting" for r in pending))
        return "processed"

    def _recover(self, sub: Submission, action_log: ActionLog, committed: Replay) -> None:
        """Complete a submission whose records are in the log but whose mail was not queued."""
        mine = [r for r in action_log.records
                if r.get("source") == sub.message_id and str(r.get("by") or "").lower() == sub.sender.lower()]
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
                accepted.append(describe(command, vocab))
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

    # -- outgoing mail -------------------------------------------------------------------

    def _mid(self, *parts: str) -> str:
        return deterministic_message_id(*parts, domain=self.domain)

    def _queue(self, *, to: str, subject: str, body: str, kind: str, key: tuple[str, ...],
               in_reply_to: str | None = None) -> None:
        self.outbox.enqueue(self._compose(to=to, subject=subject, body=body, kind=kind, key=key,
                                          in_reply_to=in_reply_to))

    def notice(self, *, to: str, subject: str, body: str, key: tuple[str, ...]) -> EmailMessage:
        """A notice from the server to ``to`` (not queued); its Message-ID is fixed by ``key``."""
        return self._compose(to=to, subject=subject, body=body, kind="notice", key=key)

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
                                                                  route_budget=self.settings.route_budget))
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
                    route_budget=self.settings.route_budget))
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
            return full_help(is_gm=is_gm, title=committed.title) + "\n"
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
                recipient=who, width=info.width_for(who), route_budget=self.settings.route_budget))
        entry = archive.get(item.number or 0)
        if entry is None:
            numbers = [e.number for e in archive.entries()]
            have = f"reports 1 to {max(numbers)}" if numbers else "no reports yet"
            return f"There is no report {item.number}; the archive has {have}.\n"
        return entry.path.read_text()

    def welcome_text(self, committed: Replay, seat: str, secret: str) -> str:
        """The welcome mail for a seat: seat, secret, how to send orders, the HELP text, and
        the opening report (whose turn it is and what they may do)."""
        info = committed.info
        opening = render("report.txt.j2", report_context(
            committed, since_seq=committed.last_seq, number=0, recipient=seat, width=info.width_for(seat),
            route_budget=self.settings.route_budget))
        return render("welcome.txt.j2", {
            "game_id": info.game_id,
            "title": committed.title.name,
            "variants": ", ".join(info.variants) or "none",
            "seat": seat,
            "secret": secret,
            "seats": [f"{s.name} <{s.email}>" for s in info.seats],
            "gm": info.gm_email,
            "server": self.settings.address,
            "help": full_help(is_gm=False, title=committed.title),
            "report": opening,
        })

    def _notify_damaged(self, game_id: str, error: LogIntegrityError) -> None:
        """Tell the GM (once per fault) that the game's log failed its integrity check."""
        log.error("game %s: %s", game_id, error)
        gm = gm_address(game_dir(self.data, game_id) / "log.jsonl")
        if gm is None:
            log.error("game %s: no GM address to tell about the damaged log", game_id)
            return
        fault = hashlib.sha256(str(error).encode()).hexdigest()[:16]
        self._queue(to=gm, subject=f"[{game_id}] The game's log failed its integrity check",
                    body=f"The action log of {game_id} failed its integrity check:\n\n  {error}\n\n"
                    "No mail for this game is applied until the log is repaired; senders are told "
                    f"so. Run: pbem verify {game_id}\n", kind="notice", key=(game_id, "damaged-log", fault))

    def _reply_error(self, message_id: str, sender: str, subject: str, game_tag: str | None,
                     rejection: Rejection, *, key: tuple[str, ...] | None = None,
                     secret: str | None = None) -> bool:
        """Queue the error reply for ``rejection`` unless ``sender`` had their allowance of the
        hour (see the module doc); returns whether it was queued. What the sender wrote is
        quoted as written (UTF-8), never ``secret``."""
        if not self._may_reply(sender, authenticated=rejection.authenticated):
            return False
        body = refusal_text(
            game_id=game_tag, reason=rejection.reason, failed_line=rejection.failed_line,
            line_number=rejection.line_number, not_applied=rejection.not_applied,
            chatter=rejection.chatter, cut_at=rejection.cut_at, secret=secret)
        self._queue(to=sender, subject=reply_subject(subject, game_tag, secret), body=body, kind="reply",
                    key=key or (message_id, "rejected"), in_reply_to=message_id)
        return True

    def _may_reply(self, sender: str, *, authenticated: bool) -> bool:
        """Whether ``sender`` may get one more error reply this hour (logged when not)."""
        allowance = (self.settings.error_replies_per_hour_authenticated if authenticated
                     else self.settings.error_replies_per_hour)
        sent = self.handled.replies_since(sender, self.clock() - 3600, authenticated=authenticated)
        if sent >= allowance:
            log.warning("not replying to %s: %d error replies this hour (the limit)", sender, sent)
            return False
        return True

    def _general_help(self, sub: Submission) -> Outcome:
        """HELP in a mail that names no game: the order reference and the sender's games.
        Rate-limited like a reply to a sender not authenticated (no secret was checked)."""
        replied = self._may_reply(sub.sender, authenticated=False)
        if replied:
            games = seats_of(self.data, sub.sender)
            lines = [f"  [{game_id}] {role}" for game_id, role in games]
            where = ("Your games on this server (put the tag in the Subject):\n" + "\n".join(lines)
                     if lines else f"{sub.sender} has no seat in any game on this server.")
            self._queue(to=sub.sender, subject=reply_subject(sub.subject, None),
                        body=full_help(is_gm=False) + "\n\n" + where + "\n", kind="reply",
                        key=(sub.message_id, "general-help"), in_reply_to=sub.message_id)
        self._mark(sub.message_id, "processed", "general_help", sub.sender, replied=replied)
        return "processed"


_INTERNAL_LINE = ("The server could not apply this line: an error of the server, not of your order. "
                  "It has been logged for the GM and the server's keeper; nothing of your mail was applied.")


_UNREADABLE_LINE = ("This line cannot be read as an order or command (numbers must be plain digits "
                    "0-9, at most 9 of them). Send HELP for the order reference.")


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


from pbem.poller import PassResult, Server, summary  # noqa: E402  (the poller, re-exported here)

__all__ = ["Mailroom", "MailroomSettings", "PassResult", "Rejection", "Server", "summary"]
