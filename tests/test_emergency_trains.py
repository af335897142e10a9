"""A train due that the treasury cannot pay (1830 rules 6.7): the president's money, the
cheapest train the bank sells (new or from the pool), and the title's reading of whether that
money may buy another corporation's train (``emergency_train_from_corporation``)."""

from __future__ import annotations

import pytest

from pbem.engine.actions import BuyPrivate, BuyTrain, Pass, SellShares
from pbem.engine.events import render_all
from pbem.engine.game import Game
from pbem.engine.ids import TrainId
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title
from tests.test_engine_operating import P1, P2, P3, float_corp, operating, train_due


def _due(variants: tuple[str, ...] = ()) -> Game:
    """1830, OR 2.1: PRR (P1, $20) has a route and no train; P1 has $45 and one NYC share
    ($90); NYC (P2) holds a 2-train (face value $80), the bank's cheapest train."""
    game = Game(load_title("1830", variants), [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA")):
        game.apply(player, BuyPrivate(company))
    train_due(game)
    game.state.corporations["NYC"].trains.append(game.state.depot.pop(0))
    operating(game)
    game.apply(P1, Pass())  # no track; no token
    return game


def test_the_president_may_pay_toward_another_corporations_train_up_to_its_face_value() -> None:
    game = _due()
    assert game.title.title_rule("emergency_train_from_corporation") == "face_value"
    assert BuyTrain("2", "NYC", 1) in game.legal_actions(P1)
    with pytest.raises(IllegalOrderError, match=r"from \$1 to \$65"):
        game.apply(P1, BuyTrain("2", "NYC", 66))  # more than PRR and P1 hold
    events = render_all(game.apply(P1, BuyTrain("2", "NYC", 60)), game.money)
    assert "Player 1 contributes $40" in events
    assert game.state.players[P1].cash == 5 and game.state.corporations["PRR"].cash == 0
    assert game.state.corporations["NYC"].cash == 960


def test_no_more_than_the_face_value() -> None:
    game = _due()
    game.state.players[P1].cash = 200  # now PRR and P1 could pay $220; the face value is $80
    game.state.depot = [t for t in game.state.depot if t.kind != "2"]  # the cheapest: a 3 at $180
    with pytest.raises(IllegalOrderError, match=r"from \$1 to \$80"):
        game.apply(P1, BuyTrain("2", "NYC", 81))


def test_after_a_sale_the_price_spends_the_last_share_sold() -> None:
    """P1 sells the NYC share ($90) to make up $80: PRR and P1 then hold $155; a price that
    the money held before the sale would have paid ($65 or less) makes the sale needless."""
    game = _due()
    game.apply(P1, SellShares("NYC"))
    assert BuyTrain("2", "NYC", 66) in game.legal_actions(P1)
    with pytest.raises(IllegalOrderError, match=r"from \$66 to \$80"):
        game.apply(P1, BuyTrain("2", "NYC", 65))
    game.apply(P1, BuyTrain("2", "NYC", 66))
    assert game.state.corporations["PRR"].trains and game.state.players[P1].cash == 45 + 90 - 46


def test_read_otherwise_the_presidents_money_buys_only_the_banks_train() -> None:
    game = _due(("emergency_bank_train_only",))
    assert game.title.title_rule("emergency_train_from_corporation") == "never"
    with pytest.raises(IllegalOrderError, match=r"PRR has \$20"):
        game.apply(P1, BuyTrain("2", "NYC", 21))
    game.apply(P1, SellShares("NYC"))
    assert not [a for a in game.legal_actions(P1) if isinstance(a, BuyTrain) and a.source == "NYC"]
    with pytest.raises(IllegalOrderError, match="sold shares for it"):
        game.apply(P1, BuyTrain("2", "NYC", 1))
    game.apply(P1, BuyTrain("2"))
    assert game.state.corporations["PRR"].trains


def test_1870_reads_it_as_the_banks_train_only_and_a_variant_as_1830() -> None:
    assert load_title("1870").title_rule("emergency_train_from_corporation") == "never"
    assert load_title("1870", ("emergency_train_at_face_value",)).title_rule(
        "emergency_train_from_corporation") == "face_value"


def test_a_cheaper_train_in_the_pool_is_the_one_the_presidents_money_buys() -> None:
    """The bank sells a 3 ($180) new and a 2 ($80) from the pool: P1's money may buy only the
    2, and a sale is needed only for what the 2 lacks."""
    game = _due()
    game.state.corporations["NYC"].trains.clear()
    game.state.depot = [t for t in game.state.depot if t.kind != "2"]
    game.state.pool_trains.append(TrainId("2", 5))
    game.state.players[P1].cash = 100
    with pytest.raises(IllegalOrderError, match=r"only the cheapest train \(\$80\)"):
        game.apply(P1, BuyTrain("3"))
    with pytest.raises(IllegalOrderError, match="only as many shares as needed"):
        game.apply(P1, SellShares("NYC"))  # $120 pays for the 2
    game.apply(P1, BuyTrain("2", "pool"))
    assert game.state.corporations["PRR"].trains == [TrainId("2", 5)]


def test_once_the_train_due_is_bought_another_is_bought_at_any_price_the_treasury_holds() -> None:
    """The bank sells only 3s ($180): PRR ($100) and P1 ($10) are short, so P1 sells the NYC
    share; PRR's treasury pays NYC's 2 (face value $80) alone, at $1. With a train now, a
    further one from B&O (a 3, face value $180) is PRR's own choice, at any price from $1 its treasury holds: the
    share sold sets no floor any more."""
    game = _due()
    float_corp(game, "B&O", P2, 100, 0)
    game.state.depot = [t for t in game.state.depot if t.kind != "2"]
    game.state.corporations["B&O"].trains.append(game.state.depot.pop(0))
    game.state.corporations["PRR"].cash, game.state.players[P1].cash = 100, 10
    game.apply(P1, SellShares("NYC"))
    game.apply(P1, BuyTrain("2", "NYC", 1))
    game.apply(P1, BuyTrain("3", "B&O", 1))
    assert len(game.state.corporations["PRR"].trains) == 2 and game.state.corporations["PRR"].cash == 98
