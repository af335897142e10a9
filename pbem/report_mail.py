"""The mails a committed move sends (issue 22): the turn report archived once and each
recipient's copy as their MAIL setting asks (:mod:`pbem.application.mailing`), and table talk
relayed. Every mail's Message-ID is fixed by what it is about, so completing a move twice
(after a crash) queues each once."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.application.mail import PressRelay, TurnReports
from pbem.application.mailing import copies
from pbem.application.state import Replay, open_deals
from pbem.application.texts import turn_report
from pbem.mail.compose import reply_subject
from pbem.mail.types import Submission
from pbem.report_archive import ReportArchive
from pbem.report_pictures import report_pictures

if TYPE_CHECKING:
    from pbem.server import Mailroom


def relay_press(room: Mailroom, sub: Submission, committed: Replay, press: PressRelay) -> None:
    """Table talk to every player and the GM, or to one seat (issue 22); the sender told
    where it went when the mail had nothing else to answer."""
    info = committed.info
    tag = f"[{info.game_id}]"
    seat = info.seat_named(press.to) if press.to else None
    targets = [seat.email] if seat is not None else info.recipients()
    whom = press.to or "all"
    for to in targets:
        if to.lower() == sub.sender.lower():
            continue
        room.queue(to=to, subject=f"{tag} Press from {press.sender} to {whom}",
                   body=f"{press.sender} to {whom}:\n\n{press.text}\n", kind="notice",
                   key=("press", info.game_id, str(press.seq), to.lower()))
    if press.ack:
        room.queue(to=sub.sender, subject=reply_subject(sub.subject, info.game_id, sub.secret),
                   body=f"Your press to {whom} was sent:\n\n{press.text}\n", kind="reply",
                   key=(sub.message_id, "press", str(press.seq)), in_reply_to=sub.message_id)

def queue_reports(room: Mailroom, sub: Submission, committed: Replay, archive: ReportArchive,
              reply: TurnReports) -> None:
    """Archive the turn report of the committed state (once per log number) and queue
    each recipient's copy as their MAIL setting asks (:func:`pbem.application.mailing.
    copies`); a copy covers what happened since that recipient's last full report; the
    sender's starts with ``reply.echo`` (only that and where the game stands, when their
    setting asks for no report now)."""
    info = committed.info
    seq = committed.last_seq
    entries = archive.entries()
    existing = next((e for e in entries if e.seq == seq), None)
    before = [e for e in entries if existing is None or e.number < existing.number]
    label = committed.game.round_label()
    round_done = before[-1].round if before and before[-1].round and before[-1].round != label else None
    number = existing.number if existing is not None else (before[-1].number + 1 if before else 1)
    recipients = []
    for to in info.recipients():
        seat = info.seat_for(to)
        recipients.append((to, seat.name if seat else None, info.mail_setting(seat.name if seat else None)))
    actors = [] if info.paused or info.ended else committed.game.current_actors()
    asked = tuple(d.owner for d in open_deals(committed) if d.owner)
    mailed = copies(recipients, game_id=info.game_id, label=label, number=number, actors=actors,
                    sender=sub.sender, orders=reply.orders, round_done=round_done, asked=asked)
    since = before[-1].seq if before else 0
    rendered: dict[tuple[str | None, int, int], str] = {}
    if existing is None:
        neutral = turn_report(committed, room.texts, since=since, number=number, recipient=None, width=132)
        rendered[(None, 132, since)] = neutral
        existing = archive.add(seq, neutral, label, tuple(c.to.lower() for c in mailed if c.whole))
    wanted = room.settings.pictures and any(c.whole and info.pictures_for(c.seat) for c in mailed)
    pictures = report_pictures(lambda: committed, existing.path, existing.number) if wanted else ()
    for copy in mailed:
        body = ""
        if copy.whole:
            mine = archive.last_sent(copy.to, existing.number)
            key = (copy.seat, info.width_for(copy.seat), mine)
            if key not in rendered:  # the GM's copy at 132 columns is the archived one
                rendered[key] = turn_report(committed, room.texts, since=mine, number=number,
                                            recipient=copy.seat, width=key[1])
            body = rendered[key]
        else:
            body = (f"Now: {label}. Next to act: {committed.game.waiting_for()}\n"
                    "Send REPORT for the full report (MAIL EVERY to be mailed every one).\n")
        own = copy.to.lower() == sub.sender.lower()
        if own and reply.echo:
            body = reply.echo + body
        room.queue(to=copy.to, subject=copy.subject, body=body, kind="report",
                   key=(sub.message_id, "report", str(seq)), in_reply_to=sub.message_id if own else None,
                   images=pictures if copy.whole and info.pictures_for(copy.seat) else ())  # drawn only if wanted
