"""The best run of a corporation's trains: exact branch and bound, bounded by a search budget.

A run (1830 rules 6.5, with the title's hooks) gives each train a route: at least two stops,
no more than the train's length, a station token of the corporation on it, no stop twice,
off-board areas and cities filled by other corporations only at its ends, and no piece of
track (hex side, or a path between two stops of one tile) used twice by any of the
corporation's routes. Its revenue is the sum of the stops' values plus the title's
``extra_revenue`` hook (1870: the destination counted twice at a first or last stop, the
cattle and port tokens).

The search has two stages, both under one budget of search steps:

1. **Paths.** From every stop the corporation reaches, a depth-first walk over *links* — the
   track-only ways from one stop to the next that the track graph keeps
   (:meth:`pbem.engine.graph.TrackGraph.links`), each with the set of track pieces it uses, as
   a bit mask — lists every legal route up to the longest train's length (each route once,
   whichever way round), with its revenue.
2. **Combinations.** Trains longest first; each takes one of the routes its length allows
   (best revenue first) whose track is disjoint from the routes already taken, or none. A
   branch is cut as soon as its revenue plus the best route each remaining train could take
   on its own cannot beat the best run found; two trains of one length take routes in one
   order only.

The budget is a count, not a time, so the same position always gives the same run whatever
the machine (a replay never depends on its speed; the issue's requirement): each step of
either stage (a route extended while listing; a combination opened, or a route considered
for a train, while combining) spends one. The listing may spend
``LISTING_SHARE`` of it; it visits the most valuable stops first. Before the exact search a
greedy run (each train in turn takes the best route left) gives a first answer, so a search
cut short still returns a good legal run. When the budget runs out in either stage the best
run found so far is returned with ``complete=False``; otherwise it is the exact optimum. A
title's own route rule (``route_problem`` hook) and revenue (``extra_revenue``) apply to every
route listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterator, cast

from pbem.engine.state import RoundKind
from pbem.engine import heading, track, trains
from pbem.engine.actions import Action, RunAuto, RunRoutes, TrainRun
from pbem.engine.ids import TrainId
from pbem.errors import IllegalOrderError
from pbem.engine.route_rules import RouteRules
from pbem.engine.values import Vertex

if TYPE_CHECKING:
    from pbem.engine.game import Game

DEFAULT_SEARCH_BUDGET = 500_000
"""Search steps the route optimiser may take (the config's ``routes.search_budget``): a
route extended while listing, or a combination opened or a route considered for a train
while combining. A few seconds of search on a small machine; the largest search of the
recorded games (``benchmarks/routes.py``) finishes in some 170,000 steps."""

LISTING_SHARE = 0.7
"""Of the budget, the share the listing of routes may spend (the rest is for combining)."""


@dataclass(frozen=True)
class Route:
    """One legal route: its stop vertices in order, its revenue, the track it uses (a bit
    mask over the track pieces of the links) and its number of stops."""

    stops: tuple[Vertex, ...]
    revenue: int
    mask: int


@dataclass
class BestRun:
    """The outcome of a search: for each train id, the route it runs (trains that do not run
    are left out), the total revenue, whether the search finished (``complete``: the revenue
    is the optimum), and its size (``routes`` listed, ``combinations`` tried, ``steps`` of
    the budget spent)."""

    runs: list[tuple[TrainId, Route]] = field(default_factory=list)
    revenue: int = 0
    complete: bool = True
    routes: int = 0
    combinations: int = 0
    steps: int = 0
    joined: dict[TrainId, tuple[TrainId, ...]] = field(default_factory=dict)
    """Train id of a run -> the ids of the trains run with it as one (double-heading)."""

    def action(self, game: Game) -> RunRoutes:
        """The run as the order ``RUN`` reads it (a hex's first stop as the hex alone)."""
        return RunRoutes(tuple(TrainRun(train_id.kind, tuple(stop_spec(game, v).removesuffix(".0")
                                                             for v in route.stops),
                                        tuple(t.kind for t in self.joined.get(train_id, ())))
                               for train_id, route in self.runs))

    def name(self, train_id: TrainId) -> str:
        """How a run's trains are written: ``"3"``, or ``"2+2"`` for trains run as one."""
        return "+".join(t.kind for t in (train_id, *self.joined.get(train_id, ())))

    def describe(self, game: Game) -> str:
        """``"4: C18-D17-E12; 3: A22-B19 ($280)"`` — for reports."""
        if not self.runs:
            return "no run"
        text = "; ".join(f"{self.name(t)}: {'-'.join(stop_spec(game, v) for v in r.stops)}"
                         for t, r in self.runs)
        return f"{text} ({game.money(self.revenue)})"


class _Budget:
    """A count of search steps that may be spent; ``passed`` once it is used up."""

    def __init__(self, steps: int) -> None:
        self.left = steps
        self.spent = 0
        self.passed = False

    def over(self) -> bool:
        """Spend one step; whether the budget is used up."""
        self.spent += 1
        if self.spent > self.left:
            self.passed = True
        return self.passed


def stop_spec(game: Game, vertex: Vertex) -> str:
    """How an order writes stop ``vertex``: the hex alone where it has one stop, else
    ``hex.index`` (the index in the tile's stops: cities, towns, off-board)."""
    coord, stop = vertex
    ids = track.placed(game, coord).tile.stop_ids()
    return coord if len(ids) == 1 else f"{coord}.{ids.index(stop)}"


def legal_routes(game: Game, corp: str, longest: int, budget: _Budget | None = None) -> list[Route]:
    """Every legal route of ``corp`` with at most ``longest`` stops, each once (see the
    module text), best revenue first; fewer if ``budget`` runs out."""
    graph = track.track_graph(game)
    net = track.network(game, corp)
    # the most valuable stops first, and the links to them: a search cut short by its
    # budget has then listed the routes most likely to be in the best run
    values = {stop: track.stop_revenue(game, stop) for stop in net.route_stops}
    names = sorted(net.route_stops, key=lambda stop: (-values[stop], stop))
    index = {stop: i for i, stop in enumerate(names)}
    links = [sorted(((index[link.end], link.mask) for link in graph.links(stop) if link.end in index),
                    key=lambda link: link[0])
             for stop in names]
    # where the map has sea links: the ways of each stop that are sea links, and the stops
    # a route may pass through between their track and a sea link (graph.TrackGraph.through)
    sea = [{(index[link.end], link.mask) for link in graph.links(stop) if link.sea and link.end in index}
           for stop in names] if graph.sea_stops else []
    blocked = [track.blocks(game, stop, corp) for stop in names]
    through = [bool(sea[i]) and blocked[i] for i in range(len(sea))]
    tokened = [track.stop_is_token(game, corp, stop) for stop in names]
    revenue_of = [values[stop] for stop in names]
    groups = [_group(game, stop) for stop in names]
    any_group = any(groups)
    hooks = game.hooks
    extra = type(hooks.routes).extra_revenue is not RouteRules.extra_revenue
    own_rule = type(hooks.routes).route_problem is not RouteRules.route_problem
    found: list[Route] = []
    path: list[int] = []
    on_path = [False] * len(names)

    def record(mask: int, revenue: int) -> None:
        if any_group:
            seen = [groups[i] for i in path if groups[i]]
            if len(seen) != len(set(seen)):
                return
        stops = tuple(names[i] for i in path)
        if own_rule and hooks.routes.route_problem(game, corp, list(stops)) is not None:
            return
        if extra:
            revenue += hooks.routes.extra_revenue(game, corp, list(stops))
        found.append(Route(stops, revenue, mask))

    def walk(mask: int, revenue: int, has_token: bool) -> None:
        if budget is not None and budget.over():
            return
        last = path[-1]
        if len(path) >= 2 and has_token and path[0] < last:
            record(mask, revenue)  # each route once: from its lower-numbered end
        if len(path) >= longest or (len(path) > 1 and blocked[last]):
            return
        for nxt, link_mask in links[last]:
            if on_path[nxt] or link_mask & mask:
                continue
            path.append(nxt)
            on_path[nxt] = True
            walk(mask | link_mask, revenue + revenue_of[nxt], has_token or tokened[nxt])
            on_path[nxt] = False
            path.pop()

    def walk_by_sea(mask: int, revenue: int, has_token: bool, by_sea: bool = False) -> None:
        # walk, for a map with sea links: a route passes through an off-board area only
        # between its track and a sea link (kept apart so that walk stays as fast as it was)
        if budget is not None and budget.over():
            return
        last = path[-1]
        if len(path) >= 2 and has_token and path[0] < last:
            record(mask, revenue)
        if len(path) >= longest:
            return
        passing = len(path) > 1 and blocked[last]
        if passing and not through[last]:
            return
        sea_here = sea[last]
        for nxt, link_mask in links[last]:
            if on_path[nxt] or link_mask & mask:
                continue
            link_by_sea = (nxt, link_mask) in sea_here
            if passing and link_by_sea == by_sea:
                continue
            path.append(nxt)
            on_path[nxt] = True
            walk_by_sea(mask | link_mask, revenue + revenue_of[nxt], has_token or tokened[nxt], link_by_sea)
            on_path[nxt] = False
            path.pop()

    first = walk_by_sea if graph.sea_stops else walk
    for start in range(len(names)):
        path.append(start)
        on_path[start] = True
        first(0, revenue_of[start], tokened[start])
        on_path[start] = False
        path.pop()
    return sorted(found, key=lambda r: (-r.revenue, len(r.stops), r.stops))


def _group(game: Game, vertex: Vertex) -> str | None:
    coord, stop = vertex
    tile = track.placed(game, coord).tile
    return tile.offboard.group if stop == "o" and tile.offboard is not None and tile.offboard.group else None


def best_run(game: Game, corp: str, budget: int = DEFAULT_SEARCH_BUDGET,
             train_ids: list[TrainId] | None = None, must_join: tuple[str, str] | None = None) -> BestRun:
    """The run of ``corp``'s trains (or of ``train_ids``) with the most revenue, found within
    ``budget`` search steps (see the module text; ``complete`` says whether it is exact).
    ``must_join``: two hexes one of the routes must run between, end to end (1870's
    connection run: home and destination); no run at all if none can. Where the title lets
    trains run as one (:mod:`pbem.engine.heading`), every way of grouping the trains is
    searched under the same budget, and a group's route is listed under its first train
    (:attr:`BestRun.joined` names the others)."""
    listing = _Budget(int(budget * LISTING_SHARE))
    owned = list(train_ids if train_ids is not None else game.state.corporations[corp].trains)
    outcome = BestRun()
    if not owned:
        return outcome
    longest = max(game.hooks.routes.most_stops(game, corp, unit) for unit in _units(game, owned))
    routes = legal_routes(game, corp, longest, listing)
    deadline = _Budget(budget - min(listing.spent, listing.left))
    outcome.routes = len(routes)
    best_value, best_pick = -1, []
    for units in _groupings(game, owned):
        if deadline.over():  # each grouping costs a step at least, however few routes it has
            break
        value, pick = _combine(game, corp, units, routes, deadline, must_join, outcome)
        if value > best_value:
            best_value, best_pick = value, pick
        if deadline.passed:
            break
    outcome.runs = [(unit[0], r) for unit, r in best_pick if r is not None]
    outcome.joined = {unit[0]: unit[1:] for unit, r in best_pick if r is not None and len(unit) > 1}
    outcome.revenue = max(best_value, 0)
    outcome.complete = not deadline.passed and not listing.passed
    outcome.steps = min(listing.spent, listing.left) + min(deadline.spent, deadline.left)
    return outcome


Unit = tuple[TrainId, ...]
"""Trains that run one route: one train, or several run as one (double-heading)."""


def _groupings(game: Game, owned: list[TrainId]) -> Iterator[list[Unit]]:
    """The ways ``owned`` may run, lazily: each train alone first; where the title lets
    trains run as one, then every other grouping into units of at most its ``most`` trains,
    one for each multiset of unit types (:func:`_type_groupings`), its trains taken in order."""
    yield [(t,) for t in owned]
    rule = heading.heading_rule(game.title)
    if rule is None or len(owned) < 2:
        return
    kinds, pools = _kinds(game, owned)
    for grouping in _type_groupings([len(pools[k]) for k in kinds], rule.most):
        if all(len(unit) == 1 for unit in grouping):
            continue  # yielded first
        taken = {k: iter(pools[k]) for k in kinds}
        yield [tuple(next(taken[kinds[i]]) for i in unit) for unit in grouping]


def _units(game: Game, owned: list[TrainId]) -> list[Unit]:
    """One unit of each kind ``owned`` may form (each train alone, and where the title lets
    trains run as one each combination of train types up to its ``most``)."""
    out: list[Unit] = [(t,) for t in owned]
    rule = heading.heading_rule(game.title)
    if rule is None or len(owned) < 2:
        return out
    kinds, pools = _kinds(game, owned)
    counts = [len(pools[k]) for k in kinds]
    for head in range(len(kinds)):
        counts[head] -= 1
        for size in range(1, rule.most):
            for mates in _mates(head, size, counts):
                taken = {k: iter(pools[k]) for k in kinds}
                out.append(tuple(next(taken[kinds[i]]) for i in (head, *mates)))
        counts[head] += 1
    return out


def _kinds(game: Game, owned: list[TrainId]) -> tuple[list[str], dict[str, list[TrainId]]]:
    """The train types of ``owned``, longest first, and each type's trains in order."""
    ordered = sorted(owned, key=lambda t: (-trains.train_data(game.title, t).distance, t))
    kinds = list(dict.fromkeys(t.kind for t in ordered))
    return kinds, {k: [t for t in ordered if t.kind == k] for k in kinds}


def _mates(start: int, size: int, counts: list[int]) -> Iterator[tuple[int, ...]]:
    """Every non-decreasing tuple of ``size`` type indices from ``start`` on that ``counts``
    (trains left of each type) allows. While a tuple is being used (between its yield and
    the next) its trains are taken out of ``counts``."""
    if size == 0:
        yield ()
        return
    for kind in range(start, len(counts)):
        if counts[kind] == 0:
            continue
        counts[kind] -= 1
        for rest in _mates(kind, size - 1, counts):
            yield (kind, *rest)
        counts[kind] += 1


def _type_groupings(counts: list[int], most: int) -> Iterator[list[tuple[int, ...]]]:
    """Every grouping, by type indices, of trains counted by type (``counts``, longest type
    first) into units of at most ``most``: each exactly once, its units headed by the
    longest train left and units of one head in non-decreasing order."""
    units: list[tuple[int, ...]] = []

    def split() -> Iterator[list[tuple[int, ...]]]:
        head = next((i for i, left in enumerate(counts) if left), None)
        if head is None:
            yield list(units)
            return
        counts[head] -= 1
        previous = units[-1] if units and units[-1][0] == head else None
        for size in range(min(most, 1 + sum(counts))):
            for mates in _mates(head, size, counts):  # their trains taken out meanwhile
                unit = (head, *mates)
                if previous is not None and unit < previous:
                    continue
                units.append(unit)
                yield from split()
                units.pop()
        counts[head] += 1

    yield from split()


def _unit_choices(game: Game, corp: str, unit: Unit, routes: list[Route]) -> list[Route]:
    """The listed ``routes`` that ``unit`` may run, each at what it earns for that unit, best
    first (the title's ``run_problem`` and ``run_revenue`` hooks)."""
    hooks = game.hooks
    out = []
    for route in routes:
        stops = list(route.stops)
        if hooks.routes.run_problem(game, corp, unit, stops) is not None:
            continue
        revenue = hooks.routes.run_revenue(game, corp, unit, stops, route.revenue)
        out.append(route if revenue == route.revenue else Route(route.stops, revenue, route.mask))
    return sorted(out, key=lambda r: (-r.revenue, len(r.stops), r.stops))


def _combine(game: Game, corp: str, units: list[Unit], routes: list[Route], deadline: _Budget,
             must_join: tuple[str, str] | None, outcome: BestRun) -> tuple[int, list[tuple[Unit, Route | None]]]:
    """The best revenue of ``units`` over the listed ``routes`` and each unit's route (None:
    it does not run), or -1 when none is found (see the module text: greedy first, then branch
    and bound, spending ``deadline``). Where the title has its own ``run_problem`` or
    ``run_revenue``, each unit's routes are its own, and only units of the same train types
    take routes in one order only."""
    rules = type(game.hooks.routes)
    own = rules.run_problem is not RouteRules.run_problem or rules.run_revenue is not RouteRules.run_revenue
    reach = {u: heading.run_length(game.title, u) for u in units}
    kind: dict[Unit, object] = ({u: tuple(sorted(t.kind for t in u)) for u in units} if own
                                else dict(reach))
    order = sorted(units, key=lambda u: (-reach[u], str(kind[u]), u))
    if own:
        choices = [_unit_choices(game, corp, u, routes) for u in order]
    else:
        choices = [[r for r in routes if len(r.stops) <= reach[u]] for u in order]
    tops = [c[0].revenue if c else 0 for c in choices]
    rest = [sum(tops[i:]) for i in range(len(order) + 1)]
    best_value = -1
    best_pick: list[Route | None] = []
    picked: list[Route | None] = []
    ends = set(must_join) if must_join else None

    def joins(route: Route) -> bool:
        return ends is not None and {route.stops[0].coord, route.stops[-1].coord} == ends

    def search(i: int, mask: int, value: int, floor: int) -> None:
        nonlocal best_value, best_pick
        if deadline.over():
            return
        outcome.combinations += 1
        if i == len(order):
            if value > best_value and (ends is None or any(r is not None and joins(r) for r in picked)):
                best_value, best_pick = value, list(picked)
            return
        if value + rest[i] <= best_value:
            return
        # units of one kind (length; or train types) take routes in one order only (index floor)
        start = floor if i > 0 and kind[order[i]] == kind[order[i - 1]] else 0
        for index in range(start, len(choices[i])):
            if deadline.over():  # each route considered is a step
                return
            route = choices[i][index]
            if value + route.revenue + rest[i + 1] <= best_value:
                break
            if route.mask & mask:
                continue
            picked.append(route)
            search(i + 1, mask | route.mask, value + route.revenue, index + 1)
            picked.pop()
            if deadline.passed:
                return
        picked.append(None)
        search(i + 1, mask, value, len(choices[i + 1]) if i + 1 < len(order) else 0)
        picked.pop()

    # a first run at once, whatever the clock: each unit in turn takes the best route
    # left that shares no track with those taken
    greedy: list[Route | None] = [None] * len(order)
    used = 0
    if ends is not None:  # the first unit that can join the two hexes does so
        for i, options in enumerate(choices):
            joining = next((r for r in options if joins(r)), None)
            if joining is not None:
                greedy[i], used = joining, joining.mask
                break
    for i, options in enumerate(choices):
        taken = greedy[i] or next((r for r in options if not r.mask & used), None)
        if taken is not None:
            greedy[i], used = taken, used | taken.mask
    if ends is None or any(r is not None and joins(r) for r in greedy):
        best_value, best_pick = sum(r.revenue for r in greedy if r is not None), greedy
    search(0, 0, 0, 0)
    return best_value, list(zip(order, best_pick))


def run_due(game: Game) -> tuple[str, tuple[str, str] | None]:
    """The corporation whose run is due now, and the two hexes a route of it must join (a
    1870 connection run: home and destination) or None.

    :raises IllegalOrderError: no run is due now.
    """
    from pbem.engine.steps import operating

    active = operating.active_steps(game) if game.state.round.kind == RoundKind.OPERATING else []
    runner = next((step for step in active if step.runs_trains), None)
    if runner is not None:
        return runner.subject(game), runner.run_ends(game)
    raise IllegalOrderError("RUN AUTO: no corporation is running its trains now")


def run_left_out(game: Game, action: Action) -> bool:
    """Whether ``action`` passes over a run that is due now (an order of a later step while
    the corporation's trains have not run), which a game that leaves runs to the server
    makes first."""
    if game.state.round.kind != RoundKind.OPERATING or isinstance(action, (RunRoutes, RunAuto)):
        return False
    from pbem.engine.steps import operating

    active = operating.active_steps(game)
    return bool(active) and active[0].runs_trains


def run_actor(game: Game) -> str:
    """The seat that gives the run due now (the president of the corporation running)."""
    from pbem.engine.steps import operating

    return operating.active_steps(game)[0].actor(game)


def resolve_auto(game: Game, action: Action, budget: int = DEFAULT_SEARCH_BUDGET) -> tuple[Action, list[str]]:
    """``action`` itself, or for :class:`RunAuto` the run it stands for: the best run of the
    corporation whose run is due (its turn's run, or a run that must join two hexes, as
    1870's connection run joins home and destination), and the lines that tell what was
    found and whether it is proven best.

    :raises IllegalOrderError: no run is due now, or no train can run.
    """
    if not isinstance(action, RunAuto):
        return action, []
    corp, must_join = run_due(game)
    found = best_run(game, corp, budget, must_join=must_join)
    if not found.runs:
        raise IllegalOrderError(f"RUN AUTO: {corp} has no run to make")
    if found.complete:
        note = f"RUN AUTO: the best run of {corp}, {found.describe(game)}"
    else:
        note = (f"RUN AUTO: the best run of {corp} found in {budget:,} search steps (the search stopped "
                f"there; a better one may exist), {found.describe(game)}")
    return found.action(game), [note]


def cached_best_run(game: Game, corp: str, budget: int = DEFAULT_SEARCH_BUDGET,
                    must_join: tuple[str, str] | None = None) -> BestRun:
    """:func:`best_run`, kept on the game while what it depends on stays the same (so the
    reports of one turn search once)."""
    state = game.state
    key = (corp, budget, must_join, state.phase, tuple(state.corporations[corp].trains),
           tuple(sorted(state.tiles.items())), tuple(sorted((k, tuple(v)) for k, v in state.tokens.items())),
           game.hooks.track.graph_key(game),
           tuple(sorted(state.assignments.items())))
    cached = game.cache.get(("best_run", corp))
    if cached is not None and cached[0] == key:
        return cast(BestRun, cached[1])
    found = best_run(game, corp, budget, must_join=must_join)
    game.cache[("best_run", corp)] = (key, found)
    return found
