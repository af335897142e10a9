"""A five-player game of 1829 on Dagger's combined boards, played by mail from the sale of the
private railways through the launch of the MR (after three operating rounds).

Each mail is read by the application as it comes from the mailbox; the turn reports are written
after each. The game exercises the sale of the private railways cheapest first (a mail buying
one not yet on offer is refused), the first three companies launched once they are sold, the
fixed starting prices (a PAR at another price refused), a packet bought in place of a share and
paying its owner, the survey parties (each turn begins with SURVEY; new track goes on the hex
the party has just left, a LAY elsewhere refused with the reason), the 5% rule (runs too small
to raise a price), and the MR offered after the third operating round. The L&M's exchange and a
packet's port income need companies launched after nine operating rounds or a station in a
port, and are tested on built positions (tests/test_1829_rules.py). The log then replays to the
same game.
"""

from __future__ import annotations

from pbem.application.state import replay
from pbem.engine import market
from pbem.engine.game import Game
from pbem.titles.g1829.state import state1829
from tests.mail_table import Table

ANN, BOB, CAT, DAN, EVE = "Ann", "Bob", "Cat", "Dan", "Eve"
NAMES = [ANN, BOB, CAT, DAN, EVE]

RAILWAYS = [(ANN, "BUY S&M"), (BOB, "BUY A&F"), (CAT, "BUY C&HP"), (DAN, "BUY C&W"), (EVE, "BUY S&D"),
            (ANN, "BUY L&M")]
STOCK_1 = [
    (BOB, "PAR LNWR 100"), (CAT, "PAR GWR 90"), (DAN, "PAR NER 90"),
    (EVE, "BUY LNWR"), (ANN, "BUY LNWR"), (BOB, "BUY LNWR"), (CAT, "BUY GWR"), (DAN, "BUY NER"),
    (EVE, "BUY GWR"), (ANN, "BUY NER"), (BOB, "BUY LNWR"), (CAT, "BUY GWR"), (DAN, "BUY NER"),
    (EVE, "BUY NER"), (ANN, "BUY GWR"),
    (BOB, "BUY HULL"),                       # a packet, in place of a share
    (CAT, "PASS"), (DAN, "PASS"), (EVE, "PASS"), (ANN, "PASS"),   # Bob has no money left: the round ends
]
HOMES = {"LNWR": "Q11", "GWR": "V14", "NER": "L14"}
OPERATING_1 = [("LNWR", "SURVEY P10"),                  # Crewe is gray: nothing to build, no track step
               ("GWR", "SURVEY V12"),                   # nor at Swindon
               ("NER", "SURVEY M15", "LAY L14 5 5")]    # Darlington, just left, built toward M15
OPERATING_2 = [("LNWR", "SURVEY O9", "LAY P10 9 2"),    # Crewe to Liverpool over P10, just left
               ("GWR", "SURVEY V10", "LAY V12 9 1"),
               ("NER", "SURVEY M17", "LAY M15 1 1")]


def price(game: Game, sym: str) -> int:
    coord = game.state.corporations[sym].price
    assert coord is not None
    return market.price_at(game.title, coord)


def operating_corp(game: Game) -> str:
    op = game.state.round.operating
    assert op is not None
    return op.order[op.index]


def operate(table: Table, corp: str, *lines: str) -> None:
    """``corp``'s turn by mail: ``lines`` (its survey and track), then its run and payout
    where it has a train, a 2-train while it has none, PASS for the rest."""
    game = table.state.game
    assert operating_corp(game) == corp
    seat = game.current_actors()[0]
    for line in lines:
        table.send(seat, line)
    game = table.state.game
    while game.state.round.kind == "operating" and operating_corp(game) == corp:
        offered = {type(a).__name__ for a in game.legal_actions(seat)}
        if {"RunRoutes", "RunAuto"} & offered:
            table.send(seat, "RUN AUTO")
        elif "Dividend" in offered:
            table.send(seat, "PAYOUT")
        elif "BuyTrain" in offered and not game.state.corporations[corp].trains:
            table.send(seat, "TRAIN 2")
        else:
            table.send(seat, "PASS")
        game = table.state.game


def test_a_five_player_game_by_mail_through_the_launch_of_the_mr() -> None:
    table = Table("dagger-1829", "1829", (), NAMES)
    game = table.state.game
    assert game.state.round.kind == "stock" and game.state.players[ANN].cash == 756

    reason = table.refused(ANN, "BUY C&HP")
    assert "C&HP is not on offer yet: the bank offers S&M or A&F, the cheapest first" in reason, reason
    table.play(RAILWAYS)
    assert "Now on offer: LNWR, GWR, NER" in table.reports[-1]
    reason = table.refused(BOB, "PAR LNWR 90")
    assert "LNWR starts at 100 only" in reason, reason
    reason = table.refused(BOB, "PAR MR 82")
    assert "MR is not on offer yet: it is offered after 3 operating rounds (0 played)" in reason, reason
    table.play(STOCK_1)
    game = table.state.game
    assert all(game.state.corporations[s].floated for s in HOMES)
    assert game.state.companies["HULL"].owner is not None and game.state.companies["HULL"].owner.name == BOB
    assert game.state.round.kind == "operating"

    # OR 1: each turn begins with the survey; a lay before it is refused
    seat = game.current_actors()[0]
    reason = table.refused(seat, "LAY P10 9 2")
    assert "must move a survey party (SURVEY <hex>), or PARK it" in reason, reason
    reason = table.refused(seat, "SURVEY P4")
    assert ("P4 is more than 1 hex from Q11: a party moves 1 a turn. LNWR may send SURVEY P10, SURVEY P12"
            in " ".join(reason.split())), reason
    table.send(seat, "SURVEY P10")
    game = table.state.game
    assert "lay or upgrade" not in table.reports[-1].split("FOR BOB")[1].split("SINCE")[0], \
        "nothing to build on Crewe, just left: no track step to PASS"
    operate(table, "LNWR")
    for corp, *lines in OPERATING_1[1:]:
        operate(table, corp, *lines)
    game = table.state.game
    assert game.state.round.kind == "stock" and state1829(game.state).operating_rounds == 1
    assert game.state.tiles["L14"] == ("5", 5) and game.state.map_pieces == {"LNWR": ["P10"], "GWR": ["V12"],
                                                                            "NER": ["M15"]}
    assert "@NER" in table.reports[-1] and "LNWR: P10" in table.reports[-1]
    assert any("HULL" in line and "Bob" in line and "L25" in line for line in table.reports[-1].splitlines()), \
        "the packet pays its owner"
    prices = {s: price(game, s) for s in HOMES}

    # SR 2 and OR 2: track on the hexes the parties left; runs of at most 5% a share
    table.play([(p, "PASS") for p in game.state.order])
    for corp, *lines in OPERATING_2:
        operate(table, corp, *lines)
    game = table.state.game
    assert state1829(game.state).operating_rounds == 2
    assert game.state.tiles["P10"] == ("9", 2) and game.state.tiles["M15"] == ("1", 1)
    lnwr = game.state.corporations["LNWR"]
    assert lnwr.last_revenue == 50 and price(game, "LNWR") == 100, "£5 a share is 5% of £100, not more: no rise"
    assert 0 < game.state.corporations["NER"].last_revenue and price(game, "NER") == prices["NER"]

    # SR 3, OR 3 (each party moves on), then the MR is on offer
    table.play([(p, "PASS") for p in game.state.order])
    targets = {"LNWR": "N10", "GWR": "V8", "NER": "N16"}
    while table.state.game.state.round.kind == "operating":
        corp = operating_corp(table.state.game)
        operate(table, corp, f"SURVEY {targets.pop(corp)}")
    assert not targets
    game = table.state.game
    assert game.state.round.kind == "stock" and state1829(game.state).operating_rounds == 3
    assert "Now on offer: MR" in table.reports[-1]
    lines = table.reports[-1].split("\nSHARE LAUNCHES\n")[1].split("\n\n")[0]
    assert "Next: LSWR, NBR, after 5 operating rounds (3 played)." in " ".join(lines.split())
    assert "PACKETS" in table.reports[-1] and "SURVEY PARTIES" in table.reports[-1]
    seat = game.current_actors()[0]
    table.send(seat, "PAR MR 82")
    assert table.state.game.state.corporations["MR"].ipoed

    again = replay(table.records)
    assert again.game.state == table.state.game.state and again.last_seq == len(table.records) - 1
