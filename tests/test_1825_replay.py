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
from pbem.importers.e18xx import effective_actions, load_record, record_variants
from pbem.importers.replay import record_keys, replay_record
from pbem.importers.translation import translation_for
from pbem.titles.g1825.importing import Translation1825
from tests.records import record_path, replayed_before

RECORD = ("1825", "1825_game_end_bank.json")


def test_1825_has_its_own_record_translation() -> None:
    assert type(translation_for("1825")) is Translation1825


def test_the_record_plays_unit_1_with_the_wales_kit() -> None:
    record = load_record(record_path(*RECORD))
    assert set(record_variants(record)) >= {"unit_1", "r1"}


def test_the_pass_after_the_token_ends_the_track_and_token_step_as_on_the_platform() -> None:
    """Record 96-98, LNWR in OR 5.1: a yellow tile, its token in London (S13), then the pass
    that ends the platform's step for track and token (a second yellow tile was still
    allowed). Ours is one step too: after the token the second tile is still allowed, and the
    record's pass is our PASS, which ends the step; the run follows."""
    import copy

    from pbem.engine.actions import Pass, PlaceToken
    from pbem.engine.steps.operating import active_steps, tile_lay_entry
    from pbem.titles.g1825.track_and_token import TrackAndToken1825

    renderer = replayed_before(*RECORD, 98)
    op = renderer.game.state.round.operating
    assert op is not None and op.order[op.index] == "LNWR" and op.token_placed and op.tiles_laid == 1
    action = next(a for a in effective_actions(renderer.record) if a["id"] == 98)
    seat = renderer.seat(action)
    assert renderer.render(action) == Pass()
    assert tile_lay_entry(renderer.game) is not None, "the turn's second tile is still allowed"
    assert active_steps(renderer.game)[0] is TrackAndToken1825
    assert Pass() in renderer.game.legal_actions(seat)
    game = copy.deepcopy(renderer.game)
    game.apply(seat, Pass())
    assert active_steps(game)[0] is not TrackAndToken1825 and active_steps(game)[0].runs_trains
    earlier = replayed_before(*RECORD, 97)
    token = next(a for a in effective_actions(earlier.record) if a["id"] == 97)
    assert earlier.render(token) == PlaceToken("S13", 1)


def test_the_1825_record_replays_to_the_recorded_result() -> None:
    record = load_record(record_path(*RECORD))
    outcome = replay_record(record)
    assert outcome.error is None, outcome.error
    assert outcome.finished
    assert outcome.game_end_reason == record["game_end_reason"] == "bank"
    assert outcome.result == record["result"] == {"19143": 10513, "19192": 11604}
    runs = [a for a in effective_actions(record) if a["type"] == "run_routes"]
    assert outcome.runs_checked == len(runs) == 75
    assert outcome.gm_rulings == []


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


def test_a_company_in_receivership_is_ordered_by_the_player_acting_for_it() -> None:
    """Record 437: Player 1 sells GER's Director's certificate to the pool. At GER's next turn
    (459) both players direct companies, so the priority deal's holder acts for it (18xx.games
    acting_for_entity): the record's lease of a 5-train for £10 is that player's LEASE 5."""
    from pbem.orders import Vocabulary, format_order
    from pbem.titles.g1825.trains import Lease

    renderer = replayed_before(*RECORD, 459)
    game = renderer.game
    assert game.state.corporations["GER"].president is None
    lease = next(a for a in effective_actions(renderer.record) if a["id"] == 459)
    assert lease["entity"] == "GER" and lease["type"] == "special_buy"
    ours = renderer.render(lease)
    assert ours == Lease("5")
    assert format_order(ours, Vocabulary.from_title(game.title)) == "LEASE 5"
    seat = renderer.seat(lease)
    assert seat == game.state.order[0] and game.current_actors() == [seat]
    cash = game.state.corporations["GER"].cash
    game.apply(seat, ours)
    assert game.state.corporations["GER"].cash == cash - 10


def test_our_optimiser_finds_every_recorded_1825_run_or_better() -> None:
    """Before each of the record's 75 runs our route search, on the same position, finds a
    run paying at least what was recorded (the record's runs were chosen on the platform)."""
    from pbem.importers.route_check import check_routes

    report, outcome = check_routes(load_record(record_path(*RECORD)))
    assert outcome.error is None, outcome.error
    summary = report["summary"]
    assert summary["runs"] == summary["optimal_at_least_recorded"] == summary["complete"] == 75
    assert all(run["verified_revenue"] == run["recorded_revenue"] for run in report["runs"])
