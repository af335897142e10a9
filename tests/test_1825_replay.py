"""The recorded 1825 game of 18xx.games (Unit 1 with the Wales kit R1, two players, ended by
the bank breaking) replays through the order language to its exact result, every route
re-validated, and imports as a game that ``pbem verify`` accepts; 1825's own record actions
are translated by ``pbem.titles.g1825.importing``."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem.actionlog import verify
from pbem.cli import main
from pbem.games import replay
from pbem.importers.e18xx import UnsupportedRecordAction, effective_actions, load_record, record_variants
from pbem.importers.replay import record_keys, replay_record
from pbem.importers.translation import translation_for
from pbem.titles.g1825.importing import Translation1825
from tests.records import record_path, replayed_before

RECORD = ("1825", "1825_game_end_bank.json")

RECEIVER_TURNS = ["459", "460", "461", "462", "493", "494", "495", "525", "526", "527"]
"""The record's actions for GER in receivership (Player 1 sold its Director's certificate to
the pool at 437), which our receiver takes by itself: the lease of a 5-train, a tile (not
laid by ours), a pass, the run; then the runs of the 5-train it bought."""


def test_1825_has_its_own_record_translation() -> None:
    assert type(translation_for("1825")) is Translation1825


def test_the_record_plays_unit_1_with_the_wales_kit() -> None:
    record = load_record(record_path(*RECORD))
    assert set(record_variants(record)) >= {"unit_1", "r1"}


def test_the_pass_that_ends_the_platforms_track_and_token_step_is_no_order() -> None:
    """Record 96-98, LNWR in OR 5.1: a yellow tile, its token in London (S13), then the pass
    that ends the platform's step for track and token (a second yellow tile was still
    allowed). Our engine has left its track and token steps with the token, where a pass is
    no legal order: the pass becomes no order and the run follows."""
    import copy

    import pytest

    from pbem.engine.actions import Pass, PlaceToken
    from pbem.errors import IllegalOrderError
    from tests.records import replayed_before

    renderer = replayed_before(*RECORD, 98)
    op = renderer.game.state.round.operating
    assert op is not None and op.order[op.index] == "LNWR" and op.token_placed
    action = next(a for a in effective_actions(renderer.record) if a["id"] == 98)
    assert renderer.render(action) is None
    with pytest.raises(IllegalOrderError):
        copy.deepcopy(renderer.game).apply(renderer.seat(action), Pass())
    # before the token the same pass is an order (it ends the track step)
    earlier = replayed_before(*RECORD, 97)
    token = next(a for a in effective_actions(earlier.record) if a["id"] == 97)
    assert earlier.render(token) == PlaceToken("S13", 1)
    assert earlier.render(action) == Pass()


PENDING = pytest.mark.xfail(strict=True, reason=(
    "waits for three fixes of other parts: the operating walk leaves "
    "the run step open after a train bought at the token step (record 129), the reach rule "
    "refuses an upgrade of a tile with no station (215), the pool's shares pay the company "
    "(429); with them the replay is exact"))


@PENDING
def test_the_1825_record_replays_to_the_recorded_result() -> None:
    record = load_record(record_path(*RECORD))
    outcome = replay_record(record)
    assert outcome.error is None, outcome.error
    assert outcome.finished
    assert outcome.game_end_reason == record["game_end_reason"] == "bank"
    assert outcome.result == record["result"] == {"19143": 10513, "19192": 11604}
    runs = {str(a["id"]) for a in effective_actions(record) if a["type"] == "run_routes"}
    # every run is re-validated: by our engine as an order, or (the receiver's) against it
    assert outcome.runs_checked == len(runs - set(RECEIVER_TURNS)) == 72
    assert outcome.by_rules == RECEIVER_TURNS
    assert outcome.gm_rulings == []


@PENDING
def test_the_1825_record_imports_as_a_game_that_verifies(tmp_path: Path) -> None:
    config = tmp_path / "pbem.yaml"
    config.write_text(f"data_dir: {tmp_path / 'data'}\n")
    path = record_path(*RECORD)
    runner = CliRunner()
    result = runner.invoke(main, ["import-18xx", "--config", str(config), str(path), "--game", "g1825"])
    assert result.exit_code == 0, result.output
    assert "finished: bank" in result.output
    verified = runner.invoke(main, ["verify", "--config", str(config), "g1825"])
    assert verified.exit_code == 0, verified.output
    rebuilt = replay(verify(tmp_path / "data" / "games" / "g1825" / "log.jsonl"))
    record = load_record(path)
    assert rebuilt.game.state.finished and rebuilt.game.state.end_reason == "bank"
    keys = record_keys(record)
    assert {keys[p]: v for p, v in rebuilt.game.result().items()} == record["result"]


@PENDING
def test_a_company_in_receivership_is_run_by_our_receiver_as_the_record_ran_it() -> None:
    """Record 459-462: GER (no Director since 437) leases a 5-train, lays a tile, passes and
    runs R24-T24-U23-V20 for £150. Our receiver has taken GER's turn when GWR's ended: the
    record's actions are no order, and its run is the receiver's."""
    renderer = replayed_before(*RECORD, 459)
    game = renderer.game
    assert game.state.corporations["GER"].president is None
    op = game.state.round.operating
    assert op is not None and op.order[op.index] == "LSWR"
    [ran] = game.last_run
    assert (sorted(v.coord for v in ran.stops), ran.revenue) == (["R24", "T24", "U23", "V20"], 150)
    actions = {a["id"]: a for a in effective_actions(renderer.record)}
    for action_id in (459, 460, 461, 462):
        assert renderer.render(actions[action_id]) is None
    assert renderer.by_rules == ["459", "460", "461", "462"]


@PENDING
def test_a_recorded_receivers_run_that_ours_did_not_make_is_an_error() -> None:
    renderer = replayed_before(*RECORD, 462)
    run = next(a for a in effective_actions(renderer.record) if a["id"] == 462)
    changed = {**run, "routes": [{**run["routes"][0], "revenue": 160}]}
    with pytest.raises(UnsupportedRecordAction, match="our receiver ran"):
        renderer.render(changed)
