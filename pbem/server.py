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
4. find the game by the Subject tags (the first that names a game here, in any case) and
   load its state; a game whose log fails its integrity check takes nothing (the sender is
   told, the GM gets a notice once). A mail naming no game whose lines are all HELP gets
   the general order reference and the sender's games;
5. hand the state and the mail to the application (:func:`pbem.application.mail.handle_mail`,
   a pure function): it checks the seat and secret, parses every line and applies every
   order to a copy of the game, and decides the records and the replies; if any line fails,
   nothing is applied and the sender gets the failed line, why, and the lines not applied
   (a line the server itself failed on: the GM also gets a mail with the error);
6. otherwise append the records to the action log (fsync: the commit point), archive the turn
   report, queue the replies in the durable outbox, and mark the message handled.

If the server dies after the commit but before step 6 ends, the next run finds the
Message-ID and sender in the log and completes the step from the log
(:func:`pbem.application.mail.recover_mail` decides what is left to send; deterministic
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

import dataclasses
import fcntl
import hashlib
import logging
import os
import time
from datetime import datetime, timezone
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from email.message import EmailMessage
from pathlib import Path
from typing import Callable

from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
from pbem.actionlog import ActionLog, LogIntegrityError
from pbem.application.mail import (AppConfig, Broadcast, Decision, FaultNotice, InfoAnswer, PressRelay,
                                   Rejection, TurnReports)
from pbem.application import refusals
from pbem.application.mail import handle_mail, recover_mail
from pbem.application.state import start
from pbem.application.texts import TextSettings, general_help_text, gm_welcome_text, info_reply
from pbem.application.texts import welcome_text
from pbem.durable import clean_temporary_files, write_atomic
from pbem.errors import ConfigError
from pbem.execution import Welcome
from pbem.games import (Replay, find_game, game_dir, game_exists, gm_address, hash_secret, list_games, new_secret, open_log,
                        replay, replay_log, save_snapshot, seats_of)
from pbem import signup
from pbem.report_mail import queue_reports, relay_press
from pbem.report_pictures import info_pictures, opening_pictures
from pbem.handled import Handled, HandledIndex, content_digest, same_mail
from pbem.log_records import GameRecord
from pbem.mail.compose import InlineImage, compose, deterministic_message_id, reply_subject
from pbem.mail.reading import read_message
from pbem.mail.types import Ignored, Submission, Unreadable
from pbem.report_archive import ReportArchive
from pbem.transport.base import OutboundTransport, Outcome
from pbem.transport.outbox import DrainResult, DurableOutbox, message_file_id

log = logging.getLogger("pbem.server")

LOCK_FILE = "pbem.lock"
"""The lock file in the data directory (see :meth:`Mailroom.locked`)."""


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
    stranger_mail_retention_days: int = 30
    """Days the raw copy of a stranger's refused or ignored mail is kept (0: for good)."""
    route_budget: int = DEFAULT_SEARCH_BUDGET
    """Search steps for the route optimiser (RUN AUTO; the best run in reports)."""
    pictures: bool = True
    """Whether the mails carrying a full report show the board as an inline PNG (issue 23)."""
    organisers: tuple[str, ...] = ()
    """Addresses that may open a game by mail (``OPEN``), with ``organiser_password``."""
    organiser_password: str | None = None


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

    @property
    def app_config(self) -> AppConfig:
        """What the application (:mod:`pbem.application.mail`) is given of the settings."""
        return AppConfig(new_secret=new_secret, hash_secret=hash_secret,
                         route_budget=self.settings.route_budget)

    @property
    def texts(self) -> TextSettings:
        """What the mail texts (:mod:`pbem.application.texts`) are given of the settings."""
        return TextSettings(server=self.settings.address, route_budget=self.settings.route_budget, clock=self.clock)

    # -- games --------------------------------------------------------------------------

    def load(self, game_id: str) -> tuple[ActionLog, Replay]:
        """The game's log, opened to be appended to (a torn tail is cut), and its replay
        (cached by the log's last hash).

        :raises KeyError: no such game.
        :raises LogIntegrityError: the log is damaged (or no longer replays).
        """
        action_log = open_log(self.data, game_id, repair=True, clock=self.clock)
        last = action_log.records[-1].hash
        cached = self._cache.get(game_id)
        if cached and cached[0] == last:
            return action_log, cached[1]
        rebuilt = replay_log(action_log)  # from the log's snapshot when it is current
        self._cache[game_id] = (last, rebuilt)
        return action_log, rebuilt

    def archive(self, game_id: str) -> ReportArchive:
        """The report archive of ``game_id``."""
        return ReportArchive(self.data / "games" / game_id / "reports", clock=self.clock)

    def known_addresses(self) -> frozenset[str]:
        """Every seat's and GM's address of the games here, lower case (a game whose log
        cannot be read adds none)."""
        found: set[str] = set()
        for game_id in list_games(self.data):
            try:
                _, state = self.load(game_id)
            except Exception:  # a damaged log: its mail is handled, and refused, as it comes
                continue
            found.update(address.lower() for address in state.info.recipients())
        return frozenset(found)

    def new_game(self, game_id: str, title: str, variants: tuple[str, ...], seats: list[tuple[str, str]],
                 gm_email: str, *, auto_runs: bool = False, random_seating: bool | None = None,
                 timing: Mapping[str, tuple[int, str]] | None = None, mail: str = "turn") -> dict[str, str]:
        """Create a game: its log (record 0) and a welcome mail per seat in the outbox;
        ``timing``: hours allowed and no-move policy per kind of round (issue 21).

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
        data = genesis_data(game_id, title, variants, seats, gm_email, secrets_by_seat, gm_secret, auto_runs,
                            random_seating, timing=timing, mail=mail)
        committed = start(GameRecord(seq=0, genesis=data))
        pictures = opening_pictures(committed) if self.settings.pictures else ()
        welcomes = [
            self._compose(to=email, subject=f"[{game_id}] Welcome to {game_id}",
                          body=welcome_text(committed, self.texts, name, secrets_by_seat[name]), kind="welcome",
                          key=(game_id, "welcome", name), images=pictures)
            for name, email in seats
        ]
        welcomes.append(self._compose(
            to=gm_email, subject=f"[{game_id}] You are the GM of {game_id}",
            body=gm_welcome_text(committed, gm_secret), kind="welcome", key=(game_id, "welcome-gm")))
        with self.locked():
            try:
                ActionLog.create(game_dir(self.data, game_id) / "log.jsonl", data, by=gm_email, clock=self.clock)
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
        the outbox), under the lock, and the strangers' mail kept past its retention
        (:meth:`prune_received`); returns them. Call it when the server starts."""
        with self.locked():
            removed = clean_temporary_files(self.data)
        for path in removed:
            log.info("removed %s (left by a crash)", path)
        return removed + self.prune_received()

    def prune_received(self) -> list[Path]:
        """Remove the raw copies (``received/``) of the mail of senders who were never
        authenticated (refused or ignored: strangers, spam) kept longer than
        ``stranger_mail_retention_days``; the handled index keeps the mails' digests, so a
        redelivery is still known. A raw copy another handled mail also names is kept.
        Returns the files removed."""
        days = self.settings.stranger_mail_retention_days
        if days <= 0:
            return []
        with self.locked():
            removed = self.handled.prune_strangers(self.data / "received", self.clock() - days * 86400)
        if removed:
            log.info("removed %d stranger's mail(s) kept over %d days", len(removed), days)
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
                    refusals.unreadable(result),
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
        rejection = refusals.reused_message_id(result.message_id)
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
        asked = signup.signup_lines([line.text for line in sub.body], list(sub.lines))
        if asked:
            return self._signup(sub, asked)
        game_id = refusals.game_for(sub, lambda tag: find_game(self.data, tag))
        if game_id is None and refusals.is_general_help(sub.lines):
            return self._general_help(sub)
        tag = game_id or sub.game_tag or ""
        try:
            action_log, committed = self.load(tag)
        except KeyError:
            raise refusals.no_such_game(tag) from None
        except LogIntegrityError as exc:
            self._notify_damaged(tag, exc)
            raise refusals.damaged_log(game_id) from None
        if (sub.message_id, sub.sender.lower()) in action_log.sources_by():
            # Committed before a crash: finish the job from the log, without applying again.
            self._recover(sub, action_log, committed)
            return "processed"
        decision = handle_mail(committed, sub, self.app_config)
        if decision.refusal is not None:
            for reply in decision.replies:
                if isinstance(reply, FaultNotice):
                    self._notify_fault(sub, committed, reply)
            raise decision.refusal
        self.commit(sub, action_log, decision)
        return "processed"

    def commit(self, sub: Submission, action_log: ActionLog, decision: Decision) -> None:
        """Append the decision's records (the commit point), then queue its mail.

        The state the records were applied to is the committed state from then on; the log is
        the truth should they ever disagree (the mail is committed: it must not fail now)."""
        committed = decision.state
        game_id = committed.info.game_id
        if decision.records:
            written = action_log.append(decision.records)
            if self.after_commit is not None:
                self.after_commit()
            committed.stamp(written)
            if written[-1].seq != committed.last_seq:
                log.error("game %s: the working copy ends at #%d, the log at #%d; rebuilt from the log",
                          game_id, committed.last_seq, written[-1].seq)
                committed = replay(action_log.records)
            self._cache[game_id] = (written[-1].hash, committed)
            save_snapshot(action_log, committed)  # a cache for the next reader; never the truth
        self.complete(sub, committed, decision)

    def _recover(self, sub: Submission, action_log: ActionLog, committed: Replay) -> None:
        """Complete a submission whose records are in the log but whose mail was not queued."""
        mine = [r for r in action_log.records if r.source == sub.message_id and r.by.lower() == sub.sender.lower()]

        def welcome_queued(seat_name: str, email: str) -> bool:
            welcome_id = message_file_id(self._mid(sub.message_id, "welcome", seat_name, email.lower()))
            return (welcome_id in self.outbox.pending() or self.outbox.is_sent(welcome_id)
                    or self.outbox.is_failed(welcome_id))

        self.commit(sub, action_log, recover_mail(committed, sub, mine, self.app_config, welcome_queued))

    # -- outgoing mail -------------------------------------------------------------------

    def _mid(self, *parts: str) -> str:
        return deterministic_message_id(*parts, domain=self.domain)

    def queue(self, *, to: str, subject: str, body: str, kind: str, key: tuple[str, ...],
              in_reply_to: str | None = None, images: Sequence[InlineImage] = ()) -> None:
        """Queue a mail of ``kind`` to ``to`` (its Message-ID fixed by ``key``: queued once),
        with ``images`` shown inline."""
        self.outbox.enqueue(self._compose(to=to, subject=subject, body=body, kind=kind, key=key,
                                          in_reply_to=in_reply_to, images=images))

    def notice(self, *, to: str, subject: str, body: str, key: tuple[str, ...]) -> EmailMessage:
        """A notice from the server to ``to`` (not queued); its Message-ID is fixed by ``key``."""
        return self._compose(to=to, subject=subject, body=body, kind="notice", key=key)

    def _compose(self, *, to: str, subject: str, body: str, kind: str, key: tuple[str, ...],
                 in_reply_to: str | None = None, images: Sequence[InlineImage] = ()) -> EmailMessage:
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
            date=datetime.fromtimestamp(self.clock(), timezone.utc),
            images=images,
        )

    def complete(self, sub: Submission, committed: Replay, decision: Decision) -> None:
        """Archive the report and queue every mail ``decision`` asks for (idempotent: each
        mail's Message-ID is fixed by the mail it answers)."""
        info = committed.info
        game_id = info.game_id
        archive = self.archive(game_id)
        tag = f"[{game_id}]"
        replied = True
        for reply in decision.replies:
            if isinstance(reply, Broadcast):
                for to in info.recipients():
                    self.queue(to=to, subject=f"{tag} Message from the GM", body=reply.text + "\n",
                                kind="notice", key=(sub.message_id, "broadcast", str(reply.number)))
            elif isinstance(reply, Welcome):
                self.queue(to=reply.email, subject=f"{tag} Welcome to {game_id}",
                            body=welcome_text(committed, self.texts, reply.seat, reply.secret), kind="welcome",
                            key=(sub.message_id, "welcome", reply.seat))
                if reply.replaced:
                    self.queue(to=reply.replaced, subject=f"{tag} You no longer play {reply.seat}",
                               body=f"The GM of {game_id} gave the seat {reply.seat} to another player; your "
                                    "secret no longer works there. Thank you for playing.\n",
                               kind="notice", key=(sub.message_id, "replaced", reply.seat))
            elif isinstance(reply, TurnReports):
                queue_reports(self, sub, committed, archive, reply)
            elif isinstance(reply, PressRelay):
                relay_press(self, sub, committed, reply)
            elif isinstance(reply, InfoAnswer):
                # a mail asking only for answers (HELP, REPORT, HISTORY) counts like an error
                # reply towards the sender's allowance of the hour
                if decision.kind == "info" and not self._may_reply(sub.sender, authenticated=True):
                    replied = False
                    continue
                self.queue(to=sub.sender, subject=reply_subject(sub.subject, game_id, sub.secret),
                           body=info_reply(committed, self.texts, archive, reply.items, sub.sender,
                                           lambda seq: self._as_of(game_id, seq)), kind="reply",
                           key=(sub.message_id, "info"), in_reply_to=sub.message_id,
                           images=info_pictures(reply.items, archive, lambda seq: self._as_of(game_id, seq))
                           if self.settings.pictures else ())
        self._mark(sub.message_id, "processed", decision.kind, sub.sender, replied=replied, game=game_id)

    def _as_of(self, game_id: str, seq: int) -> Replay:
        """``game_id`` as it stood after log record ``seq`` (a replay of the records to it)."""
        return replay([r for r in open_log(self.data, game_id).records if r.seq <= seq])

    def _notify_damaged(self, game_id: str, error: LogIntegrityError) -> None:
        """Tell the GM (once per fault) that the game's log failed its integrity check."""
        log.error("game %s: %s", game_id, error)
        gm = gm_address(game_dir(self.data, game_id) / "log.jsonl")
        if gm is None:
            log.error("game %s: no GM address to tell about the damaged log", game_id)
            return
        fault = hashlib.sha256(str(error).encode()).hexdigest()[:16]
        self.queue(to=gm, subject=f"[{game_id}] The game's log failed its integrity check",
                    body=f"The action log of {game_id} failed its integrity check:\n\n  {error}\n\n"
                    "No mail for this game is applied until the log is repaired; senders are told "
                    f"so. Run: pbem verify {game_id}\n", kind="notice", key=(game_id, "damaged-log", fault))

    def _notify_fault(self, sub: Submission, committed: Replay, fault: FaultNotice) -> None:
        """Tell the GM that the server failed on ``sub`` (the sender is refused with the
        promise that the GM is told): the game, the sender, the mail's order lines, the line
        that failed and the error, and where the raw mail is kept. Once per mail (the
        notice's Message-ID is the mail's)."""
        info = committed.info
        lines = "\n".join(f"  {number:>3}  {text}" for number, text in fault.lines)
        raw = f"received/{self._sha256}.eml" if self._sha256 else "received/ (its SHA-256 name)"
        self.queue(
            to=info.gm_email, subject=f"[{info.game_id}] An error of the server on a mail from {fault.sender}",
            body=(f"The server failed while applying a mail to {info.game_id}: an error of the server, not of "
                  f"the order. The sender was told so and nothing of the mail was applied.\n\n"
                  f"Game: {info.game_id}\nSender: {fault.sender}\nMessage-ID: {sub.message_id}\n"
                  f"Subject: {sub.subject}\n\nThe mail's order lines:\n{lines}\n\n"
                  f"The line that failed (line {fault.line_number}):\n  {fault.failed_line}\n\n"
                  f"The error:\n{fault.error}\n\n"
                  f"The raw mail is kept in the data directory as {raw}; the server's log has the full "
                  "traceback. The game goes on: the GM may give the order with ACT AS once the fault is "
                  "mended, or rule otherwise.\n"),
            kind="notice", key=(sub.message_id, "internal-fault"))

    def _reply_error(self, message_id: str, sender: str, subject: str, game_tag: str | None,
                     rejection: Rejection, *, key: tuple[str, ...] | None = None,
                     secret: str | None = None) -> bool:
        """Queue the error reply for ``rejection`` unless ``sender`` had their allowance of the
        hour (see the module doc); returns whether it was queued. What the sender wrote is
        quoted as written (UTF-8), never ``secret``."""
        if not self._may_reply(sender, authenticated=rejection.authenticated):
            return False
        body = rejection.text(game_tag, secret)
        self.queue(to=sender, subject=reply_subject(subject, game_tag, secret), body=body, kind="reply",
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

    def _signup(self, sub: Submission, lines: list[str]) -> Outcome:
        """LIST, JOIN, OPEN and WITHDRAW (and HELP) in a mail naming no game
        (:mod:`pbem.signup`); the answer is rate-limited like a reply to a sender not
        authenticated, or one authenticated when an organiser gave the password."""
        desk = signup.desk_for(self, sub.sender, sub.secret, sub.message_id)
        try:
            text = signup.answer(desk, lines)
        except ConfigError as exc:
            raise Rejection(f"{exc}.", kind="signup") from None
        replied = self._may_reply(sub.sender, authenticated=desk.organiser_refusal is None)
        if replied:
            self.queue(to=sub.sender, subject=reply_subject(sub.subject, None), body=text, kind="reply",
                       key=(sub.message_id, "signup"), in_reply_to=sub.message_id)
        self._mark(sub.message_id, "processed", "general_help", sub.sender, replied=replied)
        return "processed"

    def _general_help(self, sub: Submission) -> Outcome:
        """HELP in a mail that names no game: the order reference and the sender's games.
        Rate-limited like a reply to a sender not authenticated (no secret was checked)."""
        replied = self._may_reply(sub.sender, authenticated=False)
        if replied:
            self.queue(to=sub.sender, subject=reply_subject(sub.subject, None),
                        body=general_help_text(sub.sender, seats_of(self.data, sub.sender)), kind="reply",
                        key=(sub.message_id, "general-help"), in_reply_to=sub.message_id)
        self._mark(sub.message_id, "processed", "general_help", sub.sender, replied=replied)
        return "processed"


from pbem.poller import PassResult, Server, summary  # noqa: E402  (the poller, re-exported here)

__all__ = ["Mailroom", "MailroomSettings", "PassResult", "Rejection", "Server", "summary"]
