"""1825's runs: what each train may visit and what it earns.

* **Kinds of train** (``rules/1825/parts/trains.yaml`` ``specs``, read as it stands by
  :func:`train_kind`): a U3 counts only cities towards its length (any number of towns
  besides, which pay); a 4+4E visits any number of stops and is paid for its best four
  cities, towns paying nothing; the 2+2 and the 4+4E pay double.
* **Ends**: a run starts and ends at cities (or off-board areas), not towns, except for the
  3T, 4T, U3 and 2+2 trains and two 2-trains run as one.
* **One hex, one stop** (fault 7 of the references, London's six cities): no train visits two
  stops of one hex, except that a 3T or 4T may count two towns of one tile.
* **HALT** towns (``map_upgrades.yaml`` ``halt_tiles``: tile 11) cost no length and pay only
  the 3T and 4T; a company's token on tile 200 in the middle of a run lets the train visit
  one stop more from the third phase on, paid for its usual number of stops (the best).
* **Double-heading** (``game.yaml`` ``double_heading``, the core's mechanism,
  :mod:`pbem.engine.heading`): two 2-trains run as one 3-train A-B-C: neither of its halves
  A-B, B-C is two towns, and when B is a city exactly one half has a token of the company
  (so B itself has none); the stop they share is paid once.

Source: 18xx.games ``g_1825/game.rb`` (``check_distance``, ``double_header_pair?``,
``find_double_headers``, ``num_tile200``, ``stop_revenue``, ``revenue_for``,
``ALL_TRAINS``); issue 12; ``../shared/reference/REFERENCES.md`` item 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.engine import track, trains
from pbem.engine.ids import TrainId
from pbem.engine.values import Vertex
from pbem.titles.g1825.track import facts_of, title_parts

if TYPE_CHECKING:
    from pbem.engine.game import Game

TOWN_END_TRAINS = frozenset({"3T", "4T", "U3", "2+2"})
"""Train types whose runs may start or end at a town (18xx.games ``check_distance``)."""

TOWN_PAIR_TRAINS = frozenset({"3T", "4T"})
"""Train types that may count two towns of one tile (fault 7's exception)."""

PASS_THROUGH_TILE = "200"
"""The tile whose city, holding the company's token, costs no length in the middle of a run
from the third phase on (18xx.games ``num_tile200``)."""


@dataclass(frozen=True)
class TrainKind:
    """How one train type counts and earns beyond its ``distance`` (``trains.yaml``
    ``specs``): ``cities_only`` (towns free: U3), ``express`` (any stops; the best
    ``distance`` cities pay: 4+4E), ``towns_pay`` (False: towns earn nothing),
    ``multiplier`` (the run's revenue times this)."""

    name: str
    cities_only: bool = False
    express: bool = False
    towns_pay: bool = True
    multiplier: int = 1


def train_kind(game: Game, kind: str) -> TrainKind:
    """The :class:`TrainKind` of train type ``kind`` in ``game``'s title (a plain train
    where the parts say nothing of it)."""
    specs = (title_parts(game.title.title).get("trains") or {}).get("specs") or []
    for spec in specs:
        if str(spec.get("name")) == kind:
            return TrainKind(kind, bool(spec.get("cities_only", False)), bool(spec.get("express", False)),
                             bool(spec.get("towns_pay", True)), int(spec.get("multiplier", 1)))
    return TrainKind(kind)


def _is_town(stop: Vertex) -> bool:
    return stop.stop.startswith("t")


def _halt_cost(game: Game, stop: Vertex) -> int | None:
    """The length a HALT town costs (its ``visit_cost``), or None for any other stop."""
    if not _is_town(stop):
        return None
    halt = facts_of(game).halts.get(track.placed(game, stop.coord).tile.name)
    return None if halt is None else halt.visit_cost


def _late_phase(game: Game) -> bool:
    digits = "".join(ch for ch in game.state.phase if ch.isdigit())
    return bool(digits) and int(digits) > 2


def _free_passes(game: Game, corp: str, stops: list[Vertex]) -> int:
    """The middle stops on tile 200 holding ``corp``'s token, from the third phase on."""
    if not _late_phase(game):
        return 0
    return sum(1 for stop in stops[1:-1]
               if track.placed(game, stop.coord).tile.name == PASS_THROUGH_TILE and track.stop_is_token(game, corp, stop))


def one_hex_problem(kind: str, stops: list[Vertex]) -> str | None:
    """Why a ``kind`` train may not visit ``stops`` by the rule of one stop a hex (fault 7):
    two stops of one hex, unless the train is a 3T or 4T and they are all towns."""
    by_hex: dict[str, list[Vertex]] = {}
    for stop in stops:
        by_hex.setdefault(stop.coord, []).append(stop)
    for coord, here in by_hex.items():
        if len(here) > 1 and not (kind in TOWN_PAIR_TRAINS and all(_is_town(s) for s in here)):
            return f"a {kind} train may not visit two stops of one hex ({coord})"
    return None


def run_problem(game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex]) -> str | None:
    """Why ``train_ids`` (one train, or two 2-trains run as one) may not run ``stops`` by
    1825's rules (see the module text), or None. The core checks the rest of the route
    (:func:`pbem.engine.track.path_problem`)."""
    if len(train_ids) > 1:
        return heading_problem(game, corp, train_ids, stops)
    kind_name = train_ids[0].kind
    kind = train_kind(game, kind_name)
    problem = one_hex_problem(kind_name, stops)
    if problem:
        return problem
    distance = trains.train_data(game.title, train_ids[0]).distance
    if kind.cities_only:
        counted = sum(1 for s in stops if not _is_town(s)) - _free_passes(game, corp, stops)
        if counted > distance:
            return f"the {kind_name} train may visit {distance} cities, not {counted}"
    elif not kind.express:
        counted = 0
        for stop in stops:
            cost = _halt_cost(game, stop)
            counted += 1 if cost is None else cost
        counted -= _free_passes(game, corp, stops)
        if counted > distance:
            return f"the {kind_name} train may visit {distance} stops, not {counted}"
    if kind_name not in TOWN_END_TRAINS and (_is_town(stops[0]) or _is_town(stops[-1])):
        return f"a {kind_name} train's run starts and ends at cities, not towns"
    return None


def heading_problem(game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex]) -> str | None:
    """Why ``train_ids`` may not run ``stops`` as one (1825's double-heading, see the module
    text), or None: two 2-trains, three stops A-B-C, neither half two towns, and where B is
    a city exactly one half with a token of ``corp``."""
    names = "+".join(t.kind for t in train_ids)
    if len(train_ids) != 2 or any(trains.train_data(game.title, t).distance != 2 for t in train_ids):
        return f"only two 2-trains may run as one, not {names}"
    if len(stops) != 3:
        return f"two 2-trains run as one visit three stops, not {len(stops)}"
    problem = one_hex_problem("2", stops)
    if problem:
        return problem
    first, middle, last = stops
    if (_is_town(first) and _is_town(middle)) or (_is_town(middle) and _is_town(last)):
        return "neither of the two 2-trains run as one may run from town to town"
    if _is_town(middle):
        return None
    first_half = track.stop_is_token(game, corp, first) or track.stop_is_token(game, corp, middle)
    second_half = track.stop_is_token(game, corp, middle) or track.stop_is_token(game, corp, last)
    if first_half and second_half:
        held = (f"{middle.coord}, the city they share, holds one" if track.stop_is_token(game, corp, middle)
                else f"both {first.coord} and {last.coord} hold one")
        return (f"two 2-trains run as one need a token of {corp} on one half only; here both halves "
                f"have one ({held})")
    return None


def run_revenue(game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex], revenue: int) -> int:
    """What ``train_ids`` earn on ``stops`` whose values and extras come to ``revenue``: a
    HALT pays only the 3T and 4T, towns pay nothing to a train whose towns do not pay, an
    express train is paid for its best ``distance`` cities, a train passing tile 200 for its
    usual number of stops, and the train's multiplier applies (see the module text)."""
    if len(train_ids) > 1:
        return revenue
    kind_name = train_ids[0].kind
    kind = train_kind(game, kind_name)
    facts = facts_of(game)
    values = [track.stop_revenue(game, stop) for stop in stops]
    paid = list(values)
    for i, stop in enumerate(stops):
        if not _is_town(stop):
            continue
        halt = facts.halts.get(track.placed(game, stop.coord).tile.name)
        if not kind.towns_pay or (halt is not None and kind_name not in halt.pays_trains):
            paid[i] = 0
    distance = trains.train_data(game.title, train_ids[0]).distance
    free = 0 if kind.express else _free_passes(game, corp, stops)
    if kind.express:
        cities = sorted((paid[i] for i, s in enumerate(stops) if not _is_town(s)), reverse=True)
        towns = [paid[i] for i, s in enumerate(stops) if _is_town(s)]
        total = sum(cities[:distance]) + sum(towns)
    elif free and kind.cities_only:
        cities = sorted((paid[i] for i, s in enumerate(stops) if not _is_town(s)), reverse=True)
        total = sum(cities[:distance]) + sum(paid[i] for i, s in enumerate(stops) if _is_town(s))
    elif free:
        total = sum(sorted(paid, reverse=True)[:len(paid) - free])  # the extra visit pays nothing
    else:
        total = sum(paid)
    return (revenue - sum(values) + total) * kind.multiplier


def most_stops(game: Game, corp: str, train_ids: tuple[TrainId, ...]) -> int:
    """The most stops a route of ``train_ids`` may have (the optimiser's bound): an express
    train, every stop its network reaches; a U3, its three cities and every town reached;
    another, its length plus the HALTs and tile-200 tokens it reaches (which cost none)."""
    from pbem.engine import heading

    if len(train_ids) > 1:
        return heading.run_length(game.title, train_ids)
    kind = train_kind(game, train_ids[0].kind)
    net = track.network(game, corp)
    distance = trains.train_data(game.title, train_ids[0]).distance
    if kind.express:
        return max(distance, len(net.route_stops))
    if kind.cities_only:
        free = sum(1 for stop in net.route_stops if _is_town(stop))
    else:
        free = sum(1 for stop in net.route_stops if _halt_cost(game, stop) == 0)
    if _late_phase(game):
        free += sum(1 for stop in net.route_stops if track.placed(game, stop.coord).tile.name == PASS_THROUGH_TILE)
    return distance + free
