"""Importer faults of issue 19, on built positions and synthetic records: a private sold to
the bank (``sell_company``), and passes the platform records for a player or a corporation
whose turn our engine has already ended by itself."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine.values import CityRef
from pbem.engine.actions import Action, BuyTrain, Pass
from pbem.engine.state import OperatingState, RoundState, StockRoundState
from pbem.engine.values import Owner
from pbem.importers.e18xx import Renderer, UnsupportedRecordAction
from pbem.orders import Vocabulary, format_order, parse_order
from pbem.titles.g1825.stock import SellPrivate
from tests.test_1825_stock import all_privates_sold, stock_round


def _record(title: str, names: list[str], options: list[str] | None = None) -> dict[str, Any]:
    return {"title": title, "players": [{"id": n, "name": name} for n, name in enumerate(names, start=1)],
            "settings": {"optional_rules": options or []}, "actions": []}


def _pass(entity: object, kind: str = "player") -> dict[str, Any]:
    return {"type": "pass", "entity": entity, "entity_type": kind, "id": 0}


def _step(renderer: Renderer, action: dict[str, Any]) -> Action | None:
    """Render one record action and apply what comes of it, as the importer does."""
    ours = renderer.render(action)
    if ours is not None:
        renderer.game.apply(renderer.seat(action), ours)
    return ours


# -- a private sold to the bank ----------------------------------------------------------------


def test_an_1825_private_sold_to_the_bank_is_sell_private_and_applies() -> None:
    renderer = Renderer(_record("1825", ["Player 1", "Player 2"], ["unit_1", "r1"]))
    game = renderer.game
    all_privates_sold(game)
    stock_round(game, 2)
    cash = game.state.players["Player 1"].cash
    action = {"type": "sell_company", "entity": 1, "entity_type": "player", "company": "C&W",
              "price": 100, "id": 40}
    ours = renderer.render(action)
    assert ours == SellPrivate("C&W")
    vocab = Vocabulary.from_title(renderer.title)
    line = format_order(ours, vocab)
    assert line == "SELL C&W"
    assert parse_order(line, vocab) == ours
    game.apply(renderer.seat(action), parse_order(line, vocab))
    assert game.state.players["Player 1"].cash == cash + 100
    assert game.state.companies["C&W"].owner is None


def test_a_private_sold_at_another_price_than_the_rules_is_refused_by_name() -> None:
    renderer = Renderer(_record("1825", ["Player 1", "Player 2"], ["unit_1", "r1"]))
    all_privates_sold(renderer.game)
    stock_round(renderer.game, 2)
    action = {"type": "sell_company", "entity": 1, "entity_type": "player", "company": "C&W",
              "price": 130, "id": 41}
    with pytest.raises(UnsupportedRecordAction, match=r"action 41: C&W sold to the bank for 130; the rules pay 100"):
        renderer.render(action)


def test_a_title_without_sales_of_privates_to_the_bank_says_so() -> None:
    renderer = Renderer(_record("1830", ["A", "B", "C"]))
    action = {"type": "sell_company", "entity": 1, "entity_type": "player", "company": "SV",
              "price": 20, "id": 9}
    with pytest.raises(UnsupportedRecordAction, match="action 9: 1830 has no sale of a private company to the bank"):
        renderer.render(action)


# -- passes for turns our engine has already ended ----------------------------------------------


def _stock_round_where_b_can_do_nothing(first: str = "A") -> Renderer:
    """1830 stock round 1, players A, B, C, ``first`` to act; B has no money and no shares,
    so our engine passes B by itself."""
    renderer = Renderer(_record("1830", ["A", "B", "C"]))
    state = renderer.game.state
    state.round = RoundState(kind="stock", number=1, stock=StockRoundState())
    state.round.entity_index = state.order.index(first)
    state.players["B"].cash = 0
    return renderer


def test_a_pass_for_a_player_our_engine_passed_is_no_order_and_the_replay_goes_on() -> None:
    renderer = _stock_round_where_b_can_do_nothing()
    game = renderer.game
    assert _step(renderer, _pass(1)) == Pass()  # A's pass: expected, applied
    assert game.current_actors() == ["C"] and game.state.players["B"].passed
    assert _step(renderer, _pass(2)) is None  # B can afford nothing: our engine passed B
    assert game.current_actors() == ["C"]
    assert _step(renderer, _pass(3)) == Pass()  # C's pass is still applied: all passed
    assert game.round_label() == "SR 2"


def test_a_pass_for_a_player_whose_pass_ended_the_round_is_no_order() -> None:
    # C and A pass; our engine passes B by itself, which ends the round: the platform's pass
    # for B comes after, in our next round, where C (after B) is to act.
    renderer = _stock_round_where_b_can_do_nothing(first="C")
    game = renderer.game
    assert _step(renderer, _pass(3)) == Pass()
    assert _step(renderer, _pass(1)) == Pass()
    assert game.round_label() == "SR 2" and game.current_actors() == ["C"]
    assert _step(renderer, _pass(2)) is None
    assert game.round_label() == "SR 2" and game.current_actors() == ["C"]
    assert _step(renderer, _pass(3)) == Pass()  # C's pass in SR 2 is expected and applied
    assert game.current_actors() == ["A"]


def test_a_pass_for_a_player_before_their_turn_is_still_an_order() -> None:
    # B has money: nothing has passed B, so a pass out of turn stays PASS and is refused.
    renderer = _stock_round_where_b_can_do_nothing()
    renderer.game.state.players["B"].cash = 600
    assert renderer.render(_pass(2)) == Pass()


def _operating_round_of_one_president() -> Renderer:
    """1830 OR 1.1: PRR then B&O, both presided by A; PRR has exactly one 2-train's price."""
    renderer = Renderer(_record("1830", ["A", "B", "C"]))
    state = renderer.game.state
    for sym, cash, home in (("PRR", 80, "H12.0"), ("B&O", 300, "I15.0")):
        corp = state.corporations[sym]
        corp.cash, corp.floated, corp.ipoed, corp.president = cash, True, True, "A"
        corp.par = corp.price = (0, 6)
        state.tokens[CityRef.parse(home)] = [sym]
        for cert in state.certificates:
            if cert.corporation == sym and cert.president:
                cert.owner = Owner.player("A")
    state.market[(0, 6)] = ["PRR", "B&O"]
    state.round = RoundState(kind="operating", or_number=1,
                             operating=OperatingState(order=["PRR", "B&O"]))
    return renderer


def test_a_pass_for_a_corporation_whose_turn_our_engine_ended_is_no_order() -> None:
    renderer = _operating_round_of_one_president()
    game = renderer.game
    buy = {"type": "buy_train", "entity": "PRR", "entity_type": "corporation", "train": "2-0",
           "price": 80, "id": 0}
    assert _step(renderer, buy) == BuyTrain("2", "depot")
    assert game.operating_corporation() == "B&O"  # PRR can buy nothing more: its turn ended
    lays_before = game.state.round.operating
    assert lays_before is not None and lays_before.passed_steps == []
    # the platform asks PRR again (another corporation's train at 1) and PRR passes: no order,
    # and above all not a pass of B&O's track, though A presides both
    assert _step(renderer, _pass("PRR", "corporation")) is None
    assert game.operating_corporation() == "B&O"
    op = game.state.round.operating
    assert op is not None and op.passed_steps == []
    # B&O's own pass is expected and applied
    assert _step(renderer, _pass("B&O", "corporation")) == Pass()
    op = game.state.round.operating
    assert op is not None and op.passed_steps != []


def test_a_pass_for_the_corporation_operating_is_applied() -> None:
    renderer = _operating_round_of_one_president()
    assert _step(renderer, _pass("PRR", "corporation")) == Pass()
    op = renderer.game.state.round.operating
    assert op is not None and op.passed_steps != [] and renderer.game.operating_corporation() == "PRR"
