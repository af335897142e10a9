"""The 1870 data: title facts (rules/1870/*.yaml), its map and tiles, and the facts the
loaders do not read yet (rules/1870/extras.yaml: the Mississippi, off-board token slots,
port hexes, labels of later tiles)."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from pbem.engine.abilities import AssignHexes, BlocksHexes, Bonus, NoBuy, Shares, TileLayAbility
from pbem.engine.settings import TileLay
from pbem.engine.board import BorderData, MapData, TileData
from pbem.engine.title import TitleData
from pbem.ruleset import RULES_DIR, load_map, load_tiles, load_title, read_rules_yaml
from pbem.titles.g1870.connections import destination

# The 1870 tile manifest: tile number -> how many come with the game.
PUBLISHED_1870_COUNTS = {
    "1": 1, "2": 1, "3": 3, "4": 6, "5": 2, "6": 2, "7": 9, "8": 22, "9": 23,
    "55": 1, "56": 1, "57": 5, "58": 4, "69": 1,
    "14": 4, "15": 4, "16": 2, "17": 2, "18": 2, "19": 2, "20": 2, "23": 4, "24": 4, "25": 3,
    "26": 2, "27": 2, "28": 2, "29": 2, "141": 2, "142": 2, "143": 1, "144": 1,
    "39": 1, "40": 2, "41": 3, "42": 3, "43": 2, "44": 1, "45": 2, "46": 2, "47": 2,
    "63": 5, "70": 2, "145": 2, "146": 2, "147": 2, "170": 4,
    "171K": 1, "172L": 1,
}  # fmt: skip

RIVER = ["A16", "B17", "C18", "D17", "E18", "F19", "G18", "H17",
         "I16", "J15", "K14", "L13", "M14", "N15", "O16", "O18"]  # fmt: skip
"""The Mississippi's hexes, from north to south."""


@pytest.fixture(scope="module")
def board() -> MapData:
    return load_map("1870")


@pytest.fixture(scope="module")
def title() -> TitleData:
    return load_title("1870")


@pytest.fixture(scope="module")
def tiles() -> dict[str, TileData]:
    return dict(load_tiles())


@pytest.fixture(scope="module")
def extras() -> dict[str, Any]:
    doc = read_rules_yaml(RULES_DIR / "1870" / "extras.yaml")
    assert isinstance(doc, dict)
    return doc


# --- game, companies, corporations ------------------------------------------------------------


def test_game_facts(title: TitleData) -> None:
    assert (title.title, title.currency, title.bank_cash) == ("1870", "${}", 12000)
    assert (title.min_players, title.max_players) == (2, 7)
    assert dict(title.starting_cash) == {2: 1050, 3: 700, 4: 525, 5: 420, 6: 350, 7: 300}
    assert dict(title.certificate_limit) == {2: 28, 3: 20, 4: 16, 5: 13, 6: 11, 7: 9}
    assert {p: row[9] for p, row in title.settings.certificate_limit_by_corporations.items()} == \
        {2: 24, 3: 17, 4: 14, 5: 11, 6: 9, 7: 7}
    assert title.settings.pool_share_limit == 50
    assert title.settings.max_percent_per_corporation == 60
    assert title.settings.sell_after == "first_stock_round"
    assert title.settings.bid_increment == 5
    assert dict(title.round_steps) == {
        "auction": ("company_pending_par", "waterfall_auction"),
        "stock": ("buy_sell_par_shares",),
    }
    assert title.settings.tile_lays == (
        TileLay(True, True, cannot_reuse_same_hex=True),
        TileLay("not_if_upgraded", False),
    )
    assert title.settings.dividend_choices == ("payout", "half", "withhold")


def test_privates(title: TitleData, board: MapData) -> None:
    assert [(c.sym, c.value, c.revenue) for c in title.companies] == [
        ("GRSC", 20, 5), ("MRBC", 40, 10), ("SCC", 50, 10), ("GSC", 80, 15),
        ("SLSF", 140, 0), ("MKT", 160, 20),
    ]  # fmt: skip
    assert title.company("SLSF").ability(Shares) == Shares("SLSF_0")
    assert title.company("SLSF").ability(NoBuy) is not None
    assert title.company("MKT").ability(Shares) == Shares("MKT_1")
    assert title.extras["mississippi"]["blocked_by"] == "MRBC"  # the river bar (extras.yaml)
    lay = title.company("MRBC").ability(TileLayAbility)
    assert lay is not None and lay.discount == 40 and list(lay.hexes) == RIVER and lay.extra is False
    # No 1870 private blocks a hex.
    assert not any(c.ability(BlocksHexes) for c in title.companies)
    for company in title.companies:
        for ability in company.abilities:
            for coord in getattr(ability, "hexes", ()):
                assert coord in board.hexes, (company.sym, coord)
    cattle = title.company("SCC").ability(AssignHexes)
    port = title.company("GSC").ability(AssignHexes)
    assert cattle is not None and port is not None
    # Cattle cities are cities west of the river, none in a river hex.
    assert all(board.hexes[c].tile.cities for c in cattle.hexes)
    assert not set(cattle.hexes) & set(RIVER)
    assert cattle.bonus == Bonus(owner=10) and cattle.token == "cattle"
    assert port.hexes == ("H17", "M14", "M20", "N7", "N17") and port.count == 2
    assert port.tokens["open_port"].bonus == Bonus(20, 10) and port.tokens["closed_port"].bonus == Bonus(20, 0)
    assert all(board.hexes[c].tile.cities for c in port.hexes)


def test_corporations(title: TitleData, board: MapData) -> None:
    routes = {c.sym: (c.home, destination(title, c.sym)) for c in title.corporations}
    assert routes == {
        "ATSF": ("B9", "N1"), "SSW": ("H17", "J3"), "SP": ("N1", "N17"), "SLSF": ("E12", "M22"),
        "MP": ("C18", "J5"), "MKT": ("B11", "N1"), "IC": ("K16", "A22"), "GMO": ("M20", "C18"),
        "FW": ("J3", "A2"), "TP": ("J5", "N17"),
    }  # fmt: skip
    for corp in title.corporations:
        for coord in (corp.home, destination(title, corp.sym)):
            assert coord is not None and coord in board.hexes, (corp.sym, coord)
            face = board.hexes[coord].tile
            assert face.cities or face.offboard is not None, (corp.sym, coord)
        assert corp.shares == (20, 10, 10, 10, 10, 10, 10, 10, 10)
        assert corp.float_percent == (20 if corp.sym == "SLSF" else 60), corp.sym
        assert len(corp.short) == 3
    # Only the Southern Pacific starts in an off-board area; it has the one slot there.
    offboard_homes = [c.sym for c in title.corporations if board.hexes[c.home].tile.offboard]
    assert offboard_homes == ["SP"]
    assert len({c.short for c in title.corporations}) == 10
    assert {c.sym: len(c.tokens) for c in title.corporations} == {
        "ATSF": 3, "SSW": 2, "SP": 3, "SLSF": 3, "MP": 3, "MKT": 3,
        "IC": 2, "GMO": 2, "FW": 2, "TP": 2,
    }  # fmt: skip


def test_offboard_homes_and_destinations(board: MapData, title: TitleData) -> None:
    offboards = {c for c, h in board.hexes.items() if h.tile.offboard}
    assert offboards == {"A2", "A22", "M22", "N1"}
    assert title.corporation("SP").home in offboards
    assert {destination(title, c.sym) for c in title.corporations} & offboards == {"A2", "A22", "M22", "N1"}


# --- market, trains, phases -------------------------------------------------------------------


def test_market(title: TitleData) -> None:
    assert [len(row) for row in title.market] == [21, 21, 21, 21, 16, 13, 11, 10, 9, 7, 7]
    pars = [title.market[r][c].price for r, c in title.par_cells()]  # type: ignore[union-attr]
    assert pars == [100, 90, 82, 76, 72, 68]
    top = title.market[0]
    assert top[0].price == 64 and top[-1].price == 400  # type: ignore[union-attr]
    cells = [(r, c, cell) for r, row in enumerate(title.market) for c, cell in enumerate(row)]
    assert all(cell is not None for _, _, cell in cells)
    closing = [(r, c) for r, c, cell in cells if cell and "c" in cell.zone]
    assert closing == [(8, 0), (9, 0), (9, 1), (10, 0), (10, 1), (10, 2)]
    assert all(title.market[r][c].price == 0 for r, c in closing)  # type: ignore[union-attr]
    # Ledge cells (i) end a row: once a row has one, every cell right of it is one too.
    for row in title.market:
        flags = ["i" in cell.zone for cell in row if cell]
        assert flags == sorted(flags), row
    assert sum("i" in cell.zone for _, _, cell in cells if cell) == 27
    # Each row below the top is the one above shifted one cell right (so "up" in the top
    # row may move right and down without changing the price).
    for r in range(1, 4):
        above = [cell.price for cell in title.market[r - 1] if cell]
        here = [cell.price for cell in title.market[r] if cell]
        assert here[1:] == above[: len(here) - 1], r
    kinds = Counter(cell.zone for _, _, cell in cells if cell)
    assert (kinds["y"], kinds["o"], kinds["b"]) == (21, 10, 16)


def test_trains_and_phases(title: TitleData) -> None:
    assert [(t.name, t.price, t.count, t.rusts_on) for t in title.trains] == [
        ("2", 80, 7, "4"), ("3", 180, 6, "6"), ("4", 300, 5, "8"), ("5", 450, 4, "12"),
        ("6", 630, 3, None), ("8", 800, 3, None), ("10", 950, 2, None), ("12", 1100, None, None),
    ]  # fmt: skip
    events = {t.name: t.events for t in title.trains if t.events}
    assert events == {"3": ("companies_buyable",), "5": ("close_companies",), "6": ("remove_tokens",)}
    assert [(p.name, p.on, p.train_limit, p.operating_rounds) for p in title.phases] == [
        ("1", None, 4, 1), ("2", "3", 4, 2), ("3", "4", 3, 2), ("4", "5", 2, 3),
        ("5", "6", 2, 3), ("6", "8", 2, 3), ("7", "10", 2, 3), ("8", "12", 2, 3),
    ]  # fmt: skip
    assert [p.name for p in title.phases if p.corporations_may_buy_privates] == ["2", "3"]
    assert "gray" in title.phases[4].tiles and "gray" not in title.phases[3].tiles
    names = [t.name for t in title.trains]
    assert all(p.on in names for p in title.phases if p.on)


# --- tiles ----------------------------------------------------------------------------------


def test_every_1870_tile_is_in_the_catalogue(board: MapData, tiles: dict[str, TileData]) -> None:
    assert set(board.tile_counts) <= set(tiles)


def test_1870_tile_counts_are_the_published_ones(board: MapData, tiles: dict[str, TileData]) -> None:
    assert dict(board.tile_counts) == PUBLISHED_1870_COUNTS
    by_colour: Counter[str] = Counter()
    for name, count in board.tile_counts.items():
        by_colour[tiles[name].color] += count or 0
    assert by_colour == {"yellow": 81, "green": 43, "brown": 35, "gray": 2}


@pytest.mark.parametrize(
    ("name", "color", "label", "cities", "towns", "exits"),
    [
        ("5", "yellow", None, [(20, 1)], [], {0, 1}),
        ("6", "yellow", None, [(20, 1)], [], {0, 2}),
        ("17", "green", None, [], [], {0, 1, 3, 4}),
        ("141", "green", None, [], [10], {0, 1, 3}),
        ("142", "green", None, [], [10], {0, 3, 5}),
        ("143", "green", None, [], [10], {0, 1, 2}),
        ("144", "green", None, [], [10], {0, 2, 4}),
        ("145", "brown", None, [], [20], {0, 1, 3, 4}),
        ("146", "brown", None, [], [20], {0, 1, 2, 3}),
        ("147", "brown", None, [], [20], {0, 2, 3, 4}),
        ("170", "brown", "P", [(50, 2)], [], {0, 1, 2, 3, 4}),
        ("171K", "gray", "K", [(60, 3)], [], {0, 1, 2, 3, 4, 5}),
        ("172L", "gray", "L", [(60, 2)], [], {0, 1, 2, 3, 4, 5}),
    ],
)
def test_tiles_1870_adds(
    tiles: dict[str, TileData],
    name: str,
    color: str,
    label: str | None,
    cities: list[tuple[int, int]],
    towns: list[int],
    exits: set[int],
) -> None:
    tile = tiles[name]
    assert (tile.color, tile.label) == (color, label)
    assert [(c.revenue, c.slots) for c in tile.cities] == cities
    assert [t.revenue for t in tile.towns] == towns
    assert tile.exits() == exits
    # Every track of a town or city tile runs into its stop.
    if cities or towns:
        assert all(("c0" in p or "t0" in p) for p in tile.paths)


# --- the map ----------------------------------------------------------------------------------


def test_hex_counts(board: MapData) -> None:
    assert board.layout == "pointy"
    assert len(board.hexes) == 154
    assert Counter(h.tile.color for h in board.hexes.values()) == {"white": 150, "red": 4}
    assert sum(len(h.tile.cities) for h in board.hexes.values()) == 19
    assert sum(len(h.tile.towns) for h in board.hexes.values()) == 26
    doubles = sorted(c for c, h in board.hexes.items() if len(h.tile.towns) == 2)
    assert doubles == ["A16", "E20", "I10"]
    assert sum(h.tile.name == "blank" for h in board.hexes.values()) == 108
    assert sum(h.name is not None for h in board.hexes.values()) == 23
    rows = {coord[0] for coord in board.hexes}
    assert rows == set("ABCDEFGHIJKLMNO")
    assert max(int(coord[1:]) for coord in board.hexes) == 22


def test_terrain(board: MapData) -> None:
    by_cost = Counter((h.cost, h.terrain) for h in board.hexes.values())
    assert by_cost == {
        (0, None): 104, (40, "water"): 8, (60, "water"): 7, (60, "mountain"): 8,
        (40, "river"): 4, (60, "river"): 6, (80, "river"): 4, (100, "river"): 2,
        (60, "lake"): 1, (80, "lake"): 9, (100, "lake"): 1,
    }  # fmt: skip
    assert sorted(c for c, h in board.hexes.items() if h.terrain == "river") == sorted(RIVER)
    assert board.hexes["M14"].cost == 80  # Baton Rouge


def test_named_hexes(board: MapData) -> None:
    st_louis = board.hexes["C18"]
    assert st_louis.name == "St. Louis" and st_louis.tile.color == "white"
    assert [c.revenue for c in st_louis.tile.cities] == [0]
    assert (st_louis.cost, st_louis.terrain) == (40, "river")
    kansas_city = board.hexes["B11"]
    assert kansas_city.name == "Kansas City" and len(kansas_city.tile.cities) == 1
    assert (kansas_city.cost, kansas_city.terrain) == (40, "water")
    denver = board.hexes["A2"]
    assert denver.name == "Denver" and denver.tile.color == "red"
    assert denver.tile.offboard is not None
    assert dict(denver.tile.offboard.revenue) == {"yellow": 30, "brown": 40, "blue": 50}
    assert denver.tile.exits() == {4, 5} and denver.tile.stop_ids() == ["o"]
    chicago = board.hexes["A22"].tile.offboard
    assert chicago is not None and dict(chicago.revenue) == {"yellow": 40, "brown": 50, "blue": 60}
    new_orleans = board.hexes["N17"]
    assert new_orleans.name == "New Orleans" and len(new_orleans.tile.cities) == 1
    assert (new_orleans.cost, new_orleans.terrain) == (80, "lake")
    assert new_orleans.border(4) == BorderData(4, "impassable")
    memphis = board.hexes["H17"]
    assert memphis.name == "Memphis" and (memphis.cost, memphis.terrain) == (60, "river")
    assert board.hexes["E12"].name == "Springfield, MO" and board.hexes["E12"].terrain == "mountain"
    assert board.hexes["B19"].name == "Springfield, IL"


def test_offboards_reach_the_map(board: MapData) -> None:
    red = {c: h for c, h in board.hexes.items() if h.tile.color == "red"}
    assert sorted(red) == ["A2", "A22", "M22", "N1"]
    for coord, h in red.items():
        assert h.tile.offboard is not None and h.tile.exits(), coord
        for edge in h.tile.exits():
            other = board.neighbor(coord, edge)
            assert other is not None and board.hexes[other].tile.color == "white", (coord, edge)


def test_neighbours_are_symmetric(board: MapData) -> None:
    for coord in board.hexes:
        for edge in range(6):
            other = board.neighbor(coord, edge)
            if other is not None:
                assert board.neighbor(other, (edge + 3) % 6) == coord
                assert board.edge_to(coord, other) == edge
    assert all(any(board.neighbor(c, e) for e in range(6)) for c in board.hexes)
    assert board.neighbor("C18", 0) == "D17"
    assert board.neighbor("C18", 2) == "B17"
    assert board.neighbor("N17", 4) == "N19"


def test_impassable_borders(board: MapData) -> None:
    impassable = {
        (c, b.edge) for c, h in board.hexes.items() for b in h.borders if b.kind == "impassable"
    }
    assert impassable == {("N17", 4), ("N19", 1), ("N19", 0), ("O18", 3)}
    for coord, h in board.hexes.items():
        for b in h.borders:
            other = board.neighbor(coord, b.edge)
            assert other is not None, (coord, b)
            back = (b.edge + 3) % 6
            assert board.hexes[other].border(back) == BorderData(back, b.kind), (coord, b)
    # No water borders: the Mississippi runs through hexes, not along their sides.
    assert not any(b.kind == "water" for h in board.hexes.values() for b in h.borders)


# --- the Mississippi (extras.yaml) -------------------------------------------------------------


def _corner_neighbours(board: MapData, coord: str, corner: int) -> set[tuple[str, int]]:
    """The same map corner as seen from each hex that has it: corner k lies between edges k-1
    and k; across edge k it is the neighbour's corner k+4, across edge k-1 its corner k+2."""
    seen = {(coord, corner)}
    for edge, theirs in ((corner, corner + 4), ((corner - 1) % 6, corner + 2)):
        other = board.neighbor(coord, edge)
        if other is not None:
            seen.add((other, theirs % 6))
    return seen


def test_river_banks_split_each_river_hex(extras: dict[str, Any], board: MapData) -> None:
    river = extras["mississippi"]
    assert river["blocked_by"] == "MRBC"
    assert list(river["hexes"]) == RIVER
    for coord, hex_ in river["hexes"].items():
        a, b = sorted(hex_["line"])
        # The river joins two corners; the edges between them (clockwise) are one bank.
        side = set(range(a, b))
        assert {frozenset(hex_["west"]), frozenset(hex_["east"])} == {
            frozenset(side), frozenset(set(range(6)) - side)
        }, coord
        assert 1 in hex_["west"], coord
        face = board.hexes[coord].tile
        assert ("stops_on" in hex_) == bool(face.cities or face.towns), coord
    stops = {c: h["stops_on"] for c, h in river["hexes"].items() if "stops_on" in h}
    assert stops == {"A16": "west", "C18": "west", "D17": "west",
                     "H17": "east", "K14": "east", "M14": "east"}  # fmt: skip


def test_river_is_one_continuous_line(extras: dict[str, Any], board: MapData) -> None:
    hexes = extras["mississippi"]["hexes"]
    for north, south in zip(RIVER, RIVER[1:]):
        shared = [
            (a, b)
            for a in hexes[north]["line"]
            for b in hexes[south]["line"]
            if (south, b) in _corner_neighbours(board, north, a)
        ]
        assert len(shared) == 1, (north, south)
    # The ends: the top corner of A16 on the north edge, the bottom corner of O18 on the Gulf.
    assert 3 in hexes["A16"]["line"] and len(_corner_neighbours(board, "A16", 3)) == 1
    assert 0 in hexes["O18"]["line"] and len(_corner_neighbours(board, "O18", 0)) == 1


def test_river_banks_agree_across_shared_sides(extras: dict[str, Any], board: MapData) -> None:
    """Where two river hexes meet, the side between them is on the same bank in both."""
    hexes = extras["mississippi"]["hexes"]
    pairs = 0
    for coord, hex_ in hexes.items():
        for edge in range(6):
            other = board.neighbor(coord, edge)
            if other in hexes:
                pairs += 1
                bank = "west" if edge in hex_["west"] else "east"
                assert (edge + 3) % 6 in hexes[other][bank], (coord, other)
    # Each river hex touches the next one along the river, and no other river hex.
    assert pairs == 2 * (len(RIVER) - 1)
    assert all(board.edge_to(a, b) is not None for a, b in zip(RIVER, RIVER[1:]))


def test_labels_and_ports(extras: dict[str, Any], board: MapData, title: TitleData) -> None:
    labels = extras["future_labels"]
    assert sorted(labels) == ["B11", "C18", "J3", "J5", "N17"]
    assert all(board.hexes[c].tile.cities for c in labels)
    assert {c: [x["label"] for x in v] for c, v in labels.items() if len(v) > 1} == {
        "B11": ["P", "K"], "C18": ["P", "L"],
    }  # fmt: skip
    ports = title.company("GSC").ability(AssignHexes)
    assert ports is not None and ports.hexes == ("H17", "M14", "M20", "N7", "N17")
    assert all(board.hexes[c].tile.cities for c in ports.hexes)
