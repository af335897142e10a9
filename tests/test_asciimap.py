"""The ASCII map of the turn report (:mod:`pbem.asciimap`).

Golden maps of a fresh 1830 game and of the recorded game ``1830_game_end_bank.json`` at four
points; every cell read back from the drawing and compared with the engine; line widths and
the split into parts; the legend; impassable sides; a hand-made flat map; the track list.

Regenerate the golden files with ``PBEM_UPDATE_GOLDEN=1 python -m pytest tests/test_asciimap.py``
(the test then rewrites them and still compares).
"""

from __future__ import annotations

import copy
import os
import re
from collections import Counter
from pathlib import Path
from types import MappingProxyType

import pytest

from pbem.engine.values import CityRef
from pbem.asciimap import CELL, COLOR_LETTERS, HALF, hex_cell, render_map
from pbem.track_words import track_list
from pbem.engine import track
from pbem.engine.board import (
    BorderData,
    CityData,
    HexData,
    MapData,
    OffboardData,
    TileData,
    TownData,
)
from pbem.engine.game import Game
from pbem.ruleset import load_title
from pbem.importers.e18xx import Renderer, effective_actions, load_record
from tests.records import record_path

GOLDEN = Path(__file__).resolve().parent / "golden"

POINTS = {"start": 27, "or1": 56, "late": 440}
"""Name -> the record action after which the position is taken (``end``: the whole record).
``late`` is OR 7.1, before the last upgrades (from action 495 on the map no longer changes,
so a later point would only repeat the end)."""

ALL_POINTS = ["fresh", "start", "or1", "late", "end"]

WALLS = "|#~^"
_CELL_START = re.compile(r"(?<=[|#~^])([A-Z]{1,2}[0-9]+)(?= |[|#~^]|$)")


# -- positions --------------------------------------------------------------------------------


def _action_number(action_id: object) -> int:
    """``27`` -> 27, ``"26.3"`` (an auto-action of 26) -> 26."""
    return int(str(action_id).split(".")[0])


@pytest.fixture(scope="module")
def recorded() -> dict[str, Game]:
    """The recorded game at each of :data:`POINTS` and at its end."""
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    renderer = Renderer(record)
    games: dict[str, Game] = {}
    pending = sorted(POINTS.items(), key=lambda item: item[1])
    for action in effective_actions(record):
        while pending and _action_number(action["id"]) > pending[0][1]:
            games[pending.pop(0)[0]] = copy.deepcopy(renderer.game)
        ours = renderer.render(action)
        if ours is not None:
            renderer.game.apply(renderer.seat(action), ours)
    assert renderer.game.state.finished
    games["end"] = renderer.game
    return games


def _fresh() -> Game:
    return Game(load_title("1830"), ["A", "B", "C"])


def _game(point: str, recorded: dict[str, Game] | None) -> Game:
    if point == "fresh":
        return _fresh()
    assert recorded is not None
    return recorded[point]


@pytest.fixture(params=ALL_POINTS)
def position(request: pytest.FixtureRequest) -> tuple[str, Game]:
    point: str = request.param
    if point == "fresh":
        return point, _fresh()
    games: dict[str, Game] = request.getfixturevalue("recorded")
    return point, games[point]


# -- reading the drawing back -----------------------------------------------------------------


def _map_part(text: str) -> str:
    """The drawing, without the legend."""
    assert "\nLegend:\n" in text
    return text.split("\nLegend:\n")[0]


def _cells(text: str) -> dict[str, tuple[int, int, list[str]]]:
    """Each hex's cell read back from a drawing: coordinate -> (line of its first text line,
    column of its left wall, its text lines without trailing blank ones). Fails if a hex is
    drawn twice."""
    lines = _map_part(text).splitlines()
    found: dict[str, tuple[int, int, list[str]]] = {}
    for number, line in enumerate(lines):
        for match in _CELL_START.finditer(line):
            wall = match.start() - 1
            cell: list[str] = []
            below = number
            while below < len(lines) and len(lines[below]) > wall:
                text = lines[below][wall + 1:wall + 1 + CELL]
                # A wall, or on a flat map the corner half-way down a wall; not a border line.
                if lines[below][wall] not in WALLS + "+" or re.fullmatch(r"[-#~^+]+", text):
                    break
                cell.append(text.rstrip())
                below += 1
            while cell and not cell[-1]:
                cell.pop()
            assert match.group(1) not in found, f"{match.group(1)} is drawn twice"
            found[match.group(1)] = (number, wall, cell)
    return found


def _logical(cell: list[str]) -> list[str]:
    """A cell's lines with continuation lines (indented) joined to the line before."""
    out: list[str] = []
    for line in cell:
        if line.startswith(" ") and out:
            out[-1] += " " + line.strip()
        else:
            out.append(line)
    return out


def _expected_slots(game: Game, coord: str, city: int) -> list[str]:
    """Tokens, homes held in the city, then a home held on the hex that names no city in the
    first city with a slot left (1830's ERIE on E11) -- in every city with a slot left where
    the title reads such a home as holding the whole hex (1830; not ``home_one_city_left``)
    -- then free slots."""
    short = {c.sym: c.short for c in game.title.corporations}
    by_city = []
    on_hex = [short[c].lower() for c in track.held_on_hex(game, coord)]
    whole_hex = game.title.title_rule(track.HOME_NAMING_NO_CITY) == "whole_hex"
    for index in range(len(track.placed(game, coord).tile.cities)):
        marks = [short[c] for c in track.tokens_in(game, coord, index)]
        marks += [short[c].lower() for c in track.reserved_home(game, coord, index)]
        room = track.city_slots(game, coord, index) - len(marks)
        if whole_hex:
            marks += on_hex[:room]
        else:
            marks, on_hex = marks + on_hex[:room], on_hex[room:]
        by_city.append(marks + ["."] * (track.city_slots(game, coord, index) - len(marks)))
    return by_city[city]


# -- golden maps ------------------------------------------------------------------------------


def _check_golden(name: str, text: str) -> None:
    path = GOLDEN / f"map-1830-{name}.txt"
    if os.environ.get("PBEM_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="ascii")
    assert path.exists(), f"{path} is missing: run with PBEM_UPDATE_GOLDEN=1 to create it"
    assert text == path.read_text(encoding="ascii"), f"{path.name} differs (PBEM_UPDATE_GOLDEN=1 to accept)"


def test_golden_maps(position: tuple[str, Game]) -> None:
    point, game = position
    _check_golden(point, render_map(game) + "\n" + track_list(game))


def test_golden_split_map_of_the_end(recorded: dict[str, Game]) -> None:
    _check_golden("end-80", render_map(recorded["end"], width=80))


def test_the_late_point_differs_from_the_end(recorded: dict[str, Game]) -> None:
    assert render_map(recorded["late"]) != render_map(recorded["end"])


# -- widths and the split ---------------------------------------------------------------------


@pytest.mark.parametrize("width", [132, 100, 80, 60, 40])
def test_every_line_is_ascii_and_fits(position: tuple[str, Game], width: int) -> None:
    _, game = position
    for text in (render_map(game, width=width), track_list(game, width=width)):
        for line in text.splitlines():
            assert line.isascii(), line
            assert len(line) <= width, f"{len(line)} > {width}: {line}"
            assert line == line.rstrip()


def test_the_full_width_map_is_one_part_with_every_hex_once(position: tuple[str, Game]) -> None:
    _, game = position
    text = render_map(game)
    assert "Map, part" not in text
    assert max(len(line) for line in text.splitlines()) <= 132
    assert sorted(_cells(text)) == sorted(game.board.hexes)
    starts = Counter(m.group(1) for m in _CELL_START.finditer(_map_part(text)))
    assert set(starts.values()) == {1}


@pytest.mark.parametrize("width", [80, 60])
def test_a_narrow_map_is_split_and_loses_nothing(position: tuple[str, Game], width: int) -> None:
    _, game = position
    text = render_map(game, width=width)
    chunks = re.split(r"^Map, part (\d+) of (\d+): columns (\d+)-(\d+)\n", _map_part(text), flags=re.MULTILINE)
    assert chunks[0] == ""
    parts = [chunks[i:i + 5] for i in range(1, len(chunks), 5)]
    assert len(parts) >= 2
    seen: Counter[str] = Counter()
    expected_first = 1
    for number, total, first, last, body in parts:
        assert int(total) == len(parts) and int(first) == expected_first
        expected_first = int(last) + 1
        coords = _cells(body + "\nLegend:\n")
        for coord in coords:
            assert int(first) <= int(coord.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")) <= int(last)
        seen.update(coords.keys())
    assert expected_first == 25
    assert sorted(seen) == sorted(game.board.hexes)
    assert set(seen.values()) == {1}, [c for c, n in seen.items() if n != 1]


def test_1830_at_80_columns_takes_two_parts_of_twelve_columns() -> None:
    text = render_map(_fresh(), width=80)
    assert "Map, part 1 of 2: columns 1-12\n" in text
    assert "Map, part 2 of 2: columns 13-24\n" in text


def test_too_narrow_a_width_is_refused() -> None:
    with pytest.raises(ValueError, match="too narrow"):
        render_map(_fresh(), width=12)


# -- every cell against the engine ------------------------------------------------------------


TOKEN_WORD = re.compile(r"^[A-Z&]{3}$")


def test_every_cell_shows_what_the_engine_has(position: tuple[str, Game]) -> None:
    """Each hex's cell, read back from the drawing: coordinate first; the laid tile's colour,
    number and rotation (and no tile number where nothing is laid); each city's revenue with
    its station slots in order (tokens, held homes in lower case, free slots), continuation
    lines included; towns; nothing else but terrain cost and private blocks."""
    _, game = position
    cells = _cells(render_map(game))
    codes = {c.short for c in game.title.corporations}
    for coord in game.board.hexes:
        _, _, cell = cells[coord]
        assert all(len(line) <= CELL for line in cell)
        assert cell == hex_cell(game, coord)
        shown = track.placed(game, coord)
        head = cell[0].split()
        assert head[0] == coord
        words = " ".join(cell).split()
        tiles = [w for w in words if re.fullmatch(r"[ygbGr~]\w+/[0-5]", w)]
        if shown.printed:
            assert tiles == [], coord
        else:
            assert head[1] == f"{COLOR_LETTERS[shown.tile.color]}{shown.tile.name}/{shown.rotation}"
            assert tiles == [head[1]]
        logical = _logical(cell)
        city_lines = [line for line in logical[1:] if re.match(r"^[0-9]+ ", line)]
        assert len(city_lines) == len(shown.tile.cities), coord
        for index, (line, city) in enumerate(zip(city_lines, shown.tile.cities)):
            expected = f"{city.revenue} " + " ".join(_expected_slots(game, coord, index))
            assert line == expected or line.startswith(expected + " "), (coord, line, expected)
            assert re.fullmatch(r"( [a-z][0-9]+| \*[A-Z]+)*", line[len(expected):]), (coord, line)
        tokens = [w for w in words if TOKEN_WORD.match(w) and w in codes]
        expected_tokens = [game.title.corporation(c).short for i in range(len(shown.tile.cities))
                           for c in track.tokens_in(game, coord, i)]
        assert sorted(tokens) == sorted(expected_tokens), coord
        towns = [w for w in words if re.fullmatch(r"t[0-9]+", w)]
        assert towns == [f"t{t.revenue}" for t in shown.tile.towns], coord
        blocker = game.hex_blocker(coord)
        assert (f"*{blocker}" in words) == (blocker is not None), coord
        hex_data = game.board.hexes[coord]
        costs = [w for w in words if re.fullmatch(r"[wm][0-9]+", w)]
        expected_costs = [f"{(hex_data.terrain or '')[:1]}{hex_data.cost}"] if hex_data.cost and shown.printed else []
        assert costs == expected_costs, coord


def test_the_end_shows_the_recorded_position(recorded: dict[str, Game]) -> None:
    cells = {c: lines for c, (_, _, lines) in _cells(render_map(recorded["end"])).items()}
    assert cells["G19"] == ["G19 b62/0", "80 PRR .", "80 NNH", "   NYC"]
    assert cells["E19"] == ["E19 g15/5", "30 NNH", "   NYC"]
    assert cells["H12"] == ["H12 G", "10 PRR"]
    assert cells["F20"] == ["F20 y69/4", "t10 t10"]
    assert cells["A19"] == ["A19 G", "40 cpr"]
    assert cells["F2"] == ["F2 40/70"]
    assert cells["A9"] == ["A9 =A11"]
    assert cells["C7"] == ["C7"]


def test_the_start_shows_held_homes_and_private_blocks(recorded: dict[str, Game]) -> None:
    cells = {c: lines for c, (_, _, lines) in _cells(render_map(recorded["start"])).items()}
    assert cells["I15"] == ["I15 y<B>", "30 B&O", "*BO"]
    assert cells["G19"] == ["G19 y<NY>", "40 nnh", "40 . w80"]
    assert cells["G15"] == ["G15 m120", "*SV"]
    assert cells["E11"] == ["E11 y<OO>", "0 eri", "0 eri"], "no other token in either city (1830's reading)"


# -- legend and borders -----------------------------------------------------------------------


WORD_KINDS = {
    "tile": (r"[ygbG][0-9]+/[0-5]", "g59/2"),
    "printed": (r"[ygbG]?(<[A-Z]+>)?", "y<OO>"),
    "revenue or slot": (r"[0-9]+|\.|[A-Z&]{3}|[a-z&]{3}", "40 PRR ."),
    "town": (r"t[0-9]+", "t10"),
    "off-board": (r"[0-9]+(/[0-9]+)+|=[A-Z]+[0-9]+", "30/50"),
    "cost": (r"[wm][0-9]+", "w80 m120"),
    "block": (r"\*[A-Z]+", "*SV"),
}


def test_the_legend_explains_every_symbol_on_the_map(position: tuple[str, Game]) -> None:
    _, game = position
    text = render_map(game)
    legend = text.split("\nLegend:\n")[1]
    for pattern, key in WORD_KINDS.values():
        assert f"  {key} " in legend
    for coord, (_, _, cell) in _cells(text).items():
        for word in " ".join(cell).split()[1:]:
            assert any(re.fullmatch(p, word) for p, _ in WORD_KINDS.values()), (coord, word)
    assert "#### " in legend and "no track may cross" in legend
    assert "w water $80, m mountain $120" in legend
    assert "NNH New York, New Haven & Hartford Railroad" in " ".join(legend.split())


def _segment(text: str, coord: str, edge: int) -> str:
    """The drawn side ``edge`` (0 SW, 2 NW, 3 NE, 5 SE) of a hex on a pointy map."""
    lines = _map_part(text).splitlines()
    first, wall, _ = _cells(text)[coord]
    height = 0
    while lines[first + height][wall] in WALLS:
        height += 1
    line = lines[first - 1] if edge in (2, 3) else lines[first + height]
    start = wall + 1 if edge in (0, 2) else wall + HALF + 1
    return line[start:start + HALF - 1]


@pytest.mark.parametrize("width", [132, 80])
def test_impassable_sides_are_drawn(width: int) -> None:
    text = render_map(_fresh(), width=width)
    assert _segment(text, "D12", 3) == "####"  # D12 | C13
    assert _segment(text, "C13", 0) == "####"
    assert _segment(text, "D12", 2) == "####"  # D12 | C11
    assert _segment(text, "E7", 5) == "####"  # E7 | F8
    assert _segment(text, "F8", 2) == "####"
    assert _segment(text, "B16", 5) == "####"  # B16 | C17
    assert _segment(text, "D12", 0) == "----"
    assert _segment(text, "E7", 0) == "----"
    # Four sides; at 80 columns D12 | C13 lies on the cut and is drawn in both parts.
    assert _map_part(text).count("####") == (4 if width == 132 else 5)


# -- a flat map -------------------------------------------------------------------------------


def _flat_game() -> Game:
    """A small flat-layout map built by hand: columns A-F, rows 1-8, with a city, a town, a
    mountain, an off-board area, an impassable side and a tile laid."""
    hexes: dict[str, HexData] = {}
    for x, letter in enumerate("ABCDEF"):
        for y in range(x % 2, 8, 2):
            coord = f"{letter}{y + 1}"
            hexes[coord] = HexData(coord=coord, tile=TileData(name="blank", color="white"))
    hexes["B4"] = HexData(coord="B4", name="Springfield",
                          tile=TileData(name="B4", color="white", cities=(CityData(0),)))
    hexes["D4"] = HexData(coord="D4", tile=TileData(name="D4", color="white", towns=(TownData(0),)))
    hexes["C3"] = HexData(coord="C3", tile=TileData(name="blank", color="white"), cost=120,
                          terrain="mountain", borders=(BorderData(edge=3, kind="impassable"),))
    hexes["F6"] = HexData(coord="F6", name="West", tile=TileData(
        name="F6", color="red", offboard=OffboardData(MappingProxyType({"yellow": 30, "brown": 60})),
        paths=(("e1", "o"), ("e2", "o"))))
    game = _fresh()
    game.board = MapData(layout="flat", hexes=MappingProxyType(hexes), tile_counts=MappingProxyType({}))
    game.state.tiles = {"B4": ("57", 1)}
    game.state.tokens = {CityRef("B4", 0): ["PRR"]}
    return game


@pytest.mark.parametrize("width", [132, 80, 40, 30])
def test_a_flat_map_shows_every_hex_once_and_fits(width: int) -> None:
    game = _flat_game()
    text = render_map(game, width=width)
    assert all(len(line) <= width and line.isascii() for line in text.splitlines())
    found: Counter[str] = Counter()
    for body in re.split(r"^Map, part .*\n", _map_part(text), flags=re.MULTILINE):
        found.update(_cells(body + "\nLegend:\n").keys())
    assert sorted(found) == sorted(game.board.hexes)
    assert set(found.values()) == {1}
    assert ("Map, part" in text) == (width < 65)
    cells = {c: lines for c, (_, _, lines) in _cells(render_map(game)).items()}
    assert cells["B4"] == ["B4 y57/1", "20 PRR"]
    assert cells["C3"] == ["C3 m120"]
    assert cells["D4"] == ["D4", "t0"]
    assert cells["F6"] == ["F6 30/60"]


def test_a_flat_map_draws_columns_shifted_by_half_a_hex() -> None:
    text = render_map(_flat_game())
    assert text.splitlines()[0].split() == list("ABCDEF")
    cells = _cells(text)
    line_a1, wall_a1, _ = cells["A1"]
    line_b2, wall_b2, _ = cells["B2"]
    line_a3, wall_a3, _ = cells["A3"]
    assert wall_b2 == wall_a1 + CELL + 1 and wall_a3 == wall_a1
    assert line_b2 - line_a1 == 2 and line_a3 - line_a1 == 4
    lines = text.splitlines()
    first, wall, _ = cells["C3"]
    assert lines[first - 1][wall + 1:wall + 1 + CELL] == "#" * CELL  # C3 | C1 impassable
    assert lines[first + 3][wall + 1:wall + 1 + CELL] == "-" * CELL


def test_the_track_list_of_a_flat_map_names_flat_directions() -> None:
    lines = track_list(_flat_game()).splitlines()
    assert "B4 Springfield  #57/1 yellow  city 20 [PRR] -> 1/SW A5, 4/NE C3" in lines
    assert "F6 West  printed red  off-board 30/60 -> 1/SW E7, 2/NW E5" in lines
    assert not any(line.startswith(("C3", "D4")) for line in lines)


# -- the track list ---------------------------------------------------------------------------


def test_the_track_list_has_one_entry_per_hex_with_track(position: tuple[str, Game]) -> None:
    _, game = position
    text = track_list(game)
    entries = [line for line in text.splitlines()[1:] if not line.startswith(" ")]
    listed = [line.split()[0] for line in entries]
    expected = [c for c in game.board.hexes
                if not track.placed(game, c).printed or track.placed(game, c).tile.paths]
    assert sorted(listed) == sorted(expected)
    for line in entries:
        coord = line.split()[0]
        shown = track.placed(game, coord)
        if not shown.printed:
            assert f"  #{shown.tile.name}/{shown.rotation} {shown.tile.color} " in line
        else:
            assert f"  printed {shown.tile.color}" in line
    for key, corps in game.state.tokens.items():
        coord = key.coord
        for corp in corps:
            assert game.title.corporation(corp).short in _entry(text, coord)


def _entry(text: str, coord: str) -> str:
    """One hex's entry of a track list, continuation lines joined."""
    joined = re.sub(r"\n    ", " ", text)
    return next(line for line in joined.splitlines() if line.split()[0] == coord)


def test_the_track_list_says_what_joins_what(recorded: dict[str, Game]) -> None:
    text = track_list(recorded["end"])
    assert _entry(text, "G19") == (
        "G19 New York & Newark  #62/0 brown label NY  city 80 [PRR .] -> 0/SW H18, 1/W G17; "
        "city 80 [NNH NYC] -> 2/NW F18, 3/NE F20")
    assert _entry(text, "H12") == (
        "H12 Altoona  printed gray  city 10 [PRR] -> 1/W H10, 4/E H14; track 1/W H10 - 4/E H14")
    assert _entry(text, "F20") == (
        "F20 New Haven & Hartford  #69/4 yellow  town 10 -> 1/W F18, 4/E F22; "
        "town 10 -> 0/SW G19, 2/NW E19")
    assert _entry(text, "D12") == "D12  #26/1 green  track 0/SW E11 - 1/W D10; track 1/W D10 - 4/E D14"
    assert "C7" not in [line.split()[0] for line in text.splitlines()]
    start = track_list(recorded["start"])
    assert _entry(start, "I15") == (
        "I15 Baltimore  printed yellow label B  city 30 [B&O] -> 0/SW J14, 4/E I17; blocked by BO")


def test_rows_before_a_and_columns_before_1_are_drawn() -> None:
    """A map reaching past row A and column 1 (18xx.games' ``a2``, ``B0``, ``A-1``) is drawn
    with those rows and columns labelled, every hex in its cell."""
    coords = ["b1", "a2", "A1", "A-1", "B0"]
    hexes = {c: HexData(coord=c, tile=TileData(name="blank", color="white")) for c in coords}
    game = _fresh()
    game.board = MapData(layout="pointy", hexes=MappingProxyType(hexes), tile_counts=MappingProxyType({}))
    text = render_map(game, width=80)
    lines = text.splitlines()
    for coord in coords:
        assert sum(line.count(f"|{coord} ") + line.count(f"|{coord}|") for line in lines) == 1, coord
    assert any(line.startswith("a ") for line in lines) and any(line.startswith("b ") for line in lines)
    assert re.search(r"\s-1\s+0\s+1\s+2", lines[0])


def test_a_token_a_title_puts_on_a_town_is_shown_in_the_cell_and_both_track_lists() -> None:
    from pbem.asciimap import town_tokens
    from pbem.track_words import track_summary

    game = Game(load_title("1830"), ["A", "B", "C"])
    game.state.tiles["G7"] = ("3", 0)
    assert "PRR" not in "\n".join(hex_cell(game, "G7"))
    game.state.tokens[track.city_key("G7", 0)] = ["PRR"]  # a title's own rule: no city on G7
    assert town_tokens(game, "G7", 0) == ["PRR"]
    assert "t10 PRR" in " ".join(hex_cell(game, "G7"))
    assert "G7 Akron & Canton: tile 3 r0, town $10 PRR" in "\n".join(track_summary(game))
    assert "town 10 [PRR]" in track_list(game)
    game.state.tokens[track.city_key("H12", 0)] = ["B&O"]
    assert town_tokens(game, "H12", 0) == [], "a city's token is not a town's"


def test_a_slot_a_title_keeps_by_its_own_rule_is_not_shown_free() -> None:
    import dataclasses

    from pbem.track_words import track_summary
    from pbem.engine.hooks import TitleHooks
    from pbem.engine.track_rules import TrackRules

    class Keeping(TrackRules):
        def kept_slots(self, game: Game, coord: str, city: int) -> tuple[str, ...]:
            return ("B&O",) if (coord, city) == ("G7", 0) else ()

    plain = Game(load_title("1830"), ["A", "B", "C"])
    game = Game(dataclasses.replace(load_title("1830"), hooks=TitleHooks(track=Keeping())), ["A", "B", "C"])
    for each in (plain, game):
        each.state.tiles["G7"] = ("57", 0)  # a city tile on a town hex, enough for the display
    assert "20 ." in " ".join(hex_cell(plain, "G7"))
    assert "20 b&o" in " ".join(hex_cell(game, "G7"))
    assert "[b&o]" in track_list(game) and "[.]" not in track_list(game).split("G7")[1].split("\n")[0]
    assert "city $20 (kept for B&O)" in "\n".join(track_summary(game))
    game.state.tokens[CityRef("G7", 0)] = ["PRR"]
    assert "20 PRR" in " ".join(hex_cell(game, "G7")) and "b&o" not in " ".join(hex_cell(game, "G7"))
