"""The track on the map in words, for readers who cannot use the ASCII map's drawing
(:mod:`pbem.asciimap`): :func:`track_list`, hex by hex, what joins what; :func:`track_summary`,
compactly, the tiles and station tokens for the report after the map's legend."""

from __future__ import annotations

import textwrap

from pbem.asciimap import KEPT, Stations, example_corp, phase_revenues, stations
from pbem.picture.geometry import EDGE_NAMES, hex_places
from pbem.engine import track
from pbem.engine.board import edge_of
from pbem.engine.game import Game


def track_list(game: Game, *, width: int = 132) -> str:
    """The track on the map in words: one entry per hex with track (laid or printed), at
    most ``width`` characters a line (longer entries continue indented).

    Each entry gives the coordinate and name, the tile (``#59/2 green``) or ``printed`` track,
    each stop with its station slots and where its track leads, track that only passes
    through, and a private company's block; for example ``G19 New York & Newark  #62/0 brown
    label NY  city 80 [PRR .] -> 0/SW H18, 1/W G17; city 80 [NNH NYC] -> 2/NW F18, 3/NE F20``.
    """
    board = game.board
    names = EDGE_NAMES[board.layout]
    wrap = textwrap.TextWrapper(width=width, subsequent_indent="    ", break_on_hyphens=False)
    header = (
        "Track, hex by hex. Where track leads: 2/NW E19 = by edge 2, the "
        f"{_long_direction(names[2])} side, into E19 (edges 0-5: "
        + ", ".join(f"{e} {names[e]}" for e in range(6))
        + f"). Station slots, in brackets: {example_corp(game)} token, {example_corp(game).lower()} held "
        f"for {example_corp(game)}'s home, . free."
    )
    out = wrap.wrap(header)
    for place in hex_places(board, by_coordinate=True):
        shown = track.placed(game, place.coord)
        if shown.printed and not shown.tile.paths:
            continue
        out.extend(wrap.wrap(_track_entry(game, place.coord)))
    return "\n".join(out) + "\n"


def track_summary(game: Game, *, width: int = 132) -> list[str]:
    """The track in words, compactly, for the report after the map's legend: every hex with
    a tile laid, a station token or a slot held, by coordinate and the name the map prints
    there (if any), ``F20: tile 57 r1, city $20 PRR`` (the tile and its rotation, or
    ``printed``; each city's revenue, its tokens and its slots held, ``(held for NYNH)`` for a
    home not placed yet, ``(kept for MKT)`` for a slot the title keeps by its own rule, ``free``
    for a city with neither; towns, with a token a title put on one: ``town $10 MKT``; an
    off-board area with a token: ``off-board $40/$50/$60 IC``), entries joined by
    ``;`` and wrapped at ``width`` columns. What each stop shows is what the map shows there
    (:func:`pbem.asciimap.stations`), the tokens by symbol as the rest of the report names
    corporations. The full route-by-route list is :func:`track_list`."""
    entries = []
    for place in hex_places(game.board, by_coordinate=True):
        coord = place.coord
        shown = track.placed(game, coord)
        found = stations(game, coord)
        if shown.printed and not any(stop.occupied for stop in found.values()):
            continue
        parts = ["printed" if shown.printed else f"tile {shown.tile.name} r{shown.rotation}"]
        parts += [_summary_stop(found[f"c{index}"], f"city {game.money(city.revenue)}", "free")
                  for index, city in enumerate(shown.tile.cities)]
        parts += [_summary_stop(found[f"t{index}"], f"town {game.money(town.revenue)}")
                  for index, town in enumerate(shown.tile.towns)]
        offboard = shown.tile.offboard
        if offboard is not None and found["o"].occupied:
            revenue = "/".join(game.money(v) for _, v in phase_revenues(offboard.revenue))
            parts.append(_summary_stop(found["o"], f"off-board {revenue}"))
        name = game.board.hexes[coord].name
        entries.append(f"{coord}{' ' + name if name else ''}: {', '.join(parts)}")
    if not entries:
        return []
    lines: list[str] = []
    for entry in entries:  # an entry is split only when it is longer than a line
        if lines and len(lines[-1]) + 2 + len(entry) + 1 <= width:
            lines[-1] += f"; {entry}"
        else:
            if lines:
                lines[-1] += ";"
            lines.extend(textwrap.wrap(entry, width - 1, initial_indent="  ", subsequent_indent="    ",
                                       break_on_hyphens=False))  # room left for the ";" after it
    return ["Track in words (tile and rotation; cities with their station tokens):", *lines]


def _summary_stop(stop: Stations, what: str, empty: str = "") -> str:
    """One stop in the report's track in words (:func:`track_summary`): ``what`` (``city $20``),
    its tokens, its slots held, or ``empty`` where it has neither."""
    held = [f"({'kept' if why == KEPT else 'held'} for {corp})" for corp, why in stop.held]
    return " ".join([what, *stop.tokens, *held] if stop.occupied else [what, empty] if empty else [what])


def _long_direction(short: str) -> str:
    words = {"N": "north", "S": "south", "E": "east", "W": "west"}
    return "-".join(words[c] for c in short)


def _track_entry(game: Game, coord: str) -> str:
    """One hex in words (see :func:`track_list`)."""
    board = game.board
    hex_data = board.hexes[coord]
    shown = track.placed(game, coord)
    tile = shown.tile
    names = EDGE_NAMES[board.layout]
    found = stations(game, coord)

    def edge_text(edge: int) -> str:
        return f"{edge}/{names[edge]} {board.neighbor(coord, edge) or 'off the map'}"

    def stop_text(stop: str) -> str:
        index = int(stop[1:]) if stop[1:].isdigit() else 0
        marks = " ".join(found[stop].marks(game))
        if stop.startswith("c"):
            return f"city {tile.cities[index].revenue} [{marks}]"
        if stop.startswith("t"):
            return f"town {tile.towns[index].revenue}" + (f" [{marks}]" if marks else "")
        assert tile.offboard is not None
        revenue = "/".join(str(v) for _, v in phase_revenues(tile.offboard.revenue))
        return f"off-board {revenue}" + (f" [{marks}]" if marks else "")

    head = coord + (f" {hex_data.name}" if hex_data.name else "")
    if shown.printed:
        what = f"printed {tile.color}"
    else:
        what = f"#{tile.name}/{shown.rotation} {tile.color}"
    if tile.label:
        what += f" label {tile.label}"
    parts: list[str] = []
    paths = tile.paths_at(shown.rotation)
    for stop in tile.stop_ids():
        ends = [b if a == stop else a for a, b in paths if stop in (a, b)]
        edges = sorted(e for e in map(edge_of, ends) if e is not None)
        joins = [edge_text(e) for e in edges] + [stop_text(s) for s in ends if edge_of(s) is None]
        parts.append(f"{stop_text(stop)} -> {', '.join(joins) if joins else 'no track'}")
    through = sorted(
        (min(ea, eb), max(ea, eb))
        for ea, eb in ((edge_of(a), edge_of(b)) for a, b in paths)
        if ea is not None and eb is not None
    )
    parts += [f"track {edge_text(ea)} - {edge_text(eb)}" for ea, eb in through]
    blocker = game.hex_blocker(coord)
    if blocker is not None:
        parts.append(f"blocked by {blocker}")
    return f"{head}  {what}  " + "; ".join(parts)
