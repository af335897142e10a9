"""The action log: one append-only JSON Lines file per game, hash-chained, the truth of the game.

Each line is one record::

    {"seq": 7, "time": "2026-11-30T01:02:03Z", "kind": "action", "actor": "Player 1",
     "by": "alice@example.org", "source": "<id@host>", "batch_end": true,
     "data": {"type": "bid", "company": "CA", "price": 165},
     "prev": "<hash of record 6>", "hash": "<sha256 of this record without 'hash'>"}

``kind`` is ``game`` (record 0: title, variants, seats, GM), ``action`` (a game action; the
GM acting for a seat sets ``by`` to the GM's address), ``undo`` (``data.to_seq``: the actions
from that record on are taken back), ``gm`` (``data.command``: ``replace``, ``pause``,
``resume``, ``end``, ``broadcast``, ``deadline``), or ``setting`` (``data.setting``:
``width``, with ``seat`` and ``value``: a seat's report width). Nothing is ever rewritten: undo is a record of its own.

All records of one submission are written with one ``write`` and one ``fsync``; the last of
them carries ``batch_end``. A crash can only tear the tail of the file: bytes after the last
newline, and whole records after the last ``batch_end`` (never acknowledged). Opening checks
the whole hash chain on the JSON as read, then parses each record once into its typed form
(:mod:`pbem.log_records`); anything else that does not chain is an edit and raises
:class:`LogIntegrityError`. The torn tail is left out of the records read, and cut off the
file (kept in ``log.torn``) only by ``ActionLog.open(path, repair=True)``, which the server
uses before it appends; a log opened without repair is never modified and cannot be appended
to while it has a torn tail. A ``head.json`` beside the log holds the last record's ``seq``
and ``hash``, so a truncated log is detected on open and by :func:`verify`.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable

from pbem.durable import append_durably, write_atomic
from pbem.log_records import GameRecord, LogRecord, parse_record

GENESIS_PREV = "0" * 64


class LogIntegrityError(Exception):
    """The log file was edited, reordered or truncated (message says where)."""


def _read_head(head_path: Path) -> dict[str, Any] | None:
    """The content of ``head.json``, or None if there is none.

    :raises LogIntegrityError: it is not a JSON object.
    """
    try:
        head = json.loads(head_path.read_bytes())
    except FileNotFoundError:
        return None
    except ValueError:
        raise LogIntegrityError(f"{head_path} is not valid JSON (damaged); see pbem verify") from None
    if not isinstance(head, dict):
        raise LogIntegrityError(f"{head_path} is not a JSON object (damaged); see pbem verify")
    return head


def _chain_fault(record: Any, seq: int, prev: str) -> str | None:
    """Why ``record`` is not record ``seq`` chained to ``prev``, or None when it is."""
    if not isinstance(record, dict):
        return f"record {seq}: not a JSON object (edited)"
    if record.get("seq") != seq:
        return f"record {seq}: sequence number is {record.get('seq')!r} (reordered or removed)"
    if record.get("prev") != prev:
        return f"record {seq}: does not chain to record {seq - 1} (reordered or edited)"
    if record_hash(record) != record.get("hash"):
        return f"record {seq}: content does not match its hash (edited)"
    return None


def _canonical(record: dict[str, Any]) -> bytes:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def record_hash(record: dict[str, Any]) -> str:
    """sha256 hex of the record's canonical JSON without its ``hash`` field."""
    return hashlib.sha256(_canonical({k: v for k, v in record.items() if k != "hash"})).hexdigest()


def now_iso(seconds: float) -> str:
    """The time ``seconds`` (since the epoch, from the log's clock) in UTC as
    ``YYYY-MM-DDTHH:MM:SSZ``."""
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True)
class NewRecord:
    """A record to append given by its JSON fields (an importer's): everything but ``seq``,
    ``time``, ``prev``, ``hash``, ``batch_end``. The application appends typed drafts
    (:mod:`pbem.log_records`) instead."""

    kind: str
    actor: str
    data: dict[str, Any]
    by: str = ""
    source: str | None = None


def _typed(raw: dict[str, Any], where: Path) -> LogRecord:
    try:
        return parse_record(raw)
    except ValueError as exc:
        raise LogIntegrityError(f"{where}: {exc}") from None


@dataclass
class ActionLog:
    """The log of one game at ``path`` (``<game dir>/log.jsonl``)."""

    path: Path
    records: list[LogRecord] = field(default_factory=list)
    _torn: bool = field(default=False, repr=False)
    clock: Callable[[], float] = field(default=time.time, repr=False, compare=False)
    """The time records are stamped with (seconds since the epoch; the server's clock)."""

    @property
    def head_path(self) -> Path:
        """``head.json`` beside the log."""
        return self.path.with_name("head.json")

    @classmethod
    def create(cls, path: Path, genesis: dict[str, Any], *, actor: str = "GM", by: str = "",
               clock: Callable[[], float] = time.time) -> ActionLog:
        """A new log whose record 0 is the ``game`` record with ``genesis`` as data.

        :raises FileExistsError: the log exists already.
        """
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            raise FileExistsError(path)
        log = cls(path, clock=clock)
        log.append([NewRecord(kind="game", actor=actor, by=by, data=genesis)])
        return log

    @classmethod
    def open(cls, path: Path, *, repair: bool = False, clock: Callable[[], float] = time.time) -> ActionLog:
        """Read the log and check its whole hash chain (see module doc).

        The records read end at the last ``batch_end``. A torn tail after it (bytes after the
        last newline, records that chain correctly but no ``batch_end``) is cut off the file
        and kept in ``log.torn`` when ``repair`` is true; without ``repair`` the file is left
        as it is (and :meth:`append` refuses until it is opened with ``repair``).

        :raises LogIntegrityError: a whole line (one ending in a newline) is not valid JSON, a
            record does not chain (edited, reordered, removed; also in the tail), no complete
            record, ``head.json`` is damaged, or the log is shorter than the last record
            written (``head.json``).
        :raises FileNotFoundError: no such log.
        """
        raw = path.read_bytes()
        records: list[LogRecord] = []
        committed = 0  # records up to the last batch_end
        good_end = 0
        offset = 0
        prev = GENESIS_PREV
        for i, line in enumerate(raw.split(b"\n")[:-1]):  # the piece after the last newline is torn
            offset += len(line) + 1
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                raise LogIntegrityError(f"{path}: line {i + 1} is not valid JSON (edited); see pbem verify") from None
            fault = _chain_fault(record, len(records), prev)
            if fault is not None:
                raise LogIntegrityError(f"{path}: {fault}; see pbem verify")
            prev = record["hash"]
            records.append(_typed(record, path))
            if record.get("batch_end"):
                committed = len(records)
                good_end = offset
        if committed == 0:
            raise LogIntegrityError(f"{path}: the log has no complete record")
        log = cls(path, records[:committed], _torn=good_end < len(raw), clock=clock)
        log._check_head()  # before anything is cut
        if log._torn and repair:
            append_durably(path.with_suffix(".torn"), raw[good_end:])
            with path.open("r+b") as fh:
                fh.truncate(good_end)
                fh.flush()
                os.fsync(fh.fileno())
            log._torn = False
        return log

    def _check_head(self) -> None:
        """The log must reach the record ``head.json`` names (it never shrinks).

        :raises LogIntegrityError: the log was truncated or rewritten, or ``head.json`` is damaged.
        """
        head = _read_head(self.head_path)
        if head is None:
            return
        seq = head.get("seq")
        if not isinstance(seq, int) or seq >= len(self.records):
            raise LogIntegrityError(
                f"{self.path}: the log ends at record {len(self.records) - 1} but was written up to "
                f"record {seq} (truncated); see pbem verify"
            )
        if self.records[seq].hash != head.get("hash"):
            raise LogIntegrityError(f"{self.path}: record {seq} differs from the one last written (rewritten)")

    @property
    def next_seq(self) -> int:
        """The ``seq`` the next record appended gets."""
        return self.records[-1].seq + 1 if self.records else 0

    def append(self, new: Iterable[NewRecord | LogRecord]) -> list[LogRecord]:
        """Append records as one batch: one write, flush, fsync; then update the head.

        ``new`` holds typed drafts (:mod:`pbem.log_records`, whose ``seq`` must be the one
        they get) or :class:`NewRecord`. Returns the records as written (with ``seq``,
        ``hash`` ...).

        :raises LogIntegrityError: the log was opened without ``repair`` and has a torn tail.
        :raises ValueError: a draft's ``seq`` is not the one it would be written with.
        """
        if self._torn:
            raise LogIntegrityError(f"{self.path}: has a torn tail; open it with repair=True before appending")
        raws: list[dict[str, Any]] = []
        prev = self.records[-1].hash if self.records else GENESIS_PREV
        seq = self.next_seq
        items = list(new)
        if not items:
            return []
        for i, item in enumerate(items):
            if isinstance(item, LogRecord):
                if item.seq != seq:
                    raise ValueError(f"a draft record numbered {item.seq} would be written as record {seq}")
                kind, actor, by, source, data = item.kind_name, item.actor, item.by, item.source, item.data()
            else:
                kind, actor, by, source, data = item.kind, item.actor, item.by, item.source, item.data
            record: dict[str, Any] = {
                "seq": seq,
                "time": now_iso(self.clock()),
                "kind": kind,
                "actor": actor,
                "by": by,
                "source": source,
                "data": data,
                "prev": prev,
            }
            if i == len(items) - 1:
                record["batch_end"] = True
            record["hash"] = record_hash(record)
            raws.append(record)
            prev = record["hash"]
            seq += 1
        append_durably(self.path, b"".join(_canonical(r) + b"\n" for r in raws))
        batch = [parse_record(r) for r in raws]
        self.records.extend(batch)
        self._write_head()
        return batch

    def _write_head(self) -> None:
        last = self.records[-1]
        write_atomic(self.head_path, json.dumps({"seq": last.seq, "hash": last.hash}).encode())

    def sources(self) -> set[str]:
        """Message-IDs that have records in this log (the exactly-once index)."""
        return {r.source for r in self.records if r.source}

    def sources_by(self) -> set[tuple[str, str]]:
        """``(Message-ID, sender)`` (sender lower case: the record's ``by``) of every mail
        with records in this log: the exactly-once key of :mod:`pbem.handled`."""
        return {(r.source, r.by.lower()) for r in self.records if r.source}

    @property
    def genesis(self) -> dict[str, Any]:
        """The data of record 0 (title, variants, seats, GM).

        :raises LogIntegrityError: record 0 is not a game record.
        """
        first = self.records[0]
        if not isinstance(first, GameRecord):
            raise LogIntegrityError(f"{self.path}: record 0 is not a game record")
        return dict(first.genesis)


def verify(path: Path) -> list[LogRecord]:
    """Check the log at ``path``: every hash, every ``prev`` link, contiguous ``seq`` from 0,
    and that the log reaches the ``head.json`` record. Returns the records, typed
    (:func:`pbem.log_records.parse_record`).

    :raises LogIntegrityError: with the first fault found.
    """
    records = []
    for n, line in enumerate(path.read_bytes().split(b"\n"), start=1):
        if not line.strip():
            continue
        try:
            records.append(json.loads(line))
        except ValueError:
            raise LogIntegrityError(f"line {n} is not valid JSON (edited or torn)") from None
    prev = GENESIS_PREV
    for i, record in enumerate(records):
        fault = _chain_fault(record, i, prev)
        if fault is not None:
            raise LogIntegrityError(fault)
        prev = record["hash"]
    if not records:
        raise LogIntegrityError("the log is empty")
    if not records[-1].get("batch_end"):
        raise LogIntegrityError(f"record {len(records) - 1}: the last batch is incomplete (torn write)")
    head = _read_head(path.with_name("head.json"))
    if head is not None:
        seq = head.get("seq")
        if not isinstance(seq, int) or seq >= len(records):
            raise LogIntegrityError(
                f"the log ends at record {len(records) - 1} but was written up to record {seq} (truncated)"
            )
        if records[seq]["hash"] != head.get("hash"):
            raise LogIntegrityError(f"record {seq} differs from the one last written (rewritten)")
    return [_typed(r, path) for r in records]
