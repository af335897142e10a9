"""Running the trains (1830 rules 6.5)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import heading, track
from pbem.engine.actions import Action, RunAuto, RunRoutes
from pbem.engine.events import TrainRan
from pbem.engine.ids import TrainId
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


class Route(OpStep):
    """Run the trains (1830 rules 6.5); required when there is a route."""

    name = "route"
    description = "run the trains (RUN)"
    takes = (RunRoutes,)
    runs_trains = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        if not game.state.corporations[corp].trains or op_state(game).revenue is not None:
            return False
        return route_available(game, corp)

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        results = checked_runs(game, current_corp(game), action)
        op = op_state(game)
        op.revenue = sum(result.revenue for result in results)
        op.routes = [list(r.stops) for r in results]


    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """``RUN AUTO``, which stands for every run (the step offers itself only when the
        corporation has a route; a run written out is checked when given)."""
        return [RunAuto()]


def checked_runs(game: Game, corp: str, action: RunRoutes) -> list[track.RouteResult]:
    """``corp``'s runs checked and priced (1830 rules 6.5), each logged.

    :raises IllegalOrderError: a train it does not own, or a run the rules forbid.
    """
    owned = list(game.state.corporations[corp].trains)
    runs: list[track.RunSpec] = []
    for run in action.runs:
        ids: list[TrainId] = []
        named = (run.train, *run.joined)
        if not run.joined and "+" in run.train and heading.allows(game.title) and not any(
                t.kind == run.train for t in owned):
            # a title with a train type named like trains run as one (1825's 2+2 beside two
            # 2-trains run as one): without such a train, the name is the trains it joins
            named = tuple(run.train.split("+"))
        for kind in named:
            match = next((t for t in owned if t.kind == kind), None)
            if match is None:
                raise IllegalOrderError(f"{corp} has no {kind} train left to run")
            owned.remove(match)
            ids.append(match)
        runs.append((tuple(ids) if len(ids) > 1 else ids[0], list(run.stops)))
    try:
        results = track.check_runs(game, corp, runs)
    except ValueError as exc:
        raise IllegalOrderError(str(exc)) from None
    for result in results:
        stops = tuple(s.coord for s in result.stops)
        joined = tuple(t.kind for t in result.joined)
        game.event(TrainRan(corp, result.train.kind, result.revenue, stops, joined))
    game.last_run = results
    return results


def route_available(game: Game, corp: str) -> bool:
    """Whether ``corp`` has a route: its track joins a token city to another stop (two
    tokens with no track between them are no route: 1830's D&H token on F16 alone)."""
    return track.network(game, corp).route_for_train
