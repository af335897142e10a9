"""The public copy of what the archive shows: reports and log lines with nothing a seat keeps
to itself.

The archived report is the GM's copy (:func:`pbem.report_mail.queue_reports` archives the
report rendered for no recipient), which has no seat's own section; :func:`public_report`
still drops any such section (proxy bids, standing orders, a deal offered to "you"), every
``PASSWORD`` line and mail address, so an archive written by another version shows none.
The log is rendered kind by kind (:func:`public_log`): orders as ``pbem log`` writes them,
standing orders, proxy bids and corporations' standing orders by what they did without
their entries or limits, table talk without its text, never a secret's hash or an address.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from pbem.games import describe_record
from pbem.log_records import (AutoRecord, DealRecord, GameRecord, GMRecord, LogRecord, MailRecord, OrderRecord,
                              PlanRecord, PressRecord, ProxyRecord, TimingRecord, UndoRecord, WidthRecord)
from pbem.order_codecs import Vocabulary

WITHHELD = "(address withheld)"

_ADDRESS = re.compile(r"<?[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*>?")
_PASSWORD_LINE = re.compile(r"(?i)^\s*(password|pw)\b")
_PASSWORD_WORD = re.compile(r"(?i)\b(password|pw)(\s*[:=]\s*|\s+)\S+")
_PRIVATE_OPENINGS = ("Your proxy bids", "Your standing orders", "Your corporations' standing orders", "FOR ")
_OFFERED_TO_YOU = re.compile(r"^\s*DEAL \d+: .* offers you a deal")


def public_text(text: str) -> str:
    """``text`` without ``PASSWORD`` lines, the word after a password, or mail addresses."""
    lines = [line for line in text.split("\n") if not _PASSWORD_LINE.match(line)]
    return _ADDRESS.sub(WITHHELD, _PASSWORD_WORD.sub(r"\1\2********", "\n".join(lines)))


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def public_report(text: str) -> str:
    """A report as anyone may read it: a seat's own lines (each with the lines wrapped
    under it) left out, then :func:`public_text`."""
    out: list[str] = []
    skipping: int | None = None  # the indent of the private line being skipped
    for line in text.split("\n"):
        if skipping is not None and line.strip() and _indent(line) > skipping:
            continue
        skipping = None
        stripped = line.strip()
        if stripped.startswith(_PRIVATE_OPENINGS) or _OFFERED_TO_YOU.match(line):
            skipping = _indent(line)
            continue
        out.append(line)
    return public_text("\n".join(out))


@dataclass(frozen=True)
class LogLine:
    """One log record as the archive lists it: ``by_gm`` when the GM acted for the seat,
    ``undone`` when an undo took it back."""

    seq: int
    time: str
    actor: str
    text: str
    by_gm: bool = False
    undone: bool = False


def _plan(record: PlanRecord) -> str:
    from pbem.reports import plan_text

    return plan_text(record) or f"standing order {record.index + 1} gives the next order"


def _proxy(record: ProxyRecord) -> str:
    if record.status == "set":
        return "sends a proxy bid (its limit is not shown)"
    if record.status == "cancel":
        return "cancels the proxy bids"
    return f"a proxy bid answers on {record.company}"


def _auto(record: AutoRecord) -> str:
    if record.status == "used":
        return f"{record.corporation}'s standing orders give the next order"
    if record.dividend:
        return f"sends standing orders for {record.corporation}"
    return f"ends {record.corporation}'s standing orders"


def record_text(record: LogRecord, vocab: Vocabulary) -> str:
    """What ``record`` did, in words anyone may read (see the module's docstring)."""
    from pbem.reports import deal_text, gm_text

    if isinstance(record, (OrderRecord, UndoRecord, GameRecord, WidthRecord, MailRecord, TimingRecord)):
        text = describe_record(record, vocab)
    elif isinstance(record, GMRecord):
        text = gm_text(record, vocab)
    elif isinstance(record, PressRecord):
        text = f"table talk to {record.to or 'all'} (not shown)"
    elif isinstance(record, DealRecord):
        text = deal_text(record, vocab)
    elif isinstance(record, PlanRecord):
        text = _plan(record)
    elif isinstance(record, ProxyRecord):
        text = _proxy(record)
    elif isinstance(record, AutoRecord):
        text = _auto(record)
    else:  # an absence's dates, or a kind this version does not know: not shown
        text = f"a {record.kind_name} record (not shown)"
    return public_text(text)


def public_log(records: Iterable[LogRecord], vocab: Vocabulary, *, gm_email: str,
               taken_back: Iterable[int] = ()) -> list[LogLine]:
    """The log as the archive lists it (:func:`record_text`); ``gm_email`` tells the GM's
    orders for a seat, ``taken_back`` the log numbers undone."""
    undone = set(taken_back)
    return [LogLine(r.seq, r.time, r.actor, record_text(r, vocab),
                    by_gm=bool(r.by) and r.actor != "GM" and r.by.lower() == gm_email.lower(), undone=r.seq in undone)
            for r in records]
