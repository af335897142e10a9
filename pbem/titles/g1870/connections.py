"""1870's destinations: the connection runs a corporation owes once its home and its
destination are joined (1870 game.yaml, destinations), as steps of the operating round.

Order of a connection: the destination token's place (:class:`ConnectionToken`), the run
(:class:`ConnectionRoute`), its payout (:class:`ConnectionDividend`); a GM may rule a
connection made (:class:`GrantConnectionStep`, ``CONNECT``). The steps come before the
operating corporation's own (see :mod:`pbem.titles.g1870.operating`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pbem.engine import track, trains
from pbem.engine.actions import Action, DestinationToken, Dividend, GrantConnection, RunAuto, RunRoutes
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state, president
from pbem.engine.steps.operating.dividends import distribute, move_price
from pbem.engine.steps.operating.runs import checked_runs
from pbem.errors import IllegalOrderError
from pbem.titles.g1870.events import DestinationReached, DestinationTokenPlaced, NoConnectionRun

if TYPE_CHECKING:
    from pbem.engine.game import Game


def queue_connections(game: Game) -> bool:
    """At the end of a corporation's turn: queue the connection runs now owed (the title's
    ``connections_due`` hook; the operating corporation first). True if any are waiting."""
    op = op_state(game)
    if op.connections:
        return True
    current = current_corp(game)
    order = [current] + [c for c in op.order if c != current]
    due = game.hooks.connections_due(game, order)
    for corp in due:
        game.event(DestinationReached(corp, game.title.corporation(corp).destination))
    op.connections = list(due)
    return bool(due)


def connection_runnable(game: Game, corp: str) -> bool:
    """Whether one of ``corp``'s trains can run from its home to its destination now (the
    train must count every stop between, 1870 game.yaml)."""
    data = game.title.corporation(corp)
    held = game.state.corporations[corp].trains
    if not data.destination or not held:
        return False
    longest = max(trains.train_data(game.title, t).distance for t in held)
    home = track.stop_vertex(data.home, track.token_stop(game, data.home, data.home_city or 0))
    return track.fewest_stops(game, corp, home, data.destination, most=longest) is not None


def grant_connection(game: Game, corp: str) -> None:
    """A GM ruling: ``corp`` has connected to its destination, whatever the engine finds; its
    destination token choice and connection run come now, before anything else (1870).

    :raises IllegalOrderError: ``corp`` has no destination, has connected already or has no
        train.
    """
    state = game.state
    if corp not in state.corporations or not game.title.corporation(corp).destination:
        raise IllegalOrderError(f"{corp} has no destination")
    if corp in state.destinations_reached:
        raise IllegalOrderError(f"{corp} has connected to its destination already")
    if not state.corporations[corp].trains or state.corporations[corp].closed:
        raise IllegalOrderError(f"{corp} has no train to make a connection run")
    op = op_state(game)
    if corp in op.connections:
        raise IllegalOrderError(f"{corp}'s connection run is due already")
    op.connections.append(corp)
    game.event(DestinationReached(corp, game.title.corporation(corp).destination, ruling=True))


def connecting_corp(game: Game) -> str:
    """The corporation making its connection run now."""
    return op_state(game).connections[0]


class _ConnectionStep(OpStep):
    sticky = True

    @classmethod
    def actor(cls, game: Game) -> str:
        return president(game, connecting_corp(game))

    @classmethod
    def subject(cls, game: Game) -> str:
        return connecting_corp(game)


class ConnectionToken(_ConnectionStep):
    """The corporation that has connected chooses where its destination token goes (1870
    game.yaml: on the map, free, and the destination then counts twice; or on the charter as
    a spare token, with no bonus). Only the charter when it already has a token there."""

    name = "connection_token"
    description = "place the destination token (DESTINATION MAP) or keep it (DESTINATION CHARTER)"
    takes = (DestinationToken,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = op_state(game)
        return bool(op.connections) and op.connections[0] not in game.state.destinations_reached

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, DestinationToken)
        state, corp = game.state, connecting_corp(game)
        destination = game.title.corporation(corp).destination
        assert destination is not None
        key = track.city_key(destination, 0)
        if action.choice == "map":
            if corp in state.tokens.get(key, []):
                raise IllegalOrderError(f"{corp} already has a token on {destination}: DESTINATION CHARTER")
            state.tokens.setdefault(key, []).append(corp)
            game.event(DestinationTokenPlaced(corp, destination))
        else:
            state.destination_on_charter.append(corp)
            value = game.title.const("destination_token_value", 100)
            game.event(DestinationTokenPlaced(corp, destination, int(value)))
        state.destinations_reached.append(corp)

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return [DestinationToken("map"), DestinationToken("charter")]

    @classmethod
    def at_turn_end(cls, game: Game) -> bool:
        """The connection runs owed now are queued (:func:`queue_connections`)."""
        return queue_connections(game)


class ConnectionRoute(_ConnectionStep):
    """The connection run: the corporation runs its trains at once, at least one of them
    from its home to its destination (1870 game.yaml)."""

    name = "connection_route"
    description = "make the connection run (RUN), one train from home to the destination"
    takes = (RunRoutes,)
    runs_trains = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = op_state(game)
        return (bool(op.connections) and op.connections[0] in game.state.destinations_reached
                and op.connection_revenue is None and connection_runnable(game, op.connections[0]))

    @classmethod
    def skip(cls, game: Game) -> None:
        op = op_state(game)
        if op.connections and op.connections[0] in game.state.destinations_reached and op.connection_revenue is None:
            # granted by a GM ruling, but no train of its reaches: no run, nothing paid
            game.event(NoConnectionRun(op.connections.pop(0)))

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        corp = connecting_corp(game)
        data = game.title.corporation(corp)
        ends = {data.home, data.destination}
        joined = any(len(run.stops) >= 2
                     and {run.stops[0].split(".")[0], run.stops[-1].split(".")[0]} == ends
                     for run in action.runs)
        if not joined:
            raise IllegalOrderError(f"one of {corp}'s trains must run from {data.home} to {data.destination}")
        results = checked_runs(game, corp, action)
        op_state(game).connection_revenue = sum(result.revenue for result in results)

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """``RUN AUTO`` stands for every connection run (the step offers itself only when one
        of the corporation's trains can make it)."""
        return [RunAuto()]

    @classmethod
    def run_ends(cls, game: Game) -> tuple[str, str] | None:
        data = game.title.corporation(connecting_corp(game))
        assert data.destination is not None
        return data.home, data.destination


class ConnectionDividend(_ConnectionStep):
    """The connection run's revenue is paid out or withheld (no half); paying anything moves
    the price one cell right, withholding does not move it (1870 game.yaml)."""

    name = "connection_dividend"
    description = "PAYOUT or WITHHOLD the connection run"
    takes = (Dividend,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = op_state(game)
        return bool(op.connections) and op.connection_revenue is not None

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Dividend)
        choices = game.title.const("connection_run_choices", ["payout", "withhold"])
        if action.choice not in choices:
            raise IllegalOrderError(f"a connection run is paid out or withheld, not {action.choice}")
        op, corp = op_state(game), connecting_corp(game)
        revenue = op.connection_revenue or 0
        kept = distribute(game, corp, revenue, action.choice)
        if revenue - kept > 0:
            move_price(game, corp, game.hooks.right)
        op.connections.pop(0)
        op.connection_revenue = None
        game.check_bank()

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        choices = game.title.const("connection_run_choices", ["payout", "withhold"])
        return [Dividend(choice) for choice in choices]


class GrantConnectionStep(OpStep):
    """The GM's ruling that a corporation has connected (``CONNECT``, given as a seat), at
    any time of an operating round: see :func:`grant_connection`."""

    name = "grant_connection"
    description = "a GM ruling: a corporation has connected to its destination"
    takes = (GrantConnection,)
    anytime = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        return False

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, GrantConnection)
        grant_connection(game, action.corporation)
