"""The tile manifest: the tiles still in the supply, each with its count, colour and track in
words, for the report's TILES LEFT section (:func:`report_lines`), the answer to ``TILES`` by
mail (:func:`manifest_text`) and the picture of the tiles (:func:`manifest_entries`).

Counts are the engine's (:meth:`pbem.engine.game.Game.tiles_left`: the title's count less the
copies on the map, so an upgrade returns the tile it replaces). Whether a tile may be laid now
is the title's :meth:`~pbem.presentation.TitlePresentation.tile_on_sale` (its colour on sale
in this phase); its own rules in words are :meth:`~pbem.presentation.TitlePresentation.tile_notes`.
Track is described at rotation 0 with the compass names of the map's sides
(:data:`pbem.asciimap.EDGE_NAMES`), as the report's track in words names them.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Sequence

from pbem.asciimap import EDGE_NAMES
from pbem.engine import lays
from pbem.engine.board import TileData, edge_of
from pbem.engine.game import Game
from pbem.engine.track import COLOR_ORDER

CURVES = {1: "sharp curve", 2: "gentle curve", 3: "straight"}
"""Track between two sides by how many sides apart they are, in 18xx players' words."""


@dataclass(frozen=True)
class ManifestEntry:
    """One tile of the title: its ``number`` (the title's own, ``"57"``, ``"171K"``), ``color``,
    ``count`` left in the supply (None: unlimited), its ``tile`` data (the picture draws it at
    rotation 0), its track in ``words``, whether the phase lets it be laid ``now``, and the
    title's own rules of it (``notes``: the hexes it may go on, what it may become)."""

    number: str
    color: str
    count: int | None
    tile: TileData
    words: str
    now: bool
    notes: tuple[str, ...] = ()

    @property
    def count_text(self) -> str:
        """``x4``, ``x0``, or ``unlimited``."""
        return "unlimited" if self.count is None else f"x{self.count}"


def manifest_entries(game: Game, *, used_up: bool = False) -> list[ManifestEntry]:
    """The title's tiles by colour (yellow, green, brown, gray) and number: those still in the
    supply, and with ``used_up`` those with none left too."""
    money, names = game.money, EDGE_NAMES[game.board.layout]
    out = []
    for name in sorted(game.board.tile_counts, key=_order_key(game)):
        count = None if game.board.tile_counts[name] is None else game.tiles_left(name)
        if count == 0 and not used_up:
            continue
        tile = game.tiles[name]
        out.append(ManifestEntry(name, tile.color, count, tile, track_in_words(tile, names, money),
                                 game.title.presentation.tile_on_sale(game, name),
                                 game.title.presentation.tile_notes(game, name)))
    return out


def _order_key(game: Game) -> Callable[[str], tuple[int, tuple[int, str]]]:
    def key(name: str) -> tuple[int, tuple[int, str]]:
        color = game.tiles[name].color
        return (COLOR_ORDER.index(color) if color in COLOR_ORDER else len(COLOR_ORDER), lays.tile_key(name))
    return key


def track_in_words(tile: TileData, names: Sequence[str], money: Callable[[int], str] = str) -> str:
    """The track of ``tile`` at rotation 0 in words, sides named by ``names`` (edges 0-5):
    its label, each city (revenue, slots) and town with the sides it runs to, then track from
    side to side (``straight SW-NE``; sides that all join one another, as on brown tiles:
    ``SW, W and NW each joined to the others``). 1830's #57 on a pointy map: ``city $20 to SW
    and NE``; #59: ``label OO: city $40 to SW; city $40 to NW``."""
    parts = _grouped([_stop_words(tile, stop, names, money) for stop in tile.stop_ids()], names)
    through = sorted(tuple(sorted((ea, eb))) for ea, eb in ((edge_of(a), edge_of(b)) for a, b in tile.paths)
                     if ea is not None and eb is not None)
    sides = sorted({e for pair in through for e in pair})
    if len(sides) >= 3 and through == list(combinations(sides, 2)):
        parts.append(f"{_listed([names[e] for e in sides])} each joined to the others")
    else:
        parts += [f"{CURVES[min((b - a) % 6, (a - b) % 6)]} {names[a]}-{names[b]}" for a, b in through]
    text = "; ".join(parts) or "no track"
    return f"label {tile.label}: {text}" if tile.label else text


def _stop_words(tile: TileData, stop: str, names: Sequence[str], money: Callable[[int], str]) -> str:
    """One stop of ``tile``: ``city $30 (2 slots) to SW, W and NE``."""
    index = int(stop[1:]) if stop[1:].isdigit() else 0
    if stop.startswith("c"):
        city = tile.cities[index]
        what = f"city {money(city.revenue)}" + (f" ({city.slots} slots)" if city.slots > 1 else "")
    elif stop.startswith("t"):
        what = f"town {money(tile.towns[index].revenue)}"
    else:
        what = "off-board area"
    ends = [b if a == stop else a for a, b in tile.paths if stop in (a, b)]
    edges = sorted(e for e in map(edge_of, ends) if e is not None)
    joins = ["all six sides"] if len(edges) == 6 else [names[e] for e in edges]
    joins += [_stop_name(tile, end) for end in ends if edge_of(end) is None]
    return f"{what} to {_listed(joins)}" if joins else f"{what}, no track"


def _grouped(stops: list[str], names: Sequence[str]) -> list[str]:
    """Three or more alike stops each to one side in one entry (1825's London, six cities
    each to one side: ``6 cities L70, one to each side``); the others as they are."""
    split = [stop.rpartition(" to ") for stop in stops]
    out = []
    for i, (head, _, _) in enumerate(split):
        alike = [j for j, (other, _, end) in enumerate(split) if other == head and end in names]
        if len(alike) < 3 or i not in alike or not head.startswith(("city ", "town ")):
            out.append(stops[i])
        elif i == alike[0]:
            kind, _, rest = head.partition(" ")
            sides = "each side" if len(alike) == 6 else f"each of {_listed([split[j][2] for j in alike])}"
            out.append(f"{len(alike)} {'cities' if kind == 'city' else 'towns'} {rest}, one to {sides}")
    return out


def _stop_name(tile: TileData, stop: str) -> str:
    kind, many = ("city", len(tile.cities)) if stop.startswith("c") else ("town", len(tile.towns))
    return f"{kind} {int(stop[1:]) + 1}" if many > 1 and stop[1:].isdigit() else f"the {kind}"


def _listed(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def first_phase(game: Game, color: str) -> str | None:
    """The first phase whose tiles include ``color``, or None."""
    return next((phase.name for phase in game.title.phases if color in phase.tiles), None)


def color_heading(game: Game, color: str) -> str:
    """``yellow (now)``, ``brown (from phase 5)``: whether the phase has ``color`` on sale,
    else from which phase (``(not in this game)`` where no phase has it)."""
    if color in game.phase().tiles:
        return f"{color} (now)"
    later = first_phase(game, color)
    return f"{color} (from phase {later})" if later is not None else f"{color} (not in this game)"


REPORT_HEADING = "TILES LEFT (tile x copies left; TILES by mail: each tile's track in words)"


def report_lines(game: Game, width: int = 132) -> list[str]:
    """The report's TILES LEFT section under its heading: one entry a colour, the colours on
    sale first marked ``(now)``, the others with the phase they come in, each tile left as
    ``57x4`` and those used up after ``none left:``; lines at most ``width - 2`` columns,
    continued under the first tile. A tile whose colour is on sale but which may not be laid
    yet (1825's striped 119) is starred, with a line saying so."""
    entries = manifest_entries(game, used_up=True)
    colors = sorted({e.color for e in entries}, key=lambda c: (c not in game.phase().tiles,
                                                               COLOR_ORDER.index(c) if c in COLOR_ORDER else 9))
    heads = {color: color_heading(game, color) + ":" for color in colors}
    column = 2 + max((len(h) for h in heads.values()), default=0) + 1
    lines = [REPORT_HEADING if width - 2 >= len(REPORT_HEADING) else "TILES LEFT (tile x copies left)"]
    starred = False
    for color in colors:
        mine = [e for e in entries if e.color == color]
        words = []
        for entry in (e for e in mine if e.count != 0):
            star = "*" if color in game.phase().tiles and not entry.now else ""
            starred = starred or bool(star)
            words.append(f"{entry.number} unlimited" if entry.count is None else f"{entry.number}x{entry.count}{star}")
        gone = [e.number for e in mine if e.count == 0]
        text = " ".join(words) if words else "none left"
        if gone and words:
            text += "; none\xa0left: " + " ".join(gone)  # (kept on one line)
        lines += [line.replace("\xa0", " ") for line in textwrap.wrap(
            text, width - 2, initial_indent=f"  {heads[color]}".ljust(column), subsequent_indent=" " * column,
            break_on_hyphens=False, break_long_words=False)]
    if starred:
        lines.append("  * may not be laid yet in this phase (TILES says when)")
    return lines


def manifest_text(game: Game, width: int = 78) -> str:
    """The answer to ``TILES``: the phase, how the sides are named, then each tile left by
    colour with its count, its track in words at rotation 0, the title's rules of it, and
    (while a corporation is about to lay track) the hexes where it may lay that tile now; the
    tiles used up last. Lines at most ``width`` columns; money spelt as the reports spell it."""
    names = EDGE_NAMES[game.board.layout]
    wrap = textwrap.TextWrapper(width=width, break_on_hyphens=False, break_long_words=False)
    out = wrap.wrap(f"TILE MANIFEST (phase {game.phase().name}: {_listed(list(game.phase().tiles))} tiles "
                    "may be laid)")
    out += wrap.wrap("Each tile left in the supply: how many, then its track as drawn (rotation 0), the sides "
                     "named as on the map: " + ", ".join(f"{e} {names[e]}" for e in range(6))
                     + " (LAY <hex> <tile> <rotation> turns it clockwise; HELP draws the edges).")
    entries = manifest_entries(game, used_up=True)
    fits = _fits_now(game)
    column = 2 + max((len(f"#{e.number}") for e in entries), default=3) + 2 + 4
    hang = " " * column
    for color in dict.fromkeys(e.color for e in entries):
        left = [e for e in entries if e.color == color and e.count != 0]
        when = "may be laid now" if color in game.phase().tiles else color_heading(game, color).partition(" (")[2][:-1]
        out += ["", f"{color.upper()} TILES ({when})"]
        if not left:
            out.append("  none left")
        for entry in left:
            head = f"  {'#' + entry.number:<{column - 8}}{entry.count_text:>4}  "
            text = entry.words + "".join(f"; {note}" for note in entry.notes)
            if color in game.phase().tiles and not entry.now:
                text += "; not yet in this phase"
            out += textwrap.wrap(text, width, initial_indent=head.ljust(column), subsequent_indent=hang,
                                 break_on_hyphens=False, break_long_words=False)
            if entry.number in fits:
                out += textwrap.wrap(fits[entry.number], width, initial_indent=hang, subsequent_indent=hang + "  ",
                                     break_on_hyphens=False, break_long_words=False)
    gone = [f"#{e.number}" for e in entries if e.count == 0]
    if gone:
        out += [""] + wrap.wrap("None left: " + ", ".join(gone) + ".")
    text = "\n".join(out) + "\n"
    for written, spelt in game.title.settings.terms.ascii.items():
        text = text.replace(str(written), str(spelt))
    return text


def _fits_now(game: Game) -> dict[str, str]:
    """Tile -> ``PRR may lay it now on H10, I15`` for the corporation about to lay track (its
    legal lays, :func:`pbem.engine.lays.legal_lays`, the list the report gives), else none."""
    found = lays.legal_lays(game)
    corp = game.operating_corporation()
    hexes: dict[str, list[str]] = {}
    for lay in found:
        if lay.hex not in hexes.setdefault(lay.tile, []):
            hexes[lay.tile].append(lay.hex)
    return {tile: f"{corp} may lay it now on {', '.join(where)}" for tile, where in hexes.items()}
