"""Short scripted games of 1825 by order lines in combined units with kits and options (issue
12, "Tests": "a short scripted game of stock and operating rounds in the combined units with
kits"), each from a new game through stock round 1, operating round 1 and stock round 2,
checking what shows the units and kits in play (the privates, the pars and bands, a kit's
tile, a kit's minor forming with its train, a run priced by hand from the map data, the
operating order, the money and the report); and the rules the scripts found wanting, each
on a built position. The units alone: :mod:`tests.test_1825_scripted`."""

from __future__ import annotations

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine.actions import LayTile
from pbem.engine.steps.operating.tokens import next_token_cost
from pbem.errors import IllegalOrderError
from pbem.titles.g1825.start import facts
from tests.scripts_1825 import (
    assert_report,
    cash,
    city_value,
    holdings,
    money,
    new_game,
    pars,
    play,
    privates_for_sale,
    report,
    sell_out,
)

ANN, BOB, CY, DI = "Ann", "Bob", "Cy", "Di"


# -- a company with two homes ----------------------------------------------------------------


def test_the_lnwr_of_units_1_and_2_puts_a_token_on_each_of_its_homes_both_free() -> None:
    game = new_game(("unit_12",), [ANN, BOB, CY])
    game.hooks.track.place_home_token(game, "LNWR")
    assert game.state.tokens[CityRef("T16", 0)] == ["LNWR"] and game.state.tokens[CityRef("Q11", 0)] == ["LNWR"]
    assert next_token_cost(game, "LNWR") == 40  # its tokens: 0, 0, 40, 100...
    game.hooks.track.place_home_token(game, "LNWR")  # once only
    assert sum(corps.count("LNWR") for corps in game.state.tokens.values()) == 2


def test_the_gwr_with_r2_puts_a_token_in_swindon_and_in_exeter() -> None:
    game = new_game(("unit_1", "r2"), [ANN, BOB, CY])
    game.hooks.track.place_home_token(game, "GWR")
    assert game.state.tokens[CityRef("V14", 0)] == ["GWR"] and game.state.tokens[CityRef("Y7", 0)] == ["GWR"]
    assert next_token_cost(game, "GWR") == 40


def test_one_home_is_one_token() -> None:
    game = new_game(("unit_1",), [ANN, BOB, CY])
    game.hooks.track.place_home_token(game, "GWR")
    assert [key for key, corps in game.state.tokens.items() if "GWR" in corps] == [CityRef("V14", 0)]
    assert next_token_cost(game, "GWR") == 40


# -- Units 1 and 2 with K5 and K7, three players ---------------------------------------------

UNITS_12_K5_K7 = """
Ann: BUY S&D
Bob: BUY L&M
Cy: PAR LNWR 100
Ann: BUY LNWR
Bob: BUY LNWR
Cy: BUY LNWR
Ann: BUY LNWR
Bob: BUY LNWR
Cy: BUY LNWR
Ann: BUY LNWR
Bob: BUY LNWR
Cy: PAR GWR 90
Ann: BUY GWR
Bob: BUY GWR
Cy: PASS
Ann: PASS
Bob: PASS
# OR 1.1: the LNWR (Cy) builds from both its homes, over the Mersey and towards Birmingham
Cy: LAY P10 8 3
Cy: LAY T14 8 2
Cy: TRAIN 2
Cy: TRAIN 2
Cy: PASS
# SR 2
Cy: BUY GWR
Cy: PASS
Ann: BUY GWR
Ann: PASS
Bob: BUY GWR
Bob: PASS
Cy: PASS
Ann: PASS
Bob: PASS
# OR 2.1: a train from each home
Cy: PASS
Cy: RUN 2: Q11-O11.0; 2: T16-S13.2
Cy: PAY
Cy: PASS
"""


def test_units_1_and_2_with_k5_and_k7() -> None:
    game = new_game(("unit_1", "unit_2", "k5", "k7"), [ANN, BOB, CY])
    assert game.title.variants == ("unit_12", "k5", "k7")
    total = game.title.bank_cash
    assert total == 5000 + 3 * 1000 and money(game) == total  # K5's two minors and K7's one
    # one private of each face value: Unit 1's, and Unit 2's S&D
    assert [c.sym for c in game.title.companies] == ["S&M", "C&HP", "C&W", "S&D", "L&M"]
    assert holdings(game) == {ANN: ["S&M"], BOB: ["C&HP"], CY: ["C&W"]}
    assert cash(game) == {ANN: 840 - 30, BOB: 840 - 75, CY: 840 - 130}
    assert privates_for_sale(game) == ["S&D"]
    # the kits' trains: K5 a 5 and a 3T, K7 the 2+2
    trains = {t.name: t.count for t in game.title.trains}
    assert (trains["5"], trains["3T"], trains["2+2"]) == (5 + 1, 1, 1)
    # the kits' minors come in band 6, after the band of par 71
    tables = facts(game)
    assert {sym: tables.corporation_facts[sym].band for sym in ("FR", "NS", "LT&S", "SECR")} == {
        "FR": 6, "NS": 6, "LT&S": 6, "SECR": 5}

    sr1, rest = UNITS_12_K5_K7.split("# OR 1.1")
    events = play(game, sr1.split("Cy: PAR GWR")[0])
    assert events[-1] == "-- Band 2 companies now available --" and pars(game) == [("GWR", 90)]
    with pytest.raises(IllegalOrderError, match="FR is in band 6"):
        play(game, "Cy: PAR FR 61")
    events = play(game, "Cy: PAR GWR" + sr1.split("Cy: PAR GWR")[1])
    # the LNWR of Units 1+2 puts a token on each of its homes, Wolverton and Crewe
    home = events.index("LNWR places its home token on T16")
    assert events[home + 1:home + 3] == ["LNWR places its home token on Q11", "-- OR 1.1 --"]
    or1, rest = ("# OR 1.1" + rest).split("# SR 2")
    events = play(game, or1)
    assert game.state.tiles["P10"] == ("8", 3) and game.state.tiles["T14"] == ("8", 2)
    assert game.operating_order() == ["LNWR"] and money(game) == total
    events = play(game, "# SR 2" + rest)
    assert game.operating_order() == ["LNWR", "GWR"]
    # the LNWR's 2-trains: Crewe Q11 (£10) - Manchester O11 city 0 (£40), and Wolverton T16
    # (£10) - Birmingham S13 city 2 (£40)
    assert city_value(game, "Q11") + city_value(game, "O11", 0) == 50
    assert city_value(game, "T16") + city_value(game, "S13", 2) == 50
    assert "LNWR runs a 2 train for £50: Q11-O11" in events and "LNWR runs a 2 train for £50: T16-S13" in events
    assert "LNWR pays out £100 = £10 per share (£30 to Ann, £30 to Bob, £40 to Cy)" in " ".join(events)
    assert money(game) == total
    assert_report(game)


KIT_MINORS_FORM = """
Cy: PAR NS 49
Ann: PAR LT&S 100
Bob: BUY LT&S
Cy: BUY NS
Bob: BUY NS
"""


def test_units_1_and_2_the_minors_of_k5_and_k7_form_with_their_trains() -> None:
    """Built position: the leftover privates bought by order, then the SECR (band 5) sold out
    and paid for, which opens band 6 with the kits' minors; the minors' pars and forming by
    order lines."""
    game = new_game(("unit_12", "k5", "k7"), [ANN, BOB, CY])
    play(game, "Ann: BUY S&D\nBob: BUY L&M")
    total = money(game)
    sell_out(game, "SECR", CY, {CY: 2, ANN: 3, BOB: 3})
    assert money(game) == total and cash(game) == {ANN: 437, BOB: 342, CY: 426}
    offered = pars(game)
    # a minor's par is any price whose ten-fold is more than its train: FR's 5 (£550) from
    # £61, NS's 3T (£370) from £42, LT&S's 2+2 (£600) from £61; offered up to what Cy (£426)
    # can pay for the 40% certificate (£100)
    assert [p for sym, p in offered if sym == "FR"] == [100, 90, 82, 76, 71, 67, 61]
    assert min(p for sym, p in offered if sym == "NS") == 42
    assert min(p for sym, p in offered if sym == "LT&S") == 61
    events = play(game, KIT_MINORS_FORM)
    assert "Cy buys the 40% Director's certificate of NS for £196" in events and "NS floats" in events
    # LT&S: 40% + 20% at £100 pay for its 2+2 at once; NS: 40% + 20% + 20% at £49 = £392
    assert events[events.index("Minor LT&S forms") + 1] == "Minor LT&S spends £600 for its required train (2+2)"
    assert "Minor NS spends £370 for its required train (3T)" in events
    corps = game.state.corporations
    assert (corps["LT&S"].cash, corps["LT&S"].trains) == (0, [TrainId("2+2", 0)])
    assert (corps["NS"].cash, corps["NS"].trains) == (4 * 49 + 2 * 2 * 49 - 370, [TrainId("3T", 0)])
    assert game.operating_order() == ["SECR", "LT&S", "NS"]  # minors after majors, highest par first
    assert money(game) == total


# -- Units 2 and 3 with u3p and db3, three players -------------------------------------------

UNITS_23_U3P_DB3 = """
Ann: BUY S&D
Bob: BUY L&M
Cy: PAR LNWR 100
Ann: BUY LNWR
Bob: BUY LNWR
Cy: BUY LNWR
Ann: BUY LNWR
Bob: BUY LNWR
Cy: BUY LNWR
Ann: BUY LNWR
Bob: BUY LNWR
Cy: PAR MR 82
Ann: BUY MR
Bob: BUY MR
Cy: PASS
Ann: PASS
Bob: PASS
# OR 1.1
Cy: LAY P10 8 3
Cy: TRAIN 2
Cy: TRAIN 2
Cy: PASS
# SR 2: the Midland floats
Cy: BUY MR
Cy: PASS
Ann: BUY MR
Ann: PASS
Bob: PASS
Cy: PASS
Ann: PASS
# OR 2.1
Cy: PASS
Cy: RUN 2: Q11-O11.0
Cy: PAY
Cy: PASS
"""


def test_units_2_and_3_with_u3p_and_db3() -> None:
    game = new_game(("unit_23", "u3p", "db3"), [ANN, BOB, CY])
    total = game.title.bank_cash
    assert total == 5000 and money(game) == total  # Unit 2's bank; Unit 3's minors add none
    # one private of each face value: Unit 3's A&F (not Unit 2's L&MI), TWW and S&D, Unit 2's
    # C&HP and L&M
    assert [c.sym for c in game.title.companies] == ["A&F", "TWW", "C&HP", "S&D", "L&M"]
    assert holdings(game) == {ANN: ["A&F"], BOB: ["TWW"], CY: ["C&HP"]}
    assert cash(game) == {ANN: 840 - 30, BOB: 840 - 60, CY: 840 - 75}
    assert privates_for_sale(game) == ["S&D"]
    trains = {t.name: t.count for t in game.title.trains}
    assert (trains["3T"], trains["U3"]) == (1 + 2, 1 + 2)  # u3p: two more of each
    # db3's map: Dumbarton F4 a mountain of £100 (not mountain and water, £140), Dumfries J6 a town
    hexes = game.title.board.hexes
    assert (hexes["F4"].cost, len(hexes["J6"].tile.towns), len(hexes["J6"].tile.cities)) == (100, 1, 0)

    sr1, rest = UNITS_23_U3P_DB3.split("# OR 1.1")
    events = play(game, sr1)
    assert "-- Band 2 companies now available --" in events
    assert "LNWR places its home token on Q11" in events  # Unit 2's LNWR: Crewe alone
    assert not any("T16" in line for line in events)
    or1, rest = ("# OR 1.1" + rest).split("# SR 2")
    play(game, or1)
    assert game.operating_order() == ["LNWR"] and money(game) == total
    events = play(game, "# SR 2" + rest)
    assert "MR receives £820" in events and game.operating_order() == ["LNWR", "MR"]
    # Crewe Q11 (£10) - Manchester O11 city 0 (£40)
    assert city_value(game, "Q11") + city_value(game, "O11", 0) == 50
    assert "LNWR runs a 2 train for £50: Q11-O11" in events
    assert money(game) == total
    assert_report(game)


def test_units_2_and_3_with_db3_the_nbr_lays_db3s_tile_58() -> None:
    """Built position: the North British (band 3) sold out and paid for; it operates in OR 1
    by order lines and lays tile 58, which only db3 brings to Units 2+3, on Stirling F6."""
    lays: dict[str, set[tuple[str, str]]] = {}
    for variants in (("unit_23", "u3p", "db3"), ("unit_23",)):
        game = new_game(variants, [ANN, BOB, CY])
        play(game, "Ann: BUY S&D\nBob: BUY L&M")
        total = money(game)
        sell_out(game, "NBR", CY, {CY: 2, ANN: 3, BOB: 3})
        events = play(game, "Cy: PASS\nAnn: PASS\nBob: PASS")
        assert "NBR places its home token on G5" in events and events[-1] == "Cy operates NBR"
        lays[variants[-1]] = {(a.hex, a.tile) for a in game.legal_actions(CY) if isinstance(a, LayTile)}
        if "db3" in variants:
            events = play(game, "Cy: LAY F6 58 0\nCy: PASS")
            assert "NBR lays tile #58 with rotation 0 on F6" in events
            assert game.state.tiles["F6"] == ("58", 0)
        assert money(game) == total
    assert lays == {"db3": {("F6", "3"), ("F6", "4"), ("F6", "58")}, "unit_23": {("F6", "3"), ("F6", "4")}}


# -- all three units with the regional kits and K1, K2, K3, K6, four players --------------------

ALL_KITS = ("unit_123", "r1", "r2", "r3", "k1", "k3", "k2", "k6")

UNITS_123_KITS = """
Ann: BUY S&D
Bob: BUY L&M
Cy: PAR LNWR 100
Di: BUY LNWR
Ann: BUY LNWR
Bob: BUY LNWR
Cy: BUY LNWR
Di: BUY LNWR
Ann: BUY LNWR
Bob: BUY LNWR
Cy: BUY LNWR
Di: PAR GWR 90
Ann: BUY GWR
Bob: PASS
Cy: PASS
Di: PASS
Ann: PASS
# OR 1.1: K6's tile 58 in Northampton, and the Mersey crossed from Crewe
Cy: LAY S15 58 3
Cy: LAY P10 8 3
Cy: TRAIN 2
Cy: TRAIN 2
Cy: PASS
# SR 2: the GWR floats
Bob: BUY GWR
Bob: PASS
Cy: BUY GWR
Cy: PASS
Di: BUY GWR
Di: PASS
Ann: PASS
Bob: PASS
Cy: PASS
Di: PASS
# OR 2.1
Cy: PASS
Cy: RUN 2: Q11-O11.0
Cy: PAY
Cy: PASS
"""


def test_all_units_with_the_regional_kits_and_k1_k2_k3_k6() -> None:
    game = new_game(ALL_KITS, ["Ann", "Bob", "Cy", "Di"])
    total = game.title.bank_cash
    # Unit 1's bank, K2 and K3 £2000 each, the minors of R1 (two) and R2 (counted twice)
    assert total == 5000 + 2000 + 2000 + 4 * 1000 and money(game) == total
    assert [c.sym for c in game.title.companies] == ["S&M", "TWW", "C&HP", "C&W", "S&D", "L&M"]
    assert holdings(game) == {ANN: ["S&M"], BOB: ["TWW"], CY: ["C&HP"], DI: ["C&W"]}
    assert cash(game) == {ANN: 630 - 30, BOB: 630 - 60, CY: 630 - 75, DI: 630 - 130}
    assert privates_for_sale(game) == ["S&D"]
    # the trains of Units 1+2+3 with R1 (U3, 4T), R2 (5), R3 (4T), K3 (one 5 less, three 6s and
    # two 7s more) and K2 with K3 (five 3T, three U3, three 2+2, two 4T, two 4+4E; one 3, 4
    # and 5 less)
    trains = {t.name: t.count for t in game.title.trains}
    assert trains == {"2": 7, "3": 6 - 1, "4": 5 - 1, "5": 6 + 1 - 1 - 1, "6": 2 + 3, "7": 2 + 2,
                      "3T": 1 + 5, "U3": 1 + 1 + 3, "2+2": 3, "4T": 1 + 1 + 2, "4+4E": 2}
    counts = game.title.board.tile_counts
    assert (counts["58"], counts["198"], counts["199"], counts["48"]) == (3, 1, 1, 1)  # K6, K6, K6, K3
    # the regional kits' hexes joined to Unit 1: Wales (R1), the South West (R2), Norfolk (R3)
    assert {"R8", "V6", "Y7", "AA1", "Q23"} <= set(game.title.board.hexes)

    sr1, rest = UNITS_123_KITS.split("# OR 1.1")
    events = play(game, sr1)
    assert "-- Band 2 companies now available --" in events
    home = events.index("LNWR places its home token on T16")
    assert events[home + 1] == "LNWR places its home token on Q11"
    or1, rest = ("# OR 1.1" + rest).split("# SR 2")
    events = play(game, or1)
    assert "LNWR lays tile #58 with rotation 3 on S15" in events and game.state.tiles["S15"] == ("58", 3)
    assert game.operating_order() == ["LNWR"] and money(game) == total
    events = play(game, "# SR 2" + rest)
    # with R2 the GWR's homes are Swindon and Exeter
    home = events.index("GWR places its home token on V14")
    assert events[home + 1] == "GWR places its home token on Y7"
    assert game.operating_order() == ["LNWR", "GWR"]
    # Crewe Q11 (£10) - Manchester O11 city 0 (£40)
    assert city_value(game, "Q11") + city_value(game, "O11", 0) == 50
    assert "LNWR runs a 2 train for £50: Q11-O11" in events
    assert "LNWR pays out £50 = £5 per share (£10 to Ann, £10 to Bob, £20 to Cy, £10 to Di)" in " ".join(events)
    assert money(game) == total
    assert_report(game)
    for width in (80, 132):  # the joined map: Unit 3's B12 and G5, R1's R8, R2's Y7 and AA1, R3's Q23
        text = report(game, width)
        assert all(f"|{coord} " in text for coord in ("B12", "G5", "R8", "Y7", "AA1", "Q23")), width


REGIONAL_MINORS_FORM = """
Cy: PAR Cam 49
Di: PAR M&GN 82
Ann: BUY M&GN
Bob: BUY Cam
Ann: BUY Cam
Bob: BUY Cam
"""


def test_all_units_the_regional_minors_form_and_a_home_in_a_white_city_waits() -> None:
    """Built position: the leftover privates bought by order, then the SECR (band 5) sold out
    and paid for; R3's Midland & Great Northern and R1's Cambrian started and formed by order
    lines; the stock round ends and the operating round begins."""
    game = new_game(ALL_KITS, ["Ann", "Bob", "Cy", "Di"])
    play(game, "Ann: BUY S&D\nBob: BUY L&M")
    total = money(game)
    sell_out(game, "SECR", CY, {CY: 2, ANN: 2, BOB: 2, DI: 2})
    # the minors' band, by the prices Cy (£271) can pay for a 40% certificate: at most £67
    assert [p for sym, p in pars(game) if sym == "Cam"] == [67, 61, 55, 49, 42]  # U3 £410
    assert [p for sym, p in pars(game) if sym == "S&DR"] == [67, 61]  # a 5, £550
    events = play(game, REGIONAL_MINORS_FORM)
    # M&GN: 40% + 20% at £82 = £492 pays for its 4T (£480); Cam: all four certificates at
    # £49 = £490 for its U3 (£410)
    assert "Minor M&GN spends £480 for its required train (4T)" in events
    assert "Minor Cam spends £410 for its required train (U3)" in events
    corps = game.state.corporations
    assert (corps["M&GN"].cash, corps["Cam"].cash) == (492 - 480, 490 - 410)
    assert [t.kind for t in corps["M&GN"].trains + corps["Cam"].trains] == ["4T", "U3"]
    # the stock round ends; in OR 1.1 the M&GN's home goes down in Melton Constable, the
    # Cambrian's waits for a tile with a city on its home hex, the white R8
    assert game.round_label() == "OR 1.1" and game.operating_order() == ["SECR", "M&GN", "Cam"]
    assert "M&GN places its home token on Q23" in events
    assert not any("Cam" in corps_here for corps_here in game.state.tokens.values())
    assert money(game) == total


# -- Unit 1 with D1, db1, db2 and big_bank, three players ------------------------------------

UNIT_1_D1_DB = """
Ann: BUY L&M
Bob: PAR LNWR 100
Cy: BUY LNWR
Ann: BUY LNWR
Bob: BUY LNWR
Cy: BUY LNWR
Ann: BUY LNWR
Bob: BUY LNWR
Cy: BUY LNWR
Ann: BUY LNWR
Bob: PAR GWR 90
Cy: BUY GWR
Ann: PASS
Bob: PASS
Cy: PASS
# OR 1.1: towards Birmingham, and south-east
Bob: LAY T14 8 2
Bob: LAY U17 9 2
Bob: TRAIN 2
Bob: TRAIN 2
Bob: PASS
# SR 2: the GWR floats
Ann: BUY GWR
Ann: PASS
Bob: BUY GWR
Bob: PASS
Cy: BUY GWR
Cy: PASS
Ann: PASS
Bob: PASS
Cy: PASS
# OR 2.1: D1's tile 58 in Northampton, then the run
Bob: LAY S15 58 3
Bob: RUN 2: T16-S13.2
Bob: PAY
Bob: PASS
"""


def test_unit_1_with_d1_db1_db2_and_big_bank() -> None:
    game = new_game(("unit_1", "d1", "db1", "db2", "big_bank"), [ANN, BOB, CY])
    total = game.title.bank_cash
    assert total == 5000 and money(game) == total  # big_bank: the banks of the units, one here
    assert [c.sym for c in game.title.companies] == ["S&M", "C&HP", "C&W", "L&M"]
    assert holdings(game) == {ANN: ["S&M"], BOB: ["C&HP"], CY: ["C&W"]}
    counts = game.title.board.tile_counts
    assert (counts["58"], counts["115"]) == (2, 2)  # D1's yellow tiles, none in Unit 1 alone
    assert (counts.get("87", 0), counts.get("88", 0), counts["887"], counts["888"]) == (0, 0, 2, 2)  # db1
    # db2: the SECR pars at 67 with the LBSC (band 4), Ashford W23 no longer costs water
    tables = facts(game)
    assert (tables.corporation_facts["SECR"].par, tables.corporation_facts["SECR"].band) == (67, 4)
    assert tables.corporation_facts["LBSC"].band == 4
    assert game.title.board.hexes["W23"].cost == 0

    sr1, rest = UNIT_1_D1_DB.split("# OR 1.1")
    events = play(game, sr1.split("Bob: PAR GWR")[0])
    assert events[-1] == "-- Band 2 companies now available --" and pars(game) == [("GWR", 90)]
    play(game, "Bob: PAR GWR" + sr1.split("Bob: PAR GWR")[1])
    or1, rest = ("# OR 1.1" + rest).split("# SR 2")
    play(game, or1)
    assert game.state.tiles["T14"] == ("8", 2) and game.state.tiles["U17"] == ("9", 2)
    assert game.operating_order() == ["LNWR"] and money(game) == total
    events = play(game, "# SR 2" + rest)
    assert "LNWR lays tile #58 with rotation 3 on S15" in events
    assert game.operating_order() == ["LNWR", "GWR"]
    # Wolverton T16 (£10) - Birmingham S13 city 2 (£40)
    assert city_value(game, "T16") + city_value(game, "S13", 2) == 50
    assert "LNWR runs a 2 train for £50: T16-S13" in events
    assert money(game) == total
    assert_report(game)
