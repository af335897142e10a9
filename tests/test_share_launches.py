"""Share launches (issue 11's extension points; 1825: companies open as earlier ones sell
out): a made-up title built from 1830's data whose hooks make a band of corporations
available only after a number of operating rounds. The stock step's legal moves, the
report's offers and the refusals all read the one hook; 1830 itself is unchanged."""

from __future__ import annotations

import dataclasses

import pytest

from pbem import report_sections as sections
from pbem.engine.actions import BuyPrivate, BuyShares, Par, Pass
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title

P1, P2, P3 = "Player 1", "Player 2", "Player 3"
LATE = ("NYC", "B&M")


class LateLaunch(TitleHooks):
    """Corporations named in the title's ``launch_after`` constant open after that many
    operating rounds."""

    def launch_problem(self, game: Game, sym: str) -> str | None:
        after = int(game.title.const("launch_after", {}).get(sym, 0))
        played = game.state.operating_rounds_played
        if played < after:
            return f"{sym}'s shares are offered after {after} operating round{'s' if after > 1 else ''} ({played} so far)"
        return None


def made_up() -> Game:
    """1830 with NYC and B&M launching after the first operating round; privates sold at
    face value, in SR 1 with Player 1 (the BO's owner, B&O at par) to act."""
    base = load_title("1830")
    title = dataclasses.replace(base, hooks=LateLaunch(),
                                constants={**base.constants, "launch_after": {sym: 1 for sym in LATE}})
    game = Game(title, [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO")):
        game.apply(player, BuyPrivate(company))
    game.apply(P3, Par("B&O", 100))
    return game


def pars(game: Game, player: str) -> set[str]:
    return {a.corporation for a in game.legal_actions(player) if isinstance(a, Par)}


def test_1830_launches_every_corporation_at_once() -> None:
    game = Game(load_title("1830"), [P1, P2, P3])
    assert all(TitleHooks().launch_problem(game, sym) is None for sym in game.state.corporations)


def test_a_late_band_is_not_offered_and_is_refused_until_its_operating_round() -> None:
    game = made_up()
    player = game.current_actors()[0]
    offered = pars(game, player)
    assert "PRR" in offered and not offered & set(LATE)
    with pytest.raises(IllegalOrderError, match=r"NYC's shares are offered after 1 operating round \(0 so far\)"):
        game.apply(player, Par("NYC", 100))
    with pytest.raises(IllegalOrderError, match="NYC's shares are offered after 1 operating round"):
        game.apply(player, BuyShares("NYC", "ipo"))
    lines = "\n".join(sections.options(game, player))
    assert "PRR" in lines and "NYC" not in lines and "B&M" not in lines, "the report's offers agree"


def test_the_band_opens_after_the_operating_round() -> None:
    game = made_up()
    while game.state.round.kind == "stock" and game.state.round.number == 1:
        game.apply(game.current_actors()[0], Pass())
    # OR 1: the B&O has not floated; nothing operates and the next stock round begins
    assert game.state.operating_rounds_played == 1
    assert game.state.round.kind == "stock" and game.state.round.number == 2
    player = game.current_actors()[0]
    assert set(LATE) <= pars(game, player)
    assert "NYC" in "\n".join(sections.options(game, player))
    game.apply(player, Par("NYC", 100))
    assert game.state.corporations["NYC"].president == player
