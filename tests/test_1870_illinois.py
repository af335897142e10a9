"""The Illinois Central under Lou Jerkich's Historical Order Start rules (issue 13, seed 000,
"2. Illinois Central Railroad"; :mod:`pbem.titles.g1870.illinois`), on built positions: its
two homes Jackson K16 and Chicago A22, the connection between them through E20, what it may
not do west of the Mississippi until then, its $40 token and its lays."""

from __future__ import annotations

import pytest

from pbem.engine import track
from pbem.engine.actions import LayTile, PlaceToken, RunRoutes, TrainRun
from pbem.engine.game import Game
from pbem.engine.state import OperatingState, RoundState
from pbem.engine.steps import operating
from pbem.engine.steps.operating.tokens import next_token_cost
from pbem.engine.steps.operating.walk import start_corporation_turns
from pbem.engine.values import CityRef, Owner, Vertex
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title
from pbem.titles.g1870 import illinois, rivers
from pbem.titles.g1870.connections import connections_due, queue_connections
from pbem.titles.g1870.state import state1870

VARIANT = ("historical_order_start",)
IC = "IC"
SOUTH = ("K16", "J17", "I18", "H19", "G20", "F21", "E20")
"""Jackson to E20 east of the Mississippi (G20: a town)."""
NORTH = ("E20", "D19", "C20", "B21", "A22")
"""E20 to Chicago through Illinois."""
LINE = SOUTH + NORTH[1:]
WEST = ("K16", "J17", "I18", "H19", "G18", "F17", "E16", "D15", "C16", "C18", "C20", "B21", "A22")
"""Jackson to Chicago by the west: across the Mississippi at G18, back at St. Louis C18."""
PLAIN = ("7", "8", "9")
TOWN = ("3", "4", "58")
CITY = ("5", "6", "57")
TWO_TOWNS = ("1", "2", "55", "56", "69")


def edge_to(game: Game, coord: str, other: str) -> int:
    return next(e for e in range(6) if game.board.neighbor(coord, e) == other)


def fit(game: Game, coord: str, ends: tuple[int | None, int | None]) -> tuple[str, int]:
    """A yellow tile and rotation for ``coord`` joining the two edges ``ends`` (None: the line
    ends in the hex's stop), through the hex's one stop if it has one."""
    printed = game.board.hexes[coord].tile
    names = TWO_TOWNS if len(printed.towns) == 2 else TOWN if printed.towns else CITY if printed.cities else PLAIN
    a, b = (f"e{e}" if e is not None else None for e in ends)
    for name in names:
        for rotation in range(6):
            paths = {frozenset(p) for p in game.tiles[name].paths_at(rotation)}
            if not printed.towns and not printed.cities and frozenset((a, b)) in paths:
                return name, rotation
            stops = [s for p in paths for s in p if not s.startswith("e")]
            for stop in stops:
                if all(end is None or frozenset((end, stop)) in paths for end in (a, b)):
                    return name, rotation
    raise AssertionError(f"no tile joins {ends} on {coord}")


def lay_line(game: Game, hexes: tuple[str, ...], *, last: bool = True) -> None:
    """Yellow track along ``hexes`` (each next to the one before), straight into the state;
    the red off-board area at an end takes none, nor the last hex unless ``last``."""
    for i, coord in enumerate(hexes):
        if game.board.hexes[coord].tile.color == "red" or (not last and i == len(hexes) - 1):
            continue
        before = edge_to(game, coord, hexes[i - 1]) if i else None
        after = edge_to(game, coord, hexes[i + 1]) if i + 1 < len(hexes) else None
        game.state.tiles[coord] = fit(game, coord, (before, after))


def ic_turn(variants: tuple[str, ...] = VARIANT, *, trains: tuple[str, ...] = ("4",),
            bridge: str = "player") -> Game:
    """The IC floated (president A, $500, ``trains``), its first operating turn begun in stock
    round 2's first operating round (home tokens placed by the turn's start); the Bridge
    Company ``bridge``: held by player B, owned by the MP, or closed."""
    game = Game(load_title("1870", variants), ["A", "B", "C", "D"])
    state = game.state
    state.phase = "2"
    corp = state.corporations[IC]
    corp.floated, corp.ipoed, corp.president, corp.cash = True, True, "A", 500
    corp.par = corp.price = (1, 6)
    state.market.setdefault((1, 6), []).append(IC)
    for kind in trains:
        train = next(t for t in state.depot if t.kind == kind)
        state.depot.remove(train)
        corp.trains.append(train)
    mrbc = state.companies["MRBC"]
    if bridge == "player":
        mrbc.owner = Owner.player("B")
    elif bridge == "corporation":
        mrbc.owner = Owner.corporation("MP")
    else:
        mrbc.closed = True
    state.round = RoundState(kind="operating", number=2, or_number=1, operating=OperatingState(order=[IC]))
    start_corporation_turns(game)
    return game


def lay(game: Game, coord: str, toward: tuple[str, ...], tiles: tuple[str, ...] = PLAIN) -> LayTile:
    """A lay on ``coord`` of one of ``tiles`` with exits toward each hex of ``toward``."""
    wanted = {edge_to(game, coord, other) for other in toward}
    for name in tiles:
        for rotation in range(6):
            if wanted <= game.tiles[name].exits(rotation) and all(
                    game.board.neighbor(coord, e) is not None for e in game.tiles[name].exits(rotation)):
                return LayTile(coord, name, rotation)
    raise AssertionError(f"no tile of {tiles} on {coord} toward {toward}")


def problem(game: Game, action: LayTile) -> str | None:
    return track.lay_problem(game, IC, action.hex, action.tile, action.rotation)


def runs(game: Game, *stops: str) -> int:
    train = game.state.corporations[IC].trains[0]
    action = RunRoutes((TrainRun(train.kind, stops),))
    return sum(r.revenue for r in operating.checked_runs(game, IC, action))


# -- two homes ---------------------------------------------------------------------------------


def test_both_homes_are_placed_as_its_first_turn_begins() -> None:
    before = Game(load_title("1870", VARIANT), ["A", "B", "C", "D"])
    assert not any(IC in corps for corps in before.state.tokens.values()), "nothing before it operates"
    game = ic_turn()
    assert IC in track.tokens_in(game, "K16", 0)
    assert IC in game.state.tokens[CityRef("A22", 0)]
    assert CityRef("A22", 0) in game.hooks.track.homes(game, IC)
    plain = ic_turn(())
    assert IC in track.tokens_in(plain, "K16", 0) and IC not in plain.state.tokens.get(CityRef("A22", 0), [])
    assert plain.hooks.track.homes(plain, IC) == (CityRef("K16", 0),)


def test_the_chicago_token_is_not_one_of_the_charters() -> None:
    game = ic_turn()
    assert list(game.title.corporation(IC).tokens) == [0, 40]
    assert next_token_cost(game, IC) == 40, "the $40 token is still on the charter"


def test_the_corporations_table_does_not_count_the_chicago_token() -> None:
    from pbem.report_sections import corporation_extras

    game = ic_turn()
    assert corporation_extras(game, IC)["tokens"] == "1/2", "Jackson placed, the $40 token still to come"
    game.state.tokens[CityRef("B19", 0)] = [IC]
    assert corporation_extras(game, IC)["tokens"] == "2/2"
    assert corporation_extras(ic_turn(()), IC)["tokens"] == "1/2", "plain 1870: one home"


def test_no_other_corporation_gets_a_second_home() -> None:
    game = Game(load_title("1870", VARIANT), ["A", "B", "C", "D"])
    for sym in game.state.corporations:
        if sym != IC:
            assert len(game.hooks.track.homes(game, sym)) <= 1, sym
    assert illinois.corporation(game) == IC
    assert illinois.corporation(Game(load_title("1870"), ["A", "B", "C"])) is None


# -- the connection ----------------------------------------------------------------------------


def test_the_connection_is_due_only_with_the_bridge_company_open() -> None:
    closed = ic_turn()
    lay_line(closed, LINE)
    assert connections_due(closed, [IC]) == [], "E20 is blocked while a player holds the Bridge Company"
    opened = ic_turn(bridge="corporation")
    lay_line(opened, LINE)
    assert connections_due(opened, [IC]) == [IC]
    plain = ic_turn(())
    lay_line(plain, LINE)
    assert connections_due(plain, [IC]) == [IC], "plain 1870 has no Ohio rule"


def test_the_connection_needs_a_train_that_can_run_it() -> None:
    game = ic_turn(trains=(), bridge="closed")
    lay_line(game, LINE)
    assert not illinois.joined(game, IC), "no train"
    assert connections_due(game, [IC]) == []


def test_with_small_cities_a_town_passed_costs_no_length_on_the_connection() -> None:
    """Small cities rule 2: a 2-train runs K16-G20-E20-A22 counting the two ends only, so the
    connection is due with it; plain 1870 counts every town, and a 3-train is too short."""
    from pbem.titles.g1870.connections import connection_runnable

    game = ic_turn(trains=("2",), bridge="closed")
    lay_line(game, LINE)
    assert runs(game, "K16", "G20", "E20", "A22") == 60, "the run itself is legal"
    assert illinois.joined(game, IC) and connection_runnable(game, IC)
    assert connections_due(game, [IC]) == [IC]
    plain = ic_turn((), trains=("3",), bridge="closed")
    lay_line(plain, LINE)
    assert not connection_runnable(plain, IC), "plain 1870: four stops for a 3-train"
    plain.state.corporations[IC].trains = [t for t in plain.state.depot if t.kind == "4"][:1]
    assert connection_runnable(plain, IC)


SPRINGFIELD_LINE = SOUTH + ("D19", "C20", "B19", "B21", "A22")
"""Jackson to Chicago through Springfield B19: three cities (or areas) and two towns."""


def test_two_2_trains_run_as_one_make_the_connection() -> None:
    from pbem.titles.g1870.connections import connection_length

    one = ic_turn(trains=("2",), bridge="closed")
    lay_line(one, SPRINGFIELD_LINE)
    assert not illinois.joined(one, IC), "K16, B19 and A22 are three stops for a 2-train"
    pair = ic_turn(trains=("2", "2"), bridge="closed")
    lay_line(pair, SPRINGFIELD_LINE)
    assert connection_length(pair, IC) == 3
    assert illinois.joined(pair, IC) and connections_due(pair, [IC]) == [IC]
    assert connection_length(ic_turn((), trains=("2", "2")), IC) == 2, "plain 1870: no double-heading"


def test_a_way_round_by_the_west_is_no_connection() -> None:
    game = ic_turn(trains=("8",), bridge="closed")
    lay_line(game, WEST)
    from pbem.titles.g1870.connections import connection_runnable

    assert connection_runnable(game, IC), "a train could run it"
    assert not illinois.joined(game, IC)
    assert connections_due(game, [IC]) == []


def test_the_connection_puts_no_destination_choice_and_chicago_then_counts_twice() -> None:
    game = ic_turn(bridge="closed")
    lay_line(game, LINE)
    stops = ("K16", "G20", "E20", "A22")
    before = runs(game, *stops)
    assert queue_connections(game)
    mine = state1870(game.state)
    assert mine.connections == [IC] and IC in mine.destinations_reached
    assert IC not in mine.destination_on_charter
    assert mine.connection_rounds[IC] == (2, 1)
    assert [s.name for s in operating.active_steps(game)][0] == "connection_route"
    assert runs(game, *stops) == before + 40, "Chicago ($40 in yellow) counts twice"


def test_a_turn_that_joins_jackson_and_chicago_ends_with_its_connection_run() -> None:
    """Walked through orders: its first lay, out of Chicago, completes the line; at the end of
    its turn the connection run is owed, with no DESTINATION choice, and Chicago counts twice."""
    from pbem.engine.actions import Dividend, Pass
    from pbem.engine.events import render_all
    from pbem.titles.g1870.actions import DestinationToken

    game = ic_turn(bridge="closed")
    lay_line(game, LINE)
    tile, rotation = game.state.tiles.pop("B21")
    game.apply("A", LayTile("B21", tile, rotation))
    run = RunRoutes((TrainRun("4", ("A22", "E20.0", "G20", "K16")),))
    game.apply("A", run)
    assert game.last_run and sum(r.revenue for r in game.last_run) == 100, "not yet doubled"
    game.apply("A", Dividend("payout"))
    events = render_all(game.apply("A", Pass()), game.money)
    assert "-- IC has connected to its destination A22 --" in events
    assert [s.name for s in operating.active_steps(game)] == ["connection_route"]
    assert not any(isinstance(a, DestinationToken) for a in game.legal_actions("A"))
    game.apply("A", run)
    assert state1870(game.state).connection_revenue == 140, "Chicago ($40) counted twice"


def test_chicago_does_not_count_twice_before_the_connection() -> None:
    game = ic_turn(bridge="closed")
    assert game.hooks.routes.extra_revenue(game, IC, [Vertex("K16", "c0"), Vertex("A22", "o")]) == 0


def test_a_gm_ruled_connection_also_takes_the_chicago_token() -> None:
    from pbem.titles.g1870.connections import grant_connection

    game = ic_turn()
    grant_connection(game, IC)
    mine = state1870(game.state)
    assert IC in mine.destinations_reached and mine.connection_rounds[IC] == (2, 1)


# -- west of the Mississippi -----------------------------------------------------------------


def later_turn(bridge: str = "closed", variants: tuple[str, ...] = VARIANT) -> Game:
    """A later turn of the IC (it has operated before), its track from Jackson to H19 and its
    first tile out of Chicago on B21."""
    game = ic_turn(variants, bridge=bridge)
    game.state.corporations[IC].operated = True
    lay_line(game, ("A22", "B21", "C20"), last=False)
    lay_line(game, ("K16", "J17", "I18", "H19", "G18"), last=False)
    return game


def test_no_track_across_the_mississippi_until_connected() -> None:
    game = later_turn()
    across = lay(game, "G18", ("H19", "G16"))
    along = lay(game, "G18", ("H19", "H17"))
    assert problem(game, across) == "IC may not build west of the Mississippi until Jackson and Chicago are connected"
    assert problem(game, along) is None, "track on the eastern bank of a river hex"
    assert problem(later_turn(variants=()), across) is None, "plain 1870, the Bridge Company open"
    state1870(game.state).destinations_reached.append(IC)
    assert problem(game, across) is None


def test_no_new_path_to_a_town_on_the_western_bank_until_connected() -> None:
    """D17's town stands on the western bank: an upgrade joining it to the eastern edge is
    track west of the river, as for the GM&O (the one check, :func:`.gmo.west_track`)."""
    game = later_turn()
    game.state.tiles["D17"] = ("3", 0)
    upgrade = next(r for r in range(6) if game.tiles["142"].exits(r) == {0, 1, 4})
    why = "IC may not build west of the Mississippi until Jackson and Chicago are connected"
    assert illinois.lay_problem(game, IC, "D17", "142", upgrade) == why


def test_on_st_louis_it_may_build_to_the_city_but_not_beyond() -> None:
    game = later_turn(bridge="corporation")
    east = next(r for r in range(6) if game.tiles["57"].exits(r) == {2, 5})
    west = next(r for r in range(6) if game.tiles["57"].exits(r) == {0, 3})
    assert illinois.lay_problem(game, IC, "C18", "57", east) is None
    assert illinois.lay_problem(game, IC, "C18", "57", west) is not None


def test_no_tile_in_a_hex_west_of_the_mississippi_until_connected() -> None:
    game = later_turn()
    across = lay(game, "G18", ("H19", "G16"))  # laid by another corporation, the Bridge Company open
    game.state.tiles["G18"] = (across.tile, across.rotation)
    west = lay(game, "G16", ("G18", "F15"))
    assert problem(game, west) == "IC may not build west of the Mississippi until Jackson and Chicago are connected"
    for other in ("GMO", "MP", "SSW", "TP"):
        assert illinois.lay_problem(game, other, west.hex, west.tile, west.rotation) is None
    state1870(game.state).destinations_reached.append(IC)
    assert problem(game, west) is None


def test_the_west_opens_once_track_joins_jackson_and_chicago_with_no_train_needed() -> None:
    """Seed 000: the bans hold "until these two bases have been connected by an unblocked
    route of continuous track"; the train is needed only for Chicago as a destination."""
    game = later_turn(bridge="closed")
    game.state.corporations[IC].trains.clear()
    across = lay(game, "G18", ("H19", "G16"))
    kansas_city = [Vertex("K16", "c0"), Vertex("B11", "c0")]
    west = "IC may not build west of the Mississippi until Jackson and Chicago are connected"
    assert problem(game, across) == west and illinois.route_problem(game, IC, kansas_city) is not None
    lay_line(game, LINE)
    assert not illinois.connected(game, IC) and connections_due(game, [IC]) == []
    assert illinois.track_joined(game, IC)
    assert illinois.lay_problem(game, IC, across.hex, across.tile, across.rotation) is None
    assert illinois.route_problem(game, IC, kansas_city) is None
    assert illinois.token_problem(game, IC, "B19", 0) is not None, "the $40 token waits for the connection run"
    held = later_turn(bridge="player")
    lay_line(held, LINE)
    assert not illinois.track_joined(held, IC), "the Bridge Company held by a player: E20 is a dead end"
    game.state.tokens[CityRef("C20", 0)] = ["MP"]  # no city there: tokens elsewhere change nothing
    assert illinois.track_joined(game, IC)


def st_louis_line(bridge: str) -> Game:
    """Chicago to St. Louis by B21 and C20, laid by others."""
    game = ic_turn(bridge=bridge)
    lay_line(game, ("A22", "B21", "C20", "C18"))
    return game


def test_st_louis_only_once_the_bridge_company_is_open() -> None:
    with pytest.raises(ValueError, match="IC may not run to St. Louis C18 until the Bridge Company is sold to a corporation or closed"):
        runs(st_louis_line("player"), "A22", "C18")
    assert runs(st_louis_line("corporation"), "A22", "C18") > 0
    plain = ic_turn((), bridge="player")
    lay_line(plain, ("A22", "B21", "C20", "C18"))
    plain.state.tokens[CityRef("C18", 0)] = [IC]
    assert runs(plain, "C18", "A22") > 0, "plain 1870: no such rule"


def test_no_stop_west_of_the_mississippi_but_st_louis_and_carthage() -> None:
    game = ic_turn(bridge="closed")
    game.state.tiles["A16"] = ("56", 4)
    kansas_city = Vertex("B11", "c0")
    assert illinois.route_problem(game, IC, [Vertex("K16", "c0"), kansas_city]) is not None
    assert illinois.route_problem(game, IC, [Vertex("K16", "c0"), Vertex("C18", "c0")]) is None
    assert illinois.route_problem(game, IC, [Vertex("K16", "c0"), Vertex("A16", "t0")]) is None, "Carthage"
    assert "A16" in str(illinois.route_problem(game, IC, [Vertex("K16", "c0"), Vertex("A16", "t1")])), "Fort Madison"
    for other in ("GMO", "MP", "SSW"):
        assert illinois.route_problem(game, other, [Vertex("K16", "c0"), kansas_city]) is None
    state1870(game.state).destinations_reached.append(IC)
    assert illinois.route_problem(game, IC, [Vertex("K16", "c0"), kansas_city]) is None


def test_no_run_beyond_st_louis_on_the_western_side() -> None:
    game = ic_turn(bridge="closed")
    lay_line(game, ("C18", "C16", "B15", "A16"))
    game.state.tiles["A16"] = ("56", 4)
    game.state.tokens[CityRef("C18", 0)] = [IC]
    with pytest.raises(ValueError, match="may not run west of the Mississippi between C18 and A16"):
        runs(game, "C18", "A16.0")
    state1870(game.state).destinations_reached.append(IC)
    assert runs(game, "C18", "A16.0") > 0


def test_carthage_is_the_town_joined_to_edge_0_of_a16() -> None:
    game = ic_turn()
    assert illinois.carthage(game) is None
    game.state.tiles["A16"] = ("2", 4)
    assert illinois.carthage(game) == ("A16", "t1"), "#2: the southern town, on the SE-SW curve"
    game.state.tiles["A16"] = ("56", 4)
    assert illinois.carthage(game) == ("A16", "t0"), "#56: the eastern town, on the E-SW curve"
    legal = {(name, r) for name in TWO_TOWNS for r in range(6)
             if all(game.board.neighbor("A16", e) is not None for e in game.tiles[name].exits(r))}
    assert legal == {("2", 4), ("56", 4)}


def carthage_reach(bridge: str = "closed") -> Game:
    """The IC's token on Springfield B19, its tile toward A18 and B17, a tile on A18 toward A16."""
    game = ic_turn(bridge=bridge)
    game.state.corporations[IC].operated = True
    lay_line(game, ("A22", "B21", "C20"), last=False)
    game.state.tokens[CityRef("B19", 0)] = [IC]
    city = lay(game, "B19", ("A18", "B17"), CITY)
    game.state.tiles["B19"] = (city.tile, city.rotation)
    lay_line(game, ("B19", "A18", "A16"), last=False)
    game.state.tiles["B19"] = (city.tile, city.rotation)
    return game


def test_it_may_build_to_carthage_but_not_to_fort_madison() -> None:
    game = carthage_reach()
    assert problem(game, LayTile("A16", "56", 4)) is None, "its track from A18 enters #56 toward Carthage"
    assert problem(game, LayTile("A16", "2", 4)) == "IC may build to Carthage but not to Fort Madison on A16"
    state1870(game.state).destinations_reached.append(IC)
    assert problem(game, LayTile("A16", "2", 4)) is None


def test_no_track_of_its_own_joined_to_fort_madison_from_a_neighbour() -> None:
    game = carthage_reach()
    game.state.tiles["A16"] = ("56", 4)  # Fort Madison on the SE-W curve, toward B17
    toward = lay(game, "B17", ("B19", "A16"))
    assert problem(game, toward) == "IC may build to Carthage but not to Fort Madison on A16"
    game.state.tiles["A16"] = ("2", 4)  # now B17's side of A16 leads to Carthage
    assert problem(game, toward) is None


def test_carthage_stands_east_of_the_mississippi_and_fort_madison_west() -> None:
    """Seed: "Carthage on the east side of the Mississippi in hex A16 ... Fort Madison on the
    west side"; Carthage "the southern city on tile #2 and the eastern city on tile #56"."""
    game = ic_turn()
    for tile, carthage, fort in (("2", "t1", "t0"), ("56", "t0", "t1")):
        game.state.tiles["A16"] = (tile, 4)
        assert rivers.vertex_side(game, Vertex("A16", carthage)) == "east", f"#{tile}: Carthage"
        assert rivers.vertex_side(game, Vertex("A16", fort)) == "west", f"#{tile}: Fort Madison"
    plain = ic_turn(())
    plain.state.tiles["A16"] = ("56", 4)
    assert rivers.vertex_side(plain, Vertex("A16", "t0")) == "west", "plain 1870: both towns on the western bank"


def test_while_a_player_holds_the_bridge_the_ic_may_build_to_carthage() -> None:
    """The IC's track from A18 enters A16 on its east side: #56 there joins it to Carthage, on
    its own (eastern) bank, and the tile may go down though its lines appear to cross the
    river, since no track goes on out of A16 beyond them; #2 would join it to Fort Madison,
    which stays closed. The IC may then run to Carthage, not to Fort Madison."""
    game = carthage_reach("player")
    assert problem(game, LayTile("A16", "56", 4)) is None
    assert problem(game, LayTile("A16", "2", 4)) == "IC may build to Carthage but not to Fort Madison on A16"
    game.state.tiles["A16"] = ("56", 4)
    assert illinois.route_problem(game, IC, [Vertex("B19", "c0"), Vertex("A16", "t0")]) is None
    assert illinois.route_problem(game, IC, [Vertex("B19", "c0"), Vertex("A16", "t1")]) is not None
    assert runs(game, "B19", "A16.0") > 0
    # plain 1870: no tile on A16 while a player holds the Bridge Company
    plain = ic_turn((), bridge="player")
    plain.state.tiles["A18"] = game.state.tiles["A18"]
    refused = track.lay_problem(plain, IC, "A16", "56", 4)
    assert refused is not None and "would cross the Mississippi on A16" in refused


def test_no_track_goes_on_out_of_a16_across_the_river_while_a_player_holds_the_bridge() -> None:
    """Carthage's track reaching A16's SW side (toward B15, the western bank) and Fort Madison's
    reaching its SE side (toward B17, the eastern bank) may not be continued out of the hex:
    a tile beside A16 that would lead track in there is refused, and a tile on A16 is refused
    where track already leads in; once a corporation owns the Bridge Company both may go."""
    game = carthage_reach("player")
    game.state.tiles["A16"] = ("56", 4)
    b15 = lay(game, "B15", ("A16", "C16"))
    b17 = lay(game, "B17", ("A16", "C18"))
    for action in (b15, b17):
        refused = game.hooks.track.lay_problem(game, "MP", action.hex, action.tile, action.rotation)
        assert refused is not None and "across the Mississippi" in refused, action
    away = lay(game, "B17", ("B19", "C18"))
    assert game.hooks.track.lay_problem(game, "MP", "B17", away.tile, away.rotation) is None, "not toward A16"
    del game.state.tiles["A16"]
    game.state.tiles["B15"] = (b15.tile, b15.rotation)
    refused = game.hooks.track.lay_problem(game, IC, "A16", "56", 4)
    assert refused is not None and "would go on into B15" in refused
    game.state.companies["MRBC"].owner = Owner.corporation("MP")
    assert game.hooks.track.lay_problem(game, IC, "A16", "56", 4) is None
    game.state.tiles["A16"] = ("56", 4)
    assert game.hooks.track.lay_problem(game, "MP", "B17", b17.tile, b17.rotation) is None


# -- lays and tokens -----------------------------------------------------------------------------


def test_the_first_lay_is_out_of_chicago_from_its_south_west_side() -> None:
    game = ic_turn()
    jackson = lay(game, "K16", ("J17",), CITY)
    with pytest.raises(IllegalOrderError, match="IC's first tile must be laid out of A22: on B21, joined to A22"):
        game.apply("A", jackson)
    game.apply("A", lay(game, "B21", ("A22", "C20")))
    game.apply("A", jackson)
    assert "K16" in game.state.tiles, "the second yellow tile may go out of Jackson"
    plain = ic_turn(())
    plain.apply("A", jackson)
    assert "K16" in plain.state.tiles


def test_its_first_turn_may_not_pass_the_lay_out_of_chicago() -> None:
    """Seed 000: "the mandatory IC placement of track emanating from Chicago on its first
    operating turn": neither PASS nor an order of a later step skips it while a lay is legal."""
    from pbem.engine.actions import BuyTrain, Pass

    game = ic_turn()
    with pytest.raises(IllegalOrderError, match="must lay its first tile out of Chicago while it can"):
        game.apply("A", Pass())
    with pytest.raises(IllegalOrderError, match="first lay IC's first tile out of Chicago A22, on B21"):
        game.apply("A", BuyTrain("depot", "4"))
    legal = game.legal_actions("A")
    assert Pass() not in legal and any(isinstance(a, LayTile) and a.hex == "B21" for a in legal)
    assert all(a.hex == "B21" for a in legal if isinstance(a, LayTile))
    game.apply("A", lay(game, "B21", ("A22", "C20")))
    game.apply("A", Pass())  # the second lay may be passed
    assert "B21" in game.state.tiles
    plain = ic_turn(())
    plain.apply("A", Pass())


def test_its_first_tile_ever_goes_out_of_chicago_even_after_a_turn_without_one() -> None:
    game = ic_turn()
    game.state.corporations[IC].operated = True  # a later turn: its first laid nothing
    jackson = lay(game, "K16", ("J17",), CITY)
    with pytest.raises(IllegalOrderError, match="IC's first tile must be laid out of A22: on B21, joined to A22"):
        game.apply("A", jackson)
    from pbem.engine.actions import Pass

    assert Pass() in game.legal_actions("A"), "after its first turn it may lay nothing"
    game.state.tiles["B21"] = (lambda t: (t.tile, t.rotation))(lay(game, "B21", ("A22", "C20")))
    assert problem(game, jackson) is None, "track leaves Chicago's south-west side: the rule is met"


def test_one_upgrade_a_turn_and_no_yellow_tile_after_it() -> None:
    """1870's tile lays, which the IC's rules keep: two yellow tiles or one upgrade a turn."""
    game = ic_turn()
    game.state.phase = "3"
    game.state.tiles["B21"] = (lambda t: (t.tile, t.rotation))(lay(game, "B21", ("A22", "C20")))
    game.state.tiles["K16"] = (lambda t: (t.tile, t.rotation))(lay(game, "K16", ("J17",), CITY))
    upgrade = next(a for a in game.legal_actions("A") if isinstance(a, LayTile) and a.hex == "K16")
    game.apply("A", upgrade)
    assert game.state.tiles["K16"] == (upgrade.tile, upgrade.rotation)
    assert not any(isinstance(a, LayTile) for a in game.legal_actions("A")), "one upgrade and nothing more"
    with pytest.raises(IllegalOrderError):
        game.apply("A", lay(game, "C20", ("B21",)))


def test_never_more_than_two_yellow_tiles_from_both_homes() -> None:
    game = ic_turn()
    game.apply("A", lay(game, "B21", ("A22", "C20")))
    game.apply("A", lay(game, "K16", ("J17",), CITY))
    with pytest.raises(IllegalOrderError):
        game.apply("A", lay(game, "C20", ("B21",)))
    assert "C20" not in game.state.tiles


def test_nothing_on_chicagos_western_side_until_after_its_connection_run() -> None:
    game = later_turn()
    west = lay(game, "A20", ("A22", "B19"))
    assert problem(game, west) == "IC may not build into or out of A22's western side until after its connection run"
    plain = ic_turn(())
    assert plain.hooks.track.lay_problem(plain, IC, west.hex, west.tile, west.rotation) is None
    mine = state1870(game.state)
    mine.destinations_reached.append(IC)
    mine.connections.append(IC)
    assert problem(game, west) is not None, "not while the connection run is still to come"
    mine.connections.clear()
    assert problem(game, west) is None


def test_the_40_token_waits_for_the_operating_round_after_the_connection() -> None:
    game = ic_turn(bridge="closed")
    game.state.corporations[IC].operated = True
    lay_line(game, ("A22", "B21", "B19"))
    why = "IC's $40 token may not be placed until the operating round after its connection run"
    assert track.token_problem(game, IC, "B19", 0) == why
    with pytest.raises(IllegalOrderError):
        game.apply("A", PlaceToken("B19"))
    state1870(game.state).destinations_reached.append(IC)
    state1870(game.state).connection_rounds[IC] = (2, 1)
    assert track.token_problem(game, IC, "B19", 0) == why, "not in the round of the connection"
    game.state.round.or_number = 2
    assert track.token_problem(game, IC, "B19", 0) is None
    plain = ic_turn(())
    assert plain.hooks.track.token_problem(plain, IC, "B19", 0) is None


def test_an_early_token_order_is_refused_with_the_rule() -> None:
    game = later_turn()
    lay_line(game, ("A22", "B21", "B19"))
    with pytest.raises(IllegalOrderError, match=r"place token is not possible now \(IC's \$40 token may not be "
                                                r"placed until the operating round after its connection run\)"):
        game.apply("A", PlaceToken("B19"))


def test_no_other_corporation_has_any_of_it() -> None:
    game = ic_turn()
    for other in game.state.corporations:
        if other == IC:
            continue
        assert illinois.lay_problem(game, other, "G16", "9", 0) is None
        assert illinois.route_problem(game, other, [Vertex("B11", "c0")]) is None
        assert illinois.token_problem(game, other, "B19", 0) is None
        assert illinois.joined(game, other)
        assert illinois.homes(game, other) == ()
        assert not illinois.holds_base(game, other)


def section(game: Game) -> list[str]:
    return list(dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"])


def test_the_report_says_what_the_ic_may_not_do_until_it_has_connected() -> None:
    game = ic_turn()
    lines = section(game)
    assert "IC: homes Jackson K16 and Chicago A22 (its destination token), both placed as it first operates" in lines
    assert "IC: its first tile goes on B21, out of Chicago A22 (in its first turn it may not PASS it)" in lines
    assert any(line.startswith("IC: Jackson K16 and Chicago A22 not yet joined by track through E20") for line in lines)
    assert any("St. Louis C18" in line and "Carthage A16" in line for line in lines)
    game.state.corporations[IC].operated = True
    lay_line(game, ("A22", "B21", "C20"), last=False)
    lines = section(game)
    assert "IC: homes Jackson K16 and Chicago A22 (its destination token)" in lines, "no 'as it first operates'"
    assert not any(line.startswith("IC: its first tile") for line in lines)
    illinois.connect(game, IC)
    lines = section(game)
    assert "IC connected in operating round 2.1: its $40 token from the next one" in lines
    assert not any("not yet joined" in line for line in lines)
    state1870(game.state).connections.clear()
    game.state.round.or_number = 2
    assert not any("connected" in line or "$40" in line for line in section(game))
    assert illinois.report_lines(ic_turn(())) == ()



def test_its_settings_are_parsed_once_into_typed_values() -> None:
    game = ic_turn()
    found = illinois.settings(game)
    assert found == illinois.Settings(frozenset({0}), frozenset({1}), ("A16", 0))
    assert illinois.settings(game) is found, "kept for the game"
    assert illinois.settings(ic_turn(())) == illinois.Settings(frozenset(), frozenset(), None)
