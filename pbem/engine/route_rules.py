"""Route rules: 1830's, which a title's :class:`RouteRules` subclass adjusts where it differs
(its ``HOOKS.routes``; issue 20: the title interface split by concern). Asked by the run
check and the route optimiser (:mod:`pbem.engine.routes`) alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.ids import TrainId
    from pbem.engine.values import Vertex


class RouteRules:
    """What a route may visit, what a train may run and what a run earns (1830 rules 6.5)."""

    def extra_revenue(self, game: Game, corp: str, stops: list[Vertex]) -> int:
        """Revenue a run earns beyond its stops' values (1830: none)."""
        return 0

    def route_problem(self, game: Game, corp: str, stops: list[Vertex]) -> str | None:
        """A title's own reason a route may not visit ``stops`` (stop vertices in order), or
        None (1830: none; 1825 forbids two cities of one hex on a route). Checked for every
        run written and every route the optimiser considers."""
        return None

    def run_problem(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex]) -> str | None:
        """Why the trains ``train_ids`` (one train, or several run as one) may not run the
        route ``stops`` (stop vertices in order) because of what they are, or None. Checked
        for every run written and, for each train, every route the optimiser considers; the
        rules every route keeps (:func:`pbem.engine.track.path_problem`) are checked apart.
        1830 (rules 6.5): no more stops than the train's length
        (:func:`pbem.engine.heading.run_length`); a title whose trains count stops otherwise
        (1825's U3 counts only cities, its 3T/4T may end at towns) says so here."""
        from pbem.engine import heading

        distance = heading.run_length(game.title, train_ids)
        if len(stops) <= distance:
            return None
        name = "+".join(t.kind for t in train_ids)
        if len(train_ids) > 1:
            return f"the {name} trains run as one may visit {distance} stops, not {len(stops)}"
        return f"the {name} train may visit {distance} stops, not {len(stops)}"

    def run_revenue(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex],
                    revenue: int) -> int:
        """What the trains ``train_ids`` earn on the route ``stops`` whose stops and
        :meth:`extra_revenue` come to ``revenue`` (money). 1830: ``revenue``; a title whose
        trains pay otherwise (1825's 2+2 and 4+4E pay double, the 4+4E only its best four
        cities) says so here. Used by the run check and the optimiser alike."""
        return revenue

    def most_stops(self, game: Game, corp: str, train_ids: tuple[TrainId, ...]) -> int:
        """The most stops a route of ``train_ids`` may have, which bounds the optimiser's
        listing of routes; :meth:`run_problem` still decides each route. 1830: the length
        (:func:`pbem.engine.heading.run_length`)."""
        from pbem.engine import heading

        return heading.run_length(game.title, train_ids)
