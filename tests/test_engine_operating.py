"""The 1830 operating round (rules 6) on small hand-built positions: track, tokens, routes,
dividends, trains, phases, the forced train purchase and bankruptcy."""

from __future__ import annotations

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine.sequence import RoundSequence
from pbem.engine import market, upgrades
from pbem.engine.actions import (
    Bankrupt,
    BuyPrivate,
    BuyTrain,
    DiscardTrain,
    Dividend,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
    TrainRun,
)
from pbem.engine.game import Game
from pbem.engine.settings import TileLay
from pbem.engine.state import POOL, RoundState, StockRoundState
from pbem.engine.values import Owner
from pbem.engine.events import render_all
from pbem.ruleset import load_title
from pbem.errors import IllegalOrderError
from tests.changed import with_settings

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


def float_corp(game: Game, sym: str, president: str, price: int, cash: int) -> None:
    """Start ``sym`` at ``price`` with ``president`` holding 60% and ``cash`` in its treasury."""
    state = game.state
    coord = market.par_coord(game.title, price)
    assert coord is not None
    corp = state.corporations[sym]
    corp.par = coord
    market.place(state, sym, coord)
    corp.ipoed = corp.floated = True
    corp.president = president
    corp.cash = cash
    for cert in state.certificates:
        if cert.corporation == sym and cert.index <= 4:
            cert.owner = Owner.player(president)


def operating(game: Game) -> Game:
    """Privates sold at face value, then straight into OR 1 with what the test floated."""
    game.state.round.stock = StockRoundState()
    game.begin_round(RoundState(kind="operating", number=1, or_number=1))
    return game


@pytest.fixture
def game() -> Game:
    g = Game(load_title("1830"), [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA")):
        g.apply(player, BuyPrivate(company))
    return g


def test_operating_order_and_home_token(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    float_corp(game, "NYC", P2, 90, 900)
    operating(game)
    assert game.state.round.operating.order == ["PRR", "NYC"]
    assert game.operating_corporation() == "PRR"
    assert game.state.tokens[CityRef("H12", 0)] == ["PRR"], "the home token goes down when PRR first operates"
    assert game.current_actors() == [P1]


def test_privates_pay_at_the_start_of_the_operating_round(game: Game) -> None:
    before = game.state.players[P2].cash
    float_corp(game, "PRR", P1, 100, 1000)
    operating(game)
    assert game.state.players[P2].cash == before + 10 + 25


def test_tile_lay_rules(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    operating(game)
    with pytest.raises(IllegalOrderError, match="does not reach G9"):
        game.apply(P1, LayTile("G9", "9", 0))
    with pytest.raises(IllegalOrderError, match="runs off the map"):
        game.apply(P1, LayTile("B12", "9", 0))
    with pytest.raises(IllegalOrderError, match="no tile #999"):
        game.apply(P1, LayTile("H14", "999", 0))
    with pytest.raises(IllegalOrderError, match="green tiles are not available in phase 2"):
        game.apply(P1, LayTile("H14", "14", 0))
    with pytest.raises(IllegalOrderError, match="does not connect"):
        game.apply(P1, LayTile("H14", "9", 0))
    events = render_all(game.apply(P1, LayTile("H14", "9", 1)), game.money)
    assert "PRR lays tile #9 with rotation 1 on H14" in events
    assert game.state.tiles["H14"] == ("9", 1)
    with pytest.raises(IllegalOrderError):
        game.apply(P1, LayTile("H16", "57", 1))


def test_terrain_cost_is_paid_from_the_treasury(game: Game) -> None:
    float_corp(game, "NYC", P2, 90, 900)
    operating(game)
    # E19 is NYC's home (Albany); D18 is blocked by MH while a player owns it.
    with pytest.raises(IllegalOrderError, match="blocked by the private company MH"):
        game.apply(P2, LayTile("D18", "9", 0))
    game.apply(P2, LayTile("E19", "57", 0))
    assert game.state.corporations["NYC"].cash == 900


def test_upgrade_must_keep_every_path(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    game.state.phase = "3"
    game.state.tiles["H14"] = ("9", 1)
    operating(game)
    with pytest.raises(IllegalOrderError, match="drops track"):
        game.apply(P1, LayTile("H14", "23", 0))
    problems = []
    for rotation in range(6):
        try:
            game.apply(P1, LayTile("H14", "23", rotation))
            break
        except IllegalOrderError as exc:
            problems.append(str(exc))
    assert game.state.tiles["H14"][0] == "23", problems


def test_station_token_needs_reach_a_slot_and_money(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    operating(game)
    game.apply(P1, Pass())
    with pytest.raises(IllegalOrderError, match="does not reach the city on H10"):
        game.apply(P1, PlaceToken("H10"))
    with pytest.raises(IllegalOrderError, match="the city on E19 has no free slot"):
        game.apply(P1, PlaceToken("E19"))  # NYC's home, held for it
    events = render_all(game.apply(P1, PlaceToken("H16")), game.money)
    assert "PRR places a token on H16 for $40" in events
    assert game.state.corporations["PRR"].cash == 960


def test_routes_are_checked_and_revenue_computed(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    game.state.corporations["PRR"].trains = [TrainId("2", 0), TrainId("2", 1)]
    game.state.depot.remove(TrainId("2", 0))
    game.state.depot.remove(TrainId("2", 1))
    game.state.types_sold.append("2")
    operating(game)
    game.apply(P1, Pass())
    game.apply(P1, Pass())
    with pytest.raises(IllegalOrderError, match="reusing track"):
        game.apply(P1, RunRoutes((TrainRun("2", ("H12", "H16")), TrainRun("2", ("H16", "H12")))))
    with pytest.raises(IllegalOrderError, match="may visit 2 stops"):
        game.apply(P1, RunRoutes((TrainRun("2", ("H12", "H16", "H18")),)))
    with pytest.raises(IllegalOrderError, match="not a stop"):
        game.apply(P1, RunRoutes((TrainRun("2", ("H12", "H14")),)))
    events = render_all(game.apply(P1, RunRoutes((TrainRun("2", ("H12", "H16")),))), game.money)
    assert "PRR runs a 2 train for $30: H12-H16" in events
    assert game.state.round.operating.revenue == 30


def test_payout_and_withhold_move_the_price(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    game.state.corporations["PRR"].trains = [TrainId("2", 0)]
    game.state.depot.remove(TrainId("2", 0))
    game.state.types_sold.append("2")
    pool_cert = next(c for c in game.state.certificates if c.corporation == "PRR" and c.index == 5)
    pool_cert.owner = POOL
    operating(game)
    game.apply(P1, Pass())
    game.apply(P1, Pass())
    game.apply(P1, RunRoutes((TrainRun("2", ("H12", "H16")),)))
    cash = game.state.players[P1].cash
    events = render_all(game.apply(P1, Dividend("payout")), game.money)
    assert game.state.players[P1].cash == cash + 18, "60% of $30"
    assert game.state.corporations["PRR"].cash == 1003, "the pool's share pays the corporation"
    assert game.share_price("PRR") == 112
    assert any("pays out $30" in e for e in events)


def test_no_revenue_moves_the_price_left(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    operating(game)
    game.apply(P1, Pass())
    game.apply(P1, Pass())  # no token
    assert game.share_price("PRR") == 90, "did not run: price one to the left"


def test_buying_trains_phases_and_rust(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 2000)
    game.state.depot = [t for t in game.state.depot if t.kind != "2"]
    operating(game)
    game.apply(P1, Pass())
    with pytest.raises(IllegalOrderError, match="no 4 train is for sale"):
        game.apply(P1, BuyTrain("4"))
    events = render_all(game.apply(P1, BuyTrain("3")), game.money)
    assert "-- Phase 3 (operating rounds: 2, train limit: 4, tiles: yellow, green) --" in events
    assert game.state.phase == "3"


def test_first_four_rusts_the_twos_and_a_crowded_corporation_discards(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 2000)
    float_corp(game, "NYC", P2, 90, 900)
    game.state.corporations["NYC"].trains = [TrainId("3", 0), TrainId("3", 1), TrainId("3", 2), TrainId("3", 3)]
    game.state.corporations["PRR"].trains = [TrainId("2", 0)]
    game.state.depot = [t for t in game.state.depot if t.kind[0] not in "23"] + []
    game.state.phase = "3"
    game.state.types_sold += ["2", "3"]
    operating(game)
    game.apply(P1, Pass())
    events = render_all(game.apply(P1, BuyTrain("4")), game.money)
    assert "PRR loses 2-0 (rusted)" in events
    assert game.state.phase == "4"
    assert game.current_actors() == [P2], "NYC is over the limit of 3: its president discards"
    with pytest.raises(IllegalOrderError, match="first discard a train"):
        game.apply(P1, Pass())
    game.apply(P2, DiscardTrain("3"))
    assert game.state.corporations["NYC"].trains == [TrainId("3", 1), TrainId("3", 2), TrainId("3", 3)]
    assert game.state.pool_trains == [TrainId("3", 0)]


def train_due(game: Game) -> None:
    """Before OR 2.1: PRR (P1, $20) has a route (H12 to H16) and no train; P1 has $20 (and
    $25 of private income to come) and one NYC share ($90); NYC (P2) has $900."""
    float_corp(game, "PRR", P1, 100, 20)
    float_corp(game, "NYC", P2, 90, 900)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    nyc = next(c for c in game.state.certificates if c.corporation == "NYC" and c.index == 5)
    nyc.owner = Owner.player(P1)
    game.state.players[P1].cash = 20  # + $25 from SV and MH when the round starts
    game.state.round.number = 2


def test_forced_purchase_president_pays_then_sells_then_bankrupt(game: Game) -> None:
    train_due(game)
    operating(game)
    game.apply(P1, Pass())  # no track; no token: PRR cannot pay for one
    with pytest.raises(IllegalOrderError, match="must buy a train"):
        game.apply(P1, Pass())
    with pytest.raises(IllegalOrderError, match="sell shares first"):
        game.apply(P1, BuyTrain("2"))
    with pytest.raises(IllegalOrderError, match="only as many shares as needed"):
        game.apply(P1, SellShares("NYC", 2))
    other = next(c for c in game.state.certificates if c.corporation == "PRR" and c.index == 6)
    other.owner = Owner.player(P2)
    other = next(c for c in game.state.certificates if c.corporation == "PRR" and c.index == 7)
    other.owner = Owner.player(P2)
    with pytest.raises(IllegalOrderError, match="may not sell the presidency of PRR"):
        game.apply(P1, SellShares("PRR", 5))
    game.apply(P1, SellShares("NYC"))
    assert game.state.players[P1].cash == 45 + 90
    events = render_all(game.apply(P1, BuyTrain("2")), game.money)
    assert "Player 1 contributes $60" in events
    assert game.state.players[P1].cash == 75
    assert game.state.corporations["PRR"].cash == 0


def test_bankruptcy_ends_the_game(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 0)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    game.state.players[P1].cash = 0
    game.state.depot = [t for t in game.state.depot if t.kind != "2"]
    operating(game)
    game.apply(P1, Pass())
    # P1's four PRR shares would fetch $400: bankruptcy is for money that cannot be raised
    with pytest.raises(IllegalOrderError, match="sell shares"):
        game.apply(P1, Bankrupt())
    for cert in game.state.certificates:  # the pool full of PRR: P1 can sell none
        if cert.corporation == "PRR" and cert.index in (1, 2, 3, 4, 5):
            cert.owner = POOL
    events = render_all(game.apply(P1, Bankrupt()), game.money)
    assert game.state.finished and game.state.end_reason == "bankrupt"
    assert any(e.startswith("-- Game over (bankrupt)") for e in events)
    with pytest.raises(IllegalOrderError, match="game is over"):
        game.apply(P2, Pass())


def test_corporation_buys_a_private_in_phase_3(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    operating(game)
    game.apply(P1, Pass())
    with pytest.raises(IllegalOrderError, match="may not buy private companies in phase 2"):
        game.apply(P1, BuyPrivate("CS", 40))
    game.state.phase = "3"
    with pytest.raises(IllegalOrderError, match=r"\$20 to \$80"):
        game.apply(P1, BuyPrivate("CS", 90))
    events = render_all(game.apply(P1, BuyPrivate("CS", 80)), game.money)
    assert "PRR buys CS from Player 2 for $80" in events
    assert game.state.companies["CS"].owner == Owner.corporation("PRR")


def test_bank_broken_ends_the_game_after_the_set_of_operating_rounds(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    operating(game)
    game.state.bank = 10
    game.apply(P1, Pass())
    game.apply(P1, Pass())
    assert game.state.finished is False or game.state.end_reason == "bank"
    # After the privates paid at the next round the bank is broken; the game ends when
    # this set of operating rounds ends.
    game.state.bank = -1
    game.check_bank()
    assert game.state.bank_broken


def test_par_in_stock_round_still_works_after_operating(game: Game) -> None:
    game.apply(P3, BuyPrivate("BO"))
    game.apply(P3, Par("B&O", 100))
    assert game.round_label() == "SR 1"


def test_two_new_tiles_or_one_upgrade_where_the_title_says_so(game: Game) -> None:
    """1870's tile lays (data: game.yaml tile_lays), on 1830's board."""
    game.title = with_settings(game.title, tile_lays=(TileLay(True, True, cannot_reuse_same_hex=True),
                                                      TileLay("not_if_upgraded", False)))
    float_corp(game, "PRR", P1, 100, 1000)
    operating(game)
    game.apply(P1, LayTile("H14", "9", 1))
    assert game.current_actors() == [P1], "a second new tile may follow"
    game.apply(P1, LayTile("H16", "57", 1))
    assert game.state.tiles["H16"] == ("57", 1)
    assert "track" in game.state.round.operating.passed_steps or game.state.round.operating.tiles_laid == 2


def test_half_pay_is_not_an_1830_choice(game: Game) -> None:
    float_corp(game, "PRR", P1, 100, 1000)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    game.state.corporations["PRR"].trains = [TrainId("2", 0)]
    game.state.depot.remove(TrainId("2", 0))
    game.state.types_sold.append("2")
    operating(game)
    game.apply(P1, Pass())
    game.apply(P1, Pass())
    game.apply(P1, RunRoutes((TrainRun("2", ("H12", "H16")),)))
    with pytest.raises(IllegalOrderError, match="half is not a choice in 1830"):
        game.apply(P1, Dividend("half"))


def test_a_token_order_no_step_takes_gets_the_token_checks_reason(game: Game) -> None:
    """A TOKEN refused because the token step is not open now says why that token may not
    be placed (the one token check), for the operating corporation's president only."""
    float_corp(game, "PRR", P1, 100, 1000)
    operating(game)
    with pytest.raises(IllegalOrderError, match=r"place token is not possible now \(PRR's track does not reach "
                                                r"the city on E5\); Player 1 must lay"):
        game.apply(P1, PlaceToken("E5"))
    with pytest.raises(IllegalOrderError, match=r"not possible now \(PRR already has a token on H12\)"):
        game.apply(P1, PlaceToken("H12"))
    with pytest.raises(IllegalOrderError, match=r"place token is not possible now; Player 1 must"):
        game.apply(P2, PlaceToken("E5"))


def test_a_step_may_name_who_acts_in_the_reports_task_line() -> None:
    import dataclasses

    from pbem import report_sections
    from pbem.engine.hooks import TitleHooks
    from pbem.engine.steps.operating import CORE_STEPS, OpStep, Track

    class PrivatesTrack(Track):
        @classmethod
        def heading(cls, game: Game) -> str | None:
            return "the Delaware & Hudson's own lay"

    class Hooks(RoundSequence):
        def operating_steps(self) -> tuple[type[OpStep], ...]:
            return tuple(PrivatesTrack if step is Track else step for step in CORE_STEPS)

    for hooks, heading in ((TitleHooks(), "PRR ($1000 in the treasury): "), (TitleHooks(sequence=Hooks()), "the Delaware & Hudson's own lay: ")):
        game = Game(dataclasses.replace(load_title("1830"), hooks=hooks), [P1, P2, P3])
        for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA")):
            game.apply(player, BuyPrivate(company))
        float_corp(game, "PRR", P1, 100, 1000)
        operating(game)
        assert report_sections.options(game, P1)[0].startswith(heading)


def test_1830_lays_track_before_its_token_a_lay_after_the_token_is_refused(game: Game) -> None:
    """1830 rules 6.2-6.3: track, then a token; a TOKEN passes the track step (1825's one
    step for both in either order is its own, pbem/titles/g1825/track_and_token.py)."""
    float_corp(game, "PRR", P1, 100, 1000)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    operating(game)
    lay = next(a for a in game.legal_actions(P1) if isinstance(a, LayTile))  # legal before the token
    game.apply(P1, PlaceToken("H16"))
    assert not any(isinstance(a, LayTile) for a in game.legal_actions(P1))
    with pytest.raises(IllegalOrderError, match="lay tile is not possible now"):
        game.apply(P1, lay)
    assert lay.hex not in game.state.tiles


@pytest.mark.parametrize("title", ["1830", "1870"])
def test_1830_and_1870_keep_track_then_token_as_two_steps(title: str) -> None:
    from pbem.engine.steps.operating import Token, Track

    steps = Game(load_title(title), [P1, P2, P3]).operating_steps
    track = next(i for i, s in enumerate(steps) if issubclass(s, Track))
    token = next(i for i, s in enumerate(steps) if issubclass(s, Token))
    assert track < token
    assert not any(LayTile in s.takes and PlaceToken in s.takes for s in steps)


def _prr_with_the_dh(game: Game) -> Game:
    float_corp(game, "PRR", P1, 100, 1000)
    game.state.companies["DH"].owner = Owner.corporation("PRR")
    game.state.players[P3].companies.remove("DH")
    return operating(game)


def test_the_dh_tile_brings_its_free_token_while_one_is_left(game: Game) -> None:
    """1830's D&H: the owning corporation lays tile 57 on F16, and may place a station token
    there free; with a token left it is offered, and PASS declines it."""
    _prr_with_the_dh(game)
    lay = next(a for a in game.legal_actions(P1) if isinstance(a, LayTile) and a.using == "DH")
    game.apply(P1, lay)
    assert game.state.pending_teleport == "F16"
    assert PlaceToken("F16", 0) in game.legal_actions(P1)


def test_with_no_token_left_the_dh_tile_comes_alone(game: Game) -> None:
    """Every one of PRR's four tokens is on the map: the D&H's tile is laid, no token is
    offered, and the turn goes on to the run."""
    _prr_with_the_dh(game)
    for coord in ("E5.0", "D10.0", "E11.0"):
        game.state.tokens[CityRef.parse(coord)] = ["PRR"]
    lay = next(a for a in game.legal_actions(P1) if isinstance(a, LayTile) and a.using == "DH")
    game.apply(P1, lay)
    assert game.state.pending_teleport is None
    assert not [a for a in game.legal_actions(P1) if isinstance(a, PlaceToken)]


def test_two_tokens_with_no_track_between_them_are_no_route(game: Game) -> None:
    """PRR's home token on H12 and the D&H's token on F16 are both stops of PRR's, but no
    track joins them or either to another stop: PRR has no route, so its run is no step of
    its turn (1830 rules 6.5) and a train bought next is its order after the token."""
    from pbem.engine.steps.operating import route_available

    _prr_with_the_dh(game)
    game.state.corporations["PRR"].trains.append(game.state.depot.pop(0))
    lay = next(a for a in game.legal_actions(P1) if isinstance(a, LayTile) and a.using == "DH")
    game.apply(P1, lay)
    game.apply(P1, PlaceToken("F16", 0))
    assert not route_available(game, "PRR")
    assert not [a for a in game.legal_actions(P1) if isinstance(a, RunRoutes)]
    game.apply(P1, BuyTrain("2"))
    assert len(game.state.corporations["PRR"].trains) == 2


def test_a_home_city_upgraded_before_the_home_token_keeps_its_track(game: Game) -> None:
    """NYNH's home is the New York city of G19 whose track leaves by edge 3. Tile 54 laid
    there first (rotation 0) gives that track to its city 1: NYNH's home token goes there,
    and that city keeps its slot (1830 rules 6.1, 6.2: an upgrade keeps each city's track)."""
    from pbem.engine.steps.operating.tokens import place_home_token
    from pbem.engine.values import CityRef

    game.state.tiles["G19"] = ("54", 0)
    assert game.hooks.track.homes(game, "NYNH") == (CityRef("G19", 1),)
    place_home_token(game, "NYNH")
    assert game.state.tokens == {CityRef("G19", 1): ["NYNH"]}


def test_corporations_over_the_limit_discard_in_charter_order(game: Game) -> None:
    """NYC and ERIE are both over the limit once the first 4 is bought; ERIE's price is the
    higher (it operates first) but NYC comes first among the charters, so NYC discards
    first (the rules leave the order open; 18xx.games takes its list of corporations)."""
    from pbem.engine.steps.operating.buytrains import crowded

    float_corp(game, "PRR", P1, 100, 2000)
    float_corp(game, "NYC", P2, 67, 900)
    float_corp(game, "ERIE", P3, 90, 900)
    game.state.corporations["NYC"].trains = [TrainId("3", 0), TrainId("3", 1), TrainId("3", 2), TrainId("3", 3)]
    game.state.corporations["ERIE"].trains = [TrainId("3", 4), TrainId("3", 5), TrainId("3", 6), TrainId("3", 7)]
    game.state.corporations["PRR"].trains = [TrainId("2", 0)]
    game.state.depot = [t for t in game.state.depot if t.kind[0] not in "23"]
    game.state.phase = "3"
    game.state.types_sold += ["2", "3"]
    operating(game)
    game.apply(P1, Pass())
    game.apply(P1, BuyTrain("4"))
    assert crowded(game) == ["NYC", "ERIE"] and game.current_actors() == [P2]
    game.apply(P2, DiscardTrain("3"))
    assert game.current_actors() == [P3]


def test_declining_the_dh_token_leaves_the_turns_own_token(game: Game) -> None:
    """The D&H's free token is the private's offer: a PASS declines it, and PRR may still
    place its own station token this turn (here on H16, which its track reaches)."""
    _prr_with_the_dh(game)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    lay = next(a for a in game.legal_actions(P1) if isinstance(a, LayTile) and a.using == "DH")
    game.apply(P1, lay)
    game.apply(P1, Pass())
    assert game.state.pending_teleport is None
    assert PlaceToken("H16", 0) in game.legal_actions(P1)
    game.apply(P1, PlaceToken("H16", 0))
    assert game.state.tokens[CityRef("H16", 0)] == ["PRR"]


def test_the_two_cities_of_an_oo_hex_stay_separate_cities_in_an_upgrade(game: Game) -> None:
    """#59 on E11 joins side 0 to one city and side 2 to the other. #64 turned so that both
    sides run into its one city would make the two one city, and their two tokens could not
    share its station: refused (1830 rules 6.2). Turned 2, each old city has a city of its
    own and keeps its token there."""
    from pbem.engine.steps.operating.tracklay import lay_tile

    game.state.phase = "5"
    game.state.tiles["E11"] = ("59", 0)
    game.state.tokens.update({CityRef("E11", 0): ["ERIE"], CityRef("E11", 1): ["NYC"]})
    problem = upgrades.upgrade_problem(game, "E11", game.tiles["64"], 0)
    assert problem is not None and "two cities" in problem
    assert upgrades.upgrade_problem(game, "E11", game.tiles["64"], 2) is None
    lay_tile(game, "ERIE", LayTile("E11", "64", 2), ignore_reach=True)
    assert game.state.tokens[CityRef("E11", 1)] == ["ERIE"] and game.state.tokens[CityRef("E11", 0)] == ["NYC"]


def test_a_home_of_two_trackless_cities_upgraded_first_lets_the_president_choose(game: Game) -> None:
    """ERIE's home E11 shows two cities with no track; tile 59 laid there before ERIE first
    operates tells them apart, so ERIE's president places the home token in the city of
    his choice (as for a token displaced from such a hex); untouched, it goes in city 0."""
    from pbem.engine.steps.operating.tokens import place_home_token

    game.state.tiles["E11"] = ("59", 0)
    place_home_token(game, "ERIE")
    assert not any("ERIE" in corps for corps in game.state.tokens.values())
    assert [(t.corporation, t.hex) for t in game.state.pending_tokens] == [("ERIE", "E11")]
    other = Game(load_title("1830"), [P1, P2, P3])
    place_home_token(other, "ERIE")
    assert other.state.tokens == {CityRef("E11", 0): ["ERIE"]}


@pytest.mark.parametrize("variants, chooser, seat", [((), "NYNH", P2), (("token_city_chosen_by_owner",), "", P1)])
def test_a_token_a_lay_lifts_goes_back_in_the_city_the_layer_chooses(variants: tuple[str, ...], chooser: str,
                                                                      seat: str) -> None:
    """ERIE's token on E11 before track; NYNH lays #59 there, which tells the two cities apart.
    The rules are silent on who puts the token back: by the setting ``token_city_after_lay``
    NYNH's president chooses its city (as 18xx.games plays it), or by the variant
    ``token_city_chosen_by_owner`` ERIE's own."""
    from pbem.engine.steps.operating.tracklay import lay_tile
    from pbem.engine.values import DisplacedToken

    game = Game(load_title("1830", variants), [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA")):
        game.apply(player, BuyPrivate(company))
    game.state.phase = "3"
    float_corp(game, "ERIE", P1, 100, 1000)
    float_corp(game, "NYNH", P2, 90, 900)
    operating(game)
    assert game.state.tokens[CityRef("E11", 0)] == ["ERIE"]
    lay_tile(game, "NYNH", LayTile("E11", "59", 0), ignore_reach=True)
    assert game.state.pending_tokens == [DisplacedToken("ERIE", "E11", chooser)]
    assert game.waiting_for().startswith(f"{seat} for {chooser or 'ERIE'}: choose the city")
    game.apply(seat, PlaceToken("E11", 1))
    assert game.state.tokens[CityRef("E11", 1)] == ["ERIE"] and not game.state.pending_tokens


def test_at_the_train_limit_a_diesel_may_still_be_bought_by_trading_in(game: Game) -> None:
    """Phase 6, limit 2: PRR holds a 5 and a 6 and may not add a train, but it may buy a
    diesel by trading in one of them (1830 rules 6.7), the count staying 2."""
    float_corp(game, "PRR", P1, 100, 2000)
    game.state.corporations["PRR"].trains = [TrainId("5", 0), TrainId("6", 0)]
    game.state.depot = [t for t in game.state.depot if t.kind == "D"]
    game.state.phase = "6"
    game.state.types_sold += ["2", "3", "4", "5", "6"]
    operating(game)
    assert any(isinstance(a, BuyTrain) and a.exchange for a in game.legal_actions(P1))
    with pytest.raises(IllegalOrderError, match="train limit"):
        game.apply(P1, BuyTrain("D"))
    game.apply(P1, BuyTrain("D", "depot", None, "5"))
    assert sorted(game.state.corporations["PRR"].trains) == [TrainId("6", 0), TrainId("D", 0)]
