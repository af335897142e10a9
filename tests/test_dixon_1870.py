"""Bill Dixon's original 1870 rules, section 6 "Laying Track" (the project's seed 001), as the
variant ``dixon`` of 1870: one test per clause, named after it."""

from __future__ import annotations

import pytest

from pbem.engine.values import CityRef
from pbem.engine.settings import TileLay
from pbem.engine import track, upgrades
from pbem.engine.game import Game
from pbem.engine.steps import operating
from pbem.engine.values import Owner
from pbem.ruleset import load_title


@pytest.fixture
def dixon() -> Game:
    game = Game(load_title("1870", ("dixon",)), ["A", "B", "C"])
    game.state.phase = "5"
    return game


def ok_rotations(game: Game, coord: str, tile: str) -> list[int]:
    return [r for r in range(6) if upgrades.upgrade_problem(game, coord, game.tiles[tile], r) is None]


def test_clause_6_two_yellow_tiles_or_one_upgrade() -> None:
    lays = load_title("1870", ("dixon",)).settings.tile_lays
    assert lays[0].lay is True and lays[0].upgrade is True
    assert lays[1] == TileLay("not_if_upgraded", False)


def test_clause_6_1_no_tile_on_red_off_board_areas(dixon: Game) -> None:
    problem = track.lay_problem(dixon, "ATSF", "A2", "57", 0, ignore_reach=True)
    assert problem is not None and "cannot take a tile" in problem


def test_clause_6_6_1_chart_58_becomes_only_141_142_143(dixon: Game) -> None:
    published = Game(load_title("1870"), ["A", "B", "C"])
    for game in (dixon, published):
        game.state.phase = "3"
        game.state.tiles["F13"] = ("58", 0)
    assert ok_rotations(published, "F13", "144"), "the track would fit: only the chart forbids it"
    assert ok_rotations(dixon, "F13", "144") == []
    problem = upgrades.upgrade_problem(dixon, "F13", dixon.tiles["144"], 0)
    assert problem is not None and "upgrade chart lets #58 become only #141, #142, #143" in problem
    assert ok_rotations(dixon, "F13", "141")


def test_clause_6_6_2_green_to_brown_by_the_chart(dixon: Game) -> None:
    dixon.state.tiles["F13"] = ("17", 0)
    problem = upgrades.upgrade_problem(dixon, "F13", dixon.tiles["43"], 0)
    assert problem is not None and "#17 become only #47" in problem


def test_clause_6_4_1_tile_170_only_on_the_five_cities(dixon: Game) -> None:
    dixon.state.tiles["H17"] = ("14", 0)
    problem = upgrades.upgrade_problem(dixon, "H17", dixon.tiles["170"], 0)
    assert problem is not None and "#170 may go only on B11, C18, J3, J5, N17" in problem
    dixon.state.tiles["C18"] = ("14", 0)
    assert ok_rotations(dixon, "C18", "170")


def test_clause_6_4_1_tile_63_never_on_the_five_cities(dixon: Game) -> None:
    dixon.state.tiles["J3"] = ("14", 0)
    problem = upgrades.upgrade_problem(dixon, "J3", dixon.tiles["63"], 0)
    assert problem is not None and "#63 may not go on J3" in problem
    dixon.state.tiles["H17"] = ("14", 0)
    assert ok_rotations(dixon, "H17", "63")


def test_clause_6_6_3_171_kansas_city_only_172_st_louis_only(dixon: Game) -> None:
    dixon.state.tiles["B11"] = ("170", 0)
    dixon.state.tiles["C18"] = ("170", 0)
    assert ok_rotations(dixon, "B11", "171K") and ok_rotations(dixon, "C18", "172L")
    problem = upgrades.upgrade_problem(dixon, "C18", dixon.tiles["171K"], 0)
    assert problem is not None and "#171K may go only on B11" in problem
    problem = upgrades.upgrade_problem(dixon, "B11", dixon.tiles["172L"], 0)
    assert problem is not None and "#172L may go only on C18" in problem


def test_clause_6_5_terrain_cost_once_from_the_treasury_not_on_upgrades(dixon: Game) -> None:
    from pbem.engine.actions import LayTile
    from pbem.engine.state import OperatingState, RoundState

    corp = dixon.state.corporations["MP"]
    corp.cash, corp.floated, corp.president = 500, True, "A"
    dixon.state.round = RoundState(kind="operating", operating=OperatingState(order=["MP"]))
    cost = dixon.board.hexes["C18"].cost
    assert cost > 0
    dixon.state.phase = "1"
    dixon.state.companies["MRBC"].owner = Owner.corporation("MP")
    operating.lay_tile(dixon, "MP", LayTile("C18", "5", 0), ignore_reach=True)
    assert corp.cash == 500 - cost, "the first tile pays the terrain from the treasury"
    dixon.state.phase = "3"
    operating.lay_tile(dixon, "MP", LayTile("C18", "14", 0), ignore_reach=True)
    assert corp.cash == 500 - cost, "an upgrade pays no terrain again"


# Clause 6.2 on a position built on E12 (SLSF's home) and its neighbours (edges: E12 0 F11,
# 1 E10; E10 4 E12, 5 F11; F11 0 G10, 1 F9, 2 E10, 3 E12, 4 F13; G10 3 F11).
RUN_TRACK = {"E12": ("5", 0),   # SLSF's home city, exits to F11 and E10
             "E10": ("7", 4),   # E12's side to F11's
             "F11": ("8", 1),   # the tile to upgrade: F11's edge 3 (E12) to edge 1 (F9)
             "G10": ("4", 0)}   # a town on F11's edge 0


def run_track_position(game: Game) -> Game:
    game.state.phase = "3"
    game.state.tiles.update(RUN_TRACK)
    game.state.tokens[CityRef("E12", 0)] = ["SLSF"]
    return game


def lay_rotations(game: Game, coord: str, tile: str) -> list[int]:
    return [r for r in range(6) if track.lay_problem(game, "SLSF", coord, tile, r) is None]


def test_clause_6_2_an_upgrade_must_add_track_the_corporation_can_run_on(dixon: Game) -> None:
    """#8 -> #16 on F11 keeps the old curve at rotations 0 and 1. At 0 the added curve joins
    E10 to the town on G10, a run for SLSF (E12-E10-F11-G10); at 1 it joins E10 to F13, where
    no stop is: nothing SLSF can run on, so Dixon refuses it. The published rules (and
    18xx.games) ask only for a reachable exit and accept both."""
    published = run_track_position(Game(load_title("1870"), ["A", "B", "C"]))
    run_track_position(dixon)
    assert published.title.settings.upgrade_must_add_run_track is False
    assert dixon.title.settings.upgrade_must_add_run_track is True
    assert lay_rotations(published, "F11", "16") == [0, 1]
    assert lay_rotations(dixon, "F11", "16") == [0]
    problem = track.lay_problem(dixon, "SLSF", "F11", "16", 1)
    assert problem is not None and "adds no track SLSF can run on" in problem and "Dixon 6.2" in problem
    assert track.added_paths(track.placed(dixon, "F11"), dixon.tiles["16"], 1) == [1]


def test_clause_6_2_the_added_track_counts_once_a_stop_lies_beyond_it(dixon: Game) -> None:
    """With a town laid on F13 (joined to F11's side) the added curve of rotation 1 leads to
    a stop too, and the upgrade is accepted there as well."""
    run_track_position(dixon)
    assert dixon.board.neighbor("F11", 4) == "F13"
    dixon.state.tiles["F13"] = ("4", 1)  # exits 1 (F11's side) and 4
    assert 1 in track.placed(dixon, "F13").tile.exits(1)
    assert lay_rotations(dixon, "F11", "16") == [0, 1]


def test_clause_6_2_an_upgrade_raising_a_city_it_runs_to_is_allowed(dixon: Game) -> None:
    """#5 -> #14 on E12 adds exits to D13 and E14, where there is no track: nothing to run
    on, but SLSF's own city goes from 20 to 30, so the upgrade stands."""
    run_track_position(dixon)
    assert upgrades.upgrade_problem(dixon, "E12", dixon.tiles["14"], 0) is None
    assert track.lay_problem(dixon, "SLSF", "E12", "14", 0) is None
    assert track.upgrade_run_problem(dixon, "MP", "E12", dixon.tiles["14"], 0) is not None, \
        "MP reaches nothing here: the city it does not run to does not count"
