"""Lou Jerkich's "Variant Rules for Small Cities" for 1870 (the variant ``small_cities``).

Only rules 1-3 of his page are public; these are our readings of them (README):

1. Every small city (1870's towns: the printed town hexes and the town tiles) is worth $10
   more: $20 on a yellow or green tile, $30 on a brown one (:data:`BONUS`).
2. Small cities are optional stops: a route may count as many or as few of them as the
   corporation likes, each counted one using one unit of the train's length; one passed
   through uncounted costs nothing. A route must still include a city with one of the
   corporation's station tokens (the core's token rule, unchanged). A RUN order lists every
   stop the route passes, towns included; the engine counts the most valuable towns that fit
   in the length left after the cities and off-board areas (every town is worth something,
   so that is always the corporation's best choice) and skips the rest.
3. A pair of 2-trains may run as one 3-train (double-heading, ``game.yaml``
   ``double_heading`` in the variant); no other trains may run as one.

The switch is the title rule ``small_cities`` (``rules/1870/variants/small_cities.yaml``).

The map and the track list show a town's printed value (``t10``); the report's SMALL CITIES
section (:func:`report_lines`) says what each town on a tile counts in a run (mail review #5:
the core draws printed values, so the section gives the difference rather than the map).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.values import Vertex

if TYPE_CHECKING:
    from pbem.engine.game import Game

RULE = "small_cities"
"""The title rule (``game.yaml`` ``title_rules``) that switches the variant on."""

BONUS = 10
"""Money a counted small city earns beyond its printed value (rule 1)."""

HEADING_TYPE = "2"
"""The only train type that may run as one with another of its type (rule 3)."""


def active(game: Game) -> bool:
    """Whether the game plays the small-cities variant."""
    return bool(game.title.title_rule(RULE))


def is_town(vertex: Vertex) -> bool:
    """Whether ``vertex`` is a small city (a town stop, ``t<i>``)."""
    return vertex.stop.startswith("t")


def counted_stops(length: int, stops: list[Vertex]) -> int:
    """The stops of route ``stops`` that use the train's ``length``: every city and
    off-board area, and as many towns as fit in what is left (rule 2)."""
    others = sum(1 for s in stops if not is_town(s))
    towns = len(stops) - others
    return others + min(towns, max(length - others, 0))


def length_problem(length: int, stops: list[Vertex], name: str) -> str | None:
    """Why a train (or trains run as one) named ``name`` of ``length`` may not run ``stops``,
    or None: its cities and off-board areas alone must fit in its length; and the route must
    count at least two stops (1830 rules 6.5, each towns counted only where it fits)."""
    others = sum(1 for s in stops if not is_town(s))
    if others > length:
        return f"the {name} may count {length} cities, not {others}"
    if counted_stops(length, stops) < 2:
        return f"the {name} must count at least two stops"
    return None


def town_value(game: Game, vertex: Vertex) -> int:
    """What small city ``vertex`` is worth when counted: its printed value plus :data:`BONUS`
    (money; rule 1)."""
    from pbem.engine import track

    return track.stop_revenue(game, vertex) + BONUS


def skipped_value(game: Game, length: int, stops: list[Vertex]) -> int:
    """The printed value of the towns a route of ``length`` leaves uncounted (the least
    valuable ones, money): what its revenue loses for them."""
    from pbem.engine import track

    others = sum(1 for s in stops if not is_town(s))
    room = max(length - others, 0)
    values = sorted((track.stop_revenue(game, s) for s in stops if is_town(s)), reverse=True)
    return sum(values[room:])


def counted_bonus(game: Game, length: int, stops: list[Vertex]) -> int:
    """The bonus of the towns a route of ``length`` counts (money; rule 1)."""
    others = sum(1 for s in stops if not is_town(s))
    towns = len(stops) - others
    return BONUS * min(towns, max(length - others, 0))


def heading_problem(train_types: list[str]) -> str | None:
    """Why trains of ``train_types`` may not run as one, or None: only a pair of 2-trains
    may (rule 3)."""
    if len(train_types) <= 1:
        return None
    if train_types != [HEADING_TYPE, HEADING_TYPE]:
        return f"only two {HEADING_TYPE}-trains may run as one, not {'+'.join(train_types)}"
    return None


def most_stops(game: Game, corp: str, length: int) -> int:
    """The most stops a route of ``length`` may pass (bounding the optimiser's listing):
    the length plus every town the corporation's track reaches."""
    from pbem.engine import track

    net = track.network(game, corp)
    return length + sum(1 for s in net.route_stops if is_town(s))


SECTION = "SMALL CITIES"
"""The heading of the report's section on the towns' values (:func:`report_lines`)."""


def report_lines(game: Game) -> tuple[str, ...]:
    """The report's SMALL CITIES lines while the variant is played (none otherwise): the
    rule, and what each town on a laid tile counts in a run now, by hex
    (``"B7 $20, E20 $20 + $20"``), the printed value being what the map and the track list
    show (rule 1; mail review #5). Money is an int rendered with the title's currency."""
    if not active(game):
        return ()
    from pbem.engine import track

    lines = [f"Towns (small cities) count {game.money(BONUS)} more than the map and the track list show "
             f"(t10 counts {game.money(10 + BONUS)}, t20 {game.money(20 + BONUS)}); each is an optional stop"]
    worth = []
    for coord in sorted(game.state.tiles, key=lambda c: (c[0], int(c[1:]) if c[1:].isdigit() else 0)):
        towns = track.placed(game, coord).tile.towns
        if towns:
            values = [town_value(game, Vertex(coord, f"t{i}")) for i in range(len(towns))]
            worth.append(f"{coord} " + " + ".join(game.money(v) for v in values))
    if worth:
        lines.append("Towns on the map count: " + ", ".join(worth))
    return tuple(lines)


def report_sections(game: Game) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The report's SMALL CITIES section (:func:`report_lines`), or none when not played."""
    lines = report_lines(game)
    return ((SECTION, lines),) if lines else ()
