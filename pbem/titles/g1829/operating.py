"""1829's operating rules where they are not 1830's: the 5% rule for a dividend's price rise
(the variant's "Share Price Movement", 1), the packets' port income at the start of a
company's turn (:mod:`.packets`), and the runs of its 2+2 and 5E trains.

* "A company which pays a dividend only goes up if the dividend paid per share is greater
  than 5% of the current share price. The markers of companies paying less than 5% stay
  stationary." Exactly 5% is not greater: it stays (the percent is a setting,
  ``dividend_rise_above_percent``). Withholding moves left as in 1830.
* A 2+2 runs as a 2-train and its run pays double; a 5E visits any number of stops and the
  five best of them pay (the seed: "pick the five best stops on a run of unlimited length").
  Neither is described further in any public source; these are this game's readings of
  trains 1825 also has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import shares, track
from pbem.engine.route_rules import RouteRules
from pbem.engine.steps.operating.dividend_rules import DividendRules
from pbem.engine.stock_rules import PriceMove

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.ids import TrainId
    from pbem.engine.values import Vertex

RISE_RULE = "dividend_rise_above_percent"
DOUBLED = frozenset({"2+2"})
"""Train types whose run pays double."""
EXPRESS = {"5E": 5}
"""Train types of unlimited length whose best stops pay: type -> how many stops pay."""


class Dividends1829(DividendRules):
    """1830's dividends with the 5% rule for a rise."""

    def dividend_moves(self, game: Game, corp: str, revenue: int, paid: int) -> tuple[PriceMove, ...]:
        """Left when nothing was paid; right only when a share's dividend is more than the
        setting's percent (5) of the current price; else no move."""
        if paid <= 0:
            return (PriceMove.LEFT,)
        price = shares.current_price(game.state, game.title, corp)
        per_share_times_100 = paid * shares.share_percent(game.title, corp)
        if per_share_times_100 > int(game.title.title_rule(RISE_RULE)) * price:
            return (PriceMove.RIGHT,)
        return ()


class Routes1829(RouteRules):
    """1830's runs, with the 2+2's doubled pay and the 5E's best five stops."""

    def run_problem(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex]) -> str | None:
        """A 5E visits any number of stops; other trains as 1830."""
        if len(train_ids) == 1 and train_ids[0].kind in EXPRESS:
            return None
        return super().run_problem(game, corp, train_ids, stops)

    def run_revenue(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex],
                    revenue: int) -> int:
        """A 2+2 pays double; a 5E only its best five stops."""
        if len(train_ids) == 1 and train_ids[0].kind in EXPRESS:
            values = [track.stop_revenue(game, v) for v in stops]
            best = sorted(values, reverse=True)[:EXPRESS[train_ids[0].kind]]
            return revenue - sum(values) + sum(best)
        if len(train_ids) == 1 and train_ids[0].kind in DOUBLED:
            return 2 * revenue
        return revenue

    def most_stops(self, game: Game, corp: str, train_ids: tuple[TrainId, ...]) -> int:
        """A 5E's route may visit every stop its network reaches."""
        if len(train_ids) == 1 and train_ids[0].kind in EXPRESS:
            return max(EXPRESS[train_ids[0].kind], len(track.network(game, corp).route_stops))
        return super().most_stops(game, corp, train_ids)

