"""The 1830 private auction (rules 4.2 as 18xx.games plays it): purchases, bids, the auction
of a private among its bidders, passes, the falling SV price, and the B&O par."""

from __future__ import annotations

import pytest

from pbem.engine.actions import Bid, BuyPrivate, Par, Pass
from pbem.engine.game import Game
from pbem.engine.values import Owner
from pbem.engine.events import render_all
from pbem.ruleset import load_title
from pbem.errors import IllegalOrderError

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


@pytest.fixture
def game() -> Game:
    return Game(load_title("1830"), [P1, P2, P3])


def cash(game: Game, player: str) -> int:
    return game.state.players[player].cash


def test_starting_cash_and_bank(game: Game) -> None:
    assert [cash(game, p) for p in (P1, P2, P3)] == [800, 800, 800]
    assert game.state.bank == 12000 - 3 * 800
    assert game.current_actors() == [P1]


def test_buy_the_cheapest_private_at_face_value(game: Game) -> None:
    events = render_all(game.apply(P1, BuyPrivate("SV")), game.money)
    assert events == ["Player 1 buys SV for $20"]
    assert cash(game, P1) == 780
    assert game.state.companies["SV"].owner == Owner.player(P1)
    assert game.current_actors() == [P2]


def test_only_the_cheapest_may_be_bought_outright(game: Game) -> None:
    before = game.state.copy()
    with pytest.raises(IllegalOrderError, match="only the cheapest private"):
        game.apply(P1, BuyPrivate("CS"))
    assert game.state == before


def test_minimum_bids_rise_by_five(game: Game) -> None:
    with pytest.raises(IllegalOrderError, match=r"minimum bid for CA is \$165"):
        game.apply(P1, Bid("CA", 160))
    game.apply(P1, Bid("CA", 165))
    with pytest.raises(IllegalOrderError, match=r"minimum bid for CA is \$170"):
        game.apply(P2, Bid("CA", 165))
    game.apply(P2, Bid("CA", 170))
    assert game.state.round.auction.bids["CA"] == [(P1, 165), (P2, 170)]
    assert cash(game, P1) == 800, "a bid is not paid until the private is won"


def test_bids_commit_money(game: Game) -> None:
    game.apply(P1, Bid("BO", 700))
    game.apply(P2, Pass())
    game.apply(P3, Pass())
    with pytest.raises(IllegalOrderError, match=r"at most \$100"):
        game.apply(P1, Bid("CA", 165))


def test_not_your_turn(game: Game) -> None:
    with pytest.raises(IllegalOrderError, match="not Player 2's turn"):
        game.apply(P2, Pass())


def test_single_bidder_gets_the_private_when_it_becomes_cheapest(game: Game) -> None:
    game.apply(P1, Bid("CS", 45))
    game.apply(P2, BuyPrivate("SV"))
    assert game.state.companies["CS"].owner == Owner.player(P1)
    assert cash(game, P1) == 755
    assert game.current_actors() == [P3], "the turn goes on after the buyer"


def test_auction_among_bidders_lowest_bidder_acts_first(game: Game) -> None:
    game.apply(P1, Bid("CS", 45))
    game.apply(P2, Bid("CS", 50))
    events = render_all(game.apply(P3, BuyPrivate("SV")), game.money)
    assert "CS goes up for auction" in events
    assert game.current_actors() == [P1]
    game.apply(P1, Bid("CS", 55))
    assert game.current_actors() == [P2]
    events = render_all(game.apply(P2, Pass()), game.money)
    assert "Player 1 wins the auction for CS with a bid of $55" in events
    assert cash(game, P1) == 745 and cash(game, P2) == 800
    assert game.current_actors() == [P1], "normal turns resume where they were"


def test_all_pass_drops_the_sv_price_until_someone_must_take_it(game: Game) -> None:
    for _ in range(4):
        for p in (P1, P2, P3):
            game.apply(p, Pass())
    assert game.state.companies["SV"].discount == 20
    assert game.state.companies["SV"].owner == Owner.player(P1), "at $0 the next player must take SV"
    assert cash(game, P1) == 800
    assert game.current_actors() == [P2]


def test_all_pass_after_sv_is_sold_pays_private_revenue(game: Game) -> None:
    game.apply(P1, BuyPrivate("SV"))
    game.apply(P2, Pass())
    game.apply(P3, Pass())
    events = render_all(game.apply(P1, Pass()), game.money)
    assert "Player 1 collects $5 from SV" in events
    assert cash(game, P1) == 785


def test_ca_gives_a_prr_share_and_bo_waits_for_the_b_and_o_par(game: Game) -> None:
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA")):
        game.apply(player, BuyPrivate(company))
    assert game.state.percent_of(Owner.player(P2), "PRR") == 10
    game.apply(P3, BuyPrivate("BO"))
    assert game.current_actors() == [P3]
    with pytest.raises(IllegalOrderError, match="must first set the par price of B&O"):
        game.apply(P3, Par("PRR", 100))
    with pytest.raises(IllegalOrderError, match="not a par value"):
        game.apply(P3, Par("B&O", 80))
    events = render_all(game.apply(P3, Par("B&O", 90)), game.money)
    assert game.state.corporations["B&O"].president == P3
    assert game.state.percent_of(Owner.player(P3), "B&O") == 20
    assert cash(game, P3) == 800 - 70 - 220, "the B&O president's certificate comes free"
    assert "-- SR 1 --" in events
    assert game.state.order[0] == P1, "priority: the player after the last buyer"
    assert game.current_actors() == [P1]
