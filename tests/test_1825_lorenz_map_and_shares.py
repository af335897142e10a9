"""Lorenz's variant (seed 002) where the units in play decide (issue 19):

* a power whose hex is not on the map: C&HP's lay on P14 in a game without P14 (Unit 1
  alone) can never be used, so ASSIGN C&HP is neither offered nor accepted, and the report
  and HELP say why; with P14 in play it is offered as ever;
* S&D's clause with Unit 1: "no additional NER shares may be bought by any player until the
  GWR has been sold out", "sold out" read as the setting ``lorenz_gwr_sold_out_from_ipo``
  says (no GWR share left in the IPO; the variant ``lorenz_gwr_sold_out_to_players``: all ten
  held by players), and once sold out, for good.

The map cases are on the real 1825 data; the share cases on the small board of
:mod:`tests.test_1825_lorenz` (LNWR, GWR and NER: Unit 1 in play).
"""

from __future__ import annotations

import pytest

from pbem.engine.actions import BuyShares, Par
from pbem.engine.game import Game
from pbem.engine.state import IPO, POOL
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.orders import help_text
from pbem.ruleset import load_title
from pbem.titles.g1825.lorenz.actions import Designate
from pbem.titles.g1825.lorenz.state import lorenz_state
from tests.test_1825_lorenz import ANN, BOB, CY, DI, SEATS, after_the_start, new_game, operating, play, report_of, section

# -- a power off the map -------------------------------------------------------------------------


def real_game(unit: str) -> Game:
    """A four-player (Unit 1) or six-player (Units 1+2) game of the variant on the real data,
    after the privates were dealt, in an operating round of the LNWR directed by Ann, who owns
    C&HP and C&W."""
    players = SEATS if unit == "unit_1" else [*SEATS, "Ed", "Flo"]
    game = Game(load_title("1825", ("lorenz", unit)), players)
    return operating(game, corp="LNWR", director=ANN, privates=("C&HP", "C&W"))


def assigns(game: Game, player: str) -> list[Designate]:
    return [a for a in game.legal_actions(player) if isinstance(a, Designate)]


def test_without_p14_chp_is_never_assigned_and_the_report_and_help_say_why() -> None:
    game = real_game("unit_1")
    assert "P14" not in game.board.hexes and "C&HP" in game.state.companies
    assert assigns(game, ANN) == [Designate("C&W", "LNWR")], "C&W's power is offered, C&HP's not"
    with pytest.raises(IllegalOrderError, match=r"C&HP's power \(used on P14\) cannot be used in this game: "
                                                r"P14 is not on the map of the units in play"):
        game.apply(ANN, Designate("C&HP", "LNWR"))
    lines = section(report_of(game))
    assert "  Power of C&HP: cannot be used on this map (no P14 among the units in play)" in lines
    assert "  Power of C&W: not given yet (Ann may ASSIGN C&W LNWR)" in lines
    report = report_of(game)
    assert "ASSIGN C&HP" not in report
    reference = " ".join(help_text(title=game.title).split())
    assert ("C&HP's power (used on P14) cannot be used in this game: P14 is not on the map of the units in "
            "play, so ASSIGN C&HP is refused and never offered.") in reference
    assert "USING C&HP" not in reference, "no HELP entry for a lay that cannot be made"


def test_with_p14_chp_is_assigned_as_ever() -> None:
    game = real_game("unit_12")
    assert "P14" in game.board.hexes
    assert Designate("C&HP", "LNWR") in assigns(game, ANN)
    assert "  Power of C&HP: not given yet (Ann may ASSIGN C&HP LNWR)" in section(report_of(game))
    reference = " ".join(help_text(title=game.title).split())
    assert "LAY P14 <tile> <rotation> USING C&HP" in reference and "cannot be used in this game" not in reference
    game.apply(ANN, Designate("C&HP", "LNWR"))
    assert lorenz_state(game.state).designated == {"C&HP": "LNWR"}


# -- the NER waits for the GWR to sell out ----------------------------------------------------------


def gwr_started(variant: str, *, left_in_ipo: int, in_pool: int = 0) -> Game:
    """SR 1 after the start (Cy to act): the GWR started at £100 by Di, its shares with Ann,
    Bob and Di but ``left_in_ipo`` in the IPO and ``in_pool`` in the bank pool."""
    game = new_game((variant,))
    play(game, "Ann: BUY S&M\nBob: BUY TWW\nCy: BUY C&HP\nDi: BUY C&W\nAnn: BID L&M 215\nBob: BUY S&D")
    state = game.state
    gwr = state.corporations["GWR"]
    gwr.ipoed, gwr.floated, gwr.president, gwr.par, gwr.price = True, True, DI, (0, 4), (0, 4)
    state.market.setdefault((0, 4), []).append("GWR")
    certs = sorted(state.certs_of(IPO, "GWR"), key=lambda c: (not c.president, c.index))
    certs[0].owner = Owner.player(DI)
    ordinary = certs[1:]
    keep = len(ordinary) - left_in_ipo - in_pool
    for n, cert in enumerate(ordinary):
        if n < keep:
            cert.owner = Owner.player((ANN, BOB, DI)[n % 3])
        elif n < keep + in_pool:
            cert.owner = POOL
    assert state.percent_of(IPO, "GWR") == 10 * left_in_ipo and state.percent_of(POOL, "GWR") == 10 * in_pool
    assert game.current_actors() == [CY]
    return game


def ner_problem(game: Game) -> str | None:
    return game.hooks.stock.launch_problem(game, "NER")


def test_the_ner_waits_while_a_gwr_share_is_in_the_ipo_under_either_reading() -> None:
    for variant, words in (("lorenz", "no GWR share left in its IPO"),
                           ("lorenz_gwr_sold_out_to_players", "all ten GWR shares held by players")):
        game = gwr_started(variant, left_in_ipo=1)
        problem = ner_problem(game)
        assert problem is not None and problem.startswith(
            "no further NER shares may be bought until the GWR has sold out (as this game reads it: ")
        assert words in problem
        assert not any(isinstance(a, Par) and a.corporation == "NER" for a in game.legal_actions(CY))
        with pytest.raises(IllegalOrderError, match="until the GWR has sold out"):
            game.apply(CY, Par("NER", 100))


def test_by_default_the_gwr_has_sold_out_when_its_ipo_is_empty_shares_in_the_pool_or_not() -> None:
    game = gwr_started("lorenz", left_in_ipo=0, in_pool=2)
    assert ner_problem(game) is None
    assert Par("NER", 100) in game.legal_actions(CY)


def test_the_other_reading_counts_a_gwr_share_in_the_pool_as_not_sold_out() -> None:
    game = gwr_started("lorenz_gwr_sold_out_to_players", left_in_ipo=0, in_pool=2)
    assert "all ten GWR shares held by players, none in its IPO or the bank pool" in (ner_problem(game) or "")
    assert not any(isinstance(a, Par) and a.corporation == "NER" for a in game.legal_actions(CY))
    game = gwr_started("lorenz_gwr_sold_out_to_players", left_in_ipo=0, in_pool=0)
    assert ner_problem(game) is None


@pytest.mark.parametrize("variant, source", [("lorenz", "ipo"), ("lorenz_gwr_sold_out_to_players", "pool")])
def test_once_the_gwr_has_sold_out_the_ner_stays_open(variant: str, source: str) -> None:
    """Cy buys the last GWR share (from the IPO; under the other reading from the pool): the
    GWR "has been sold out", and a GWR share sold to the pool later does not close the NER."""
    game = gwr_started(variant, left_in_ipo=int(source == "ipo"), in_pool=int(source == "pool"))
    assert ner_problem(game) is not None and not lorenz_state(game.state).sold_out
    game.apply(CY, BuyShares("GWR", source))
    assert lorenz_state(game.state).sold_out and ner_problem(game) is None
    sold = next(c for c in game.state.certificates if c.corporation == "GWR" and c.owner == Owner.player(CY))
    sold.owner = POOL  # as a sale to the pool
    assert ner_problem(game) is None, "once sold out, for good"
    again = gwr_started(variant, left_in_ipo=int(source == "ipo"), in_pool=int(source == "pool"))
    again.apply(CY, BuyShares("GWR", source))
    assert copy_keeps(again)


def copy_keeps(game: Game) -> bool:
    """The mark survives a copy of the state (as the server forks a game)."""
    return lorenz_state(game.state.copy()).sold_out


def test_help_writes_the_reading_of_sold_out_and_the_variant_of_the_other() -> None:
    default = " ".join(help_text(title=new_game().title).split())
    assert ("no further NER shares may be bought until the GWR has sold out, which this game reads as no GWR "
            "share left in its IPO; once sold out, for good. (The variant lorenz_gwr_sold_out_to_players reads "
            "it as all ten GWR shares held by players, none in its IPO or the bank pool.)") in default
    assert "The free NER share may not be sold before the NER's Director's certificate is bought." in default
    other = " ".join(help_text(title=new_game(("lorenz_gwr_sold_out_to_players",)).title).split())
    assert ("which this game reads as all ten GWR shares held by players, none in its IPO or the bank pool; "
            "once sold out, for good. (The variant lorenz reads it as no GWR share left in its IPO.)") in other


@pytest.mark.parametrize("unit, example", [("unit_1", "ASSIGN C&W LNWR"), ("unit_2", "ASSIGN C&HP LNWR"),
                                           ("unit_3", "ASSIGN TWW CR"), ("unit_12", "ASSIGN C&HP LNWR")])
def test_helps_assign_example_names_a_power_usable_on_the_map_and_a_company_in_play(unit: str, example: str) -> None:
    """HELP's example of ASSIGN is an order the game accepts: C&HP only where P14 is on the
    map (Unit 1 alone has none), a company of the units in play (Unit 3 alone has no LNWR)."""
    from pbem.orders import parse_order
    from pbem.order_codecs import Vocabulary

    title = load_title("1825", ("lorenz", unit))
    reference = help_text(title=title)
    assert f"e.g. {example}\n" in reference
    found = parse_order(example, Vocabulary.from_title(title))
    assert isinstance(found, Designate) and found.company in {c.sym for c in title.companies}
    assert found.corporation in {c.sym for c in title.corporations}
