"""Lorenz's powers in the legal moves (issue 12 and the project's rule "one definition of
legality: the same legal-move generator checks an order, writes HELP and the report's 'you
may', and explains a refusal"): ``ASSIGN`` and the powers' uses (``LAY K13 ... USING TWW``,
``LAY P14 ... USING C&HP``, ``TOKEN W25 USING C&W``) are among the game's legal actions and the
report's offer whenever they are legal for the acting Director, and not otherwise (another's
private, no designation, used, closed); a refused one says why, from the same check.

Built on the small board of :mod:`tests.test_1825_lorenz`.
"""

from __future__ import annotations

import pytest

from pbem.engine.actions import Dividend
from pbem.engine.game import Game
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.report_sections import options
from pbem.titles.g1825.lorenz.actions import Designate, PowerLay, PowerToken
from pbem.titles.g1825.lorenz.powers import assign_problem, use_problem
from pbem.titles.g1825.lorenz.state import lorenz_state
from tests.test_1825_lorenz import ANN, BOB, after_the_start, operating, report_of

POWERS = (Designate, PowerLay, PowerToken)


def powers_offered(game: Game, player: str) -> list[object]:
    """The variant's orders among ``player``'s legal actions."""
    return [a for a in game.legal_actions(player) if isinstance(a, POWERS)]


def lnwr_operating() -> Game:
    """OR: the LNWR (Ann, £500) operates; Ann owns TWW, C&HP and C&W, none designated."""
    return operating(after_the_start())


def test_assign_is_offered_to_the_owner_for_each_operating_company_they_direct() -> None:
    game = lnwr_operating()
    assert powers_offered(game, ANN) == [Designate("TWW", "LNWR"), Designate("C&HP", "LNWR"), Designate("C&W", "LNWR")]
    assert powers_offered(game, BOB) == [], "not the player to act"
    assert Designate("TWW", "GWR") not in game.legal_actions(ANN), "the GWR has not floated"


def test_assign_is_not_offered_for_anothers_private_nor_once_given() -> None:
    game = lnwr_operating()
    state = game.state
    state.companies["TWW"].owner = Owner.player(BOB)
    state.players[ANN].companies.remove("TWW")
    state.players[BOB].companies.append("TWW")
    assert Designate("TWW", "LNWR") not in game.legal_actions(ANN)
    game.apply(ANN, Designate("C&HP", "LNWR"))
    assert powers_offered(game, ANN)[:1] == [Designate("C&W", "LNWR")], "C&HP's is given: no ASSIGN C&HP"


def test_a_power_is_offered_once_designated_to_the_operating_company() -> None:
    game = lnwr_operating()
    assert not any(isinstance(a, (PowerLay, PowerToken)) for a in game.legal_actions(ANN)), "no designation yet"
    game.apply(ANN, Designate("TWW", "LNWR"))
    game.apply(ANN, Designate("C&W", "LNWR"))
    tww = [a for a in game.legal_actions(ANN) if isinstance(a, PowerLay)]
    assert tww and {a.hex for a in tww} == {"K13"} and {a.using for a in tww} == {"TWW"}
    assert all(use_problem(game, ANN, a) is None for a in tww)
    assert PowerToken("W25", 0, "C&W") in game.legal_actions(ANN)
    game.apply(ANN, tww[0])
    assert not any(isinstance(a, PowerLay) for a in game.legal_actions(ANN)), "TWW's power is used"
    game.apply(ANN, PowerToken("W25", 0, "C&W"))
    assert PowerToken("W25", 0, "C&W") not in game.legal_actions(ANN), "C&W has closed"


def test_a_power_is_not_offered_to_another_company_nor_once_closed() -> None:
    game = operating(after_the_start(), corp="GWR")
    lorenz_state(game.state).designated["TWW"] = "LNWR"  # held by a company not operating now
    assert not any(isinstance(a, PowerLay) for a in game.legal_actions(ANN))
    lorenz_state(game.state).designated["TWW"] = "GWR"
    assert any(isinstance(a, PowerLay) for a in game.legal_actions(ANN))
    game.close_all_companies()  # the first 5-train
    assert powers_offered(game, ANN) == []


def test_chp_is_offered_where_the_companys_track_reaches_p14() -> None:
    game = lnwr_operating()
    game.apply(ANN, Designate("C&HP", "LNWR"))
    chp = [a for a in game.legal_actions(ANN) if isinstance(a, PowerLay) and a.using == "C&HP"]
    assert chp and {a.hex for a in chp} == {"P14"}
    far = operating(after_the_start(), corp="GWR")
    far.apply(ANN, Designate("C&HP", "GWR"))
    assert not any(isinstance(a, PowerLay) for a in far.legal_actions(ANN)), "the GWR's track is far from P14"


def test_the_report_offers_assign_and_the_uses() -> None:
    game = lnwr_operating()
    offered = options(game, ANN)
    assert any(line.startswith("ASSIGN TWW LNWR") for line in offered)
    game.apply(ANN, Designate("TWW", "LNWR"))
    game.apply(ANN, Designate("C&W", "LNWR"))
    offered = options(game, ANN)
    assert any(line.startswith("LAY K13 ") and "USING TWW" in line for line in offered)
    assert any(line.startswith("TOKEN W25 USING C&W") for line in offered)
    text = report_of(game)
    assert "TOKEN W25 USING C&W" in text and "USING TWW" in text


def test_a_refused_power_order_says_why_from_the_same_check() -> None:
    game = lnwr_operating()
    lay = PowerLay("K13", "3", 0, "TWW")
    cases = [
        (ANN, lay, "TWW's power is not given to any company, not to LNWR"),
        (ANN, PowerToken("W25", 0, "C&W"), "C&W's power is not given to any company, not to LNWR"),
    ]
    for player, action, reason in cases:
        assert use_problem(game, player, action) == reason
        with pytest.raises(IllegalOrderError, match=reason):
            game.apply(player, action)
    game.apply(ANN, Designate("TWW", "LNWR"))
    assert use_problem(game, BOB, lay) == "Bob does not direct LNWR"
    with pytest.raises(IllegalOrderError, match="Bob does not direct LNWR"):
        game.apply(BOB, lay)
    assert assign_problem(game, ANN, "TWW", "LNWR") == (
        "TWW's power has been given to LNWR, and a designation stands once given")
    with pytest.raises(IllegalOrderError, match="and a designation stands once given"):
        game.apply(ANN, Designate("TWW", "LNWR"))
    game.close_all_companies()
    assert use_problem(game, ANN, lay) == "TWW's power has been used or has closed"


def test_a_refusal_of_another_order_names_the_powers_among_what_is_possible() -> None:
    game = lnwr_operating()
    with pytest.raises(IllegalOrderError, match=r"dividend is not possible now; .*\(possible now: .*designate"):
        game.apply(ANN, Dividend("payout"))
    game.apply(ANN, Designate("C&W", "LNWR"))
    with pytest.raises(IllegalOrderError, match=r"\(possible now: .*power token"):
        game.apply(ANN, Dividend("payout"))
