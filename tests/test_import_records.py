"""Importing an 18xx.games record as one of our games: the log keeps the record's undos as
undo records and replays to the recorded result."""

from __future__ import annotations

from pathlib import Path

from pbem.actionlog import verify
from pbem.games import replay
from pbem.importers.e18xx import load_record
from pbem.importers.log_import import create_imported_game, import_record
from pbem.log_records import UndoRecord
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
