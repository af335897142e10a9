"""The append-only, hash-chained action log: writing, torn tails, and what verify catches."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pbem.actionlog import ActionLog, LogIntegrityError, NewRecord, record_hash, verify


def make_log(tmp_path: Path, batches: int = 3) -> ActionLog:
    log = ActionLog.create(tmp_path / "g" / "log.jsonl", {"game_id": "g", "title": "1830"})
    for i in range(batches):
        log.append([NewRecord("action", "Player 1", {"type": "pass"}, by="a@b.c", source=f"<m{i}@x>")])
    return log


def test_records_chain_and_verify(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    records = verify(log.path)
    assert [r.seq for r in records] == [0, 1, 2, 3]
    assert all(r.prev == p.hash for p, r in zip(records, records[1:]))
    assert log.sources() == {"<m0@x>", "<m1@x>", "<m2@x>"}
    head = json.loads(log.head_path.read_text())
    assert head == {"seq": 3, "hash": records[-1].hash}


def test_a_batch_is_one_write_with_batch_end_on_the_last(tmp_path: Path) -> None:
    log = make_log(tmp_path, 0)
    written = log.append([NewRecord("action", "P", {"type": "pass"}), NewRecord("action", "P", {"type": "pass"})])
    assert [r.batch_end for r in written] == [False, True]


def test_verify_detects_an_edit(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    lines = log.path.read_text().splitlines()
    lines[2] = lines[2].replace('"Player 1"', '"Player 2"')
    log.path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogIntegrityError, match="record 2: content does not match its hash"):
        verify(log.path)


def test_verify_detects_reordering(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    lines = log.path.read_text().splitlines()
    lines[1], lines[2] = lines[2], lines[1]
    log.path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogIntegrityError, match="record 1"):
        verify(log.path)


def test_verify_detects_truncation(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    lines = log.path.read_text().splitlines()
    log.path.write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(LogIntegrityError, match="truncated"):
        verify(log.path)


def test_open_cuts_a_torn_tail_and_keeps_it_aside(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    with log.path.open("ab") as fh:
        fh.write(b'{"seq": 4, "kind": "act')
    reopened = ActionLog.open(log.path, repair=True)
    assert len(reopened.records) == 4
    assert verify(log.path)[-1].seq == 3
    assert log.path.with_suffix(".torn").read_bytes() == b'{"seq": 4, "kind": "act'
    reopened.append([NewRecord("action", "Player 1", {"type": "pass"})])
    assert verify(log.path)[-1].seq == 4


def test_open_drops_an_incomplete_batch(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    head_before = log.head_path.read_bytes()
    written = log.append([NewRecord("action", "P", {"type": "pass"}), NewRecord("action", "P", {"type": "pass"})])
    lines = log.path.read_bytes().split(b"\n")
    # The crash came after the first record of the batch reached the disk (so before the
    # batch's fsync returned, and before head.json was updated).
    log.path.write_bytes(b"\n".join(lines[:-2]) + b"\n")
    log.head_path.write_bytes(head_before)
    reopened = ActionLog.open(log.path, repair=True)
    assert [r.seq for r in reopened.records] == [0, 1, 2, 3]
    assert written[0].seq == 4


def test_create_refuses_to_overwrite(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    with pytest.raises(FileExistsError):
        ActionLog.create(log.path, {})


def test_open_refuses_a_log_shorter_than_its_head(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    lines = log.path.read_bytes().splitlines(keepends=True)
    log.path.write_bytes(b"".join(lines[:-1]))
    with pytest.raises(LogIntegrityError, match="truncated"):
        ActionLog.open(log.path)
    with pytest.raises(LogIntegrityError, match="truncated"):
        verify(log.path)


# -- open checks the whole chain; only a torn tail may be cut, and only with repair ----------------


def _rewrite(log: ActionLog, index: int, **changes: object) -> None:
    """Change record ``index`` (and rehash it, as a careful forger would)."""
    lines = log.path.read_bytes().splitlines(keepends=True)
    record = json.loads(lines[index])
    record.update(changes)
    record["hash"] = record_hash(record)
    lines[index] = json.dumps(record).encode() + b"\n"
    log.path.write_bytes(b"".join(lines))


def test_open_refuses_an_edit_in_the_middle(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    lines = log.path.read_bytes().splitlines(keepends=True)
    lines[2] = lines[2].replace(b'"Player 1"', b'"Player 2"')
    log.path.write_bytes(b"".join(lines))
    before = log.path.read_bytes()
    for repair in (False, True):
        with pytest.raises(LogIntegrityError, match="record 2: content does not match its hash"):
            ActionLog.open(log.path, repair=repair)
    assert log.path.read_bytes() == before
    assert not log.path.with_suffix(".torn").exists()


def test_open_refuses_a_rehashed_edit_that_breaks_the_chain(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    _rewrite(log, 1, actor="Player 2")
    with pytest.raises(LogIntegrityError, match="record 2: does not chain to record 1"):
        ActionLog.open(log.path, repair=True)


def test_open_refuses_a_bad_line_in_the_middle(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    lines = log.path.read_bytes().splitlines(keepends=True)
    lines[1] = b"garbage\n"
    log.path.write_bytes(b"".join(lines))
    with pytest.raises(LogIntegrityError, match="line 2 is not valid JSON"):
        ActionLog.open(log.path, repair=True)


def test_open_refuses_records_after_the_last_batch_that_do_not_chain(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    head = log.head_path.read_bytes()
    log.append([NewRecord("action", "P", {"type": "pass"}), NewRecord("action", "P", {"type": "pass"})])
    lines = log.path.read_bytes().splitlines(keepends=True)
    # an unacknowledged record (no batch_end) that was edited: not a torn write
    log.path.write_bytes(b"".join(lines[:-1]).replace(b'"actor":"P"', b'"actor":"Q"'))
    log.head_path.write_bytes(head)
    before = log.path.read_bytes()
    with pytest.raises(LogIntegrityError, match="record 4: content does not match its hash"):
        ActionLog.open(log.path, repair=True)
    assert log.path.read_bytes() == before


def test_open_without_repair_leaves_a_torn_tail_on_disk(tmp_path: Path) -> None:
    log = make_log(tmp_path)
    head = log.head_path.read_bytes()
    log.append([NewRecord("action", "P", {"type": "pass"}), NewRecord("action", "P", {"type": "pass"})])
    lines = log.path.read_bytes().splitlines(keepends=True)
    torn = b"".join(lines[:-1]) + lines[-1][:20]  # a whole record without batch_end, and a piece
    log.path.write_bytes(torn)
    log.head_path.write_bytes(head)
    reader = ActionLog.open(log.path)
    assert [r.seq for r in reader.records] == [0, 1, 2, 3]
    assert log.path.read_bytes() == torn and log.head_path.read_bytes() == head
    assert not log.path.with_suffix(".torn").exists()
    with pytest.raises(LogIntegrityError, match="repair"):
        reader.append([NewRecord("action", "P", {"type": "pass"})])
    assert log.path.read_bytes() == torn
    writer = ActionLog.open(log.path, repair=True)
    assert [r.seq for r in writer.records] == [0, 1, 2, 3]
    assert log.path.with_suffix(".torn").read_bytes() == torn[len(log.path.read_bytes()):]
    writer.append([NewRecord("action", "P", {"type": "pass"})])
    assert verify(log.path)[-1].seq == 4


@pytest.mark.parametrize("content", [b"", b"{not json", b"[1, 2]", b"\x00\x00"])
def test_a_damaged_head_is_an_integrity_error(tmp_path: Path, content: bytes) -> None:
    log = make_log(tmp_path)
    log.head_path.write_bytes(content)
    with pytest.raises(LogIntegrityError, match="head.json"):
        ActionLog.open(log.path)
    with pytest.raises(LogIntegrityError, match="head.json"):
        verify(log.path)


# -- typed records at the boundary -------------------------------------------------------------


@pytest.mark.parametrize("title, name", [("1830", "1830_game_end_bank.json"), ("1830", "26855.json")])
def test_a_written_log_reads_as_typed_records_that_give_back_its_bytes(tmp_path: Path, title: str, name: str) -> None:
    """Every line of an imported game's log is the canonical JSON of its typed record: the
    on-disk format and the hash chain are what they were before records were typed."""
    from pbem.actionlog import _canonical
    from pbem.importers.e18xx import load_record
    from pbem.importers.log_import import create_imported_game
    from pbem.log_records import GameRecord, OrderRecord, UndoRecord, parse_record
    from tests.records import record_path

    create_imported_game(tmp_path, "g", load_record(record_path(title, name)))
    path = tmp_path / "games" / "g" / "log.jsonl"
    lines = path.read_bytes().splitlines(keepends=True)
    typed = verify(path)
    assert len(typed) == len(lines)
    for line, record in zip(lines, typed):
        assert _canonical(record.to_dict()) + b"\n" == line
        assert parse_record(json.loads(line)) == record
        assert record_hash(record.to_dict()) == record.hash
    assert isinstance(typed[0], GameRecord)
    assert {type(r) for r in typed[1:]} <= {OrderRecord, UndoRecord}
    assert any(isinstance(r, UndoRecord) for r in typed)


def test_a_typed_draft_is_sealed_and_chained_like_any_record(tmp_path: Path) -> None:
    from pbem.log_records import GMRecord, UndoRecord

    log = make_log(tmp_path, batches=1)
    written = log.append([UndoRecord(seq=2, actor="GM", by="gm@x", source="<u@x>", to_seq=1),
                          GMRecord(seq=3, actor="GM", by="gm@x", source="<u@x>", command="pause")])
    assert [(r.seq, r.batch_end) for r in written] == [(2, False), (3, True)]
    assert written[0].prev == log.records[1].hash and written[1].prev == written[0].hash
    assert verify(log.path) == log.records == ActionLog.open(log.path).records
    with pytest.raises(ValueError, match="numbered 7"):
        log.append([UndoRecord(seq=7, to_seq=1)])
    assert len(verify(log.path)) == 4, "a misnumbered draft writes nothing"


def test_records_are_stamped_by_the_injected_clock(tmp_path: Path) -> None:
    """The log reads no clock of its own: the one it is given stamps each record, also
    after it is opened again."""
    path = tmp_path / "log.jsonl"
    log = ActionLog.create(path, {"title": "1830"}, clock=lambda: 0.0)
    assert log.records[0].time == "1970-01-01T00:00:00Z"
    again = ActionLog.open(path, clock=lambda: 86400.0)
    again.append([NewRecord(kind="note", actor="GM", by="", data={"text": "x"})])
    assert again.records[-1].time == "1970-01-02T00:00:00Z"
