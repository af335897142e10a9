"""Jerkich's Historical Order Start for 1870 (issue 13, seed 000): the M-K-T private's track
and the Katy, each clause on a built position. Junction City B7, Parsons D9 (towns), Kansas
City B11 (the Katy's charter home); edges 0 SW, 1 W, 2 NW, 3 NE, 4 E, 5 SE."""

from __future__ import annotations

from typing import Callable

import pytest

from pbem.engine.values import CityRef
from pbem.engine import market as mk
from pbem.engine import track
from pbem.engine.actions import LayTile, Pass, PlaceToken
from pbem.engine.game import Game
from pbem.engine.state import OperatingState, RoundState
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title
from pbem.titles.g1870 import katy, mkt_private
from pbem.titles.g1870.connections import connection_home
from pbem.titles.g1870.katy import KatyHome, MoveHomeToken

HOS = ("historical_order_start",)


def rot(game: Game, coord: str, tile: str, toward: tuple[str, ...]) -> int:
    """A rotation of ``tile`` on ``coord`` with exits toward every hex of ``toward``."""
    wanted = {e for e in range(6) if game.board.neighbor(coord, e) in toward}
    found = [r for r in range(6) if wanted <= game.tiles[tile].exits(r)]
    assert found, f"#{tile} cannot join {toward} on {coord}"
    return found[0]


def float_corp(game: Game, sym: str, president: str, price: int = 100, cash: int = 500) -> None:
    state = game.state
    corp = state.corporations[sym]
    corp.par = mk.par_coord(game.title, price)
    assert corp.par is not None
    mk.place(state, sym, corp.par)
    corp.ipoed = corp.floated = True
    corp.president, corp.cash = president, cash
    for cert in state.certificates:
        if cert.corporation == sym and cert.index <= 5:
            cert.owner = Owner.player(president)


def game_with_private(variants: tuple[str, ...] = HOS, owner: str = "B") -> Game:
    """Four seats; GMO floated (A's); the M-K-T private owned by ``owner``; no round begun."""
    game = Game(load_title("1870", variants), ["A", "B", "C", "D"])
    company = game.state.companies["MKT"]
    company.owner = Owner.player(owner)
    game.state.players[owner].companies.append("MKT")
    float_corp(game, "GMO", "A")
    return game


def begin(game: Game) -> Game:
    """Begin operating round 1.1 (the privates pay, the first turn starts)."""
    game.begin_round(RoundState(kind="operating", number=1, or_number=1))
    return game


def with_junction_city(game: Game, toward: tuple[str, ...] = ("C8",), tile: str = "58") -> Game:
    """The private's first tile on B7 leading toward ``toward``, the Katy's token on B7."""
    game.state.tiles["B7"] = (tile, rot(game, "B7", tile, toward))
    game.state.tokens[CityRef("B7", 0)] = ["MKT"]
    return game


def lay(game: Game, coord: str, tile: str, toward: tuple[str, ...]) -> LayTile:
    return LayTile(coord, tile, rot(game, coord, tile, toward))


def to_parsons(game: Game) -> Game:
    """B7 - C8 - D9 laid, the Katy's token on B7: Parsons reached."""
    with_junction_city(game)
    game.state.tiles["C8"] = ("9", rot(game, "C8", "9", ("B7", "D9")))
    game.state.tiles["D9"] = ("4", rot(game, "D9", "4", ("C8", "E10")))
    return game


# -- the M-K-T private's track --------------------------------------------------------------


def test_the_private_lays_first_in_the_round_its_owner_acting() -> None:
    game = begin(game_with_private())
    assert game.current_actors() == ["B"]
    assert "M-K-T private's first tile on Junction City B7" in game.waiting_for()
    legal = game.legal_actions("B")
    assert legal and all(isinstance(a, LayTile) and a.hex == "B7" for a in legal), "no PASS, only B7"
    with pytest.raises(IllegalOrderError, match="not A's turn"):
        game.apply("A", Pass())


def test_the_first_tile_goes_on_junction_city_and_the_home_token_right_after() -> None:
    game = begin(game_with_private())
    assert "MKT" not in game.state.tokens.get(CityRef("B7", 0), [])
    game.apply("B", lay(game, "B7", "58", ("C8", "A8")))
    assert game.state.tiles["B7"][0] == "58"
    assert game.state.tokens[CityRef("B7", 0)] == ["MKT"]
    assert track.token_vertices(game, "MKT")[0].stop == "t0"
    assert game.current_actors() == ["A"], "one tile a turn: GMO's own turn follows"
    assert game.state.players["B"].cash >= 20, "the private paid its revenue"


def test_the_first_tile_elsewhere_is_refused() -> None:
    game = begin(game_with_private())
    with pytest.raises(IllegalOrderError, match="first tile goes on Junction City B7"):
        game.apply("B", lay(game, "C8", "9", ("B7", "D9")))


def test_the_first_tile_must_lead_toward_parsons() -> None:
    game = begin(game_with_private())
    with pytest.raises(IllegalOrderError, match="closer to Parsons"):
        game.apply("B", lay(game, "B7", "3", ("A6", "B5")))


def test_pass_is_refused_while_a_lay_toward_parsons_exists() -> None:
    game = begin(with_junction_city(game_with_private()))
    with pytest.raises(IllegalOrderError, match="must lay toward Parsons"):
        game.apply("B", Pass())
    assert Pass() not in game.legal_actions("B")


def test_each_lay_before_parsons_must_bring_the_track_closer() -> None:
    game = begin(with_junction_city(game_with_private()))
    with pytest.raises(IllegalOrderError, match="closer to Parsons"):
        game.apply("B", lay(game, "C8", "8", ("B7", "C10")))
    legal = game.legal_actions("B")
    assert lay(game, "C8", "9", ("B7", "D9")) in legal
    assert lay(game, "C8", "8", ("B7", "C10")) not in legal, "the report lists only lays toward Parsons"
    game.apply("B", lay(game, "C8", "9", ("B7", "D9")))
    assert mkt_private.progress(game, "D9") == 1


def test_one_tile_a_turn() -> None:
    game = begin(with_junction_city(game_with_private(owner="A")))
    game.apply("A", lay(game, "C8", "9", ("B7", "D9")))
    assert not any(step.name == "mkt_private_lay" for step in __import__(
        "pbem.engine.steps.operating", fromlist=["x"]).active_steps(game))
    with pytest.raises(IllegalOrderError):
        game.apply("A", lay(game, "D9", "4", ("C8", "E10")))  # GMO's track does not reach D9


def test_after_parsons_it_may_pass_or_go_into_oklahoma() -> None:
    game = begin(to_parsons(game_with_private()))
    legal = game.legal_actions("B")
    assert Pass() in legal
    assert lay(game, "E10", "9", ("D9", "F11")) in legal
    game.apply("B", Pass())
    assert game.current_actors() == ["A"]


def test_hex_distance_is_one_to_every_neighbour() -> None:
    board = load_title("1870").board
    for coord in board.hexes:
        for edge in range(6):
            other = board.neighbor(coord, edge)
            if other is not None:
                assert mkt_private.hex_distance(coord, other) == 1, (coord, other)
    assert mkt_private.hex_distance("B7", "D9") == 2
    assert mkt_private.hex_distance("B7", "B11") == 2


def test_no_hex_the_private_may_use_has_a_terrain_cost() -> None:
    game = game_with_private()
    usable = (mkt_private.area(game) | set(mkt_private.KANSAS_CITY_WAY)) - {"B11"}
    costly = {c for c in usable if game.board.hexes[c].cost}
    assert costly and all(game.board.hexes[c].terrain in mkt_private.RIVER_TERRAIN for c in costly)


def test_the_area_is_on_the_map_and_plain_1870_has_none() -> None:
    game = game_with_private()
    assert mkt_private.area(game) <= set(game.board.hexes)
    assert {"B7", "D9", "E8", "E10"} <= mkt_private.area(game)
    assert not {"D11", "C10", "C12", "B11", "E12"} & mkt_private.area(game)
    assert mkt_private.area(game_with_private(())) == frozenset()


def test_outside_kansas_and_oklahoma_is_refused() -> None:
    game = begin(to_parsons(game_with_private()))
    problem = mkt_private.lay_problem(game, "MKT", "E12", "57", 0)
    assert problem is not None and "only in Kansas and Oklahoma" in problem
    assert mkt_private.lay_problem(game, "MKT", "E10", "9", rot(game, "E10", "9", ("D9", "F11"))) is None


def test_missouri_only_toward_kansas_city_and_only_after_parsons() -> None:
    before = begin(with_junction_city(game_with_private()))
    problem = mkt_private.lay_problem(before, "MKT", "D11", "8", rot(before, "D11", "8", ("D9", "C12")))
    assert problem is not None and "only once it has reached Parsons" in problem
    game = begin(to_parsons(game_with_private()))
    game.state.tiles["D9"] = ("3", rot(game, "D9", "3", ("C8", "C10")))
    assert mkt_private.lay_problem(game, "MKT", "C10", "9", rot(game, "C10", "9", ("D9", "B11"))) is None
    problem = mkt_private.lay_problem(game, "MKT", "C10", "7", rot(game, "C10", "7", ("D9", "D11")))
    assert problem is not None and "closer to Kansas City" in problem


def test_no_river_hex_and_kansas_city_only_with_a_city_tile() -> None:
    game = begin(to_parsons(game_with_private()))
    for coord, tile in (("A10", "3"), ("G2", "8")):
        problem = mkt_private.lay_problem(game, "MKT", coord, tile, 0)
        assert problem is not None and f"river hex ({coord})" in problem
    problem = mkt_private.lay_problem(game, "MKT", "B11", "57", 0)
    assert problem is not None and "only once a city tile lies on B11" in problem
    game.state.tiles["B11"] = ("57", 0)
    problem = mkt_private.lay_problem(game, "MKT", "B11", "15", 0)
    assert problem is None or "city tile" not in problem


def test_no_large_city_but_kansas_city() -> None:
    game = begin(with_junction_city(game_with_private(), toward=("B9", "C8"), tile="3"))
    problem = mkt_private.lay_problem(game, "MKT", "B9", "57", rot(game, "B9", "57", ("B7", "B11")))
    assert problem is not None and "large city" in problem


def test_no_new_track_of_the_private_leads_into_a_large_city_but_kansas_city() -> None:
    game = begin(game_with_private())
    toward_topeka = lay(game, "B7", "3", ("C8", "B9"))  # closer to Parsons, and into Topeka B9
    assert toward_topeka not in game.legal_actions("B")
    with pytest.raises(IllegalOrderError, match="into the large city B9"):
        game.apply("B", toward_topeka)
    assert mkt_private.large_city_entered(game, "B7", "58", rot(game, "B7", "58", ("C8", "A8"))) is None
    to_parsons(game)
    assert mkt_private.large_city_entered(game, "C10", "8", rot(game, "C10", "8", ("C8", "B11"))) is None, \
        "Kansas City is the one large city it may build into"


def test_a_corporation_owning_the_private_lays_through_its_president() -> None:
    game = game_with_private()
    company = game.state.companies["MKT"]
    game.state.players["B"].companies.remove("MKT")
    company.owner = Owner.corporation("GMO")
    begin(game)
    assert game.current_actors() == ["A"]
    assert "Junction City" in game.waiting_for()


def test_all_of_it_ends_when_the_katy_floats() -> None:
    game = with_junction_city(game_with_private())
    float_corp(game, "MKT", "C")
    begin(game)
    assert not mkt_private.active(game)
    assert "mkt_private_lay" not in game.waiting_for()
    assert "M-K-T private's tile" not in game.waiting_for()
    assert mkt_private.lay_problem(game, "MKT", "B9", "57", 0) is None
    assert ("M-K-T private: the Katy has floated; the private lays no more track"
            in dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"])


def test_the_katys_own_lays_once_floated_are_not_the_privates() -> None:
    from pbem.engine.lays import legal_lays
    from pbem.engine.state import OperatingState

    game = with_junction_city(game_with_private(), toward=("C8", "A8"))
    game.state.round = RoundState(kind="operating", operating=OperatingState(order=["GMO"]))
    assert {lay.hex for lay in legal_lays(game, "MKT")} == {"C8"}, "the private: toward Parsons only"
    float_corp(game, "MKT", "C", cash=0)  # the same treasury: only the float differs
    game.state.round = RoundState(kind="operating", operating=OperatingState(order=["MKT"]))
    assert "A8" in {lay.hex for lay in legal_lays(game, "MKT")}, "the Katy lays as any corporation"


def test_plain_1870_has_no_private_track() -> None:
    game = begin(game_with_private(()))
    assert game.current_actors() == ["A"]
    assert mkt_private.lay_problem(game, "MKT", "C8", "9", 0) is None
    assert mkt_private.lays_without_reach(game, "MKT") == frozenset()


# -- Kansas City's slot, the Katy's new home, its connection run, the move ---------------------


def kansas_city(variants: tuple[str, ...] = HOS, phase: str = "2") -> Game:
    """ATSF (C's) operating, its token on Topeka B9 joined to Kansas City B11 (#57, one slot);
    the Katy's token on Junction City B7 (placed by the private)."""
    game = game_with_private(variants)
    with_junction_city(game)
    float_corp(game, "ATSF", "C")
    game.state.phase = phase
    game.state.tiles["B9"] = ("57", rot(game, "B9", "57", ("B7", "B11")))
    game.state.tiles["B11"] = ("57", rot(game, "B11", "57", ("B9",)))
    game.state.tokens[CityRef("B9", 0)] = ["ATSF"]
    game.state.round = RoundState(kind="operating", operating=OperatingState(order=["ATSF"]))
    return game


def test_kansas_city_keeps_a_slot_for_the_katy() -> None:
    game = kansas_city()
    problem = track.token_problem(game, "ATSF", "B11", 0)
    assert problem is not None and "kept for the Katy" in problem
    assert PlaceToken("B11", 0) not in game.legal_actions("C")
    assert katy.token_problem(game, "MKT", "B11", 0) is None


def test_the_slot_opens_when_the_first_6_train_is_bought() -> None:
    game = kansas_city(phase="5")
    assert track.token_problem(game, "ATSF", "B11", 0) is None


def test_plain_1870_keeps_no_slot_once_the_katy_has_a_token() -> None:
    game = kansas_city(())
    assert track.token_problem(game, "ATSF", "B11", 0) is None


def test_the_kept_slot_is_used_once_the_katy_has_its_token_in_kansas_city() -> None:
    """Seed: "The reserved Katy token spot in Kansas City remains available only until the
    first permanent train ... After that, other companies may place a token on that formerly
    reserved token spot." Our reading (README, the Katy): the slot is kept for the Katy while
    it has no token there. Kansas City with two slots (#15): with the SP in one, the other is
    kept from the AT&SF; once the Katy's token stands in one (NEWHOME), the reservation has
    been used, the map shows no slot held, and the other corporations may take what is left,
    though no 6-train has been bought."""
    game = kansas_city()
    game.state.tiles["B11"] = ("15", rot(game, "B11", "15", ("B9",)))
    assert game.tiles["15"].cities[0].slots == 2
    game.state.tokens[CityRef("B11", 0)] = ["SP"]
    problem = track.token_problem(game, "ATSF", "B11", 0)
    assert problem is not None and "kept for the Katy" in problem
    assert katy.kept_slots(game, "B11", 0) == ("MKT",)
    assert "Kansas City: one slot kept for the Katy until the first 6-train is bought" in \
        dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    game.state.tokens[CityRef("B11", 0)] = ["MKT"]
    assert not katy.permanent_bought(game)
    assert not katy.slot_kept(game) and katy.kept_slots(game, "B11", 0) == ()
    assert track.token_problem(game, "ATSF", "B11", 0) is None, "the Katy's token fills the kept slot"
    assert not any("kept for the Katy" in line
                   for line in dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"])


def katy_operating(variants: tuple[str, ...] = HOS, setup: Callable[[Game], None] | None = None) -> Game:
    """The Katy (D's, $300) floated and operating, its token on Junction City B7 whose tile
    leads to Topeka B9 (#57) and on to Kansas City B11 (#57)."""
    game = game_with_private(variants)
    game.state.tiles["B7"] = ("4", rot(game, "B7", "4", ("B5", "B9")))
    game.state.tokens[CityRef("B7", 0)] = ["MKT"]
    game.state.tiles["B9"] = ("57", rot(game, "B9", "57", ("B7", "B11")))
    game.state.tiles["B11"] = ("57", rot(game, "B11", "57", ("B9",)))
    float_corp(game, "MKT", "D", cash=300)
    if setup is not None:
        setup(game)
    game.state.round = RoundState(kind="operating", operating=OperatingState(order=["MKT"]))
    return game


def test_the_katy_may_place_a_free_token_in_kansas_city_as_its_new_home() -> None:
    game = katy_operating()
    assert KatyHome("B11", 0) in game.legal_actions("D")
    assert connection_home(game, "MKT") == ("B7", 0)
    game.apply("D", KatyHome("B11", 0))
    assert "MKT" in game.state.tokens[CityRef("B11", 0)]
    assert game.state.corporations["MKT"].cash == 300, "free"
    assert connection_home(game, "MKT") == ("B11", 0)
    with pytest.raises(IllegalOrderError, match="already"):
        game.apply("D", KatyHome("B11", 0))


def test_only_the_katys_president_in_its_turn_gives_newhome() -> None:
    game = katy_operating()
    with pytest.raises(IllegalOrderError, match="only the Katy's president"):
        game.apply("A", KatyHome("B11", 0))
    with pytest.raises(IllegalOrderError, match="Kansas City"):
        game.apply("D", KatyHome("B9", 0))


def test_plain_1870_has_no_newhome_and_the_charter_home() -> None:
    game = katy_operating(())
    with pytest.raises(IllegalOrderError, match="no free token"):
        game.apply("D", KatyHome("B11", 0))
    assert connection_home(game, "MKT") == ("B11", 0)


def test_the_junction_city_token_moves_for_100_once_a_kansas_city_token_exists() -> None:
    game = katy_operating(setup=lambda g: g.state.tokens.update({CityRef("D5", 0): ["ATSF"]}))  # Topeka not held
    with pytest.raises(IllegalOrderError, match="only once it has a token in Kansas City"):
        game.apply("D", MoveHomeToken("B9", 0))
    game.apply("D", KatyHome("B11", 0))
    assert MoveHomeToken("B9", 0) in game.legal_actions("D")
    game.apply("D", MoveHomeToken("B9", 0))
    assert "MKT" in game.state.tokens[CityRef("B9", 0)]
    assert CityRef("B7", 0) not in game.state.tokens
    assert game.state.corporations["MKT"].cash == 200
    assert connection_home(game, "MKT") == ("B11", 0)


def test_no_token_ever_goes_back_to_junction_city() -> None:
    game = katy_operating()
    for corp in ("MKT", "ATSF"):
        assert track.token_problem(game, corp, "B7", 0, ignore_reach=True) is not None
    game.apply("D", KatyHome("B11", 0))
    with pytest.raises(IllegalOrderError):
        game.apply("D", MoveHomeToken("B7", 0))


def test_the_move_follows_the_usual_token_rules() -> None:
    def full_topeka(game: Game) -> None:
        float_corp(game, "ATSF", "C")
        game.state.tokens[CityRef("B9", 0)] = ["ATSF"]

    game = katy_operating(setup=full_topeka)
    game.apply("D", KatyHome("B11", 0))
    with pytest.raises(IllegalOrderError, match="no free slot"):
        game.apply("D", MoveHomeToken("B9", 0))


def test_the_orders_read_and_write() -> None:
    from pbem.orders import Vocabulary, format_order, parse_order

    vocab = Vocabulary.from_title(load_title("1870", HOS))
    assert parse_order("NEWHOME B11", vocab) == KatyHome("B11", 0)
    assert parse_order("MOVEHOME D5", vocab) == MoveHomeToken("D5", 0)
    assert format_order(MoveHomeToken("D5", 0), vocab) == "MOVEHOME D5"


def test_the_report_shows_the_kansas_city_slot_and_the_privates_duty() -> None:
    game = begin(game_with_private())
    lines = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert "Kansas City: one slot kept for the Katy until the first 6-train is bought" in lines
    assert any("first tile and the Katy's home token go on Junction City B7" in line for line in lines)
    game.apply("B", lay(game, "B7", "58", ("C8", "A8")))
    lines = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert any("closer to Parsons D9 (1 hex away)" in line for line in lines)


def test_the_katy_runs_from_its_junction_city_token() -> None:
    from pbem.engine.actions import RunRoutes, TrainRun
    from pbem.engine.steps import operating

    game = katy_operating()
    corp = game.state.corporations["MKT"]
    train = next(t for t in game.state.depot if t.kind == "2")
    game.state.depot.remove(train)
    corp.trains.append(train)
    runs = operating.checked_runs(game, "MKT", RunRoutes((TrainRun("2", ("B7", "B9")),)))
    assert [str(v) for v in runs[0].stops] == ["B7:t0", "B9:c0"]
    assert runs[0].revenue > 0


def test_the_private_lays_by_the_core_lay_order() -> None:
    from pbem.orders import Vocabulary, parse_order

    game = begin(game_with_private())
    vocab = Vocabulary.from_title(game.title)
    wanted = lay(game, "B7", "58", ("C8", "A8"))
    action = parse_order(f"LAY B7 58 {wanted.rotation}", vocab)
    game.apply("B", action)
    assert game.state.tiles["B7"] == ("58", wanted.rotation)


def test_blocked_from_parsons_the_private_lays_nothing_and_the_round_goes_on() -> None:
    game = with_junction_city(game_with_private())
    game.state.tiles["C8"] = ("9", rot(game, "C8", "9", ("C6", "C10")))  # another's track across C8
    begin(game)
    assert mkt_private.legal_private_lays(game) == []
    assert game.current_actors() == ["A"], "no lay toward Parsons exists: the attempt is made, nothing laid"


def test_help_explains_the_private_and_the_katy_in_the_variant_only() -> None:
    from pbem.order_reference import help_text

    text = help_text(title=load_title("1870", HOS))
    assert "The M-K-T private and the Katy" in text and "NEWHOME B11" in text
    assert "The M-K-T private and the Katy" not in help_text(title=load_title("1870"))


def test_the_report_offers_the_privates_lays_and_the_katys_newhome() -> None:
    from pbem import report_sections

    game = begin(game_with_private())
    lines = report_sections.options(game, "B")
    assert lines[0].startswith("the M-K-T private's lay for the Katy (by B): ") and "treasury" not in lines[0]
    assert any("first tile on Junction City B7" in line for line in lines)
    assert any(line.startswith("B7: ") for line in lines) and not any(line.startswith("PASS") for line in lines)
    katy_turn = katy_operating()
    assert any(line.startswith("NEWHOME B11") for line in report_sections.options(katy_turn, "D"))


# -- the Katy's home when it floats before the private's first tile ----------------------------


def katy_first() -> Game:
    """The Katy (C's) floated before the private laid anything (a GM's OUTOFORDER ruling); the
    GM&O not floated, so the Katy is the one corporation of operating round 1.1."""
    game = game_with_private()
    float_corp(game, "MKT", "C")
    game.state.corporations["GMO"].floated = False
    return game


def katy_tokens(game: Game) -> dict[CityRef, list[str]]:
    return {key: corps for key, corps in game.state.tokens.items() if "MKT" in corps}


def test_a_katy_floated_first_gets_no_token_on_kansas_city_and_lays_its_home_on_junction_city() -> None:
    game = begin(katy_first())
    assert game.current_actors() == ["C"]
    assert katy_tokens(game) == {}, "no token on Kansas City by itself"
    assert "MKT" in track.reserved_home(game, "B11", 0), "Kansas City still keeps its slot"
    first = lay(game, "B7", "58", ("C8",))
    assert first in game.legal_actions("C"), "B7 though the Katy's track reaches nothing"
    game.apply("C", first)
    assert katy_tokens(game) == {CityRef("B7", 0): ["MKT"]}
    assert connection_home(game, "MKT") == ("B7", 0)


def test_a_katy_floated_after_the_private_closed_takes_junction_citys_town_as_it_operates() -> None:
    game = katy_first()
    game.state.companies["MKT"].closed = True
    game.state.tiles["B7"] = ("58", rot(game, "B7", "58", ("C8",)))  # laid by another corporation
    begin(game)
    assert katy_tokens(game) == {CityRef("B7", 0): ["MKT"]}
    assert katy.lays_without_reach(game, "MKT") == frozenset()


def test_a_katy_with_a_newhome_first_gets_no_junction_city_token() -> None:
    game = katy_first()
    game.state.tiles["B11"] = ("57", rot(game, "B11", "57", ("B9",)))
    begin(game)
    game.apply("C", KatyHome("B11", 0))
    assert katy.lays_without_reach(game, "MKT") == frozenset()
    assert not katy.place_home_token(game, "ATSF")
    assert katy_tokens(game) == {CityRef("B11", 0): ["MKT"]}


def test_plain_1870_homes_the_katy_on_kansas_city() -> None:
    game = game_with_private(())
    float_corp(game, "MKT", "C")
    game.state.corporations["GMO"].floated = False
    begin(game)
    assert katy_tokens(game) == {CityRef("B11", 0): ["MKT"]}


# -- the Katy's orders in refusals and the report ------------------------------------------------


def test_movehome_to_junction_city_is_refused_with_the_rule() -> None:
    game = katy_operating()
    game.apply("D", KatyHome("B11", 0))
    with pytest.raises(IllegalOrderError, match="no token may go back to Junction City B7"):
        game.apply("D", MoveHomeToken("B7", 0))


def test_newhome_in_a_stock_round_is_refused_by_its_order_word() -> None:
    game = game_with_private()
    float_corp(game, "MKT", "D", cash=300)
    game.begin_round(RoundState(kind="stock", number=1))
    actor = game.current_actors()[0]
    with pytest.raises(IllegalOrderError) as refused:
        game.apply(actor, KatyHome("B11", 0))
    assert "NEWHOME is not possible now" in str(refused.value) and "katy home" not in str(refused.value)


def test_the_report_notes_newhome_and_movehome_each_with_its_own_text() -> None:
    from pbem import report_sections

    game = katy_operating(setup=lambda g: g.state.tokens.update({CityRef("D5", 0): ["ATSF"]}))  # Topeka not held
    newhome = [line for line in report_sections.options(game, "D") if line.startswith("NEWHOME")]
    assert newhome and "Kansas City" in newhome[0] and "MOVEHOME" not in newhome[0]
    game.apply("D", KatyHome("B11", 0))
    move = [line for line in report_sections.options(game, "D") if line.startswith("MOVEHOME")]
    assert move and "$100" in move[0] and "NEWHOME" not in move[0]


def test_the_area_setting_is_parsed_once_a_game() -> None:
    game = game_with_private()
    first = mkt_private.area(game)
    assert mkt_private.area(game) is first and "D9" in first


def test_movehome_needs_the_100_in_the_treasury() -> None:
    game = katy_operating(setup=lambda g: g.state.tokens.update({CityRef("D5", 0): ["ATSF"]}))  # Topeka not held
    game.apply("D", KatyHome("B11", 0))
    game.state.corporations["MKT"].cash = 99
    assert MoveHomeToken("B9", 0) not in game.legal_actions("D")
    with pytest.raises(IllegalOrderError, match=r"the move costs \$100"):
        game.apply("D", MoveHomeToken("B9", 0))
    assert CityRef("B7", 0) in game.state.tokens and game.state.corporations["MKT"].cash == 99
    game.state.corporations["MKT"].cash = 100
    game.apply("D", MoveHomeToken("B9", 0))
    assert game.state.corporations["MKT"].cash == 0


def test_newhome_needs_an_unused_token() -> None:
    def all_placed(game: Game) -> None:
        count = len(game.title.corporation("MKT").tokens)
        for coord in ("D5", "F5", "J3", "M6", "N7")[: count - 1]:
            game.state.tokens[CityRef(coord, 0)] = ["MKT"]

    game = katy_operating(setup=all_placed)
    assert KatyHome("B11", 0) not in game.legal_actions("D")
    with pytest.raises(IllegalOrderError, match="no unused token"):
        game.apply("D", KatyHome("B11", 0))


def test_kansas_citys_kept_slot_is_shown_held_and_a_token_there_is_refused_with_the_rule() -> None:
    from pbem.asciimap import hex_cell
    from pbem.track_words import track_list

    game = kansas_city()
    assert "mkt" in " ".join(hex_cell(game, "B11")) and "." not in hex_cell(game, "B11")[-1].split()
    assert "[mkt]" in track_list(game)
    with pytest.raises(IllegalOrderError, match="last free slot is kept for the Katy until the first 6-train"):
        game.apply("C", PlaceToken("B11", 0))
    opened = kansas_city(phase="5")
    assert "mkt" not in " ".join(hex_cell(opened, "B11"))


def test_the_katys_token_on_junction_city_is_on_the_map() -> None:
    from pbem.asciimap import hex_cell

    game = with_junction_city(game_with_private())
    assert "MKT" in " ".join(hex_cell(game, "B7"))
