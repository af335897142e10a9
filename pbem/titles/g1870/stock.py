"""1870's stock-round step: the core's :class:`BuySellParShares` plus the corporations' own
actions (redemption and reissue, :mod:`pbem.titles.g1870.redemption`) and the price
protection of the turn's sales (:mod:`pbem.titles.g1870.protection`).

While a queued sale's president decides on price protection (``State1870.protecting``), the
step's only actor is that president and the only actions are buying the sold shares back from
the pool (``BUY <n> <corporation> POOL``) or PASS; the game waits for them
(:meth:`Stock1870.hold`), and after a protection play goes on after the protector.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterable

from pbem.engine.actions import Action, BuyShares, Pass
from pbem.titles.g1870.actions import Redeem, Reissue, StartOutOfOrder
from pbem.engine.state import StockRoundState
from pbem.engine.step import Handler
from pbem.engine.steps.stock import BuySellParShares, end_turn
from pbem.titles.g1870 import protection, redemption
from pbem.titles.g1870.state import state1870

if TYPE_CHECKING:
    from pbem.engine.game import Game


def _sr_of(game: Game) -> StockRoundState:
    sr = game.state.round.stock
    assert sr is not None, "not in a stock round"
    return sr


class Stock1870(BuySellParShares):
    """One player's stock-round turn in 1870 (see the module docstring)."""

    handlers: ClassVar[dict[type[Action], Handler]] = {}

    @classmethod
    def actors(cls, game: Game) -> list[str]:
        mine = state1870(game.state)
        if mine.protecting:
            return [str(mine.sell_queue[0].president)]
        return super().actors(game)

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> Iterable[Action]:
        mine = state1870(game.state)
        if mine.protecting:
            entry = mine.sell_queue[0]
            return [BuyShares(entry.corporation, "pool", entry.count), Pass()]
        return super().legal_actions(game, player)

    @classmethod
    def has_actions(cls, game: Game, player: str) -> bool:
        if state1870(game.state).protecting:
            return True
        return super().has_actions(game, player)

    @classmethod
    def corporation_actions(cls, game: Game, player: str) -> list[Action]:
        """A corporation ``player`` presides may redeem a share (from each source it may) and
        reissue its redeemed shares (1870 rules: redemption and reissue)."""
        state = game.state
        sr = state.round.stock
        found: list[Action] = []
        if sr is None or state1870(state).protecting:
            return found
        for sym, corp in state.corporations.items():
            if corp.president != player or corp.closed:
                continue
            found.extend(Redeem(sym, source) for source in redemption.redeem_sources(game, sr, player, sym))
            if redemption.reissue_problem(game, sr, player, sym) is None:
                found.append(Reissue(sym))
        return found

    @classmethod
    def interrupted(cls, game: Game) -> bool:
        return state1870(game.state).protecting

    @classmethod
    def hold(cls, game: Game) -> bool:
        return protection.resume_after_protection(game)

    @classmethod
    def before_next_turn(cls, game: Game) -> bool:
        return protection.settle_stock_round(game)

    # -- handlers -------------------------------------------------------------------------

    @classmethod
    def process_buy(cls, game: Game, player: str, action: Action) -> None:
        """A purchase, or while a president decides, their price protection."""
        assert isinstance(action, BuyShares)
        if state1870(game.state).protecting:
            protection.protect_in_stock_round(game, player, action)
            return
        super().process_buy(game, player, action)

    @classmethod
    def process_pass(cls, game: Game, player: str, action: Action) -> None:
        """A pass, or while a president decides, their declining to protect."""
        if state1870(game.state).protecting:
            protection.decline_in_stock_round(game, forced=False)
            game.turn_over = True  # the seller's turn had ended; play goes on after the seller
            return
        super().process_pass(game, player, action)

    @classmethod
    def process_redeem(cls, game: Game, player: str, action: Action) -> None:
        """Share redemption, the president's whole turn: see :func:`redemption.redeem`."""
        assert isinstance(action, Redeem)
        sr = _sr_of(game)
        redemption.redeem(game, sr, player, action.corporation, action.source)
        sr.turn_actions.append("redeem")
        sr.last_to_act = player
        end_turn(game, player)

    @classmethod
    def process_reissue(cls, game: Game, player: str, action: Action) -> None:
        """Share reissue, the president's whole turn: see :func:`redemption.reissue`."""
        assert isinstance(action, Reissue)
        sr = _sr_of(game)
        redemption.reissue(game, sr, player, action.corporation)
        sr.turn_actions.append("reissue")
        sr.last_to_act = player
        end_turn(game, player)

    @classmethod
    def process_out_of_order(cls, game: Game, player: str, action: Action) -> None:
        """The GM's ruling that a corporation may start out of the historical order: no part
        of ``player``'s turn. :raises IllegalOrderError: the order does not hold it back."""
        from pbem.errors import IllegalOrderError
        from pbem.titles.g1870 import historical

        from pbem.titles.g1870.events import OutOfOrderRuled

        assert isinstance(action, StartOutOfOrder)
        earlier = historical.waiting_for(game, action.corporation)
        if earlier is None:
            raise IllegalOrderError(f"the historical order does not hold {action.corporation} back now")
        state1870(game.state).out_of_order.append(action.corporation)
        game.event(OutOfOrderRuled(action.corporation, earlier))


Stock1870.handlers = {
    StartOutOfOrder: Stock1870.process_out_of_order,
    Redeem: Stock1870.process_redeem,
    Reissue: Stock1870.process_reissue,
    **BuySellParShares.handlers,
    BuyShares: Stock1870.process_buy,
    Pass: Stock1870.process_pass,
}
