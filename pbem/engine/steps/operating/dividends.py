"""Paying out or withholding the revenue, and the price move that follows (1830 rules 6.6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from pbem.engine.values import DividendChoice
from pbem.engine import market, shares, track
from pbem.engine.actions import Action, Dividend
from pbem.engine.events import DividendPaid, NoRun, PriceMoved, Withheld
from pbem.engine.state import IPO, POOL, Owner
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state
from pbem.engine.stock_rules import PriceMove
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.title import TitleData

Move = Callable[["TitleData", tuple[int, int]], tuple[int, int]]
"""A one-cell price move (a hook such as ``StockRules.right``)."""


class DividendStep(OpStep):
    """Pay out or withhold (1830 rules 6.6): payout moves the price right, withholding (or
    no revenue) left; shares in the pool pay the corporation, shares in the IPO pay no one."""

    name = "dividend"
    description = "PAYOUT or WITHHOLD (or HALF where the title allows it)"
    takes = (Dividend,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = op_state(game)
        return bool(op.revenue) and "dividend_done" not in op.passed_steps

    @classmethod
    def revenue(cls, game: Game) -> int | None:
        """The turn's run's revenue."""
        return op_state(game).revenue

    @classmethod
    def skip(cls, game: Game) -> None:
        op = op_state(game)
        if "dividend_done" in op.passed_steps:
            return
        pay_dividend(game, current_corp(game), DividendChoice.WITHHOLD)

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Dividend)
        if action.choice not in game.hooks.dividends.dividend_kinds(game.title):
            raise IllegalOrderError(f"{action.choice} is not a choice in {game.title.title}: "
                                    f"{', '.join(game.hooks.dividends.dividend_kinds(game.title))}")
        pay_dividend(game, current_corp(game), action.choice)


    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return [Dividend(kind) for kind in game.hooks.dividends.dividend_kinds(game.title)]


def pay_dividend(game: Game, corp: str, choice: DividendChoice) -> None:
    """Pay out, pay half or withhold this turn's revenue, and move the share price (1830
    rules 6.6; the title's hooks say what each choice keeps and pays, which holders pay the
    corporation, and which way the price moves)."""
    state, hooks = game.state, game.hooks
    op = op_state(game)
    revenue = op.revenue or 0
    treasury = state.corporations[corp]
    treasury.last_revenue = revenue
    treasury.last_choice = choice if revenue else "did not run"
    op.passed_steps.append("dividend_done")
    op.passed_steps.append(DividendStep.name)
    kept = distribute(game, corp, revenue, choice)
    steps = hooks.dividends.dividend_moves(game, corp, revenue, revenue - kept)
    if steps:
        move_price(game, corp, lambda title, coord: _moved(game, coord, steps))
    treasury.operated = True
    game.check_bank()


def distribute(game: Game, corp: str, revenue: int, choice: DividendChoice) -> int:
    """Pay ``revenue`` as ``choice`` says: the corporation keeps its part, each holder gets
    its shares' worth (the hooks say which bank holders pay the corporation). Returns the
    amount kept by the corporation."""
    state, title, hooks = game.state, game.title, game.hooks
    treasury = state.corporations[corp]
    share_pct = shares.share_percent(title, corp)
    total_shares = sum(title.corporation(corp).shares) // share_pct
    kept, per_share = hooks.dividends.split(revenue, choice, total_shares)
    if kept:
        treasury.cash += kept
        state.bank -= kept
    if not revenue:
        game.event(NoRun(corp, track.network(game, corp).route_for_train))
    elif choice == DividendChoice.WITHHOLD:
        game.event(Withheld(corp, revenue))
    if per_share > 0:
        paid: list[tuple[int, str]] = []
        for holder in state.seats:
            pct = state.percent_of(Owner.player(holder), corp)
            if pct:
                amount = hooks.dividends.dividend_amount(pct, share_pct, per_share)
                state.players[holder].cash += amount
                state.bank -= amount
                paid.append((amount, holder))
        for bank in (IPO, POOL):
            pct = state.percent_of(bank, corp)
            if pct and hooks.dividends.pays_the_corporation(bank):
                amount = hooks.dividends.dividend_amount(pct, share_pct, per_share)
                treasury.cash += amount
                state.bank -= amount
                paid.append((amount, corp))
        game.event(DividendPaid(corp, revenue, kept, per_share, tuple(paid)))
    return kept


def _moved(game: Game, coord: tuple[int, int], steps: Sequence[PriceMove]) -> tuple[int, int]:
    """``coord`` after each move of ``steps`` in turn, by the title's market rules."""
    for step in steps:
        coord = game.hooks.stock.moved(game.title, coord, step)
    return coord


def move_price(game: Game, corp: str, how: Move) -> None:
    """Move ``corp``'s price marker to ``how(title, coord)`` (a hook such as ``right``),
    logging the move if the price changed."""
    treasury = game.state.corporations[corp]
    before = treasury.price
    assert before is not None
    after = how(game.title, before)
    if market.move(game.state, game.title, corp, after):
        game.event(PriceMoved(corp, market.price_at(game.title, before), market.price_at(game.title, after)))
