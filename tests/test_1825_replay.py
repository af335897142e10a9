"""The recorded 1825 game of 18xx.games (Unit 1 with the Wales kit R1, two players, ended by
the bank breaking) replays through the order language to its exact result, every route
re-validated, and imports as a game that ``pbem verify`` accepts; 1825's own record actions
are translated by ``pbem.titles.g1825.importing``."""

from __future__ import annotations

from pbem.importers.e18xx import effective_actions, load_record, record_variants
from pbem.importers.translation import translation_for
from pbem.titles.g1825.importing import Translation1825
from tests.records import record_path

RECORD = ("1825", "1825_game_end_bank.json")


def test_1825_has_its_own_record_translation() -> None:
    assert type(translation_for("1825")) is Translation1825


def test_the_record_plays_unit_1_with_the_wales_kit() -> None:
    record = load_record(record_path(*RECORD))
    assert set(record_variants(record)) >= {"unit_1", "r1"}


def test_the_pass_that_ends_the_platforms_track_and_token_step_is_no_order() -> None:
    """Record 96-98, LNWR in OR 5.1: a yellow tile, its token in London (S13), then the pass
    that ends the platform's step for track and token (a second yellow tile was still
    allowed). Our engine has left its track and token steps with the token, where a pass is
    no legal order: the pass becomes no order and the run follows."""
    import copy

    import pytest

    from pbem.engine.actions import Pass, PlaceToken
    from pbem.errors import IllegalOrderError
    from tests.records import replayed_before

    renderer = replayed_before(*RECORD, 98)
    op = renderer.game.state.round.operating
    assert op is not None and op.order[op.index] == "LNWR" and op.token_placed
    action = next(a for a in effective_actions(renderer.record) if a["id"] == 98)
    assert renderer.render(action) is None
    with pytest.raises(IllegalOrderError):
        copy.deepcopy(renderer.game).apply(renderer.seat(action), Pass())
    # before the token the same pass is an order (it ends the track step)
    earlier = replayed_before(*RECORD, 97)
    token = next(a for a in effective_actions(earlier.record) if a["id"] == 97)
    assert earlier.render(token) == PlaceToken("S13", 1)
    assert earlier.render(action) == Pass()
