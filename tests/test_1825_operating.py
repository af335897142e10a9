"""1825's operating rules (pbem/titles/g1825/: operating_rules, track, routes, dividends,
trains), each tested on a position built on the Unit 1 + Wales (R1) board: the two yellow
tiles, 1825's upgrades, the reach of an upgraded station, the home tokens, the trains' runs
and revenue (U3, 3T, 2+2, 4+4E, HALT), London's one stop a hex (fault 7), double-heading,
the dividend's price move, train trades, no emergency money, and the receiver's lease
(fault 8).

Source: 18xx.games ``lib/engine/game/g_1825/`` (game.rb, step/track_and_token.rb, route.rb,
dividend.rb, buy_train.rb, lease_train.rb); issue 12; ../shared/reference/REFERENCES.md
items 7 and 8.
"""

from __future__ import annotations

import pytest

from pbem.engine import routes as core_routes
from pbem.engine import track as core_track
from pbem.engine import upgrades as core_upgrades
from pbem.engine.actions import BuyTrain, LayTile, Pass, RunRoutes, SellShares, TrainRun
from pbem.engine.events import TrainRan
from pbem.engine.game import Game
from pbem.engine.ids import TrainId
from pbem.engine.lays import LegalLay, legal_lays
from pbem.engine.state import POOL, OperatingState, RoundState
from pbem.engine.steps import operating
from pbem.engine.steps.operating import walk
from pbem.engine.steps.operating.base import RECEIVER
from pbem.engine.values import CityRef, Vertex
from pbem.errors import IllegalOrderError, OrderSyntaxError
from pbem.order_codecs import Vocabulary
from pbem.orders import format_order, parse_order
from pbem.ruleset import load_title
from pbem.titles.g1825 import dividends, routes, track, trains
from pbem.titles.g1825.trains import Lease
from pbem.titles.g1825.state import state1825

A, B, C, D = "Ann", "Bob", "Cy", "Di"


def new_game(variants: tuple[str, ...] = ("unit_1", "r1"), players: int = 2) -> Game:
    return Game(load_title("1825", variants), [A, B, C, D][:players])


def price_cell(game: Game, price: int) -> tuple[int, int]:
    return next((r, c) for r, row in enumerate(game.title.market) for c, cell in enumerate(row)
                if cell is not None and cell.price == price)


def operate(game: Game, corp: str, *, cash: int = 500, president: str | None = A, price: int = 100,
            owned: tuple[TrainId, ...] = (), tokens: tuple[CityRef, ...] = ()) -> Game:
    """``corp`` floated (share price ``price``, ``cash`` in its treasury, Director
    ``president``; None: in receivership), owning the trains ``owned`` (taken from the
    depot), with tokens in the cities ``tokens`` (``CityRef("V20", 1)``), operating alone."""
    state = game.state
    company = state.corporations[corp]
    company.cash, company.floated, company.ipoed, company.president = cash, True, True, president
    company.par = company.price = price_cell(game, price)
    state.market.setdefault(company.price, []).append(corp)
    for train in owned:
        take(game, train)
        company.trains.append(train)
    for key in tokens:
        state.tokens.setdefault(key, []).append(corp)
    state.round = RoundState(kind="operating", operating=OperatingState(order=[corp]))
    return game


def take(game: Game, train: TrainId) -> None:
    """Take ``train`` out of the depot (or out of the trains set aside for the minors)."""
    if train in game.state.depot:
        game.state.depot.remove(train)
        return
    reserved = state1825(game.state).minor_trains
    minor = next(m for m, t in reserved.items() if t == train)
    del reserved[minor]


def rotation(game: Game, coord: str, tile: str, toward: tuple[str, ...]) -> int:
    """The rotation of ``tile`` on ``coord`` whose exits face exactly the hexes ``toward``."""
    wanted = {e for e in range(6) if game.board.neighbor(coord, e) in toward}
    found = [r for r in range(6) if game.tiles[tile].exits(r) == wanted]
    assert found, f"#{tile} cannot join {toward} on {coord}"
    return found[0]


def put(game: Game, coord: str, tile: str, toward: tuple[str, ...]) -> None:
    game.state.tiles[coord] = (tile, rotation(game, coord, tile, toward))


def run(game: Game, corp: str, *runs: tuple[str, tuple[str, ...]]) -> int:
    action = RunRoutes(tuple(TrainRun(train, stops) for train, stops in runs))
    return sum(r.revenue for r in operating.checked_runs(game, corp, action))


def v(spec: str) -> Vertex:
    coord, _, stop = spec.partition(".")
    return Vertex(coord, stop)


# -- London: one stop a hex (fault 7) ----------------------------------------------------------


def london_loop() -> Game:
    """LSWR with a token in London's city 1 (V20.1, 50) and a 2-train; sharp curves on V18
    and U19 lead from London's side e1 round to its side e2 (city 2)."""
    game = operate(new_game(), "LSWR", owned=(TrainId("2", 0),), tokens=(CityRef("V20", 1),))
    put(game, "V18", "7", ("V20", "U19"))
    put(game, "U19", "7", ("V18", "V20"))
    return game


def test_fault_7_no_train_visits_two_cities_of_one_hex() -> None:
    game = london_loop()
    assert core_track.fewest_stops(game, "LSWR", v("V20.c1"), "V20") == 1  # the loop is track
    with pytest.raises(IllegalOrderError, match="two stops of one hex \\(V20\\)"):
        run(game, "LSWR", ("2", ("V20.1", "V20.2")))
    assert core_routes.best_run(game, "LSWR").revenue == 0


def test_fault_7_a_3t_or_4t_may_count_two_towns_of_one_tile_and_no_other_train_may() -> None:
    game = new_game()
    game.state.tiles["W19"] = ("1", 0)  # Kingston & Reigate: two towns of 10 on one tile
    stops = [v("V20.c0"), v("W19.t0"), v("W19.t1"), v("X20.c0")]
    assert routes.one_hex_problem("3T", stops) is None
    assert routes.one_hex_problem("4T", stops) is None
    for train in ("3", "U3", "2+2", "4"):
        assert "two stops of one hex" in str(routes.one_hex_problem(train, stops))
    # a city and a town of one hex are two stops of one hex even for a 3T
    assert routes.one_hex_problem("3T", [v("V20.c0"), v("V20.c1"), v("X20.c0")]) is not None


# -- what trains visit and earn ----------------------------------------------------------------


def test_runs_start_and_end_at_cities_except_for_3t_4t_u3_and_2_plus_2() -> None:
    game = new_game()
    city, town = v("V20.c0"), v("W19.t0")
    operate(game, "LSWR", owned=(TrainId("2", 0), TrainId("U3", 0)), tokens=(CityRef("V20", 0),))
    assert "starts and ends at cities" in str(routes.run_problem(game, "LSWR", (TrainId("2", 0),), [city, town]))
    assert routes.run_problem(game, "LSWR", (TrainId("U3", 0),), [city, town]) is None


def test_a_u3_counts_three_cities_and_any_towns_and_towns_pay() -> None:
    game = operate(new_game(), "LSWR", owned=(TrainId("U3", 0),), tokens=(CityRef("V20", 0),))
    towns = [v("W19.t0"), v("V16.t0"), v("U11.t0")]
    three = [v("V20.c0"), towns[0], v("X20.c0"), towns[1], towns[2], v("X14.c0")]
    assert routes.run_problem(game, "LSWR", (TrainId("U3", 0),), three) is None
    four = [*three, v("R24.c0")]
    assert "3 cities, not 4" in str(routes.run_problem(game, "LSWR", (TrainId("U3", 0),), four))
    game.state.tiles["W19"] = ("1", 0)
    assert routes.run_revenue(game, "LSWR", (TrainId("U3", 0),), [v("V20.c0"), v("W19.t0")], 60) == 60


def test_the_2_plus_2_and_the_4_plus_4e_pay_double_and_the_express_pays_its_best_four_cities() -> None:
    game = new_game(("unit_12", "k2", "k3"), players=3)
    operate(game, "LSWR", tokens=(CityRef("V20", 0),))
    stops = [v("V20.c0"), v("W19.t0"), v("X20.c0"), v("X14.c0"), v("R24.c0"), v("R16.c0")]
    game.state.tiles["W19"] = ("1", 0)
    for coord, tile in (("X20", "57"), ("X14", "57"), ("R24", "57"), ("R16", "57")):
        game.state.tiles[coord] = (tile, 0)
    values = [core_track.stop_revenue(game, s) for s in stops]
    assert values == [50, 10, 20, 20, 20, 20]
    express = TrainId("4+4E", 0)
    assert routes.run_problem(game, "LSWR", (express,), stops) is None  # any number of stops
    # the best four cities (50, 20, 20, 20), the town nothing, doubled
    assert routes.run_revenue(game, "LSWR", (express,), stops, sum(values)) == 2 * 110
    assert routes.run_revenue(game, "LSWR", (TrainId("2+2", 0),), stops[:2], 60) == 120
    assert routes.run_revenue(game, "LSWR", (TrainId("4", 0),), stops[:2], 60) == 60


def test_a_halt_costs_no_length_and_pays_only_3t_and_4t() -> None:
    game = new_game()
    operate(game, "LSWR", tokens=(CityRef("V20", 0),))
    game.state.tiles["V18"] = ("11", 0)  # the HALT tile
    stops = [v("V20.c0"), v("V18.t0"), v("X20.c0")]
    assert routes.run_problem(game, "LSWR", (TrainId("2", 0),), stops) is None  # two stops for its length
    assert routes.run_revenue(game, "LSWR", (TrainId("2", 0),), stops, 70) == 60  # the halt pays nothing
    assert routes.run_revenue(game, "LSWR", (TrainId("4T", 0),), stops, 70) == 70


# -- double-heading: two 2-trains as one 3-train --------------------------------------------------


def bournemouth_line(token: str) -> Game:
    """LSWR owns two 2-trains and a token on ``token``: Bournemouth Y13 (a city of 20),
    Southampton X14 (#57, a city of 20) and Reading V16 (#4, a town of 10) in a line, with
    plain track on W15."""
    game = operate(new_game(), "LSWR", owned=(TrainId("2", 0), TrainId("2", 1)), tokens=(CityRef.parse(token),))
    put(game, "X14", "57", ("Y13", "W15"))
    put(game, "W15", "9", ("X14", "V16"))
    put(game, "V16", "4", ("W15", "U17"))
    return game


def test_two_2_trains_run_as_one_3_train_paying_the_stop_they_share_once() -> None:
    game = bournemouth_line("Y13.0")
    assert run(game, "LSWR", ("2+2", ("Y13", "X14", "V16"))) == 50
    # 1825 has a train type named 2+2: without one, RUN 2+2 is two 2-trains run as one
    order = parse_order("RUN 2+2: Y13-X14-V16", Vocabulary.from_title(game.title))
    assert isinstance(order, RunRoutes)
    assert sum(r.revenue for r in operating.checked_runs(game, "LSWR", order)) == 50
    best = core_routes.best_run(game, "LSWR")
    assert best.revenue == 50 and list(best.joined.values()) == [(TrainId("2", 1),)]


def test_two_2_trains_run_as_one_need_a_token_on_one_half_only() -> None:
    game = bournemouth_line("X14.0")  # the shared city holds the token: both halves have it
    with pytest.raises(IllegalOrderError, match="one half only") as refused:
        run(game, "LSWR", ("2+2", ("Y13", "X14", "V16")))
    assert "(X14, the city they share, holds one)" in str(refused.value)
    assert core_routes.best_run(game, "LSWR").revenue == 40  # one 2-train, Y13-X14


def test_only_2_trains_run_as_one() -> None:
    game = bournemouth_line("Y13.0")
    game.state.corporations["LSWR"].trains = [TrainId("2", 0), TrainId("3", 0)]
    problem = routes.run_problem(game, "LSWR", (TrainId("2", 0), TrainId("3", 0)), [v("Y13.c0"), v("X14.c0"), v("V16.t0")])
    assert "only two 2-trains" in str(problem)


# -- track -------------------------------------------------------------------------------------------


def test_two_yellow_tiles_not_on_adjacent_hexes_or_one_upgrade() -> None:
    game = operate(new_game(), "LSWR", tokens=(CityRef("V20", 0), CityRef("X14", 0)))
    hexes = {lay.hex for lay in operating_lays(game)}
    assert {"X14", "W19"} <= hexes
    w19 = next(lay for lay in operating_lays(game) if lay.hex == "W19")
    game.apply(A, LayTile(w19.hex, w19.tile, w19.rotation))
    assert operating.op_state(game).tiles_laid == 1
    # a second yellow tile: on X14 (not adjacent to W19), not on a neighbour of W19
    x14 = next(lay for lay in operating_lays(game) if lay.hex == "X14")
    assert not any(lay.hex == "X20" for lay in operating_lays(game))
    problems = [str(operating.Track.problem(game, "LSWR", LayTile("X20", "6", r))) for r in range(6)]
    assert any("may not lie on adjacent hexes (W19 and X20)" in p for p in problems)
    game.apply(A, LayTile(x14.hex, x14.tile, x14.rotation))
    assert operating.tile_lay_entry(game) is None


def test_after_an_upgrade_no_second_tile() -> None:
    game = operate(new_game(), "LSWR", owned=(TrainId("2", 0),), tokens=(CityRef("X14", 0), CityRef("V20", 0)))
    game.state.phase = "2"
    game.state.tiles["X14"] = ("6", rotation(game, "X14", "6", ("Y13", "W13")))
    upgrade = next(lay for lay in operating_lays(game) if lay.hex == "X14")
    assert upgrade.upgrade
    game.apply(A, LayTile(upgrade.hex, upgrade.tile, upgrade.rotation))
    assert operating_lays(game) == []
    assert "may not lay another new tile" in str(operating.Track.problem(game, "LSWR", LayTile("W19", "1", 0)))


def operating_lays(game: Game) -> list[LegalLay]:
    return list(legal_lays(game))


def test_a_green_tile_on_a_printed_yellow_hex_is_a_new_tile_not_an_upgrade() -> None:
    game = operate(new_game(), "LSWR", tokens=(CityRef("X16", 0), CityRef("R24", 0)))
    game.state.phase = "2"
    assert track.counts_as_upgrade(game, "X16") is False  # printed yellow OO Portsmouth
    game.state.tiles["R24"] = ("57", 0)
    assert track.counts_as_upgrade(game, "R24") is True  # a laid yellow tile
    assert track.counts_as_upgrade(game, "W19") is False  # a white hex


def test_a_yellow_town_becomes_a_green_city_and_the_forbidden_upgrades_are_refused() -> None:
    game = operate(new_game(), "LSWR", tokens=(CityRef("V20", 0),))
    game.state.phase = "2"
    put(game, "S15", "4", ("T14", "R16"))  # Northampton, one town
    fits = [r for r in range(6) if track.upgrade_problem(game, "S15", game.tiles["14"], r) is None]
    assert fits  # 4 -> 14, a city: an extra upgrade of 1825
    assert "towns" in str(core_upgrades.upgrade_problem(game, "S15", game.tiles["14"], fits[0]))
    game.state.tiles["V18"] = ("81", 0)
    assert "may not become #40" in str(track.upgrade_problem(game, "V18", game.tiles["40"], 0))


def test_119_comes_with_brown_tiles_and_never_becomes_brown_166_is_never_replaced() -> None:
    game = new_game(("unit_12",), players=3)
    facts = track.facts_of(game)
    assert facts.rules["119"].needs_phase_color == "brown" and facts.rules["166"].final
    game.state.tiles["S15"] = ("4", 0)
    game.state.phase = "2"
    assert "once brown tiles" in str(track.upgrade_problem(game, "S15", game.tiles["119"], 0))
    game.state.phase = "3"
    assert "once brown tiles" not in str(track.upgrade_problem(game, "S15", game.tiles["119"], 0))
    game.state.tiles["S15"] = ("119", 0)
    assert "never becomes a brown" in str(track.upgrade_problem(game, "S15", game.tiles["63"], 0))
    game.state.tiles["S15"] = ("166", 0)
    assert "never replaced" in str(track.upgrade_problem(game, "S15", game.tiles["51"], 0))


def test_an_upgraded_station_must_be_in_reach_of_a_train() -> None:
    game = operate(new_game(), "LSWR", tokens=(CityRef("X14", 0),))
    game.state.phase = "2"
    put(game, "X14", "57", ("Y13", "W15"))
    put(game, "W15", "9", ("X14", "V16"))
    put(game, "V16", "4", ("W15", "U17"))
    put(game, "U17", "9", ("V16", "T18"))
    new = game.tiles["14"]
    v16, x14 = fitting(game, "V16", "14"), fitting(game, "X14", "14")
    assert "no train" in str(track.reach_problem(game, "LSWR", "V16", new, v16))
    game.state.corporations["LSWR"].trains = [TrainId("2", 0)]
    assert track.reach_problem(game, "LSWR", "V16", new, v16) is None  # X14 - V16: two stops
    assert track.reach_problem(game, "LSWR", "X14", new, x14) is None
    game.state.tokens = {CityRef("Y13", 0): ["LSWR"]}
    # from Bournemouth: X14 is one stop on, V16 two
    assert track.reach_problem(game, "LSWR", "X14", new, x14) is None
    assert "can reach" in str(track.reach_problem(game, "LSWR", "V16", new, v16))
    game.state.corporations["LSWR"].trains = [TrainId("2", 0), TrainId("2", 1)]  # two 2-trains reach as a 3
    assert track.reach_problem(game, "LSWR", "V16", new, v16) is None


def fitting(game: Game, coord: str, tile: str) -> int:
    """The first rotation at which ``tile`` may replace what lies on ``coord``."""
    return next(r for r in range(6) if track.upgrade_problem(game, coord, game.tiles[tile], r) is None)


def test_the_reach_of_an_upgrade_is_judged_on_the_new_tile() -> None:
    # plain track becoming a HALT (#8 -> #11): the halt's town is a station of the new tile
    game = operate(new_game(), "LSWR", owned=(TrainId("2", 0),), tokens=(CityRef("X14", 0),))
    game.state.phase = "2"
    put(game, "X14", "57", ("Y13", "W15"))
    put(game, "W15", "8", ("X14", "V14"))
    halt = 2  # the halt's town between the sides of X14 and W17, the curve X14-V14 kept
    assert track.upgrade_problem(game, "W15", game.tiles["11"], halt) is None
    assert track.reach_problem(game, "LSWR", "W15", game.tiles["11"], halt) is None
    game.state.tokens = {CityRef("Y13", 0): ["LSWR"]}  # two stops away now: out of a 2-train's reach
    assert "can reach" in str(track.reach_problem(game, "LSWR", "W15", game.tiles["11"], halt))


def test_a_minors_home_token_waits_for_a_tile_with_a_city_on_its_home_hex() -> None:
    game = operate(new_game(), "Cam", cash=400)
    assert game.hooks.track.lays_without_reach(game, "Cam") == frozenset({"R8"})
    game.hooks.track.place_home_token(game, "Cam")
    assert not any("Cam" in corps for corps in game.state.tokens.values())
    lay = next(lay for lay in operating_lays(game) if lay.hex == "R8")
    game.apply(A, LayTile(lay.hex, lay.tile, lay.rotation))
    assert game.state.tokens.get(CityRef("R8", 0)) == ["Cam"]
    assert game.hooks.track.lays_without_reach(game, "Cam") == frozenset()


def test_a_home_hex_of_two_cities_lets_the_director_choose_the_city() -> None:
    game = operate(new_game(), "TV", cash=400)
    game.hooks.track.place_home_token(game, "TV")  # V8 shows its printed OO without track
    assert not game.state.pending_tokens
    game.state.tiles["V8"] = ("52", 1)  # a green OO tile: two cities with track
    game.hooks.track.place_home_token(game, "TV")
    assert [entry.corporation for entry in game.state.pending_tokens] == ["TV"]


def test_majors_put_down_their_home_tokens_as_the_operating_round_begins() -> None:
    game = new_game()
    game.state.round = RoundState(kind="operating", operating=OperatingState(order=["GER", "LSWR"]))
    game.hooks.sequence.new_operating_round(game)
    assert game.state.tokens[CityRef("V20", 4)] == ["GER"] and game.state.tokens[CityRef("V20", 0)] == ["LSWR"]


# -- dividends ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("paid, price, moves", [
    (0, 100, ("left",)), (50, 100, ()), (51, 100, ("right",)), (199, 100, ("right",)),
    (200, 100, ("right", "right")), (300, 100, ("right",) * 3), (450, 100, ("right",) * 4),
    (1000, 100, ("right",) * 4), (34, 67, ("right",)), (33, 67, ()),
])
def test_the_price_moves_by_the_dividends_size_against_the_share_price(paid: int, price: int,
                                                                       moves: tuple[str, ...]) -> None:
    assert dividends.price_moves(paid, price) == moves


def test_a_payout_of_twice_the_price_moves_two_cells_and_there_is_no_half_payout() -> None:
    game = operate(new_game(), "LSWR", owned=(TrainId("3", 0),), tokens=(CityRef("V20", 0),), price=100)
    assert game.hooks.dividends.dividend_kinds(game.title) == ("payout", "withhold")
    operating.op_state(game).revenue = 200
    before = game.state.corporations["LSWR"].price
    operating.pay_dividend(game, "LSWR", "payout")
    after = game.state.corporations["LSWR"].price
    assert before is not None and after is not None and after[1] == before[1] + 2


def test_no_share_held_by_the_bank_pays_the_company() -> None:
    game = operate(new_game(), "LSWR", owned=(TrainId("3", 0),), tokens=(CityRef("V20", 0),), cash=0)
    pool = [cert for cert in game.state.certificates if cert.corporation == "LSWR" and cert.index > 0][:3]
    for cert in pool:
        cert.owner = POOL
    operating.op_state(game).revenue = 100
    operating.pay_dividend(game, "LSWR", "payout")
    assert game.state.corporations["LSWR"].cash == 0  # nothing for the pool's (nor the IPO's) shares


def test_a_train_bought_in_the_turn_does_not_run_until_the_next() -> None:
    game = operate(new_game(), "LSWR", tokens=(CityRef("V20", 4),), cash=400)  # London city 4: Southend beside
    walk.start_corporation_turns(game)
    game.apply(A, BuyTrain("2", "depot"))
    assert game.state.corporations["LSWR"].trains == [TrainId("2", 0)]
    assert not any(step.runs_trains for step in walk.active_steps(game))


# -- trains ------------------------------------------------------------------------------------------------


def test_trains_from_another_company_cost_10_or_more_in_tens_and_nothing_is_forced() -> None:
    game = operate(new_game(), "LSWR", cash=300, tokens=(CityRef("V20", 0),))
    game.state.corporations["GWR"].trains.append(TrainId("2", 5))
    game.state.depot.remove(TrainId("2", 5))
    step = trains.BuyTrain1825
    for price, problem in ((5, "at least"), (15, "multiples"), (10, None), (300, None)):
        found = trains.trade_problem(game, "LSWR", BuyTrain("2", "GWR", price))
        assert (found is None) if problem is None else (problem in str(found))
    with pytest.raises(IllegalOrderError, match="treasury alone"):
        step.process(game, A, SellShares("LSWR", 1))
    step.process(game, A, Pass())  # no train and a route, but no purchase is forced
    game = operate(new_game(), "LSWR", cash=300, tokens=(CityRef("V20", 0),))
    game.state.corporations["GWR"].trains.append(TrainId("2", 5))
    game.state.depot.remove(TrainId("2", 5))
    step.process(game, A, BuyTrain("2", "GWR", 10))
    assert game.state.corporations["LSWR"].trains == [TrainId("2", 5)] and game.state.corporations["LSWR"].cash == 290
    with pytest.raises(IllegalOrderError, match="costs"):
        step.process(operate(new_game(), "GWR", cash=100), A, BuyTrain("2", "depot"))


# -- receivership: the lease (fault 8) ---------------------------------------------------------------


def receivership_position(token: str) -> Game:
    """GER in receivership (no Director) with £500 and no train, its token in London
    (``token``)."""
    return operate(new_game(), "GER", president=None, tokens=(CityRef.parse(token),))


def test_fault_8_a_company_in_receivership_leases_a_train_for_10_and_it_counts_for_reach() -> None:
    game = receivership_position("V20.3")  # London's city 3 faces U21
    game.state.phase = "2"
    game.state.tiles["U21"] = ("57", rotation_facing(game, "U21", "V20"))  # a laid city tile
    new = game.tiles["14"]
    u21 = fitting(game, "U21", "14")
    assert "no train" in str(track.reach_problem(game, "GER", "U21", new, u21))
    depot = list(game.state.depot)
    trains.lease(game, "GER", "2")
    assert game.state.corporations["GER"].cash == 490
    assert game.state.corporations["GER"].trains == [TrainId("2", 0)]
    assert track.reach_problem(game, "GER", "U21", new, u21) is None  # the leased train reaches
    with pytest.raises(IllegalOrderError, match="has a train"):
        trains.lease(game, "GER", "2")
    trains.return_lease(game, "GER")
    assert game.state.depot == depot and not game.state.corporations["GER"].trains


def rotation_facing(game: Game, coord: str, other: str) -> int:
    """A rotation of #57 on ``coord`` with an exit toward ``other``."""
    edge = next(e for e in range(6) if game.board.neighbor(coord, e) == other)
    return next(r for r in range(6) if edge in game.tiles["57"].exits(r))


def test_fault_8_the_acting_player_leases_and_runs_the_receiver_withholds_and_buys_a_train() -> None:
    game = receivership_position("V20.4")  # London's city 4 faces Southend V22, a city of 20
    game.state.corporations["GER"].cash = 200
    game.state.corporations["LSWR"].president = A  # Ann directs a company, Bob none
    walk.start_corporation_turns(game)
    assert game.current_actors() == [B]  # the first player in priority order directing none
    assert Lease("2") in game.legal_actions(B)
    with pytest.raises(IllegalOrderError):
        game.apply(A, Lease("2"))
    events = game.apply(B, Lease("2"))
    assert game.state.corporations["GER"].trains == [TrainId("2", 0)]
    assert game.state.corporations["GER"].cash == 190
    events += game.apply(B, RunRoutes((TrainRun("2", ("V20.4", "V22")),)))
    names = [type(e).__name__ for e in events]
    assert "TrainLeased" in names and "Withheld" in names and "LeaseReturned" in names
    ran = [e for e in events if isinstance(e, TrainRan)]
    assert [e.revenue for e in ran] == [70]  # London 50 + Southend 20, by the leased 2-train
    treasury = game.state.corporations["GER"]
    # £200 - £10 for the lease + £70 withheld = £260: the receiver buys the 2-train (£180)
    assert treasury.trains == [TrainId("2", 0)] and treasury.cash == 260 - 180
    assert op_over(game)


def op_over(game: Game) -> bool:
    op = game.state.round.operating
    return op is None or op.index >= len(op.order) or game.state.round.kind != "operating"


def test_the_order_word_lease_reads_and_writes() -> None:
    vocab = Vocabulary.from_title(new_game().title)
    assert parse_order("lease 5", vocab) == Lease("5")
    assert format_order(Lease("U3"), vocab) == "LEASE U3"
    with pytest.raises(OrderSyntaxError):
        parse_order("LEASE", vocab)


def test_a_receiver_that_can_pay_for_two_kinds_of_train_has_the_acting_player_choose_and_buy() -> None:
    game = operate(new_game(("unit_123", "u3p"), players=4), "GER", president=None, cash=600, tokens=(CityRef("V20", 4),))
    game.state.phase = "3"
    game.state.depot = [t for t in game.state.depot if t.kind not in ("2", "3", "4")]
    choices = trains.receiver_choices(game, "GER")
    assert {t.kind for t in choices} >= {"5", "3T"}
    assert trains.BuyTrain1825.actor(game) == A
    with pytest.raises(IllegalOrderError, match="must buy"):
        trains.BuyTrain1825.process(game, A, Pass())
    trains.BuyTrain1825.process(game, A, BuyTrain("3T", "depot"))
    assert [t.kind for t in game.state.corporations["GER"].trains] == ["3T"]


def test_a_token_on_tile_200_lets_a_train_pass_one_stop_more_from_the_third_phase() -> None:
    game = operate(new_game(("unit_1", "k6")), "LNWR", owned=(TrainId("2", 0),), tokens=(CityRef("T16", 0),))
    game.state.tiles["T16"] = ("200", 1)  # Wolverton's striped tile, LNWR's token on it
    stops = [v("S13.c0"), v("T16.c0"), v("V20.c1")]  # Birmingham 40, Wolverton 10, London 50
    game.state.phase = "2"
    assert "2 stops, not 3" in str(routes.run_problem(game, "LNWR", (TrainId("2", 0),), stops))
    game.state.phase = "3"
    assert routes.run_problem(game, "LNWR", (TrainId("2", 0),), stops) is None
    assert routes.run_revenue(game, "LNWR", (TrainId("2", 0),), stops, 100) == 90  # the best two stops
    assert routes.run_problem(game, "LNWR", (TrainId("2", 0),), [v("S13.c0"), v("V20.c1"), v("T16.c0")]) is not None


def test_a_minor_in_silent_receivership_is_run_by_no_one() -> None:
    game = operate(new_game(), "Cam", president=None, tokens=(CityRef("R8", 0),))
    game.state.corporations["LSWR"].president = A
    assert trains.acting_player(game, "Cam") == RECEIVER  # a minor with Unit 1: silent
    assert not trains.LeaseTrain.offers(game)
    game = operate(new_game(), "GER", president=None, tokens=(CityRef("V20", 4),))
    assert trains.acting_player(game, "GER") == A  # no one directs a company: the priority deal


def total_money(game: Game) -> int:
    state = game.state
    return state.bank + sum(p.cash for p in state.players.values()) + sum(c.cash for c in state.corporations.values())


def test_a_company_in_receivership_spends_on_credit_repaid_from_its_run() -> None:
    game = receivership_position("V20.4")
    game.state.corporations["GER"].cash = 5
    money = total_money(game)
    walk.start_corporation_turns(game)
    game.apply(A, Lease("2"))  # £10 with £5 in the treasury: £5 on credit
    events = game.apply(A, RunRoutes((TrainRun("2", ("V20.4", "V22")),)))
    assert any(isinstance(e, trains.LoanRepaid) and e.amount == 5 for e in events)
    assert game.state.corporations["GER"].cash == 5 - 10 + 70  # withheld, less the loan
    assert total_money(game) == money  # the bank lent and was repaid
    # a run must cover the loan
    game = receivership_position("V20.4")
    game.state.corporations["GER"].cash = 5
    walk.start_corporation_turns(game)
    game.apply(A, Lease("2"))
    assert game.state.corporations["GER"].cash == -5 and trains.loan_of(game, "GER") == 5
    assert "must earn at least" in str(trains.loan_problem(game, "GER", 4))
    assert trains.loan_problem(game, "GER", 5) is None
    assert game.hooks.track.spending_power(game, "GER") == -5 + trains.RECEIVER_CREDIT
    game.state.corporations["GER"].president = B  # with a Director: no credit
    assert game.hooks.track.spending_power(game, "GER") == -5


def test_track_points_at_a_sepia_hex_only_where_its_printed_track_meets_the_side() -> None:
    game = operate(new_game(), "LNWR", tokens=(CityRef("T16", 0),))
    # Wolverton T16 (sepia): printed track to T14, S15, S17 and U17, none to U15 or T18
    for coord, allowed in (("U15", False), ("T18", False), ("T14", True)):
        edge = next(e for e in range(6) if game.board.neighbor(coord, e) == "T16")
        toward = [r for r in range(6) if edge in game.tiles["9"].exits(r)]
        problems = [track.sepia_problem(game, coord, game.tiles["9"], r) for r in toward]
        assert all(p is None for p in problems) if allowed else all("its printed track does not reach" in str(p) for p in problems)
    away = [r for r in range(6) if not {game.board.neighbor("U15", e) for e in game.tiles["9"].exits(r)} & {"T16", "V14"}]
    assert away and all(track.sepia_problem(game, "U15", game.tiles["9"], r) is None for r in away)


def test_the_legal_lays_list_upgrades_across_colours_and_tile_200_on_its_printed_hexes() -> None:
    game = operate(new_game(("unit_1", "k6")), "LNWR", owned=(TrainId("5", 0),), tokens=(CityRef("T16", 0),))
    game.state.phase = "3"
    lays = [lay for lay in operating_lays(game) if lay.hex == "T16"]
    assert {lay.tile for lay in lays} == {"200"}  # Wolverton's sepia face takes only #200
    game.apply(A, LayTile("T16", "200", lays[0].rotation))
    assert game.state.tiles["T16"][0] == "200" and game.state.tokens[CityRef("T16", 0)] == ["LNWR"]
    assert "never replaced" in str(track.upgrade_problem(game, "T16", game.tiles["166"], 0))
    assert "cannot take a tile" in str(core_track.lay_problem(game, "LNWR", "Y13", "9", 0, ignore_reach=True))
    assert "may go only on" in str(core_track.lay_problem(game, "LNWR", "Y13", "200", 0, ignore_reach=True))


def test_a_119_becomes_the_gray_51() -> None:
    game = operate(new_game(("unit_1", "k6", "k3")), "LSWR", owned=(TrainId("5", 0),), tokens=(CityRef("X14", 0),))
    game.state.phase = "4"
    game.state.tiles["X14"] = ("119", rotation(game, "X14", "119", ("Y13", "W13", "W15", "X16")))
    fits = {lay.tile for lay in operating_lays(game) if lay.hex == "X14"}
    assert "51" in fits and not any(game.tiles[t].color == "brown" for t in fits)


def test_a_further_home_keeps_its_slot_until_the_company_first_operates() -> None:
    """With Units 1 and 2 the LNWR's homes are Wolverton T16 and Crewe Q11 (18xx.games
    reserves both): no other company may token Crewe's one slot before the LNWR has a token."""
    from pbem.engine import track as core_track

    game = new_game(("unit_12",), players=3)
    assert game.hooks.track.homes(game, "LNWR") == (CityRef("T16", 0), CityRef("Q11", 0))
    assert core_track.reserved_home(game, "Q11", 0) == ["LNWR"]
    assert core_track.free_slots(game, "Q11", 0, "MR") == 0 and core_track.free_slots(game, "Q11", 0, "LNWR") == 1
    game.state.tokens[CityRef("T16", 0)] = ["LNWR"]  # the LNWR has operated: Crewe is no longer kept
    assert core_track.reserved_home(game, "Q11", 0) == [] and core_track.free_slots(game, "Q11", 0, "MR") == 1
    assert new_game().hooks.track.homes(new_game(), "LNWR") == (CityRef("T16", 0),)  # Unit 1 alone: one home


def test_the_receivers_purchase_is_one_train_a_turn() -> None:
    """The receiver buys the one kind of train the treasury can pay for, once: with the last
    2-train bought, the 3 the bank now sells is not bought too in the same turn (18xx.games
    ``receivership_buy``: one purchase, then its train step is over)."""
    game = receivership_position("V20.4")
    game.state.corporations["GER"].cash = 1000
    game.state.depot = [TrainId("2", 5)] + [t for t in game.state.depot if t.kind != "2"]
    receiver = trains.Receiver1825()
    assert receiver.train(game, "GER") == BuyTrain("2", "depot")
    trains.BuyTrain1825.process(game, A, BuyTrain("2", "depot"))
    assert trains.receiver_choices(game, "GER"), "a 3 is for sale and the treasury could pay for it"
    assert receiver.train(game, "GER") is None
    # nor does the acting player choose a second one, were two kinds for sale now (a pool 2)
    game.state.pool_trains.append(TrainId("2", 4))  # (a 2 taken out of the depot above)
    assert len(trains.receiver_choices(game, "GER")) == 2
    assert trains.acting_choices(game, "GER") == [] and trains.BuyTrain1825.actor(game) == RECEIVER


def test_the_lease_at_the_turns_start_takes_no_pass_a_pass_goes_on_past_the_track() -> None:
    """18xx.games offers the lease within the company's track and run steps, not as a step
    of its own: at the start of the turn a PASS passes the track (and the lease there), as
    the platform's; before the run a PASS declines the lease and the run."""
    game = receivership_position("V20.4")
    game.state.corporations["LSWR"].president = A
    walk.start_corporation_turns(game)
    assert Lease("2") in game.legal_actions(B)
    assert walk.active_steps(game)[0] is trains.LeaseTrain and Pass not in trains.LeaseTrain.takes
    game.apply(B, Pass())
    assert "track" in game.state.round.operating.passed_steps
    assert walk.active_steps(game)[0] is trains.LeaseBeforeRun
    game.apply(B, Pass())
    ger = game.state.corporations["GER"]
    assert ger.last_choice == "did not run" and ger.cash == 500 - 180  # no lease; the receiver's train


def test_the_lease_before_the_run_is_offered_only_with_a_route() -> None:
    game = receivership_position("V20.3")  # London's city 3 faces the empty U21: no route
    assert not trains.LeaseBeforeRun.offers(game)
    game = receivership_position("V20.4")  # city 4 faces Southend
    assert trains.LeaseBeforeRun.offers(game)


def test_the_receiver_buys_no_train_for_a_company_whose_price_closes_it() -> None:
    """GER's withheld run moved its price to £0, the closing space: it closes as its turn
    ends (18xx.games removes it at once), so the receiver buys it no train."""
    game = receivership_position("V20.4")
    game.state.corporations["GER"].cash = 1000
    receiver = trains.Receiver1825()
    assert receiver.train(game, "GER") is not None
    game.state.corporations["GER"].price = (0, 0)
    assert receiver.train(game, "GER") is None


def test_the_receiver_buys_from_the_pool_too() -> None:
    """The bank sells its trains new and from the pool: GER in receivership (£500) can pay
    for the pool's 4 (£430) only, not the new 5s, and the receiver buys that one."""
    game = receivership_position("V20.4")
    game.state.depot = [t for t in game.state.depot if t.kind not in ("2", "3", "4")]
    game.state.pool_trains.append(TrainId("4", 0))
    game.state.phase = "3"
    assert trains.receiver_choices(game, "GER") == [TrainId("4", 0)]
    assert trains.Receiver1825().train(game, "GER") == BuyTrain("4", "pool")


def test_a_company_that_closes_takes_its_trains_out_of_the_game() -> None:
    """1825 (18xx.games, our text: its closed corporations' trains are removed): GER closing
    puts its trains in no pool, so the bank does not sell them again."""
    from pbem.engine.closing import close_corporation

    game = receivership_position("V20.4")
    take(game, TrainId("3", 0))
    game.state.corporations["GER"].trains.append(TrainId("3", 0))
    close_corporation(game, "GER")
    assert game.state.pool_trains == [] and game.state.corporations["GER"].trains == []


def test_a_minors_required_train_starts_its_phase_when_a_company_first_buys_it() -> None:
    """Unit 3, phase 2, no 5 sold by the bank: GNoS holds its required 5 (bought at its
    formation, no phase change then). CR buys that 5 from GNoS, the first purchase of a 5: phase
    3 begins and the 2s rust (the phase starts with the first train of its type bought;
    18xx.games alike)."""
    g = new_game(("unit_3",))
    state = g.state
    for train in (TrainId("2", 1), TrainId("3", 0), TrainId("3", 1)):
        take(g, train)
    state.phase, state.types_sold[:] = "2", ["2", "3", "4"]
    operate(g, "CR", owned=(TrainId("4", 0),), cash=600)
    take(g, TrainId("5", 0))
    gnos = state.corporations["GNoS"]
    gnos.trains.append(TrainId("5", 0))
    gnos.floated = gnos.ipoed = True
    gnos.president = B
    state.corporations["NBR"].trains.append(TrainId("2", 1))
    g.apply(A, BuyTrain("5", "GNoS", 100))
    assert state.corporations["CR"].trains == [TrainId("4", 0), TrainId("5", 0)]
    assert state.phase == "3" and "5" in state.types_sold
    assert state.corporations["NBR"].trains == []


@pytest.mark.parametrize("reading", [(), ("receiver_buys_after_choice",)])
def test_after_the_acting_players_choice_the_receiver_buys_once_more_only_by_that_reading(
        reading: tuple[str, ...]) -> None:
    """GER in receivership (£800) could pay for a 5, a 3T or a U3: A chooses the U3 (£410).
    £390 is left, enough for a 3T alone. One train a turn by default; with the reading
    ``receiver_buys_after_choice`` (18xx.games' receiver) it buys the 3T too."""
    game = operate(new_game(("unit_123", "u3p", *reading), players=4), "GER", president=None, cash=800,
                   tokens=(CityRef("V20", 4),))
    game.state.phase = "3"
    game.state.depot = [t for t in game.state.depot if t.kind not in ("2", "3", "4")]
    trains.BuyTrain1825.process(game, A, BuyTrain("U3", "depot"))
    bought = [t.kind for t in game.state.corporations["GER"].trains]
    assert bought == (["U3", "3T"] if reading else ["U3"])
    assert game.state.corporations["GER"].cash == (800 - 410 - 370 if reading else 800 - 410)


def test_a_minors_5_bought_in_phase_1_starts_no_phase_until_phase_3_is_next() -> None:
    """Unit 3, phase 1: CR buys GNoS's required 5. The next phase starts on a 3, so the phase
    stays 1 (a purchase starts only the next phase); the first 3 then starts phase 2 and the
    first 5 from the bank phase 3 (1830 rules 7; 18xx.games alike)."""
    from pbem.engine import trains as core_trains

    g = new_game(("unit_3",))
    state = g.state
    operate(g, "CR", owned=(), cash=900)
    take(g, TrainId("5", 0))
    gnos = state.corporations["GNoS"]
    gnos.trains.append(TrainId("5", 0))
    gnos.floated = gnos.ipoed = True
    gnos.president = B
    g.apply(A, BuyTrain("5", "GNoS", 100))
    assert state.phase == "1" and state.corporations["CR"].trains == [TrainId("5", 0)]
    core_trains.after_first_of_type(g, TrainId("3", 0))
    assert state.phase == "2"
    core_trains.after_first_of_type(g, TrainId("5", 1))
    assert state.phase == "3"


def test_a_minors_required_train_is_never_sold_to_another_company() -> None:
    """Cam forms by buying its U3, the train on its Director's certificate: no company may
    buy that train (K5's minor rules), so LNWR is not offered it and is refused it; a train
    Cam holds besides may be sold as any other."""
    from pbem.titles.g1825.stock import check_formation

    game = operate(new_game(), "LNWR", cash=500)
    cam = game.state.corporations["Cam"]
    cam.ipoed = cam.floated = True
    cam.president, cam.cash = B, 500
    check_formation(game, "Cam")
    assert cam.trains == [TrainId("U3", 0)] and state1825(game.state).required_trains == {"Cam": TrainId("U3", 0)}
    walk.start_corporation_turns(game)
    game.state.round.operating.passed_steps += ["lease_train", "track", "lease_before_run"]  # to its train step
    assert not any(isinstance(a, BuyTrain) and a.source == "Cam" for a in game.legal_actions(A))
    with pytest.raises(IllegalOrderError, match="Director's certificate"):
        game.apply(A, BuyTrain("U3", "Cam", 100))
    take(game, TrainId("2", 0))
    cam = game.state.corporations["Cam"]  # (the refusal restored the state as it was)
    cam.trains.insert(0, TrainId("2", 0))
    assert BuyTrain("2", "Cam", 10) in game.legal_actions(A)
    game.apply(A, BuyTrain("2", "Cam", 100))
    assert cam.trains == [TrainId("U3", 0)] and game.state.corporations["LNWR"].trains == [TrainId("2", 0)]


def test_liverpools_three_cities_upgraded_to_one_keep_every_token() -> None:
    """Liverpool (O9) as #33, three cities, with a token in two of them: the gray #49 has one
    city of three stations, which takes both tokens (each old city's track runs into it)."""
    from pbem.engine.steps.operating.tracklay import lay_tile

    game = operate(new_game(("unit_2",), players=3), "LNWR", tokens=(CityRef("O9", 0),), owned=(TrainId("4", 0),))
    game.state.tokens[CityRef("O9", 1)] = ["L&Y"]
    game.state.tiles["O9"] = ("33", 0)
    game.state.phase = "3a"  # gray tiles
    rotation = next(r for r in range(6) if core_upgrades.upgrade_problem(game, "O9", game.tiles["49"], r) is None)
    lay_tile(game, "LNWR", LayTile("O9", "49", rotation), ignore_reach=True)
    assert sorted(game.state.tokens[CityRef("O9", 0)]) == ["L&Y", "LNWR"]
    assert not any(key.coord == "O9" and key != CityRef("O9", 0) for key in game.state.tokens)


def test_an_upgrade_may_not_split_a_citys_track_between_two_cities() -> None:
    """Manchester (O11) as #34 turned 2: L&Y's city joins sides 2 and 5. #50 turned 1 would
    give side 2 to one city and side 5 to another, losing the route through L&Y's city:
    refused (1830 rules 6.2, a city's track runs on into one city). Turned 2, sides 2 and 5
    share a city again and L&Y's token goes there."""
    from pbem.engine.steps.operating.tracklay import lay_tile

    game = operate(new_game(("unit_2",), players=3), "L&Y", tokens=(CityRef("O11", 2),), owned=(TrainId("4", 0),))
    game.state.tiles["O11"] = ("34", 2)
    game.state.phase = "3a"  # gray tiles
    problem = core_upgrades.upgrade_problem(game, "O11", game.tiles["50"], 1)
    assert problem is not None and "splits the track of a city" in problem
    assert core_upgrades.upgrade_problem(game, "O11", game.tiles["50"], 2) is None
    lay_tile(game, "L&Y", LayTile("O11", "50", 2), ignore_reach=True)
    assert core_track.city_edges(game.tiles["50"], 2, 1) == {"e2", "e5"}
    assert game.state.tokens == {CityRef("O11", 1): ["L&Y"]}


def test_the_last_run_is_the_orders_own_when_a_silent_minor_passes_its_run_after_it() -> None:
    """GER in receivership runs its 2-train (the acting player's order); the walk then takes
    S&DR's turn, a minor in silent receivership that runs nothing. ``last_run`` (read by the
    export and the replay's revenue check) stays GER's run of the order, not S&DR's empty one."""
    game = operate(operate(new_game(("unit_1", "r2", "r3"), players=4), "S&DR", president=None, tokens=(CityRef("W9", 0),)),
                   "GER", president=None, tokens=(CityRef("V20", 4),), owned=(TrainId("2", 0),))
    game.state.corporations["S&DR"].trains.append(state1825(game.state).minor_trains.pop("S&DR"))
    assert game.state.round.operating is not None
    game.state.round.operating.order.append("S&DR")
    walk.start_corporation_turns(game)
    game.apply(game.current_actors()[0], Pass())
    events = game.apply(game.current_actors()[0], parse_order("RUN 2: V20.4-V22", Vocabulary.from_title(game.title)))
    assert any(isinstance(e, TrainRan) and e.corporation == "GER" for e in events)
    assert any(getattr(e, "corporation", None) == "S&DR" for e in events), "S&DR's turn came in the same order"
    assert [(r.train, r.revenue) for r in game.last_run] == [(TrainId("2", 0), 70)]


def test_the_listed_upgrades_follow_the_companys_trains() -> None:
    """The upgrade of a laid city tile must be in a train's reach: listed while GER has its
    2-train, gone from the list (not kept from before) once it has none, as the LAY is then
    refused."""
    from pbem.engine.lays import legal_lays

    game = receivership_position("V20.3")  # London's city 3 faces U21
    game.state.phase = "2"
    game.state.tiles["U21"] = ("57", rotation_facing(game, "U21", "V20"))
    game.state.corporations["GER"].trains.append(TrainId("2", 0))
    game.state.depot.remove(TrainId("2", 0))
    upgrades_u21 = [lay for lay in legal_lays(game, "GER") if lay.hex == "U21"]
    assert upgrades_u21, "the 2-train reaches U21's city"
    game.state.pool_trains.append(game.state.corporations["GER"].trains.pop())
    assert not [lay for lay in legal_lays(game, "GER") if lay.hex == "U21"]
    assert "no train" in str(game.hooks.track.lay_problem(game, "GER", "U21", upgrades_u21[0].tile, upgrades_u21[0].rotation))


@pytest.mark.parametrize("reading", [(), ("receiver_buys_after_choice",)])
def test_by_that_reading_the_acting_player_chooses_again_while_two_kinds_are_left(reading: tuple[str, ...]) -> None:
    """GER in receivership (£2,000) could pay for a 5, a 3T or a U3: A chooses the U3. Two
    kinds are still within its treasury: by the reading ``receiver_buys_after_choice`` (as
    18xx.games plays it) A chooses again; by default the step is over (one train a turn)."""
    game = operate(new_game(("unit_123", "u3p", *reading), players=4), "GER", president=None, cash=2000,
                   tokens=(CityRef("V20", 4),))
    game.state.phase = "3"
    game.state.depot = [t for t in game.state.depot if t.kind not in ("2", "3", "4")]
    trains.BuyTrain1825.process(game, A, BuyTrain("U3", "depot"))
    assert len(trains.receiver_choices(game, "GER")) >= 2
    assert bool(trains.acting_choices(game, "GER")) == bool(reading)
    assert ("buy_train" in game.state.round.operating.passed_steps) != bool(reading)


@pytest.mark.parametrize("counts, most", [([2], 2), ([1, 1, 1], 2), ([3, 2], 2), ([2, 1, 2], 3), ([1, 4], 2), ([2, 2, 2], 1)])
def test_each_grouping_of_trains_into_units_is_made_once(counts: list[int], most: int) -> None:
    """The groupings the route search tries, by train type (longest type first), are every
    way of putting the trains into units of at most ``most`` (as the trains themselves give
    them, less the ones alike but for which train of a type), each once."""
    from itertools import combinations

    trains_ = [(kind, n) for kind, count in enumerate(counts) for n in range(count)]
    expected: set[tuple[tuple[int, ...], ...]] = set()

    def split(rest: list[tuple[int, int]], units: list[tuple[tuple[int, int], ...]]) -> None:
        if not rest:
            expected.add(tuple(sorted(tuple(sorted(k for k, _ in u)) for u in units)))
            return
        for size in range(min(most, len(rest))):
            for mates in combinations(rest[1:], size):
                split([t for t in rest[1:] if t not in mates], units + [(rest[0], *mates)])

    split(trains_, [])
    made = [tuple(sorted(g)) for g in core_routes._type_groupings(list(counts), most)]
    assert len(made) == len(set(made)) and set(made) == expected


def test_a_company_of_fifteen_trains_that_may_run_as_one_is_searched_within_the_budget() -> None:
    """Fifteen trains make millions of pairings of trains (and tens of thousands of pairings
    of train types); the search takes the groupings one by one, each costing a step, so it
    ends within its budget with the best run it found: here no less than the two 2-trains
    run as one (£50)."""
    game = bournemouth_line("Y13.0")
    game.state.corporations["LSWR"].trains += game.state.depot[:13]
    found = core_routes.best_run(game, "LSWR", budget=20_000)
    assert found.steps <= 20_000 and found.revenue >= 50
