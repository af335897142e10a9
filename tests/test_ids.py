"""Train ids and the record's share ids as values (:mod:`pbem.engine.ids`): ``str()`` gives
the text they had as strings, ``parse`` reads it back and refuses anything else, and they sort
as that text did."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.engine import trains
from pbem.engine.ids import ShareId, TrainId
from pbem.ruleset import load_title

kinds = st.sampled_from(["2", "3", "12", "D", "2+2", "4+4E", "3T", "U3", "x-y"])
numbers = st.integers(min_value=0, max_value=30)
symbols = st.sampled_from(["PRR", "B&O", "NYC", "M&GN", "LNWR", "A_B"])


@pytest.mark.parametrize(("text", "kind", "number"), [
    ("3-1", "3", 1), ("D-0", "D", 0), ("2+2-0", "2+2", 0), ("4+4E-1", "4+4E", 1), ("U3-12", "U3", 12),
    ("x-y-3", "x-y", 3),  # a type name with a '-': the number follows the last one
])
def test_a_train_id_reads_and_shows_as_its_text(text: str, kind: str, number: int) -> None:
    train = TrainId.parse(text)
    assert (train.kind, train.number) == (kind, number)
    assert train == TrainId(kind, number) and str(train) == text and f"{train}" == text
    assert {train: 1}[TrainId(kind, number)] == 1


@pytest.mark.parametrize("text", ["3", "", "-1", "3-", "3-a", "3-+1", "3-1.0", "3- 1", "3-\u0661"])
def test_a_train_id_refuses_text_that_is_none(text: str) -> None:
    with pytest.raises(ValueError, match="is no train id"):
        TrainId.parse(text)


def test_a_train_id_refuses_an_empty_type_or_a_negative_number() -> None:
    with pytest.raises(ValueError):
        TrainId("", 0)
    with pytest.raises(ValueError):
        TrainId("3", -1)


@given(kinds, numbers)
def test_train_ids_round_trip(kind: str, number: int) -> None:
    train = TrainId(kind, number)
    assert TrainId.parse(str(train)) == train


@given(st.lists(st.tuples(kinds, numbers), min_size=2, max_size=8))
def test_train_ids_sort_as_their_text_did(pairs: list[tuple[str, int]]) -> None:
    """The route search breaks ties by train id: ``"2+2-0"`` before ``"2-0"``, ``"3-10"``
    before ``"3-2"``, as the strings sorted (not as the type and number would)."""
    ids = [TrainId(k, n) for k, n in pairs]
    assert [str(t) for t in sorted(ids)] == sorted(str(t) for t in ids)
    assert sorted([TrainId("3", 2), TrainId("3", 10), TrainId("2", 0), TrainId("2+2", 0)]) == [
        TrainId("2+2", 0), TrainId("2", 0), TrainId("3", 10), TrainId("3", 2)]


def test_a_train_id_is_no_text_and_is_not_written_as_json_by_mistake() -> None:
    train = TrainId("3", 1)
    assert train != "3-1"  # type: ignore[comparison-overlap]
    with pytest.raises(TypeError):
        json.dumps({"train": train})
    assert pickle.loads(pickle.dumps(train)) == train and copy.deepcopy(train) == train


def test_the_depot_holds_train_ids_named_as_the_platform_names_them() -> None:
    depot = trains.new_depot(load_title("1830"))
    assert [str(t) for t in depot[:3]] == ["2-0", "2-1", "2-2"] and str(depot[-1]) == "D-0"
    assert trains.train_data(load_title("1830"), depot[-1]).name == "D"


@pytest.mark.parametrize(("text", "corporation", "index"), [
    ("PRR_1", "PRR", 1), ("B&O_0", "B&O", 0), ("M&GN_12", "M&GN", 12), ("A_B_3", "A_B", 3),
])
def test_a_share_id_reads_and_shows_as_its_text(text: str, corporation: str, index: int) -> None:
    share = ShareId.parse(text)
    assert (share.corporation, share.index) == (corporation, index)
    assert share == ShareId(corporation, index) and str(share) == text
    assert share in {ShareId(corporation, index)}


@pytest.mark.parametrize("text", ["PRR", "", "_1", "PRR_", "PRR_x", "PRR_-1", "PRR-1", "PRR_1 "])
def test_a_share_id_refuses_text_that_is_none(text: str) -> None:
    with pytest.raises(ValueError, match="is no share id"):
        ShareId.parse(text)


def test_a_share_id_refuses_an_empty_symbol_or_a_negative_index() -> None:
    with pytest.raises(ValueError):
        ShareId("", 0)
    with pytest.raises(ValueError):
        ShareId("PRR", -1)


@given(symbols, numbers)
def test_share_ids_round_trip(corporation: str, index: int) -> None:
    share = ShareId(corporation, index)
    assert ShareId.parse(str(share)) == share
    assert pickle.loads(pickle.dumps(share)) == share


def test_a_private_names_the_share_it_carries_as_a_share_id() -> None:
    from pbem.engine.abilities import Shares

    ability = load_title("1830").company("CA").ability(Shares)
    assert ability is not None and ability.share_id == ShareId("PRR", 1)
    assert (ability.corporation, ability.index) == ("PRR", 1)
