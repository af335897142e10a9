"""The sequence of rounds and the title's own state: 1830's, which a title's
:class:`RoundSequence` subclass adjusts where it differs (its ``HOOKS.sequence``; issue 20: the
title interface split by concern). Asked by the game (:mod:`pbem.engine.game`) and the rounds
(:mod:`pbem.engine.rounds`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from pbem.engine import market
from pbem.engine.state import RoundKind, RoundState, TitleState
from pbem.engine.steps.auction import new_auction_state
from pbem.engine.steps.stock import BuySellParShares

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.step import Step
    from pbem.engine.steps.operating import OpStep


class RoundSequence:
    """The start, the rounds that follow it, the steps they run, the operating order, the
    title's own state and the end by the bank (1830 rules 4, 5, 6, 8)."""

    def first_round(self, game: Game) -> RoundState:
        """The round the game begins with: its ``kind`` names the steps it runs (the title
        data's ``round_steps``); when none of them is active any more, the round that
        :meth:`next_round` names follows (1830: the first stock round). 1830: the private
        auction (rules 4.2), kind ``"auction"`` with every private for sale, cheapest first.
        A title that starts otherwise (1825 sells its privates at face value in seat order;
        1829 drafts) returns a round of its own kind whose steps it gives in
        :meth:`step_types`."""
        return RoundState(kind=RoundKind.AUCTION, auction=new_auction_state(game))

    def next_round(self, game: Game, finished: RoundState) -> RoundState | None:
        """The round that follows ``finished`` (its kind and numbers; the round's own state is
        set up as it begins), or None when the game ends instead, this hook having ended it
        (``game.end_game``). 1830 (rules 5, 6, 8): the start is followed by stock round 1; a
        stock round by the first operating round of its set; an operating round by the next
        of the set (as many as the phase gave when the set began), and the last of a set by
        the next stock round, or the end of the game once the bank has broken."""
        if finished.kind == RoundKind.STOCK:
            return RoundState(kind=RoundKind.OPERATING, number=finished.number, or_number=1)
        if finished.kind == RoundKind.OPERATING:
            if finished.or_number < game.state.operating_rounds:
                return RoundState(kind=RoundKind.OPERATING, number=finished.number, or_number=finished.or_number + 1)
            if game.state.bank_broken:
                game.end_game("bank")
                return None
            return RoundState(kind=RoundKind.STOCK, number=finished.number + 1)
        return RoundState(kind=RoundKind.STOCK, number=1)

    def step_types(self) -> Mapping[str, type[Step]]:
        """The title's own round steps by the name its ``round_steps`` data uses, beside the
        core's (the auction's and the stock round's); 1830: none."""
        return {}

    def new_title_state(self) -> TitleState:
        """The title's own part of a new game's state (``GameState.title_state``); 1830 has
        none beyond the core's fields."""
        return TitleState()

    def stock_step(self) -> type[BuySellParShares]:
        """The stock round's step (the round step named ``buy_sell_par_shares``): the core's
        :class:`~pbem.engine.steps.stock.BuySellParShares`, or a title's subclass adding
        handlers and actions (1870: redemption, reissue and price protection). The game asks
        this step, never the core class, what a stock-round turn allows."""
        return BuySellParShares

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        """The steps of a corporation's turn, in order (1830: a lifted token placed again,
        track, token, run, dividend, a discard over the limit, trains, private companies)."""
        from pbem.engine.steps.operating import CORE_STEPS

        return CORE_STEPS

    def operating_order(self, game: Game) -> list[str]:
        """The floated corporations in the order they operate, fixed when an operating round
        starts (and when a train purchase changes prices, 1830: never mid-round). 1830 rules
        6: highest share price first; on one price, the rightmost cell first, then the higher
        row, then the one that arrived on the cell first. A title with a fixed order (1825:
        majors by par, ties by formation order, then minors) overrides this."""
        state = game.state

        def key(sym: str) -> tuple[int, int, int, int, str]:
            coord = state.corporations[sym].price
            assert coord is not None
            return (-market.price_at(game.title, coord), -coord[1], coord[0],
                    state.market[coord].index(sym), sym)

        floated = [s for s, c in state.corporations.items() if c.floated and not c.closed]
        return sorted(floated, key=key)

    def new_operating_round(self, game: Game) -> None:
        """Called when an operating round begins (its state is fresh, before the privates
        pay): where a title counts operating rounds (for its share launches); 1830: nothing."""

    def corporation_turn_started(self, game: Game, corp: str) -> None:
        """Called when ``corp``'s operating turn begins, after its home token is placed and
        before its first step: where a title pays or does something then (1829: a packet's
        port income); 1830: nothing."""

    def new_stock_round(self, game: Game) -> None:
        """Called when a stock round begins (its state is fresh); 1830: nothing to do."""

    def corporation_closed(self, game: Game, sym: str) -> None:
        """Called once ``sym`` has closed on the market (:mod:`pbem.engine.closing`), to drop
        what the title's state still holds for it; 1830: nothing (no corporation closes)."""

    def bank_broken(self, game: Game) -> bool:
        """Whether the bank has broken now (asked by ``Game.check_bank`` after the privates
        pay and after each dividend): 1830 rules 8, its cash is gone (0 or less). A title
        may count the bank otherwise (1825 as 18xx.games plays it: broken once the players
        hold more than the bank's whole stock of money, the treasuries counting as the
        bank's)."""
        return game.state.bank <= 0

    def bank_broken_ends(self, game: Game) -> str:
        """When the game ends once the bank has broken, in words for the report's line
        (``BankBroken``; the end itself is :meth:`next_round`'s): 1830 rules 8, "after this
        set of operating rounds"."""
        return "after this set of operating rounds"

    def bank_cash(self, game: Game) -> int:
        """The bank's cash as the reports show it (money, an int): 1830, the bank's own cash
        (``GameState.bank``). A title that counts the bank otherwise shows its count (1825
        as 18xx.games plays it: the game's money less the players', below zero once broken)."""
        return game.state.bank
