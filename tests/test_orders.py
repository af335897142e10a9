"""The order language: parse and format are exact inverses; abbreviations; clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.engine.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyPrivate,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunAuto,
    RunRoutes,
    SellShares,
    TrainRun,
    action_from_dict,
)
from pbem.titles.g1870.actions import DestinationToken, GrantConnection, Redeem, Reissue
from pbem.ruleset import load_title
from pbem.errors import AmbiguousOrderError, OrderSyntaxError
from pbem.order_codecs import effective
from pbem.orders import Vocabulary, every_codec, format_order, help_text, parse_order

TITLE = load_title("1830")
VOCAB = Vocabulary.from_title(TITLE)
COMPANIES = [c.sym for c in TITLE.companies]
CORPORATIONS = [c.sym for c in TITLE.corporations]
T1870 = load_title("1870")
VOCAB_1870 = Vocabulary.from_title(T1870)
CORPORATIONS_1870 = [c.sym for c in T1870.corporations]

amounts = st.integers(min_value=1, max_value=100_000)
TRAINS = [t.name for t in TITLE.trains]
hex_ids = st.builds(lambda letter, number: f"{letter}{number}",
                    st.sampled_from("ABCDEFGHIJKLMNO"), st.integers(min_value=1, max_value=30))
stops = st.builds(lambda h, city: f"{h}.{city}" if city else h, hex_ids, st.integers(min_value=0, max_value=2))
actions = st.one_of(
    st.builds(LayTile, hex_ids, st.sampled_from(["7", "57", "59", "X1"]), st.integers(min_value=0, max_value=5),
              st.one_of(st.none(), st.sampled_from(COMPANIES))),
    st.builds(PlaceToken, hex_ids, st.integers(min_value=0, max_value=2), st.one_of(st.none(), st.sampled_from(COMPANIES))),
    st.builds(RunRoutes, st.lists(st.builds(TrainRun, st.sampled_from(TRAINS),
                                            st.lists(stops, min_size=2, max_size=6).map(tuple)),
                                  min_size=0, max_size=4).map(tuple)),
    st.builds(Dividend, st.sampled_from(["payout", "withhold"])),
    st.builds(BuyTrain, st.sampled_from(TRAINS), st.sampled_from(["depot", "pool"] + CORPORATIONS),
              st.one_of(st.none(), amounts), st.one_of(st.none(), st.sampled_from(TRAINS))),
    st.builds(DiscardTrain, st.sampled_from(TRAINS)),
    st.just(Bankrupt()),
    st.builds(BuyPrivate, st.sampled_from(COMPANIES), st.one_of(st.none(), amounts)),
    st.just(Pass()),
    st.builds(Bid, st.sampled_from(COMPANIES), amounts),
    st.builds(BuyPrivate, st.sampled_from(COMPANIES)),
    st.builds(Par, st.sampled_from(CORPORATIONS), amounts),
    st.builds(BuyShares, st.sampled_from(CORPORATIONS), st.sampled_from(["ipo", "pool"]),
              st.integers(min_value=1, max_value=10)),
    st.builds(SellShares, st.sampled_from(CORPORATIONS), st.integers(min_value=1, max_value=10)),
    st.just(RunAuto()),
)
"""Actions of the core's orders, in 1830's symbols."""

actions_1870 = st.one_of(
    st.just(Dividend("half")),
    st.builds(DestinationToken, st.sampled_from(["map", "charter"])),
    st.builds(Redeem, st.sampled_from(CORPORATIONS_1870),
              st.one_of(st.just("pool"), st.sampled_from(["Player 1", "Ann Lee"]))),
    st.builds(Reissue, st.sampled_from(CORPORATIONS_1870)),
    st.builds(GrantConnection, st.sampled_from(CORPORATIONS_1870)),
)
"""Actions of 1870's own orders (pbem.titles.g1870.orders)."""


@given(actions)
def test_format_then_parse_gives_the_action_back(action: Action) -> None:
    line = format_order(action)
    assert parse_order(line, VOCAB) == action
    assert parse_order(line.lower(), VOCAB) == action
    assert format_order(action, VOCAB) == format_order(parse_order(format_order(action, VOCAB), VOCAB), VOCAB)
    assert parse_order(format_order(action, VOCAB), VOCAB) == action


@given(actions_1870)
def test_a_titles_own_orders_round_trip_in_that_title(action: Action) -> None:
    line = format_order(action, VOCAB_1870)
    assert parse_order(line, VOCAB_1870) == action
    if not (isinstance(action, Redeem) and action.source != "pool"):  # a player's name is kept as written
        assert parse_order(line.lower(), VOCAB_1870) == action
    assert format_order(action) == line, "without a title every title's codecs write"


@pytest.mark.parametrize("line", ["HALF", "REDEEM PRR POOL", "REISSUE PRR", "CONNECT PRR", "DESTINATION MAP"])
def test_an_1830_game_reads_none_of_1870s_own_orders(line: str) -> None:
    word = line.split()[0]
    with pytest.raises(OrderSyntaxError, match=f"unknown order '{word}'"):
        parse_order(line, VOCAB)
    with pytest.raises(TypeError, match="no order form"):
        format_order(parse_order(line, Vocabulary.from_title(T1870)) if word == "HALF"
                     else parse_order(line.replace("PRR", "MP"), VOCAB_1870), VOCAB)


@given(actions)
def test_log_form_round_trips(action: Action) -> None:
    assert action_from_dict(action.to_dict()) == action


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("bid ca $165", Bid("CA", 165)),
        ("BID CA 165", Bid("CA", 165)),
        ("buy sv", BuyPrivate("SV")),
        ("b prr", BuyShares("PRR")),
        ("Buy 1 PRR from IPO", BuyShares("PRR")),
        ("buy b&o from pool", BuyShares("B&O", "pool")),
        ("BUY 2 B&O market", BuyShares("B&O", "pool", 2)),
        ("buy bm", BuyShares("B&M")),
        ("par nynh 67", Par("NYNH", 67)),
        ("start PRR at $100", Par("PRR", 100)),
        ("sell 2 prr", SellShares("PRR", 2)),
        ("S PRR 3", SellShares("PRR", 3)),
        ("sell 2 shares of erie", SellShares("ERIE", 2)),
        ("p", Pass()),
        ("run none", RunRoutes(())),
        ("R auto", RunAuto()),
        ("Done", Pass()),
        ],
)
def test_abbreviations_players_use(line: str, action: Action) -> None:
    assert parse_order(line, VOCAB) == action


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("destination map", DestinationToken("map")),
        ("DESTINATION Charter", DestinationToken("charter")),
        ("half", Dividend("half")),
        ("redeem mp", Redeem("MP", "pool")),
        ("REDEEM MP FROM Ann Lee", Redeem("MP", "Ann Lee")),
        ("reissue mp", Reissue("MP")),
    ],
)
def test_1870s_orders_as_players_write_them(line: str, action: Action) -> None:
    assert parse_order(line, VOCAB_1870) == action


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("BYU PRR", "unknown order 'BYU'"),
        ("BID CA", "write BID <private> <amount>"),
        ("BID PRR 100", "PRR is a corporation"),
        ("BID CA lots", "the bid must be a whole number"),
        ("PAR SV 100", "SV is a private company"),
        ("SELL 0 PRR", "must be more than 0"),
        ("BUY XYZ", "no company or corporation 'XYZ'"),
        ("PASS NOW", "PASS takes nothing"),
        ("DESTINATION HOME", "write DESTINATION MAP or DESTINATION CHARTER"),
        ("REDEEM", "write REDEEM <corporation> .POOL | FROM <player>."),
        ("REDEEM MP TO Ann", "write REDEEM <corporation>"),
        ("REISSUE MP NYC", "write REISSUE <corporation>"),
        ("CONNECT", "write CONNECT <corporation>"),
        ("REDEEM SCC", "SCC is not a corporation"),
        ("HALF NOW", "HALF takes nothing"),
        ("RUN", "name at least one train and its stops"),
        ("RUN NONE 2", "no train type .NONE."),
    ],
)
def test_syntax_errors_quote_the_line(line: str, message: str) -> None:
    vocab = VOCAB_1870 if line.split()[0] in ("DESTINATION", "REDEEM", "REISSUE", "CONNECT", "HALF") else VOCAB
    with pytest.raises(OrderSyntaxError, match=message) as info:
        parse_order(line, vocab)
    assert repr(line) in str(info.value)


def test_exact_symbol_beats_a_shortened_one() -> None:
    # BO is the private company; B&O is the corporation.
    assert parse_order("BUY BO", VOCAB) == BuyPrivate("BO")
    assert parse_order("BUY B&O", VOCAB) == BuyShares("B&O")


def test_a_train_type_ending_in_t_is_not_the_type_without_it() -> None:
    # 1825 has both a 4-train and a 4T; "3T" still names the 3-train where there is no 3T.
    from pbem.engine.actions import RunRoutes, TrainRun

    vocab = Vocabulary(companies=(), corporations=(), trains=("3", "4", "4T"))
    assert parse_order("RUN 4T: V8.1-V10-U11", vocab) == RunRoutes((TrainRun("4T", ("V8.1", "V10", "U11")),))
    assert parse_order("RUN 4: V8-V10", vocab) == RunRoutes((TrainRun("4", ("V8", "V10")),))
    assert parse_order("RUN 3T: V8-V10", vocab) == RunRoutes((TrainRun("3", ("V8", "V10")),))


def test_ambiguous_short_form() -> None:
    vocab = Vocabulary(companies=("A-B",), corporations=("A&B",))
    with pytest.raises(AmbiguousOrderError, match="could be A-B or A&B"):
        parse_order("BUY AB", vocab)


def test_help_lists_every_order_from_the_codecs() -> None:
    text = help_text(include_gm=True)
    assert "CONNECT" not in help_text(), "a GM ruling is not in the players' help"
    others = (VOCAB_1870, Vocabulary.from_title(load_title("1825", ("unit_123", "lorenz"))))
    every_title = Vocabulary(VOCAB.companies + tuple(c for v in others for c in v.companies),
                             VOCAB.corporations + tuple(c for v in others for c in v.corporations),
                             VOCAB.trains + tuple(t for v in others for t in v.trains))
    for codec in effective(every_codec()):  # a codec standing in for another's place (RUN) once
        for entry in codec.help:
            assert entry.syntax in text
            assert entry.example in text
            action = parse_order(entry.example, every_title)
            assert format_order(action) == entry.example, "an example is written in canonical form"
            assert codec.writes(action, None) == entry.example, "the example is its own codec's"


# -- numbers: ASCII digits only, at most nine ----------------------------------------------------


@pytest.mark.parametrize("line", [
    "BID CA １６５",          # full-width digits
    "BID CA ١٦٥",            # Arabic-Indic digits
    "BID CA १६५",            # Devanagari digits
    "BUY ２ PRR",
    "SELL ٢ PRR",
    "LAY H16 57 ５",
    "LAY H１６ 57 1",
    "TOKEN F２0",
    "TOKEN F20.１",
    "TRAIN 3 FOR ８0",
    "PAR PRR ¹⁰⁰",           # superscripts are digits to str.isdigit
])
def test_numbers_in_other_scripts_are_refused(line: str) -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_order(line, VOCAB)
    assert repr(line) in str(err.value)


@pytest.mark.parametrize("line", [
    "BID CA " + "9" * 5000,  # more digits than int() converts at all
    "BID CA 1234567890",
    "BUY 1234567890 PRR",
    "SELL 1234567890 PRR",
    "LAY H16 57 " + "0" * 10,
    "TRAIN 3 FOR " + "1" * 4400,
])
def test_numbers_longer_than_nine_digits_are_a_player_error(line: str) -> None:
    with pytest.raises(OrderSyntaxError, match="plain digits 0-9, at most 9"):
        parse_order(line, VOCAB)


def test_nine_digits_still_read() -> None:
    assert parse_order("BID CA 999999999", VOCAB) == Bid("CA", 999_999_999)
    assert parse_order("LAY H16 57 00", VOCAB) == LayTile("H16", "57", 0, None)
