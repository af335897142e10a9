"""Short scripted games of 1825 by order lines in combined units with kits and options (issue
12, "Tests": "a short scripted game of stock and operating rounds in the combined units with
kits"), each from a new game through stock round 1, operating round 1 and stock round 2,
checking what shows the units and kits in play (the privates, the pars and bands, a kit's
tile, a kit's minor forming with its train, a run priced by hand from the map data, the
operating order, the money and the report); and the rules the scripts found wanting, each
on a built position. The units alone: :mod:`tests.test_1825_scripted`."""

from __future__ import annotations

from pbem.engine.steps.operating.tokens import next_token_cost
from tests.scripts_1825 import new_game

ANN, BOB, CY, DI = "Ann", "Bob", "Cy", "Di"


# -- a company with two homes ----------------------------------------------------------------


def test_the_lnwr_of_units_1_and_2_puts_a_token_on_each_of_its_homes_both_free() -> None:
    game = new_game(("unit_12",), [ANN, BOB, CY])
    game.hooks.place_home_token(game, "LNWR")
    assert game.state.tokens["T16.0"] == ["LNWR"] and game.state.tokens["Q11.0"] == ["LNWR"]
    assert next_token_cost(game, "LNWR") == 40  # its tokens: 0, 0, 40, 100...
    game.hooks.place_home_token(game, "LNWR")  # once only
    assert sum(corps.count("LNWR") for corps in game.state.tokens.values()) == 2


def test_the_gwr_with_r2_puts_a_token_in_swindon_and_in_exeter() -> None:
    game = new_game(("unit_1", "r2"), [ANN, BOB, CY])
    game.hooks.place_home_token(game, "GWR")
    assert game.state.tokens["V14.0"] == ["GWR"] and game.state.tokens["Y7.0"] == ["GWR"]
    assert next_token_cost(game, "GWR") == 40


def test_one_home_is_one_token() -> None:
    game = new_game(("unit_1",), [ANN, BOB, CY])
    game.hooks.place_home_token(game, "GWR")
    assert [key for key, corps in game.state.tokens.items() if "GWR" in corps] == ["V14.0"]
    assert next_token_cost(game, "GWR") == 40
