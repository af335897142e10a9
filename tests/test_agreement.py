"""The comparison part of the agreement tool (benchmarks/agree_18xx.py): our state in the
common shape, the platform's state in our names, the diff of two states and the walk that
finds the first divergence. No Ruby and no platform here: the platform's lines are built."""

from __future__ import annotations

from typing import Any

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine.actions import BuyTrain, Pass
from pbem.engine.game import Game
from pbem.engine.state import DisplacedToken
from pbem.importers.agreement import (
    Naming,
    compare_states,
    diff_states,
    naming_for,
    normalise,
    our_state,
    our_states,
)
from pbem.importers.e18xx import effective_actions, load_record
from pbem.ruleset import load_title
from tests.records import record_path
from tests.test_engine_operating import float_corp, operating

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


def state(cash: int = 600, price: int | None = 100, acting: str | None = "PRR", **extra: Any) -> dict[str, Any]:
    """A small state in the common shape: Player 1 holds 60% of PRR, which has one 2-train."""
    return {
        "players": {P1: {"cash": cash, "shares": {"PRR": 60}, "companies": ["SV"]}},
        "corporations": {"PRR": {"cash": 400, "trains": ["2"], "price": price, "president": P1}},
        "phase": "2",
        "acting": acting,
        "finished": False,
        **extra,
    }


def test_normalise_names_players_by_their_record_ids_and_sorts_what_has_no_order() -> None:
    record = {"players": [{"id": 19143, "name": P1}, {"id": 19192, "name": P2}]}
    theirs = {
        "players": {"19143": {"cash": 5, "shares": {"PRR": 20, "NYC": 0}, "companies": ["SV", "CS"]}},
        "corporations": {"Pennsy": {"cash": 7, "trains": ["3", "2"], "price": None, "president": "19143"}},
        "phase": "II", "acting": "19192", "round": "Operating", "finished": False,
    }
    naming = Naming(players=naming_for(record).players, corporations={"Pennsy": "PRR"},
                    trains={"3": "3T"}, phases={"II": "2"})
    assert normalise(theirs, naming) == {
        "players": {P1: {"cash": 5, "shares": {"PRR": 20}, "companies": ["CS", "SV"]}},
        "corporations": {"PRR": {"cash": 7, "trains": ["2", "3T"], "price": None, "president": P1}},
        "phase": "2", "acting": P2, "finished": False, "idle": False,
    }
    assert normalise({**theirs, "idle": True}, naming)["idle"] is True


def test_a_record_without_player_ids_keeps_the_names() -> None:
    assert naming_for({"players": [{"name": P1}, {"name": P2}]}).players == {}
    assert Naming().entity("PRR") == "PRR" and Naming().entity(None) is None


def test_diff_lists_every_difference_by_its_path() -> None:
    ours = state(cash=580)
    theirs = state(price=90)
    theirs["corporations"]["NYC"] = {"cash": 0, "trains": [], "price": 67}
    assert diff_states(ours, theirs) == [
        "players.Player 1.cash: ours 580, theirs 600",
        "corporations.NYC: ours missing, theirs {'cash': 0, 'trains': [], 'price': 67}",
        "corporations.PRR.price: ours 100, theirs 90",
    ]
    assert diff_states(state(round="OR 1.1"), state(round="Operating")) == [], "the round is not compared"


def test_whose_turn_is_not_compared_once_a_side_has_finished() -> None:
    assert diff_states(state(acting="PRR"), state(acting="NYC")) == ["acting: ours 'PRR', theirs 'NYC'"]
    assert diff_states(state(acting=None, finished=True), state(acting="NYC")) == []


def lines(*states: dict[str, Any]) -> list[dict[str, Any]]:
    """The platform's lines for record actions 1, 2, ... (index 0, 1, ...)."""
    return [{"index": i, "id": i + 1, "type": "pass", "state": s} for i, s in enumerate(states)]


RECORD: dict[str, Any] = {"players": [{"name": P1}], "settings": {"seed": 42},
                          "actions": [{"id": i, "type": "pass"} for i in range(1, 6)]}


def test_the_first_divergence_is_reported_with_its_action_and_later_spells_are_counted() -> None:
    ours = {str(i): state() for i in range(1, 6)}
    ours["2"] = state(cash=580)
    ours["4"] = ours["5"] = state(acting="NYC")
    result = compare_states(RECORD, "game", ours, lines(*(state() for _ in range(5))))
    assert (result.compared, result.last_agreed_id) == (1, 1)
    assert result.divergence is not None
    assert (result.divergence.index, result.divergence.action_id) == (1, 2)
    assert result.divergence.action == {"id": 2, "type": "pass"}
    assert result.divergence.differences == ("players.Player 1.cash: ours 580, theirs 600",)
    assert result.spells == ((2, 3), (4, None)) and result.differing == 3
    assert not result.agreed
    text = result.summary()
    assert "game (seed 42): agreed through 1 actions, then diverged at action index 1, id 2" in text
    assert "players.Player 1.cash: ours 580, theirs 600" in text


def test_an_action_without_a_state_of_ours_belongs_to_the_order_before_and_a_refusal_ends_the_walk() -> None:
    # action 2 was a pass of a turn our engine ended by itself: no state of ours; the
    # platform's turn after action 1 is that pass's, ours already the next one
    ours = {"1": state(acting="NYC"), "3": state()}
    theirs = lines(state(acting="B&O"), state(acting="NYC"), state())
    theirs.append({"index": 3, "id": 4, "type": "buy_train", "error": "not enough cash"})
    theirs += lines(state(), state(), state(), state(), state(cash=2))[4:]
    result = compare_states(RECORD, "game", ours, theirs)
    assert (result.compared, result.last_agreed_id, result.divergence) == (2, 3, None)
    # compared with the platform's state after action 1 alone, the turn differs
    alone = compare_states(RECORD, "game", ours, theirs[:1])
    assert alone.divergence is not None and alone.divergence.differences == ("acting: ours 'NYC', theirs 'B&O'",)
    assert result.their_error == "action 4 (buy_train): not enough cash"
    assert not result.agreed
    assert result.to_json()["their_error"] == "action 4 (buy_train): not enough cash"


def test_a_full_agreement_says_how_far() -> None:
    result = compare_states(RECORD, "game", {"1": state(), "2": state()}, lines(state(), state()))
    assert result.agreed and result.summary() == "game (seed 42): agreed through 2 actions (last id 2)"


def test_the_platforms_end_is_read_from_its_last_state_and_its_turn_cap_counts_as_its_end() -> None:
    going = compare_states(RECORD, "game", {"1": state()}, lines(state(turn=12)))
    assert going.their_end is None
    ended = compare_states(RECORD, "game", {"1": state()}, lines(state(end_reason="bank", turn=12)))
    assert ended.their_end == "bank"
    capped = lines(state(turn=100))
    capped.append({"index": 1, "id": 2, "type": "pass", "error": "No step found"})
    assert compare_states(RECORD, "game", {"1": state(), "2": state()}, capped).their_end == "dnf"


def test_our_state_of_a_new_game_and_of_an_operating_corporation() -> None:
    game = Game(load_title("1830"), [P1, P2, P3])
    start = our_state(game)
    assert start["players"][P2] == {"cash": 800, "shares": {}, "companies": []}
    assert (start["corporations"], start["phase"], start["acting"]) == ({}, "2", P1)
    float_corp(game, "PRR", P1, 100, 2000)
    game.state.corporations["PRR"].trains = [TrainId("2", 0), TrainId("2", 1)]
    operating(game)
    now = our_state(game)
    assert now["players"][P1]["shares"] == {"PRR": 60}
    assert now["corporations"] == {"PRR": {"cash": 2000, "trains": ["2", "2"], "price": 100, "president": P1}}
    assert now["acting"] == "PRR" and now["round"] == "OR 1.1"


def test_whose_turn_is_the_corporation_over_the_train_limit_while_it_discards() -> None:
    game = Game(load_title("1830"), [P1, P2, P3])
    float_corp(game, "PRR", P1, 100, 2000)
    float_corp(game, "NYC", P2, 90, 900)
    game.state.corporations["NYC"].trains = [TrainId("3", 0), TrainId("3", 1), TrainId("3", 2), TrainId("3", 3)]
    game.state.depot = [t for t in game.state.depot if t.kind[0] not in "23"]
    game.state.phase = "3"
    game.state.types_sold += ["2", "3"]
    operating(game)
    game.apply(P1, Pass())
    game.apply(P1, BuyTrain("4"))
    assert game.operating_corporation() == "PRR"
    assert our_state(game)["acting"] == "NYC"
    assert game.waiting_for() == "Player 2 for NYC: discard a train over the limit (DISCARD)"


def test_whose_turn_is_the_owner_of_a_token_waiting_for_its_city() -> None:
    game = Game(load_title("1830"), [P1, P2, P3])
    float_corp(game, "PRR", P1, 100, 2000)
    float_corp(game, "ERIE", P2, 90, 900)
    operating(game)
    game.state.tokens.pop(CityRef("E11", 0), None)
    game.state.pending_tokens = [DisplacedToken("ERIE", "E11")]
    assert game.operating_corporation() == "PRR"
    assert our_state(game)["acting"] == "ERIE"
    assert game.waiting_for().startswith("Player 2 for ERIE: choose the city")


def test_our_states_keep_one_state_per_record_action_in_force() -> None:
    record = load_record(record_path("1870", "34110.json"))
    states, outcome = our_states(record)
    assert outcome.error is None and outcome.finished
    in_force = {str(a["id"]).split(".")[0]: a["type"] for a in effective_actions(record)}
    assert set(states) <= set(in_force) | {"0"}
    # a record action that becomes no order of ours has no state: a setting of the site, and
    # MP's pass of the bridge company it could not buy in phase 1 (record 59), which the
    # platform asks for and our turn does not wait for
    main = {str(a["id"]): a for a in effective_actions(record) if "." not in str(a["id"])}
    missing = {i: main[i] for i in set(main) - set(states)}
    assert {a["type"] for a in missing.values()} == {"program_buy_shares", "pass"}
    assert [(a["entity"], i) for i, a in missing.items() if a["type"] == "pass"] == [("MP", "59")]
    assert states["0"]["players"]["Player 1"]["cash"] == 1050 and states["0"]["corporations"] == {}
    final = states[str(record["actions"][-1]["id"])]
    assert final["finished"] and final["acting"] is None
    assert sum(p["cash"] for p in final["players"].values()) < sum(outcome.result.values())


def test_a_price_protection_in_an_operating_round_is_the_protectors_turn() -> None:
    """1870: once GMO has bought its train, MP's president B decides on the protection of the
    MP shares A sold: the one to act is B (as the platform names it), not MP or GMO."""
    from pbem.engine.actions import BuyTrain, Pass, SellShares
    from pbem.importers.agreement import acting_entity
    from tests.test_engine_1870 import or_sale_game

    g = or_sale_game()
    g.apply("A", Pass())
    g.apply("A", SellShares("MP", 2))
    g.apply("A", BuyTrain("2"))
    assert acting_entity(g) == "B"
