"""The track on the map in words, for readers who cannot use the ASCII map's drawing
(:mod:`pbem.asciimap`): :func:`track_list`, hex by hex, what joins what; :func:`track_summary`,
compactly, the tiles and station tokens for the report after the map's legend."""

from __future__ import annotations

import textwrap

from pbem.asciimap import EDGE_NAMES, example_corp, hex_places, phase_revenues, station_marks, town_tokens
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
    a tile laid or a station token, by coordinate and the name the map prints there (if any),
    ``F20: tile 57 r1, city $20 PRR`` (the tile and its rotation, or ``printed``; each city's
    revenue and its tokens, ``free`` for a city with none; towns, with a token a title put on
    one: ``town $10 MKT``), entries joined by ``;`` and
    wrapped at ``width`` columns.
    The full route-by-route list is :func:`track_list`."""
    entries = []
    for place in hex_places(game.board, by_coordinate=True):
        coord = place.coord
        shown = track.placed(game, coord)
        tokens = [track.tokens_in(game, coord, i) for i in range(len(shown.tile.cities))]
        on_towns = [town_tokens(game, coord, i) for i in range(len(shown.tile.towns))]
        if shown.printed and not any(tokens) and not any(on_towns):
            continue
        parts = ["printed" if shown.printed else f"tile {shown.tile.name} r{shown.rotation}"]
        for index, city in enumerate(shown.tile.cities):
            kept = [c.lower() for c in game.hooks.track.kept_slots(game, coord, index) if c not in tokens[index]]
            held = " ".join([*tokens[index], *(f"(kept for {c})" for c in kept)]) or "free"
            parts.append(f"city {game.money(city.revenue)} {held}")
        parts += [" ".join([f"town {game.money(town.revenue)}", *on_towns[index]])
                  for index, town in enumerate(shown.tile.towns)]
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
            lines.extend(textwrap.wrap(entry, width, initial_indent="  ", subsequent_indent="    ",
                                       break_on_hyphens=False))
    return ["Track in words (tile and rotation; cities with their station tokens):", *lines]


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

    def edge_text(edge: int) -> str:
        return f"{edge}/{names[edge]} {board.neighbor(coord, edge) or 'off the map'}"

    def stop_text(stop: str) -> str:
        index = int(stop[1:]) if stop[1:].isdigit() else 0
        if stop.startswith("c"):
            slots = " ".join(station_marks(game, coord, index))
            return f"city {tile.cities[index].revenue} [{slots}]"
        if stop.startswith("t"):
            held = " ".join(town_tokens(game, coord, index))
            return f"town {tile.towns[index].revenue}" + (f" [{held}]" if held else "")
        assert tile.offboard is not None
        return "off-board " + "/".join(str(v) for _, v in phase_revenues(tile.offboard.revenue))

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
