"""Jerkich's Ohio River rules for 1870's Historical Order Start (issue 13, seed 000) and the
GM&O's track rule, on built positions: the MP with a token in Springfield IL (B19), track
B19-C20-D19 to E20's NW side (north of the Ohio); the SSW with a token in Memphis (H17), track
H17-H19-G20-F21 to E20's SE side (south of it)."""

from __future__ import annotations

import pytest

from pbem.engine.values import CityRef
from pbem.engine import lays, routes, track, upgrades
from pbem.engine.actions import LayTile, RunRoutes, TrainRun
from pbem.engine.game import Game
from pbem.engine.state import OperatingState, Owner, RoundState
from pbem.engine.steps import operating
from pbem.engine.values import Vertex
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title
from pbem.titles.g1870 import gmo, ohio, rivers
from pbem.titles.g1870.state import state1870

VARIANT = ("historical_order_start",)
NORTH, SOUTH = "MP", "SSW"
NORTH_LINE = (("B19", "57", ("C20", "A18")), ("C20", "8", ("B19", "D19")), ("D19", "8", ("C20", "E20")))
SOUTH_LINE = (("H17", "5", ("H19", "I18")), ("H19", "8", ("H17", "G20")), ("G20", "4", ("H19", "F21")),
              ("F21", "8", ("G20", "E20")))
from tests.changed import with_title_rules


def rotation(game: Game, coord: str, tile: str, toward: tuple[str, ...]) -> int:
    """A rotation of ``tile`` on ``coord`` whose exits are exactly toward ``toward``."""
    wanted = {e for e in range(6) if game.board.neighbor(coord, e) in toward}
    found = [r for r in range(6) if game.tiles[tile].exits(r) == wanted]
    assert found, f"#{tile} cannot join {toward} on {coord}"
    return found[0]


def position(variants: tuple[str, ...] = VARIANT, *, bridge: Owner | None = Owner.player("A"),
             e20: tuple[str, int] | None = None, trains: str = "8") -> Game:
    """Both lines built, MP and SSW floated with a token at their line's end and one train of
    ``trains`` each; the Bridge Company held by ``bridge``; ``e20`` the tile on E20, if any."""
    game = Game(load_title("1870", variants), ["A", "B", "C"])
    state = game.state
    state.phase = "5"
    for corp, line in ((NORTH, NORTH_LINE), (SOUTH, SOUTH_LINE)):
        data = state.corporations[corp]
        data.floated, data.ipoed, data.president, data.cash = True, True, "A", 500
        train = next(t for t in state.depot if t.kind == trains)
        state.depot.remove(train)
        data.trains.append(train)
        for coord, tile, toward in line:
            state.tiles[coord] = (tile, rotation(game, coord, tile, toward))
        state.tokens.setdefault(CityRef(line[0][0], 0), []).append(corp)
    state.companies[rivers.BRIDGE_COMPANY].owner = bridge
    if e20 is not None:
        state.tiles["E20"] = e20
    state.round = RoundState(kind="operating", operating=OperatingState(order=[NORTH, SOUTH]))
    return game


def run(game: Game, corp: str, stops: tuple[str, ...]) -> int:
    train = game.state.corporations[corp].trains[0].kind
    action = RunRoutes((TrainRun(train, stops),))
    return sum(r.revenue for r in operating.checked_runs(game, corp, action))


# -- the table ------------------------------------------------------------------------------


def test_the_cairo_table_names_every_legal_rotation_and_the_seeds_non_crossing_cases() -> None:
    game = position()
    table = ohio.cairo_table(game)
    for tile in ("1", "2", "55", "56", "69"):
        on_map = {r for r in range(6)
                  if all(game.board.neighbor("E20", e) is not None for e in game.tiles[tile].exits(r))}
        assert on_map == {r for t, r in table if t == tile}, f"#{tile}: the seed's two positions"
    # the seed's note: in #2 NE, #56 NE and #69 SW Cairo's track does not cross the river
    not_crossing = set()
    for (tile, rot), cairo in table.items():
        edges = {int(e[1:]) for path in game.tiles[tile].paths_at(rot) if cairo in path
                 for e in path if e.startswith("e")}
        if len({ohio.edge_side(e) for e in edges}) == 1:
            assert {ohio.edge_side(e) for e in edges} == {"north"}
            not_crossing.add((tile, rot))
    assert not_crossing == {("2", 0), ("56", 0), ("69", 5)}
    # #1 and #69 as the seed places their towns: Cairo west on #1, Cairo NE on #69 E
    assert table[("1", 2)] == "t1" and game.tiles["1"].paths_at(2)[2:] == (("e2", "t1"), ("t1", "e0"))
    assert table[("69", 3)] == "t0" and {"t0", "e3"} in [set(p) for p in game.tiles["69"].paths_at(3)]


def test_a_malformed_table_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position()
    game.title = with_title_rules(game.title, **{ohio.CAIRO: "1:2:t1 2:7:t0"})
    with pytest.raises(ValueError, match="'2:7:t0' is not tile:rotation"):
        ohio.cairo_table(game)


def test_the_engine_refuses_e20_track_off_the_map() -> None:
    game = position()
    problem = track.lay_problem(game, NORTH, "E20", "1", 0)
    assert problem is not None and "runs off the map" in problem


# -- the F19/E18 hex side -------------------------------------------------------------------


@pytest.mark.parametrize(("coord", "tile", "edges"), [("F19", "7", {2, 3}), ("F19", "8", {2, 4}),
                                                      ("E18", "8", {5, 3}), ("E18", "7", {5, 4})])
def test_no_tile_joins_the_ohio_hexside_to_the_eastern_bank_while_the_bridge_is_unsold(
        coord: str, tile: str, edges: set[int]) -> None:
    game = position(bridge=None)
    rot = next(r for r in range(6) if game.tiles[tile].exits(r) == edges)
    problem = game.hooks.track.lay_problem(game, SOUTH, coord, tile, rot)
    assert problem is not None and "would cross the Ohio between F19 and E18" in problem
    # plain 1870: an unsold Bridge Company bars nothing
    plain = position((), bridge=None)
    assert plain.hooks.track.lay_problem(plain, SOUTH, coord, tile, rot) is None
    # sold to a corporation, the Ohio is open
    game.state.companies[rivers.BRIDGE_COMPANY].owner = Owner.corporation("MP")
    assert game.hooks.track.lay_problem(game, SOUTH, coord, tile, rot) is None


def test_the_hexside_lies_east_of_the_mississippi_in_both_hexes() -> None:
    """Seed: "track built 'east' of the Mississippi River may thus not cross the hexside
    between F19 and E18": both its edges are on the eastern bank, Illinois to the north (E18)
    and Kentucky to the south (F19), and in plain 1870's banks both were western."""
    for variants, side in ((VARIANT, "east"), ((), "west")):
        title = load_title("1870", variants)
        found = rivers.sides(title)
        assert {rivers.edge_side(title, found, coord, edge) for coord, edge in rivers.OHIO_HEXSIDE} == {side}
    found = rivers.sides(load_title("1870", VARIANT))
    assert rivers.ohio_side(found, "E18/east") == "north" and rivers.ohio_side(found, "F19/east") == "south"


@pytest.mark.parametrize("holder", [Owner.player("A"), None])
def test_an_eastern_lay_across_the_hexside_is_refused_until_a_corporation_owns_the_bridge(
        holder: Owner | None) -> None:
    """Kentucky track in F19 from its NE side (toward E20) to its NW side (toward E18), and
    Illinois track in E18 from its E side to its SE side (toward F19): both eastern-bank lays,
    refused while a player holds the Bridge Company or nobody has bought it; allowed once a
    corporation owns it or it has closed. Track in F19 that keeps off the side may be laid."""
    game = position(bridge=holder)
    f19 = rotation(game, "F19", "7", ("E20", "E18"))
    e18 = rotation(game, "E18", "7", ("E20", "F19"))
    for coord, rot in (("F19", f19), ("E18", e18)):
        problem = game.hooks.track.lay_problem(game, SOUTH, coord, "7", rot)
        assert problem is not None and "would cross the Ohio between F19 and E18" in problem
    assert game.hooks.track.lay_problem(game, SOUTH, "F19", "7", rotation(game, "F19", "7", ("E20", "F21"))) is None
    game.state.companies[rivers.BRIDGE_COMPANY].owner = Owner.corporation("MP")
    assert game.hooks.track.lay_problem(game, SOUTH, "F19", "7", f19) is None
    assert game.hooks.track.lay_problem(game, SOUTH, "E18", "7", e18) is None
    game.state.companies[rivers.BRIDGE_COMPANY].owner = holder
    game.state.companies[rivers.BRIDGE_COMPANY].closed = True
    assert game.hooks.track.lay_problem(game, SOUTH, "F19", "7", f19) is None


# -- lays in E20 ----------------------------------------------------------------------------


def test_a_northern_company_must_reach_cairo() -> None:
    game = position()
    assert track.network(game, NORTH).hex_edges["E20"] == {2}
    # #1 r2: the NW edge leads to the western town, Cairo
    assert track.lay_problem(game, NORTH, "E20", "1", 2) is None
    # #2 r5: the NW edge leads to the straight line's town, Paducah
    problem = track.lay_problem(game, NORTH, "E20", "2", 5)
    assert problem is not None and "to Paducah (E20.0)" in problem and "its own side" in problem
    # the LAY order is refused with the reason, and the report's list of lays leaves it out
    order = operating.Track.problem(game, NORTH, LayTile("E20", "2", 5))
    assert order is not None and "must connect to the town on its own side" in order
    listed = {(lay.hex, lay.tile, lay.rotation) for lay in lays.legal_lays(game, NORTH)}
    assert ("E20", "1", 2) in listed and ("E20", "2", 5) not in listed
    plain = position(())
    assert track.lay_problem(plain, NORTH, "E20", "2", 5) is None


def test_a_southern_company_must_reach_paducah() -> None:
    game = position()
    assert track.network(game, SOUTH).hex_edges["E20"] == {5}
    assert track.lay_problem(game, SOUTH, "E20", "2", 5) is None, "the SE edge leads to Paducah on #2 NW"
    assert track.lay_problem(game, SOUTH, "E20", "55", 2) is None, "#55 NE: the SE arm's town is Paducah"
    problem = track.lay_problem(game, SOUTH, "E20", "55", 5)
    assert problem is not None and "to Cairo" in problem, "#55 SW: the NW-SE line's town is Cairo, on the NW arm"
    game.state.companies[rivers.BRIDGE_COMPANY].owner = Owner.corporation("MP")
    assert track.lay_problem(game, SOUTH, "E20", "55", 5) is None, "the bridge open, the Ohio is no bar"


def _line(game: Game, tile: str, rot: int, town: str) -> frozenset[int]:
    """The edges joined to ``town`` of ``tile`` at ``rot``."""
    return frozenset(int(e[1:]) for path in game.tiles[tile].paths_at(rot) if town in path
                     for e in path if e.startswith("e"))


def test_55s_two_positions_turn_its_northern_town_round() -> None:
    """Seed: "#55 NE: Cairo is north and Paducah is south", and the same for #55 SW. The two
    positions are 180 degrees apart: each straight line lies on itself in both, and a town
    standing off the crossing on one arm of its line is on the opposite arm after the turn, so
    the town that is north in one position is south in the other."""
    game = position()
    table = ohio.cairo_table(game)
    assert all(_line(game, "55", 2, t) == _line(game, "55", 5, t) for t in ("t0", "t1")), "a line lies on itself"
    assert table[("55", 2)] != table[("55", 5)]
    # the tile's picture unturned: t0 on the arm toward edge 3, t1 toward edge 1; turned by r
    arm = {"t0": 3, "t1": 1}
    for rot in (2, 5):
        north = [t for t, edge in arm.items() if (edge + rot) % 6 in rivers.OHIO_NORTH_EDGES]
        assert north == [table[("55", rot)]], f"#55 r{rot}: Cairo is the town on a northern arm"
        assert ohio.town_side(game, "55", rot, table[("55", rot)]) == "north"
    assert (table[("55", 2)], table[("55", 5)]) == ("t1", "t0")


def test_56_nw_cairo_is_the_town_on_the_sw_nw_curve() -> None:
    """Seed: "#56 NW: Cairo is north and Paducah is south on the tile". #56 NW is r5: its
    curves are SW-NW (t1) and SE-W (t0); the SW-NW curve stands further north (its NW end)
    and is Cairo, the SE-W curve (its SE end) Paducah. A northern company from D19 (the NW
    side) reaches Cairo on it; a southern one from F21 (SE) reaches Paducah."""
    game = position()
    assert _line(game, "56", 5, "t1") == {0, 2} and _line(game, "56", 5, "t0") == {5, 1}
    assert ohio.town_side(game, "56", 5, "t1") == "north" and ohio.town_side(game, "56", 5, "t0") == "south"
    assert ohio.town_label(game, "t1") == "E20.1"
    game.state.tiles["E20"] = ("56", 5)
    assert ohio.town_label(game, "t1") == "Cairo (E20.1)" and ohio.town_label(game, "t0") == "Paducah (E20.0)"
    del game.state.tiles["E20"]
    assert track.lay_problem(game, NORTH, "E20", "56", 5) is None, "D19's NW side leads to Cairo"
    assert track.lay_problem(game, SOUTH, "E20", "56", 5) is None, "F21's SE side leads to Paducah"
    game.state.tiles["E20"] = ("56", 5)
    assert run(game, NORTH, ("B19", "E20.1")) > 0, "the northern run ends in Cairo"
    assert run(game, SOUTH, ("H17", "G20", "E20.0")) > 0, "the southern run ends in Paducah"


def test_a_tile_the_table_does_not_name_is_refused_in_e20(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position()
    game.title = with_title_rules(game.title, **{ohio.CAIRO: "2:0:t1 2:5:t1"})
    problem = track.lay_problem(game, NORTH, "E20", "1", 2)
    assert problem is not None and "names no Cairo" in problem


# -- track out of E20 across the Ohio ---------------------------------------------------------

# #1 at r2: Cairo (t1) joins NW and SW, Paducah (t0) NE and SE: each line crosses the river
BOTH_CROSS = ("1", 2)


def test_no_track_continues_out_of_e20_across_the_ohio() -> None:
    game = position(e20=BOTH_CROSS)
    f19 = exact(game, "9", {0, 3})
    problem = game.hooks.track.lay_problem(game, NORTH, "F19", "9", f19)
    assert problem is not None and "continue Cairo's line across the Ohio into Kentucky" in problem
    assert "Cairo (E20.1)" in problem
    d21 = rotation(game, "D21", "7", ("E20", "D19"))
    problem = game.hooks.track.lay_problem(game, SOUTH, "D21", "7", d21)
    assert problem is not None and "continue Paducah's line across the Ohio into Illinois" in problem
    # the order is refused with the reason
    order = operating.Track.problem(game, NORTH, LayTile("F19", "9", f19))
    assert order is not None and "across the Ohio into Kentucky" in order
    # the same lays where the side's track is its own side's town, or with the bridge open
    kept = position(e20=("2", 0))  # Paducah t0 SW-NE, Cairo t1 W-NW
    assert ohio.crossing_problem(kept, "F19", "9", f19) is None
    assert ohio.crossing_problem(kept, "D21", "7", d21) is not None, "#2 r0: Paducah's NE exit"
    game.state.companies[rivers.BRIDGE_COMPANY].owner = Owner.corporation("MP")
    assert ohio.crossing_problem(game, "F19", "9", f19) is None
    assert ohio.crossing_problem(position((), e20=BOTH_CROSS), "F19", "9", f19) is None, "plain 1870"


def test_only_new_track_toward_e20_is_judged() -> None:
    game = position(e20=BOTH_CROSS)
    # F21's old track already reaches E20's SE side (Paducah's, south): an upgrade keeping it passes
    assert ohio.crossing_problem(game, "D21", "7", rotation(game, "D21", "7", ("C20", "D19"))) is None
    # a tile beside an empty E20 is judged when E20's tile is laid
    empty = position()
    assert ohio.crossing_problem(empty, "F19", "9", exact(empty, "9", {0, 3})) is None


def test_the_tile_on_e20_itself_may_join_both_sides() -> None:
    game = position()
    game.state.tiles["F19"] = ("9", exact(game, "9", {0, 3}))  # Kentucky track into E20's SW side
    assert ohio.crossing_problem(game, "E20", "1", 2) is None, "the seed: whether or not it connects"
    assert game.hooks.track.lay_problem(game, NORTH, "E20", "1", 2) is None


def test_no_tile_upgrades_e20() -> None:
    game = position(e20=BOTH_CROSS)
    assert all(upgrades.upgrade_problem(game, "E20", tile, r) is not None
               for tile in game.tiles.values() for r in range(6)), "so the lay rule covers E20"


# -- runs while the Ohio is closed ------------------------------------------------------------

# #2 at r5 (laid by the SSW): its straight line joins D19 and F21 through Paducah (t0)
CROSSING = ("2", 5)
THROUGH = ("B19", "E20.0", "G20", "H17")


def test_a_run_may_not_pass_through_e20() -> None:
    game = position(e20=CROSSING)
    with pytest.raises(IllegalOrderError, match=r"may not pass through E20 \(Paducah \(E20.0\)\): it dead-ends"):
        run(game, NORTH, THROUGH)
    plain = position((), e20=CROSSING)
    assert run(plain, NORTH, THROUGH) > 0


def test_a_run_ends_in_the_town_on_its_side() -> None:
    game = position(e20=CROSSING)
    with pytest.raises(IllegalOrderError, match=r"may not cross the Ohio at E20: Paducah \(E20.0\) is south"):
        run(game, NORTH, ("B19", "E20.0"))
    with pytest.raises(IllegalOrderError, match="may not pass through E20"):
        run(game, SOUTH, ("H17", "G20", "E20.0", "B19"))
    # the SSW's run from Memphis ends in Paducah and counts it ($10 + $10 small-city bonus)
    assert run(game, SOUTH, ("H17", "G20", "E20.0")) == 20 + 20 + 20


def test_a_northern_run_ends_in_cairo() -> None:
    game = position(e20=("1", 2))
    assert run(game, NORTH, ("B19", "E20.1")) == 20 + 20


def test_a_gmo_run_from_the_south_ends_at_paducah() -> None:
    """The GM&O's own clause (seed 000: its trains south of the Ohio do not pass north of
    Paducah): the GM&O in the SSW's place, with a token in Memphis."""
    game = position(e20=CROSSING)
    state = game.state
    ssw, gmo_ = state.corporations[SOUTH], state.corporations["GMO"]
    gmo_.floated, gmo_.ipoed, gmo_.president, gmo_.cash = True, True, "A", 500
    gmo_.trains, ssw.trains = ssw.trains, []
    state.tokens[CityRef("H17", 0)] = ["GMO"]
    assert run(game, "GMO", ("H17", "G20", "E20.0")) == 20 + 20 + 20
    with pytest.raises(IllegalOrderError, match="may not pass through E20"):
        run(game, "GMO", ("H17", "G20", "E20.0", "B19"))
    state.companies[rivers.BRIDGE_COMPANY].owner = Owner.corporation("MP")
    assert run(game, "GMO", ("H17", "G20", "E20.0", "B19")) > 60, "the bridge open"


def test_the_bridge_sold_to_a_corporation_opens_the_ohio_for_runs() -> None:
    game = position(e20=CROSSING)
    game.state.companies[rivers.BRIDGE_COMPANY].owner = Owner.corporation("SSW")
    assert run(game, NORTH, THROUGH) > 0
    game.state.companies[rivers.BRIDGE_COMPANY].owner = Owner.player("A")
    game.state.companies[rivers.BRIDGE_COMPANY].closed = True
    assert run(game, NORTH, THROUGH) > 0


def test_run_auto_keeps_to_the_dead_end() -> None:
    def best(game: Game, corp: str) -> list[tuple[str, ...]]:
        found = routes.cached_best_run(game, corp)
        assert found.complete
        return [tuple(f"{v.coord}-{v.stop}" for v in route.stops) for _, route in found.runs]

    game = position(e20=CROSSING)
    assert best(game, NORTH) == [], "the MP's only track leads to Paducah"
    south = best(game, SOUTH)
    assert south and all(stops[0] == "E20-t0" or stops[-1] == "E20-t0" for stops in south)
    assert all(not any(s.startswith("B19") for s in stops) for stops in south)
    # the bridge opened, the same position runs through E20 (the best run is not kept from before)
    game.state.companies[rivers.BRIDGE_COMPANY].owner = Owner.corporation("SSW")
    assert any(any(s.startswith("B19") for s in stops) for stops in best(game, SOUTH))
    plain = position((), e20=CROSSING)
    assert any(any(s.startswith("B19") for s in stops) for stops in best(plain, NORTH))


# -- the GM&O ---------------------------------------------------------------------------------


def exact(game: Game, tile: str, edges: set[int]) -> int:
    """The rotation of ``tile`` whose exits are ``edges``."""
    return next(r for r in range(6) if game.tiles[tile].exits(r) == edges)


def gmo_cases(game: Game) -> list[tuple[str, str, int]]:
    """Lays that put track west of the Mississippi, the Bridge Company being owned by a
    corporation (so the core's Mississippi rule bars none of them): a hex west of the river;
    a path from F19's eastern bank to its western; an upgrade of D17 whose only new path runs
    from its eastern edge to its town on the western bank (the old #3 on western edges)."""
    game.state.tiles["D17"] = ("3", 0)
    return [("B15", "8", exact(game, "8", {0, 2})), ("F19", "8", exact(game, "8", {1, 3})),
            ("D17", "142", exact(game, "142", {0, 1, 4}))]


def test_the_gmo_builds_nothing_west_of_the_mississippi_before_st_louis() -> None:
    game = position(bridge=Owner.corporation("MP"))
    plain = position((), bridge=Owner.corporation("MP"))
    for (coord, tile, rot), again in zip(gmo_cases(game), gmo_cases(plain)):
        problem = game.hooks.track.lay_problem(game, "GMO", coord, tile, rot)
        assert problem is not None and "GMO may not build west of the Mississippi until it has reached its destination C18" in problem
        assert game.hooks.track.lay_problem(game, "MP", *again) is None, "only the GM&O"
        assert plain.hooks.track.lay_problem(plain, "GMO", *again) is None, "plain 1870"
    state1870(game.state).destinations_reached.append("GMO")
    for coord, tile, rot in gmo_cases(game):
        assert game.hooks.track.lay_problem(game, "GMO", coord, tile, rot) is None, "St. Louis reached"


def test_the_gmo_may_lay_in_st_louis_and_east_of_the_river() -> None:
    game = position(bridge=Owner.corporation("MP"))
    assert gmo.west_problem(game, "GMO", "C18", "57", exact(game, "57", {2, 5})) is None, "C18 itself"
    assert gmo.west_problem(game, "GMO", "F19", "9", exact(game, "9", {0, 3})) is None, "F19's eastern bank"
    assert gmo.west_problem(game, "GMO", "D19", "8", 0) is None


# -- the report -------------------------------------------------------------------------------


def test_the_report_gives_the_rivers_state() -> None:
    game = position()
    lines = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert any(line.startswith("Ohio and Mississippi closed until the Bridge Company is sold to a "
                               "corporation or closes (MRBC held by A)") for line in lines)
    game.state.companies[rivers.BRIDGE_COMPANY].owner = Owner.corporation("MP")
    lines = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert "Ohio and Mississippi open: MRBC owned by MP" in lines
    game.state.companies[rivers.BRIDGE_COMPANY].closed = True
    assert "Ohio and Mississippi open: MRBC closed" in ohio.report_lines(game)
    plain = position(())
    assert ohio.report_lines(plain) == ()


def test_the_report_names_e20s_towns_once_a_tile_is_there() -> None:
    assert not any("E20's towns" in line for line in ohio.report_lines(position()))
    lines = ohio.report_lines(position(e20=BOTH_CROSS))
    assert "E20's towns: E20.1 Cairo (north), E20.0 Paducah (south)" in lines
    assert "E20's towns: E20.0 Cairo (north), E20.1 Paducah (south)" in ohio.report_lines(position(e20=("1", 5)))
    assert ohio.town_label(position(e20=BOTH_CROSS), "t0") == "Paducah (E20.0)"
    assert ohio.town_label(position(), "t0") == "E20.0"


def test_the_table_is_parsed_once_per_game(monkeypatch: pytest.MonkeyPatch) -> None:
    game = position()
    first = ohio.cairo_table(game)
    assert ohio.cairo_table(game) is first
    game.title = with_title_rules(game.title, **{ohio.CAIRO: "2:0:t1"})
    assert dict(ohio.cairo_table(game)) == {("2", 0): "t1"}, "a changed setting is read again"


def test_plain_1870_plays_none_of_it() -> None:
    title = load_title("1870")
    assert title.title_rule(ohio.RULE) is False and title.title_rule(gmo.RULE) == ""
    game = position((), e20=CROSSING)
    assert not ohio.closed(game)
    stops = [Vertex("B19", "c0"), Vertex("E20", "t0"), Vertex("G20", "t0"), Vertex("H17", "c0")]
    assert game.hooks.routes.route_problem(game, NORTH, stops) is None
    assert game.title.presentation.report_sections(game) == ()
