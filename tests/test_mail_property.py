"""Property: any mix of lines in any mail never crashes the mailroom, and what it keeps of a
game is always what a fresh replay of the log gives.

Each example starts from one of three built positions (a fresh game, the first stock
round, the first operating round), copied into a directory of its own, and sends a few
mails through a real Mailroom: orders that are legal now (from the engine's own list) and
ones that are not, WIDTH, HELP, REPORT, HISTORY n, the GM's commands (UNDO, ACT AS, PAUSE,
RESUME, DEADLINE, BROADCAST, END GAME), junk, wrong secrets, and redeliveries of earlier
mails with trace fields added.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.actionlog import verify
from pbem.games import Replay, Undone, replay
from pbem.log_records import parse_records
from pbem.orders import format_order
from tests.test_mailroom import GID, Clock, Table, demo_lines_as_gm, log_records, make_room
from tests.test_server_faults import with_trace

SEATS = ["Player 1", "Player 2", "Player 3"]
OUTCOMES = {"processed", "rejected", "ignored"}

INVALID = [
    "BID CA 5", "BID CA 1000", "BID XX 100", "BUY PRR", "BUY 2 PRR POOL", "SELL PRR", "PAR PRR 99",
    "PAR PRR 100", "BYU PRR", "LAY H16 57 1", "LAY Z99 57 0", "TOKEN Z99", "TOKEN F20.1", "RUN 2: I15-J14",
    "RUN AUTO", "PAYOUT", "WITHHOLD", "TRAIN 2", "DISCARD 2", "BID CA １６５", "BID CA " + "9" * 300,
    "BUY 1234567890 PRR", "EXCHANGE MH", "BANKRUPT", "PASS",
]
INFO = ["WIDTH 80", "WIDTH 132", "WIDTH 99", "HELP", "REPORT", "HISTORY 1", "HISTORY 2", "HISTORY 0", "HISTORY x"]
GM_COMMANDS = ["UNDO", "UNDO 1", "UNDO 2", "UNDO 5", "UNDO 0", "PAUSE", "RESUME", "DEADLINE Friday 18:00 UTC",
               "DEADLINE NONE", "BROADCAST Play on!", "ACT AS 1 PASS", "ACT AS Player 2 PASS", "ACT AS 9 PASS",
               "END GAME"]
JUNK = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), min_size=1, max_size=24).filter(
    lambda s: bool(s.strip()))


def canonical(value: Any) -> Any:
    """``value`` as plain JSON data with every mapping sorted (keys as strings)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return canonical({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    if isinstance(value, dict):
        return sorted(([json.dumps(canonical(k)), canonical(v)] for k, v in value.items()), key=lambda kv: kv[0])
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(json.dumps(canonical(v)) for v in value)
    return value


def dump(game: Replay) -> str:
    """A canonical dump of a game: its state, its seats and settings, what is in force."""
    return json.dumps(canonical({"state": game.game.state, "info": game.info, "last_seq": game.last_seq,
                                 "effective": [r.seq for r in game.effective],
                                 "undone": [g.undone if isinstance(g, Undone) else None for g in game.gm]}), sort_keys=True)


@pytest.fixture(scope="module")
def positions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, dict[str, str]]]:
    """Data directories of three positions, built once, with the seats' and GM's secrets."""
    built = {}
    for name, stop in (("fresh", 0), ("stock", 18), ("operating", 35)):
        table = Table(tmp_path_factory.mktemp(name) / "data", route_budget=50_000)
        if stop:
            assert table.order("GM", *demo_lines_as_gm(stop_before=stop))[0] == "processed"
        built[name] = (table.data, table.secrets)
    return built


def legal_lines(table: Table, sender: str) -> list[str]:
    """Orders legal now for the seats that may act (as ACT AS lines for the GM)."""
    _, game = table.room.load(GID)
    lines = []
    for seat in game.game.current_actors():
        for action in game.game.legal_actions(seat)[:6]:
            order = format_order(action)
            lines.append(f"ACT AS {seat} {order}" if sender == "GM" else order)
    return lines or ["PASS"]


def lines_for(table: Table, sender: str) -> st.SearchStrategy[str]:
    kinds = [st.sampled_from(legal_lines(table, sender)), st.sampled_from(INVALID), st.sampled_from(INFO), JUNK]
    if sender == "GM":
        kinds.append(st.sampled_from(GM_COMMANDS))
    return st.one_of(*kinds)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(data=st.data())
def test_any_mail_leaves_the_game_equal_to_a_replay_of_its_log(
        positions: dict[str, tuple[Path, dict[str, str]]], tmp_path_factory: pytest.TempPathFactory, data: st.DataObject) -> None:
    start = data.draw(st.sampled_from(sorted(positions)), label="position")
    template, secrets = positions[start]
    root = tmp_path_factory.mktemp("example")
    shutil.copytree(template, root / "data")
    table = Table.__new__(Table)  # the copied game
    _adopt(table, root / "data", secrets)
    sent: list[tuple[bytes, str]] = []
    for _ in range(data.draw(st.integers(1, 4), label="mails")):
        if sent and data.draw(st.booleans(), label="redeliver"):
            raw, outcome_before = data.draw(st.sampled_from(sent), label="which")
            count = len(log_records(table.data))
            assert table.send(with_trace(raw, 7)) == (outcome_before, [])
            assert len(log_records(table.data)) == count, "a redelivery changes nothing"
            continue
        sender = data.draw(st.sampled_from(SEATS + ["GM"]), label="sender")
        lines = data.draw(st.lists(lines_for(table, sender), min_size=1, max_size=5), label="lines")
        secret = data.draw(st.sampled_from([None, None, None, "wrong"]), label="secret")
        raw = table.mail(sender, *lines, secret=secret)
        before = len(log_records(table.data))
        outcome, _ = table.send(raw)  # never raises
        assert outcome in OUTCOMES
        records = log_records(table.data)
        if outcome != "processed":
            assert len(records) == before, "a refused mail changes nothing"
        sent.append((raw, outcome))
        _, cached = table.room.load(GID)
        assert dump(cached) == dump(replay(parse_records(records)))
    verify(table.data / "games" / GID / "log.jsonl")
    # a restarted server agrees too
    table.reopen()
    _, rebuilt = table.room.load(GID)
    assert dump(rebuilt) == dump(replay(parse_records(log_records(table.data))))


def _adopt(table: Table, data: Path, secrets: dict[str, str]) -> None:
    """Make ``table`` the Table of the copied data directory ``data``."""
    table.data = data
    table.clock = Clock()
    table.settings = {"route_budget": 50_000}
    table.room = make_room(data, table.clock, **table.settings)
    table.secrets = secrets
    table.n = 1000
