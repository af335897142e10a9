"""The track graph's stop vertices and city references as typed values (issue 11: "typed
values"): ``Vertex(coord, stop)`` and ``CityRef(coord, city)`` instead of strings built
and split by hand."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pbem.engine import routes, track
from pbem.engine.values import CityRef, Vertex
from tests.records import replayed_before

coords = st.builds(lambda letters, number: f"{letters}{number}",
                   st.sampled_from(["A", "B", "F", "M", "AA"]), st.integers(min_value=1, max_value=30))
stops = st.one_of(st.just("o"), st.builds(lambda kind, i: f"{kind}{i}", st.sampled_from("ct"),
                                          st.integers(min_value=0, max_value=3)))


def test_a_vertex_shows_as_the_stop_text_and_names_its_parts() -> None:
    city = Vertex("F20", "c1")
    assert str(city) == "F20:c1" and f"{city}" == "F20:c1"
    assert (city.coord, city.stop, city.number) == ("F20", "c1", 1)
    assert city.is_city and not city.is_offboard
    offboard = Vertex("F2", "o")
    assert offboard.is_offboard and not offboard.is_city
    town = Vertex("G10", "t0")
    assert not town.is_city and not town.is_offboard and town.number == 0
    assert {city: 1}[Vertex("F20", "c1")] == 1
    assert city != Vertex("F2", "c1") and city != "F20:c1"


@given(st.lists(st.tuples(coords, stops), min_size=2, max_size=8))
def test_vertices_sort_as_their_text_did(pairs: list[tuple[str, str]]) -> None:
    """A route search lists stops and breaks ties in this order, so it must stay the order
    of the text (``"F20:c1"`` before ``"F2:o"``, unlike the plain tuples)."""
    vertices = [Vertex(c, s) for c, s in pairs]
    assert [str(v) for v in sorted(vertices)] == sorted(str(v) for v in vertices)
    a, b = vertices[0], vertices[1]
    assert (a < b, a <= b, a > b, a >= b) == (str(a) < str(b), str(a) <= str(b), str(a) > str(b), str(a) >= str(b))


def test_a_city_reference_shows_as_the_order_text_and_parses_back() -> None:
    ref = CityRef("F20", 1)
    assert track.city_key("F20", 1) == ref and str(ref) == "F20.1"
    assert CityRef.parse("F20.1") == ref and CityRef.parse(str(CityRef("AA3", 0))) == CityRef("AA3", 0)
    with pytest.raises(ValueError):
        CityRef.parse("F20")
    with pytest.raises(ValueError):
        CityRef.parse("F20.x")


def test_the_engine_hands_out_vertices_for_stops_tokens_and_runs() -> None:
    game = replayed_before("1830", "1830_game_end_bank.json", 600).game
    corp = next(sym for sym, c in game.state.corporations.items()
                if not c.closed and track.token_vertices(game, sym) and c.trains)
    tokens = track.token_vertices(game, corp)
    assert tokens and all(type(v) is Vertex and v.is_city for v in tokens)
    assert {CityRef(v.coord, v.number) for v in tokens} == {
        key for key, corps in game.state.tokens.items() if corp in corps}
    net = track.network(game, corp)
    assert set(tokens) <= net.stops and all(type(v) is Vertex for v in net.stops)
    assert all(type(v) is Vertex for v in track.stop_candidates(game, tokens[0].coord))
    found = routes.best_run(game, corp)
    assert found.runs
    for _train, route in found.runs:
        assert all(type(v) is Vertex for v in route.stops)
        assert all(track.stop_candidates(game, routes.stop_spec(game, v)) for v in route.stops)


def test_a_dividend_choice_is_a_value_read_back_from_its_text() -> None:
    """Issue 20: the choice is an enum; a log record's text becomes it, and it writes back as
    the same text (a log written before reads the same)."""
    from pbem.engine.actions import Dividend, action_from_dict
    from pbem.engine.values import DividendChoice

    read = action_from_dict({"type": "dividend", "choice": "half"})
    assert read == Dividend(DividendChoice.HALF) and type(read.choice) is DividendChoice  # type: ignore[attr-defined]
    assert read.to_dict()["choice"] == "half"
    with pytest.raises(ValueError, match="payout, half or withhold, not 'pay'"):
        Dividend("pay")  # type: ignore[arg-type]
