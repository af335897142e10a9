"""``pbem demo --record`` on every recorded game of the fixtures: every mail goes through the
inbox and is accepted, in a game with the record's options, GM rulings mailed by the GM.

A whole record by mail takes from half a minute to six minutes (each mail is a pass of the
server, reports and all), so one record is played whole: 34110, with the GM's CONNECT
ruling and the record's end; the others play their first mails (``--mails``), which in
1825 already needs the record's options (Unit 1 with R1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.cli import main
from pbem.demo import script_from_record
from pbem.games import open_log
from pbem.importers.e18xx import load_record, record_variants
from tests.records import record_path
from tests.test_import_records import RECORDS

PREFIX = 20
"""Mails played from each record but the one played whole."""


def _demo(tmp_path: Path, path: Path, *extra: str) -> str:
    result = CliRunner().invoke(main, ["demo", "--data", str(tmp_path / "demo"), "--record", str(path), "--no-pictures", *extra])
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize(("title", "name"), [r for r in RECORDS if r[1] != "34110.json"])
def test_demo_plays_the_first_mails_of_every_record_in_a_game_with_its_options(
        tmp_path: Path, title: str, name: str) -> None:
    path = record_path(title, name)
    out = _demo(tmp_path, path, "--mails", str(PREFIX))
    assert f"Played {PREFIX} order mails through the inbox" in out
    assert "Stopped before" not in out
    genesis = open_log(tmp_path / "demo", f"demo-{title}").records[0].data()
    assert tuple(genesis["variants"]) == record_variants(load_record(path))


def test_the_record_options_reach_the_demo_game() -> None:
    script = script_from_record(record_path("1825", "1825_game_end_bank.json"), limit=1)
    assert {"unit_1", "r1"} <= set(script["variants"])
    script = script_from_record(record_path("1830", "26855.json"), limit=1)
    assert "multiple_brown_from_ipo" in script["variants"]


def test_demo_plays_a_whole_record_with_a_gm_ruling_and_its_end(tmp_path: Path) -> None:
    path = record_path("1870", "34110.json")
    script = script_from_record(path)
    rulings = [m for m in script["mails"] if m["from"] == "GM"]
    assert rulings[0]["orders"] == ["ACT AS Player 1 CONNECT MP"]
    assert rulings[-1] == {"from": "GM", "orders": ["END GAME"]} and script["mails"][-1] == rulings[-1]
    assert script["stopped"] == ""
    out = _demo(tmp_path, path)
    assert f"Played {len(script['mails'])} order mails through the inbox" in out
    assert "Stopped before" not in out
    records = open_log(tmp_path / "demo", "demo-1870").records
    assert any(r.kind_name == "action" and r.data()["type"] == "grant_connection" for r in records)
    assert records[-1].kind_name == "gm"
