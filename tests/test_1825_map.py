"""The board of 1825 (:mod:`pbem.titles.g1825.compose_map`, ``rules/1825/parts/map_*.yaml``,
the 1825 section of ``rules/tiles.yaml``).

Each unit and kit is checked on the composed map against facts read off the 18xx.games 1825
module (hex counts, named cities and their revenues, terrain, tile counts), the joins of the
units (which piece a seam hex comes from, fillers only at open edges), the DB variants, the
recorded Unit 1 + R1 game's tile lays (every one on the map, every exit onto a hex), and the
ASCII map of the joined units.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pbem.asciimap import hex_cell, render_map
from pbem.track_words import track_list
from pbem.engine.board import MapData
from pbem.engine.game import Game
from pbem.errors import ConfigError
from pbem.ruleset import load_title
from pbem.ruleset.board import load_tiles, map_from_document
from pbem.ruleset.files import RULES_DIR, read_parts, read_rules_yaml
from pbem.titles.g1825.compose_map import compose_map, location_names
from tests.records import record_path

MAP_YAML = RULES_DIR / "1825" / "map.yaml"


@dataclass(frozen=True)
class Pieces:
    """A selection of 1825 pieces, in the shape compose_map reads."""

    units: frozenset[int] = frozenset()
    regionals: frozenset[int] = frozenset()
    kits: frozenset[int] = frozenset()
    options: frozenset[str] = frozenset()


def pieces(units: str = "", regionals: str = "", kits: str = "", options: str = "") -> Pieces:
    """``pieces("12", "1")``: Units 1 and 2 with R1."""
    return Pieces(frozenset(int(c) for c in units), frozenset(int(c) for c in regionals),
                  frozenset(int(c) for c in kits), frozenset(o for o in options.split(",") if o))


@pytest.fixture(scope="module")
def parts() -> dict[str, Any]:
    return read_parts("1825", RULES_DIR)


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    doc = read_rules_yaml(MAP_YAML)
    assert isinstance(doc, dict)
    return doc


def composed(base: dict[str, Any], parts: dict[str, Any], selection: Pieces) -> MapData:
    """The composed map document, loaded (and checked) as the game's board."""
    return map_from_document(compose_map(base, parts, selection), MAP_YAML, RULES_DIR)


def fillers(board: MapData) -> set[str]:
    """The blank gray fillers: gray, no track, no stop."""
    return {c for c, h in board.hexes.items()
            if h.tile.color == "gray" and not h.tile.paths and not h.tile.cities and not h.tile.towns}


def city_revenues(board: MapData, coord: str) -> list[int]:
    return [c.revenue for c in board.hexes[coord].tile.cities]


# -- Unit 1 --------------------------------------------------------------------------------


def test_unit1_alone_has_its_68_hexes_and_16_fillers(base, parts) -> None:
    board = composed(base, parts, pieces("1"))
    # Unit 1 prints 68 hexes (rows R..Y) and has 16 gray fillers on its open edges.
    assert len(board.hexes) == 68 + 16
    assert fillers(board) == {"Q7", "Q9", "Q11", "Q13", "Q15", "Q17", "Q19", "Q23", "Q25",
                              "R6", "T6", "V6", "X6", "S7", "U7", "Y7"}


def test_unit1_cities_names_and_revenues(base, parts) -> None:
    board = composed(base, parts, pieces("1"))
    london = board.hexes["V20"]
    assert (london.name, london.tile.color, london.tile.label) == ("London", "green", "LD")
    assert city_revenues(board, "V20") == [50] * 6
    assert sorted(london.tile.exits()) == [0, 1, 2, 3, 4, 5]
    birmingham = board.hexes["S13"]
    assert (birmingham.name, birmingham.tile.label, city_revenues(board, "S13")) == ("Birmingham", "BGM", [40] * 3)
    assert (board.hexes["V10"].name, city_revenues(board, "V10")) == ("Bristol", [30])
    for coord, name in (("R12", "Wolverhampton & Walsall"), ("V8", "Cardiff & Newport"),
                        ("X16", "Gosport & Portsmouth")):
        hex_data = board.hexes[coord]
        assert (hex_data.name, hex_data.tile.color, hex_data.tile.label) == (name, "yellow", "OO")
        assert city_revenues(board, coord) == [0, 0]
    # The preprinted sepia towns: gray on our map, their printed track kept.
    for coord, name, revenue in (("T16", "Wolverton", 10), ("V14", "Swindon", 10), ("U25", "Harwich", 20),
                                 ("V22", "Southend", 20), ("W25", "Dover", 20), ("Y13", "Bournemouth", 20)):
        hex_data = board.hexes[coord]
        assert (hex_data.name, hex_data.tile.color, city_revenues(board, coord)) == (name, "gray", [revenue])
        assert hex_data.tile.paths
    assert (board.hexes["T8"].cost, board.hexes["T8"].terrain) == (100, "mountain")
    assert (board.hexes["W23"].name, board.hexes["W23"].cost, board.hexes["W23"].terrain) == ("Ashford", 40, "water")
    assert board.hexes["W19"].name == "Kingston & Reigate" and len(board.hexes["W19"].tile.towns) == 2


def test_unit1_tile_counts(base, parts) -> None:
    counts = composed(base, parts, pieces("1")).tile_counts
    assert (counts["8"], counts["9"], counts["4"], counts["23"], counts["52"]) == (8, 7, 3, 3, 2)
    assert (counts["32"], counts["34"], counts["87"], counts["88"]) == (1, 1, 1, 1)
    assert sum(counts.values()) == 68  # the Unit 1 manifest's 68 tiles
    assert "10" not in counts and "69" not in counts  # R1's tiles


def test_london_and_the_1825_tiles_in_the_catalogue() -> None:
    tiles = load_tiles(RULES_DIR / "tiles.yaml")
    london = tiles["32"]
    assert (london.color, london.label, [c.revenue for c in london.cities]) == ("brown", "LD", [70] * 6)
    assert tiles["48"].color == "gray" and [c.revenue for c in tiles["48"].cities] == [100] * 6
    assert (tiles["119"].color, tiles["166"].color, tiles["200"].color) == ("green", "brown", "brown")
    assert [t.revenue for t in tiles["887"].towns] == [20] and tiles["887"].exits() == frozenset({0, 1, 2, 3})
    assert (tiles["11"].label, len(tiles["11"].towns)) == ("HALT", 1)
    # The tiles 1830 and 1870 use are unchanged by the 1825 section.
    assert tiles["57"].cities[0].revenue == 20 and tiles["63"].cities[0].slots == 2


# -- R1 (Wales) ----------------------------------------------------------------------------


def test_r1_joins_wales_to_unit1(base, parts) -> None:
    alone = composed(base, parts, pieces("1"))
    board = composed(base, parts, pieces("1", "1"))
    # R1 prints 16 hexes; R8 (a blank hex of Unit 1) is R1's city; R1 adds fillers P8.
    assert len(board.hexes) == 68 + 16 - 1 + 11
    assert alone.hexes["R8"].tile.cities == () and city_revenues(board, "R8") == [0]
    for coord, name, revenue in (("P4", "Holyhead", 20), ("U1", "Milford Haven", 10), ("V6", "Swansea", 20)):
        assert (board.hexes[coord].name, board.hexes[coord].tile.color, city_revenues(board, coord)) == (
            name, "gray", [revenue])
    assert board.hexes["T2"].name == "Fishguard" and city_revenues(board, "T2") == [0]
    assert board.hexes["U7"].tile.towns and board.hexes["Q7"].terrain == "mountain"
    # The fillers Wales covers are gone; those at the edges left open remain.
    assert {"R6", "T6", "V6", "S7", "U7", "Q7"}.isdisjoint(fillers(board))
    assert fillers(board) == {"P8", "Q9", "Q11", "Q13", "Q15", "Q17", "Q19", "Q23", "Q25", "X6", "Y7"}


def test_r1_tiles_add_to_unit1(base, parts) -> None:
    counts = composed(base, parts, pieces("1", "1")).tile_counts
    assert (counts["6"], counts["8"], counts["38"], counts["66"]) == (2 + 2, 8 + 2, 2 + 1, 1 + 1)
    assert (counts["10"], counts["11"], counts["35"], counts["37"], counts["69"]) == (1, 1, 1, 1, 1)
    assert sum(counts.values()) == 68 + 20


def test_the_recorded_game_lays_its_tiles_on_the_map(base, parts) -> None:
    """Every tile the recorded Unit 1 + R1 game lays is in the game's tiles and goes on a hex
    of the composed map that takes tiles, its every exit onto a hex of the map: a filler
    (R8's tile points at Q9, as 18xx.games allows), or a sepia hex only where its printed
    track meets the side."""
    board = composed(base, parts, pieces("1", "1"))
    tiles = load_tiles(RULES_DIR / "tiles.yaml")
    rules = parts["map_upgrades"]
    sepia = {c for c, h in board.hexes.items() if h.tile.color == "gray" and h.tile.paths}
    record = json.loads(Path(record_path("1825", "1825_game_end_bank.json")).read_text())
    assert record["settings"]["optional_rules"] == ["unit_1", "r1"]
    lays = [a for a in record["actions"] if a["type"] == "lay_tile"]
    assert lays
    for action in lays:
        coord, name = action["hex"], action["tile"].split("-")[0]
        assert name in board.tile_counts, action
        assert board.hexes[coord].tile.color not in ("gray", "red", "blue"), action
        for edge in tiles[name].exits(action["rotation"]):
            other = board.neighbor(coord, edge)
            assert other is not None, action
            if other in sepia:  # only where the sepia hex's printed track meets it
                assert (edge + 3) % 6 in board.hexes[other].tile.exits(), action
    assert rules["track_may_point_into"] == {"filler": True, "sepia": "printed_edges"}
    assert any(board.neighbor(a["hex"], e) in fillers(board) for a in lays
               for e in tiles[a["tile"].split("-")[0]].exits(a["rotation"]))


# -- Units 2 and 3, and how the units join ------------------------------------------------


def test_unit2_alone(base, parts) -> None:
    board = composed(base, parts, pieces("2"))
    assert len(board.hexes) == 36 + 12  # 36 printed hexes, 12 fillers
    assert fillers(board) == {"K9", "K11", "K13", "K15", "Q7", "R8", "R10", "R12", "R14", "R16", "R18", "R20"}
    liverpool, manchester = board.hexes["O9"], board.hexes["O11"]
    assert (liverpool.name, liverpool.tile.label, city_revenues(board, "O9")) == ("Liverpool", "L", [40, 40])
    assert (manchester.name, manchester.tile.label, city_revenues(board, "O11")) == ("Manchester", "BGM", [40] * 3)
    barrow = board.hexes["M9"]
    assert (barrow.name, barrow.tile.color, city_revenues(board, "M9")) == ("Barrow & Morecombe", "gray", [10])
    assert [t.revenue for t in barrow.tile.towns] == [10]
    assert (board.hexes["O15"].name, city_revenues(board, "O15")) == ("Barnsley & Doncaster", [20, 20])
    assert (board.hexes["Q11"].name, board.hexes["Q11"].tile.color, city_revenues(board, "Q11")) == ("Crewe", "gray", [10])
    assert (board.hexes["N18"].name, board.hexes["N18"].cost) == ("Hull", 40)
    assert board.hexes["P14"].terrain == "mountain" and board.hexes["P14"].cost == 100
    # A name goes with its coordinate, even on a filler (as on 18xx.games).
    assert board.hexes["R10"].name == "Shrewsbury" and "R10" in fillers(board)
    counts = board.tile_counts
    assert (counts["114"], counts["33"], counts["12"], counts["38"]) == (1, 1, 3, 3)
    assert (counts["49"], counts["50"], counts["51"]) == (1, 1, 2)  # Unit 2's gray tiles


def test_unit3_alone(base, parts) -> None:
    board = composed(base, parts, pieces("3"))
    assert len(board.hexes) == 49 + 10  # 49 printed hexes, 10 fillers
    assert fillers(board) == {"B6", "C1", "B10", "C3", "C5", "L8", "L10", "L12", "L14", "L16"}
    glasgow = board.hexes["G5"]
    assert (glasgow.name, glasgow.tile.label, city_revenues(board, "G5")) == ("Glasgow", "BGM", [40] * 3)
    for coord, name in (("G9", "Edinburgh & Leith"), ("J14", "Newcastle upon Tyne & Sunderland")):
        assert (board.hexes[coord].name, board.hexes[coord].tile.label) == (name, "OO")
    assert board.hexes["J14"].cost == 40
    for coord, name, revenue in (("B12", "Aberdeen", 30), ("B8", "Inverness", 20), ("E1", "Oban", 20),
                                 ("K7", "Maryport", 10)):
        assert (board.hexes[coord].name, board.hexes[coord].tile.color, city_revenues(board, coord)) == (
            name, "gray", [revenue])
    assert board.hexes["E7"].name == "Perth" and board.hexes["E7"].tile.cities[0].slots == 2
    assert (board.hexes["F4"].cost, board.hexes["F4"].terrain) == (140, "mountain|water")
    assert board.hexes["G7"].name == "Coatbridge & Airdrie"
    assert board.hexes["K13"].name == "Durham" and len(board.hexes["K13"].tile.towns) == 1
    counts = board.tile_counts
    assert (counts["115"], counts["81"], counts["118"], counts["63"], counts["8"]) == (1, 1, 1, 2, 6)


def test_units_1_and_2_join_at_rows_q_and_r(base, parts) -> None:
    board = composed(base, parts, pieces("12"))
    unit1, unit2 = composed(base, parts, pieces("1")), composed(base, parts, pieces("2"))
    assert len(board.hexes) == 68 + 36 + 14
    # Row Q is Unit 2's (Unit 1 has fillers there), row R Unit 1's (Unit 2 has fillers there).
    for coord in ("Q9", "Q11", "Q13", "Q15", "Q17", "Q19"):
        assert board.hexes[coord] == unit2.hexes[coord] and coord in fillers(unit1)
    for coord in ("R8", "R10", "R12", "R14", "R16", "R18", "R20"):
        assert board.hexes[coord] == unit1.hexes[coord] and coord in fillers(unit2)
    assert board.hexes["Q17"].name == "Nottingham" and city_revenues(board, "Q17") == [0]
    assert board.hexes["R10"].name == "Shrewsbury" and board.hexes["R10"].tile.towns
    # Fillers remain only at the edges no unit joins.
    assert fillers(board) == {"Q7", "Q23", "Q25", "R6", "T6", "V6", "X6", "S7", "U7", "Y7",
                              "K9", "K11", "K13", "K15"}
    # Across the seam, Wolverhampton & Walsall (R12) borders Crewe (Q11) and Newcastle & Hanley (Q13).
    assert board.neighbor("R12", 2) == "Q11" and board.neighbor("R12", 3) == "Q13"
    counts = board.tile_counts
    assert (counts["8"], counts["9"], counts["12"], counts["52"]) == (8 + 4, 7 + 4, 2 + 3, 2 + 2)


def test_units_2_and_3_join_at_rows_k_and_l(base, parts) -> None:
    board = composed(base, parts, pieces("23"))
    unit2, unit3 = composed(base, parts, pieces("2")), composed(base, parts, pieces("3"))
    assert len(board.hexes) == 36 + 49 + 13
    for coord in ("K9", "K11", "K13", "K15"):
        assert board.hexes[coord] == unit3.hexes[coord] and coord in fillers(unit2)
    for coord in ("L8", "L10", "L12", "L14", "L16"):
        assert board.hexes[coord] == unit2.hexes[coord] and coord in fillers(unit3)
    assert board.hexes["L14"].name == "Darlington" and board.hexes["K15"].name == "Stockton on Tees & Middlesbrough"
    assert fillers(board) == {"Q7", "R8", "R10", "R12", "R14", "R16", "R18", "R20", "B6", "C1", "B10", "C3", "C5"}


def test_all_three_units(base, parts) -> None:
    board = composed(base, parts, pieces("123"))
    assert len(board.hexes) == 68 + 36 + 49 + 15
    assert fillers(board) == {"Q7", "Q23", "Q25", "R6", "T6", "V6", "X6", "S7", "U7", "Y7",
                              "B6", "C1", "B10", "C3", "C5"}
    counts = board.tile_counts
    assert (counts["8"], counts["9"], counts["14"], counts["15"]) == (8 + 4 + 6, 7 + 4 + 5, 2 + 2 + 3, 2 + 2 + 3)
    assert (counts["87"], counts["88"], counts["32"], counts["118"]) == (1, 1, 1, 1)


def test_the_striped_tiles_rules_name_real_tiles_and_hexes(base, parts) -> None:
    board = composed(base, parts, pieces("123"))
    tiles = load_tiles(RULES_DIR / "tiles.yaml")
    rules = parts["map_upgrades"]
    named = set(rules["extra_upgrades"]) | {t for ts in rules["extra_upgrades"].values() for t in ts}
    named |= set(rules["illegal_upgrades"]) | {t for ts in rules["illegal_upgrades"].values() for t in ts}
    assert named <= set(tiles)
    assert rules["extra_upgrades"]["8"] == ["11"] and rules["illegal_upgrades"]["81"] == ["40"]
    # Tile 200 goes only on the preprinted sepia cities Crewe, Wolverton and Swindon.
    assert [board.hexes[c].name for c in rules["tile_rules"]["200"]["only_on"]] == ["Crewe", "Wolverton", "Swindon"]
    for coord in rules["tile_rules"]["200"]["only_on"]:
        hex_data = board.hexes[coord]
        assert hex_data.tile.color == "gray" and [c.revenue for c in hex_data.tile.cities] == [10]
        assert len(hex_data.tile.exits()) == 4
    assert rules["tile_rules"]["119"]["needs_phase_color"] == "brown"


# -- the regional kits R3, the extension kits, Dave Berry's variants ----------------------


def test_r3_north_norfolk(base, parts) -> None:
    board = composed(base, parts, pieces("1", "3"))
    melton = board.hexes["Q23"]
    assert (melton.name, melton.tile.color, city_revenues(board, "Q23")) == ("Melton Constable", "gray", [10])
    assert board.hexes["Q25"].tile.color == "white"
    assert {"Q23", "Q25"}.isdisjoint(fillers(board)) and len(board.hexes) == 68 + 16
    counts = board.tile_counts
    assert (counts["8"], counts["9"], counts["11"], counts["14"]) == (8 + 1, 7 + 2, 1, 2 + 1)


def test_the_extension_kits_tiles(base, parts) -> None:
    plain = composed(base, parts, pieces("12")).tile_counts
    k1 = composed(base, parts, pieces("12", kits="1")).tile_counts
    assert (k1["17"], k1["21"], k1["30"], k1["18"], k1["39"]) == (1, 1, 1, plain["18"] + 1, plain["39"] + 1)
    k3 = composed(base, parts, pieces("12", kits="3")).tile_counts
    # K3's gray tiles replace Unit 2's.
    assert (k3["48"], k3["49"], k3["50"], k3["51"], k3["60"], k3["166"], k3["168"]) == (1, 1, 2, 3, 2, 4, 2)
    assert (plain["49"], plain["50"], plain["51"]) == (1, 1, 2) and "48" not in plain
    k5 = composed(base, parts, pieces("2", kits="5")).tile_counts
    assert (k5["119"], k5["15"], k5["69"]) == (1, 2 + 1, 1 + 1)
    k6 = composed(base, parts, pieces("1", kits="6")).tile_counts
    assert (k6["198"], k6["199"], k6["11"], k6["82"], k6["83"], k6["119"], k6["200"], k6["58"]) == (1, 1, 2, 1, 1, 2, 2, 2)
    d1 = composed(base, parts, pieces("1", options="d1")).tile_counts
    assert (d1["10"], d1["11"], d1["36"], d1["174"], d1["115"], d1["7"]) == (3, 3, 1, 2, 2, 2 + 2)


def test_db1_replaces_87_and_88(base, parts) -> None:
    counts = composed(base, parts, pieces("123", options="db1")).tile_counts
    assert "87" not in counts and "88" not in counts
    assert (counts["887"], counts["888"]) == (2 + 1, 2 + 1)
    assert (counts["14"], counts["15"]) == (2 + 2 + 3 - 1, 2 + 2 + 3 - 1)
    only1 = composed(base, parts, pieces("1", options="db1")).tile_counts
    assert (only1["887"], only1["888"], only1["14"]) == (2, 2, 2)
    only2 = composed(base, parts, pieces("2", options="db1")).tile_counts
    assert "887" not in only2 and "87" not in only2


def test_db2_ashford_without_its_river(base, parts) -> None:
    board = composed(base, parts, pieces("1", options="db2"))
    assert board.hexes["W23"].name == "Ashford" and board.hexes["W23"].cost == 0
    assert city_revenues(board, "W23") == [0]
    assert composed(base, parts, pieces("1")).hexes["W23"].cost == 40


def test_db3_scotland(base, parts) -> None:
    plain = composed(base, parts, pieces("3"))
    board = composed(base, parts, pieces("3", options="db3"))
    # DB3 adds Berwick (G13), a hex Unit 3 does not print.
    assert set(board.hexes) == set(plain.hexes) | {"G13"} and "G13" not in plain.hexes
    assert board.hexes["G7"].name == "Falkirk & Airdrie" and plain.hexes["G7"].name == "Coatbridge & Airdrie"
    assert board.hexes["G13"].name == "Berwick" and city_revenues(board, "G13") == [0]
    assert board.hexes["J6"].tile.towns and not board.hexes["J6"].tile.cities
    assert (board.hexes["I9"].cost, plain.hexes["I9"].cost) == (0, 100)
    f4 = board.hexes["F4"]
    assert (f4.cost, f4.terrain, f4.border(0).kind if f4.border(0) else None) == (100, "mountain", "impassable")
    assert board.hexes["H10"].tile.towns and not plain.hexes["H10"].tile.towns  # Galashiels
    assert sorted(board.hexes["F2"].tile.exits()) == [3, 4, 5]
    counts, before = board.tile_counts, plain.tile_counts
    assert (counts["206"], counts["58"]) == (1, 1) and "206" not in before and "58" not in before


# -- R2 (the South West) and Unit 4 (the Highlands): coordinates past A and 1 -------------


def test_r2_the_south_west(base, parts) -> None:
    alone = composed(base, parts, pieces("1"))
    board = composed(base, parts, pieces("1", "2"))
    # R2 prints 13 hexes; W9 is R2's (a city on Unit 1's printed track), X6 and Y7 replace fillers.
    assert len(board.hexes) == 68 + 13 - 1 + 14
    assert city_revenues(board, "W9") == [10] and alone.hexes["W9"].tile.cities == ()
    assert board.hexes["W9"].tile.exits() == alone.hexes["W9"].tile.exits() | {5}
    assert board.neighbor("W9", 5) == "X10" and alone.neighbor("W9", 5) == "X10"
    for coord, name in (("X4", "Barnstaple"), ("Z2", "Fowey"), ("Z6", "Torquay"), ("AA-1", "Penzance")):
        assert (board.hexes[coord].name, len(board.hexes[coord].tile.towns)) == (name, 1)
    for coord, name in (("Y7", "Exeter"), ("AA1", "Falmouth")):
        assert (board.hexes[coord].name, city_revenues(board, coord)) == (name, [0])
    plymouth = board.hexes["Z4"]
    assert (plymouth.name, plymouth.tile.label, plymouth.tile.color) == ("Devonport & Plymouth", "OO", "yellow")
    assert board.hexes["Z0"].tile.color == "white" and board.neighbor("Z0", 0) == "AA-1"
    assert {"X6", "Y7"}.isdisjoint(fillers(board))
    counts = board.tile_counts
    assert (counts["115"], counts["58"], counts["10"], counts["3"]) == (1, 1, 1, 1 + 1)


def test_unit4_the_highlands_north_of_unit3(base, parts) -> None:
    plain = composed(base, parts, pieces("3"))
    board = composed(base, parts, pieces("3", options="unit_4"))
    # Unit 4 prints 26 hexes; its B8 and B12 take the place of Unit 3's, and it covers
    # every filler of Unit 3's northern edge.
    assert len(board.hexes) == 49 + 26 - 2 + 5
    assert fillers(board) == {"L8", "L10", "L12", "L14", "L16"}
    assert board.hexes["A5"].name == "Inverness" and city_revenues(board, "A5") == [0]
    assert board.hexes["B8"].name is None and board.hexes["B8"].terrain == "mountain"
    assert plain.hexes["B8"].name == "Inverness" and plain.hexes["B8"].tile.color == "gray"
    assert board.hexes["B12"].name == "Aberdeen" and board.hexes["B12"].tile.color == "white"
    assert board.hexes["C3"].name == "Fort William" and board.hexes["C3"].tile.towns
    assert board.hexes["c8"].name == "Wick" and city_revenues(board, "c8") == [0]
    for coord, name in (("a8", "Elgin"), ("a12", "Fraserburgh"), ("B0", "Malaig")):
        hex_data = board.hexes[coord]
        assert (hex_data.name, hex_data.tile.color, [t.revenue for t in hex_data.tile.towns]) == (name, "gray", [10])
    assert board.neighbor("A5", 3) == "a6" and board.neighbor("a6", 2) == "b5"
    assert board.tile_counts == plain.tile_counts
    # Its names go with the option: without it, no A5, C3 is Unit 3's filler.
    assert "A5" not in plain.hexes and plain.hexes["C3"].name is None


def test_location_names_follow_the_options(parts) -> None:
    names = location_names(parts, pieces("3"))
    assert (names["G7"], names["B8"], "A5" in names) == ("Coatbridge & Airdrie", "Inverness", False)
    names = location_names(parts, pieces("3", options="unit_4,db3"))
    assert (names["G7"], "B8" in names, names["A5"], names["C3"]) == (
        "Falkirk & Airdrie", False, "Inverness", "Fort William")


# -- composing -----------------------------------------------------------------------------


def test_compose_copies_its_inputs(base, parts) -> None:
    before = copy.deepcopy(parts)
    doc = compose_map(base, parts, pieces("1", "1"))
    doc["hexes"]["V20"]["name"] = "changed"
    assert parts == before and base == read_rules_yaml(MAP_YAML)


def test_the_base_document_comes_first(base, parts) -> None:
    doc = dict(base, hexes={"V20": {"color": "white"}}, tile_counts={"8": 1})
    board = map_from_document(compose_map(doc, parts, pieces("1")), MAP_YAML, RULES_DIR)
    assert board.hexes["V20"].tile.cities == () and board.tile_counts["8"] == 1 + 8


def test_a_total_of_zero_drops_the_tile_and_below_zero_fails(base, parts) -> None:
    changed = dict(parts, map_k1={"tiles": {"8": -8, "17": 1}})
    counts = composed(base, changed, pieces("1", kits="1")).tile_counts
    assert "8" not in counts and counts["17"] == 1
    changed = dict(parts, map_k1={"tiles": {"9": -8}})
    with pytest.raises(ConfigError, match="tile 9 comes to -1"):
        compose_map(base, changed, pieces("1", kits="1"))


def test_conflicting_drawings_of_a_tile_fail(base, parts) -> None:
    changed = dict(parts, map_k1={"tiles": {"32": 1}})  # the standard 32, Unit 1 has its own
    with pytest.raises(ConfigError, match="conflicting definitions of tile 32"):
        compose_map(base, changed, pieces("1", kits="1"))


def test_a_missing_part_fails(base, parts) -> None:
    changed = {k: v for k, v in parts.items() if k != "map_r1"}
    with pytest.raises(ConfigError, match="map_r1"):
        compose_map(base, changed, pieces("1", "1"))


# -- the ASCII map -------------------------------------------------------------------------


VARIANTS = {
    "unit 1 with Wales": ("unit_1", "r1"),
    "three units, every regional kit": ("unit_123", "r1", "r2", "r3"),
    "with Unit 4, DB2 and DB3": ("unit_123", "r1", "r2", "r3", "unit_4", "db2", "db3"),
}


@pytest.mark.parametrize("variants", list(VARIANTS.values()), ids=list(VARIANTS))
def test_the_title_plays_on_the_composed_map(base, parts, variants: tuple[str, ...]) -> None:
    """The loaded 1825 title's board is the composed map of its pieces, and every
    corporation's home is a city on it."""
    title = load_title("1825", variants)
    units = "".join(c for c in variants[0] if c.isdigit())
    regionals = "".join(v[1] for v in variants if v.startswith("r"))
    options = ",".join(v for v in variants[1:] if not v.startswith("r"))
    board = composed(base, parts, pieces(units, regionals, options=options))
    assert dict(title.board.hexes) == dict(board.hexes)
    assert dict(title.board.tile_counts) == dict(board.tile_counts)
    for corporation in title.corporations:
        cities = title.board.hexes[corporation.home].tile.cities
        assert cities and (corporation.home_city or 0) < len(cities), corporation.sym


@pytest.mark.parametrize("width", [132, 80])
@pytest.mark.parametrize("variants", list(VARIANTS.values()), ids=list(VARIANTS))
def test_ascii_map_of_the_joined_units(width: int, variants: tuple[str, ...]) -> None:
    """The joined map of a new 1825 game draws at 132 and 80 columns: every line fits, every
    hex's cell is drawn once with its cities, every label is shown in its hex's cell, and
    every named hex with track by name in the track list (the map's cells carry
    coordinates, not names)."""
    game = Game(load_title("1825", variants), ["A", "B", "C", "D"])
    board = game.board
    text = render_map(game, width=width)
    lines = text.splitlines()
    assert all(len(line) <= width for line in lines)
    assert "Map, part 1 of" in text and "London & North Western Railway" in text
    words = " ".join(track_list(game, width=width).split())
    for coord, hex_data in board.hexes.items():
        cells = sum(len(re.findall(rf"[|#~^]{re.escape(coord)}(?= |[|#~^]|$)", line)) for line in lines)
        assert cells == 1, coord
        cell = hex_cell(game, coord)
        assert all(part in text for part in cell), coord
        if hex_data.tile.label:
            assert f"<{hex_data.tile.label}>" in "".join(cell), coord
        if hex_data.tile.cities or hex_data.tile.towns:
            assert len(cell) >= 1 + len(hex_data.tile.cities), coord
        if hex_data.name and hex_data.tile.paths:
            assert f"{coord} {hex_data.name}" in words
