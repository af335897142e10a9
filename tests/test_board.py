"""The board data: the shared tile catalogue, the 1830 map, and the loader's checks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pbem.engine.board import (
    BorderData,
    MapData,
    TileData,
    edge_of,
)
from pbem.ruleset import RULES_DIR, load_map, load_tiles, load_title
from pbem.errors import ConfigError

# The 1830 tile manifest: tile number -> how many come with the game.
PUBLISHED_1830_COUNTS = {
    "1": 1, "2": 1, "3": 2, "4": 2, "7": 4, "8": 8, "9": 7,
    "14": 3, "15": 2, "16": 1, "18": 1, "19": 1, "20": 1,
    "23": 3, "24": 3, "25": 1, "26": 1, "27": 1, "28": 1, "29": 1,
    "39": 1, "40": 1, "41": 2, "42": 2, "43": 2, "44": 1, "45": 2, "46": 2, "47": 1,
    "53": 2, "54": 1, "55": 1, "56": 1, "57": 4, "58": 2, "59": 2,
    "61": 2, "62": 1, "63": 3, "64": 1, "65": 1, "66": 1, "67": 1, "68": 1, "69": 1, "70": 1,
}  # fmt: skip


@pytest.fixture(scope="module")
def board() -> MapData:
    return load_map("1830")


@pytest.fixture(scope="module")
def tiles() -> dict[str, TileData]:
    return dict(load_tiles())


# --- tiles -----------------------------------------------------------------------------------


def test_every_1830_tile_is_in_the_catalogue(board: MapData, tiles: dict[str, TileData]) -> None:
    assert set(board.tile_counts) <= set(tiles)


def test_1830_tile_counts_are_the_published_ones(board: MapData) -> None:
    assert dict(board.tile_counts) == PUBLISHED_1830_COUNTS
    assert sum(c or 0 for c in board.tile_counts.values()) == 85


def test_tile_colours(tiles: dict[str, TileData]) -> None:
    by_colour: dict[str, set[str]] = {}
    for name in PUBLISHED_1830_COUNTS:
        by_colour.setdefault(tiles[name].color, set()).add(name)
    assert by_colour == {
        "yellow": {"1", "2", "3", "4", "7", "8", "9", "55", "56", "57", "58", "69"},
        "green": {"14", "15", "16", "18", "19", "20", "23", "24", "25", "26", "27", "28", "29",
                  "53", "54", "59"},
        "brown": {"39", "40", "41", "42", "43", "44", "45", "46", "47", "61", "62", "63", "64",
                  "65", "66", "67", "68", "70"},
    }  # fmt: skip


@pytest.mark.parametrize(
    ("name", "rotation", "exits"),
    [
        ("9", 0, {0, 3}),  # straight
        ("9", 1, {1, 4}),
        ("9", 3, {0, 3}),
        ("7", 0, {0, 1}),  # sharp curve
        ("7", 5, {5, 0}),
        ("8", 0, {0, 2}),  # gentle curve
        ("8", 4, {4, 0}),
        ("57", 2, {2, 5}),
        ("14", 0, {0, 1, 3, 4}),
        ("15", 1, {1, 2, 3, 4}),
        ("63", 3, {0, 1, 2, 3, 4, 5}),
        ("53", 1, {1, 3, 5}),
        ("59", 1, {1, 3}),
        ("3", -1, {5, 0}),
    ],
)
def test_exits_at_rotation(
    tiles: dict[str, TileData], name: str, rotation: int, exits: set[int]
) -> None:
    assert tiles[name].exits(rotation) == exits


def test_rotation_turns_edges_and_keeps_stops(tiles: dict[str, TileData]) -> None:
    assert TileData.rotate_endpoint("e5", 2) == "e1"
    assert TileData.rotate_endpoint("c1", 3) == "c1"
    assert TileData.rotate_endpoint("o", 1) == "o"
    assert tiles["59"].paths_at(1) == (("e1", "c0"), ("e3", "c1"))
    assert tiles["57"].paths_at(0) == tiles["57"].paths


def test_stops_and_their_track(tiles: dict[str, TileData]) -> None:
    assert tiles["1"].stop_ids() == ["t0", "t1"]
    assert tiles["9"].stop_ids() == []
    assert tiles["14"].cities[0].slots == 2 and tiles["14"].cities[0].revenue == 30
    assert tiles["62"].label == "NY" and [c.slots for c in tiles["62"].cities] == [2, 2]

    def edges_of(tile: TileData, stop: str) -> set[int]:
        return {
            e for a, b in tile.paths if stop in (a, b)
            for e in (edge_of(a), edge_of(b)) if e is not None
        }  # fmt: skip

    # Which edges each city of the OO tiles reaches.
    expected = {
        "59": ({0}, {2}),
        "64": ({0, 2}, {3, 4}),
        "65": ({0, 4}, {2, 3}),
        "66": ({0, 3}, {1, 2}),
        "67": ({0, 3}, {2, 4}),
        "68": ({0, 3}, {1, 4}),
        "54": ({0, 1}, {2, 3}),
    }
    for name, (c0, c1) in expected.items():
        tile = tiles[name]
        assert (edges_of(tile, "c0"), edges_of(tile, "c1")) == (c0, c1), name
        assert tile.label == ("NY" if name == "54" else "OO")


def test_every_path_endpoint_exists(board: MapData, tiles: dict[str, TileData]) -> None:
    faces = list(tiles.values()) + [h.tile for h in board.hexes.values()]
    for tile in faces:
        stops = set(tile.stop_ids())
        for a, b in tile.paths:
            assert a != b, tile.name
            for end in (a, b):
                edge = edge_of(end)
                assert (edge is not None and 0 <= edge <= 5) or end in stops, (tile.name, end)


# --- the 1830 map ----------------------------------------------------------------------------


def test_hex_counts(board: MapData) -> None:
    assert board.layout == "pointy"
    assert len(board.hexes) == 93
    assert Counter(h.tile.color for h in board.hexes.values()) == {
        "white": 67, "gray": 12, "red": 7, "yellow": 7,
    }  # fmt: skip
    # Nothing printed but perhaps a terrain cost or a border: 32 plain, 9 mountain, 4 water,
    # and C11, C13, D12, F8, C17 with impassable sides.
    assert sum(h.tile.name == "blank" for h in board.hexes.values()) == 32 + 9 + 4 + 5
    assert sum(h.name is not None for h in board.hexes.values()) == 38


def test_new_york(board: MapData) -> None:
    ny = board.hexes["G19"]
    assert ny.name == "New York & Newark"
    assert ny.tile.color == "yellow" and ny.tile.label == "NY"
    assert [c.revenue for c in ny.tile.cities] == [40, 40]
    assert (ny.cost, ny.terrain) == (80, "water")
    assert ny.tile.paths == (("e3", "c0"), ("e0", "c1"))


def test_chicago_and_other_offboards(board: MapData) -> None:
    chicago = board.hexes["F2"]
    assert chicago.name == "Chicago" and chicago.tile.color == "red"
    assert chicago.tile.offboard is not None
    assert dict(chicago.tile.offboard.revenue) == {"yellow": 40, "brown": 70}
    assert chicago.tile.exits() == {3, 4, 5}
    assert chicago.tile.stop_ids() == ["o"]
    canada = [board.hexes[c].tile.offboard for c in ("A9", "A11")]
    assert [(o.group, o.hidden) for o in canada if o] == [("Canada", True), ("Canada", False)]
    assert board.hexes["A9"].border(4) == BorderData(4, None)


def test_baltimore_boston_and_oo_cities(board: MapData) -> None:
    baltimore = board.hexes["I15"]
    assert baltimore.name == "Baltimore" and baltimore.tile.color == "yellow"
    assert baltimore.tile.label == "B" and baltimore.tile.cities[0].revenue == 30
    assert baltimore.tile.exits() == {0, 4}
    assert board.hexes["E23"].tile.exits() == {3, 5}
    oo = sorted(c for c, h in board.hexes.items() if h.tile.label == "OO")
    assert oo == ["D10", "E11", "E5", "H18"]
    assert all(len(board.hexes[c].tile.cities) == 2 for c in oo)


def test_upgrade_costs(board: MapData) -> None:
    by_cost = {(h.cost, h.terrain): set[str]() for h in board.hexes.values()}
    for coord, h in board.hexes.items():
        by_cost[(h.cost, h.terrain)].add(coord)
    assert by_cost[(80, "water")] == {
        "D6", "I17", "B18", "C19", "F4", "J14", "F22", "E5", "D10", "G19"
    }  # fmt: skip
    assert by_cost[(120, "mountain")] == {
        "G15", "C21", "D22", "E17", "E21", "G13", "I11", "J10", "J12", "C17", "F16"
    }  # fmt: skip
    assert set(by_cost) == {(0, None), (80, "water"), (120, "mountain")}


def test_neighbours(board: MapData) -> None:
    assert board.neighbor("F20", 0) == "G19"
    assert board.neighbor("F20", 1) == "F18"
    assert board.neighbor("F20", 2) == "E19"
    assert board.neighbor("F20", 3) == "E21"
    assert board.neighbor("F20", 4) == "F22"
    assert board.neighbor("F20", 5) is None  # G21 is not on the map
    assert board.neighbor("A19", 2) is None
    assert board.neighbor("A19", 3) is None
    assert board.neighbor("F2", 1) is None
    assert board.neighbor("K15", 5) is None
    assert board.edge_to("F20", "G19") == 0
    assert board.edge_to("G19", "F20") == 3
    assert board.edge_to("F20", "F24") is None


def test_neighbours_are_symmetric(board: MapData) -> None:
    pairs = 0
    for coord in board.hexes:
        for edge in range(6):
            other = board.neighbor(coord, edge)
            if other is not None:
                pairs += 1
                assert board.neighbor(other, (edge + 3) % 6) == coord
                assert board.edge_to(coord, other) == edge
    assert pairs % 2 == 0
    # Every hex touches at least one other: the map is in one piece.
    assert all(any(board.neighbor(c, e) for e in range(6)) for c in board.hexes)


def test_preprinted_track_leads_onto_the_map(board: MapData) -> None:
    for coord, h in board.hexes.items():
        for edge in h.tile.exits():
            other = board.neighbor(coord, edge)
            assert other is not None, (coord, edge)
            back = (edge + 3) % 6
            border = board.hexes[other].border(back)
            assert border is None or border.kind != "impassable", (coord, edge)
            if board.hexes[other].tile.color in ("gray", "red"):
                assert back in board.hexes[other].tile.exits(), (coord, edge)


def test_red_offboards_reach_the_map(board: MapData) -> None:
    red = {c: h for c, h in board.hexes.items() if h.tile.color == "red"}
    assert sorted(red) == ["A11", "A9", "B24", "F2", "I1", "J2", "K13"]
    for coord, h in red.items():
        assert h.tile.offboard is not None and h.tile.exits(), coord
        assert all(board.neighbor(coord, e) is not None for e in h.tile.exits())


def test_borders(board: MapData) -> None:
    impassable = {
        (c, b.edge) for c, h in board.hexes.items() for b in h.borders if b.kind == "impassable"
    }
    assert impassable == {
        ("E7", 5), ("F8", 2), ("C11", 5), ("D12", 2), ("D12", 3), ("C13", 0),
        ("B16", 5), ("C17", 2),
    }  # fmt: skip
    for coord, h in board.hexes.items():
        for b in h.borders:
            other = board.neighbor(coord, b.edge)
            assert other is not None, (coord, b)
            assert board.hexes[other].border((b.edge + 3) % 6) == BorderData(
                (b.edge + 3) % 6, b.kind
            ), (coord, b)


def test_other_1830_rules_name_real_hexes(board: MapData) -> None:
    title = load_title("1830")
    for corp in title.corporations:
        assert board.hexes[corp.home].tile.cities, corp.sym
    for company in title.companies:
        for ability in company.abilities:
            for coord in getattr(ability, "hexes", ()):
                assert coord in board.hexes, (company.sym, coord)


def test_loaded_data_is_cached_and_read_only(board: MapData) -> None:
    assert load_map("1830") is board
    assert load_tiles() is load_tiles(RULES_DIR / "tiles.yaml")
    with pytest.raises(TypeError):
        board.hexes["Z1"] = board.hexes["F2"]  # type: ignore[index]
    hash(board.hexes["F2"])


# --- loader errors ---------------------------------------------------------------------------

GOOD_TILES = """\
"9": {color: yellow, paths: [[e0, e3]]}
"57": {color: yellow, cities: [{revenue: 20}], paths: [[e0, c0], [c0, e3]]}
"""


def write_rules(root: Path, hexes: str, counts: str = '{"9": 7}', tiles: str = GOOD_TILES) -> Path:
    (root / "x").mkdir(parents=True, exist_ok=True)
    (root / "tiles.yaml").write_text(tiles, encoding="utf-8")
    (root / "x" / "map.yaml").write_text(
        f"layout: pointy\ntile_counts: {counts}\nhexes:\n{hexes}", encoding="utf-8"
    )
    return root


def test_a_small_good_map_loads(tmp_path: Path) -> None:
    hexes = """\
  A1: {color: white}
  B2: {color: red, offboard: {revenue: {yellow: 20}}, paths: [[e2, o]]}
"""
    root = write_rules(tmp_path, hexes, counts='{"9": 7, "57": null}')
    m = load_map("x", root)
    assert m.neighbor("A1", 5) == "B2" and m.neighbor("B2", 2) == "A1"
    assert m.tile_counts == {"9": 7, "57": None}
    assert m.hexes["A1"].tile.name == "blank" and m.hexes["B2"].tile.name == "B2"


def test_coordinates_before_row_a_and_column_1(tmp_path: Path) -> None:
    """As on 18xx.games, rows north of A are lower case (a = -1, b = -2) and columns west of
    1 are 0, -1...: they load, neighbour their hexes across A and 1, and keep the grid."""
    hexes = """\
  b1: {color: white}
  a2: {color: white}
  A1: {color: white}
  A-1: {color: white}
  B0: {color: white}
  AA-1: {color: white}
"""
    root = write_rules(tmp_path, hexes)
    m = load_map("x", root)
    assert m.neighbor("A1", 3) == "a2" and m.neighbor("a2", 0) == "A1"
    assert m.neighbor("a2", 2) == "b1" and m.neighbor("b1", 5) == "a2"
    assert m.neighbor("A1", 1) == "A-1" and m.neighbor("A-1", 4) == "A1"
    assert m.neighbor("A1", 0) == "B0" and m.neighbor("B0", 2) == "A-1"
    assert m.edge_to("B0", "A1") == 3 and m.neighbor("AA-1", 0) is None


@pytest.mark.parametrize("coord", ["A01", "aA1", "ab2", "A-0", "-1", "a-02"])
def test_bad_coordinates_fail(tmp_path: Path, coord: str) -> None:
    root = write_rules(tmp_path, f"  A1: {{color: white}}\n  {coord}: {{color: white}}\n")
    with pytest.raises(ConfigError):
        load_map("x", root)


@pytest.mark.parametrize(
    ("hex_line", "message"),
    [
        ("{color: gray, paths: [[e0, x1]]}", "unknown endpoint 'x1'"),
        ("{color: gray, cities: [{revenue: 20}], paths: [[e0, c1]]}", "no stop 'c1'"),
        ("{color: gray, paths: [[e0, t0]]}", "no stop 't0'"),
        ("{color: gray, paths: [[e0, o]]}", "no stop 'o'"),
        ("{color: gray, paths: [[e6, e0]]}", "out of range"),
        ("{color: gray, paths: [[e2, e2]]}", "to itself"),
        ("{color: gray, cities: [{revenue: 20}], paths: [[c0, c0]]}", "to itself"),
        ("{color: gray, paths: [[e0, e3], [e3, e0]]}", "listed twice"),
        ("{color: gray, paths: [e0, e3]}", "pair of endpoints"),
        ("{color: purple}", "color must be"),
        ("{color: white, cost: -80}", "cost"),
        ("{color: white, borders: [{edge: 6, kind: impassable}]}", "out of range 0..5"),
        ("{color: white, borders: [{edge: 1, kind: wall}]}", "border kind"),
        ("{color: white, colour: white}", "unknown key(s) colour"),
        ("{color: gray, cities: [{revenue: twenty}]}", "revenue"),
        ("{color: red, offboard: {revenue: 40}, paths: [[e0, o]]}", "offboard revenue"),
    ],
)
def test_bad_hex_is_named(tmp_path: Path, hex_line: str, message: str) -> None:
    root = write_rules(tmp_path, f"  A1: {{color: white}}\n  C3: {hex_line}\n")
    with pytest.raises(ConfigError) as err:
        load_map("x", root)
    assert "hex C3" in str(err.value) and "map.yaml" in str(err.value)
    assert message in str(err.value)


def test_unknown_tile_in_counts(tmp_path: Path) -> None:
    root = write_rules(tmp_path, "  A1: {color: white}\n", counts='{"9": 7, "999": 1}')
    with pytest.raises(ConfigError, match=r"map\.yaml: tile_counts: tile 999: not in the tile"):
        load_map("x", root)


def test_bad_coordinates(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="hex 7A: not a coordinate"):
        load_map("x", write_rules(tmp_path / "a", "  7A: {color: white}\n"))
    with pytest.raises(ConfigError, match="hex A2: not on the same pointy hex grid"):
        load_map("x", write_rules(tmp_path / "b", "  A1: {color: white}\n  A2: {color: white}\n"))


def test_bad_tile_in_catalogue_is_named(tmp_path: Path) -> None:
    tiles = GOOD_TILES + '"58": {color: yellow, towns: [{revenue: 10}], paths: [[e0, t1]]}\n'
    root = write_rules(tmp_path, "  A1: {color: white}\n", tiles=tiles)
    with pytest.raises(ConfigError, match=r"tiles\.yaml: tile 58: path .* no stop 't1'"):
        load_map("x", root)


def test_missing_or_broken_files(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="rules file missing"):
        load_map("nosuchtitle", tmp_path)
    root = write_rules(tmp_path, "  A1: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_map("x", root)
    (tmp_path / "y").mkdir()
    (tmp_path / "y" / "map.yaml").write_text("layout: hexagonal\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="layout: must be flat or pointy"):
        load_map("y", tmp_path)
