"""``GameState.copy`` is a structural copy (no pickle per action, issue 11 "copy state
cheaply"): it must share no mutable part with the original, for every field of every state
class, the title's own state included, and must equal the original."""

from __future__ import annotations

import dataclasses
from typing import Iterator

from pbem.engine.game import Game
from pbem.engine.state import GameState, ShareSale
from pbem.engine.values import DisplacedToken, PrivateToken
from pbem.ruleset import load_title
from pbem.titles.g1870.state import State1870, state1870
from tests.records import replayed_before

IMMUTABLE = (str, int, float, bool, type(None), tuple, frozenset)


def mutable_parts(obj: object, path: str = "state") -> Iterator[tuple[int, str]]:
    """``(id, path)`` of every mutable object reachable from ``obj`` (dataclasses that are not
    frozen, lists, dicts, sets), ``obj`` included."""
    if isinstance(obj, IMMUTABLE):
        if isinstance(obj, tuple):
            for i, item in enumerate(obj):
                yield from mutable_parts(item, f"{path}[{i}]")
        return
    if dataclasses.is_dataclass(obj):
        if not type(obj).__dataclass_params__.frozen:  # type: ignore[attr-defined]
            yield id(obj), path
        parts = vars(obj) if hasattr(obj, "__dict__") else {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
        for name, value in parts.items():  # (a slotted value such as a TrainId has no __dict__)
            yield from mutable_parts(value, f"{path}.{name}")
        return
    assert isinstance(obj, (list, dict, set)), f"{path}: unexpected {type(obj).__name__} in the state"
    yield id(obj), path
    items = obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list) else []
    for key, value in items:
        yield from mutable_parts(value, f"{path}[{key!r}]")


def filled(state: GameState) -> GameState:
    """``state`` with every container of the state classes non-empty, so a field the copy
    forgets shows up as shared."""
    for name, value in vars(state).items():
        if isinstance(value, list) and not value and name != "certificates":
            value.append(DisplacedToken("x", "y") if name == "pending_tokens" else "x")
        elif isinstance(value, dict) and not value:
            value["x"] = PrivateToken("A1", "X", "token") if name == "assignments" else ["x"] if name in ("tokens", "market") else ("1", 0)
    return state


def assert_independent(state: GameState) -> None:
    twin = state.copy()
    assert twin == state
    shared = {i for i, _ in mutable_parts(state)} & {i for i, _ in mutable_parts(twin)}
    paths = [p for i, p in mutable_parts(twin) if i in shared]
    assert not paths, f"shared with the original: {paths[:5]}"


def test_the_copy_of_an_1870_game_in_an_operating_round_shares_nothing_mutable() -> None:
    game = replayed_before("1870", "price_protect_allowed_40469.json", 400).game
    mine = state1870(game.state)
    mine.redeemed.add(("MP", 7))
    mine.reissued.add("GMO")
    mine.redeem_cash["MP"] = 10
    mine.sell_queue.append(ShareSale("MP", 1, "A", "B", 50))
    assert game.state.round.operating is not None
    assert_independent(filled(game.state))


def test_the_copy_in_the_auction_and_the_stock_round_shares_nothing_mutable() -> None:
    game = Game(load_title("1870"), ["A", "B", "C"])
    assert game.state.round.auction is not None
    game.state.round.auction.bids["SCC"] = [("A", 25)]
    game.state.round.auction.bidders["SCC"] = ["A"]
    assert_independent(filled(game.state))
    stock = replayed_before("1830", "26855.json", 40).game
    assert stock.state.round.stock is not None, "in the first stock round"
    stock.state.round.stock.sold["x"] = ["PRR"]
    assert_independent(filled(stock.state))


def test_a_title_state_without_its_own_copy_is_deep_copied() -> None:
    game = Game(load_title("1830"), ["A", "B", "C"])
    assert type(game.state.title_state).copy is not State1870.copy
    assert_independent(game.state)
