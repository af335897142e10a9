"""1825's track and token in either order (issue 19; pbem/titles/g1825/track_and_token.py):
the token before the tiles, between the two yellow tiles or after them; a PASS ends both; a
later step's order passes both; the legal moves, the report's "you may" and a refusal list
both while both are open; each order sent by mail in one message. 1830 keeps track first.

Each test is built on one position (Unit 1 with Wales): the LSWR with tokens in London city
4 (which faces Southend V22, a city with a free slot) and on Southampton X14; its two yellow
tiles may go on U23 and on X14, which are not adjacent, and its token on V22.

Source: 18xx.games ``lib/engine/game/g_1825/step/track_and_token.rb`` and the step list of
``g_1825/game.rb`` (one step for track and token).
"""

from __future__ import annotations

import itertools

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.application.mail import AppConfig, TurnReports, handle_mail
from pbem.application.state import GameInfo, Replay, Seat
from pbem.commands import is_command_line
from pbem.engine.actions import BuyTrain, Dividend, LayTile, Pass, PlaceToken, RunRoutes, TrainRun
from pbem.engine.game import Game
from pbem.engine.steps import operating
from pbem.errors import IllegalOrderError
from pbem.games import hash_secret
from pbem.mail.types import BodyLine, Submission
from pbem.orders import format_order
from pbem.order_codecs import Vocabulary
from pbem.report_sections import offer
from pbem.titles.g1825.track_and_token import TrackAndToken1825
from tests.test_1825_operating import A, B, new_game, operate

CORP = "LSWR"
TOKEN = PlaceToken("V22", 0)


def position() -> Game:
    """The LSWR about to operate (see the module text), £500 in its treasury, no train."""
    return operate(new_game(), CORP, tokens=(CityRef("V20", 4), CityRef("X14", 0)))


def lays(game: Game) -> list[LayTile]:
    return [a for a in game.legal_actions(A) if isinstance(a, LayTile)]


def lay_on(game: Game, coord: str) -> LayTile:
    """The first legal lay on ``coord`` now."""
    return next(a for a in lays(game) if a.hex == coord)


def tokens(game: Game) -> list[PlaceToken]:
    return [a for a in game.legal_actions(A) if isinstance(a, PlaceToken)]


def step(game: Game) -> type[operating.OpStep]:
    return operating.active_steps(game)[0]


def test_the_position_offers_two_yellow_tiles_and_a_token() -> None:
    game = position()
    assert step(game) is TrackAndToken1825
    assert {a.hex for a in lays(game)} == {"U23", "X14"}
    assert tokens(game) == [TOKEN]


def test_token_before_the_lays_and_both_lays_stay_open() -> None:
    game = position()
    game.apply(A, TOKEN)
    assert game.state.tokens[CityRef("V22", 0)] == [CORP]
    assert game.state.corporations[CORP].cash == 400  # the LSWR's token costs £100
    assert step(game) is TrackAndToken1825
    assert {a.hex for a in lays(game)} == {"U23", "X14"} and tokens(game) == []
    with pytest.raises(IllegalOrderError, match="has placed its station token this turn"):
        game.apply(A, PlaceToken("V22", 0))
    game.apply(A, lay_on(game, "U23"))
    game.apply(A, lay_on(game, "X14"))
    op = operating.op_state(game)
    assert op.tiles_laid == 2 and op.token_placed
    assert step(game) is not TrackAndToken1825, "lays and token used: the step closes by itself"


def test_token_between_the_two_yellow_lays() -> None:
    game = position()
    game.apply(A, lay_on(game, "U23"))
    assert tokens(game) == [TOKEN], "the token stays open after the first tile"
    assert {a.hex for a in lays(game)} == {"X14"}
    game.apply(A, TOKEN)
    assert {a.hex for a in lays(game)} == {"X14"}, "the second tile stays open after the token"
    game.apply(A, lay_on(game, "X14"))
    assert operating.op_state(game).tiles_laid == 2 and game.state.tokens[CityRef("V22", 0)] == [CORP]
    assert step(game) is not TrackAndToken1825


def test_lays_then_token_as_before_and_the_token_stays_open_after_the_lays() -> None:
    game = position()
    game.apply(A, lay_on(game, "U23"))
    game.apply(A, lay_on(game, "X14"))
    assert operating.tile_lay_entry(game) is None and lays(game) == []
    assert step(game) is TrackAndToken1825 and TOKEN in tokens(game)  # X14's tile reaches Y13 too
    assert step(game).describe(game) == "place a station token (TOKEN), or PASS"
    game.apply(A, TOKEN)
    assert game.state.tokens[CityRef("V22", 0)] == [CORP] and step(game) is not TrackAndToken1825


@pytest.mark.parametrize("first", ["nothing", "lay", "token"])
def test_pass_ends_both_track_and_token(first: str) -> None:
    game = position()
    if first == "lay":
        game.apply(A, lay_on(game, "U23"))
    elif first == "token":
        game.apply(A, TOKEN)
    events = game.apply(A, Pass())
    assert step(game) is not TrackAndToken1825
    assert lays(game) == [] and tokens(game) == []
    passed = " ".join(e.render(game.money) for e in events)
    assert passed.startswith("LSWR passes ")
    with pytest.raises(IllegalOrderError):
        game.apply(A, lay_on(position(), "X14"))
    with pytest.raises(IllegalOrderError):
        game.apply(A, PlaceToken("V22", 0))
    assert CityRef("V22", 0) not in game.state.tokens or first == "token"


def test_a_later_steps_order_passes_both() -> None:
    game = position()
    game.apply(A, lay_on(game, "U23"))
    game.apply(A, BuyTrain("2", "depot"))  # the LSWR has no train to run: buying trains is next
    assert game.state.corporations[CORP].trains == [TrainId("2", 0)]
    assert step(game) is not TrackAndToken1825
    with pytest.raises(IllegalOrderError):
        game.apply(A, TOKEN)
    with pytest.raises(IllegalOrderError):
        game.apply(A, LayTile("X14", "5", 0))


def test_the_you_may_lists_both_lays_and_the_token_while_both_are_open() -> None:
    game = position()
    moves = operating.legal_moves(game, A)
    assert {(s, type(a)) for s, a in moves if s is TrackAndToken1825} == {
        (TrackAndToken1825, LayTile), (TrackAndToken1825, PlaceToken), (TrackAndToken1825, Pass)}
    found = offer(game, A)
    assert found is not None
    assert "LAY" in found.task and "TOKEN" in found.task and "either order" in found.task
    orders = [order for choice in found.choices for order in choice.orders]
    assert "TOKEN V22" in orders and "PASS" in orders
    assert any(order.startswith("LAY ") for order in orders)
    assert set(found.lays) == {"U23", "X14"}
    token = next(c for c in found.choices if "TOKEN V22" in c.orders)
    assert token.note == f"a token costs {game.money(100)}"
    passing = next(c for c in found.choices if "PASS" in c.orders)
    assert passing.note == "no more track or token this turn"
    # after the token: the lays, not the token; after the lays: the token, not a lay
    game.apply(A, TOKEN)
    found = offer(game, A)
    assert found is not None and found.lays and not any(
        order.startswith("TOKEN") for choice in found.choices for order in choice.orders)


def test_a_run_passes_both() -> None:
    game = operate(new_game(), CORP, owned=(TrainId("2", 0),), tokens=(CityRef("V20", 4), CityRef("X14", 0)))
    game.apply(A, lay_on(game, "U23"))
    game.apply(A, RunRoutes((TrainRun("2", ("V20.4", "V22")),)))
    assert operating.op_state(game).revenue == 70  # London 50 + Southend 20
    assert CityRef("V22", 0) not in game.state.tokens and operating.op_state(game).tiles_laid == 1
    with pytest.raises(IllegalOrderError):
        game.apply(A, TOKEN)


def test_a_refusal_names_both_lay_and_token_as_possible() -> None:
    game = position()
    with pytest.raises(IllegalOrderError) as refused:
        game.apply(A, Dividend("payout"))  # nothing run yet
    text = str(refused.value)
    assert "lay or upgrade a tile (LAY) or place a station token (TOKEN)" in text
    assert "lay tile" in text and "place token" in text


# -- by mail: each order in one message, through the application --------------------------------


GID = "tok-1825"
SECRET = {A: "annpw", B: "bobpw"}


def table(game: Game) -> Replay:
    seats = [Seat(name, f"{name.lower()}@example.org", hash_secret(GID, SECRET[name])) for name in (A, B)]
    info = GameInfo(GID, "1825", game.title.variants, seats, "gm@example.org", hash_secret(GID, "gmpw"))
    return Replay(info, game.title, game)


def mail(seat: str, lines: tuple[str, ...]) -> Submission:
    body = tuple(BodyLine(n, text, is_command_line(text)) for n, text in enumerate(lines, start=1))
    return Submission("<m1@example.org>", f"{seat.lower()}@example.org", seat, f"[{GID}] orders", GID,
                      SECRET[seat], body)


def written(game: Game, action: LayTile | PlaceToken) -> str:
    return format_order(action, Vocabulary.from_title(game.title))


@pytest.mark.parametrize("order", [("token", "U23", "X14"), ("U23", "token", "X14"), ("U23", "X14", "token")])
def test_each_order_sent_in_one_mail(order: tuple[str, str, str]) -> None:
    game = position()
    u23, x14 = written(game, lay_on(game, "U23")), written(game, lay_on(game, "X14"))
    lines = tuple({"token": "TOKEN V22", "U23": u23, "X14": x14}[what] for what in order)
    config = AppConfig(new_secret=lambda counter=itertools.count(): f"s{next(counter)}", hash_secret=hash_secret,
                       route_budget=20_000)
    decision = handle_mail(table(game), mail(A, lines), config)
    assert decision.refusal is None, (lines, decision.refusal)
    assert any(isinstance(r, TurnReports) for r in decision.replies)
    after = decision.state.game
    assert after.state.tokens[CityRef("V22", 0)] == [CORP]
    assert {"U23", "X14"} <= set(after.state.tiles)
    assert operating.op_state(after).tiles_laid == 2


def test_a_second_token_in_one_mail_is_refused_with_the_line() -> None:
    game = position()
    config = AppConfig(new_secret=lambda: "s", hash_secret=hash_secret, route_budget=20_000)
    decision = handle_mail(table(game), mail(A, ("TOKEN V22", written(game, lay_on(game, "U23")), "TOKEN V22")),
                           config)
    assert decision.refusal is not None and not decision.records
    assert decision.refusal.failed_line == "TOKEN V22" and decision.refusal.line_number == 3
    assert str(decision.refusal) == "LSWR has placed its station token this turn"


def test_help_says_track_and_token_come_in_either_order_in_1825_only() -> None:
    from pbem.order_reference import help_text
    from pbem.ruleset import load_title

    text = " ".join(help_text(title=load_title("1825", ("unit_1", "r1"))).split())
    assert "Track and token" in text and "in either order" in text and "A PASS there ends both" in text
    assert "either order" not in help_text(title=load_title("1830"))


def test_the_pass_note_says_what_is_left_to_decline() -> None:
    """After the token a PASS declines the lays left; after both lays, the token."""
    def note(game: Game) -> str:
        found = offer(game, A)
        assert found is not None
        return next(c for c in found.choices if "PASS" in c.orders).note

    game = position()
    assert note(game) == "no more track or token this turn"
    game.apply(A, TOKEN)
    assert note(game) == "no more track this turn"
    game = position()
    game.apply(A, lay_on(game, "U23"))
    game.apply(A, lay_on(game, "X14"))
    assert note(game) == "no token this turn"
