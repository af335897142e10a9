"""The board of 1829 (:mod:`pbem.titles.g1829.composer`, ``rules/1829/parts/map_*.yaml``):
the South and North boards on 1825's grid, and Stuart Dagger's combined board.

Facts checked come from the seed's text (the two mountains removed, the tile list, the
packets' ports), the 18xx.games 1829 module (South board coordinates and homes) and the
ps18xx 1829 map files (North board homes and ports), and 1825's names of the grid's hexes
(``rules/1825/parts/map_names.yaml``) for the offset.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from pbem.engine.board import MapData
from pbem.errors import ConfigError
from pbem.ruleset import load_title
from pbem.ruleset.board import load_tiles, map_from_document, read_map_document
from pbem.ruleset.files import RULES_DIR, read_parts, read_rules_yaml
from pbem.titles.g1829.composer import Composer1829, board_of, compose_map

MAP_YAML = RULES_DIR / "1829" / "map.yaml"

SEED_TILES = (
    "3 of tile 1; 3 of tile 2; 3 of tile 3; 10 of tile 4; 6 of tile 5; 6 of tile 6; 6 of tile 7; "
    "13 of tile 8; 16 of tile 9; 5 of tile 10; 5 of tile 12; 5 of tile 13; 5 of tile 14; "
    "5 of tile 15; 2 of tile 16; 1 of tile 17; 1 of tile 18; 3 of tile 19; 3 of tile 20; "
    "1 of tile 21; 1 of tile 22; 6 of tile 23; 6 of tile 24; 3 of tile 25; 3 of tile 26; "
    "3 of tile 27; 2 of tile 28; 2 of tile 29; 2 of tile 30; 2 of tile 31; 1 of tile 32; "
    "1 of tile 33; 2 of tile 34; 2 of tile 35; 2 of tile 36; 2 of tile 37; 10 of tile 38; "
    "2 of tile 39; 2 of tile 40; 3 of tile 41; 3 of tile 42; 2 of tile 43; 2 of tile 44; "
    "2 of tile 45; 2 of tile 46; 3 of tile 47; 1 of tile 48; 1 of tile 49; 3 of tile 50; "
    "5 of tile 51; 3 of tile 60; 6 of tile 67."
)
"""The seed's "Tiles and Trains" tile list, as it reads."""

SOUTH_HOMES = {"LNWR": ("E8", None), "GWR": ("J11", None), "MR": ("E12", None), "LSWR": ("J17", 0),
               "GNR": ("C14", None), "LBSC": ("L17", None), "GER": ("J17", 2), "GCR": ("C12", None),
               "L&YR": ("C8", 1), "SECR": ("L21", None)}
"""The South board's homes in its own coordinates (18xx.games 1829 module): hex, city."""

NORTH_HOMES = {"LNWR": ("Q11", None), "NER": ("L14", None), "MR": ("Q15", None), "NBR": ("G9", None),
               "CR": ("G5", 1), "L&YR": ("O11", 1), "GNR": ("O17", None), "GCR": ("O15", None),
               "GSWR": ("G5", 2), "HR": ("A5", None), "FR": ("M9", None)}
"""The North board's homes (ps18xx 1829 North map: home stations 1 to 11)."""

SOUTH_PORTS = {"Preston": "B7", "Hull": "B17", "Holyhead": "D1", "Harwich": "I22", "Dover": "K22"}
"""The South board's packet ports, the city next to each port symbol (South coordinates)."""

NORTH_PORTS = {"Aberdeen": "B12", "Stranraer": "J2", "Barrow": "M9", "Hull": "N20", "Holyhead": "P4"}
"""The North board's packet ports, the city next to each port symbol."""


def south_to_combined(coord: str) -> str:
    """A South board coordinate on the combined grid: 12 rows down, 3 columns right."""
    match = re.fullmatch(r"([A-Z])(\d+)", coord)
    assert match is not None
    return f"{chr(ord(match.group(1)) + 12)}{int(match.group(2)) + 3}"


@pytest.fixture(scope="module")
def parts() -> dict[str, Any]:
    return read_parts("1829", RULES_DIR)


@pytest.fixture(scope="module")
def base() -> dict[str, Any]:
    doc = read_rules_yaml(MAP_YAML)
    assert isinstance(doc, dict)
    return doc


def board(base: dict[str, Any], parts: dict[str, Any], which: str) -> MapData:
    return map_from_document(compose_map(base, parts, which), MAP_YAML, RULES_DIR)


@pytest.fixture(scope="module")
def combined(base: dict[str, Any], parts: dict[str, Any]) -> MapData:
    return board(base, parts, "combined")


@pytest.fixture(scope="module")
def south(base: dict[str, Any], parts: dict[str, Any]) -> MapData:
    return board(base, parts, "south")


@pytest.fixture(scope="module")
def north(base: dict[str, Any], parts: dict[str, Any]) -> MapData:
    return board(base, parts, "north")


@pytest.fixture(scope="module")
def names_1825() -> dict[str, str]:
    doc = read_rules_yaml(RULES_DIR / "1825" / "parts" / "map_names.yaml")
    return {str(k): str(v) for k, v in doc["names"].items()}


# --- the seed's map ----------------------------------------------------------------------------


def test_the_two_mountains_are_gone_on_the_combined_board(combined: MapData, south: MapData,
                                                          north: MapData) -> None:
    """The hex east of Preston (N12) is a mountain on the South board only, the hex east of
    Barrow (M11) on the North board; neither is on the combined board."""
    assert combined.neighbor("N10", 4) == "N12" and combined.neighbor("M9", 4) == "M11"
    for coord in ("N12", "M11"):
        assert (combined.hexes[coord].terrain, combined.hexes[coord].cost) == (None, 0)
    assert (south.hexes["N12"].terrain, south.hexes["N12"].cost) == ("mountain", 160)
    assert (north.hexes["M11"].terrain, north.hexes["M11"].cost) == ("mountain", 160)
    assert north.hexes["N12"].terrain is None
    assert len(combined.hexes["N12"].tile.towns) == 2  # Burnley & Halifax keep their towns


def test_the_south_board_is_12_rows_and_3_columns_off_on_1825s_grid(south: MapData,
                                                                    names_1825: dict[str, str]) -> None:
    """The South board's cities (18xx.games coordinates) land where 1825 names them."""
    expected = {"J17": "London", "J7": "Bristol", "J11": "Swindon", "G10": "Birmingham", "E8": "Crewe",
                "C8": "Manchester", "C6": "Liverpool", "B7": "Preston", "K22": "Dover", "I22": "Harwich"}
    for coord, name in expected.items():
        moved = south_to_combined(coord)
        assert names_1825[moved] == name
        assert south.hexes[moved].tile.cities, moved
        assert south.hexes[moved].name == name
    assert south_to_combined("J17") == "V20" and south.hexes["V20"].tile.label == "LD"
    assert len(south.hexes["V20"].tile.cities) == 3
    assert south.hexes["O9"].tile.label == "L" and south.hexes["O11"].tile.label == "BGM"
    assert south.hexes["S13"].tile.label == "BGM"


def test_the_north_board_is_on_1825s_grid(north: MapData, names_1825: dict[str, str]) -> None:
    """The North board's printed cities are at 1825's coordinates of those places."""
    for coord, place in {"G5": "Glasgow", "G9": "Edinburgh", "J10": "Carlisle", "Q11": "Crewe",
                         "O11": "Manchester", "O9": "Liverpool", "B12": "Aberdeen", "L14": "Darlington"}.items():
        assert place in names_1825[coord]
        assert north.hexes[coord].tile.cities, coord
    assert north.hexes["G5"].tile.label == "BGM" and north.hexes["G5"].tile.color == "brown"
    assert [c.slots for c in north.hexes["G9"].tile.cities] == [2]
    assert [c.slots for c in north.hexes["J10"].tile.cities] == [3]


def _face(hex_data: Any) -> Any:
    return (hex_data.tile.color, hex_data.tile.cities, hex_data.tile.towns, frozenset(hex_data.tile.paths),
            hex_data.tile.label, hex_data.cost, hex_data.terrain)


def test_the_boards_agree_on_their_overlap_but_at_three_hexes(south: MapData, north: MapData) -> None:
    """Rows N to S are on both boards; with the offset every shared hex agrees but N12 (the
    mountain), O9 (Liverpool's water) and S5 (Aberystwyth's track)."""
    shared = [c for c in south.hexes if c in north.hexes and c[0] in "NOPQRS"]
    assert len(shared) == 47
    differ = sorted(c for c in shared if _face(south.hexes[c]) != _face(north.hexes[c]))
    assert differ == ["N12", "O9", "S5"]


def test_the_combined_board_is_the_union_of_the_boards(combined: MapData, south: MapData,
                                                       north: MapData) -> None:
    """Each board's hexes are on the combined board, the North's from row M up, the South's
    from row T down, and nothing else."""
    assert set(combined.hexes) == set(south.hexes) | set(north.hexes)
    for coord, hex_data in combined.hexes.items():
        row = coord[0]
        if row in "abcdefghijklmABCDEFGHIJKLM" and coord not in ("M11",):
            assert _face(hex_data) == _face(north.hexes[coord]), coord
        elif row in "TUVWXYZ":
            assert _face(hex_data) == _face(south.hexes[coord]), coord
    assert combined.hexes["S5"].tile.exits() == frozenset({0, 3})  # the South board's line
    assert combined.hexes["M9"].tile.cities and combined.hexes["T16"].tile.color == "white"


def test_liverpool_is_dry_unless_the_option_says_water(combined: MapData, parts: dict[str, Any]) -> None:
    assert (combined.hexes["O9"].terrain, combined.hexes["O9"].cost) == (None, 0)
    for variants in (("liverpool_water",), ("south", "liverpool_water")):
        doc = read_map_document("1829", RULES_DIR, variants)
        wet = map_from_document(compose_map(doc, parts, board_of(variants)), MAP_YAML, RULES_DIR)
        assert (wet.hexes["O9"].terrain, wet.hexes["O9"].cost) == ("water", 40)
        assert wet.hexes["O9"].name == "Liverpool" and len(wet.hexes["O9"].tile.cities) == 2


def test_an_unruled_disagreement_fails(base: dict[str, Any], parts: dict[str, Any]) -> None:
    changed = copy.deepcopy(parts)
    changed["map_combined"]["take_south"].remove("O9")
    with pytest.raises(ConfigError, match="differ at O9"):
        compose_map(base, changed, "combined")


# --- homes and ports ---------------------------------------------------------------------------


def _home_cities(homes: dict[str, tuple[str, int | None]], move: bool) -> dict[str, tuple[str, int]]:
    return {corp: (south_to_combined(coord) if move else coord, city or 0) for corp, (coord, city) in homes.items()}


@pytest.mark.parametrize("which", ["combined", "south", "north"])
def test_every_home_is_a_city_with_a_slot_of_its_own(which: str, base: dict[str, Any], parts: dict[str, Any]) -> None:
    """The South board's homes (GWR V14, LSWR V20 city 0, GER V20 city 2, LBSC X20, SECR X24,
    ...) and the North board's are cities of the board, and no two homes share a slot."""
    mapped = board(base, parts, which)
    homes: dict[str, tuple[str, int]] = {}
    if which != "north":
        homes.update(_home_cities(SOUTH_HOMES, move=True))
    if which != "south":
        homes.update(_home_cities(NORTH_HOMES, move=False))
    assert {"GWR": ("V14", 0), "LSWR": ("V20", 0), "GER": ("V20", 2), "LBSC": ("X20", 0),
            "SECR": ("X24", 0)}.items() <= homes.items() or which == "north"
    used: dict[tuple[str, int], int] = {}
    for corp, (coord, city) in homes.items():
        cities = mapped.hexes[coord].tile.cities
        assert city < len(cities), (corp, coord)
        used[(coord, city)] = used.get((coord, city), 0) + 1
    for (coord, city), count in used.items():
        assert mapped.hexes[coord].tile.cities[city].slots >= count, coord
    if which != "south":
        assert mapped.hexes["B12"].tile.cities  # the GNSR's home (the option gnsr)


@pytest.mark.parametrize("which", ["combined", "south", "north"])
def test_every_port_is_a_named_city(which: str, south: MapData, north: MapData, combined: MapData) -> None:
    """Each packet's port is a city named after it: the South board's five, the North board's
    five, and all eight on the combined board."""
    ports = {}
    if which != "north":
        ports.update({name: south_to_combined(coord) for name, coord in SOUTH_PORTS.items()})
    if which != "south":
        ports.update(NORTH_PORTS)
    assert len(ports) == {"combined": 8, "south": 5, "north": 5}[which]
    mapped = {"combined": combined, "south": south, "north": north}[which]
    for name, coord in ports.items():
        hex_data = mapped.hexes[coord]
        assert hex_data.tile.cities and hex_data.name is not None and name in hex_data.name, (name, coord)
    assert ports["Hull"] == "N20" and ports["Holyhead"] == "P4"


# --- tiles -------------------------------------------------------------------------------------


def test_the_seeds_tile_list_is_the_combined_boards(combined: MapData) -> None:
    """Every tile of the seed's list, with its count, by 1829's numbers; 1829's #67 is drawn
    as the catalogue's #166."""
    seed = {number: int(count) for count, number in re.findall(r"(\d+) of tile (\d+)", SEED_TILES)}
    assert len(seed) == 52 and sum(seed.values()) == 192
    assert dict(combined.tile_counts) == seed
    assert dict(combined.tile_drawings) == {"67": "166"}
    catalogue = load_tiles(RULES_DIR / "tiles.yaml")
    assert all(key in catalogue for key in combined.tile_counts)


def test_1829s_own_drawings() -> None:
    """1829's #67 (#166: brown/gray, two slots, five exits, 40), #59 (#115: yellow, one exit,
    20) and #11 (#11s: a green town, three exits)."""
    tiles = load_tiles(RULES_DIR / "tiles.yaml")
    t67, t59, t11 = tiles["166"], tiles["115"], tiles["11s"]
    assert ([(c.revenue, c.slots) for c in t67.cities], len(t67.exits())) == ([(40, 2)], 5)
    assert (t59.color, [c.revenue for c in t59.cities], len(t59.exits())) == ("yellow", [20], 1)
    assert (t11.color, [t.revenue for t in t11.towns], t11.exits(), t11.label) == ("green", [10], frozenset({0, 2, 4}), None)
    assert tiles["67"].label == "OO" and tiles["11"].label == "HALT"  # the common numbers are other tiles


def test_each_board_alone_has_its_own_tile_list(south: MapData, north: MapData) -> None:
    """The ps18xx lists: the same tiles on both boards, London's 32 and 48 on the South only."""
    assert south.tile_counts["32"] == 1 and south.tile_counts["48"] == 1
    assert "32" not in north.tile_counts and "48" not in north.tile_counts
    assert {k: v for k, v in south.tile_counts.items() if k not in ("32", "48")} == dict(north.tile_counts)
    assert (south.tile_counts["59"], south.tile_counts["11"], south.tile_counts["67"]) == (2, 2, 4)
    assert dict(south.tile_drawings) == {"59": "115", "11": "11s", "67": "166"}


@pytest.mark.parametrize("which", ["combined", "south", "north"])
def test_printed_track_stays_on_the_board(which: str, base: dict[str, Any], parts: dict[str, Any]) -> None:
    mapped = board(base, parts, which)
    assert mapped.layout == "pointy"
    off = [f"{c}/{e}" for c, h in mapped.hexes.items() for e in h.tile.exits() if mapped.neighbor(c, e) is None]
    assert off == []


# --- options -----------------------------------------------------------------------------------


def test_the_combined_board_is_the_default_and_both_boards_are_refused() -> None:
    assert board_of(()) == "combined" and board_of(("gnsr",)) == "combined"
    assert board_of(("south",)) == "south" and board_of(("north", "five_e")) == "north"
    assert Composer1829.resolve_variants(("south",), 4) == ("south",)
    with pytest.raises(ConfigError, match="south and north"):
        Composer1829.resolve_variants(("south", "north"), 4)
    assert board_of(("south", "north")) == "combined"  # composed anyway: both boards


@pytest.mark.parametrize("variants, hexes", [((), 183), (("south",), 115), (("north",), 123),
                                             (("liverpool_water",), 183)])
def test_the_title_loads_on_each_board(variants: tuple[str, ...], hexes: int) -> None:
    """The whole title through the loader: the board the options choose, and every home of
    the board's companies a city of it."""
    title = load_title("1829", variants, composer=Composer1829)
    assert len(title.board.hexes) == hexes
    assert title.board.tile_counts["67"] >= 4
    seventy = title.tiles["67"]  # 1829's #67 under its own number, drawn as the catalogue's #166
    assert (seventy.name, [(c.revenue, c.slots) for c in seventy.cities], len(seventy.exits())) == ("67", [(40, 2)], 5)
    board_homes = {"south": SOUTH_HOMES, "north": NORTH_HOMES}.get(board_of(variants), {**SOUTH_HOMES, **NORTH_HOMES})
    on_board = [c for c in title.corporations if c.sym in board_homes]
    assert len(on_board) == len(board_homes)
    for corp in on_board:
        assert len(title.board.hexes[corp.home].tile.cities) > (corp.home_city or 0), corp.sym
