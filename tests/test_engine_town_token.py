"""A station token on a town (the core's extension point for a title's own rule, such as
Jerkich's Junction City in 1870): its key names the town where the hex has no city, the
corporation's track is reached from it, and a run through it counts it as the run's token
stop. Built on 1830's map: a town, a plain hex and a city in a row."""

from __future__ import annotations

from pbem.engine import track
from pbem.engine.actions import RunRoutes, TrainRun
from pbem.engine.game import Game
from pbem.engine.state import OperatingState, RoundState
from pbem.engine.steps import operating
from pbem.engine.values import Vertex
from pbem.ruleset import load_title

CORP = "PRR"


def _rotation(game: Game, coord: str, tile: str, toward: set[str]) -> int | None:
    for rotation in range(6):
        exits = {game.board.neighbor(coord, e) for e in game.tiles[tile].exits(rotation)}
        if toward <= exits and None not in exits:
            return rotation
    return None


def town_line() -> tuple[Game, str, str]:
    """A game of 1830 in an operating round with a town, a plain hex and a city joined by
    yellow track; returns ``(game, town hex, city hex)``; no tokens yet."""
    game = Game(load_title("1830"), ["A", "B", "C"])
    hexes = game.board.hexes
    for town, data in hexes.items():
        if data.tile.cities or len(data.tile.towns) != 1 or data.tile.color != "white":
            continue
        for edge in range(6):
            plain = game.board.neighbor(town, edge)
            if plain is None or hexes[plain].tile.stop_ids() or hexes[plain].tile.color != "white":
                continue
            for onward in range(6):
                city = game.board.neighbor(plain, onward)
                if (city is None or city == town or len(hexes[city].tile.cities) != 1 or hexes[city].tile.towns
                        or hexes[city].tile.label or hexes[city].tile.color != "white"):
                    continue
                lays = [(town, tile, _rotation(game, town, tile, {plain})) for tile in ("3", "4", "58")]
                lays = [lay for lay in lays if lay[2] is not None][:1]
                lays += [(plain, tile, _rotation(game, plain, tile, {town, city})) for tile in ("7", "8", "9")
                         if _rotation(game, plain, tile, {town, city}) is not None][:1]
                lays += [(city, tile, _rotation(game, city, tile, {plain})) for tile in ("57", "5", "6")
                         if _rotation(game, city, tile, {plain}) is not None][:1]
                if len(lays) == 3:
                    for coord, tile, rotation in lays:
                        assert rotation is not None
                        game.state.tiles[coord] = (tile, rotation)
                    corp = game.state.corporations[CORP]
                    corp.floated, corp.ipoed, corp.president = True, True, "A"
                    corp.trains.append(next(t for t in game.state.depot if t.kind.startswith("2")))
                    game.state.round = RoundState(kind="operating", operating=OperatingState(order=[CORP]))
                    return game, town, city
    raise AssertionError("no town, plain hex and city in a row on 1830's map")


def test_a_token_on_a_town_names_the_town() -> None:
    game, town, _ = town_line()
    game.state.tokens[track.city_key(town, 0)] = [CORP]
    assert track.token_stop(game, town, 0) == "t0"
    assert track.token_vertices(game, CORP) == [Vertex(town, "t0")]


def test_the_track_is_reached_from_a_town_token() -> None:
    game, town, city = town_line()
    game.state.tokens[track.city_key(town, 0)] = [CORP]
    net = track.network(game, CORP)
    assert Vertex(city, "c0") in net.stops
    assert net.route_for_train


def test_a_run_from_a_town_token_counts_it_as_the_token_stop() -> None:
    game, town, city = town_line()
    game.state.tokens[track.city_key(town, 0)] = [CORP]
    runs = operating.checked_runs(game, CORP, RunRoutes((TrainRun("2", (town, city)),)))
    assert [r.stops for r in runs] == [(Vertex(town, "t0"), Vertex(city, "c0"))]
    assert track.stop_is_token(game, CORP, Vertex(town, "t0"))
    assert not track.stop_is_token(game, CORP, Vertex(city, "c0"))


def test_a_city_token_key_still_names_the_city() -> None:
    game, _, city = town_line()
    game.state.tokens[track.city_key(city, 0)] = [CORP]
    assert track.token_stop(game, city, 0) == "c0"
