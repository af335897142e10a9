"""The core's extension points for how trains count and earn, what counts as an upgrade, the
upgrade rules, lays without reach and the home token (issue 12: 1825's U3, 2+2, 4+4E and 3T
trains, its two yellow tiles, its upgrades and its minors' homes need them), shown on
the made-up title 9999 (tests/titles/g9999.py), which no title package names:

* ``run_problem`` — why given trains may not run a route (1830: more stops than their length);
* ``run_revenue`` — what given trains earn on a route (1830: its stops);
* ``most_stops`` — the longest route the optimiser lists for given trains;
* ``counts_as_upgrade`` — whether a tile laid on a hex counts as an upgrade among the lays;
* ``upgrade_problem`` — the upgrade rules a tile lay is checked by;
* ``lay_candidates`` — the tiles the legal-lay list tries on a hex;
* ``spending_power`` — what a corporation may spend on terrain and tokens;
* ``lays_without_reach`` — hexes a corporation may lay on that its track does not reach;
* ``place_home_token`` — the home token as a corporation's turn begins;
* a run written ``2+2`` where the title has double-heading and the corporation owns no train
  of that name is two 2-trains run as one.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Mapping

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine import routes, track
from pbem.engine.board import TileData
from pbem.engine.lays import legal_lays
from pbem.engine.actions import LayTile, PlaceToken, RunRoutes, TrainRun
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.route_rules import RouteRules
from pbem.engine.settings import HeadingRule, TileLay
from pbem.engine.state import OperatingState, RoundState
from pbem.engine.steps import operating
from pbem.engine.steps.operating import walk
from pbem.engine.title import TitleData
from pbem.engine.track_rules import TrackRules
from pbem.engine.values import Vertex
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title
from tests.changed import with_settings
from tests.titles import RULES
from tests.titles.g9999 import HOOKS9999, Composer9999, Presentation9999, hooks9999


class LongTwos(RouteRules):
    """A 2-train may visit three stops; a 3-train pays double."""

    def run_problem(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex]) -> str | None:
        if train_ids == (TrainId("2", 0),) or train_ids == (TrainId("2", 1),):
            return None if len(stops) <= 3 else "too long"
        return super().run_problem(game, corp, train_ids, stops)

    def run_revenue(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex],
                    revenue: int) -> int:
        return revenue * 2 if train_ids[0].kind == "3" else revenue

    def most_stops(self, game: Game, corp: str, train_ids: tuple[TrainId, ...]) -> int:
        return max(3, super().most_stops(game, corp, train_ids))


class EveryLayAnUpgrade(TrackRules):
    """Every tile counts as an upgrade among the turn's lays."""

    def counts_as_upgrade(self, game: Game, coord: str) -> bool:
        return True


def position(hooks: TitleHooks = HOOKS9999, trains: tuple[TrainId, ...] = (TrainId("2", 0),),
             settings: dict[str, Any] | None = None, city_on_a3: bool = True) -> Game:
    """9999 in an operating round: NWR (home A1, £500, director Ann) operates alone and owns
    ``trains``; a tile on A3 joins Northam A1 (50) to Southby A5 (40), #57 (a city of 20) or,
    without ``city_on_a3``, #9 (plain track)."""
    title: TitleData = load_title("9999", rules_dir=RULES, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999)
    title = with_settings(dataclasses.replace(title, hooks=hooks), **(settings or {}))
    game = Game(title, ["Ann", "Bob"])
    state = game.state
    corp = state.corporations["NWR"]
    corp.cash, corp.floated, corp.ipoed, corp.president = 500, True, True, "Ann"
    corp.par = corp.price = (0, 4)
    state.market[(0, 4)] = ["NWR"]
    state.tokens[CityRef("A1", 0)] = ["NWR"]
    state.tiles["A3"] = ("57", 1) if city_on_a3 else ("9", 1)
    for train in trains:
        state.depot.remove(train)
        corp.trains.append(train)
    state.round = RoundState(kind="operating", operating=OperatingState(order=["NWR"]))
    return game


def run(game: Game, train: str, stops: tuple[str, ...], joined: tuple[str, ...] = ()) -> int:
    results = operating.checked_runs(game, "NWR", RunRoutes((TrainRun(train, stops, joined),)))
    return sum(r.revenue for r in results)


def test_by_default_a_train_visits_no_more_stops_than_its_length() -> None:
    game = position()
    with pytest.raises(IllegalOrderError, match="may visit 2 stops, not 3"):
        run(game, "2", ("A1", "A3", "A5"))
    assert run(game, "2", ("A1", "A3")) == 70
    assert routes.best_run(game, "NWR").revenue == 70


def test_the_titles_run_problem_and_most_stops_decide_what_a_train_may_visit() -> None:
    game = position(hooks9999(routes=LongTwos()))
    assert run(game, "2", ("A1", "A3", "A5")) == 110
    best = routes.best_run(game, "NWR")
    assert best.revenue == 110 and len(best.runs[0][1].stops) == 3


def test_the_titles_run_revenue_prices_the_run_written_and_the_best_run_alike() -> None:
    game = position(hooks9999(routes=LongTwos()), trains=(TrainId("3", 0),))
    assert run(game, "3", ("A1", "A3", "A5")) == 220
    assert routes.best_run(game, "NWR").revenue == 220
    assert routes.best_run(position(trains=(TrainId("3", 0),)), "NWR").revenue == 110


def test_units_of_one_length_but_other_types_each_take_their_own_best_route() -> None:
    # a 3-train (double) and a 2-train that may visit three stops have the same length and
    # different routes: the optimiser may not treat them as interchangeable
    game = position(hooks9999(routes=LongTwos()), trains=(TrainId("3", 0), TrainId("2", 0)), city_on_a3=False)
    best = routes.best_run(game, "NWR")
    assert best.revenue == 180  # the 3-train's A1-A5 doubled; the 2-train has no route left
    assert [train for train, _ in best.runs] == [TrainId("3", 0)]


def test_counts_as_upgrade_decides_which_entry_of_the_tile_lays_a_lay_takes() -> None:
    lays = {"tile_lays": (TileLay(True, True), TileLay("not_if_upgraded", False))}
    for hooks, expected in ((HOOKS9999, None), (hooks9999(track=EveryLayAnUpgrade()), "may not upgrade a tile now")):
        game = position(hooks, settings=lays)
        del game.state.tiles["A3"]
        operating.op_state(game).tiles_laid = 1  # one new tile laid already this turn
        problem = operating.Track.problem(game, "NWR", LayTile("A3", "9", 1))
        assert (problem is None) if expected is None else (expected in str(problem))


def test_a_run_named_like_trains_run_as_one_is_those_trains_where_no_train_has_that_name() -> None:
    heading = {"double_heading": HeadingRule(2, {"2+2": 3})}
    game = position(trains=(TrainId("2", 0), TrainId("2", 1)), settings=heading)
    assert run(game, "2+2", ("A1", "A3", "A5")) == 110
    with pytest.raises(IllegalOrderError, match="no 2\\+2 train"):
        run(position(trains=(TrainId("2", 0), TrainId("2", 1))), "2+2", ("A1", "A3", "A5"))


class LooseUpgrades(TrackRules):
    """Any tile may go anywhere; B2 may be laid on unreached; no home token is placed."""

    def upgrade_problem(self, game: Game, coord: str, new: TileData, rotation: int) -> str | None:
        return None

    def lays_without_reach(self, game: Game, corp: str) -> frozenset[str]:
        return frozenset({"B2"})

    def place_home_token(self, game: Game, corp: str) -> None:
        return None


class NoCandidates(TrackRules):
    """The legal-lay list tries no tile anywhere."""

    def lay_candidates(self, game: Game, coord: str, supply: Mapping[str, list[str]]) -> list[str]:
        return []


def test_the_legal_lays_try_the_tiles_the_title_names() -> None:
    base, none = position(), position(hooks9999(track=NoCandidates()))
    del base.state.tiles["A3"], none.state.tiles["A3"]
    assert any(lay.hex == "A3" for lay in legal_lays(base, "NWR"))
    assert legal_lays(none, "NWR") == ()


def test_the_titles_upgrade_problem_decides_whether_a_gray_hex_takes_a_tile() -> None:
    base, loose = position(), position(hooks9999(track=LooseUpgrades()))
    assert "cannot take a tile" in str(track.lay_problem(base, "NWR", "A1", "9", 1, ignore_reach=True))
    assert "cannot take a tile" not in str(track.lay_problem(loose, "NWR", "A1", "9", 1, ignore_reach=True))


def test_the_titles_upgrade_problem_decides_the_upgrade_rules() -> None:
    base, loose = position(), position(hooks9999(track=LooseUpgrades()))
    fits = [r for r in range(6) if track.lay_problem(loose, "NWR", "C3", "9", r, ignore_reach=True) is None]
    assert fits
    assert "cities" in str(track.lay_problem(base, "NWR", "C3", "9", fits[0], ignore_reach=True))


def test_a_hex_the_title_names_may_be_laid_on_without_reach() -> None:
    base, loose = position(), position(hooks9999(track=LooseUpgrades()))
    assert "does not reach B2" in str(track.lay_problem(base, "NWR", "B2", "9", 0))
    rotations = [r for r in range(6) if track.lay_problem(loose, "NWR", "B2", "9", r) is None]
    assert rotations
    assert any(lay.hex == "B2" for lay in legal_lays(loose, "NWR"))


def test_the_titles_hook_places_the_home_token_as_a_turn_begins() -> None:
    for hooks, placed in ((HOOKS9999, True), (hooks9999(track=LooseUpgrades()), False)):
        game = position(hooks)
        game.state.tokens.clear()
        walk.start_corporation_turns(game)
        assert (game.state.tokens.get(CityRef("A1", 0)) == ["NWR"]) is placed


class Lender(TrackRules):
    """A corporation may spend £100 beyond its treasury."""

    def spending_power(self, game: Game, corp: str) -> int:
        return game.state.corporations[corp].cash + 100


def test_the_titles_spending_power_decides_what_a_token_may_cost() -> None:
    base, lent = position(), position(hooks9999(track=Lender()))
    for game in (base, lent):
        game.state.corporations["NWR"].cash = 20
    with pytest.raises(IllegalOrderError, match="the token costs"):
        operating.place_token(base, "NWR", PlaceToken("A3", 0), ignore_reach=True)
    operating.place_token(lent, "NWR", PlaceToken("A3", 0), ignore_reach=True)
    assert lent.state.corporations["NWR"].cash == 20 - 40  # below nothing until the title settles
