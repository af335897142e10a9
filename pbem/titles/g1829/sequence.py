"""1829's rounds (the variant's "Share Launches" and "Duration of the Game"): no auction, the
game begins with stock round 1 (:mod:`.stock`); operating rounds are counted for the launches;
a company's turn begins with its survey (:mod:`.survey`) and a packet's port income
(:mod:`.packets`); the game ends
after the last operating round the setting ``end_after_operating_rounds`` allows (30; "this
can be shaded down as far as 26"; 0: no limit, for the big-bank alternative), or once the
bank has broken, after that set of operating rounds (1830), whichever comes first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.sequence import RoundSequence
from pbem.engine.state import RoundKind, RoundState, TitleState
from pbem.engine.steps.stock import BuySellParShares
from pbem.titles.g1829 import launches, packets, survey
from pbem.titles.g1829.state import State1829, state1829
from pbem.titles.g1829.stock import Stock1829

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.steps.operating import OpStep

END_RULE = "end_after_operating_rounds"
END_REASON = "operating rounds"


class Sequence1829(RoundSequence):
    """See the module text."""

    def new_title_state(self) -> TitleState:
        """1829's own state (:class:`~pbem.titles.g1829.state.State1829`)."""
        return State1829()

    def first_round(self, game: Game) -> RoundState:
        """Stock round 1, in which the private railways are sold first."""
        return RoundState(kind=RoundKind.STOCK, number=1)

    def stock_step(self) -> type[BuySellParShares]:
        """:class:`~pbem.titles.g1829.stock.Stock1829`."""
        return Stock1829

    def next_round(self, game: Game, finished: RoundState) -> RoundState | None:
        """As 1830, each operating round counted as it ends; the game ends after the one the
        setting names."""
        limit = game.title.title_rule(END_RULE)
        if finished.kind == RoundKind.OPERATING:
            state1829(game.state).operating_rounds += 1
        if (finished.kind == RoundKind.OPERATING and isinstance(limit, int) and limit > 0
                and state1829(game.state).operating_rounds >= limit):
            game.end_game(END_REASON)
            return None
        return super().next_round(game, finished)

    def new_stock_round(self, game: Game) -> None:
        """A fresh count of falls by sales; the groups now on offer announced."""
        state1829(game.state).drops.clear()
        launches.announce(game)

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        """The survey (:class:`~pbem.titles.g1829.survey.Survey`) first, then 1830's steps:
        the track step skipped where the survey leaves no lay
        (:class:`~pbem.titles.g1829.survey.Track1829Step`), the token step allowing a station
        where a party stands where the setting says (:class:`~pbem.titles.g1829.survey.Token1829`)."""
        from pbem.engine.steps.operating import CORE_STEPS, Token, Track

        own = {Token: survey.Token1829, Track: survey.Track1829Step}
        return (survey.Survey, *(own.get(step, step) for step in CORE_STEPS))

    def corporation_turn_started(self, game: Game, corp: str) -> None:
        """A fresh survey, its parties placed as it first operates
        (:func:`~pbem.titles.g1829.survey.new_turn`), and the packets' port income
        (:func:`~pbem.titles.g1829.packets.pay_port_income`)."""
        survey.new_turn(game, corp)
        packets.pay_port_income(game, corp)
