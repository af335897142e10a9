"""Importer faults found replaying real 1870 games (issue 11): who sells a redeemed share and
who sells a named train."""

from __future__ import annotations

from typing import Any

from pbem.engine import treasury
from pbem.engine.actions import BuyTrain, Redeem
from pbem.engine.state import POOL
from pbem.importers.e18xx import Renderer, effective_actions, load_record
from tests.records import record_path, replayed_before


def _seat_ids(renderer: Renderer) -> dict[str, Any]:
    return {name: key for key, name in renderer.names.items()}


def _pass(ids: dict[str, Any], seat: str) -> dict[str, Any]:
    return {"type": "pass", "entity": ids[seat], "entity_type": "player", "id": 0}


def _buy(ids: dict[str, Any], seat: str, share: str) -> dict[str, Any]:
    return {"type": "buy_shares", "entity": ids[seat], "entity_type": "player", "shares": [share],
            "percent": 10, "id": 0}


def _redeem(share: str) -> dict[str, Any]:
    corp = share.rsplit("_", 1)[0]
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
    cert = next(c for c in state.certificates if c.corporation == "MKT" and c.owner == "Player 1")
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
    sources = treasury.redeem_sources(renderer.game, state.round.stock, "Player 1", "SLSF")  # type: ignore[arg-type]
    assert {"Player 1", "Player 3"} <= set(sources)  # the seller is not forced: the record decides
    cash = state.players["Player 3"].cash
    action = _redeem("SLSF_4")
    ours = renderer.render(action)
    assert ours == Redeem("SLSF", "Player 3")
    renderer.game.apply(renderer.seat(action), ours)
    assert state.players["Player 3"].cash > cash


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
    assert "2-1" in state.corporations["MP"].trains  # our engine's "2-1" is another train
    cash = state.corporations["MKT"].cash
    ours = renderer.render(purchase)
    assert ours == BuyTrain("2", "MKT", 400)
    renderer.game.apply(renderer.seat(purchase), ours)
    assert state.corporations["MKT"].cash == cash + 400
