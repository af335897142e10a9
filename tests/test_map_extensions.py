"""The map-side extension points the next titles need (issue 11), each exercised by a small
made-up title built from 1830's data with the title's data changed: trains run as one
(1825's double-heading), map pieces that gate track laying (1829's survey parties), and sea
links between off-board areas (packets). 1830 itself keeps its rules (the last test of
each part)."""

from __future__ import annotations

import copy
import dataclasses
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine.sequence import RoundSequence
from pbem.engine.track_rules import TrackRules
from pbem.engine import lays, pieces, routes, track
from pbem.engine.board import SeaLinkData
from pbem.engine.actions import LayTile, Pass, RunRoutes, TrainRun, action_from_dict
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.state import TitleState
from pbem.engine.steps import operating as op_steps
from pbem.engine.title import TitleData
from pbem.engine.events import render_all
from pbem.errors import ConfigError, IllegalOrderError, OrderSyntaxError
from pbem.orders import Vocabulary, format_order, help_text, parse_order
from pbem.engine.settings import GatingRule, HeadingRule
from pbem.ruleset import load_title
from pbem.ruleset.board import load_map
from pbem.engine.values import Vertex
from tests.changed import with_settings
from tests.records import REPO
from tests.test_engine_operating import P1, P2, P3, float_corp, operating


def made_up(**settings: Any) -> TitleData:
    """1830's data with ``settings`` given anew."""
    return with_settings(load_title("1830"), **settings)


def new_game(title: TitleData) -> Game:
    """A game of ``title`` with 1830's privates sold at face value."""
    game = Game(title, [P1, P2, P3])
    from pbem.engine.actions import BuyPrivate

    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA")):
        game.apply(player, BuyPrivate(company))
    return game


def prr_with_two_2_trains(title: TitleData) -> Game:
    """PRR (home H12) with track to H10 and H16 and two 2-trains, at its run."""
    game = new_game(title)
    float_corp(game, "PRR", P1, 100, 1000)
    game.state.tiles["H10"] = ("57", 1)
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    game.state.corporations["PRR"].trains = [TrainId("2", 0), TrainId("2", 1)]
    game.state.depot.remove(TrainId("2", 0))
    game.state.depot.remove(TrainId("2", 1))
    game.state.types_sold.append("2")
    operating(game)
    game.apply(P1, Pass())  # no track
    game.apply(P1, Pass())  # no token
    return game


# -- two trains run as one (1825) ----------------------------------------------------------------

HEADED = {"double_heading": HeadingRule(most=2)}


def test_two_trains_run_as_one_route_of_their_summed_length_paid_once() -> None:
    game = prr_with_two_2_trains(made_up(**HEADED))
    three_stops = ("H10", "H12", "H16")
    with pytest.raises(IllegalOrderError, match="may visit 2 stops"):
        copy.deepcopy(game).apply(P1, RunRoutes((TrainRun("2", three_stops),)))
    alone = sum(track.stop_revenue(game, v) for v in (Vertex("H10", "c0"), Vertex("H12", "c0"), Vertex("H16", "c0")))
    events = render_all(game.apply(P1, RunRoutes((TrainRun("2", three_stops, ("2",)),))), game.money)
    assert f"PRR runs 2+2 trains as one for ${alone}: H10-H12-H16" in events
    assert game.state.round.operating.revenue == alone
    assert [(r.train, r.joined) for r in game.last_run] == [(TrainId("2", 0), (TrainId("2", 1),))]


def test_the_best_run_heads_the_trains_when_that_pays_and_checks_as_a_run() -> None:
    """With Philadelphia (H18) joined beyond Lancaster, alone the two 2-trains run H10-H12 and
    H12-H16 (each needs PRR's token at H12); as one they run H18-H16-H12-H10, worth more,
    which the optimiser finds and the order accepts at that revenue."""
    def position(title: TitleData) -> Game:
        game = prr_with_two_2_trains(title)
        game.state.tiles["H18"] = ("59", 1)
        return game

    headed = position(made_up(**HEADED))
    value = sum(track.stop_revenue(headed, v) for v in (Vertex("H18", "c0"), Vertex("H16", "c0"), Vertex("H12", "c0"), Vertex("H10", "c0")))
    found = routes.best_run(headed, "PRR")
    assert found.complete and found.revenue == value
    assert found.joined == {TrainId("2", 0): (TrainId("2", 1),)} and found.describe(headed).startswith("2+2: ")
    headed.apply(P1, found.action(headed))
    assert [r.revenue for r in headed.last_run] == [value]
    alone = routes.best_run(position(load_title("1830")), "PRR")
    assert alone.complete and alone.revenue < value and alone.joined == {} and len(alone.runs) == 2


def test_a_train_heading_another_runs_no_route_of_its_own() -> None:
    game = prr_with_two_2_trains(made_up(**HEADED))
    with pytest.raises(IllegalOrderError, match="has no 2 train left to run"):
        game.apply(P1, RunRoutes((TrainRun("2", ("H10", "H12", "H16"), ("2",)), TrainRun("2", ("H12", "H16")))))


def test_the_title_may_give_a_combination_its_own_length() -> None:
    """1825: two 2-trains run as one 3-train; here as one 2-train, so three stops are too many."""
    game = prr_with_two_2_trains(made_up(double_heading=HeadingRule(2, {"2+2": 2})))
    with pytest.raises(IllegalOrderError, match="2\\+2 trains run as one may visit 2 stops, not 3"):
        game.apply(P1, RunRoutes((TrainRun("2", ("H10", "H12", "H16"), ("2",)),)))


def test_without_double_heading_trains_run_alone() -> None:
    game = prr_with_two_2_trains(load_title("1830"))
    with pytest.raises(IllegalOrderError, match="trains may not run as one"):
        game.apply(P1, RunRoutes((TrainRun("2", ("H10", "H12", "H16"), ("2",)),)))


def test_the_run_order_reads_2_plus_2_only_where_the_title_allows_it() -> None:
    title = made_up(**HEADED)
    vocab = Vocabulary.from_title(title)
    action = parse_order("RUN 2+2: H10-H12-H16; 2: H12-H10", vocab)
    assert action == RunRoutes((TrainRun("2", ("H10", "H12", "H16"), ("2",)), TrainRun("2", ("H12", "H10"))))
    assert format_order(action, vocab) == "RUN 2+2: H10-H12-H16; 2: H12-H10"
    assert "RUN <train>[+<train>]" in help_text(title=title)
    plain = Vocabulary.from_title(load_title("1830"))
    with pytest.raises(OrderSyntaxError, match="no train type '2\\+2'"):
        parse_order("RUN 2+2: H10-H12-H16", plain)
    assert "RUN <train>[+<train>]" not in help_text(title=load_title("1830"))


def test_a_headed_run_is_logged_and_read_back_and_a_plain_run_logs_as_before() -> None:
    headed = RunRoutes((TrainRun("2", ("H12", "H16"), ("2",)),))
    assert headed.to_dict() == {"type": "run_routes", "runs": [{"train": "2", "stops": ["H12", "H16"], "with": ["2"]}]}
    assert action_from_dict(headed.to_dict()) == headed
    plain = RunRoutes((TrainRun("2", ("H12", "H16")),))
    assert plain.to_dict() == {"type": "run_routes", "runs": [{"train": "2", "stops": ["H12", "H16"]}]}
    assert action_from_dict(plain.to_dict()) == plain


# -- map pieces that gate track laying (1829) ------------------------------------------------------

SURVEYED = {"gating_pieces": GatingRule("survey party", 1, hostile_blocks=True)}


def prr_at_its_track_step(title: TitleData) -> Game:
    game = new_game(title)
    float_corp(game, "PRR", P1, 100, 1000)
    operating(game)
    assert op_steps.active_steps(game)[0] is op_steps.Track
    return game


def every_lay_the_order_accepts(game: Game, corp: str) -> set[tuple[str, str, int]]:
    return {(coord, tile, rotation) for coord in game.board.hexes for tile in game.board.tile_counts
            for rotation in range(6)
            if op_steps.Track.problem(game, corp, LayTile(coord, tile, rotation)) is None}


def test_without_a_survey_party_a_corporation_lays_nothing() -> None:
    game = prr_at_its_track_step(made_up(**SURVEYED))
    assert lays.legal_lays(game, "PRR") == ()
    with pytest.raises(IllegalOrderError, match="may lay only near its survey party \\(none placed\\)"):
        game.apply(P1, LayTile("H14", "9", 1))


def test_lays_near_its_survey_party_only_and_the_list_is_what_the_order_accepts() -> None:
    game = prr_at_its_track_step(made_up(**SURVEYED))
    pieces.place_piece(game, "PRR", "H14")
    near = pieces.within(game.board, ["H14"], 1)
    listed = {(lay.hex, lay.tile, lay.rotation) for lay in lays.legal_lays(game, "PRR")}
    assert listed and {coord for coord, _, _ in listed} <= near
    assert listed == every_lay_the_order_accepts(game, "PRR")
    ungated = prr_at_its_track_step(load_title("1830"))
    assert {lay.hex for lay in lays.legal_lays(ungated, "PRR")} - near, "the gate takes lays away"
    copy.deepcopy(game).apply(P1, LayTile("H14", "9", 1))


def test_another_corporations_party_closes_its_hex_and_the_cache_follows_the_pieces() -> None:
    game = prr_at_its_track_step(made_up(**SURVEYED))
    pieces.place_piece(game, "PRR", "H12")
    before = {lay.hex for lay in lays.legal_lays(game, "PRR")}
    assert "H14" in before
    pieces.place_piece(game, "NYC", "H14")
    after = {lay.hex for lay in lays.legal_lays(game, "PRR")}
    assert after == before - {"H14"}
    with pytest.raises(IllegalOrderError, match="NYC's survey party holds H14"):
        copy.deepcopy(game).apply(P1, LayTile("H14", "9", 1))
    pieces.place_piece(game, "NYC", "E5", replaces="H14")
    assert game.state.map_pieces["NYC"] == ["E5"]
    assert {lay.hex for lay in lays.legal_lays(game, "PRR")} == before


def test_pieces_copy_with_the_state() -> None:
    game = prr_at_its_track_step(made_up(**SURVEYED))
    pieces.place_piece(game, "PRR", "H12")
    copied = game.state.copy()
    copied.map_pieces["PRR"].append("H14")
    assert game.state.map_pieces == {"PRR": ["H12"]}


def test_1830_gates_nothing() -> None:
    game = prr_at_its_track_step(load_title("1830"))
    assert game.hooks.track.lay_gate(game, "PRR") is None
    assert lays.legal_lays(game, "PRR")


# -- sea links between off-board areas (packets) -------------------------------------------------


def sea_title(reach: bool = False) -> TitleData:
    """1830 with a packet between Chicago (F2) and the Gulf (J2)."""
    title = load_title("1830")
    board = dataclasses.replace(title.board, sea_links=(SeaLinkData("F2", "J2", reach),))
    return dataclasses.replace(title, board=board)


def cando_to_chicago(title: TitleData) -> Game:
    """C&O at home in Cleveland (F6) with track to Chicago (F2) and one 3-train."""
    game = new_game(title)
    float_corp(game, "C&O", P1, 100, 1000)
    game.state.tokens[CityRef("F6", 0)] = ["C&O"]
    game.state.tiles["G5"] = ("8", 1)
    game.state.tiles["G3"] = ("8", 2)
    game.state.corporations["C&O"].trains = [TrainId("3", 0)]
    game.state.depot.remove(TrainId("3", 0))
    return game


def test_a_route_sails_from_an_off_board_area_to_another() -> None:
    game = cando_to_chicago(sea_title())
    value = sum(track.stop_revenue(game, v) for v in (Vertex("F6", "c0"), Vertex("F2", "o"), Vertex("J2", "o")))
    for specs in (["F6", "F2", "J2"], ["J2", "F2", "F6"]):
        checked = track.check_runs(game, "C&O", [(TrainId("3", 0), specs)])
        assert [r.revenue for r in checked] == [value]
    found = routes.best_run(game, "C&O")
    assert found.complete and found.revenue == value
    assert set(found.runs[0][1].stops) == {Vertex("F6", "c0"), Vertex("F2", "o"), Vertex("J2", "o")}


def test_without_the_link_the_off_board_area_ends_the_route() -> None:
    game = cando_to_chicago(load_title("1830"))
    with pytest.raises(ValueError, match="may not pass through F2: an off-board area"):
        track.check_runs(game, "C&O", [(TrainId("3", 0), ["F6", "F2", "J2"])])
    assert routes.best_run(game, "C&O").revenue == sum(track.stop_revenue(game, v) for v in (Vertex("F6", "c0"), Vertex("F2", "o")))
    assert track.track_graph(game).sea_stops == frozenset()


def test_an_off_board_area_is_passed_only_between_its_track_and_its_sea_link() -> None:
    game = cando_to_chicago(sea_title())
    game.state.tiles["F4"] = ("57", 1)  # Toledo, joined to Chicago's track
    assert track.track_graph(game).links(Vertex("F2", "o"))
    with pytest.raises(ValueError, match="may not pass through F2"):
        track.check_runs(game, "C&O", [(TrainId("3", 0), ["F6", "F2", "F4"])])
    assert Vertex("F4", "c0") not in track.network(game, "C&O").route_stops


def test_a_sea_link_carries_reach_only_where_the_map_says() -> None:
    plain = track.network(cando_to_chicago(sea_title(reach=False)), "C&O")
    assert Vertex("J2", "o") in plain.route_stops and Vertex("J2", "o") not in plain.stops
    assert not {"I3", "J4"} & set(plain.hex_edges)
    carried = track.network(cando_to_chicago(sea_title(reach=True)), "C&O")
    assert Vertex("J2", "o") in carried.stops and carried.route_stops == carried.stops
    assert carried.hex_edges.get("I3") == {0} and carried.hex_edges.get("J4") == {1}


def test_the_sea_link_stays_in_a_graph_brought_up_to_date() -> None:
    game = cando_to_chicago(sea_title())
    kept = track.track_graph(game)
    game.state.tiles["F4"] = ("57", 1)
    derived = track.track_graph(game)
    assert derived is not kept
    fresh = track.TrackGraph.build(game.board, game.tiles, game.state.tiles)
    for graph in (kept, derived, fresh):
        sea = [link for link in graph.links(Vertex("F2", "o")) if link.sea]
        assert [link.end for link in sea] == [Vertex("J2", "o")]
        assert [link.end for link in graph.links(Vertex("J2", "o")) if link.sea] == [Vertex("F2", "o")]


def test_the_map_file_gives_sea_links_and_refuses_a_bad_one(tmp_path: Path) -> None:
    shutil.copytree(REPO / "rules" / "1830", tmp_path / "1830")
    shutil.copy(REPO / "rules" / "tiles.yaml", tmp_path / "tiles.yaml")
    map_file = tmp_path / "1830" / "map.yaml"
    original = map_file.read_text()
    map_file.write_text(original + "\nsea_links:\n  - {hexes: [F2, J2]}\n  - {hexes: [B24, K13], reach: true}\n")
    board = load_map("1830", tmp_path)
    assert board.sea_links == (SeaLinkData("F2", "J2", False), SeaLinkData("B24", "K13", True))
    (tmp_path / "bad").mkdir()
    shutil.copytree(tmp_path / "1830", tmp_path / "bad" / "1830")
    shutil.copy(REPO / "rules" / "tiles.yaml", tmp_path / "bad" / "tiles.yaml")
    (tmp_path / "bad" / "1830" / "map.yaml").write_text(original + "\nsea_links:\n  - {hexes: [F2, H12]}\n")
    with pytest.raises(ConfigError, match="map.yaml: sea_links: H12 is not an off-board hex"):
        load_map("1830", tmp_path / "bad")
    assert load_title("1830").board.sea_links == ()


def test_a_title_may_gate_lays_by_its_own_rule_through_the_hook() -> None:
    """A title's ``lay_gate`` (here: only hexes its title state lists) gates the order and the
    list alike, and the list follows the state it depends on."""

    @dataclasses.dataclass
    class Gated(TitleState):
        open_hexes: list[str] = dataclasses.field(default_factory=list)

        def copy(self) -> Gated:
            return Gated(self.open_hexes[:])

    class GatedSequence(RoundSequence):
        def new_title_state(self) -> TitleState:
            return Gated(["H14"])

    class GatedTrack(TrackRules):
        def lay_gate(self, game: Game, corp: str) -> frozenset[str] | None:
            state = game.state.title_state
            assert isinstance(state, Gated)
            return frozenset(state.open_hexes)

    game = prr_at_its_track_step(dataclasses.replace(load_title("1830"), hooks=TitleHooks(sequence=GatedSequence(), track=GatedTrack())))
    assert {lay.hex for lay in lays.legal_lays(game, "PRR")} == {"H14"}
    assert {(lay.hex, lay.tile, lay.rotation) for lay in lays.legal_lays(game, "PRR")} == \
        every_lay_the_order_accepts(game, "PRR")
    state = game.state.title_state
    assert isinstance(state, Gated)
    state.open_hexes.append("H10")
    assert {lay.hex for lay in lays.legal_lays(game, "PRR")} == {"H10", "H14"}
