"""Whether a tile may replace the tile on a hex: colour, label, city and town counts, every
old path kept and the cities kept apart and whole (1830 rules 6.2), the tile's hexes and the
upgrade chart where a title gives them. The title's ``upgrade_problem`` hook starts here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.board import edge_of
from pbem.engine.track import COLOR_ORDER, Placed, city_edges, future_label, placed

if TYPE_CHECKING:
    from pbem.engine.board import TileData
    from pbem.engine.game import Game


def upgrade_problem(game: Game, coord: str, new: TileData, rotation: int) -> str | None:
    """Why ``new`` at ``rotation`` may not replace the tile on ``coord`` (a red, gray or blue
    hex takes no tile; colour, label, city and town counts, every old path kept — 1830
    rules 6.2; where the title or variant
    gives them, the hexes a tile may (``tile_hexes``) and the upgrade chart
    (``upgrade_chart``, Dixon's 1870 rules 6.4.1, 6.6), or None."""
    old = placed(game, coord)
    if old.tile.color in ("red", "gray", "blue"):
        return f"{coord} cannot take a tile"
    if COLOR_ORDER.index(new.color) != COLOR_ORDER.index(old.tile.color) + 1 if old.tile.color in COLOR_ORDER else True:
        return f"a {new.color} tile cannot go on a {old.tile.color} hex"
    placement = game.title.settings.tile_hexes.get(new.name)
    if placement is not None:
        if placement.only is not None and coord not in placement.only:
            return f"#{new.name} may go only on {', '.join(placement.only)}"
        if coord in placement.never:
            return f"#{new.name} may not go on {coord}"
    chart = game.title.settings.upgrade_chart
    if chart and not old.printed and new.name not in chart.get(old.tile.name, ()):
        allowed = ", ".join(f"#{t}" for t in chart.get(old.tile.name, ())) or "nothing"
        return f"the upgrade chart lets #{old.tile.name} become only {allowed}, not #{new.name}"
    expected = future_label(game, coord, new.color) or old.tile.label or None
    if expected != (new.label or None):
        want = expected or "no"
        return f"{coord} needs a tile with {want} label, #{new.name} has {new.label or 'none'}"
    if len(old.tile.towns) != len(new.towns):
        return f"#{new.name} has {len(new.towns)} towns, {coord} has {len(old.tile.towns)}"
    if not old.tile.label and len(old.tile.cities) != len(new.cities):
        return f"#{new.name} has {len(new.cities)} cities, {coord} has {len(old.tile.cities)}"
    if old.tile.label and old.tile.cities and not new.cities:
        return f"#{new.name} has no city for {coord}"
    new_paths = {frozenset(p) for p in new.paths_at(rotation)}
    for a, b in old.tile.paths_at(old.rotation):
        if not _path_kept(frozenset((a, b)), new, rotation, new_paths):
            return f"#{new.name} at rotation {rotation} drops track {a}-{b} on {coord}"
    if len(old.tile.cities) > 1:
        return _cities_problem(coord, old, new, rotation)
    return None


def _cities_problem(coord: str, old: Placed, new: TileData, rotation: int) -> str | None:
    """Why ``new`` at ``rotation`` does not keep the cities of ``old`` (two cities or more)
    apart and whole, or None: the track of each old city must run into one city of the new
    tile (a route through a city is kept, 1830 rules 6.2), and while the new tile has more
    than one city, no two old cities into the same one (the cities of an OO hex are separate
    cities; their tokens cannot share a station). Cities that merge into a tile of one city
    (1825's London and Liverpool) may."""
    targets: list[int] = []
    for i in range(len(old.tile.cities)):
        edges = city_edges(old.tile, old.rotation, i)
        if not edges:
            continue
        within = [j for j in range(len(new.cities)) if edges <= city_edges(new, rotation, j)]
        if not within:
            return f"#{new.name} at rotation {rotation} splits the track of a city of {coord} between two cities"
        targets.append(within[0])
    if len(new.cities) > 1 and len(targets) != len(set(targets)):
        return (f"#{new.name} at rotation {rotation} joins the track of two cities of {coord} in one city "
                "(each stays a city of its own)")
    return None


def _path_kept(old: frozenset[str], new: TileData, rotation: int, new_paths: set[frozenset[str]]) -> bool:
    if old in new_paths:
        return True
    # A path to a stop is kept if the new tile joins the same edge to some stop of the same kind.
    edges = [e for e in old if edge_of(e) is not None]
    stops = [s for s in old if edge_of(s) is None]
    if len(edges) == 1 and len(stops) == 1:
        kind = stops[0][0]
        return any(
            edges[0] in p and any(edge_of(x) is None and x[0] == kind for x in p) for p in new_paths
        )
    return False
