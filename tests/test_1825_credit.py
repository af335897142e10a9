"""1825: a company in receivership spends on credit only what its run can repay (issue 19).

Built positions in Unit 1 (with R1): GER in receivership (no Director), with a token in one
of London's cities, spends on a mountain (S7, £100), a water city (W23, £40), its station
token (£100, its third) and the lease (£10). A spending the run of its trains after it could
not repay is neither offered (the legal moves, the report's "you may") nor accepted, so the
run that follows always repays the loan and the game goes on; a spending it repays is
allowed. The variant ``receivership_no_credit`` reads the rule as no credit at all.
"""

from __future__ import annotations

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine.actions import LayTile, Pass, PlaceToken, RunAuto
from pbem.engine.game import Game
from pbem.engine.lays import legal_lays
from pbem.engine.steps.operating import Track, walk
from pbem.errors import IllegalOrderError
from pbem.report_sections import options
from pbem.ruleset import load_title
from pbem.titles.g1825 import credit, trains
from pbem.titles.g1825.trains import Lease
from tests.test_1825_operating import A, new_game, operate, rotation, total_money


def mountain_position(cash: int) -> Game:
    """GER (in receivership, a 2-train, ``cash``) with its token in R8 (a yellow city #5
    facing the mountain S7 and the blank R6): no other stop, so no run."""
    game = operate(new_game(), "GER", president=None, cash=cash, owned=(TrainId("2", 0),), tokens=(CityRef("R8", 0),))
    game.state.phase = "2"
    game.state.tiles["R8"] = ("5", rotation(game, "R8", "5", ("S7", "R6")))
    walk.start_corporation_turns(game)
    return game


def water_position(cash: int, *, owned: tuple[TrainId, ...] = (TrainId("2", 0),)) -> Game:
    """GER (in receivership, ``cash``, the trains ``owned``) with its token in London's
    V20.5 (£50, facing W21) and track on W21 to the water city W23 (£40 to build): a 2-train
    runs London-W23 for £70 once W23 has its tile."""
    game = operate(new_game(), "GER", president=None, cash=cash, owned=owned, tokens=(CityRef("V20", 5),))
    game.state.phase = "2"
    game.state.tiles["W21"] = ("8", rotation(game, "W21", "8", ("V20", "W23")))
    walk.start_corporation_turns(game)
    return game


def w23_lay(game: Game) -> LayTile:
    """The yellow city #6 on W23 joined to W21 (and X24)."""
    return LayTile("W23", "6", rotation(game, "W23", "6", ("W21", "X24")))


def test_a_lay_on_credit_no_run_could_repay_is_neither_offered_nor_accepted() -> None:
    game = mountain_position(cash=0)
    assert trains.spending_power(game, "GER") == 200  # the credit is there ...
    assert "S7" not in {lay.hex for lay in legal_lays(game)}  # ... but nothing runs to repay it
    lay = next(LayTile(x.hex, x.tile, x.rotation) for x in legal_lays(mountain_position(cash=100)) if x.hex == "S7")
    problem = Track.problem(game, "GER", lay)
    assert problem is not None and "on credit" in problem and "earns £0" in problem
    with pytest.raises(IllegalOrderError, match="on credit"):
        game.apply(A, lay)
    assert game.state.corporations["GER"].cash == 0 and "S7" not in game.state.tiles
    assert not any(line.startswith("S7") for line in options(game, A))
    # paid from the treasury, no credit: the same lay is offered and accepted
    game = mountain_position(cash=100)
    assert "S7" in {lay.hex for lay in legal_lays(game)}
    game.apply(A, lay)
    assert game.state.corporations["GER"].cash == 0


def test_a_lay_on_credit_the_run_repays_is_allowed_then_the_run_repays_it() -> None:
    game = water_position(cash=0)
    money = total_money(game)
    lay = w23_lay(game)
    assert lay in game.legal_actions(A)
    game.apply(A, lay)
    assert game.state.corporations["GER"].cash == -40
    game.apply(A, Pass())
    events = game.apply(A, RunAuto())
    assert any(isinstance(e, trains.LoanRepaid) and e.amount == 40 for e in events)
    assert game.state.corporations["GER"].cash == 30  # £70 withheld, less the £40 repaid
    assert total_money(game) == money


def southend_position(cash: int) -> Game:
    """GER (in receivership, a 2-train, ``cash``) with a token in London's V20.4 (£50,
    facing Southend V22, £20: a £70 run) and a second one in R8 (a yellow #5 far away), so
    its next token costs £100."""
    game = operate(new_game(), "GER", president=None, cash=cash, owned=(TrainId("2", 0),), tokens=(CityRef("V20", 4), CityRef("R8", 0)))
    game.state.phase = "2"
    game.state.tiles["R8"] = ("5", rotation(game, "R8", "5", ("S7", "R6")))
    walk.start_corporation_turns(game)
    return game


def test_a_token_on_credit_is_allowed_only_while_the_run_repays_it() -> None:
    token = PlaceToken("V22", 0)
    game = southend_position(cash=0)  # £100 on credit against a £70 run
    assert token not in game.legal_actions(A)
    assert not any("TOKEN V22" in line for line in options(game, A))
    with pytest.raises(IllegalOrderError, match="earns £70"):
        game.apply(A, token)
    assert game.state.corporations["GER"].cash == 0
    game = southend_position(cash=30)  # £70 on credit: the run repays it
    assert token in game.legal_actions(A)
    assert any("TOKEN V22" in line for line in options(game, A))
    game.apply(A, token)
    assert game.state.corporations["GER"].cash == -70
    game.apply(A, Pass())
    events = game.apply(A, RunAuto())
    assert any(isinstance(e, trains.LoanRepaid) and e.amount == 70 for e in events)
    assert game.state.corporations["GER"].cash == 0


def test_a_lease_on_credit_needs_a_run_of_the_leased_train_that_repays_it() -> None:
    game = water_position(cash=5, owned=())  # no train, no tile on W23: no run
    assert not trains.LeaseTrain.offers(game)
    assert Lease("2") not in game.legal_actions(A)
    with pytest.raises(IllegalOrderError):
        game.apply(A, Lease("2"))
    with pytest.raises(IllegalOrderError, match="lease of a 2 train .* earns £0"):
        trains.lease(game, "GER", "2")
    game = water_position(cash=10, owned=())  # paid from the treasury: no credit to repay
    assert Lease("2") in game.legal_actions(A)
    game = water_position(cash=5, owned=())
    game.state.tiles["W23"] = ("6", w23_lay(game).rotation)  # now a leased 2-train runs £70
    assert Lease("2") in game.legal_actions(A)
    game.apply(A, Lease("2"))
    assert game.state.corporations["GER"].cash == -5


def test_the_variant_receivership_no_credit_spends_the_treasury_alone() -> None:
    assert credit.credit_allowed(water_position(cash=0))  # the default reading
    game = Game(load_title("1825", ("unit_1", "r1", credit.OTHER_READING)), [A, "Bob"])
    game = operate(game, "GER", president=None, cash=0, owned=(TrainId("2", 0),), tokens=(CityRef("V20", 5),))
    game.state.phase = "2"
    game.state.tiles["W21"] = ("8", rotation(game, "W21", "8", ("V20", "W23")))
    walk.start_corporation_turns(game)
    assert not credit.credit_allowed(game)
    assert game.hooks.track.spending_power(game, "GER") == 0
    assert "W23" not in {lay.hex for lay in legal_lays(game)}
    with pytest.raises(IllegalOrderError, match="terrain costs"):
        game.apply(A, w23_lay(game))
