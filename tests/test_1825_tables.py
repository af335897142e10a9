"""1825's tables per unit combination and kit, checked on the loaded title: the bank, starting
cash, certificate limits, trains, phases, market, privates and corporations as 18xx.games
composes them (issue 12: "Each unit and each kit has a test on its own data (map joins,
tiles, trains, bank)"; the recorded Unit 1 + R1 game: 2 players, £1200 each).

The board is the map owner's (tests/test_1825_map.py); so that these tables load for every
combination whatever pieces of the map are in, most tests load the title with hooks that
leave the map document as its shell (:class:`TablesOnly`), a cache entry of its own.
"""

from __future__ import annotations

from typing import Any, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.engine.settings import HeadingRule, Terms, TileLay
from pbem.engine.title import TitleData
from pbem.errors import ConfigError
from pbem.ruleset import load_title
from pbem.ruleset.files import read_parts
from pbem.titles.g1825 import COMPOSER
from pbem.titles.g1825.compose import compose_documents
from pbem.titles.g1825.selection import SOURCE_OPTIONS, UNIT_OPTIONS, resolve, selection_of
from pbem.titles.g1825.tables import Tables, tables_for, tables_of


class TablesOnly(COMPOSER):
    """1825's composer composing everything but the map (left as ``map.yaml`` gives it)."""

    @classmethod
    def compose(cls, documents: Mapping[str, Any], parts: Mapping[str, Any],
                variants: tuple[str, ...]) -> dict[str, Any]:
        shell = documents["map"]
        composed = super().compose({k: v for k, v in documents.items() if k != "map"}, parts, variants)
        return {**composed, "map": shell}


def title(*variants: str) -> TitleData:
    return load_title("1825", variants, composer=TablesOnly)


def tables(*variants: str) -> Tables:
    return tables_for(variants)


def trains(t: TitleData) -> dict[str, int | None]:
    return {train.name: train.count for train in t.trains}


# --- the recorded game: Unit 1 with Wales ------------------------------------------------------


def test_unit_1_with_r1_as_the_recorded_game_plays_it() -> None:
    t = load_title("1825", ("unit_1", "r1"))  # the real hooks: Unit 1 and R1's board is in
    assert t.board.hexes
    assert (t.min_players, t.max_players) == (2, 5)
    assert t.starting_cash[2] == 1200 and dict(t.starting_cash) == {2: 1200, 3: 830, 4: 630, 5: 504}
    assert t.bank_cash == 5000 + 2 * 1000  # Unit 1's bank and two minors (Cambrian, Taff Vale)
    assert dict(t.certificate_limit) == {2: 26, 3: 18, 4: 13, 5: 11}
    assert [c.sym for c in t.companies] == ["S&M", "C&HP", "C&W", "L&M"]
    assert [(c.value, c.revenue) for c in t.companies] == [(30, 5), (75, 12), (130, 20), (210, 30)]
    assert trains(t) == {"2": 6, "3": 4, "4": 3, "5": 4, "U3": 1, "4T": 1}
    by_name = {train.name: train for train in t.trains}
    assert by_name["2"].rusts_on == "5" and by_name["2"].price == 180 and by_name["5"].price == 550
    assert by_name["U3"].available_on == "3" and by_name["4T"].available_on is None  # no phase 4 here
    assert [(p.name, p.on, p.train_limit, p.operating_rounds) for p in t.phases] == [
        ("1", None, 4, 1), ("2", "3", 4, 2), ("3", "5", 3, 3)]
    assert [c.sym for c in t.corporations] == ["LNWR", "GWR", "GER", "LSWR", "SECR", "LBSC", "Cam", "TV"]
    lnwr = t.corporations[0]
    assert (lnwr.home, lnwr.home_city, lnwr.tokens, lnwr.shares[0], lnwr.float_percent) == ("T16", 0, (0, 40, 100, 100, 100), 20, 60)
    cam = t.corporations[6]
    assert (cam.kind, cam.home, cam.shares, cam.float_percent, cam.tokens) == ("minor", "R8", (40, 20, 20, 20), 40, (0,))
    facts = tables("unit_1", "r1")
    assert facts.required_train("Cam") == "U3" and facts.required_train("TV") == "4T"
    assert facts.corporation_facts["GER"].homes == ("V20",) and t.corporations[2].home_city == 4
    assert [facts.par(s) for s in ("LNWR", "GWR", "GER", "LSWR", "SECR", "LBSC")] == [100, 90, 76, 76, 71, 67]
    assert [facts.band(s) for s in ("LNWR", "GWR", "GER", "LSWR", "SECR", "LBSC", "Cam", "TV")] == [1, 2, 3, 3, 4, 5, 5, 5]
    assert facts.corporation_facts["LNWR"].reserves == ("U17",) and facts.corporation_facts["Cam"].reserves == ("R8",)


def test_the_common_rules_are_constants() -> None:
    t = title("unit_1")
    assert t.currency == "£{}" and t.settings.terms == Terms("Director", {"£": "L"})
    assert t.settings.capitalization == "full" and t.settings.sell_buy_order == "sell_buy_sell"
    assert t.settings.sold_out_increase is False and t.settings.pool_share_limit == 100
    assert t.settings.tile_lays == (TileLay(True, True), TileLay("not_if_upgraded", False))
    assert t.settings.dividend_choices == ("payout", "withhold")
    assert t.settings.double_heading == HeadingRule(2, {"2+2": 3})


# --- the bank ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("variants", "bank"), [
    (("unit_1",), 5000), (("unit_2",), 5000), (("unit_3",), 4000),
    (("unit_12",), 5000), (("unit_23",), 5000), (("unit_123",), 5000),
    (("unit_12", "big_bank"), 10000), (("unit_23", "big_bank"), 9000), (("unit_123", "big_bank"), 14000),
    (("unit_3", "big_bank"), 4000),
    (("unit_1", "k2", "k3"), 9000), (("unit_1", "k3"), 7000), (("unit_1", "k2", "k3", "strict_bank"), 5000),
    (("unit_1", "r2"), 7000),  # R2 brings one minor but counts two, as the source
    (("unit_1", "r3"), 5000),  # R3's minor is not counted, as the source
    (("unit_12", "k5"), 7000), (("unit_1", "k7"), 6000), (("unit_1", "r1", "strict_bank"), 5000),
    (("unit_123", "r1", "r2", "r3", "big_bank"), 18000),
])
def test_the_bank_of_each_combination(variants: tuple[str, ...], bank: int) -> None:
    assert title(*variants).bank_cash == bank


# --- starting cash and certificates ----------------------------------------------------------------


@pytest.mark.parametrize(("unit", "cash", "certs"), [
    ("unit_1", {2: 1200, 3: 830, 4: 630, 5: 504}, {2: 24, 3: 16, 4: 12, 5: 10}),
    ("unit_2", {2: 1200, 3: 800, 4: 600}, {2: 24, 3: 16, 4: 12}),
    ("unit_3", {2: 750}, {2: 17}),  # Unit 3's own minors do not change the limit
    ("unit_12", {3: 840, 4: 630, 5: 504, 6: 420, 7: 360}, {3: 31, 4: 23, 5: 19, 6: 16, 7: 14}),
    ("unit_23", {3: 840, 4: 630, 5: 504}, {3: 29, 4: 23, 5: 18}),
    ("unit_123", {4: 630, 5: 504, 6: 420, 7: 360, 8: 315, 9: 280}, {4: 33, 5: 28, 6: 23, 7: 19, 8: 17, 9: 15}),
])
def test_cash_and_certificates_of_each_combination(unit: str, cash: dict[int, int], certs: dict[int, int]) -> None:
    t = title(unit)
    assert dict(t.starting_cash) == cash and dict(t.certificate_limit) == certs


@pytest.mark.parametrize(("variants", "minors", "certs"), [
    (("unit_1", "r3"), 0, {2: 24, 3: 16, 4: 12, 5: 10}),
    (("unit_1", "k7"), 1, {2: 25, 3: 17, 4: 13, 5: 10}),
    (("unit_12", "k5"), 2, {3: 33, 4: 24, 5: 20, 6: 17, 7: 14}),
    (("unit_1", "r1", "k7"), 3, {2: 27, 3: 18, 4: 14, 5: 12}),
    (("unit_12", "r1", "r2"), 4, {3: 34, 4: 25, 5: 21, 6: 18, 7: 16}),
    (("unit_12", "r1", "r2", "k7"), 5, {3: 35, 4: 26, 5: 21, 6: 18, 7: 16}),
    (("unit_12", "r1", "r2", "k5"), 6, {3: 36, 4: 26, 5: 22, 6: 19, 7: 16}),
    (("unit_123", "r1", "r2", "k5", "k7"), 7, {4: 37, 5: 31, 6: 26, 7: 21, 8: 19, 9: 17}),
])
def test_minors_add_certificates(variants: tuple[str, ...], minors: int, certs: dict[int, int]) -> None:
    assert tables(*variants).minors_counted == minors
    assert dict(title(*variants).certificate_limit) == certs


# --- trains and phases -----------------------------------------------------------------------------


@pytest.mark.parametrize(("variants", "counts"), [
    (("unit_1",), {"2": 6, "3": 4, "4": 3, "5": 4}),
    (("unit_2",), {"2": 5, "3": 3, "4": 2, "5": 3, "6": 2}),
    (("unit_3",), {"2": 5, "3": 3, "4": 1, "5": 3, "7": 2, "3T": 1, "U3": 1}),
    (("unit_3", "u3p"), {"2": 5, "3": 3, "4": 1, "5": 3, "7": 2, "3T": 3, "U3": 3}),
    (("unit_12",), {"2": 7, "3": 6, "4": 4, "5": 5, "6": 2}),
    (("unit_23",), {"2": 5, "3": 5, "4": 4, "5": 6, "7": 2, "3T": 1, "U3": 1}),
    (("unit_123",), {"2": 7, "3": 6, "4": 5, "5": 6, "6": 2, "7": 2, "3T": 1, "U3": 1}),
    (("unit_1", "r2"), {"2": 6, "3": 4, "4": 3, "5": 5}),
    (("unit_1", "r3"), {"2": 6, "3": 4, "4": 3, "5": 4, "4T": 1}),
    (("unit_1", "k7"), {"2": 6, "3": 4, "4": 3, "5": 4, "2+2": 1}),
    (("unit_2", "k5"), {"2": 5, "3": 3, "4": 2, "5": 4, "6": 2, "3T": 1}),
    (("unit_1", "k3"), {"2": 6, "3": 4, "4": 3, "5": 3, "6": 3, "7": 2}),
    (("unit_2", "k3"), {"2": 5, "3": 3, "4": 2, "5": 2, "6": 3, "7": 2}),  # Unit 2's own 6s left out
    (("unit_1", "k2", "k3"), {"2": 6, "3": 3, "4": 2, "5": 3, "6": 3, "7": 2, "3T": 3, "U3": 1, "2+2": 3,
                              "4T": 2, "4+4E": 2}),
    (("unit_23", "k2", "k3"), {"2": 5, "3": 4, "4": 4, "5": 4, "6": 3, "7": 4, "3T": 5, "U3": 3, "2+2": 3,
                               "4T": 2, "4+4E": 2}),
    (("unit_123", "k2", "k3"), {"2": 7, "3": 5, "4": 4, "5": 4, "6": 5, "7": 4, "3T": 6, "U3": 4, "2+2": 3,
                                "4T": 2, "4+4E": 2}),
])
def test_trains_of_each_combination_and_kit(variants: tuple[str, ...], counts: dict[str, int]) -> None:
    t = title(*variants)
    assert trains(t) == counts
    order = ["2", "3", "4", "5", "6", "7", "3T", "U3", "2+2", "4T", "4+4E"]
    assert [train.name for train in t.trains] == [n for n in order if n in counts]


def test_kit_3_brings_phase_four_and_rusts_the_3_trains() -> None:
    plain, k3 = title("unit_12"), title("unit_12", "k3")
    assert [p.name for p in plain.phases] == ["1", "2", "3", "3a"]
    assert [(p.name, p.on, p.train_limit, p.tiles) for p in plain.phases][3] == (
        "3a", "6", 3, ("yellow", "green", "brown", "gray"))
    assert [(p.name, p.on, p.train_limit) for p in k3.phases][3:] == [("4", "6", 99), ("4a", "7", 99)]
    assert {t.name: t.rusts_on for t in plain.trains}["3"] is None
    assert {t.name: t.rusts_on for t in k3.trains}["3"] == "7"


def test_without_unit_2_nor_kit_3_there_are_three_phases() -> None:
    assert [p.name for p in title("unit_3").phases] == ["1", "2", "3"]
    assert [p.name for p in title("unit_1").phases] == ["1", "2", "3"]


def test_train_availability_follows_the_phases_in_play() -> None:
    with_k3 = {t.name: t.available_on for t in title("unit_1", "k2", "k3").trains}
    assert with_k3 == {"2": None, "3": None, "4": None, "5": None, "6": None, "7": None, "3T": "3", "U3": "3",
                       "2+2": "4", "4T": "4", "4+4E": "4a"}
    without = {t.name: t.available_on for t in title("unit_1", "k7", "r3").trains}
    assert without["2+2"] is None and without["4T"] is None  # no phase 4: sold in their turn


def test_train_kinds_beyond_their_distance() -> None:
    kinds = tables("unit_1", "k2", "k3").train_kinds
    assert kinds["U3"].cities_only and kinds["U3"].towns_pay and kinds["U3"].multiplier == 1
    assert kinds["4+4E"].express and not kinds["4+4E"].towns_pay and kinds["4+4E"].multiplier == 2
    assert kinds["2+2"].multiplier == 2 and not kinds["2+2"].express
    assert kinds["2"] == type(kinds["2"])("2")


# --- the market ------------------------------------------------------------------------------------


def test_small_market_without_unit_2_large_with_it() -> None:
    for variants, length, top in ((("unit_1",), 28, 340), (("unit_3",), 28, 340), (("unit_2",), 36, 500),
                                  (("unit_123",), 36, 500)):
        row = title(*variants).market[0]
        assert len(row) == length and len(title(*variants).market) == 1
        cells = [c for c in row if c is not None]
        assert cells[-1].price == top and cells[-1].ends_game and cells[0].price == 0 and cells[0].closes
        assert [c.price for c in cells if c.par] == [67, 71, 76, 82, 90, 100]
        assert [c.price for c in cells if not c.counts_for_limit] == [5, 10, 16, 24, 34, 42, 49]


# --- privates --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("unit", "privates"), [
    ("unit_1", ["S&M", "C&HP", "C&W", "L&M"]),
    ("unit_2", ["L&MI", "C&HP", "S&D", "L&M"]),
    ("unit_3", ["A&F", "TWW", "S&D"]),
    ("unit_12", ["S&M", "C&HP", "C&W", "S&D", "L&M"]),
    ("unit_23", ["A&F", "TWW", "C&HP", "S&D", "L&M"]),
    ("unit_123", ["S&M", "TWW", "C&HP", "C&W", "S&D", "L&M"]),
])
def test_privates_of_each_combination_one_of_each_value(unit: str, privates: list[str]) -> None:
    companies = title(unit).companies
    assert [c.sym for c in companies] == privates
    values = [c.value for c in companies]
    assert values == sorted(values) and len(set(values)) == len(values)
    assert sum(1 for v in values if v == 30) == 1 and all(not c.abilities for c in companies)


# --- corporations ----------------------------------------------------------------------------------


def test_unit_2_alone_has_its_own_lnwr() -> None:
    t, facts = title("unit_2"), tables("unit_2")
    assert [c.sym for c in t.corporations] == ["LNWR", "MR", "NER", "GCR", "GNR", "L&Y"]
    lnwr = t.corporations[0]
    assert (lnwr.home, lnwr.tokens) == ("Q11", (0, 40, 100, 100))
    assert [(c.home, c.home_city) for c in t.corporations[3:5]] == [("O15", 0), ("O15", 1)]
    assert [facts.band(c.sym) for c in t.corporations] == [1, 2, 2, 3, 3, 3] and facts.minor_band == 4


def test_units_1_and_2_share_one_lnwr_with_two_homes() -> None:
    t, facts = title("unit_12"), tables("unit_12")
    syms = [c.sym for c in t.corporations]
    assert syms == ["LNWR", "GWR", "GER", "LSWR", "SECR", "LBSC", "MR", "NER", "GCR", "GNR", "L&Y"]
    lnwr = t.corporations[0]
    assert lnwr.tokens == (0, 0, 40, 100, 100, 100, 100) and facts.corporation_facts["LNWR"].homes == ("T16", "Q11")
    assert facts.corporation_facts["MR"].reserves == ("Q15", "R14")
    assert {s: facts.band(s) for s in syms} == {"LNWR": 1, "GWR": 2, "MR": 3, "NER": 3, "GER": 4, "LSWR": 4,
                                                 "SECR": 5, "GCR": 5, "GNR": 5, "L&Y": 5, "LBSC": 6}
    assert facts.minor_band == 6


def test_unit_3_brings_three_majors_and_three_minors() -> None:
    t, facts = title("unit_3"), tables("unit_3")
    assert [(c.sym, c.kind) for c in t.corporations] == [
        ("CR", "major"), ("NBR", "major"), ("GSWR", "major"), ("GNoS", "minor"), ("HR", "minor"), ("M&C", "minor")]
    assert [(c.home, c.home_city) for c in t.corporations[:3]] == [("G5", 2), ("G5", 1), ("G5", 0)]
    assert [facts.required_train(s) for s in ("GNoS", "HR", "M&C")] == ["5", "U3", "3T"]
    assert facts.minor_band == 2  # no par of 71: the band after par 76's
    assert title("unit_3", "unit_4").corporations[4].home == "A5"  # Unit 4 moves the Highland


@pytest.mark.parametrize(("variants", "minors"), [
    (("unit_1", "r1"), {"Cam": ("R8", "U3"), "TV": ("V8", "4T")}),
    (("unit_1", "r2"), {"S&DR": ("W9", "5")}),
    (("unit_1", "r3"), {"M&GN": ("Q23", "4T")}),
    (("unit_2", "k5"), {"FR": ("M9", "5"), "NS": ("Q13", "3T")}),
    (("unit_1", "k7"), {"LT&S": ("V22", "2+2")}),
])
def test_each_kit_brings_its_minors(variants: tuple[str, ...], minors: dict[str, tuple[str, str]]) -> None:
    t, facts = title(*variants), tables(*variants)
    found = {c.sym: (c.home, facts.required_train(c.sym)) for c in t.corporations if c.kind == "minor"}
    assert found == minors
    for c in t.corporations:
        if c.kind == "minor":
            assert c.shares == (40, 20, 20, 20) and c.float_percent == 40 and facts.par(c.sym) is None
    for train in {r for _, r in minors.values()}:  # every required train is among the game's trains
        assert (trains(t).get(train) or 0) >= sum(1 for _, r in minors.values() if r == train)


def test_r2_gives_the_gwr_a_second_home() -> None:
    t, facts = title("unit_1", "r2"), tables("unit_1", "r2")
    gwr = next(c for c in t.corporations if c.sym == "GWR")
    assert gwr.tokens == (0, 0, 40, 100, 100, 100, 100) and facts.corporation_facts["GWR"].homes == ("V14", "Y7")
    assert tables("unit_1").corporation_facts["GWR"].homes == ("V14",)


def test_db2_changes_the_secr_and_lbsc() -> None:
    plain, db2 = tables("unit_1"), tables("unit_1", "db2")
    assert plain.par("SECR") == 71 and db2.par("SECR") == 67
    assert db2.corporation_facts["SECR"].reserves == ("W21",) and db2.corporation_facts["LBSC"].reserves == ()
    assert plain.corporation_facts["LBSC"].reserves == ("X20",)
    assert db2.band("SECR") == db2.band("LBSC") == 4  # pars 100, 90, 76, 67
    assert db2.minor_band == 4  # no par of 71: the band after that of par 76 (band 3)


# --- composition ------------------------------------------------------------------------------------


def test_composition_does_not_change_its_inputs_and_merges_a_variants_entries() -> None:
    parts = read_parts("1825")
    docs = {"game": {"title": "1825"}, "companies": [{"sym": "C&W", "abilities": [{"kind": "no_buy"}]},
                                                     {"sym": "TWW", "abilities": [{"kind": "no_buy"}]}],
            "corporations": {"defaults": {"shares": [20]}, "corporations": []},
            "trains": {"trains": [{"name": "5", "events": ["close_companies"]}], "phases": []}, "market": {}}
    before = repr(docs)
    out = compose_documents(docs, parts, ("unit_1",))
    assert repr(docs) == before
    assert [c["sym"] for c in out["companies"]] == ["S&M", "C&HP", "C&W", "L&M"]  # TWW is not in Unit 1
    assert out["companies"][2]["abilities"] == [{"kind": "no_buy"}] and out["companies"][2]["value"] == 130
    assert next(t for t in out["trains"]["trains"] if t["name"] == "5") == {
        "name": "5", "distance": 5, "price": 550, "count": 4, "events": ["close_companies"]}


def test_the_title_without_a_unit_is_unit_1() -> None:
    assert tables().selection.units == frozenset({1}) and title().bank_cash == 5000


def test_tables_refuse_what_cannot_be_composed() -> None:
    with pytest.raises(ConfigError, match="Units 1 and 3 join only through Unit 2"):
        tables_of(read_parts("1825"), selection_of(("unit_1", "unit_3")))
    with pytest.raises(ConfigError, match="k2 has no trains for units 3"):
        tables_of(read_parts("1825"), selection_of(("unit_3", "k2", "k3")))


@pytest.mark.parametrize("variants", [
    ("unit_1", "r1"), ("unit_1", "r2"), ("unit_2", "k5"), ("unit_3", "u3p", "db3"), ("unit_3", "unit_4"),
    ("unit_12", "k5", "k7", "r1", "r3"), ("unit_23", "k2", "k3", "unit_4"),
    ("unit_123", "k2", "k3", "r1", "r2", "r3", "k5", "k7", "db1", "db2", "big_bank"),
])
def test_every_home_and_reserved_hex_is_on_the_composed_board(variants: tuple[str, ...]) -> None:
    t, facts = load_title("1825", variants), tables(*variants)  # the real hooks: the board of these pieces
    for corp in t.corporations:
        fact = facts.corporation_facts[corp.sym]
        assert corp.home == fact.homes[0]
        for coord in (*fact.homes, *fact.reserves):
            assert coord in t.board.hexes, (corp.sym, coord)
        if corp.kind == "major":  # a minor's home may wait for a tile with a city (North Staffordshire)
            cities = t.board.hexes[corp.home].tile.cities
            assert corp.home_city is not None and corp.home_city < len(cities), (corp.sym, corp.home)


_UNITS = sorted(UNIT_OPTIONS)
_OTHERS = sorted(SOURCE_OPTIONS - set(UNIT_OPTIONS))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(_UNITS), st.sets(st.sampled_from(_OTHERS), max_size=6), st.integers(min_value=2, max_value=9))
def test_every_allowed_game_composes_with_its_minors_trains(unit: str, others: set[str], players: int) -> None:
    """Whatever the options: either they are refused with 1825's reason, or the game's tables
    compose, give the players cash and a certificate limit, and hold every minor's train."""
    try:
        variants = resolve((unit, *sorted(others)), players)
    except ConfigError as exc:
        assert str(exc).startswith("1825: ")
        return
    t = tables_for(variants)
    assert t.players[0] <= players <= t.players[1]
    assert t.starting_cash[players] > 0 and t.certificate_limit[players] > 0 and t.bank_cash >= 4000
    counts = {str(train["name"]): int(train["count"]) for train in t.trains}
    needed: dict[str, int] = {}
    for fact in t.corporation_facts.values():
        if fact.required_train is not None:
            needed[fact.required_train] = needed.get(fact.required_train, 0) + 1
    assert all(counts.get(name, 0) >= n for name, n in needed.items()), (variants, needed, counts)
    assert len({c["value"] for c in t.companies}) == len(t.companies)
