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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from pbem.asciimap import render_map, track_list
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
    of the composed map that takes tiles, its every exit onto a hex of the map (R8's tile
    points at the filler Q9, which 18xx.games allows)."""
    board = composed(base, parts, pieces("1", "1"))
    tiles = load_tiles(RULES_DIR / "tiles.yaml")
    record = json.loads(Path(record_path("1825", "1825_game_end_bank.json")).read_text())
    assert record["settings"]["optional_rules"] == ["unit_1", "r1"]
    lays = [a for a in record["actions"] if a["type"] == "lay_tile"]
    assert lays
    for action in lays:
        coord, name = action["hex"], action["tile"].split("-")[0]
        assert name in board.tile_counts, action
        assert board.hexes[coord].tile.color not in ("gray", "red", "blue"), action
        for edge in tiles[name].exits(action["rotation"]):
            assert board.neighbor(coord, edge) is not None, action


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


def drawn_game(board: MapData) -> Game:
    """A game on ``board`` (the rest of the title is 1830's: only the map is drawn)."""
    return Game(replace(load_title("1830"), board=board), ["A", "B"])


@pytest.mark.parametrize("width", [132, 80])
def test_ascii_map_of_unit1_with_wales(base, parts, width: int) -> None:
    board = composed(base, parts, pieces("1", "1"))
    game = drawn_game(board)
    text = render_map(game, width=width)
    assert all(len(line) <= width for line in text.splitlines())
    words = track_list(game, width=width)
    for coord, hex_data in board.hexes.items():
        assert coord in text
        if hex_data.tile.label:
            assert f"<{hex_data.tile.label}>" in text
        if hex_data.name and hex_data.tile.paths:
            assert f"{coord} {hex_data.name}" in " ".join(words.split())
