"""The ASCII map and the track in words agree (one source, :func:`pbem.asciimap.stations`):
every station token and every slot held that one shows on a hex, the other shows there too.

Both outputs are read back as a player reads them: the map's cell of the hex (codes in
capitals: tokens; in lower case: slots held), the report's track in words
(:func:`pbem.track_words.track_summary`: symbols, ``(held for x)``, ``(kept for x)``) and
the full track list (:func:`pbem.track_words.track_list`: codes in brackets). Built positions
for London (1825, 1829), the Historical Order Start IC's Chicago token, Kansas City's slot kept
for the Katy and ERIE's home on a hex of two; then every hex of recorded games of 1830, 1870
and 1825 at points through them and at their end, and of seeded random 1829 games (no 1829
record exists).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from pbem.asciimap import CELL, hex_cell, render_map
from pbem.engine.game import Game
from pbem.engine.values import CityRef
from pbem.ruleset import load_title
from pbem.track_words import track_list, track_summary
from tests.records import record_path

TOKEN, HELD = "token", "held"
Marks = Counter[tuple[str, str]]
"""(corporation symbol, TOKEN or HELD) -> how many."""


# -- reading the outputs back ------------------------------------------------------------------


def _codes(game: Game) -> tuple[dict[str, str], dict[str, str]]:
    """The map's codes read back: capitals -> symbol, lower case -> symbol."""
    shorts = {c.short: c.sym for c in game.title.corporations}
    assert len(shorts) == len(game.title.corporations), "the map's codes name one corporation each"
    return shorts, {short.lower(): sym for short, sym in shorts.items()}


def _read_codes(game: Game, words: list[str], *, strict: bool) -> Marks:
    tokens, held = _codes(game)
    found: Marks = Counter()
    for word in words:
        if word in tokens:
            found[(tokens[word], TOKEN)] += 1
        elif word in held:
            found[(held[word], HELD)] += 1
        else:
            assert not strict or word == ".", f"{word!r} is no station mark"
    return found


WALLS = "|#~^"
_CELL_START = re.compile(r"(?<=[|#~^])([A-Za-z]{1,2}-?[0-9]+)(?= |[|#~^]|$)")


def map_cells(game: Game, width: int = 132) -> dict[str, list[str]]:
    """Every hex's cell read back from the drawing (the parts of a split map, no legend):
    coordinate -> the cell's text lines. A cell starts after a wall with the coordinate of a
    hex of the board and runs down to the border below it."""
    text = render_map(game, width=width).split("\nLegend:\n")[0]
    lines = text.splitlines()
    cells: dict[str, list[str]] = {}
    for number, line in enumerate(lines):
        for match in _CELL_START.finditer(line):
            coord = match.group(1)
            if coord not in game.board.hexes:
                continue
            wall, cell, below = match.start() - 1, [], number
            while below < len(lines) and len(lines[below]) > wall:
                body = lines[below][wall + 1:wall + 1 + CELL]
                if lines[below][wall] not in WALLS + "+" or re.fullmatch(r"[-#~^+]+", body):
                    break
                cell.append(body.rstrip())
                below += 1
            assert coord not in cells, f"{coord} is drawn twice"
            cells[coord] = [c for c in cell if c]
    assert sorted(cells) == sorted(game.board.hexes)
    return cells


def map_marks(game: Game, cell: list[str]) -> Marks:
    """The tokens and held slots a cell shows (its first word is the coordinate)."""
    return _read_codes(game, " ".join(cell).split()[1:], strict=False)


def summary_entries(game: Game, width: int = 132) -> dict[str, list[str]]:
    """The report's track in words read back: coordinate -> the entry's stops
    (``["city $20 PRR (held for NYNH)", "town $10"]``)."""
    lines = track_summary(game, width=width)
    if not lines:
        return {}
    text = " ".join(line.strip() for line in lines[1:])
    entries: dict[str, list[str]] = {}
    for entry in text.split("; "):
        head, _, body = entry.partition(": ")
        parts = body.rstrip(";").split(", ")
        assert parts[0] == "printed" or parts[0].startswith("tile "), entry
        assert head.split()[0] not in entries, f"{head} twice"
        entries[head.split()[0]] = parts[1:]
    return entries


def summary_marks(game: Game, stops: list[str]) -> Marks:
    syms = {c.sym for c in game.title.corporations}
    found: Marks = Counter()
    for stop in stops:
        assert stop.startswith(("city ", "town ", "off-board ")), stop
        for corp in re.findall(r"\((?:held|kept) for ([^)]+)\)", stop):
            found[(corp, HELD)] += 1
        for word in re.sub(r"\([^)]*\)", "", stop).split()[2:]:
            assert word in syms or word == "free", f"{word!r} in {stop!r}"
            if word in syms:
                found[(word, TOKEN)] += 1
    return found


def list_stops(game: Game, width: int = 132) -> dict[str, list[str]]:
    """The full track list read back: coordinate -> each stop's text (``city 80 [PRR .]``),
    without where its track leads."""
    text = track_list(game, width=width)
    joined = re.sub(r"\n    ", " ", text).splitlines()[1:]
    out: dict[str, list[str]] = {}
    for entry in joined:
        parts = entry.split("; ")
        stops = [p.split(" -> ")[0] for p in parts]
        stops[0] = re.sub(r"^.*?  .*?  ", "", stops[0])  # the coordinate, name and tile
        out[entry.split()[0]] = [s for s in stops if s.startswith(("city ", "town ", "off-board "))]
    return out


def list_marks(game: Game, stops: list[str]) -> Marks:
    return sum((_read_codes(game, group.split(), strict=True)
                for stop in stops for group in re.findall(r"\[([^\]]*)\]", stop)), Counter())


def engine_tokens(game: Game, coord: str) -> Marks:
    return Counter((corp, TOKEN) for ref, corps in game.state.tokens.items() if ref.coord == coord for corp in corps)


def shown(game: Game, coord: str) -> tuple[Marks, Marks, Marks | None]:
    """What the map, the report's track in words and the full track list (None: no entry)
    show on ``coord``."""
    cells, summary, full = map_cells(game), summary_entries(game), list_stops(game)
    on_list = list_marks(game, full[coord]) if coord in full else None
    return map_marks(game, cells[coord]), summary_marks(game, summary.get(coord, [])), on_list


def check_every_hex(game: Game, label: str) -> int:
    """The map and the track in words show the same tokens and held slots on every hex, the
    tokens being the engine's; the full track list the same on each hex it lists. Returns how
    many hexes show something."""
    cells, summary, full = map_cells(game), summary_entries(game), list_stops(game)
    busy = 0
    for coord in game.board.hexes:
        on_map = map_marks(game, cells[coord])
        in_words = summary_marks(game, summary.get(coord, []))
        assert on_map == in_words, f"{label} {coord}: map {dict(on_map)}, track in words {dict(in_words)}"
        assert Counter({k: n for k, n in on_map.items() if k[1] == TOKEN}) == engine_tokens(game, coord), \
            f"{label} {coord}: the map shows {dict(on_map)}, the tokens are {dict(engine_tokens(game, coord))}"
        if coord in full:
            assert list_marks(game, full[coord]) == on_map, f"{label} {coord}: track list {full[coord]}"
        busy += bool(on_map)
    return busy


# -- London ------------------------------------------------------------------------------------


def _city_lines(cell: list[str]) -> list[list[str]]:
    """A cell's cities, one list of marks each (a city's line starts with its revenue; its
    continuation lines are indented)."""
    cities: list[list[str]] = []
    for line in cell[1:]:
        words = line.split()
        if line[:1].isdigit():
            cities.append(words[1:])
        elif line.startswith(" ") and cities:
            cities[-1] += words
    return [[w for w in city if not re.fullmatch(r"[a-z]\d+", w)] for city in cities]  # a cost is no mark


@pytest.mark.parametrize("title, players, cities", [
    ("1825", 3, {"LSWR": 0, "GER": 4}),
    ("1829", 4, {"LSWR": 0, "GER": 2}),
])
def test_londons_slots_held_for_homes_are_held_on_the_map_and_in_both_track_lists(
        title: str, players: int, cities: dict[str, int]) -> None:
    game = Game(load_title(title), [f"P{i}" for i in range(1, players + 1)])
    london = game.board.hexes["V20"]
    assert london.name == "London"
    count = len(london.tile.cities)
    on_map, in_words, on_list = shown(game, "V20")
    assert on_map == in_words == on_list == Counter({(corp, HELD): 1 for corp in cities})
    expected = [[game.title.corporation(c).short.lower() for c, i in cities.items() if i == city] or ["."]
                for city in range(count)]
    assert _city_lines(hex_cell(game, "V20")) == expected
    stops = summary_entries(game)["V20"]
    assert [s.split()[2:] for s in stops] == [
        ["(held", "for", f"{c})"] if c else ["free"]
        for c in (next((c for c, i in cities.items() if i == city), None) for city in range(count))]
    assert [re.findall(r"\[(.*)\]", s)[0].split() for s in list_stops(game)["V20"]] == expected

    placed, waiting = sorted(cities)
    game.state.tokens[CityRef("V20", cities[placed])] = [placed]
    on_map, in_words, on_list = shown(game, "V20")
    assert on_map == in_words == on_list == Counter({(placed, TOKEN): 1, (waiting, HELD): 1})
    assert f"{placed} (held" not in " ".join(summary_entries(game)["V20"])
    assert check_every_hex(game, title) > 0


def test_londons_slot_held_for_a_home_is_not_free_for_a_token_and_the_map_says_so() -> None:
    """What is shown held is what the token check holds: the 1829 GER's city of London takes
    no other token while the GER has not placed its own."""
    from pbem.engine import track

    game = Game(load_title("1829"), ["A", "B", "C", "D"])
    assert track.free_slots(game, "V20", 2, "LSWR") == 0 and track.free_slots(game, "V20", 2, "GER") == 1
    assert _city_lines(hex_cell(game, "V20"))[2] == ["ger"]
    assert track.free_slots(game, "V20", 1, "LSWR") == 1 and _city_lines(hex_cell(game, "V20"))[1] == ["."]


# -- 1870: the IC's Chicago, the Katy's Kansas City --------------------------------------------


def test_the_ics_chicago_token_is_on_the_map_and_in_both_track_lists() -> None:
    from tests.test_1870_illinois import VARIANT, ic_turn

    before = Game(load_title("1870", VARIANT), ["A", "B", "C", "D"])
    assert shown(before, "A22") == (Counter(), Counter(), Counter()), "nothing on Chicago before the IC runs"
    assert shown(before, "K16")[:2] == (Counter({("IC", HELD): 1}),) * 2

    game = ic_turn()
    assert CityRef("A22", 0) in game.state.tokens and game.state.tokens[CityRef("A22", 0)] == ["IC"]
    for coord in ("A22", "K16"):
        on_map, in_words, on_list = shown(game, coord)
        assert on_map == in_words == Counter({("IC", TOKEN): 1}), coord
        assert on_list in (on_map, None), coord
    assert "ICR" in hex_cell(game, "A22")
    assert "A22 Chicago: printed, off-board $40/$50/$60 IC" in " ".join(track_summary(game))
    assert "off-board 40/50/60 [ICR]" in list_stops(game)["A22"]
    assert check_every_hex(game, "1870 HOS IC") > 0


def test_kansas_citys_slot_kept_for_the_katy_is_held_in_the_track_in_words_too() -> None:
    from tests.test_1870_katy import kansas_city

    game = kansas_city()
    on_map, in_words, on_list = shown(game, "B11")
    assert on_map == in_words == on_list == Counter({("MKT", HELD): 1})
    assert "B11 Kansas City: tile 57 r1, city $20 (kept for MKT)" in " ".join(track_summary(game))
    assert check_every_hex(game, "1870 Katy") > 0


def test_a_home_on_a_hex_of_two_is_held_alike_on_the_map_and_in_words() -> None:
    game = Game(load_title("1830"), ["A", "B", "C"])
    on_map, in_words, _ = shown(game, "E11")
    assert on_map == in_words == Counter({("ERIE", HELD): 2}), "1830's reading: no other token in either city"
    game = Game(load_title("1830", ("home_one_city_left",)), ["A", "B", "C"])
    on_map, in_words, _ = shown(game, "E11")
    assert on_map == in_words == Counter({("ERIE", HELD): 1}), "the variant: one slot, the other city free"
    game = Game(load_title("1825", ("unit_1", "r1")), ["A", "B", "C", "D"])
    game.state.tiles["V8"] = ("52", 1)
    game.state.tokens[CityRef("V8", 0)] = ["GWR"]
    on_map, in_words, on_list = shown(game, "V8")
    assert on_map == in_words == on_list == Counter({("GWR", TOKEN): 1, ("TV", HELD): 1})


# -- every hex of recorded and random games -----------------------------------------------------


RECORDS = [
    ("1830", "1830_game_end_bank.json"),
    ("1830", "26855.json"),
    ("1870", "1870_game_end_bank.json"),
    ("1870", "34110.json"),
    ("1825", "1825_game_end_bank.json"),
]
EVERY = 120
"""Record actions between two positions checked (and the end)."""


@pytest.mark.parametrize("title, name", RECORDS)
def test_every_hex_of_a_recorded_game_agrees_through_it_and_at_its_end(title: str, name: str) -> None:
    from pbem.importers.e18xx import load_record
    from pbem.importers.replay import replay_record

    record = load_record(record_path(title, name))
    checked: list[str] = []
    busy: list[int] = []
    last: dict[str, Any] = {}

    def after(action: dict[str, Any], game: Game) -> None:
        last["game"] = game
        number = int(str(action["id"]).split(".")[0])
        if number // EVERY > len(checked):
            checked.append(str(action["id"]))
            busy.append(check_every_hex(game, f"{name} after {action['id']}"))

    outcome = replay_record(record, after_action=after)
    assert outcome.error is None, outcome.error
    busy.append(check_every_hex(last["game"], f"{name} at the end"))
    assert len(checked) >= min(3, len(record["actions"]) // EVERY - 1) and all(busy), (checked, busy)


@pytest.mark.parametrize("title, variants, seed, stop", [
    ("1829", ("south",), 1, None),
    ("1829", (), 1, 600),
    ("1870", ("historical_order_start",), 2, 600),
])
def test_every_hex_of_a_random_game_agrees(title: str, variants: tuple[str, ...], seed: int, stop: int | None) -> None:
    """1829, of which no record exists: a seeded random game on the South board at its end,
    one on the combined boards part-way; a random 1870 game with the Historical Order Start, its IC in Chicago."""
    from pbem.randomplay import Checks, Setup, play_game

    off = Checks(offers_every=0, reports_every=0, lays_sampled=0, wrong_lines=0, replay=False, invariants=False)
    game = play_game(Setup(title, variants, 4), seed, off, stop_before=stop).game
    assert any(game.state.tokens.values())
    if title == "1870":
        assert game.state.tokens.get(CityRef("A22", 0)) == ["IC"], "the position has the IC in Chicago"
    assert check_every_hex(game, f"{title} {variants}") > 0
