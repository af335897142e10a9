"""The whole turn report at several points of a recorded 1830 game, compared with golden
files (regenerate them with PBEM_UPDATE_GOLDEN=1 after a deliberate change, and read the
diff), plus the limits every report keeps: ASCII only, no line wider than allowed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.actionlog import verify
from pbem.games import replay
from pbem.importers.e18xx import load_record
from pbem.importers.log_import import create_imported_game
from pbem.reports import render, report_context
from tests.records import record_path

GOLDEN = Path(__file__).parent / "golden"
POINTS = {"start": 27, "first-or": 56, "late": 500, "end": None}


def report_at(tmp_path: Path, point: str, *, recipient: str | None = "Player 1", width: int = 132) -> str:
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    last = POINTS[point]
    if last is not None:
        record = {**record, "actions": [a for a in record["actions"] if a["id"] <= last]}
    create_imported_game(tmp_path, "golden", record)
    rebuilt = replay(verify(tmp_path / "games" / "golden" / "log.jsonl"))
    context = report_context(rebuilt, since_seq=max(0, rebuilt.last_seq - 6), number=7,
                             recipient=recipient, width=width)
    return render("report.txt.j2", context)


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PBEM_UPDATE_GOLDEN"):
        path.write_text(text, encoding="ascii")
    assert path.exists(), f"missing golden file {path}; run with PBEM_UPDATE_GOLDEN=1"
    assert text == path.read_text(encoding="ascii")


@pytest.mark.parametrize("point", list(POINTS))
def test_report_golden(tmp_path: Path, point: str) -> None:
    check_golden(f"report-1830-{point}.txt", report_at(tmp_path, point))


def test_report_golden_for_the_player_to_act_on_a_phone(tmp_path: Path) -> None:
    """The operating round's first turn (B&O to lay track) as Player 3, whose turn it is,
    reads it at 80 columns; and the GM's copy of the same position."""
    check_golden("report-1830-or-to-act-80.txt", report_at(tmp_path / "p3", "start", recipient="Player 3", width=80))
    check_golden("report-1830-or-gm.txt", report_at(tmp_path / "gm", "start", recipient=None))


@pytest.mark.parametrize("point", list(POINTS))
def test_reports_are_ascii_and_fit(tmp_path: Path, point: str) -> None:
    for width in (132, 80):
        text = report_at(tmp_path / str(width), point, width=width)
        for n, line in enumerate(text.splitlines(), 1):
            assert line.isascii(), f"line {n} is not ASCII: {line!r}"
            assert len(line) <= width, f"line {n} has {len(line)} > {width} columns: {line!r}"


def test_report_says_what_the_reader_may_do(tmp_path: Path) -> None:
    text = report_at(tmp_path, "first-or", recipient=None)
    assert "\nTO ACT: PLAYER 1\n  It is Player 1's turn." in text and "FOR " not in text
    for section in ("SINCE THE LAST REPORT", "MAP", "STOCK MARKET", "CORPORATIONS", "PLAYERS",
                    "PRIVATE COMPANIES", "TRAINS AND PHASE"):
        assert f"\n{section}\n" in text


def test_game_end_report_has_final_scores(tmp_path: Path) -> None:
    text = report_at(tmp_path, "end")
    assert "THE GAME IS OVER." in text
    assert "Final scores: Player 1 $12025, Player 2 $13048, Player 3 $12109" in text
    assert "Next to act" not in text


def test_a_whole_recorded_game_through_the_mail_loop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every action of the recorded game is mailed to the Maildir inbox, handled by the
    poller, and the last turn report (mailed to every player) has the recorded scores.

    What this checks is what the mail loop does with 606 mails, not what survives a power
    cut: the files are written as always, but not forced to the disk (``os.fsync``, about
    a third of the time here). Durability has tests of its own (the crash tests of
    test_server_faults.py and test_end_to_end_imap.py, which keep the real ``fsync``)."""
    from click.testing import CliRunner

    from pbem.cli import main

    synced: list[int] = []
    monkeypatch.setattr(os, "fsync", lambda fd: synced.append(fd))

    path = record_path("1830", "1830_game_end_bank.json")
    result = CliRunner().invoke(main, ["demo", "--data", str(tmp_path / "demo"), "--record", str(path), "--no-pictures"])
    assert result.exit_code == 0, result.output
    assert "Played 606 order mails through the inbox" in result.output
    assert "Final scores: Player 1 $12025, Player 2 $13048, Player 3 $12109" in result.output
    delivered = tmp_path / "demo" / "mail" / "delivered" / "gm@demo.invalid" / "new"
    assert len(list(delivered.iterdir())) == 607, "the GM (MAIL EVERY): a welcome and one report per mail"
    assert synced, "the mail loop still asks for every write to be forced to disk"
