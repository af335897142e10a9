"""Lou Jerkich's small-cities variant for 1870 (``small_cities``; its public rules 1-3), on
built positions: ATSF's home Topeka (B9) and Kansas City (B11) with the small city A10
between them."""

from __future__ import annotations

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine import routes
from pbem.engine.actions import RunRoutes, TrainRun
from pbem.engine.game import Game
from pbem.engine.state import OperatingState, RoundState
from pbem.engine.steps import operating
from pbem.engine.values import Vertex
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title
from pbem.titles.g1870 import small_cities

CORP = "ATSF"
LINE = ("B9", "A10", "B11")


def rotation(game: Game, coord: str, tile: str, toward: tuple[str, ...]) -> int:
    """A rotation of ``tile`` on ``coord`` with exits toward every hex of ``toward``."""
    wanted = {e for e in range(6) if game.board.neighbor(coord, e) in toward}
    found = [r for r in range(6) if wanted <= game.tiles[tile].exits(r)]
    assert found, f"#{tile} cannot join {toward} on {coord}"
    return found[0]


def line(variants: tuple[str, ...] = ("small_cities",), *, trains: tuple[str, ...] = ("3",),
         town: str = "3", token: str = "B9.0") -> Game:
    """ATSF floated with a token on ``token``, owning one train of each type in ``trains``;
    the yellow #57 on Topeka B9 and Kansas City B11 (cities of $20), ``town`` on A10."""
    game = Game(load_title("1870", variants), ["A", "B", "C"])
    state = game.state
    state.phase = "5"
    corp = state.corporations[CORP]
    corp.floated, corp.ipoed, corp.president, corp.cash = True, True, "A", 500
    for kind in trains:
        train = next(t for t in state.depot if t.kind == kind)
        state.depot.remove(train)
        corp.trains.append(train)
    state.tiles["B9"] = ("57", rotation(game, "B9", "57", ("A10",)))
    state.tiles["B11"] = ("57", rotation(game, "B11", "57", ("A10",)))
    state.tiles["A10"] = (town, rotation(game, "A10", town, ("B9", "B11")))
    state.tokens.setdefault(CityRef.parse(token), []).append(CORP)
    state.round = RoundState(kind="operating", operating=OperatingState(order=[CORP]))
    return game


def run(game: Game, train: str, stops: tuple[str, ...]) -> int:
    action = RunRoutes((TrainRun(train, stops),))
    return sum(r.revenue for r in operating.checked_runs(game, CORP, action))


def owned(game: Game, kind: str) -> TrainId:
    return next(t for t in game.state.corporations[CORP].trains if t.kind == kind)


@pytest.mark.parametrize(("tile", "printed", "worth"), [("3", 10, 20), ("141", 10, 20), ("145", 20, 30)])
def test_rule_1_a_small_city_is_worth_10_more_20_on_yellow_and_green_30_on_brown(
        tile: str, printed: int, worth: int) -> None:
    game = line(town=tile)
    town = Vertex("A10", "t0")
    assert small_cities.town_value(game, town) == worth
    assert run(game, "3", LINE) == 20 + worth + 20
    plain = line((), town=tile)
    assert run(plain, "3", LINE) == 20 + printed + 20


def test_rule_2_a_small_city_passed_uncounted_costs_no_length() -> None:
    game = line(trains=("2",))
    # the 2-train counts Topeka and Kansas City and passes A10 without counting it
    assert run(game, "2", LINE) == 40
    plain = line((), trains=("2",))
    with pytest.raises(IllegalOrderError, match="may visit 2 stops, not 3"):
        run(plain, "2", LINE)


def test_rule_2_a_counted_small_city_uses_a_unit_of_length() -> None:
    game = line(trains=("2",))
    assert run(game, "2", ("B9", "A10")) == 40  # Topeka and the town: the whole length
    game3 = line(trains=("3",))
    assert run(game3, "3", LINE) == 60  # room for the town: counted
    # the cities alone must fit: a 2-train may not pass three cities
    problem = game.hooks.routes.run_problem(game, CORP, (owned(game, "2"),),
                                     [Vertex("B9", "c0"), Vertex("A10", "t0"), Vertex("B11", "c0"),
                                      Vertex("C10", "c0")])
    assert problem is not None and "may count 2 cities, not 3" in problem


def test_rule_2_a_route_still_needs_a_city_with_the_companys_token() -> None:
    game = line(trains=("3",), token="C18.0")  # ATSF's only token far away, in St. Louis
    with pytest.raises(IllegalOrderError, match="token"):
        run(game, "3", LINE)
    assert routes.best_run(game, CORP).revenue == 0


def test_run_auto_finds_the_best_choice_of_small_cities() -> None:
    two = line(trains=("2",))
    best = routes.best_run(two, CORP)
    assert best.revenue == 40 and best.complete
    three = line(trains=("3",))
    best = routes.best_run(three, CORP)
    assert best.revenue == 60 and [s.coord for s in best.runs[0][1].stops] in (list(LINE), list(LINE[::-1]))
    plain = line((), trains=("3",))
    assert routes.best_run(plain, CORP).revenue == 50


def test_rule_3_two_2_trains_run_as_one_3_train() -> None:
    game = line(trains=("2", "2"))
    assert run(game, "2+2", LINE) == 60
    best = routes.best_run(game, CORP)
    assert best.revenue == 60 and len(best.joined) == 1
    plain = line((), trains=("2", "2"))
    with pytest.raises(IllegalOrderError, match=r"has no 2\+2 train"):
        run(plain, "2+2", LINE)


@pytest.mark.parametrize("pair", [("3", "3"), ("2", "3")])
def test_rule_3_no_other_trains_run_as_one(pair: tuple[str, str]) -> None:
    game = line(trains=pair)
    with pytest.raises(IllegalOrderError, match="only two 2-trains may run as one"):
        run(game, "+".join(pair), LINE)
    ids = tuple(game.state.corporations[CORP].trains)
    stops = [Vertex("B9", "c0"), Vertex("A10", "t0"), Vertex("B11", "c0")]
    assert game.hooks.routes.run_problem(game, CORP, ids, stops) is not None


def test_plain_1870_is_unchanged() -> None:
    plain = line((), trains=("2",))
    assert not small_cities.active(plain)
    assert plain.title.settings.double_heading is None
    assert run(plain, "2", ("B9", "A10")) == 30
    assert routes.best_run(plain, CORP).revenue == 30


def test_the_report_gives_what_towns_count() -> None:
    game = line(town="3")
    sections = dict(game.title.presentation.report_sections(game))
    lines = sections[small_cities.SECTION]
    assert lines[0].startswith("Towns (small cities) count $10 more than the map and the track list show "
                               "(t10 counts $20, t20 $30)")
    assert "Towns on the map count: A10 $20" in lines, "the yellow #3's printed $10 town"
    game.state.tiles["A10"] = ("145", rotation(game, "A10", "145", ("B9", "B11")))
    assert "Towns on the map count: A10 $30" in dict(game.title.presentation.report_sections(game))[small_cities.SECTION]
    plain = line(())
    assert small_cities.SECTION not in dict(plain.title.presentation.report_sections(plain))
