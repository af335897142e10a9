"""1870's operating round: its steps in order (:func:`operating_steps`) and the price
protection that ends a corporation's turn when its president sold shares for a train."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pbem.titles.g1870 import protection
from pbem.titles.g1870.state import state1870
from pbem.engine.actions import Action, BuyShares, Pass
from pbem.engine.steps.operating import CORE_STEPS, OpStep, Track, recalculate_order
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


class PriceProtection(OpStep):
    """At the end of the operating corporation's turn, price protection for the shares its
    president sold to raise cash for a train (1870 rules; see :mod:`pbem.titles.g1870.protection`):
    the president of each sold corporation, oldest sale first, may buy the shares back from
    the pool at the sale price, or the price drops; the corporations still to operate are then
    re-ordered by their new prices."""

    name = "price_protection"
    description = "protect the price of the shares sold (BUY <n> <corporation> POOL), or PASS"
    sticky = True
    players_own = True
    takes = (BuyShares, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        return bool(state1870(game.state).sell_queue)

    @classmethod
    def prepare(cls, game: Game) -> None:
        if state1870(game.state).sell_queue:
            protection.settle(game)
            recalculate_order(game)

    @classmethod
    def actor(cls, game: Game) -> str:
        return str(protection.head(game).president)

    @classmethod
    def subject(cls, game: Game) -> str:
        return protection.head(game).corporation

    @classmethod
    def describe(cls, game: Game) -> str:
        entry = protection.head(game)
        count, sym = entry.count, entry.corporation
        cost = game.money(entry.price * count)
        return (f"protect the price of {sym}: buy the {count} share{'s' if count > 1 else ''} sold "
                f"(BUY {count} {sym} POOL, {cost}), or PASS and the price drops")

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        if player != cls.actor(game):
            raise IllegalOrderError(f"it is not {player}'s turn: waiting for {cls.actor(game)} to {cls.describe(game)}")
        if isinstance(action, Pass):
            protection.decline(game, forced=False)
        else:
            assert isinstance(action, BuyShares)
            protection.protect(game, player, action)
        protection.settle(game)
        recalculate_order(game)

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        entry = protection.head(game)
        return (BuyShares(entry.corporation, "pool", entry.count), Pass())


def operating_steps() -> tuple[type[OpStep], ...]:
    """A corporation's turn in 1870: the connection runs owed come first (and the GM's
    ``CONNECT`` at any time), then 1830's steps, then the price protection of shares its
    president sold (1870 rules; 18xx.games plays them in this order). With the Historical
    Order Start, the M-K-T private's tile comes first in a round (:mod:`.mkt_private`; its
    step offers nothing otherwise), the IC's first tile out of Chicago comes before its track
    step in its first turn (:class:`.illinois.ChicagoLay`), and the Katy's token orders may come
    at any time in its turn (:mod:`.katy`), whose deferred home token follows its tile on
    Junction City (:class:`.katy.KatyTrack`)."""
    from pbem.titles.g1870.connections import (
        ConnectionDividend,
        ConnectionRoute,
        ConnectionToken,
        GrantConnectionStep,
    )
    from pbem.titles.g1870.illinois import ChicagoLay
    from pbem.titles.g1870.katy import KatyMove, KatyNewHome, KatyTrack
    from pbem.titles.g1870.mkt_private import PrivateLay

    core = [KatyTrack if step is Track else step for step in CORE_STEPS]
    core.insert(core.index(KatyTrack), ChicagoLay)  # the IC's first tile (:mod:`.illinois`) before its track step
    return (PrivateLay, GrantConnectionStep, ConnectionToken, ConnectionRoute, ConnectionDividend, *core,
            PriceProtection, KatyNewHome, KatyMove)
