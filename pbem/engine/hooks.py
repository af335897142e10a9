"""The base title hooks: the behaviour of 1830, which most titles share.

A title's package (``pbem/titles/g<title>/``) exposes ``HOOKS``, this class or a subclass
overriding only what differs; the game is handed an instance and calls its methods at the few
places titles differ (stock-market moves, dividends, extra revenue, extra tile-lay rules).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from pbem.engine import market
from pbem.engine.state import ShareSale, TitleState
from pbem.engine.steps.stock import BuySellParShares, drop_price, pool_presidency

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.receivership import ReceivershipPolicy
    from pbem.engine.steps.operating import OpStep
    from pbem.engine.title import TitleData
    from pbem.order_codecs import OrderCodec

Coord = tuple[int, int]


class TitleHooks:
    """Overridable rules; every method documents the 1830 behaviour it implements."""

    # -- the title's own state and stock round ---------------------------------------------

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

    def new_stock_round(self, game: Game) -> None:
        """Called when a stock round begins (its state is fresh); 1830: nothing to do."""

    def after_sale(self, game: Game, sale: ShareSale) -> None:
        """After ``sale`` is paid and the presidency handed on: the price drops a row a share
        sold (1830 rules 5.3), announced; then the presidency is checked against the pool."""
        drop_price(game, sale.corporation, sale.count)
        pool_presidency(game, sale.corporation)

    def corporation_closed(self, game: Game, sym: str) -> None:
        """Called once ``sym`` has closed on the market (:mod:`pbem.engine.closing`), to drop
        what the title's state still holds for it; 1830: nothing (no corporation closes)."""

    # -- stock market (1830 rules 5.3, 6.9) -------------------------------------------------

    def up(self, title: TitleData, coord: Coord) -> Coord:
        """One row up; stays in the top row."""
        return market.up(title, coord)

    def down(self, title: TitleData, coord: Coord) -> Coord:
        """One row down; stays at the bottom of a column."""
        return market.down(title, coord)

    def right(self, title: TitleData, coord: Coord) -> Coord:
        """One column right; at the right edge, up instead."""
        return market.right(title, coord)

    def left(self, title: TitleData, coord: Coord) -> Coord:
        """One column left; at the left edge, down instead."""
        return market.left(title, coord)

    # -- dividends (1830 rules 6.6) ---------------------------------------------------------

    def dividend_kinds(self, title: TitleData) -> tuple[str, ...]:
        """The choices a corporation has for its revenue: the title data's
        ``dividend_choices`` (1830: payout or withhold; 1870 adds half)."""
        return tuple(title.const("dividend_choices") or ("payout", "withhold"))

    def split(self, revenue: int, choice: str, shares: int) -> tuple[int, float]:
        """``(kept by the corporation, paid per share)`` for ``revenue`` and ``choice``."""
        if choice == "withhold":
            return revenue, 0.0
        return 0, revenue / shares

    def pays_the_corporation(self, holder: str) -> bool:
        """Whether shares held by ``holder`` (``"IPO"`` or ``"POOL"``) pay the corporation
        (1830: the pool's shares do; the IPO's pay no one)."""
        return holder == "POOL"

    def price_move(self, revenue: int, paid: int) -> str | None:
        """How the price moves after a dividend: ``"right"`` when anything was paid,
        ``"left"`` when nothing was."""
        return "right" if paid > 0 else "left"

    def dividend_amount(self, percent: int, share_percent: int, per_share: float) -> int:
        """A holder's dividend: shares times the per-share amount, rounded up."""
        return math.ceil(percent / share_percent * per_share)

    # -- revenue and track ------------------------------------------------------------------

    def extra_revenue(self, game: Game, corp: str, stops: list[str]) -> int:
        """Revenue a run earns beyond its stops' values (1830: none)."""
        return 0

    def route_problem(self, game: Game, corp: str, stops: list[str]) -> str | None:
        """A title's own reason a route may not visit ``stops`` (stop vertices in order), or
        None (1830: none; 1825 forbids two cities of one hex on a route). Checked for every
        run written and every route the optimiser considers."""
        return None

    def connections_due(self, game: Game, order: list[str]) -> list[str]:
        """Corporations of ``order`` owed a destination connection run now, at the end of a
        corporation's turn (1830: none; 1870: see its hooks)."""
        return []

    def lay_problem(self, game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
        """A title's extra reason a tile may not go there (1830: none)."""
        return None

    # -- the order language -------------------------------------------------------------------

    def order_codecs(self) -> tuple[OrderCodec, ...]:
        """The title's own order words, read and listed after the core's
        (:data:`pbem.core_codecs.CORE_CODECS`); one for a word the core has replaces it
        (1830: none)."""
        return ()

    # -- the operating round (1830 rules 6) --------------------------------------------------

    def station_tokens(self, game: Game, corp: str) -> tuple[list[int], int]:
        """``(the prices of corp's station tokens in order, how many of them are placed)``
        (1830: the charter's tokens; every token of ``corp`` on the map is one of them)."""
        placed = sum(1 for corps in game.state.tokens.values() if corp in corps)
        return list(game.title.corporation(corp).tokens), placed

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        """The steps of a corporation's turn, in order (1830: a lifted token placed again,
        track, token, run, dividend, a discard over the limit, trains, private companies)."""
        from pbem.engine.steps.operating import CORE_STEPS

        return CORE_STEPS

    # -- the map's extension points: gated lays (1829) -----------------------------------------

    def lay_gate(self, game: Game, corp: str) -> frozenset[str] | None:
        """The hexes ``corp`` may lay or upgrade tiles on now, or None for no restriction
        (1830). The base answer is the title data's ``gating_pieces``
        (:func:`pbem.engine.pieces.allowed_hexes`: hexes near the corporation's survey
        parties); the one lay check refuses other hexes and the legal-lay generator lists
        only these, keyed on the set returned (so it must depend only on the state)."""
        from pbem.engine.pieces import allowed_hexes

        return allowed_hexes(game, corp)

    # -- receivership and share launches (issue 11: extension points 1825 needs) -----------

    def receivership(self) -> ReceivershipPolicy | None:
        """The rules that run a corporation with no president
        (:class:`~pbem.engine.receivership.ReceivershipPolicy`), or None. With a policy, a
        president may sell the president's certificate to the bank pool when no other player
        can take it over, and the receiver then takes the corporation's operating turns
        (1825: a company whose Director's certificate is in the pool). 1830: None — the
        president's certificate never lies in the pool."""
        return None

    def launch_problem(self, game: Game, sym: str) -> str | None:
        """Why ``sym``'s shares are not yet available (neither started at par nor bought),
        or None: a title whose corporations, or bands of them, launch later (after a number
        of operating rounds, ``GameState.operating_rounds_played``, or when the title's
        condition holds) says so here; the stock step's legal moves, HELP, the report and
        the refusals all read it. 1830: every corporation is available from the start."""
        return None
