"""1825's options: the combinations 18xx.games refuses are refused with the reason, the units
follow the number of players when none is named, unit names take their canonical form, and
each combination of units allows its own number of players (issue 12: "the constraints
between them (which need or exclude which) are refused with a clear message at new-game.
With no unit named, the unit follows the number of players as 18xx.games does").
"""

from __future__ import annotations

from typing import Any

import pytest

from pbem.errors import ConfigError
from pbem.games import genesis_data
from pbem.ruleset import available_variants
from pbem.titles.g1825 import COMPOSER
from pbem.titles.g1825.selection import (
    FLAG_OPTIONS,
    KIT_OPTIONS,
    REGIONAL_OPTIONS,
    UNIT_OPTIONS,
    Selection,
    check,
    resolve,
    selection_of,
)

def _genesis(variants: tuple[str, ...], players: int) -> dict[str, Any]:
    names = [f"P{i}" for i in range(players)]
    return genesis_data("g1", "1825", variants, [(n, f"{n.lower()}@example.org") for n in names],
                        "gm@example.org", {n: "secret" for n in names}, "gm-secret")


# --- reading the names ---------------------------------------------------------------------------


def test_a_selection_gathers_units_kits_and_flags() -> None:
    s = selection_of(("unit_1", "unit_2", "r1", "r3", "k3", "k2", "big_bank", "lorenz"))
    assert s == Selection(frozenset({1, 2}), frozenset({1, 3}), frozenset({2, 3}), frozenset({"big_bank", "lorenz"}))
    assert s.unit_key == "12" and s.unit_option == "unit_12"
    assert s.has("unit_1") and s.has("unit_2") and not s.has("unit_3") and s.has("r3") and not s.has("r2")
    assert s.has("k2") and not s.has("k5") and s.has("big_bank") and not s.has("strict_bank")


def test_every_option_has_a_variant_file() -> None:
    names = set(UNIT_OPTIONS) | set(REGIONAL_OPTIONS) | set(KIT_OPTIONS) | FLAG_OPTIONS
    files = set(available_variants("1825"))
    assert names - {"lorenz"} <= files  # lorenz.yaml is its own owner's


# --- constraints -----------------------------------------------------------------------------------

REFUSED = [
    (("k1",), "no unit named"),
    (("unit_1", "unit_3"), "Units 1 and 3 join only through Unit 2"),
    (("unit_2", "r1"), "the regional kits r1, r2 and r3 join Unit 1's map: they need Unit 1"),
    (("unit_3", "r2"), "they need Unit 1"),
    (("unit_1", "k5"), "k5 brings minors for Unit 2: it needs Unit 2"),
    (("unit_2", "k7"), "k7 (London, Tilbury & Southend) is on Unit 1's map: it needs Unit 1"),
    (("unit_3", "k2", "k3"), "k2 (advanced trains) is not played with Unit 3 alone"),
    (("unit_1", "k2"), "k2 (advanced trains) needs k3 (phase four)"),
    (("unit_12", "u3p"), "u3p adds Unit 3's 3T and U3 trains: it needs Unit 3"),
    (("unit_1", "d1", "k1"), "d1 replaces k1 and k6: play d1 or k1/k6, not both"),
    (("unit_1", "d1", "k6"), "d1 replaces k1 and k6"),
    (("unit_12", "big_bank", "strict_bank"), "big_bank and strict_bank are two sizes of bank: choose one"),
    (("unit_2", "db1"), "db1 changes nothing in a game of Unit 2 alone"),
    (("unit_23", "db2"), "db2 changes the SECR of Unit 1: it needs Unit 1"),
    (("unit_12", "db3"), "db3 revises Unit 3's map: it needs Unit 3"),
    (("unit_12", "unit_4"), "unit_4 joins Unit 3's map: it needs Unit 3"),
    (("unit_12", "unit_3"), "name the units with one option: unit_12 and unit_3 overlap"),
    (("unit_123", "unit_1"), "name the units with one option"),
]


@pytest.mark.parametrize(("variants", "message"), REFUSED)
def test_a_refused_combination_says_why(variants: tuple[str, ...], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        resolve(variants, 4 if "unit_123" in variants or "unit_12" in variants else 2)
    assert message in str(info.value) and str(info.value).startswith("1825: ")


@pytest.mark.parametrize("variants", [
    ("unit_3", "u3p", "db3", "unit_4"),
    ("unit_12", "k2", "k3", "k5", "k7", "r1", "r2", "r3", "k1", "k6", "db1", "db2", "big_bank"),
    ("unit_1", "d1", "strict_bank", "db1", "db2"),
    ("unit_23", "k2", "k3", "k5", "u3p", "db1", "db3"),
])
def test_allowed_combinations_pass(variants: tuple[str, ...]) -> None:
    check(selection_of(variants))


def test_the_hooks_refuse_at_new_game() -> None:
    with pytest.raises(ConfigError, match="k5 brings minors for Unit 2"):
        _genesis(("unit_1", "k5"), 2)


# --- defaults and canonical forms ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "expected"), [
    (2, ("unit_3",)), (3, ("unit_2",)), (4, ("unit_1",)), (5, ("unit_1",)), (6, ("unit_12",)),
    (7, ("unit_12",)), (8, ("unit_123",)), (9, ("unit_123", "r1", "r2", "r3")),
])
def test_no_option_named_plays_the_units_of_the_player_count(players: int, expected: tuple[str, ...]) -> None:
    assert resolve((), players) == expected
    assert COMPOSER.resolve_variants((), players) == expected


def test_lorenz_alone_names_no_unit_and_keeps_its_place() -> None:
    assert resolve(("lorenz",), 4) == ("unit_1", "lorenz")


def test_no_default_without_a_number_of_players() -> None:
    with pytest.raises(ConfigError, match="no unit named"):
        resolve((), None)


@pytest.mark.parametrize(("variants", "players", "expected"), [
    (("unit_1", "unit_2"), 4, ("unit_12",)),
    (("unit_2", "r1", "unit_1"), 4, ("unit_12", "r1")),
    (("unit_3", "unit_2"), 3, ("unit_23",)),
    (("unit_1", "unit_2", "unit_3", "k3"), 5, ("unit_123", "k3")),
    (("r1", "unit_1"), 2, ("unit_1", "r1")),
    (("unit_1", "r1"), 2, ("unit_1", "r1")),
])
def test_units_named_apart_take_their_combined_name(variants: tuple[str, ...], players: int,
                                                    expected: tuple[str, ...]) -> None:
    assert resolve(variants, players) == expected


def test_new_game_records_the_resolved_variants() -> None:
    assert _genesis((), 4)["variants"] == ["unit_1"]
    assert _genesis(("r1", "unit_1"), 2)["variants"] == ["unit_1", "r1"]


# --- player ranges -----------------------------------------------------------------------------


@pytest.mark.parametrize(("unit", "low", "high"), [
    ("unit_1", 2, 5), ("unit_2", 2, 4), ("unit_3", 2, 2), ("unit_12", 3, 7), ("unit_23", 3, 5), ("unit_123", 4, 8),
])
def test_each_combination_of_units_has_its_players(unit: str, low: int, high: int) -> None:
    assert selection_of((unit,)).player_range() == (low, high)
    assert resolve((unit,), low) == (unit,) and resolve((unit,), high) == (unit,)
    for wrong in (low - 1, high + 1):
        with pytest.raises(ConfigError, match=f"is for .* players, not {wrong}"):
            resolve((unit,), wrong)


def test_a_regional_kit_lets_nine_play_all_three_units() -> None:
    assert selection_of(("unit_123", "r2")).player_range() == (4, 9)
    assert resolve(("unit_123", "r2"), 9) == ("unit_123", "r2")
    with pytest.raises(ConfigError, match="Unit 1 \\+ Unit 2 \\+ Unit 3 is for 4 to 8 players, not 9"):
        resolve(("unit_123",), 9)
    with pytest.raises(ConfigError, match="Unit 3 is for 2 players, not 3"):
        resolve(("unit_3",), 3)
