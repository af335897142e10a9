"""Share launches (issue 11's extension points; 1829: the MR after three operating rounds;
Lorenz's 1825: no more LNWR shares until the privates are sold): made-up titles built from
1830's data whose hooks make a band of corporations available only after a number of
operating rounds (counted in the title's state by ``new_operating_round``), or keep the
further shares of a started corporation off offer while a condition holds. The stock step's
legal moves, the report's offers and the refusals all read the one hook; 1830 itself is
unchanged."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pytest

from pbem import report_sections as sections
from pbem.engine.sequence import RoundSequence
from pbem.engine.stock_rules import StockRules
from pbem.engine.actions import BuyPrivate, BuyShares, Par, Pass
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.state import IPO, TitleState
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title

P1, P2, P3 = "Player 1", "Player 2", "Player 3"
LATE = ("NYC", "B&M")


@dataclass
class Counted(TitleState):
    operating_rounds: int = 0
    """Operating rounds begun."""


def counted(game: Game) -> Counted:
    assert isinstance(game.state.title_state, Counted)
    return game.state.title_state


class CountingRounds(RoundSequence):
    """The operating rounds counted in the title's state."""

    def new_title_state(self) -> TitleState:
        return Counted()

    def new_operating_round(self, game: Game) -> None:
        counted(game).operating_rounds += 1


class LateLaunch(StockRules):
    """Corporations named in ``launch_after`` (symbol -> operating rounds) open after that many
    operating rounds."""

    def __init__(self, launch_after: dict[str, int]) -> None:
        self.launch_after = launch_after

    def launch_problem(self, game: Game, sym: str) -> str | None:
        after = self.launch_after.get(sym, 0)
        played = counted(game).operating_rounds
        if played < after:
            return f"{sym}'s shares are offered after {after} operating round{'s' if after > 1 else ''} ({played} so far)"
        return None


def made_up() -> Game:
    """1830 with NYC and B&M launching after the first operating round; privates sold at
    face value, in SR 1 with Player 1 (the BO's owner, B&O at par) to act."""
    base = load_title("1830")
    late = LateLaunch({sym: 1 for sym in LATE})
    title = dataclasses.replace(base, hooks=TitleHooks(sequence=CountingRounds(), stock=late))
    game = Game(title, [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO")):
        game.apply(player, BuyPrivate(company))
    game.apply(P3, Par("B&O", 100))
    return game


def pars(game: Game, player: str) -> set[str]:
    return {a.corporation for a in game.legal_actions(player) if isinstance(a, Par)}


def test_1830_launches_every_corporation_at_once() -> None:
    game = Game(load_title("1830"), [P1, P2, P3])
    assert all(StockRules().launch_problem(game, sym) is None for sym in game.state.corporations)


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
    assert counted(game).operating_rounds == 1
    assert game.state.round.kind == "stock" and game.state.round.number == 2
    player = game.current_actors()[0]
    assert set(LATE) <= pars(game, player)
    assert "NYC" in "\n".join(sections.options(game, player))
    game.apply(player, Par("NYC", 100))
    assert game.state.corporations["NYC"].president == player


class NoMoreUntilPhase3(StockRules):
    """The further shares of a started NYC are off offer until phase 3 (as Lorenz's 1825
    keeps the LNWR's until every private is sold)."""

    def launch_problem(self, game: Game, sym: str) -> str | None:
        if sym == "NYC" and game.state.phase == "2":
            return "no more NYC shares are on offer before phase 3"
        return None


def test_a_started_corporations_further_shares_wait_for_the_titles_condition() -> None:
    base = load_title("1830")
    game = Game(dataclasses.replace(base, hooks=TitleHooks(stock=NoMoreUntilPhase3())), [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO")):
        game.apply(player, BuyPrivate(company))
    game.apply(P3, Par("B&O", 100))
    # NYC's Director's (president's) certificate came with a private, as 1825's LNWR does
    nyc = game.state.corporations["NYC"]
    nyc.ipoed, nyc.president, nyc.par = True, P2, base.par_cells()[0]
    nyc.price = nyc.par
    game.state.market.setdefault(nyc.par, []).append("NYC")
    next(c for c in game.state.certificates if c.corporation == "NYC" and c.president).owner = Owner.player(P2)
    player = game.current_actors()[0]
    assert BuyShares("NYC", "ipo") not in game.legal_actions(player)
    assert BuyShares("PRR", "ipo") not in game.legal_actions(player)  # not started
    with pytest.raises(IllegalOrderError, match="no more NYC shares are on offer before phase 3"):
        game.apply(player, BuyShares("NYC", "ipo"))
    assert "NYC" not in "\n".join(sections.options(game, player))
    game.state.phase = "3"
    assert BuyShares("NYC", "ipo") in game.legal_actions(player)
    game.apply(player, BuyShares("NYC", "ipo"))
    assert game.state.percent_of(Owner.player(player), "NYC") == 10 and game.state.percent_of(IPO, "NYC") == 70
