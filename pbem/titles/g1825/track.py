"""1825's track rules: its upgrades, its two yellow tiles, and the rule that an upgraded
station must be in reach of a train.

* **Upgrades** (``rules/1825/parts/map_upgrades.yaml``, read as it stands by
  :func:`upgrade_facts`): ``extra_upgrades`` lets a tile become tiles the ordinary rules
  would not allow (a yellow town becomes a green city), keeping its track with a town and a
  city counted alike; ``illegal_upgrades`` forbids some the ordinary rules allow;
  ``tile_rules`` gives the striped tiles their own: 119 is laid once brown tiles are on sale
  and never becomes brown, 166 once gray are and is never replaced, 200 replaces only the
  printed faces of Crewe, Wolverton and Swindon and is never replaced.
* **Two yellow tiles** (the title's ``tile_lays``: a lay or an upgrade, then a second lay if
  the first was none): a tile on a printed yellow hex counts as a new tile, not an upgrade
  (:func:`counts_as_upgrade`), and the two tiles of one turn may not lie on adjacent hexes.
* **Reach** (1825: "any upgraded station must be reachable with a train"): a tile that
  replaces a laid tile with a city or town on it needs a train of the company (a leased one
  counts, :mod:`pbem.titles.g1825.trains`) that could reach one of its stops: a route from
  one of the company's tokens to it of no more stops than the train's length (U3: cities
  only; 4+4E: any; two 2-trains together: three).

Source: 18xx.games ``g_1825/game.rb`` (``upgrades_to?``, ``tile_valid_for_phase?``,
``biggest_node_distance``) and ``step/track_and_token.rb`` (``track_upgrade?``,
``check_adjacent``, ``legal_tile_rotation?``, ``check_track_restrictions!``); issue 12.
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from pbem.engine.state import RoundKind
from pbem.engine import graph as core_graph
from pbem.engine import lays, track, upgrades
from pbem.engine.board import TileData, edge_of
from pbem.engine.values import Vertex
from pbem.ruleset.files import RULES_DIR, read_parts

if TYPE_CHECKING:
    from pbem.engine.game import Game


@dataclass(frozen=True)
class TileRule:
    """One tile's own restrictions (``map_upgrades.yaml`` ``tile_rules``): laid only while
    tiles of ``needs_phase_color`` are on sale; never replaced by a tile of
    ``never_to_color``; never replaced at all (``final``); laid only on ``only_on`` (if
    given); laid only on a hex's printed face (``replaces_printed``)."""

    needs_phase_color: str | None = None
    never_to_color: str | None = None
    final: bool = False
    only_on: frozenset[str] = frozenset()
    replaces_printed: bool = False


@dataclass(frozen=True)
class Halt:
    """A HALT town (``map_upgrades.yaml`` ``halt_tiles``): it costs ``visit_cost`` of a
    train's length (0) and pays only the trains named in ``pays_trains``."""

    visit_cost: int
    pays_trains: frozenset[str]


@dataclass(frozen=True)
class UpgradeFacts:
    """1825's tile facts: tile -> the tiles it may also become (``extra``), may never become
    (``illegal``); tile -> its :class:`TileRule` (``rules``) or :class:`Halt` (``halts``);
    ``sepia_printed_edges``: a laid tile's track may end at a side of a sepia hex (gray on
    the map, with printed track) only where that printed track meets it
    (``track_may_point_into``)."""

    extra: Mapping[str, frozenset[str]] = field(default_factory=dict)
    illegal: Mapping[str, frozenset[str]] = field(default_factory=dict)
    rules: Mapping[str, TileRule] = field(default_factory=dict)
    halts: Mapping[str, Halt] = field(default_factory=dict)
    sepia_printed_edges: bool = False


def _names(value: Any) -> frozenset[str]:
    if value is None:
        return frozenset()
    if isinstance(value, (str, int)):
        return frozenset({str(value)})
    return frozenset(str(v) for v in value)


@functools.cache
def title_parts(title: str, rules_dir: Path = RULES_DIR) -> Mapping[str, Any]:
    """The parts of ``title`` (``rules/<title>/parts/*.yaml`` by stem), read once."""
    return read_parts(title, rules_dir)


@functools.cache
def upgrade_facts(title: str = "1825", rules_dir: Path = RULES_DIR) -> UpgradeFacts:
    """The :class:`UpgradeFacts` of ``rules/<title>/parts/map_upgrades.yaml`` (empty facts
    where there is no such part)."""
    doc = title_parts(title, rules_dir).get("map_upgrades") or {}
    rules = {}
    for name, data in (doc.get("tile_rules") or {}).items():
        rules[str(name)] = TileRule(
            needs_phase_color=data.get("needs_phase_color"), never_to_color=data.get("never_to_color"),
            final=bool(data.get("final", False)), only_on=_names(data.get("only_on")),
            replaces_printed=bool(data.get("replaces_printed", False)))
    halts = {str(name): Halt(int(data.get("visit_cost", 0)), _names(data.get("pays_trains")))
             for name, data in (doc.get("halt_tiles") or {}).items()}
    return UpgradeFacts(
        extra={str(k): _names(v) for k, v in (doc.get("extra_upgrades") or {}).items()},
        illegal={str(k): _names(v) for k, v in (doc.get("illegal_upgrades") or {}).items()},
        rules=rules, halts=halts,
        sepia_printed_edges=(doc.get("track_may_point_into") or {}).get("sepia") == "printed_edges")


def facts_of(game: Game) -> UpgradeFacts:
    """The tile facts of ``game``'s title."""
    return upgrade_facts(game.title.title)


# -- upgrades ---------------------------------------------------------------------------------


def upgrade_problem(game: Game, coord: str, new: TileData, rotation: int) -> str | None:
    """Why ``new`` at ``rotation`` may not replace what shows on ``coord`` under 1825's
    rules, or None (see the module text): the striped tiles' rules, the forbidden upgrades,
    then the extra upgrades (track kept, a town and a city alike) or else the ordinary rules
    (:func:`pbem.engine.upgrades.upgrade_problem`)."""
    facts = facts_of(game)
    old = track.placed(game, coord)
    old_rule = None if old.printed else facts.rules.get(old.tile.name)
    if old_rule is not None:
        if old_rule.final:
            return f"#{old.tile.name} on {coord} is never replaced"
        if old_rule.never_to_color == new.color:
            return f"#{old.tile.name} never becomes a {new.color} tile"
    rule = facts.rules.get(new.name)
    if rule is not None:
        if rule.needs_phase_color and rule.needs_phase_color not in game.phase().tiles:
            return f"#{new.name} may be laid only once {rule.needs_phase_color} tiles are on sale"
        if rule.only_on and coord not in rule.only_on:
            return f"#{new.name} may go only on {', '.join(sorted(rule.only_on))}"
        if rule.replaces_printed and not old.printed:
            return f"#{new.name} replaces only the printed face of {coord}"
    if new.name in facts.illegal.get(old.tile.name, frozenset()):
        return f"#{old.tile.name} may not become #{new.name} in 1825"
    forced = new.name in facts.extra.get(old.tile.name, frozenset()) or (
        rule is not None and rule.replaces_printed and old.printed and coord in rule.only_on)
    if forced:
        return kept_loosely(old, new, rotation, coord)
    return upgrades.upgrade_problem(game, coord, new, rotation)


def lay_candidates(game: Game, coord: str, supply: Mapping[str, list[str]], ordinary: list[str]) -> list[str]:
    """The tiles to check for a lay on ``coord``: the ``ordinary`` ones (one colour above),
    the extra upgrades of the tile showing, and a tile that replaces this hex's printed face
    (200 on Crewe, Wolverton, Swindon), of those in ``supply`` (colour -> tiles left)."""
    facts = facts_of(game)
    old = track.placed(game, coord)
    left = {name for names in supply.values() for name in names}
    extra = set(facts.extra.get(old.tile.name, frozenset())) & left
    if old.printed:
        extra |= {name for name in left if (rule := facts.rules.get(name)) is not None
                  and rule.replaces_printed and coord in rule.only_on}
    return [*ordinary, *sorted(extra - set(ordinary))]


def tile_on_sale(game: Game, name: str) -> bool:
    """Whether the phase lets tile ``name`` be laid now: its colour on sale, and a striped
    tile's later colour too (119 once brown tiles are, 166 once gray are)."""
    rule = facts_of(game).rules.get(name)
    needs = rule.needs_phase_color if rule is not None else None
    return game.tiles[name].color in game.phase().tiles and (needs is None or needs in game.phase().tiles)


def tile_notes(game: Game, name: str) -> tuple[str, ...]:
    """1825's rules of tile ``name`` in words, for the tile manifest: a striped tile's
    (``laid once brown tiles are on sale``, ``never becomes brown``, ``never replaced``, ``only
    on Q11, T16, V14``), a HALT town's, and the upgrades beyond the ordinary ones."""
    facts = facts_of(game)
    notes = []
    rule = facts.rules.get(name)
    if rule is not None:
        notes += [f"laid once {rule.needs_phase_color} tiles are on sale"] if rule.needs_phase_color else []
        notes += [f"never becomes {rule.never_to_color}"] if rule.never_to_color else []
        notes += ["never replaced"] if rule.final else []
        where = ", ".join(sorted(rule.only_on))
        notes += [f"only on {where}" + (" (their printed face)" if rule.replaces_printed else "")] if where else []
    halt = facts.halts.get(name)
    if halt is not None:
        pays = ", ".join(sorted(halt.pays_trains))
        notes += ["the HALT is not counted in a train's length"] if halt.visit_cost == 0 else []
        notes += [f"the HALT pays only {pays} trains"] if pays else []
    ours = game.board.tile_counts
    extra = sorted((t for t in facts.extra.get(name, frozenset()) if t in ours), key=lays.tile_key)
    never = sorted((t for t in facts.illegal.get(name, frozenset()) if t in ours), key=lays.tile_key)
    notes += [f"may also become {', '.join('#' + t for t in extra)}"] if extra else []
    notes += [f"never becomes {', '.join('#' + t for t in never)}"] if never else []
    return tuple(notes)


def kept_loosely(old: track.Placed, new: TileData, rotation: int, coord: str) -> str | None:
    """Why ``new`` at ``rotation`` does not keep the track of ``old`` with a town and a city
    counted alike, or None: each old path must have a new path whose every end is an end of
    the old one (the same hex side, or a stop for a stop)."""
    new_paths = new.paths_at(rotation)
    for a, b in old.tile.paths_at(old.rotation):
        ends = (a, b)
        if not any(all(_end_matches(end, ends) for end in path) for path in new_paths):
            return f"#{new.name} at rotation {rotation} drops track {a}-{b} on {coord}"
    return None


def _end_matches(end: str, old_ends: tuple[str, str]) -> bool:
    if edge_of(end) is not None:
        return end in old_ends
    return any(edge_of(other) is None for other in old_ends)


def counts_as_upgrade(game: Game, coord: str) -> bool:
    """Whether a tile laid on ``coord`` counts as an upgrade among the turn's lays: a tile
    lies there, and it is not a printed yellow face (18xx.games ``track_upgrade?``)."""
    shown = track.placed(game, coord)
    return shown.tile.color != "white" and not (shown.printed and shown.tile.color == "yellow")


def sepia_problem(game: Game, coord: str, new: TileData, rotation: int) -> str | None:
    """Why ``new`` at ``rotation`` on ``coord`` may not point its track at a neighbour: a
    sepia hex (gray, with printed track, no tile on it) whose printed track does not meet
    that side (18xx.games: sepia is impassable but along its printed track)."""
    if not facts_of(game).sepia_printed_edges:
        return None
    for edge in new.exits(rotation):
        other = game.board.neighbor(coord, edge)
        if other is None or other in game.state.tiles:
            continue
        printed = game.board.hexes[other].tile
        if printed.color == "gray" and printed.paths and (edge + 3) % 6 not in printed.exits(0):
            return f"#{new.name} at rotation {rotation} points at a side of {other} its printed track does not reach"
    return None


# -- the turn's lays and reach --------------------------------------------------------------------


def adjacent_problem(game: Game, coord: str) -> str | None:
    """Why a second tile of this turn may not go on ``coord``: a tile laid this turn lies on
    a neighbouring hex (18xx.games ``check_adjacent``); None outside an operating turn."""
    op = game.state.round.operating
    if op is None or not op.laid_hexes or game.state.round.kind != RoundKind.OPERATING:
        return None
    for laid in op.laid_hexes:
        if laid == coord:
            return f"a tile was laid on {coord} this turn already"
        if any(game.board.neighbor(laid, edge) == coord for edge in range(6)):
            return f"the tiles of one turn may not lie on adjacent hexes ({laid} and {coord})"
    return None


@dataclass(frozen=True)
class Reach:
    """How far a company's trains reach for the upgrade rule: ``stops`` (a route of at most
    this many stops; 0: none by stops) and ``cities`` (U3: at most this many cities, towns
    free; 0: none); ``anywhere`` (4+4E: every stop of the network)."""

    stops: int = 0
    cities: int = 0
    anywhere: bool = False


def reach_of(game: Game, corp: str) -> Reach | None:
    """The :class:`Reach` of ``corp``'s trains (a leased train is among them), or None when
    it has none. Two or more 2-trains reach as a 3-train (their double-heading)."""
    from pbem.titles.g1825.routes import train_kind

    owned = game.state.corporations[corp].trains
    if not owned:
        return None
    stops = cities = 0
    anywhere = False
    from pbem.engine import trains

    twos = 0
    for train_id in owned:
        kind = train_kind(game, train_id.kind)
        distance = trains.train_data(game.title, train_id).distance
        if kind.express:
            anywhere = True
        elif kind.cities_only:
            cities = max(cities, distance)
        else:
            stops = max(stops, distance)
            twos += distance == 2
    if twos >= 2:
        stops = max(stops, 3)
    return Reach(stops, cities, anywhere)


def distances(game: Game, corp: str, cities_only: bool, graph: core_graph.TrackGraph | None = None,
              laid: str | None = None) -> dict[Vertex, int]:
    """Stop -> the fewest stops (``cities_only``: cities and off-board areas) on a way from
    one of ``corp``'s tokens to it, the token's stop counted, the stop itself not: a search
    over the track graph's links that passes through no stop blocking ``corp`` (the
    18xx.games distance graph, which does not forbid reusing track); on ``graph``, the track
    graph with a tile not yet laid on hex ``laid``, where given (its stops, which hold the
    tokens of the tile they replace, are passed through as that tile's)."""
    graph = graph if graph is not None else track.track_graph(game)
    starts = track.token_vertices(game, corp)
    best: dict[Vertex, int] = {}
    todo: deque[tuple[Vertex, int]] = deque()
    for start in starts:
        best[start] = 0
        todo.append((start, 0))

    def weight(stop: Vertex) -> int:
        return 0 if cities_only and stop.stop.startswith("t") else 1

    while todo:
        stop, dist = todo.popleft()
        if dist > best.get(stop, 1 << 30):
            continue
        if dist > 0 and stop not in starts and _blocks(game, stop, corp, laid):
            continue
        step = weight(stop)
        for link in graph.links(stop):
            far = dist + step
            if far < best.get(link.end, 1 << 30):
                best[link.end] = far
                if step == 0:
                    todo.appendleft((link.end, far))
                else:
                    todo.append((link.end, far))
    return best


def _blocks(game: Game, stop: Vertex, corp: str, laid: str | None) -> bool:
    if stop.coord == laid:
        old = track.placed(game, stop.coord).tile
        if stop.stop.startswith("c") and int(stop.stop[1:]) >= len(old.cities):
            return False  # a city the new tile adds: no token there yet
    return track.blocks(game, stop, corp)


def reach_problem(game: Game, corp: str, coord: str, new: TileData, rotation: int) -> str | None:
    """Why ``corp`` may not lay ``new`` at ``rotation`` on ``coord`` by the rule that an
    upgraded station must be in reach of a train (see the module text), or None: it applies
    where a laid (not printed) tile is replaced by one with a city or town, whose stops are
    reached on the track as it would be with ``new`` laid (18xx.games checks the tile laid)."""
    old = track.placed(game, coord)
    if old.printed or not (new.cities or new.towns):
        return None
    reach = reach_of(game, corp)
    if reach is None:
        return f"{corp} has no train to reach the stations it would upgrade on {coord}"
    if reach.anywhere:
        return None
    here = [Vertex(coord, stop) for stop in new.stop_ids()]
    after = track.track_graph(game).with_tile(coord, new.name, rotation)
    if reach.stops:
        found = distances(game, corp, cities_only=False, graph=after, laid=coord)
        if any(v in found and found[v] < reach.stops for v in here):
            return None
    if reach.cities:
        found = distances(game, corp, cities_only=True, graph=after, laid=coord)
        if any(v in found and found[v] < reach.cities for v in here):
            return None
    return f"no train of {corp} can reach a station of the tile it would upgrade on {coord}"
