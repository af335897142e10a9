"""The GM&O under Lou Jerkich's Historical Order Start rules (issue 13, seed 000, "Gulf,
Mobile & Ohio Railroad"; :mod:`pbem.titles.g1870.gmo`), on built positions: no track west of
the Mississippi until it has reached St. Louis C18, whose city it may reach but not build
beyond; the check of "track west of the river" it shares with the IC."""

from __future__ import annotations

from pbem.engine.game import Game
from pbem.ruleset import load_title
from pbem.titles.g1870 import gmo
from pbem.titles.g1870.state import state1870

VARIANT = ("historical_order_start",)
GMO = "GMO"
ST_LOUIS = "C18"
"""St. Louis: a river hex, its city on the western bank (edges 0 and 1 western)."""


def game(variants: tuple[str, ...] = VARIANT) -> Game:
    return Game(load_title("1870", variants), ["A", "B", "C", "D"])


def rotation_with(position: Game, tile: str, exits: set[int]) -> int:
    return next(r for r in range(6) if position.tiles[tile].exits(r) == exits)


def test_on_st_louis_it_may_reach_the_city_but_not_the_western_edges() -> None:
    position = game()
    east = rotation_with(position, "57", {2, 5})
    west = rotation_with(position, "57", {0, 3})
    assert gmo.west_problem(position, GMO, ST_LOUIS, "57", east) is None, "toward the city from the east"
    assert gmo.west_problem(position, GMO, ST_LOUIS, "57", west) == (
        f"GMO may not build west of the Mississippi until it has reached its destination C18: "
        f"#57 at rotation {west} on C18 has track on the western bank")
    state1870(position.state).destinations_reached.append(GMO)
    assert gmo.west_problem(position, GMO, ST_LOUIS, "57", west) is None, "once it has reached St. Louis"
    assert gmo.west_problem(game(()), GMO, ST_LOUIS, "57", west) is None, "plain 1870"


def test_an_upgrade_of_st_louis_may_not_add_a_path_to_its_western_edges() -> None:
    position = game()
    position.state.tiles[ST_LOUIS] = ("57", rotation_with(position, "57", {2, 5}))
    keeps_east = rotation_with(position, "15", {2, 3, 4, 5})
    to_west = rotation_with(position, "15", {0, 1, 2, 5})
    assert gmo.west_problem(position, GMO, ST_LOUIS, "15", keeps_east) is None
    assert "has track on the western bank" in str(gmo.west_problem(position, GMO, ST_LOUIS, "15", to_west))


def test_a_new_path_to_a_town_on_the_western_bank_is_track_west() -> None:
    position = game()
    position.state.tiles["D17"] = ("3", 0)  # its town on the western bank (extras.yaml)
    upgrade = rotation_with(position, "142", {0, 1, 4})
    assert gmo.west_track(position, "D17", "142", upgrade) == (
        f"#142 at rotation {upgrade} on D17 has track on the western bank"), "edge 4 (eastern) to the town"
    assert gmo.west_track(position, "D17", "142", upgrade, stop_allowed=True) is None
    assert gmo.west_track(position, "B9", "57", 0) == "B9 lies west of the river"
    assert gmo.west_track(position, "K16", "57", 0) is None, "not a river hex"


def test_the_report_has_its_rule_while_it_holds() -> None:
    position = game()
    line = ("GMO: no track west of the Mississippi until it has reached St. Louis C18 (its track may reach the "
            "city there, not go beyond it)")
    assert line in dict(position.title.presentation.report_sections(position))["HISTORICAL ORDER START"]
    state1870(position.state).destinations_reached.append(GMO)
    assert gmo.report_lines(position) == ()
    assert gmo.report_lines(game(())) == ()
