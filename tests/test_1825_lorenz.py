"""Kevin Lorenz's private-company variant of 1825 (variant ``lorenz``; issue 12, seed 002),
clause by clause: each test fails without the rule it names.

The rules are tested on a small board of 1825's (``tests/titles/lorenz/1825/``: the
privates of the three units, LNWR, GWR and NER, the hexes the variant names) with the
variant's hooks over the core (:class:`Lorenz`), and by mail on the real 1825 data
(tests/test_1825_lorenz_mail.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.engine import track
from pbem.engine.actions import Bid, BuyPrivate, BuyShares, BuyTrain, LayTile, Par, Pass, PlaceToken, SellShares
from pbem.engine.events import render_all
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.state import IPO, OperatingState, RoundState, StockRoundState
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.orders import Vocabulary, format_order, help_text, parse_order
from pbem.ruleset import load_title
from pbem.titles.g1825.lorenz.actions import Designate, PowerLay, PowerToken
from pbem.titles.g1825.lorenz.rules import LorenzRules, compose_lorenz
from pbem.titles.g1825.lorenz.state import lorenz_state

RULES = Path(__file__).resolve().parent / "titles" / "lorenz"
ANN, BOB, CY, DI = "Ann", "Bob", "Cy", "Di"
SEATS = [ANN, BOB, CY, DI]


class Lorenz(LorenzRules, TitleHooks):
    """The variant's hooks alone over the core's."""


def new_game(variants: tuple[str, ...] = ("lorenz",)) -> Game:
    """Four players on the small board (£630 each), the privates S&M, TWW, C&HP, C&W, S&D and
    L&M for sale (the variant keeps one of the two £30 privates)."""
    return Game(load_title("1825", variants, rules_dir=RULES, hooks=Lorenz), SEATS)


def play(game: Game, script: str) -> list[str]:
    """Apply each ``Seat: ORDER`` line, read with the title's vocabulary; each line's seat
    must be the one the game waits for. Returns every event as text."""
    vocab = Vocabulary.from_title(game.title)
    events: list[str] = []
    for line in filter(None, (raw.strip() for raw in script.splitlines())):
        seat, order = line.split(": ", 1)
        assert game.current_actors() == [seat], (line, game.waiting_for())
        events += render_all(game.apply(seat, parse_order(order, vocab)), game.money)
    return events


def owner(game: Game, company: str) -> str | None:
    found = game.state.companies[company].owner
    return found.name if found is not None else None


def cash(game: Game) -> dict[str, int]:
    return {p: game.state.players[p].cash for p in SEATS}


# -- the data --------------------------------------------------------------------------------


def test_one_30_pound_private_is_used_when_units_are_combined() -> None:
    plain = load_title("1825", rules_dir=RULES, hooks=Lorenz)
    assert [c.sym for c in plain.companies if c.value == 30] == ["S&M", "L&MI"]
    game = new_game()
    assert [c.sym for c in game.title.companies] == ["S&M", "TWW", "C&HP", "C&W", "S&D", "L&M"]
    docs = {"companies": [{"sym": "A", "value": 30}, {"sym": "B", "value": 30}, {"sym": "C", "value": 60}],
            "game": {}, "trains": {"trains": []}}
    assert [c["sym"] for c in compose_lorenz(docs)["companies"]] == ["A", "C"]
    assert len(docs["companies"]) == 3, "the inputs are left alone"


def test_the_privates_are_offered_cheapest_first_in_the_listed_order() -> None:
    game = new_game()
    auction = game.state.round.auction
    assert game.state.round.kind == "lorenz_auction" and auction is not None
    assert auction.available == ["S&M", "TWW", "C&HP", "C&W", "S&D", "L&M"]
    assert [game.title.company(c).value for c in auction.available] == [30, 60, 75, 130, 160, 210]


def test_without_the_variant_plain_1825_starts_and_nothing_is_kept_back() -> None:
    game = new_game(())
    assert game.state.round.kind != "lorenz_auction"
    assert game.hooks.launch_problem(game, "LNWR") is None
    assert game.hooks.city_slots(game, "W25", 0, 1) == 1


# -- the start: buy, bid or pass ----------------------------------------------------------


def test_a_turn_buys_the_cheapest_private_bids_on_another_or_passes() -> None:
    game = new_game()
    assert game.legal_actions(ANN) == [BuyPrivate("S&M"), Bid("TWW", 65), Bid("C&HP", 80), Bid("C&W", 135),
                                       Bid("S&D", 165), Bid("L&M", 215), Pass()]
    with pytest.raises(IllegalOrderError, match=r"only the cheapest private \(S&M\) may be bought outright"):
        game.apply(ANN, BuyPrivate("TWW"))
    play(game, "Ann: BUY S&M\nBob: PASS\nCy: BUY TWW")
    assert owner(game, "S&M") == ANN and owner(game, "TWW") == CY
    assert cash(game) == {ANN: 600, BOB: 630, CY: 570, DI: 630}
    assert game.current_actors() == [DI]


def test_a_first_bid_is_5_over_face_value_and_each_later_bid_5_over_the_high_bid() -> None:
    game = new_game()
    with pytest.raises(IllegalOrderError, match="the minimum bid for C&W is £135"):
        game.apply(ANN, Bid("C&W", 134))
    play(game, "Ann: BID C&W 135")
    with pytest.raises(IllegalOrderError, match="the minimum bid for C&W is £140"):
        game.apply(BOB, Bid("C&W", 139))
    play(game, "Bob: BID C&W 140")
    assert game.state.round.auction is not None and game.state.round.auction.bids["C&W"] == [(ANN, 135), (BOB, 140)]


def test_money_bid_is_set_aside_while_the_bid_stands() -> None:
    game = new_game()
    play(game, "Ann: BID L&M 600")
    assert cash(game)[ANN] == 630, "set aside, not paid"
    play(game, "Bob: PASS\nCy: PASS\nDi: PASS")
    assert BuyPrivate("S&M") in game.legal_actions(ANN)  # £30 free of the £600 bid
    assert Bid("TWW", 65) not in game.legal_actions(ANN)
    with pytest.raises(IllegalOrderError, match=r"Ann can bid at most £30 on TWW \(cash less other open bids\)"):
        game.apply(ANN, Bid("TWW", 65))


def test_after_a_purchase_the_next_privates_with_one_bid_go_to_their_bidders_at_once() -> None:
    game = new_game()
    events = play(game, """
        Ann: BID TWW 65
        Bob: BID C&HP 85
        Cy: BID S&D 170
        Di: BUY S&M
    """)
    assert owner(game, "TWW") == ANN and owner(game, "C&HP") == BOB, "down the line, one bid each"
    assert owner(game, "C&W") is None and owner(game, "S&D") is None, "C&W has no bid: the line stops there"
    assert events[-2:] == ["Ann wins the auction for TWW with the only bid of £65",
                           "Bob wins the auction for C&HP with the only bid of £85"]
    assert cash(game) == {ANN: 565, BOB: 545, CY: 630, DI: 600}
    assert game.current_actors() == [ANN], "play resumes to the left of Di, who bought S&M with no bids"


def test_two_bidders_auction_a_private_from_the_left_of_the_high_bidder_round_the_table() -> None:
    game = new_game()
    play(game, """
        Ann: PASS
        Bob: PASS
        Cy: BID C&HP 80
        Di: PASS
        Ann: PASS
        Bob: BID C&HP 85
        Cy: PASS
        Di: PASS
        Ann: BID C&HP 90
        Bob: BUY S&M
        Cy: BUY TWW
    """)
    # C&HP has three bidders, Ann high: Bob, to her left, raises or passes first (not Cy,
    # the lowest bidder, as 1830's auction would have it); Di has not bid and takes no part
    auction = game.state.round.auction
    assert auction is not None and auction.auctioning == "C&HP"
    assert game.current_actors() == [BOB]
    assert game.legal_actions(DI) == []
    play(game, "Bob: BID C&HP 95\nCy: PASS\nAnn: BID C&HP 100\nBob: BID C&HP 110\nAnn: PASS")
    assert owner(game, "C&HP") == BOB and cash(game)[BOB] == 630 - 30 - 110
    assert cash(game)[ANN] == 630 and cash(game)[CY] == 630 - 60, "the losers' money is free again"
    assert game.current_actors() == [DI], "play resumes to the left of Cy, who bought TWW with no bids"


def test_only_the_bidders_of_a_private_take_part_in_its_auction() -> None:
    game = new_game()
    play(game, "Ann: PASS\nBob: BID C&W 135\nCy: BID C&W 140\nDi: BUY S&M\nAnn: BUY TWW")
    assert game.current_actors() == [BOB], "C&HP (no bids) stops the line; the turn is Bob's"
    play(game, "Bob: BUY C&HP")
    assert game.current_actors() == [BOB], "C&W's auction: Bob, left of the high bidder Cy"
    with pytest.raises(IllegalOrderError, match="it is not Ann's turn"):
        game.apply(ANN, Bid("C&W", 150))
    play(game, "Bob: PASS")
    assert owner(game, "C&W") == CY and cash(game)[CY] == 630 - 140
    assert game.current_actors() == [CY], "resumes to the left of Bob, the last to buy a private with no bids"


def test_when_the_last_private_is_sold_the_next_player_starts_the_stock_round() -> None:
    game = new_game()
    play(game, """
        Ann: BUY S&M
        Bob: BUY TWW
        Cy: BUY C&HP
        Di: BUY C&W
        Ann: BID L&M 215
        Bob: BUY S&D
    """)
    assert owner(game, "L&M") == ANN, "the only bid: sold at once"
    assert game.state.round.kind == "stock" and game.state.round.number == 1
    assert game.state.order[0] == CY and game.current_actors() == [CY], "the player whose turn is next"
    assert any(isinstance(a, Par) and a.corporation == "LNWR" for a in game.legal_actions(CY))
    assert Pass() in game.legal_actions(CY)


def test_the_owners_of_s_and_d_and_l_and_m_receive_their_free_shares_on_acquiring_them() -> None:
    game = new_game()
    events = play(game, "Ann: BID L&M 215\nBob: BID S&D 165\nCy: BUY S&M\nDi: BUY TWW\nAnn: BUY C&HP\nBob: BUY C&W")
    assert game.state.percent_of(Owner.player(ANN), "LNWR") == 10
    assert game.state.percent_of(Owner.player(BOB), "NER") == 10
    assert "Bob receives a 10% share of NER" in events and "Ann receives a 10% share of LNWR" in events
    assert lorenz_state(game.state).free_shares == {"S&D": ("NER", 1), "L&M": ("LNWR", 1)}
    assert game.state.corporations["LNWR"].president is None, "a share, not the Director's certificate"


# -- shares --------------------------------------------------------------------------------


def after_the_start() -> Game:
    """SR 1 after Ann bought S&M and L&M, Bob TWW and S&D, Cy C&HP and Di C&W: Cy to act."""
    game = new_game()
    play(game, "Ann: BUY S&M\nBob: BUY TWW\nCy: BUY C&HP\nDi: BUY C&W\nAnn: BID L&M 215\nBob: BUY S&D")
    return game


def test_no_further_lnwr_shares_are_on_offer_until_every_private_is_sold() -> None:
    game = new_game()
    assert game.hooks.launch_problem(game, "LNWR") == "no further LNWR shares are on offer until every private is sold"
    assert game.hooks.launch_problem(game, "GWR") is None
    game = after_the_start()
    assert game.hooks.launch_problem(game, "LNWR") is None


def test_with_unit_1_no_further_ner_shares_until_the_gwr_has_sold_out() -> None:
    game = after_the_start()
    player = game.current_actors()[0]
    with pytest.raises(IllegalOrderError, match="no further NER shares may be bought until the GWR has sold out"):
        game.apply(player, Par("NER", 100))
    assert not any(isinstance(a, Par) and a.corporation == "NER" for a in game.legal_actions(player))
    for cert in game.state.certs_of(IPO, "GWR"):
        cert.owner = Owner.player(DI)
    assert game.hooks.launch_problem(game, "NER") is None
    assert Par("NER", 100) in game.legal_actions(player)


def test_without_unit_1_the_ner_is_on_offer() -> None:
    game = after_the_start()
    del game.state.corporations["GWR"]  # as a game of Units 2 and 3
    assert game.hooks.launch_problem(game, "NER") is None


def test_the_free_ner_share_may_not_be_sold_before_the_ners_directors_certificate_is_bought() -> None:
    game = after_the_start()
    game.state.round.number = 2  # sales are allowed
    assert game.hooks.sell_problem(game, BOB, "NER", 1) == (
        "the free NER share of S&D may not be sold before NER's Director's certificate is bought")
    game.state.round.entity_index = game.state.order.index(BOB)
    assert SellShares("NER", 1) not in game.legal_actions(BOB)
    ner = game.state.corporations["NER"]
    ner.president, ner.ipoed = DI, True
    assert game.hooks.sell_problem(game, BOB, "NER", 1) is None


def test_privates_may_never_be_sold_to_the_bank() -> None:
    game = after_the_start()
    assert isinstance(game.hooks, LorenzRules)
    assert game.hooks.private_sale_problem(game, ANN, "L&M") == "in Lorenz's variant privates may never be sold to the bank"
    plain = new_game(())
    assert isinstance(plain.hooks, LorenzRules) and plain.hooks.private_sale_problem(plain, ANN, "L&M") is None
