"""A home that names no city on a hex of two (1830's ERIE on E11, 1825's Taff Vale on V8,
R1), before its token is placed: the title rule ``home_naming_no_city`` says what it keeps
(pbem/engine/track.py). 1830 keeps the whole hex; 1825 one slot of the hex, in whichever
city is left; each as 18xx.games plays it, the other a setting the GM can choose."""

from __future__ import annotations

import pytest

from pbem.engine.values import CityRef
from pbem.asciimap import station_marks
from pbem.engine import track
from pbem.engine.game import Game
from pbem.ruleset import load_title


def game_1825() -> Game:
    game = Game(load_title("1825", ("unit_1", "r1")), ["A", "B", "C", "D"])
    game.state.tiles["V8"] = ("52", 1)  # a green OO tile: two cities of one slot, with track
    return game


def test_1825_another_company_may_take_either_city_while_one_is_left_for_the_home() -> None:
    game = game_1825()
    assert game.title.title_rule(track.HOME_NAMING_NO_CITY) == "one_city_left"
    assert track.held_on_hex(game, "V8") == ["TV"]
    assert track.free_slots(game, "V8", 0, "GWR") == 1 and track.free_slots(game, "V8", 1, "GWR") == 1
    game.state.tokens[CityRef("V8", 0)] = ["GWR"]
    assert track.free_slots(game, "V8", 1, "LNWR") == 0, "the city left is the Taff Vale's"
    assert track.token_problem(game, "LNWR", "V8", 1, ignore_reach=True) == "the city on V8 has no free slot"
    assert track.free_slots(game, "V8", 1, "TV") == 1


def test_1825_the_home_token_goes_in_the_city_left() -> None:
    game = game_1825()
    game.state.tokens[CityRef("V8", 0)] = ["GWR"]
    game.hooks.track.place_home_token(game, "TV")
    assert game.state.tokens[CityRef("V8", 1)] == ["TV"] and not game.state.pending_tokens
    assert track.held_on_hex(game, "V8") == []
    assert track.free_slots(game, "V8", 1, "LNWR") == 0, "full now"


def test_1825_the_map_shows_the_slot_kept_in_the_first_city_with_room() -> None:
    game = game_1825()
    assert station_marks(game, "V8", 0) == ["tv"] and station_marks(game, "V8", 1) == ["."]
    game.state.tokens[CityRef("V8", 0)] = ["GWR"]
    assert station_marks(game, "V8", 0) == ["GWR"] and station_marks(game, "V8", 1) == ["tv"]


def test_1830_erie_keeps_the_whole_hex_until_its_token() -> None:
    game = Game(load_title("1830"), ["A", "B", "C"])
    assert game.title.title_rule(track.HOME_NAMING_NO_CITY) == "whole_hex"
    game.state.tiles["E11"] = ("59", 0)  # yellow OO: side 0 to one city, side 2 to the other
    for city in (0, 1):
        assert track.free_slots(game, "E11", city, "NYC") == 0
        assert track.free_slots(game, "E11", city, "ERIE") == 1
    game.hooks.track.place_home_token(game, "ERIE")
    assert [entry.corporation for entry in game.state.pending_tokens] == ["ERIE"], "both free: the president chooses"
    game.state.pending_tokens.clear()
    game.state.tokens[CityRef("E11", 1)] = ["ERIE"]
    assert track.free_slots(game, "E11", 0, "NYC") == 1


def test_the_other_reading_is_a_variant_the_gm_names() -> None:
    game = Game(load_title("1830", ("home_one_city_left",)), ["A", "B", "C"])
    game.state.tiles["E11"] = ("59", 0)
    assert track.free_slots(game, "E11", 0, "NYC") == 1
    game.state.tokens[CityRef("E11", 0)] = ["NYC"]
    assert track.free_slots(game, "E11", 1, "B&O") == 0 and track.free_slots(game, "E11", 1, "ERIE") == 1
    game = Game(load_title("1825", ("unit_1", "r1", "home_whole_hex")), ["A", "B", "C", "D"])
    game.state.tiles["V8"] = ("52", 1)
    assert track.free_slots(game, "V8", 0, "GWR") == 0 and track.free_slots(game, "V8", 1, "TV") == 1


@pytest.mark.parametrize("title, variants, note, says", [
    ("1830", (), "Erie's home", "no other corporation may place a token in either city of E11"),
    ("1830", ("home_one_city_left",), "Erie's home", "in whichever of its two cities is left"),
    ("1825", ("unit_1", "r1"), "Taff Vale's home", "in whichever of its two cities is left"),
    ("1825", ("unit_1", "r1", "home_whole_hex"), "Taff Vale's home", "in either city of Cardiff"),
])
def test_help_says_which_reading_the_game_plays(title: str, variants: tuple[str, ...], note: str, says: str) -> None:
    assert says in " ".join(load_title(title, variants).settings.help_notes[note].split())


def test_a_token_refused_in_one_city_names_the_city_that_would_take_it() -> None:
    """Issue 22: a refusal gives a line that would be accepted (TOKEN V8 on a hex of two
    cities names the free one)."""
    from pbem.engine.actions import PlaceToken
    from pbem.engine.steps.operating.tokens import place_token
    from pbem.errors import IllegalOrderError

    game = game_1825()
    game.state.tokens[CityRef("V8", 0)] = ["GWR"]
    with pytest.raises(IllegalOrderError, match=r"no free slot \(city V8\.0\); TOKEN V8\.1 would be accepted"):
        place_token(game, "TV", PlaceToken("V8", 0), ignore_reach=True)
    game.state.tokens[CityRef("V8", 1)] = ["LNWR"]
    with pytest.raises(IllegalOrderError, match="no city of V8 takes TV's token now"):
        place_token(game, "TV", PlaceToken("V8", 0), ignore_reach=True)
