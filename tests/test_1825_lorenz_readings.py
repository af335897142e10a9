"""The readings of Lorenz's variant where its text (seed 002) is silent (the project's rule:
"where a rule's base text is not public, choose a reading, write it down and make it a
setting the GM can change"): each is a setting of ``rules/1825/variants/lorenz.yaml``
(``title_rules``) read by the code, and the other reading a variant that includes ``lorenz``
(:mod:`pbem.titles.g1825.lorenz.readings`). Each reading and its other reading is tested
here on the small board of :mod:`tests.test_1825_lorenz`; HELP says each.
"""

from __future__ import annotations

import pytest

from pbem.engine.values import CityRef
from pbem.engine.actions import Pass
from pbem.engine.events import render_all
from pbem.engine.game import Game
from pbem.engine.steps.auction import min_price
from pbem.errors import IllegalOrderError
from pbem.orders import help_text
from pbem.engine.track import HOME_NAMING_NO_CITY
from pbem.ruleset import load_title
from pbem.titles.g1825 import credit, trains
from pbem.titles.g1825.lorenz.actions import Designate, PowerLay, PowerToken
from pbem.titles.g1825.lorenz.facts import plays
from pbem.titles.g1825.lorenz.readings import DEFAULTS, OTHER_READING
from pbem.titles.g1825.lorenz.state import lorenz_state
from tests.test_1825_lorenz import ANN, CY, fitting, new_game, operating, play

START = "Ann: BUY S&M\nBob: BUY TWW\nCy: BUY C&HP\nDi: BUY C&W\nAnn: BID L&M 215\nBob: BUY S&D"


def started(variant: str = "lorenz") -> Game:
    """SR 1 after the start of :func:`tests.test_1825_lorenz.after_the_start`, playing
    ``variant``: Cy to act."""
    game = new_game((variant,))
    play(game, START)
    return game


# -- the settings and their variants ------------------------------------------------------------


def test_lorenz_yaml_sets_every_reading_to_its_default_and_each_variant_plays_the_other() -> None:
    plain = load_title("1825", ("unit_12", "lorenz"))
    own = {**credit.DEFAULTS, trains.RECEIVER_BUYS_AFTER_CHOICE: False,  # plain 1825's own readings
           HOME_NAMING_NO_CITY: "one_city_left", "token_city_after_lay": "layer"}
    assert plain.settings.title_rules == {**own, **DEFAULTS}
    for key, variant in OTHER_READING.items():
        other = load_title("1825", ("unit_12", variant))
        assert other.title_rule(key) is not DEFAULTS[key], (key, variant)
        assert [c.sym for c in other.companies] == [c.sym for c in plain.companies], "the variant, included"
        assert plays(other.variants)


def test_a_reading_variant_plays_the_variant() -> None:
    game = new_game(("lorenz_cw_extra_token",))
    assert game.state.round.kind == "lorenz_auction"
    assert not plays(("unit_1",)) and plays(("unit_1", "lorenz")) and plays(("unit_1", "lorenz_no_price_drop"))


def test_help_writes_each_reading_and_the_variant_of_the_other() -> None:
    text = " ".join(help_text(title=new_game().title).split())
    for words in ("as in 1830 (with lorenz_no_price_drop no price falls)",
                  "at any time of an operating round; a designation stands once given",
                  "with lorenz_assign_any_time also in your stock turn",
                  "as one of its lays this turn, its track reaching P14",
                  "with lorenz_chp_extra_lay an extra lay, connected or not",
                  "in its turn, connected or not; an upgrade closes TWW",
                  "with lorenz_tww_needs_reach its track must reach K13",
                  "one of its own tokens; C&W closes", "with lorenz_cw_extra_token an extra token"):
        assert words in text, words


# -- (a) every player passes in the start -----------------------------------------------------


def all_pass(game: Game) -> list[str]:
    return play(game, "Ann: PASS\nBob: PASS\nCy: PASS\nDi: PASS")


def test_when_all_pass_the_cheapest_private_falls_by_5_as_in_1830() -> None:
    game = new_game()
    events = all_pass(game)
    assert min_price(game, "S&M") == 25 and any("S&M" in e and "25" in e for e in events)


def test_lorenz_no_price_drop_keeps_the_prices_when_all_pass() -> None:
    game = new_game(("lorenz_no_price_drop",))
    events = all_pass(game)
    assert min_price(game, "S&M") == 30 and not any("25" in e for e in events)
    assert game.current_actors() == [ANN] and Pass() in game.legal_actions(ANN)


# -- (b) ASSIGN: when, and whether it may change ----------------------------------------------


def in_a_stock_turn(variant: str = "lorenz") -> Game:
    """SR 1, Cy to act, directing the floated LNWR and owning TWW."""
    game = started(variant)
    stock = game.state.round
    operating(game, director=CY, privates=("TWW",))
    game.state.round = stock
    assert game.current_actors() == [CY]
    return game


def test_assign_is_given_in_an_operating_round_only() -> None:
    game = in_a_stock_turn()
    assert Designate("TWW", "LNWR") not in game.legal_actions(CY)
    with pytest.raises(IllegalOrderError, match=r"a private's power is given in an operating round \(ASSIGN TWW "
                                                r"<company>\), as this game reads the variant"):
        game.apply(CY, Designate("TWW", "LNWR"))


def test_lorenz_assign_any_time_takes_assign_in_a_stock_turn() -> None:
    game = in_a_stock_turn("lorenz_assign_any_time")
    assert Designate("TWW", "LNWR") in game.legal_actions(CY)
    assert render_all(game.apply(CY, Designate("TWW", "LNWR")), game.money) == ["Cy gives the power of TWW to LNWR"]
    assert lorenz_state(game.state).designated == {"TWW": "LNWR"} and game.current_actors() == [CY]


def two_companies(variant: str = "lorenz") -> Game:
    """OR: the LNWR operates; Ann directs it and the floated GWR, and gave TWW's power to the
    LNWR."""
    game = operating(started(variant))
    gwr = game.state.corporations["GWR"]
    gwr.floated = gwr.ipoed = True
    gwr.president = ANN
    game.apply(ANN, Designate("TWW", "LNWR"))
    return game


def test_a_designation_stands_once_given() -> None:
    game = two_companies()
    assert Designate("TWW", "GWR") not in game.legal_actions(ANN)
    with pytest.raises(IllegalOrderError, match="TWW's power has been given to LNWR, and a designation stands once"):
        game.apply(ANN, Designate("TWW", "GWR"))


def test_lorenz_assign_any_time_moves_a_power_not_yet_used() -> None:
    game = two_companies("lorenz_assign_any_time")
    assert Designate("TWW", "GWR") in game.legal_actions(ANN)
    assert Designate("TWW", "LNWR") not in game.legal_actions(ANN), "it is the LNWR's already"
    game.apply(ANN, Designate("TWW", "GWR"))
    assert lorenz_state(game.state).designated["TWW"] == "GWR"
    assert not any(isinstance(a, PowerLay) for a in game.legal_actions(ANN)), "no longer the operating LNWR's"
    lorenz_state(game.state).used.append("TWW")
    with pytest.raises(IllegalOrderError, match="TWW's power has been used by GWR"):
        game.apply(ANN, Designate("TWW", "LNWR"))


# -- (c) C&HP's build: one of the turn's lays, reached ----------------------------------------


def chp_after_the_turns_lay(variant: str = "lorenz", corp: str = "LNWR") -> Game:
    game = operating(started(variant), corp=corp)
    game.apply(ANN, Designate("C&HP", corp))
    op = game.state.round.operating
    assert op is not None
    op.tiles_laid = 1  # the turn's one lay is made
    return game


def test_chps_build_is_one_of_the_turns_lays() -> None:
    game = chp_after_the_turns_lay()
    lay = fitting(game, "LNWR", "P14", ("9", "8", "7"), reach=True)
    assert not any(isinstance(a, PowerLay) for a in game.legal_actions(ANN))
    with pytest.raises(IllegalOrderError, match="LNWR has no tile lay left this turn for C&HP's build"):
        game.apply(ANN, PowerLay("P14", lay.tile, lay.rotation, "C&HP"))


def test_lorenz_chp_extra_lay_makes_it_an_extra_lay() -> None:
    game = chp_after_the_turns_lay("lorenz_chp_extra_lay")
    lay = fitting(game, "LNWR", "P14", ("9", "8", "7"), reach=True)
    assert PowerLay("P14", lay.tile, lay.rotation, "C&HP") in game.legal_actions(ANN)
    game.apply(ANN, PowerLay("P14", lay.tile, lay.rotation, "C&HP"))
    op = game.state.round.operating
    assert op is not None and op.tiles_laid == 1 and game.state.corporations["LNWR"].cash == 450


def test_lorenz_chp_extra_lay_needs_no_connection() -> None:
    game = operating(started("lorenz_chp_extra_lay"), corp="GWR")
    game.apply(ANN, Designate("C&HP", "GWR"))
    lay = fitting(game, "GWR", "P14", ("9", "8", "7"))
    game.apply(ANN, PowerLay("P14", lay.tile, lay.rotation, "C&HP"))
    assert game.state.tiles["P14"] == (lay.tile, lay.rotation), "the GWR's track is far from P14"


# -- (d) TWW's lay at Durham: no connection -----------------------------------------------------


def test_lorenz_tww_needs_reach_wants_the_companys_track_at_durham() -> None:
    game = operating(started("lorenz_tww_needs_reach"))
    game.apply(ANN, Designate("TWW", "LNWR"))
    lay = fitting(game, "LNWR", "K13", ("3", "4", "58"))
    assert not any(isinstance(a, PowerLay) for a in game.legal_actions(ANN))
    with pytest.raises(IllegalOrderError, match="reach|connected"):
        game.apply(ANN, PowerLay("K13", lay.tile, lay.rotation, "TWW"))
    plain = operating(started())
    plain.apply(ANN, Designate("TWW", "LNWR"))
    assert PowerLay("K13", lay.tile, lay.rotation, "TWW") in plain.legal_actions(ANN), "the reading: no reach"


# -- (e) C&W's token: one of the company's own ---------------------------------------------------


def tokens_used_up(variant: str = "lorenz") -> Game:
    """OR: the LNWR (3 tokens) with tokens in its home and two other cities, C&W's power its."""
    game = operating(started(variant))
    game.state.tokens[CityRef("L14", 0)] = ["LNWR"]
    game.state.tokens[CityRef("V14", 0)] = ["LNWR"]
    game.apply(ANN, Designate("C&W", "LNWR"))
    return game


def test_cws_token_is_one_of_the_companys_own() -> None:
    game = tokens_used_up()
    assert PowerToken("W25", 0, "C&W") not in game.legal_actions(ANN)
    with pytest.raises(IllegalOrderError, match=r"LNWR has no station tokens left \(C&W's token is one of the "):
        game.apply(ANN, PowerToken("W25", 0, "C&W"))


def test_lorenz_cw_extra_token_gives_a_token_beyond_the_charter() -> None:
    game = tokens_used_up("lorenz_cw_extra_token")
    assert PowerToken("W25", 0, "C&W") in game.legal_actions(ANN)
    game.apply(ANN, PowerToken("W25", 0, "C&W"))
    assert game.state.tokens[CityRef("W25", 0)] == ["LNWR"] and game.state.companies["C&W"].closed
    assert game.hooks.track.station_tokens(game, "LNWR")[1] == 3, "four on the map, three of them the charter's"
