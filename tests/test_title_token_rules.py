"""A title's own reason a station token may not go in a city (issue 12's extension point;
Lorenz's 1825 keeps Dover for the token of the company holding C&W's power): a made-up title
built from 1870's data whose hooks keep a city free of tokens. The one token check refuses
it (for every token, a private's placed without a connection too), and a city kept so still
lets routes through (it is not full); 1870 itself is unchanged."""

from __future__ import annotations

import dataclasses

import pytest

from pbem.engine import track
from pbem.engine.actions import PlaceToken
from pbem.engine.game import Game
from pbem.engine.steps.operating.tokens import place_token
from pbem.engine.values import Vertex
from pbem.errors import IllegalOrderError
from tests.positions import mp_operating_with_the_bridge_company


def kept_city(game: Game) -> str:
    """A one-city hex of 1870's map with a free slot, other than MP's home."""
    return next(coord for coord, hexdata in sorted(game.board.hexes.items())
                if len(track.placed(game, coord).tile.cities) == 1 and coord != "C18"
                and track.free_slots(game, coord, 0) > 0)


def game_keeping_a_city() -> tuple[Game, str]:
    """1870's OR 1 position (MP operating) with hooks that keep one city free of tokens."""
    game = mp_operating_with_the_bridge_company()
    coord = kept_city(game)
    base = type(game.title.hooks.track)

    class Keeping(base):  # type: ignore[misc, valid-type]
        def token_problem(self, game: Game, corp: str, at: str, city: int) -> str | None:
            if at == coord:
                return f"{at} is kept free of tokens"
            return super().token_problem(game, corp, at, city)

    kept = Game(dataclasses.replace(game.title, hooks=dataclasses.replace(game.title.hooks, track=Keeping())), ["A", "B", "C"])
    kept.state = game.state
    return kept, coord


def test_the_titles_reason_refuses_a_token_and_keeps_it_off_the_legal_moves() -> None:
    game, coord = game_keeping_a_city()
    assert track.token_problem(game, "MP", coord, 0, ignore_reach=True) == f"{coord} is kept free of tokens"
    with pytest.raises(IllegalOrderError, match=f"{coord} is kept free of tokens"):
        place_token(game, "MP", PlaceToken(coord, 0), ignore_reach=True)  # as a private's token is placed
    assert game.state.tokens.get(track.city_key(coord, 0)) is None
    assert not track.blocks(game, Vertex(coord, "c0"), "MP"), "a city kept free is not full"


def test_1870_has_no_reason_of_its_own() -> None:
    game = mp_operating_with_the_bridge_company()
    coord = kept_city(game)
    assert game.hooks.track.token_problem(game, "MP", coord, 0) is None
    assert track.token_problem(game, "MP", coord, 0, ignore_reach=True) is None
