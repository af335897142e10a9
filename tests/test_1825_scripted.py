"""Short scripted games of 1825 by order lines, one for each unit alone (issue 12, "Tests":
"a short scripted game of stock and operating rounds in the combined units with kits"). Each
plays from a new game through stock round 1, operating round 1 and stock round 2 into
operating round 2, and checks what shows the unit in play: its privates, its fixed pars and
bands, its track, a run priced by hand from the map data, the operating order, the money
(players + companies + bank = the game's money) and the report. The combined units with
kits: :mod:`tests.test_1825_scripted_kits`."""

from __future__ import annotations

import pytest

from pbem.engine.values import CityRef
from pbem.errors import IllegalOrderError
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
)

ANN, BOB, CY = "Ann", "Bob", "Cy"

# -- Unit 1 alone, three players -----------------------------------------------------------

UNIT_1_SR1 = """
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
"""

UNIT_1_REST = """
Bob: PAR GWR 90
Cy: BUY GWR
Ann: PASS
Bob: PASS
Cy: PASS
# OR 1.1: the LNWR (Bob) lays two yellow tiles that are not adjacent, a token in Birmingham
Bob: LAY T14 8 2
Bob: LAY S17 9 0
Bob: TOKEN S13.2
Bob: TRAIN 2
Bob: TRAIN 2
Bob: PASS
# SR 2: each buy ends with PASS (a player may still sell); the GWR floats at 60%
Ann: BUY GWR
Ann: PASS
Bob: BUY GWR
Bob: PASS
Cy: BUY GWR
Cy: PASS
Ann: SELL L&M
Ann: PASS
Bob: PASS
Cy: PASS
# OR 2.1: the LNWR runs and pays
Bob: PASS
Bob: RUN 2: T16-S13.2
Bob: PAY
Bob: PASS
"""


def test_unit_1_alone_three_players() -> None:
    game = new_game(("unit_1",), [ANN, BOB, CY])
    total = game.title.bank_cash
    assert total == 5000 and money(game) == total
    # Unit 1's four privates, dealt cheapest first in seat order at face value
    assert [c.sym for c in game.title.companies] == ["S&M", "C&HP", "C&W", "L&M"]
    assert holdings(game) == {ANN: ["S&M"], BOB: ["C&HP"], CY: ["C&W"]}
    assert cash(game) == {ANN: 830 - 30, BOB: 830 - 75, CY: 830 - 130}
    assert privates_for_sale(game) == ["L&M"]

    events = play(game, UNIT_1_SR1.splitlines()[1])
    assert "-- Band 1 companies now available --" in events
    assert pars(game) == [("LNWR", 100)]  # band 1: the LNWR alone, at its fixed par
    with pytest.raises(IllegalOrderError):
        play(game, "Bob: PAR LNWR 90")
    events = play(game, "\n".join(UNIT_1_SR1.splitlines()[2:]))
    assert "LNWR floats" in events and "LNWR receives £1000" in events  # at 60%, with all ten shares' price
    assert events[-1] == "-- Band 2 companies now available --"
    assert pars(game) == [("GWR", 90)]  # the LNWR sold out: band 2, the GWR at 90
    assert game.state.corporations["LNWR"].cash == 1000  # fully capitalised

    events = play(game, UNIT_1_REST.split("# SR 2")[0])
    assert game.round_label() == "SR 2" and game.operating_order() == ["LNWR"]
    assert game.state.tiles["T14"] == ("8", 2) and game.state.tiles["S17"] == ("9", 0)
    assert "LNWR places a token on S13 for £40" in events
    assert money(game) == total

    events = play(game, "# SR 2" + UNIT_1_REST.split("# SR 2")[1])
    assert "Ann sells L&M to the bank for £180" in events  # £30 below its face value
    assert "GWR receives £900" in events
    assert game.operating_order() == ["LNWR", "GWR"]  # majors by par
    # the LNWR's 2-train: Wolverton T16 (its home, £10) - Birmingham S13 city 2 (£40)
    assert city_value(game, "T16") + city_value(game, "S13", 2) == 10 + 40
    assert "LNWR runs a 2 train for £50: T16-S13" in events
    assert "LNWR pays out £50 = £5 per share (£15 to Ann, £20 to Bob, £15 to Cy)" in " ".join(events)
    assert game.round_label() == "OR 2.1" and game.current_actors() == [BOB]  # the GWR next
    assert money(game) == total
    assert_report(game)


# -- Unit 2 alone, three players -----------------------------------------------------------

UNIT_2 = """
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
# band 2: the Midland and the North Eastern, both at 82
Bob: PAR MR 82
Cy: PAR NER 82
Ann: PASS
Bob: PASS
Cy: PASS
# OR 1.1: the LNWR (Bob) builds from Crewe Q11 over the Mersey P10 (water, £40)
Bob: LAY P10 8 3
Bob: TRAIN 2
Bob: TRAIN 2
Bob: PASS
# SR 2: the Midland floats
Ann: BUY MR
Ann: PASS
Bob: BUY MR
Bob: PASS
Cy: BUY MR
Cy: PASS
Ann: BUY MR
Ann: PASS
Bob: PASS
Cy: PASS
Ann: PASS
# OR 2.1
Bob: PASS
Bob: RUN 2: Q11-O11.0
Bob: PAY
Bob: PASS
"""


def test_unit_2_alone_three_players() -> None:
    game = new_game(("unit_2",), [ANN, BOB, CY])
    total = game.title.bank_cash
    assert total == 5000 and money(game) == total
    assert [c.sym for c in game.title.companies] == ["L&MI", "C&HP", "S&D", "L&M"]
    assert holdings(game) == {ANN: ["L&MI"], BOB: ["C&HP"], CY: ["S&D"]}
    assert cash(game) == {ANN: 800 - 30, BOB: 800 - 75, CY: 800 - 160}
    assert privates_for_sale(game) == ["L&M"]
    sr1, rest = UNIT_2.split("# band 2")
    events = play(game, sr1)
    assert events[-1] == "-- Band 2 companies now available --"
    assert pars(game) == [("MR", 82), ("NER", 82)]
    or1, rest = ("# band 2" + rest).split("# SR 2")
    events = play(game, or1)
    assert "LNWR spends £40 and lays tile #8 with rotation 3 on P10" in events
    assert game.operating_order() == ["LNWR"] and money(game) == total
    sr2, or2 = ("# SR 2" + rest).split("# OR 2.1")
    events = play(game, sr2)
    assert "MR receives £820" in events and game.round_label() == "OR 2.1"
    assert game.operating_order() == ["LNWR", "MR"]
    assert game.state.tokens[CityRef("Q15", 0)] == ["MR"]  # the Midland's home in Derby
    events = play(game, or2)
    # the LNWR's 2-train: Crewe Q11 (its home, £10) - Manchester O11 city 0 (£40)
    assert city_value(game, "Q11") + city_value(game, "O11", 0) == 50
    assert "LNWR runs a 2 train for £50: Q11-O11" in events
    assert money(game) == total
    assert_report(game)


# -- Unit 3 alone, two players -------------------------------------------------------------

UNIT_3 = """
Ann: BUY S&D
Bob: PAR CR 76
Ann: BUY CR
Bob: BUY CR
Ann: BUY CR
Bob: BUY CR
Ann: BUY CR
Bob: BUY CR
Ann: BUY CR
Bob: BUY CR
# band 2: the minors; Ann chooses the Maryport & Carlisle's par
Ann: PAR M&C 61
Bob: BUY M&C
# OR 1.1: the Caledonian (Bob) lays a yellow city south-east of Glasgow
Bob: LAY H6 5 2
Bob: TRAIN 2
Bob: TRAIN 2
Bob: PASS
# SR 2: a third share of the M&C pays for its 3T: it forms
Ann: PASS
Bob: BUY M&C
Bob: PASS
Ann: PASS
Bob: PASS
# OR 2.1
# one PASS ends the track and the token alike
Bob: PASS
Bob: RUN 2: G5.2-H6
Bob: PAY
"""


def test_unit_3_alone_two_players_with_a_minor_formed() -> None:
    game = new_game(("unit_3",), [ANN, BOB])
    total = game.title.bank_cash
    assert total == 4000 and money(game) == total
    assert [c.sym for c in game.title.companies] == ["A&F", "TWW", "S&D"]
    assert holdings(game) == {ANN: ["A&F"], BOB: ["TWW"]}
    sr1, rest = UNIT_3.split("# band 2")
    events = play(game, sr1)
    assert events[-1] == "-- Band 2 companies now available --"
    # band 2: the NBR (band 1, 76) and the GSWR at their pars; each minor at the prices whose
    # ten-fold is more than its required train (GNoS a 5 at £550, HR a U3 at £410, M&C a 3T
    # at £370)
    assert pars(game) == [("NBR", 76), ("GSWR", 67), ("GNoS", 61), ("HR", 61), ("HR", 55), ("HR", 49),
                          ("HR", 42), ("M&C", 61), ("M&C", 55), ("M&C", 49), ("M&C", 42)]
    or1, rest = ("# band 2" + rest).split("# SR 2")
    events = play(game, or1)
    assert "Ann buys the 40% Director's certificate of M&C for £244" in events and "M&C floats" in events
    mc = game.state.corporations["M&C"]
    assert mc.cash == 244 + 122  # paid share by share; not formed yet (a 3T costs £370)
    assert game.operating_order() == ["CR"] and money(game) == total
    sr2, or2 = ("# SR 2" + rest).split("# OR 2.1")
    events = play(game, sr2)
    assert "Minor M&C forms" in events and "Minor M&C spends £370 for its required train (3T)" in events
    assert mc.cash == 3 * 122 + 122 - 370 and [t.kind for t in mc.trains] == ["3T"]
    assert "M&C places its home token on K7" in events
    assert game.operating_order() == ["CR", "M&C"]  # majors, then minors
    events = play(game, or2)
    # the Caledonian's 2-train: Glasgow G5 city 2 (its home, £40) - H6, the yellow tile 5 (£20)
    assert city_value(game, "G5", 2) + game.title.tiles["5"].cities[0].revenue == 60
    assert "CR runs a 2 train for £60: G5-H6" in events
    assert money(game) == total
    assert_report(game)
