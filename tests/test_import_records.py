"""Importing an 18xx.games record as one of our games: the log keeps the record's undos as
undo records and replays to the recorded result."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.actionlog import verify
from pbem.games import replay
from pbem.importers.e18xx import effective_actions, load_record
from pbem.importers.log_import import create_imported_game, import_record
from pbem.importers.replay import record_keys
from pbem.log_records import GMRecord, UndoRecord
from tests.records import record_path


def test_import_keeps_undos_and_replays_to_the_result(tmp_path: Path) -> None:
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    secrets, imported = create_imported_game(tmp_path, "g1830", record)
    assert set(secrets) == {"Player 1", "Player 2", "Player 3", "GM"}
    records = verify(tmp_path / "games" / "g1830" / "log.jsonl")
    undos = [r for r in records if isinstance(r, UndoRecord)]
    assert len(undos) == imported.undos > 0
    assert all(r.to_seq < r.seq for r in undos)
    rebuilt = replay(records)
    assert rebuilt.game.state.finished and rebuilt.game.state.end_reason == "bank"
    by_name = {p["name"]: str(p["id"]) for p in record["players"]}
    assert {by_name[p]: v for p, v in rebuilt.game.result().items()} == record["result"]


def test_an_undo_then_redo_restores_the_same_actions() -> None:
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    # Cut the record after an undo/redo pair (actions 404-408) and compare with the filter.
    cut = {**record, "actions": [a for a in record["actions"] if a["id"] <= 411]}
    imported = import_record(cut)
    from pbem.importers.e18xx import Renderer, effective_actions

    plain = Renderer(cut)
    for action in effective_actions(cut):
        ours = plain.render(action)
        if ours is not None:
            plain.game.apply(plain.seat(action), ours)
    assert imported.renderer.game.state == plain.game.state


def test_import_cli_creates_a_game_that_verifies(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pbem.cli import main

    config = tmp_path / "pbem.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    path = record_path("1830", "26855.json")
    runner = CliRunner()
    result = runner.invoke(main, ["import-18xx", "--config", str(config), str(path), "--game", "g26855"])
    assert result.exit_code == 0, result.output
    assert "Imported g26855:" in result.output and "finished: bankrupt" in result.output
    assert "Player 4: secret " in result.output
    verified = runner.invoke(main, ["verify", "--config", str(config), "g26855"])
    assert verified.exit_code == 0, verified.output
    again = runner.invoke(main, ["import-18xx", "--config", str(config), str(path), "--game", "g26855"])
    assert again.exit_code != 0 and "already exists" in again.output


RECORDS = [("1830", "1830_game_end_bank.json"), ("1830", "26855.json"),
           ("1870", "1870_game_end_bank.json"), ("1870", "34110.json"),
           ("1870", "mississippi_river_madness_1644327587.json"),
           ("1870", "price_protect_allowed_40469.json"),
           ("1870", "price_protect_over_cert_limit_fails_40469.json"),
           ("1825", "1825_game_end_bank.json")]
"""Every record ``pbem replay-18xx`` replays (tests/test_replay_records.py): each imports."""


@pytest.mark.parametrize(("title", "name"), RECORDS)
def test_every_replayed_record_imports_as_a_game_that_verifies(tmp_path: Path, title: str, name: str) -> None:
    from click.testing import CliRunner

    from pbem.cli import main

    config = tmp_path / "pbem.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    path = record_path(title, name)
    result = CliRunner().invoke(main, ["import-18xx", "--config", str(config), str(path), "--game", "g"])
    assert result.exit_code == 0, result.output
    records = verify(tmp_path / "data" / "games" / "g" / "log.jsonl")
    rebuilt = replay(records)
    record = load_record(path)
    in_force = {str(a["id"]) for a in effective_actions(record)}
    left_out = re.findall(r"left out record action ([0-9.]+):", result.output)
    assert not set(left_out) & in_force  # only what the record takes back may be left out
    if record["game_end_reason"] == "manually_ended":  # the GM's END GAME, as the players ended it
        last = rebuilt.gm[-1]
        assert rebuilt.info.ended and isinstance(last, GMRecord) and last.command == "end"
    else:
        assert rebuilt.game.state.finished and rebuilt.game.state.end_reason == record["game_end_reason"]
    keys = record_keys(record)
    assert {keys[p]: v for p, v in rebuilt.game.result().items()} == record["result"]
