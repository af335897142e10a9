"""A four-player 1870 game with the Historical Order Start and Lou Jerkich's additional rules
(issue 13), played by mail from the private auction (with the GM&O's president's certificate
as the fifth private) through its first three operating rounds.

Each mail is read by the application as it comes from the mailbox (the seat's secret, its
order lines); the turn reports are written after each. The game exercises the order of
starting (a mail starting the MP before the IC is refused with the reason), the GM&O floating
from the auction, the IC's two homes and its first lay out of Chicago, the M-K-T private's
tiles from Junction City toward Parsons with the Katy's token on Junction City, the MP's
reserved tile #5, an E20 tile refused for joining the IC to the wrong side of the Ohio, the
IC's run that dead-ends in Cairo, and the Bridge Company sold to a corporation, which opens
the rivers. The log then replays to the same game.
"""

from __future__ import annotations

from pbem.engine.values import Owner
from pbem.application.state import replay
from pbem.engine import track
from pbem.titles.g1870.state import state1870
from tests.mail_table import Table

ANN, BOB, CY, DI = "Ann", "Bob", "Cy", "Di"
GID = "hist-1870"

AUCTION = [
    (ANN, "BUY GRSC"),
    (BOB, "BID MKT 165"),
    (CY, "BUY MRBC"),            # Cy holds the Bridge Company: the rivers stay closed
    (DI, "BUY SCC"),
    (ANN, "BUY GSC"),
    (BOB, "BUY GMO", "PAR GMO 100"),   # the fifth private: the GM&O's president's certificate
]
STOCK_1 = [
    (CY, "PAR IC 76"), (DI, "BUY IC"), (ANN, "BUY IC"), (BOB, "PASS"), (CY, "BUY IC"),
    (DI, "PAR MP 68"), (ANN, "BUY IC"), (BOB, "PASS"), (CY, "BUY MP"), (DI, "BUY MP"),
    (ANN, "BUY MP"), (BOB, "PASS"), (CY, "BUY MP"),
    (DI, "PASS"), (ANN, "PASS"), (BOB, "PASS"), (CY, "PASS"),
]
OPERATING_1 = [
    (BOB, "LAY B7 58 5"),                              # the M-K-T private's first tile, on Junction City
    (BOB, "LAY M20 57 0", "LAY L21 7 0", "TRAIN 2", "PASS"),         # GM&O
    (CY, "LAY B21 9 0", "LAY C20 9 0", "TRAIN 2", "PASS"),           # IC, first out of Chicago
    (DI, "LAY C18 5 0", "TRAIN 2", "PASS", "PASS"),                  # MP, with its reserved #5
]
STOCK_2 = [(DI, "PASS"), (ANN, "PAR SLSF 68", "PASS"), (BOB, "PASS"), (CY, "PASS"), (DI, "PASS"),
           (ANN, "PASS")]
OPERATING_2 = [
    (BOB, "LAY C8 9 2"),                               # toward Parsons
    (BOB, "LAY L19 9 1", "PASS", "PASS"),
    (CY, "LAY D19 8 3"),
    (CY, "LAY E20 1 2", "RUN AUTO", "PAYOUT", "PASS"),
    (DI, "LAY D17 3 2", "PASS", "RUN AUTO", "PAYOUT", "PASS", "PASS"),
]
STOCK_3 = [(BOB, "PASS"), (CY, "BUY IC", "PASS"), (DI, "PASS"), (ANN, "PASS"), (BOB, "PASS"), (CY, "PASS")]
OPERATING_3 = [
    (BOB, "LAY D9 4 2"),                               # Parsons reached
    (BOB, "PASS", "PASS"),
    (CY, "LAY K16 57 0", "PASS", "RUN AUTO", "PAYOUT", "PASS"),
    (DI, "BUY MRBC 20"),                               # the MP offers Cy to buy the Bridge Company
    (CY, "ACCEPT"),                                    # and Cy, its owner, agrees
    (DI, "PASS", "RUN AUTO", "PAYOUT", "PASS", "PASS"),
]


def section(report: str) -> list[str]:
    """The lines of the report's HISTORICAL ORDER START section."""
    text = report.split("\nHISTORICAL ORDER START\n")[1].split("\n\n")[0]
    return [line.strip() for line in text.splitlines()]


def test_a_four_player_historical_order_start_by_mail() -> None:
    table = Table(GID, "1870", ("historical_order_start",), [ANN, BOB, CY, DI])
    game = table.state.game
    assert game.state.round.kind == "auction"
    assert [c.sym for c in game.title.companies][-2:] == ["GMO", "MKT"], "the GM&O's certificate is a private"
    table.play(AUCTION)
    game = table.state.game
    assert game.state.corporations["GMO"].floated and game.state.corporations["GMO"].president == BOB
    assert game.state.round.kind == "stock"
    lines = section(table.reports[-1])

    assert "May be started next: IC" in lines
    assert any(line.startswith("Tile #5: one reserved for MP") for line in lines)
    assert any("Ohio and Mississippi closed" in line for line in lines), lines

    # the order of starting: the MP may not start before the IC (the mail is refused, nothing kept)
    reason = table.refused(CY, "PAR MP 68")
    assert "MP may not be started until IC has been started" in reason
    table.play(STOCK_1)
    game = table.state.game
    assert game.state.corporations["IC"].floated and game.state.corporations["MP"].floated
    assert "May be started next: SLSF" in section(table.reports[-1])
    assert game.state.round.kind == "operating"

    # OR 1: the M-K-T private's first tile on Junction City, then the Katy's token there
    assert game.current_actors() == [BOB]
    reason = table.refused(BOB, "LAY B9 57 0")
    assert "the M-K-T private's first tile goes on Junction City B7" in reason, reason
    assert "must lay toward Parsons D9" in table.refused(BOB, "PASS")
    table.play(OPERATING_1[:1])
    game = table.state.game
    assert game.state.tiles["B7"][0] == "58"
    assert "MKT" in [corp for key, corps in game.state.tokens.items() if key.coord == "B7" for corp in corps]
    table.play(OPERATING_1[1:2])
    game = table.state.game
    # the IC's two homes, both placed as its first turn starts
    assert "IC" in track.tokens_in(game, "K16", 0) and "IC" in track.tokens_in(game, "A22", 0)
    reason = table.refused(CY, "LAY K16 57 0")
    assert "IC's first tile must be laid out of A22: on B21" in reason, reason
    table.play(OPERATING_1[2:])
    game = table.state.game
    assert game.state.tiles["C18"][0] == "5", "the MP lays the #5 held for it"
    assert game.state.round.kind == "stock"
    lines = section(table.reports[-1])
    assert not any(line.startswith("Tile #5: one reserved") for line in lines), "the MP has operated"

    table.play(STOCK_2)
    # OR 2: the private lays toward Parsons; the IC reaches E20 from the north
    table.play(OPERATING_2[:3])
    reason = table.refused(CY, "LAY E20 2 5")
    assert "joins IC's track from the north of the Ohio to Paducah" in reason, reason
    table.play(OPERATING_2[3:4])
    game = table.state.game
    assert "IC runs a 2 train for $60: A22-E20" in table.reports[-1], "Chicago $40, Cairo $20: the run ends there"

    table.play(OPERATING_2[4:])
    table.play(STOCK_3)

    # OR 3: Parsons reached; the IC's run still ends at E20; the MP buys the Bridge Company
    table.play(OPERATING_3[:3])
    game = table.state.game
    assert game.state.tiles["D9"][0] == "4"
    assert any("Ohio and Mississippi closed" in line for line in section(table.reports[-1]))
    table.play(OPERATING_3[3:4])
    assert table.state.game.state.companies["MRBC"].owner == Owner.player(CY), "an offer until Cy accepts"
    table.play(OPERATING_3[4:5])
    game = table.state.game
    assert game.state.companies["MRBC"].owner is not None and not game.state.companies["MRBC"].owner.is_player
    assert not any("Ohio and Mississippi closed" in line for line in section(table.reports[-1]))
    table.play(OPERATING_3[5:])
    game = table.state.game
    assert game.state.round.kind == "stock" and game.state.round.number == 4
    assert state1870(game.state).destinations_reached == []

    again = replay(table.records)
    assert again.game.state == table.state.game.state and again.last_seq == len(table.records) - 1


def test_help_has_a_note_on_each_part_of_the_variant() -> None:
    """HELP's "Rules of this game" gives the variant's notes: the order (our reading), the
    rivers with the GM&O and the IC, the M-K-T private and the Katy, and small cities; its
    order words NEWHOME, MOVEHOME and the GM's OUTOFORDER are listed only in its games."""
    from pbem.orders import help_text
    from pbem.ruleset import load_title

    text = help_text(title=load_title("1870", ("historical_order_start",)))
    notes = text[text.index("Rules of this game:"):]
    for heading in ("Historical Order Start", "The Ohio River, the GM&O and the IC",
                    "The M-K-T private and the Katy", "Small cities"):
        assert f"\n  {heading}\n" in notes, heading
    assert "ohio_cairo" in notes and "our reading" in notes
    plain = help_text(title=load_title("1870"))
    assert "Historical Order Start" not in plain[plain.index("Rules of this game:"):]
    # the variant's own order words are listed in its games only (the GM's OUTOFORDER too)
    for variants, listed in (((), False), (("historical_order_start",), True)):
        text = help_text(title=load_title("1870", variants), include_gm=True)
        for word in ("NEWHOME <hex>", "MOVEHOME <hex>", "OUTOFORDER <corporation>"):
            assert (f"\n  {word}" in text) is listed, (variants, word)
