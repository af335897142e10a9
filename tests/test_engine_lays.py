"""The legal tile lays, spelled out by one generator (pbem.engine.lays): on recorded 1830 and
1870 positions (1870's two lays, upgrades, the Mississippi bridge company) and on Dixon's
variant, the list is exactly the lays the LAY order accepts, found by brute force over every
hex, tile of the supply and rotation; a refused LAY names what fits; the list is fast enough
for every report."""

from __future__ import annotations

import copy
import time

import pytest

from pbem.engine import lays, track
from pbem.engine.actions import LayTile
from pbem.engine.game import Game
from pbem.engine.steps import operating
from pbem.ruleset import load_title
from pbem.errors import IllegalOrderError
from tests.records import replayed_before

POSITIONS = {
    "1830 first OR": ("1830", "1830_game_end_bank.json", 28),
    "1830 OR 6.1": ("1830", "1830_game_end_bank.json", 300),
    "1870 late, first lay": ("1870", "1870_game_end_bank.json", 1306.1),
    "1870 late, second lay": ("1870", "1870_game_end_bank.json", 1166),
    "1870 bridge company owned": ("1870", "mississippi_river_madness_1644327587.json", 353),
    "1870 bridge company, turn held open": ("1870", "mississippi_river_madness_1644327587.json", 354),
}
"""Recorded positions at a track step. The last one has upgraded: no second lay, yet the step
stays open while the bridge company may still be bought (as 18xx.games plays it)."""


def position(name: str) -> Game:
    title, record, action = POSITIONS[name]
    game = replayed_before(title, record, action).game
    assert issubclass(operating.active_steps(game)[0], operating.Track), "the position is a track step"
    return game


def brute_force(game: Game, corp: str) -> set[tuple[str, str, int]]:
    """Every (hex, tile, rotation) of the whole map and the whole supply that the order's
    own check accepts."""
    return {
        (coord, tile, rotation)
        for coord in game.board.hexes
        for tile in game.board.tile_counts
        for rotation in range(6)
        if operating.Track.problem(game, corp, LayTile(coord, tile, rotation)) is None
    }


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_list_is_exactly_what_the_order_accepts(name: str) -> None:
    game = position(name)
    corp = operating.current_corp(game)
    listed = lays.legal_lays(game, corp)
    keys = [(lay.hex, lay.tile, lay.rotation) for lay in listed]
    assert len(keys) == len(set(keys))
    assert set(keys) == brute_force(game, corp)
    assert bool(listed) == ("held open" not in name)


@pytest.mark.parametrize("name", ["1830 OR 6.1", "1870 late, second lay", "1870 bridge company owned"])
def test_every_listed_lay_is_applied_by_the_engine(name: str) -> None:
    game = position(name)
    corp = operating.current_corp(game)
    president = game.state.corporations[corp].president
    assert president is not None
    for lay in lays.legal_lays(game, corp)[::7]:
        twin = copy.deepcopy(game)
        twin.apply(president, LayTile(lay.hex, lay.tile, lay.rotation))
        assert twin.state.tiles[lay.hex] == (lay.tile, lay.rotation)
        assert lay.upgrade == (track.placed(game, lay.hex).tile.color != "white")
        assert game.state.corporations[corp].cash - twin.state.corporations[corp].cash == lay.cost


def test_the_second_1870_lay_offers_only_new_tiles_elsewhere() -> None:
    """1870 (game.yaml tile_lays): after a first new tile, a second new tile, not on the same
    hex and no upgrade."""
    game = position("1870 late, second lay")
    op = game.state.round.operating
    assert op is not None and op.tiles_laid == 1
    listed = lays.legal_lays(game, operating.current_corp(game))
    assert listed and not any(lay.upgrade for lay in listed)
    assert not {lay.hex for lay in listed} & set(op.laid_hexes)


def test_the_bridge_company_keeps_tiles_from_joining_the_banks() -> None:
    """While a player owns the MRBC, no tile in a river hex joins the two banks (extras.yaml
    mississippi); once it is closed, the river hexes take those lays too."""
    game = position("1870 bridge company owned")
    corp = operating.current_corp(game)
    owned = set(lays.legal_lays(game, corp))
    game.state.companies["MRBC"].closed = True
    freed = set(lays.legal_lays(game, corp))
    assert owned < freed, "closing the bridge company only adds lays"
    for lay in freed - owned:
        assert game.hooks.track.lay_problem(game, corp, lay.hex, lay.tile, lay.rotation) is None
        game.state.companies["MRBC"].closed = False
        assert game.hooks.track.lay_problem(game, corp, lay.hex, lay.tile, lay.rotation) is not None
        game.state.companies["MRBC"].closed = True


def test_dixon_upgrades_follow_the_chart() -> None:
    """Dixon's 6.6.1: on a town hex with #58, MP may lay #141, #142 or #143 only, where the
    published rules allow #144 too; the list is the brute-force one under both. (A town on
    E16 gives the new track a stop to run to, which Dixon's 6.2 asks of an upgrade.)"""
    from tests.test_engine_operating import float_corp, operating as start_operating

    results = {}
    for variants in ((), ("dixon",)):
        game = Game(load_title("1870", variants), ["A", "B", "C"])
        game.state.round.auction = None
        float_corp(game, "MP", "A", 100, 1000)
        start_operating(game)
        game.state.phase = "3"
        game.state.tiles["C18"] = ("57", 0)  # St. Louis to D17 (edge 0) and B19
        rotation = next(r for r in range(6) if 3 in game.tiles["58"].exits(r))
        game.state.tiles["D17"] = ("58", rotation)  # a town on D17, joined to St. Louis
        game.state.tiles["E16"] = ("4", 0)  # a town on D17's edge 0: new track there can be run (Dixon 6.2)
        assert issubclass(operating.active_steps(game)[0], operating.Track)
        listed = lays.legal_lays(game, "MP")
        assert {(lay.hex, lay.tile, lay.rotation) for lay in listed} == brute_force(game, "MP")
        results[variants] = {lay.tile for lay in listed if lay.hex == "D17"}
    assert results[("dixon",)] and results[("dixon",)] <= {"141", "142", "143"}
    assert "144" in results[()] and results[()] > results[("dixon",)]


def test_a_refused_lay_names_the_rotations_and_the_other_tiles_that_fit() -> None:
    game = position("1830 first OR")
    corp = operating.current_corp(game)
    president = game.state.corporations[corp].president
    assert president is not None
    here = lays.by_hex(lays.legal_lays(game, corp))
    coord = next(c for c, tiles in here.items() if len(tiles) > 1)
    tile, rotations = next(iter(here[coord].items()))
    wrong = next(r for r in range(6) if r not in rotations)
    with pytest.raises(IllegalOrderError) as refused:
        game.apply(president, LayTile(coord, tile, wrong))
    text = str(refused.value)
    assert f"#{tile} fits on {coord} at " + " ".join(f"r{r}" for r in rotations) in text
    for other, other_rotations in here[coord].items():
        if other != tile:
            assert f"{other} " + " ".join(f"r{r}" for r in other_rotations) in text
    with pytest.raises(IllegalOrderError, match=r"no tile may go on A1[0-9]* now; .* may lay on "):
        game.apply(president, LayTile("A19", "57", 0))


def test_the_list_is_fast_enough_for_every_report() -> None:
    """The late 1870 map: the first list within a second (about 0.1-0.2 s measured on a
    shared 2-core machine), the same position again from the cache."""
    game = position("1870 late, first lay")
    corp = operating.current_corp(game)
    started = time.perf_counter()
    first = lays.legal_lays(game, corp)
    spent = time.perf_counter() - started
    assert spent < 1.0, f"{spent:.2f} s"
    started = time.perf_counter()
    assert lays.legal_lays(game, corp) is first
    assert time.perf_counter() - started < 0.01


def test_the_cache_follows_the_position() -> None:
    """Passing the track step, or a tile laid, gives a new list, not the cached one."""
    game = position("1830 OR 6.1")
    corp = operating.current_corp(game)
    before = lays.legal_lays(game, corp)
    assert before
    op = game.state.round.operating
    assert op is not None
    op.passed_steps.append("track")
    assert lays.legal_lays(game, corp) == ()
    op.passed_steps.remove("track")
    assert lays.legal_lays(game, corp) == before
    first = before[0]
    game.state.tiles[first.hex] = (first.tile, first.rotation)
    assert lays.legal_lays(game, corp) != before
