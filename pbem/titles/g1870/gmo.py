"""The GM&O's track rule of Lou Jerkich's Historical Order Start rules for 1870 (issue 13,
seed 000, "Gulf, Mobile & Ohio Railroad"): it may not build track west of the Mississippi
until it has reached its destination, St. Louis (C18). Its other rule, that its routes end
at E20 while the Ohio is closed, is every corporation's (:mod:`pbem.titles.g1870.ohio`).

Our reading of "build track that crosses west of the Mississippi", until the corporation has
connected to its destination (``State1870.destinations_reached``):

* on its destination hex itself (St. Louis, a river hex whose city stands on the western
  bank) its new track may reach the city (reaching it is the point of the rule) but no edge
  of the western bank (that would build beyond St. Louis to the west);
* it may lay no tile on a hex west of the Mississippi (:func:`pbem.titles.g1870.rivers.hex_west`);
* on any other river hex, none of the tile's new paths (those the old tile did not have,
  :func:`pbem.engine.track.added_paths`) may reach an edge of the western bank or a city or
  town standing on the western bank (``stops_on: west``; the last part is ours beyond the
  design's "no new path with an edge on the western bank": such a path runs to a stop west
  of the river as much as one to a western edge does).

The corporations bound by it are the setting ``west_closed_until_destination`` (symbols
separated by blanks; plain 1870: none; the variant: ``GMO``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from pbem.titles.g1870 import rivers

if TYPE_CHECKING:
    from pbem.engine.game import Game

RULE = "west_closed_until_destination"
"""The setting naming the corporations that may not build west until they reach their destination."""

DEFAULTS: Mapping[str, str] = {RULE: ""}
"""The setting and its default (plain 1870: no corporation)."""


def bound(game: Game, corp: str) -> bool:
    """Whether ``corp`` is still kept east of the Mississippi: the setting names it and it has
    not yet connected to its destination."""
    from pbem.titles.g1870.state import state1870

    return (corp in str(game.title.title_rule(RULE)).split()
            and corp not in state1870(game.state).destinations_reached)


def west_problem(game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
    """Why ``corp`` may not lay ``tile`` at ``rotation`` on ``coord`` because the tile would
    put its track west of the Mississippi before it has reached its destination, or None
    (module text; on the destination hex the track may reach the city, not the western edges)."""
    if not bound(game, corp):
        return None
    from pbem.titles.g1870.connections import destination

    target = destination(game.title, corp)
    where = west_track(game, coord, tile, rotation, stop_allowed=coord == target)
    if where is None:
        return None
    return f"{corp} may not build west of the Mississippi until it has reached its destination {target}: {where}"


def west_track(game: Game, coord: str, tile: str, rotation: int, *, stop_allowed: bool = False) -> str | None:
    """Where ``tile`` at ``rotation`` on ``coord`` would add track west of the Mississippi,
    or None: ``"<coord> lies west of the river"`` for a hex west of it
    (:func:`pbem.titles.g1870.rivers.hex_west`); in a river hex, ``"#<tile> at rotation <r> on
    <coord> has track on the western bank"`` when one of the tile's new paths (those the old
    tile did not have, :func:`pbem.engine.track.added_paths`) reaches an edge of the western
    bank or, unless ``stop_allowed`` (the GM&O's St. Louis, the IC's St. Louis), a city or
    town standing on the western bank (``stops_on: west``, or the town's own bank where the
    hex names ``town_banks``). The one check of "track west of
    the river" for the GM&O and the IC (:mod:`.illinois`)."""
    from pbem.engine import track

    if rivers.hex_west(rivers.sides(game.title), coord):
        return f"{coord} lies west of the river"
    bank = rivers.bank(game.title, coord)
    if bank is None:
        return None
    west = set(bank["west"])
    data = game.tiles[tile]
    paths = data.paths_at(rotation)
    for index in track.added_paths(track.placed(game, coord), data, rotation):
        ends = paths[index]
        edges = {int(e[1:]) for e in ends if e.startswith("e")}
        stops = [e for e in ends if e[0] in "ct"]
        stand = (rivers.town_bank(game.title, coord, data, rotation, stops[0]) or bank.get("stops_on")) if stops else None
        if edges & west or (stand == "west" and not stop_allowed):
            return f"#{tile} at rotation {rotation} on {coord} has track on the western bank"
    return None


def report_lines(game: Game) -> tuple[str, ...]:
    """The report's line for each corporation still kept east of the Mississippi (:func:`bound`),
    its destination named with its coordinate; empty when none is."""
    from pbem.titles.g1870.connections import destination

    lines = []
    for corp in str(game.title.title_rule(RULE)).split():
        if corp in game.state.corporations and bound(game, corp):
            target = str(destination(game.title, corp))
            name = game.board.hexes[target].name if target in game.board.hexes else None
            place = f"{name} {target}" if name else target
            lines.append(f"{corp}: no track west of the Mississippi until it has reached {place} (its track may "
                         f"reach the city there, not go beyond it)")
    return tuple(lines)
