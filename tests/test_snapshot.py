"""The snapshot beside a game's log (pbem.snapshot): a cache keyed by the log's hash-chain head
and the code version, used only when current, ignored on any doubt; the log stays the truth."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest
from click.testing import CliRunner

import pbem.games
from pbem import snapshot
from pbem.actionlog import ActionLog, NewRecord
from pbem.cli import main
from pbem.games import game_dir, genesis_data, open_log, replay, replay_log, save_snapshot

GID = "snap"
SEATS = [("Player 1", "p1@players.example"), ("Player 2", "p2@players.example"), ("Player 3", "p3@players.example")]
BIDS = [("Player 1", {"type": "bid", "company": "CA", "price": 165}),
        ("Player 2", {"type": "bid", "company": "CA", "price": 170}),
        ("Player 3", {"type": "pass"})]


def new_log(data: Path, game_id: str = GID, actions: list[tuple[str, dict[str, object]]] = BIDS) -> ActionLog:
    secrets = {name: "secret" for name, _ in SEATS}
    genesis = genesis_data(game_id, "1830", (), SEATS, "gm@players.example", secrets, "gmsecret")
    action_log = ActionLog.create(game_dir(data, game_id) / "log.jsonl", genesis)
    for actor, action in actions:
        action_log.append([NewRecord(kind="action", actor=actor, data=action)])
    return action_log


def no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(records: object) -> None:
        raise AssertionError("replayed although the snapshot is current")

    monkeypatch.setattr(pbem.games, "replay", refuse)


def same_game(a: pbem.games.Replay, b: pbem.games.Replay) -> None:
    assert a.game.state == b.game.state
    assert a.events == b.events and a.last_seq == b.last_seq and a.info == b.info
    assert [r.seq for r in a.effective] == [r.seq for r in b.effective]
    assert a.game.waiting_for() == b.game.waiting_for()


def test_a_current_snapshot_stands_in_for_the_replay(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    action_log = new_log(tmp_path)
    assert not snapshot.snapshot_path(action_log.path.parent).exists()
    first = replay_log(action_log)
    assert snapshot.snapshot_path(action_log.path.parent).exists()
    reopened = open_log(tmp_path, GID)
    expected = replay(reopened.records)
    no_replay(monkeypatch)
    again = replay_log(reopened)
    same_game(again, expected)
    # the records come from the log just read, never from the snapshot
    assert all(r is reopened.records[r.seq] for r in again.effective)
    # and the game goes on from it like a replayed one
    assert again.game.legal_actions("Player 1") == first.game.legal_actions("Player 1")


def test_a_snapshot_is_stale_once_the_log_grows(tmp_path: Path) -> None:
    action_log = new_log(tmp_path)
    replay_log(action_log)
    action_log.append([NewRecord(kind="action", actor="Player 1", data={"type": "pass"})])
    assert snapshot.load(action_log.path.parent, GID, action_log.records) is None
    grown = replay_log(action_log)
    same_game(grown, replay(action_log.records))
    assert snapshot.load(action_log.path.parent, GID, action_log.records) is not None  # rewritten


def test_a_snapshot_of_other_code_is_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    action_log = new_log(tmp_path)
    replay_log(action_log)
    monkeypatch.setattr(snapshot, "code_version", lambda: "other code")
    assert snapshot.load(action_log.path.parent, GID, action_log.records) is None


def test_the_code_version_follows_every_source_and_data_file(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    (package / "rules").mkdir(parents=True)
    (package / "a.py").write_text("x = 1\n")
    (package / "rules" / "game.yaml").write_text("bank: 12000\n")
    (package / "notes.txt").write_text("not code\n")
    before = snapshot.code_version(package)
    (package / "notes.txt").write_text("still not code\n")
    assert snapshot.code_version.__wrapped__(package) == before
    (package / "rules" / "game.yaml").write_text("bank: 12001\n")
    after_data = snapshot.code_version.__wrapped__(package)
    assert after_data != before
    (package / "a.py").write_text("x = 2\n")
    assert snapshot.code_version.__wrapped__(package) not in (before, after_data)


def test_a_rewritten_log_of_the_same_length_does_not_match(tmp_path: Path) -> None:
    action_log = new_log(tmp_path)
    replay_log(action_log)
    other = new_log(tmp_path / "other", actions=BIDS[:2] + [("Player 3", {"type": "bid", "company": "CA", "price": 175})])
    assert len(other.records) == len(action_log.records)
    assert snapshot.loads(snapshot.snapshot_path(action_log.path.parent).read_bytes(), GID, other.records) is None


def test_another_games_snapshot_is_not_used(tmp_path: Path) -> None:
    action_log = new_log(tmp_path)
    replay_log(action_log)
    data = snapshot.snapshot_path(action_log.path.parent).read_bytes()
    assert snapshot.loads(data, "another", action_log.records) is None
    assert snapshot.loads(data, GID, action_log.records) is not None


@pytest.mark.parametrize("damage", ["garbage", "truncated", "empty", "directory"])
def test_a_damaged_snapshot_is_ignored_and_replaced(tmp_path: Path, damage: str) -> None:
    action_log = new_log(tmp_path)
    replay_log(action_log)
    path = snapshot.snapshot_path(action_log.path.parent)
    good = path.read_bytes()
    if damage == "garbage":
        path.write_bytes(b"\x80\x05not a pickle at all")
    elif damage == "truncated":
        path.write_bytes(good[: len(good) // 2])
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        path.unlink()
        path.mkdir()
    rebuilt = replay_log(action_log)
    same_game(rebuilt, replay(action_log.records))
    if damage != "directory":
        assert path.read_bytes() == good  # written again


class _Shell:
    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.system, ("echo pwned > /dev/null",))


def test_a_snapshot_may_build_only_this_packages_classes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    action_log = new_log(tmp_path)
    records = action_log.records
    key = pickle.dumps(snapshot.snapshot_key(GID, records))
    payloads = [pickle.dumps(p) for p in (_Shell(), {"game": _Shell()})]
    called: list[str] = []
    monkeypatch.setattr(os, "system", lambda command: called.append(command))
    for payload in payloads:
        assert snapshot.loads(key + payload, GID, records) is None
    # a function of the package is no class either
    assert snapshot.loads(key + pickle.dumps(pbem.games.new_secret), GID, records) is None
    assert called == []


def test_a_snapshot_cannot_bring_records_of_its_own(tmp_path: Path) -> None:
    action_log = new_log(tmp_path)
    records = action_log.records
    data = snapshot.dumps(GID, records, replay(records))
    assert snapshot.loads(data, GID, records) is not None
    # record references are checked against the log read now
    assert snapshot.loads(data, GID, records[:1] + records[1:]) is not None
    shorter = records[:2]
    key = pickle.dumps(snapshot.snapshot_key(GID, shorter))
    body = snapshot.dumps(GID, records, replay(records))[len(pickle.dumps(snapshot.snapshot_key(GID, records),
                                                                          protocol=pickle.HIGHEST_PROTOCOL)):]
    assert snapshot.loads(key + body, GID, shorter) is None  # names record 3, which this log lacks


def test_a_failed_write_costs_only_the_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    import pbem.durable

    def full(fh: object, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    action_log = new_log(tmp_path)
    monkeypatch.setattr(pbem.durable, "_put", full)
    same_game(replay_log(action_log), replay(action_log.records))
    assert not snapshot.snapshot_path(action_log.path.parent).exists()
    assert [p.name for p in action_log.path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_save_snapshot_keeps_only_a_state_of_the_whole_log(tmp_path: Path) -> None:
    action_log = new_log(tmp_path)
    early = replay(action_log.records[:2])
    assert not save_snapshot(action_log, early)
    assert save_snapshot(action_log, replay(action_log.records))


def _config(tmp_path: Path) -> Path:
    config = tmp_path / "pbem.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    return config


def test_report_reads_the_snapshot_and_verify_replays_from_scratch(tmp_path: Path) -> None:
    config = _config(tmp_path)
    action_log = new_log(tmp_path / "data")
    path = snapshot.snapshot_path(action_log.path.parent)
    cold = CliRunner().invoke(main, ["report", "--config", str(config), GID])
    assert cold.exit_code == 0, cold.output
    assert path.exists()
    warm = CliRunner().invoke(main, ["report", "--config", str(config), GID])
    assert warm.output == cold.output
    # a snapshot that lies (an earlier state under the current key) fools the report, which
    # trusts its key, but never verify, which replays the log itself
    truth = replay(action_log.records)
    lie = replay(action_log.records[:1])
    lie.last_seq = action_log.records[-1].seq
    lie.game.state.bank += 1
    path.write_bytes(snapshot.dumps(GID, action_log.records, lie))
    fooled = CliRunner().invoke(main, ["report", "--config", str(config), GID])
    assert fooled.exit_code == 0 and fooled.output != cold.output
    verified = CliRunner().invoke(main, ["verify", "--config", str(config), GID])
    assert verified.exit_code == 0, verified.output
    assert f"replayed to {truth.game.round_label()}" in verified.output
    assert path.read_bytes() == snapshot.dumps(GID, action_log.records, lie)  # verify neither reads nor writes it


def test_a_late_1870_game_comes_back_whole_from_its_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.importers.e18xx import load_record
    from pbem.importers.log_import import create_imported_game
    from tests.records import record_path

    create_imported_game(tmp_path, "late", load_record(record_path("1870", "34110.json")), "gm@players.example")
    action_log = open_log(tmp_path, "late")
    expected = replay(action_log.records)
    assert snapshot.save(action_log.path.parent, "late", action_log.records, expected)
    no_replay(monkeypatch)
    again = replay_log(open_log(tmp_path, "late"))
    same_game(again, expected)
    assert again.game.state.title_state == expected.game.state.title_state  # 1870's own state
    assert again.title.name == expected.title.name and again.title.extras == expected.title.extras
    players = [s.name for s in again.info.seats]
    assert [again.game.legal_actions(p) for p in players] == [expected.game.legal_actions(p) for p in players]


def test_an_imported_game_keeps_its_snapshot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.records import record_path

    config = _config(tmp_path)
    done = CliRunner().invoke(main, ["import-18xx", "--config", str(config),
                                     str(record_path("1870", "34110.json")), "--game", "late"])
    assert done.exit_code == 0, done.output
    action_log = open_log(tmp_path / "data", "late")
    kept = snapshot.load(action_log.path.parent, "late", action_log.records)
    assert kept is not None
    same_game(kept, replay(action_log.records))
