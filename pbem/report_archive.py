"""The numbered turn reports of a game, kept for good (``<game dir>/reports/``): the text of
each, the log number it covers, the round it shows, when it was archived, and which
recipients were mailed it whole (their next report's "since" starts there)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from pbem.durable import append_durably, write_atomic


@dataclass(frozen=True)
class ArchivedReport:
    """One archived report: ``number`` from 1, the log ``seq`` it covers, its file."""

    number: int
    seq: int
    path: Path
    round: str = ""
    time: str = ""
    sent_to: tuple[str, ...] | None = None
    """The addresses mailed this report whole (lower case); None: every recipient (an
    archive from before the players' MAIL settings)."""


class ReportArchive:
    """The numbered reports of one game in ``<game dir>/reports/`` (never deleted)."""

    def __init__(self, folder: Path, clock: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.clock = clock  # when a report is archived (seconds since the epoch)

    def _index_path(self) -> Path:
        return self.folder / "index.jsonl"

    def entries(self) -> list[ArchivedReport]:
        """Every archived report, oldest first."""
        path = self._index_path()
        if not path.exists():
            return []
        out = []
        for line in path.read_text().splitlines():
            if line.strip():
                d = json.loads(line)
                sent = d.get("to")
                out.append(ArchivedReport(d["number"], d["seq"], self.folder / d["file"],
                                          d.get("round", ""), d.get("time", ""),
                                          tuple(sent) if sent is not None else None))
        return out

    def latest(self) -> ArchivedReport | None:
        """The newest report, or None."""
        entries = self.entries()
        return entries[-1] if entries else None

    def for_seq(self, seq: int) -> ArchivedReport | None:
        """The report that covers log ``seq`` exactly, if one was archived."""
        return next((e for e in self.entries() if e.seq == seq), None)

    def get(self, number: int) -> ArchivedReport | None:
        """Report ``number``, or None."""
        return next((e for e in self.entries() if e.number == number), None)

    def add(self, seq: int, text: str, round_label: str = "",
            sent_to: tuple[str, ...] | None = None) -> ArchivedReport:
        """Archive ``text`` as the report for log ``seq`` (idempotent per seq); the index
        also keeps the round it shows, when it was archived and whom it is mailed whole."""
        existing = self.for_seq(seq)
        if existing is not None:
            return existing
        self.folder.mkdir(parents=True, exist_ok=True)
        latest = self.latest()
        number = latest.number + 1 if latest else 1
        name = f"report-{number:04d}.txt"
        path = self.folder / name
        write_atomic(path, text.encode("ascii"))
        stamp = datetime.fromtimestamp(self.clock(), timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        entry: dict[str, object] = {"number": number, "seq": seq, "file": name, "round": round_label, "time": stamp}
        if sent_to is not None:
            entry["to"] = list(sent_to)
        append_durably(self._index_path(), (json.dumps(entry) + "\n").encode())
        return ArchivedReport(number, seq, path, round_label, stamp, sent_to)

    def last_sent(self, address: str, before: int) -> int:
        """The log number of the last report before report ``before`` mailed whole to
        ``address`` (0: none)."""
        address = address.lower()
        mailed = [e.seq for e in self.entries() if e.number < before and (e.sent_to is None or address in e.sent_to)]
        return mailed[-1] if mailed else 0
