"""The application: what one order mail does to a game, as a pure function.

:func:`handle_mail` takes the game's state as replayed from its log, the mail as read
(:class:`pbem.mail.types.Submission`: sender, secret, its order and chatter lines) and the
little configuration it needs, and returns a :class:`Decision`: the records to append to
the log (typed drafts, :mod:`pbem.log_records`), the state after them, and the replies to
send (:data:`Reply`). It never touches the disk, the clock or the network; the input state
is not changed. :func:`recover_mail` decides the same for a mail whose records were
committed before a crash but whose mail was not queued. The mailroom
(:mod:`pbem.server`) keeps only the lock, the inbox, the commit and the outbox.

All or nothing (the issue's rule for a mail): if any line fails to parse or is refused,
the decision is a :class:`Refusal` with no records.
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass
from typing import Callable, Sequence

from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
from pbem.application.state import GameInfo, Replay
from pbem.commands import Command, Info, Order, describe, parse_line
from pbem.engine.actions import Pass
from pbem.errors import OrderError
from pbem.execution import Welcome, Work, execute, finish
from pbem.handled import AUTHENTICATED_KINDS
from pbem.log_records import GMRecord, LogRecord, MailRecord, PressRecord, WidthRecord
from pbem.mail.replies import NO_ORDERS, accepted_text, refusal_text
from pbem.mail.types import BodyLine, Submission
from pbem.typos import put_right
from pbem.orders import Vocabulary
from pbem import report_sections as sections

log = logging.getLogger("pbem.server")

INTERNAL_LINE = ("The server could not apply this line: an error of the server, not of your order. "
                 "The GM has been sent the details and the server's keeper has it in the log; nothing of "
                 "your mail was applied.")
"""The reason given for a line our own code failed on (never the traceback; the GM's mail,
:class:`FaultNotice`, has it)."""

UNREADABLE_LINE = ("This line cannot be read as an order or command (numbers must be plain digits "
                   "0-9, at most 9 of them). Send HELP for the order reference.")
"""The reason given for a line the parser failed on unexpectedly."""


@dataclass(frozen=True)
class AppConfig:
    """What the application needs from the server's config: ``route_budget`` in
    search steps of the route optimiser (RUN AUTO), and how secrets are made and stored (``new_secret()``,
    ``hash_secret(game_id, secret)``; see :mod:`pbem.games`)."""

    new_secret: Callable[[], str]
    hash_secret: Callable[[str, str], str]
    route_budget: int = DEFAULT_SEARCH_BUDGET


class Rejection(Exception):
    """A submission that is answered with an error and changes nothing.

    ``kind`` is what went wrong (``unknown_game``, ``wrong_secret``, ``syntax`` ...);
    ``game_id`` the game it was for, when known; ``line_number`` the failed line's in the
    mail (from 1); ``chatter`` the lines read as chatter (quoted in the reply); ``cut_at``
    the line limit when the mail was cut there; ``may`` what the sender may do now, from
    the one legal-move API (:func:`pbem.report_sections.may_now`).
    """

    def __init__(self, reason: str, failed_line: str | None = None, not_applied: list[str] | None = None,
                 kind: str = "rejected", game_id: str | None = None, *, line_number: int | None = None,
                 chatter: tuple[BodyLine, ...] = (), cut_at: int | None = None,
                 may: Sequence[str] = ()) -> None:
        super().__init__(reason)
        self.may = tuple(may)
        self.reason = reason
        self.failed_line = failed_line
        self.not_applied = not_applied or []
        self.kind = kind
        self.game_id = game_id
        self.line_number = line_number
        self.chatter = chatter
        self.cut_at = cut_at
        self.spelling: dict[str, str] = {}
        """How the game's reports spell characters ASCII lacks (``{"£": "L"}``), applied to
        our words (the reason, the lines that would be accepted), never to the sender's."""

    @property
    def authenticated(self) -> bool:
        """Whether the sender was a seat or the GM with the right secret."""
        return self.kind in AUTHENTICATED_KINDS

    def text(self, game_id: str | None, secret: str | None) -> str:
        """The reply's body (:func:`pbem.mail.replies.refusal_text`), ``secret`` masked."""
        def spelt(text: str) -> str:
            for written, ascii_form in self.spelling.items():
                text = text.replace(written, ascii_form)
            return text

        return refusal_text(game_id=game_id, reason=spelt(self.reason), failed_line=self.failed_line,
                            line_number=self.line_number, not_applied=self.not_applied, chatter=self.chatter,
                            cut_at=self.cut_at, may=[spelt(line) for line in self.may], secret=secret)


# -- the replies a decision asks for --------------------------------------------------------


@dataclass(frozen=True)
class Refusal:
    """Answer the sender with ``rejection`` (:meth:`Rejection.text`); nothing is applied."""

    rejection: Rejection


@dataclass(frozen=True)
class TurnReports:
    """A new turn report, mailed as each recipient's MAIL setting asks
    (:mod:`pbem.application.mailing`); the sender's copy starts with ``echo`` (the lines as
    understood, the reading notes, the chatter), ``""`` for none; ``orders``: how many lines
    the mail applied."""

    echo: str
    orders: int = 0


@dataclass(frozen=True)
class Broadcast:
    """The GM's message ``text`` to every player and the GM; ``number`` counts the
    broadcasts of one mail from 0 (it keys the mail's Message-ID)."""

    text: str
    number: int


@dataclass(frozen=True)
class PressRelay:
    """Table talk to relay (issue 22): ``text`` from ``sender`` (a seat or ``"GM"``) to every
    player and the GM (``to`` None) or to seat ``to``; ``seq`` its log number (it keys the
    mails' Message-IDs); ``ack``: the sender also gets a line saying where it went (a mail
    with nothing else to answer)."""

    seq: int
    sender: str
    to: str | None
    text: str
    ack: bool


@dataclass(frozen=True)
class InfoAnswer:
    """One reply to the sender answering each of ``items`` (HELP, REPORT, HISTORY, WIDTH),
    each asked once."""

    items: tuple[Info, ...]


@dataclass(frozen=True)
class FaultNotice:
    """Tell the GM that the server failed on a mail (the refusal :data:`INTERNAL_LINE`
    promises it): ``sender`` the mail's address, ``lines`` its order lines as ``(line
    number, text)``, ``line_number`` and ``failed_line`` the line the server failed on,
    ``error`` the error with the innermost frames of its traceback
    (:func:`fault_summary`)."""

    sender: str
    lines: tuple[tuple[int, str], ...]
    line_number: int
    failed_line: str
    error: str


FAULT_FRAMES = 8
"""How many of a fault's innermost traceback frames the GM's notice gives."""


def fault_summary(exc: BaseException, frames: int = FAULT_FRAMES) -> str:
    """``exc`` as the GM's notice gives it: its innermost ``frames`` traceback frames (file
    from the package's folder on, line, function, source line) and the error's type and
    message, as Python prints a traceback."""
    found = traceback.TracebackException.from_exception(exc)
    stack = list(found.stack)[-frames:]
    out = ["Traceback (innermost frames):"]
    for frame in stack:
        name = frame.filename
        cut = name.rfind("/pbem/")
        out.append(f'  File "{name[cut + 1:] if cut >= 0 else name}", line {frame.lineno}, in {frame.name}')
        if frame.line:
            out.append(f"    {frame.line.strip()}")
    out += [line.rstrip("\n") for line in found.format_exception_only()]
    return "\n".join(out)


Reply = Refusal | TurnReports | Broadcast | InfoAnswer | Welcome | FaultNotice | PressRelay
"""A mail the decision asks for (:class:`Welcome`: a seat given to a new address;
:class:`FaultNotice`: to the GM, beside the refusal of a mail the server failed on)."""


@dataclass(frozen=True)
class Decision:
    """What a mail does: ``records`` to append (drafts numbered from the state's
    ``last_seq + 1``; empty for a refusal or a mail of questions only), ``state`` the game
    after them, ``replies`` to send in order, and ``kind``: ``orders`` (something was
    applied, or a WIDTH), ``info`` (questions only) or the refusal's kind."""

    records: tuple[LogRecord, ...]
    state: Replay
    replies: tuple[Reply, ...]
    kind: str

    @property
    def refusal(self) -> Rejection | None:
        """The rejection when the mail is refused, else None."""
        return next((r.rejection for r in self.replies if isinstance(r, Refusal)), None)

    @property
    def report_due(self) -> bool:
        """Whether a new turn report goes out (a record other than a WIDTH was added)."""
        return any(isinstance(r, TurnReports) for r in self.replies)


@dataclass(frozen=True)
class Sender:
    """Who sent a mail: ``seat`` (None for the GM without a seat) and ``is_gm`` (the GM's
    address with the GM's secret)."""

    seat: str | None
    is_gm: bool


def authenticate(info: GameInfo, sender: str, secret: str | None, hash_secret: Callable[[str, str], str]) -> Sender:
    """The seat or GM whose address is ``sender`` and whose secret ``secret`` is.

    :raises Rejection: ``unknown_sender`` (no seat, not the GM), ``wrong_secret`` (no
        PASSWORD line, or it matches neither secret).
    """
    seat = info.seat_for(sender)
    is_gm_address = sender.lower() == info.gm_email.lower()
    if seat is None and not is_gm_address:
        raise Rejection(f"{sender} has no seat in {info.game_id}. Orders must come from the address "
                        "registered for a seat.", kind="unknown_sender", game_id=info.game_id)
    if not secret:
        raise Rejection("Your mail has no PASSWORD line. Add a line: PASSWORD <your secret>.",
                        kind="wrong_secret", game_id=info.game_id)
    hashed = hash_secret(info.game_id, secret)
    is_gm = is_gm_address and hashed == info.gm_secret_hash
    if not is_gm and not (seat is not None and hashed == seat.secret_hash):
        whose = {(True, False): "your seat's secret", (False, True): "the GM's secret",
                 (True, True): "either your seat's secret or the GM's secret"}[(seat is not None, is_gm_address)]
        raise Rejection(f"The PASSWORD does not match {whose}.", kind="wrong_secret", game_id=info.game_id)
    return Sender(seat.name if seat else None, is_gm)


def _parse(mail: Submission, vocab: Vocabulary, info: GameInfo, is_gm: bool,
           may: Callable[[], list[str]] = list) -> list[Command]:
    """Every order line of ``mail`` parsed, in order.

    :raises Rejection: ``syntax``, for the first line that does not parse (with ``may()``,
        what the sender may do now).
    """
    commands: list[Command] = []
    for body_line in mail.orders:
        line = body_line.text
        try:
            commands.append(parse_line(line, vocab, info, is_gm=is_gm))
        except OrderError as exc:
            raise Rejection(str(exc), failed_line=line, not_applied=list(mail.lines), kind="syntax",
                            game_id=info.game_id, line_number=body_line.number, chatter=mail.chatter,
                            cut_at=mail.cut_at, may=may()) from None
        except Exception:  # a line must never crash the handling: our parser's fault, logged
            log.exception("parsing %r of %s failed unexpectedly", line, mail.message_id)
            raise Rejection(UNREADABLE_LINE, failed_line=line, not_applied=list(mail.lines), kind="syntax",
                            game_id=info.game_id, line_number=body_line.number, chatter=mail.chatter,
                            cut_at=mail.cut_at) from None
    return commands


def _refuse_slips(mail: Submission, vocab: Vocabulary, info: GameInfo, is_gm: bool) -> None:
    """Refuse ``mail`` at its first chatter line that is a slip of an order word put right
    (:func:`pbem.typos.put_right`): ``'tokn V20.1' -- did you mean TOKEN V20.1?``.

    :raises Rejection: ``syntax``, naming the line and the lines that would be accepted."""
    for body_line in mail.chatter:
        fixes = put_right(body_line.text, vocab, info, is_gm=is_gm)
        if fixes:
            raise Rejection(f"{body_line.text.strip()!r} -- did you mean {' or '.join(fixes)}?",
                            failed_line=body_line.text, not_applied=list(mail.lines), kind="syntax",
                            game_id=info.game_id, line_number=body_line.number, chatter=mail.chatter,
                            cut_at=mail.cut_at)


def _may_now(work: Work) -> list[str]:
    """What the sender of a refused order may do in the game as the mail left it before that
    order: the seat's offers (for the GM, the player to act's)."""
    return _guarded_may_now(work.state, work.seat, work.route_budget)


def _guarded_may_now(state: Replay, seat: str | None, route_budget: int) -> list[str]:
    """:func:`pbem.report_sections.may_now` for ``seat`` (None: the player to act); a fault
    of ours there is logged and leaves the list out, never the refusal."""
    game = state.game
    try:
        actors = game.current_actors()
        return sections.may_now(game, seat if seat is not None else next(iter(actors), None), route_budget)
    except Exception:
        log.exception("listing what %s may do in %s failed", seat, state.info.game_id)
        return []


def _trailing_passes(rest: Sequence[Command]) -> bool:
    """Whether ``rest``, the last of a mail's orders, are all PASS (or DONE) lines of the
    sender's own seat: when the seat's turn ended earlier in the mail they are noted, not
    applied, and no reason to refuse the orders before them (issue 22)."""
    return all(isinstance(c, Order) and c.seat is None and c.action == Pass() for c in rest)


def _replies(mail: Submission, accepted: Sequence[str], work: Work, notes: Sequence[str] = ()) -> tuple[Reply, ...]:
    replies: list[Reply] = [Broadcast(text, n) for n, text in enumerate(work.broadcasts)]
    replies += work.welcomes
    reports = any(not isinstance(r, (WidthRecord, PressRecord, MailRecord)) for r in work.records)
    if reports:
        echo = accepted_text(accepted, [*mail.notes, *notes], mail.chatter, mail.secret) if accepted else ""
        replies.append(TurnReports(echo, len(accepted)))
    replies += [PressRelay(r.seq, r.actor, r.to, r.text, not reports) for r in work.records
                if isinstance(r, PressRecord)]
    if work.infos:
        replies.append(InfoAnswer(tuple(work.infos)))
    return tuple(replies)


def handle_mail(state: Replay, mail: Submission, config: AppConfig) -> Decision:
    """What ``mail`` does to the game in ``state`` (not changed): authenticate the sender,
    parse every order line, apply each in turn to a copy; all or nothing.

    A refusal is a decision too (no records, one :class:`Refusal` reply): a line our own
    code fails on is refused as ``internal`` (and logged), never raised, and the decision
    also asks for a :class:`FaultNotice` to the GM.

    :raises OSError: only a storage fault while the engine reads title data
        (:func:`pbem.durable.is_storage_error`): the mail is not the cause, it is tried again.
    """
    info = state.info
    fault: FaultNotice | None = None
    try:
        sender = authenticate(info, mail.sender, mail.secret, config.hash_secret)
        # Only order and command lines are parsed; chatter ("Hi all,") is listed, never applied,
        # but a slip of an order word is not taken for chatter (issue 22: a GM's judgement).
        vocab = Vocabulary.from_title(state.title)
        _refuse_slips(mail, vocab, info, sender.is_gm)
        if not mail.orders:
            raise Rejection(NO_ORDERS, kind="no_orders", game_id=info.game_id, chatter=mail.chatter,
                            cut_at=mail.cut_at)
        commands = _parse(mail, vocab, info, sender.is_gm,
                          lambda: _guarded_may_now(state, sender.seat, config.route_budget))
        work = Work(state.fork(), mail.sender, mail.message_id, sender.seat, sender.is_gm,
                    config.route_budget, config.new_secret, config.hash_secret)
        accepted: list[str] = []
        notes: list[str] = []
        for index, (command, body_line) in enumerate(zip(commands, mail.orders)):
            if accepted and work.seat is not None and work.seat not in work.state.game.current_actors() \
                    and _trailing_passes(commands[index:]):
                notes.append(f"line {body_line.number}: {command.line} was not needed (your turn had ended); "
                             "nothing more was done")
                break
            try:
                execute(command, work)
            except OrderError as exc:
                raise Rejection(str(exc), failed_line=command.line, not_applied=list(mail.lines), kind="illegal",
                                game_id=info.game_id, line_number=body_line.number, chatter=mail.chatter,
                                cut_at=mail.cut_at, may=_may_now(work)) from None
            except Exception as exc:  # the engine's fault, not the player's: logged, refused
                from pbem.durable import is_storage_error

                if is_storage_error(exc):
                    raise
                log.exception("applying %r of %s to %s failed unexpectedly", command.line, mail.message_id,
                              info.game_id)
                fault = FaultNotice(mail.sender, tuple((line.number, line.text) for line in mail.orders),
                                    body_line.number, command.line, fault_summary(exc))
                raise Rejection(INTERNAL_LINE, failed_line=command.line, not_applied=list(mail.lines),
                                kind="internal", game_id=info.game_id, line_number=body_line.number,
                                chatter=mail.chatter, cut_at=mail.cut_at) from None
            if not isinstance(command, Info):
                accepted.append(describe(command, vocab))
        finish(work)  # the mail's plan, and the standing orders of the players to act
    except Rejection as rejection:
        rejection.spelling = dict(state.title.settings.terms.ascii)  # money as the reports write it
        return Decision((), state, (Refusal(rejection), *((fault,) if fault else ())), rejection.kind)
    replies = _replies(mail, accepted, work, notes)
    due = any(isinstance(r, TurnReports) for r in replies)
    return Decision(tuple(work.records), work.state, replies, "orders" if accepted or due else "info")


def recover_mail(state: Replay, mail: Submission, mine: Sequence[LogRecord], config: AppConfig,
                 welcome_queued: Callable[[str, str], bool]) -> Decision:
    """The rest of a mail whose records ``mine`` (those with its Message-ID and sender) are
    in the log, whose state is ``state``, but whose replies were not all queued (a crash
    between the commit and the outbox). Its lines parsed before the commit: they are read
    again for the same echo and answers. A new player's secret is in the log only as a
    hash, so a seat whose welcome was not queued (``welcome_queued(seat, email)`` false)
    gets a fresh secret: one more ``replace`` record, and its welcome.
    """
    vocab = Vocabulary.from_title(state.title)
    is_gm = mail.sender.lower() == state.info.gm_email.lower()
    seat = state.info.seat_for(mail.sender)
    accepted: list[str] = []
    work = Work(state.fork(), mail.sender, mail.message_id, seat.name if seat else None, is_gm,
                config.route_budget, config.new_secret, config.hash_secret)
    for line in mail.lines:
        try:
            command = parse_line(line, vocab, state.info, is_gm=is_gm)
        except Exception:  # it parsed before the commit; never let it stop the recovery
            continue
        if isinstance(command, Info):
            work.infos.append(command)
        else:
            accepted.append(describe(command, vocab))
    gm_records = [r for r in mine if isinstance(r, GMRecord)]
    work.broadcasts = [r.text or "" for r in gm_records if r.command == "broadcast"]
    replaced = {r.seat: r for r in gm_records if r.command == "replace" and r.seat and r.email}
    for seat_name, record in replaced.items():
        assert seat_name is not None and record.email is not None
        now = state.info.seat_named(seat_name)
        if now is None or now.email.lower() != record.email.lower() or welcome_queued(seat_name, record.email):
            continue
        secret = config.new_secret()
        work.add(GMRecord(seq=work.next_seq, actor="GM", by=record.by, source=mail.message_id, command="replace",
                          seat=seat_name, email=record.email,
                          secret_hash=config.hash_secret(state.info.game_id, secret)))
        work.welcomes.append(Welcome(seat_name, record.email, secret))
    replies: list[Reply] = [Broadcast(text, n) for n, text in enumerate(work.broadcasts)]
    replies += work.welcomes
    reports = any(not isinstance(r, (WidthRecord, PressRecord, MailRecord)) for r in mine)
    if reports:
        echo = accepted_text(accepted, mail.notes, mail.chatter, mail.secret) if accepted else ""
        replies.append(TurnReports(echo, len(accepted)))
    replies += [PressRelay(r.seq, r.actor, r.to, r.text, not reports) for r in mine if isinstance(r, PressRecord)]
    if work.infos:
        replies.append(InfoAnswer(tuple(work.infos)))
    return Decision(tuple(work.records), work.state, tuple(replies), "orders")

