"""The track graph and its one search (pbem/engine/graph.py), on positions built tile by tile
on the 1870 map: reach for tile lays, the fewest stops of a connection and the runs all follow
the same movement rule (never turning back at a hex side, never leaving a stop by the track
it arrived on, no piece of track twice), and the graph follows the tiles laid."""

from __future__ import annotations

import copy

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine import graph, track
from pbem.engine.game import Game
from pbem.ruleset import load_title
from pbem.engine.values import Vertex

# E12 (SLSF's home) and its neighbours on the 1870 map, by edge:
#   E12: 0 F11, 1 E10, 3 D13;  F11: 0 G10, 2 E10, 3 E12;  G10: 0 H9, 3 F11;
#   E10: 2 D9, 4 E12, 5 F11;  D9: 5 E10.
JUNCTION = {"E12": ("57", 0),  # SLSF's home city, track to F11 (edge 0) and D13 (edge 3)
            "F11": ("24", 0)}  # e3-e0 (E12 to G10) and e0-e2 (G10's side back to E10): a junction at edge 0
BEYOND = {"G10": ("4", 0),     # a town joined to F11 (edge 3) and to H9 (edge 0)
          "E10": ("9", 2),     # F11's side (edge 5) to D9's (edge 2)
          "D9": ("4", 2)}      # a town on E10's side (edge 5)


@pytest.fixture
def game() -> Game:
    game = Game(load_title("1870"), ["A", "B", "C"])
    game.state.phase = "3"
    game.state.tokens[CityRef("E12", 0)] = ["SLSF"]
    return game


def test_the_map_is_as_the_positions_assume(game: Game) -> None:
    board = game.board
    assert [board.neighbor("F11", e) for e in (0, 2, 3)] == ["G10", "E10", "E12"]
    assert board.neighbor("E10", 5) == "F11" and board.neighbor("E10", 2) == "D9"
    assert board.neighbor("G10", 3) == "F11" and board.neighbor("E12", 1) == "E10"


def test_reach_for_a_tile_lay_never_turns_back_at_a_hex_side(game: Game) -> None:
    """Fault 5 (Dixon 6.1, "trace a legal train run"): from E12 the track leaves F11 at
    edge 0 by the straight; F11's other path from that edge leads back to E10, which only a
    run turning back at F11's side could use. G10, across that side, is reached; E10 is not,
    so a yellow tile there is refused."""
    game.state.tiles.update(JUNCTION)
    net = track.network(game, "SLSF")
    assert net.hex_edges["G10"] == {3}
    assert "E10" not in net.hex_edges
    assert ("F11", 1) not in net.segments, "F11's second path is not reached"
    assert track.lay_problem(game, "SLSF", "E10", "9", 2) == "SLSF's track does not reach E10"
    assert track.lay_problem(game, "SLSF", "G10", "4", 0) is None


def test_reach_follows_the_junction_the_right_way_round(game: Game) -> None:
    """The same junction entered from the side it joins: from G10 a run may take either
    path of F11, so both E12's and E10's sides are reached."""
    game.state.tiles.update(JUNCTION)
    game.state.tiles["G10"] = ("57", 0)  # a city here, for the token
    game.state.tokens = {CityRef("G10", 0): ["SLSF"]}
    net = track.network(game, "SLSF")
    assert {("F11", 0), ("F11", 1)} <= net.segments
    assert 5 in net.hex_edges["E10"] and 0 in net.hex_edges["E12"]
    assert track.lay_problem(game, "SLSF", "E10", "9", 2) is None


def test_a_connection_never_leaves_a_stop_by_the_track_it_arrived_on(game: Game) -> None:
    """Fault 1: the only way from E12 to the town on D9 enters the town on G10 and turns back
    out along the same path, then takes F11's junction the other way. No route may, so E12
    and D9 are not connected; nor will the run checker accept that run."""
    game.state.tiles.update(JUNCTION | BEYOND)
    assert track.fewest_stops(game, "SLSF", Vertex("E12", "c0"), "G10") == 2
    assert track.fewest_stops(game, "SLSF", Vertex("E12", "c0"), "D9") is None
    assert track.fewest_stops(game, "SLSF", Vertex("E12", "c0"), "D9", most=8) is None
    game.state.corporations["SLSF"].trains = [TrainId("3", 1)]
    with pytest.raises(ValueError, match="without reusing track"):
        track.check_runs(game, "SLSF", [(TrainId("3", 1), ["E12", "G10", "D9"])])


def test_a_connection_is_found_once_the_track_joins_without_turning_back(game: Game) -> None:
    """E12 joined to D9 through E10 without turning back (a city tile with an exit at edge 1,
    a curve on E10 from E12's side to D9's): D9 is two stops away, and not within one."""
    game.state.tiles.update(JUNCTION | BEYOND)
    game.state.tiles["E12"] = ("5", 0)  # exits 0 (F11) and 1 (E10)
    game.state.tiles["E10"] = ("8", 2)  # edges 2 (D9) and 4 (E12)
    assert game.board.neighbor("E10", 4) == "E12"
    assert track.fewest_stops(game, "SLSF", Vertex("E12", "c0"), "D9") == 2
    assert track.fewest_stops(game, "SLSF", Vertex("E12", "c0"), "D9", most=1) is None
    game.state.corporations["SLSF"].trains = [TrainId("2", 1)]
    ran = track.check_runs(game, "SLSF", [(TrainId("2", 1), ["E12", "D9"])])
    assert [r.revenue for r in ran] == [20 + 10], "the city on E12 and the town on D9"


def test_a_route_uses_no_hex_side_twice(game: Game) -> None:
    """A loop that comes back to F11's junction: the way round crosses F11's side at edge 0
    twice, which no route may do (1830 rules 6.5)."""
    game.state.tiles.update(JUNCTION | BEYOND)
    for link in track.track_graph(game).links(Vertex("E12", "c0")):
        pieces = [p for seg in link.segments for p in seg.pieces]
        assert len(pieces) == len(set(pieces))


# A balloon beyond SLSF's E12: F11 (#28) joins E12's side and E10's side each to F13's side;
# F13 (#24) takes that side on to E14 and to F15, and E14 and F15 (#7) close the loop.
BALLOON = {"E12": ("57", 0), "F11": ("28", 4), "F13": ("24", 1), "E14": ("7", 5), "F15": ("7", 1)}


def test_reach_needs_a_route_that_uses_no_track_twice(game: Game) -> None:
    """Dixon's 1870 rules 8.1.4 (a route may not use a section of track twice), as the reach
    for a lay or token must be traced (6.1): the only walk from E12 onto F11's path to E10 goes
    round the loop and back over the F11-F13 side it went out by. The loop is reached; E10
    and F11's path to it are not, so a tile on E10 is refused."""
    game.state.tiles.update(BALLOON)
    net = track.network(game, "SLSF")
    assert {("F13", 0), ("F13", 1), ("E14", 0), ("F15", 0)} <= net.segments
    assert ("F11", 0) not in net.segments
    assert "E10" not in net.hex_edges
    assert track.lay_problem(game, "SLSF", "E10", "9", 2) == "SLSF's track does not reach E10"


def test_the_balloon_seen_from_its_other_branch(game: Game) -> None:
    """The same track with SLSF's token on E10 instead (a city there, joined to F11): its
    route takes F11's other path out to F13 and round the loop, all of which is reached; the
    path to E12's side again only by coming back over the F11-F13 side, so it is not."""
    game.state.tiles.update(BALLOON)
    game.state.tiles["E10"] = ("57", 2)  # exits 2 (D9) and 5 (F11)
    game.state.tokens = {CityRef("E10", 0): ["SLSF"]}
    net = track.network(game, "SLSF")
    assert {("F11", 0), ("F13", 0), ("F13", 1), ("E14", 0), ("F15", 0)} <= net.segments
    assert ("F11", 1) not in net.segments
    assert 0 not in net.hex_edges.get("E12", set())


def test_the_graph_follows_each_tile_laid_and_keeps_the_rest(game: Game) -> None:
    """A tile laid replaces only its hex's segments in a new graph; the other hexes'
    segments are the same objects, the old graph is unchanged, and the graph built from
    scratch agrees with the one brought up to date."""
    before = track.track_graph(game)
    assert track.track_graph(game) is before, "nothing changed: the same graph"
    game.state.tiles.update(JUNCTION)
    after = track.track_graph(game)
    assert after is not before
    assert before.by_hex["F11"] == () and len(after.by_hex["F11"]) == 2
    assert after.by_hex["M20"] is before.by_hex["M20"]
    fresh = graph.TrackGraph.build(game.board, game.tiles, game.state.tiles)
    assert {v: sorted(s.key for s in segs) for v, segs in fresh.adjacency.items()} == \
        {v: sorted(s.key for s in segs) for v, segs in after.adjacency.items()}
    twin = copy.deepcopy(game)
    assert track.network(twin, "SLSF").hex_edges == track.network(game, "SLSF").hex_edges


def test_links_are_kept_where_no_hex_they_touch_changed(game: Game) -> None:
    """The ways between stops found on one graph stay on the next for every stop whose ways
    touch no changed hex, and are found again for the others: E12's ways end at the town
    on G10, so a tile on H9 (beyond the town) keeps them, while the town's own ways, which
    reach H9's side, are found again; a tile on D13, on E12's other side, renews E12's."""
    game.state.tiles.update(JUNCTION | BEYOND)
    first = track.track_graph(game)
    near, town = first.links(Vertex("E12", "c0")), first.links(Vertex("G10", "t0"))
    assert [link.end for link in near] == [Vertex("G10", "t0")]
    game.state.tiles["H9"] = ("9", 0)
    second = track.track_graph(game)
    assert second.links(Vertex("E12", "c0")) is near
    assert second.links(Vertex("G10", "t0")) is not town
    game.state.tiles["D13"] = ("9", 0)
    assert track.track_graph(game).links(Vertex("E12", "c0")) is not near


def test_the_network_is_cached_against_graph_and_tokens(game: Game) -> None:
    game.state.tiles.update(JUNCTION)
    net = track.network(game, "SLSF")
    assert track.network(game, "SLSF") is net
    game.state.tokens[CityRef("G10", 0)] = ["SLSF"]
    assert track.network(game, "SLSF") is not net


def test_the_graph_brought_up_to_date_through_a_whole_game_equals_one_built_afresh() -> None:
    """Replayed game 1870_game_end_bank up to action 1303 (every tile lay and upgrade applied
    to the graph kept on the game): its segments, and every corporation's reach, are those of
    a graph built from scratch on the final tiles."""
    from tests.records import replayed_before

    game = replayed_before("1870", "1870_game_end_bank.json", 1303).game
    kept = track.track_graph(game)
    fresh = graph.TrackGraph.build(game.board, game.tiles, game.state.tiles)
    assert {c: [(s.key, s.a, s.b) for s in segs] for c, segs in kept.by_hex.items()} == \
        {c: [(s.key, s.a, s.b) for s in segs] for c, segs in fresh.by_hex.items()}
    assert {v: sorted(s.key for s in segs) for v, segs in kept.adjacency.items()} == \
        {v: sorted(s.key for s in segs) for v, segs in fresh.adjacency.items()}
    for corp in game.state.corporations:
        assert track.network(game, corp) == track.network(game, corp, graph=fresh), corp
        ends = {stop: [(link.end, [s.key for s in link.segments]) for link in kept.links(stop)]
                for stop in track.network(game, corp).stops}
        assert ends == {stop: [(link.end, [s.key for s in link.segments]) for link in fresh.links(stop)]
                        for stop in ends}, corp


def test_a_copy_of_the_game_starts_from_the_same_graph_and_goes_its_own_way(game: Game) -> None:
    """The graph is immutable, so a copy of the game (a report trying an order) shares it
    instead of building its own; a tile laid in the copy leaves the original's graph alone."""
    game.state.tiles.update(JUNCTION)
    kept = track.track_graph(game)
    twin = copy.deepcopy(game)
    assert track.track_graph(twin) is kept
    twin.state.tiles["E10"] = ("9", 2)
    assert track.track_graph(twin) is not kept and track.track_graph(game) is kept
    assert kept.by_hex["E10"] == ()
