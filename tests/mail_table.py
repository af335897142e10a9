"""A game as the server keeps it, played by mail in a test: its log, its replayed state and
the turn reports written after each mail (shared by the by-mail tests of 1870 and 1829)."""

from __future__ import annotations

import itertools

from pbem.application.mail import AppConfig, TurnReports, handle_mail
from pbem.application.state import Replay, replay
from pbem.application.texts import TextSettings, turn_report
from pbem.commands import is_command_line
from pbem.games import genesis_data, hash_secret
from pbem.log_records import GameRecord, LogRecord
from pbem.mail.types import BodyLine, Submission


class Table:
    """Game ``gid`` of ``title`` with ``variants``, one seat a name in ``names`` (address
    ``<name>@example.org``, secret ``<name>pw``)."""

    def __init__(self, gid: str, title: str, variants: tuple[str, ...], names: list[str]) -> None:
        self.gid = gid
        self.seats = [(name, f"{name.lower()}@example.org") for name in names]
        self.secrets = {name: f"{name.lower()}pw" for name in names}
        data = genesis_data(gid, title, variants, self.seats, "gm@example.org", self.secrets, "gmpw")
        self.records: list[LogRecord] = [GameRecord(seq=0, genesis=data)]
        self.state: Replay = replay(self.records)
        counter = itertools.count(1)
        self.config = AppConfig(new_secret=lambda: f"fresh{next(counter)}", hash_secret=hash_secret,
                                route_budget=20_000)
        self.reports: list[str] = []

    def submission(self, seat: str, lines: tuple[str, ...]) -> Submission:
        body = tuple(BodyLine(n, text, is_command_line(text)) for n, text in enumerate(lines, start=1))
        return Submission(f"<m{len(self.records)}.{len(self.reports)}@example.org>", dict(self.seats)[seat], seat,
                          f"[{self.gid}] orders", self.gid, self.secrets[seat], body)

    def submission_as_gm(self, *lines: str) -> Submission:
        """A mail of ``lines`` from the GM (``gm@example.org``, secret ``gmpw``)."""
        body = tuple(BodyLine(n, text, is_command_line(text)) for n, text in enumerate(lines, start=1))
        return Submission(f"<gm{len(self.records)}@example.org>", "gm@example.org", "GM", f"[{self.gid}] ruling",
                          self.gid, "gmpw", body)

    def send(self, seat: str, *lines: str) -> None:
        """A mail of ``lines`` from ``seat``, which must be accepted; the report follows."""
        decision = handle_mail(self.state, self.submission(seat, lines), self.config)
        assert decision.refusal is None, (seat, lines, decision.refusal)
        assert any(isinstance(r, TurnReports) for r in decision.replies)
        self.records += list(decision.records)
        self.state = decision.state
        self.reports.append(turn_report(self.state, TextSettings("pbem@example.org"), since=0,
                                        number=len(self.reports) + 1, recipient=seat, width=80))

    def refused(self, seat: str, *lines: str) -> str:
        """A mail from ``seat`` that must be refused; the refusal's reason. Nothing is kept."""
        before = len(self.records)
        decision = handle_mail(self.state, self.submission(seat, lines), self.config)
        assert decision.refusal is not None and not decision.records
        assert len(self.records) == before
        return str(decision.refusal)

    def play(self, mails: list[tuple[str, ...]]) -> None:
        """Each ``(seat, line, ...)`` sent in turn."""
        for seat, *lines in mails:
            self.send(seat, *lines)
