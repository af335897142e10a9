"""Importer faults found replaying real 1870 games (issue 11): who sells a redeemed share,
who sells a named train, and records whose taken-back actions our engine refuses."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.engine.actions import BuyTrain, RunRoutes
from pbem.engine.ids import ShareId, TrainId
from pbem.titles.g1870.actions import Redeem
from pbem.engine.state import POOL
from pbem.engine.values import Owner
from pbem.importers.e18xx import Renderer, UnsupportedRecordAction, effective_actions, load_record
from pbem.importers.log_import import import_record
from pbem.orders import Vocabulary, format_order, parse_order
from tests.records import record_path, replayed_before


def _seat_ids(renderer: Renderer) -> dict[str, Any]:
    return {name: key for key, name in renderer.names.items()}


def _pass(ids: dict[str, Any], seat: str) -> dict[str, Any]:
    return {"type": "pass", "entity": ids[seat], "entity_type": "player", "id": 0}


def _buy(ids: dict[str, Any], seat: str, share: str) -> dict[str, Any]:
    return {"type": "buy_shares", "entity": ids[seat], "entity_type": "player", "shares": [share],
            "percent": 10, "id": 0}


def _redeem(share: str) -> dict[str, Any]:
    corp = ShareId.parse(share).corporation
    return {"type": "buy_shares", "entity": corp, "entity_type": "corporation", "shares": [share],
            "percent": 10, "id": 0}


def _play(renderer: Renderer, actions: list[dict[str, Any]]) -> None:
    for action in actions:
        ours = renderer.render(action)
        assert ours is not None
        renderer.game.apply(renderer.seat(action), ours)


# -- fault 3: a redemption takes the pool's share first, and follows presidency swaps --------


def test_a_redemption_takes_the_pools_share_whatever_the_named_shares_last_buyer() -> None:
    # 1870_game_end_bank, stock round 2: MKT (president Player 2) redeems MKT_3, last bought
    # by Player 2. Built position: a share of Player 1's lies in the bank pool (as a presidency
    # swap into the pool leaves it, with no record action), so the pool's share must go.
    renderer = replayed_before("1870", "1870_game_end_bank.json", 184)
    state = renderer.game.state
    cert = next(c for c in state.certificates if c.corporation == "MKT" and c.owner == Owner.player("Player 1"))
    cert.owner = POOL
    treasury_before = state.corporations["MKT"].cash
    action = _redeem("MKT_3")
    ours = renderer.render(action)
    assert ours == Redeem("MKT", "pool")
    renderer.game.apply(renderer.seat(action), ours)
    assert not any(c.corporation == "MKT" and c.owner == POOL for c in state.certificates)
    assert state.corporations["MKT"].cash < treasury_before


def test_a_redeemed_share_is_taken_from_its_holder_after_a_presidency_swap() -> None:
    # 1870_game_end_bank before action 399 (stock round 4): Player 3 presides SLSF with 40%,
    # Player 1 holds SLSF_4. Player 1 buys the four shares left in the offering and, at 50%,
    # becomes president: the platform has Player 1 hand over the two shares received first,
    # SLSF_4 and SLSF_5, to Player 3 (no record action says so). When SLSF redeems SLSF_4,
    # whose last buyer is Player 1, the platform takes it from Player 3.
    renderer = replayed_before("1870", "1870_game_end_bank.json", 399)
    ids = _seat_ids(renderer)
    script = [_pass(ids, "Player 4")]
    for share in ("SLSF_5", "SLSF_6", "SLSF_7", "SLSF_8"):
        script += [_buy(ids, "Player 1", share), _pass(ids, "Player 1"), _pass(ids, "Player 2"),
                   _pass(ids, "Player 3"), _pass(ids, "Player 4")]
    _play(renderer, script)
    state = renderer.game.state
    assert state.corporations["SLSF"].president == "Player 1"
    sources = {a.source for a in renderer.game.legal_actions("Player 1")
               if isinstance(a, Redeem) and a.corporation == "SLSF"}
    assert {"Player 1", "Player 3"} <= sources  # the seller is not forced: the record decides
    cash = state.players["Player 3"].cash
    action = _redeem("SLSF_4")
    ours = renderer.render(action)
    assert ours == Redeem("SLSF", "Player 3")
    renderer.game.apply(renderer.seat(action), ours)
    assert state.players["Player 3"].cash > cash


def test_a_redemption_of_a_share_no_player_holds_is_not_guessed() -> None:
    # 1870_game_end_bank before action 184: MKT_8 is still in MKT's offering, the pool has no
    # MKT share, and MKT may redeem from three players: the importer names them, not one.
    renderer = replayed_before("1870", "1870_game_end_bank.json", 184)
    with pytest.raises(UnsupportedRecordAction, match=r"cannot tell who holds MKT_8 .*Player 1, Player 2, Player 3"):
        renderer.render(_redeem("MKT_8"))


# -- fault 4: a train bought from another corporation comes from the record's holder ---------


def test_a_named_train_is_bought_from_the_corporation_the_record_shows_holding_it() -> None:
    # 1870_game_end_bank with two 2-trains' ids exchanged throughout ("2-1" <-> "2-3"): the
    # platform's ids then differ from the ones our depot hands out (MP gets our "2-1", MKT our
    # "2-3"), as they may in any record. Action 476, FW buying "2-1" for $400, must be from
    # MKT, which the record shows buying "2-1" (action 177), not from MP holding our "2-1".
    record = load_record(record_path("1870", "1870_game_end_bank.json"))
    swap = {"2-1": "2-3", "2-3": "2-1"}
    record["actions"] = [{**a, "train": swap.get(a["train"], a["train"])} if "train" in a else a
                         for a in record["actions"]]
    renderer = Renderer(record)
    purchase = None
    for action in effective_actions(record):
        if action["id"] == 476:
            purchase = action
            break
        ours = renderer.render(action)
        if ours is not None:
            renderer.game.apply(renderer.seat(action), ours)
    assert purchase is not None and purchase["train"] == "2-1"
    state = renderer.game.state
    assert TrainId("2", 1) in state.corporations["MP"].trains  # our engine's "2-1" is another train
    cash = state.corporations["MKT"].cash
    ours = renderer.render(purchase)
    assert ours == BuyTrain("2", "MKT", 400)
    renderer.game.apply(renderer.seat(purchase), ours)
    assert state.corporations["MKT"].cash == cash + 400


def test_a_named_train_that_left_its_corporation_unrecorded_is_bought_from_the_pool() -> None:
    # 26855 before action 164 (B&O buying a train): the record shows PRR holding "3-2".
    # Built position: PRR's trains lie in the bank pool, as a corporation's closing leaves them
    # with no record action, and the pool's 3-train has another of our ids than the record's
    # (our engine's "3-2" is now one in the depot: the ids of alike trains are our own).
    renderer = replayed_before("1830", "26855.json", 164)
    state = renderer.game.state
    prr = state.corporations["PRR"]
    assert renderer.holdings.trains[TrainId("3", 2)] == "PRR" and TrainId("3", 4) in state.depot
    state.pool_trains.extend(TrainId("3", 4) if t == TrainId("3", 2) else t for t in prr.trains)
    state.depot[state.depot.index(TrainId("3", 4))] = TrainId("3", 2)
    prr.trains = []
    purchase = {"type": "buy_train", "entity": "B&O", "entity_type": "corporation", "train": "3-2",
                "price": 180, "id": 0}
    ours = renderer.render(purchase)
    assert ours == BuyTrain("3", "pool")
    renderer.game.apply(renderer.seat(purchase), ours)
    assert TrainId("3", 4) not in state.pool_trains and TrainId("3", 2) in state.depot


# -- fault 7: records whose taken-back actions our engine refuses, and running no train ------


def test_running_no_train_has_an_order_line_that_reads_back() -> None:
    # price_protect_allowed_40469 action 841 (taken back) runs no train: routes [].
    vocab = Vocabulary.from_title(replayed_before("1830", "1830_game_end_bank.json", 1).title)
    line = format_order(RunRoutes(()), vocab)
    assert line == "RUN NONE"
    assert parse_order(line, vocab) == RunRoutes(())
    assert parse_order("run none", vocab) == RunRoutes(())


def test_running_no_train_earns_nothing() -> None:
    # 1830_game_end_bank action 44 is the first run of the game; running no train instead.
    renderer = replayed_before("1830", "1830_game_end_bank.json", 44)
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    action = next(a for a in record["actions"] if a["id"] == 44)
    seat = renderer.seat(action)
    game = renderer.game
    renderer.game.apply(seat, parse_order("RUN NONE", Vocabulary.from_title(renderer.title)))
    assert game.last_run == []
    assert game.state.round.operating is not None and game.state.round.operating.revenue == 0


def _opening_with(inserted: list[dict[str, Any]]) -> dict[str, Any]:
    """The first nine actions of 1830_game_end_bank with ``inserted`` after the second,
    renumbered 1, 2, ..."""
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    actions = record["actions"][:2] + inserted + record["actions"][2:9]
    return {**record, "actions": [{**a, "id": i} for i, a in enumerate(actions, start=1)]}


def test_an_action_the_record_takes_back_and_our_engine_refuses_is_left_out() -> None:
    # Player 3 bids $171 on C&A after Player 2's $170 (below the minimum raise), then undoes
    # it: the replay never applies it, so the import leaves it out and goes on.
    refused = {"type": "bid", "entity": 15688, "entity_type": "player", "company": "CA", "price": 171}
    record = _opening_with([refused, {"type": "undo", "entity": 15688, "entity_type": "player"}])
    imported = import_record(record)
    assert len(imported.left_out) == 1 and imported.left_out[0].startswith("3: ")
    assert imported.undos == 0  # nothing of it was logged, so there is nothing to undo
    plain = Renderer(record)
    for action in effective_actions(record):
        plain.game.apply(plain.seat(action), plain.render(action))  # type: ignore[arg-type]
    assert imported.renderer.game.state == plain.game.state
    assert imported.applied == len(effective_actions(record))


def test_an_action_in_force_that_our_engine_refuses_stops_the_import() -> None:
    refused = {"type": "bid", "entity": 15688, "entity_type": "player", "company": "CA", "price": 171}
    with pytest.raises(UnsupportedRecordAction, match=r"action 3: BID CA 171 by Player 3 refused"):
        import_record(_opening_with([refused]))


def test_an_unreadable_order_line_is_reported_with_its_action_not_as_a_traceback(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.importers import log_import

    monkeypatch.setattr(log_import, "format_order", lambda action, vocab=None: "RUN ")
    with pytest.raises(UnsupportedRecordAction, match=r"action 1: 'RUN ' does not read back"):
        import_record(_opening_with([]))

