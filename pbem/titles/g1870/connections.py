"""1870's destinations: the connection runs a corporation owes once its home and its
destination are joined (1870 game.yaml, destinations), as steps of the operating round.

Order of a connection: the destination token's place (:class:`ConnectionToken`), the run
(:class:`ConnectionRoute`), its payout (:class:`ConnectionDividend`); a GM may rule a
connection made (:class:`GrantConnectionStep`, ``CONNECT``). The steps come before the
operating corporation's own (see :mod:`pbem.titles.g1870.operating`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from pbem.engine import track, trains
from pbem.engine.actions import Action, Dividend, RunAuto, RunRoutes
from pbem.titles.g1870.settings import settings1870
from pbem.titles.g1870.actions import DestinationToken, GrantConnection
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state, president
from pbem.engine.steps.operating.dividends import distribute, move_price
from pbem.engine.steps.operating.runs import checked_runs
from pbem.engine.values import Vertex
from pbem.errors import IllegalOrderError
from pbem.titles.g1870 import illinois
from pbem.titles.g1870.events import DestinationReached, DestinationTokenPlaced, NoConnectionRun
from pbem.titles.g1870.state import state1870

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.graph import Link
    from pbem.engine.title import TitleData


def destination(title: TitleData, corp: str) -> str | None:
    """``corp``'s destination hex (``corporations.yaml``, ``destination``), or None."""
    found = title.corporation(corp).extras.get("destination")
    return str(found) if found else None


def connection_home(game: Game, corp: str) -> tuple[str, int]:
    """``(hex, city)`` of the home station ``corp``'s connection run starts from (1870: the
    charter's home; the Historical Order Start's corporations with a home of their own say
    so here; its Illinois Central starts from its charter's home, Jackson K16, its second home
    Chicago being its destination, :mod:`.illinois`; the Katy from its Kansas City or Junction
    City token, :func:`pbem.titles.g1870.katy.connection_home`)."""
    from pbem.titles.g1870 import katy

    katy_home = katy.connection_home(game, corp)
    if katy_home is not None:
        return katy_home
    data = game.title.corporation(corp)
    return data.home, data.home_city or 0


def destination_token_at(game: Game, corp: str, coord: str) -> bool:
    """Whether ``corp``'s token on ``coord`` is its destination token: it has connected and
    placed the token on the map there (1870 game.yaml, destinations)."""
    mine = state1870(game.state)
    return (corp in mine.destinations_reached and corp not in mine.destination_on_charter
            and destination(game.title, corp) == coord)


def queue_connections(game: Game) -> bool:
    """At the end of a corporation's turn: queue the connection runs now owed
    (:func:`connections_due`; the operating corporation first). True if any are waiting."""
    op, mine = op_state(game), state1870(game.state)
    if mine.connections:
        return True
    current = current_corp(game)
    order = [current] + [c for c in op.order if c != current]
    due = connections_due(game, order)
    for corp in due:
        game.event(DestinationReached(corp, destination(game.title, corp)))
        illinois.connect(game, corp)
    mine.connections = list(due)
    return bool(due)


def connections_due(game: Game, order: list[str]) -> list[str]:
    """1870 destinations (game.yaml): the corporations of ``order`` not yet connected to
    their destination whose home station and destination are joined by a route their
    longest train could run, whoever's track joined them. The corporation just operating
    (``order[0]``) comes first, then the others in operating order."""
    state, mine = game.state, state1870(game.state)
    due = []
    for corp in order:
        if not destination(game.title, corp) or corp in mine.destinations_reached or state.corporations[corp].closed:
            continue
        home_key = track.city_key(*connection_home(game, corp))
        if (corp in state.tokens.get(home_key, []) and connection_runnable(game, corp)
                and illinois.joined(game, corp)):
            due.append(corp)
    return due


def connection_runnable(game: Game, corp: str) -> bool:
    """Whether one of ``corp``'s trains (alone, or trains run as one where the title lets
    them, :func:`connection_length`) can run from its home to its destination now, counting
    the stops as a run counts them (:func:`stop_cost`: with small cities a town passed costs
    no length; 1870 game.yaml, destinations)."""
    target = destination(game.title, corp)
    length = connection_length(game, corp)
    if not target or length < 2:
        return False
    coord, city = connection_home(game, corp)
    home = Vertex(coord, track.token_stop(game, coord, city))
    return route_joins(game, corp, home, target, length)


def connection_length(game: Game, corp: str) -> int:
    """The most stops a route of ``corp``'s trains may count (0 without a train): its longest
    train's length, or where the title lets trains run as one (``double_heading``; with small
    cities only two 2-trains, rule 3) the longest such pair's (:func:`pbem.engine.heading.run_length`)."""
    from pbem.engine import heading
    from pbem.titles.g1870 import small_cities

    held = game.state.corporations[corp].trains
    best = max((trains.train_data(game.title, t).distance for t in held), default=0)
    if heading.allows(game.title):
        for i, first in enumerate(held):
            for second in held[i + 1:]:
                pair = (first, second)
                if (heading.heading_problem(game.title, pair) is None
                        and small_cities.heading_problem([t.kind for t in pair]) is None):
                    best = max(best, heading.run_length(game.title, pair))
    return best


def stop_cost(game: Game, vertex: Vertex) -> int:
    """How much of a train's length ``vertex`` takes on a connection: 1, or 0 for a town with
    small cities on (rule 2: a town may be passed uncounted, :mod:`.small_cities`)."""
    from pbem.titles.g1870 import small_cities

    return 0 if small_cities.active(game) and small_cities.is_town(vertex) else 1


def route_joins(game: Game, corp: str, start: Vertex, goal_hex: str, length: int | None, *,
                link_ok: Callable[[Link], bool] | None = None,
                stop_ok: Callable[[Vertex], bool] | None = None) -> bool:
    """Whether a route ``corp`` could run joins stop ``start`` to a stop on ``goal_hex``
    (a city or off-board area, counting 1): its stops' :func:`stop_cost` within ``length``
    (None: any length, a join by track only), no stop twice, no piece of track twice, not
    through a stop that blocks ``corp`` (1830 rules 6.5), each link passing ``link_ok`` and
    each stop passed ``stop_ok`` where given (the IC's rules, :mod:`.illinois`)."""
    if start.coord == goal_hex:
        return True
    graph = track.track_graph(game)
    blocked: dict[Vertex, bool] = {}

    def passable(end: Vertex) -> bool:
        if end not in blocked:
            blocked[end] = not track.blocks(game, end, corp) and (stop_ok is None or stop_ok(end))
        return blocked[end]

    # a quick refusal first: a search over stops that may reuse track
    seen, todo = {start}, [start]
    while todo:
        for link in graph.links(todo.pop()):
            if link.end in seen or (link_ok is not None and not link_ok(link)):
                continue
            seen.add(link.end)
            if link.end.coord != goal_hex and passable(link.end):
                todo.append(link.end)
    if not any(stop.coord == goal_hex for stop in seen):
        return False
    on_path = {start}

    def walk(stop: Vertex, mask: int, spent: int) -> bool:
        for link in graph.links(stop):
            end = link.end
            if link.mask & mask or end in on_path or (link_ok is not None and not link_ok(link)):
                continue
            if end.coord == goal_hex:
                if length is None or spent + 1 <= length:
                    return True
                continue
            cost = spent + stop_cost(game, end)
            if (length is not None and cost + 1 > length) or not passable(end):
                continue
            on_path.add(end)
            if walk(end, mask | link.mask, cost):
                return True
            on_path.discard(end)
        return False

    return walk(start, 0, stop_cost(game, start))


def grant_connection(game: Game, corp: str) -> None:
    """A GM ruling: ``corp`` has connected to its destination, whatever the engine finds; its
    destination token choice and connection run come now, before anything else (1870).

    :raises IllegalOrderError: ``corp`` has no destination, has connected already or has no
        train.
    """
    state, mine = game.state, state1870(game.state)
    if corp not in state.corporations or not destination(game.title, corp):
        raise IllegalOrderError(f"{corp} has no destination")
    if corp in mine.destinations_reached:
        raise IllegalOrderError(f"{corp} has connected to its destination already")
    if not state.corporations[corp].trains or state.corporations[corp].closed:
        raise IllegalOrderError(f"{corp} has no train to make a connection run")
    op_state(game)  # only in an operating round
    if corp in mine.connections:
        raise IllegalOrderError(f"{corp}'s connection run is due already")
    mine.connections.append(corp)
    game.event(DestinationReached(corp, destination(game.title, corp), ruling=True))
    illinois.connect(game, corp)


def connecting_corp(game: Game) -> str:
    """The corporation making its connection run now."""
    return state1870(game.state).connections[0]


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
        mine = state1870(game.state)
        return bool(mine.connections) and mine.connections[0] not in mine.destinations_reached

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, DestinationToken)
        state, mine, corp = game.state, state1870(game.state), connecting_corp(game)
        target = destination(game.title, corp)
        assert target is not None
        key = track.city_key(target, 0)
        if action.choice == "map":
            if corp in state.tokens.get(key, []):
                raise IllegalOrderError(f"{corp} already has a token on {target}: DESTINATION CHARTER")
            state.tokens.setdefault(key, []).append(corp)
            game.event(DestinationTokenPlaced(corp, target))
        else:
            mine.destination_on_charter.append(corp)
            value = settings1870(game.title).destination_token_value
            game.event(DestinationTokenPlaced(corp, target, int(value)))
        mine.destinations_reached.append(corp)

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
        mine = state1870(game.state)
        return (bool(mine.connections) and mine.connections[0] in mine.destinations_reached
                and mine.connection_revenue is None and connection_runnable(game, mine.connections[0]))

    @classmethod
    def skip(cls, game: Game) -> None:
        mine = state1870(game.state)
        if mine.connections and mine.connections[0] in mine.destinations_reached and mine.connection_revenue is None:
            # granted by a GM ruling, but no train of its reaches: no run, nothing paid
            game.event(NoConnectionRun(mine.connections.pop(0)))

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        corp = connecting_corp(game)
        home = connection_home(game, corp)[0]
        target = destination(game.title, corp)
        ends = {home, target}
        joined = any(len(run.stops) >= 2
                     and {run.stops[0].split(".")[0], run.stops[-1].split(".")[0]} == ends
                     for run in action.runs)
        if not joined:
            raise IllegalOrderError(f"one of {corp}'s trains must run from {home} to {target}")
        results = checked_runs(game, corp, action)
        state1870(game.state).connection_revenue = sum(result.revenue for result in results)

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """``RUN AUTO`` stands for every connection run (the step offers itself only when one
        of the corporation's trains can make it)."""
        return [RunAuto()]

    @classmethod
    def run_ends(cls, game: Game) -> tuple[str, str] | None:
        corp = connecting_corp(game)
        target = destination(game.title, corp)
        assert target is not None
        return connection_home(game, corp)[0], target


class ConnectionDividend(_ConnectionStep):
    """The connection run's revenue is paid out or withheld (no half); paying anything moves
    the price one cell right, withholding does not move it (1870 game.yaml)."""

    name = "connection_dividend"
    description = "PAYOUT or WITHHOLD the connection run"
    takes = (Dividend,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        mine = state1870(game.state)
        return bool(mine.connections) and mine.connection_revenue is not None

    @classmethod
    def revenue(cls, game: Game) -> int | None:
        """The connection run's revenue."""
        return state1870(game.state).connection_revenue

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Dividend)
        choices = settings1870(game.title).connection_run_choices
        if action.choice not in choices:
            raise IllegalOrderError(f"a connection run is paid out or withheld, not {action.choice}")
        mine, corp = state1870(game.state), connecting_corp(game)
        revenue = mine.connection_revenue or 0
        kept = distribute(game, corp, revenue, action.choice)
        if revenue - kept > 0:
            move_price(game, corp, game.hooks.stock.right)
        mine.connections.pop(0)
        mine.connection_revenue = None
        game.check_bank()

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        choices = settings1870(game.title).connection_run_choices
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
