"""The board as a picture (:mod:`pbem.picture`): the structure of the SVG, not its pixels.

On built positions of every title (1825 with Unit 3 alone and with Units 1-3 and kits, 1829's
north, south and combined boards, 1870 with the Historical Order Start, Dixon's rules and
small cities) and on recorded games' final positions: the SVG is XML with a hex group for
every hex, a track path for every path of every tile showing, a token for every station
token of the state and a held ring for every slot the ASCII map shows held, blocked hexes
and gating pieces marked, every marked hex side drawn; the PNG is a PNG of the mail's width
and at most 200 KB; the picture and the ASCII map place every hex alike, with the one
geometry (:mod:`pbem.picture.geometry`) that both import.
"""

from __future__ import annotations

import ast
import math
import re
import struct
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

import pbem.asciimap
from pbem.asciimap import HALF, render_map, stations
from pbem.engine import track
from pbem.engine.abilities import BlocksHexes
from pbem.engine.board import EDGE_DELTAS, MapData
from pbem.engine.game import Game
from pbem.engine.values import CityRef, Owner
from pbem.importers.e18xx import Renderer, effective_actions, load_record
from pbem.picture import board_svg as board_module
from pbem.picture import geometry
from pbem.picture.board_svg import board_svg
from pbem.picture.raster import MAIL_WIDTH, svg_to_png
from pbem.picture.tile_svg import tile_picture, tile_sheet_svg
from pbem.ruleset import load_title
from tests.records import record_path

SVG = "{http://www.w3.org/2000/svg}"
PLAYERS = ["A", "B", "C", "D", "E"]
REPO = Path(__file__).resolve().parent.parent

BUILT = [
    ("1830", (), 3),
    ("1870", (), 4),
    ("1870", ("historical_order_start",), 4),
    ("1870", ("dixon",), 4),
    ("1870", ("small_cities",), 4),
    ("1825", ("unit_3",), 2),
    ("1825", ("unit_1", "r1"), 3),
    ("1825", ("unit_123", "r1", "r2", "r3", "k5", "k7"), 5),
    ("1825", ("unit_12", "k1", "k3", "k5", "k7"), 4),
    ("1829", ("north",), 4),
    ("1829", ("south",), 4),
    ("1829", (), 5),
]

RECORDS = [
    ("1830", "1830_game_end_bank.json"),
    ("1830", "26855.json"),
    ("1870", "1870_game_end_bank.json"),
    ("1870", "mississippi_river_madness_1644327587.json"),
    ("1825", "1825_game_end_bank.json"),
]


# -- positions --------------------------------------------------------------------------------


def built(title: str, variants: tuple[str, ...], players: int) -> Game:
    """A fresh game with something of everything on its board: tiles of every colour on the
    first plain hexes (each rotation in turn), a token of a corporation in each city of the
    first city tiles, a private company owned by a player (its blocks), and each
    corporation's gating piece on its home (1829's survey parties)."""
    game = Game(load_title(title, variants), PLAYERS[:players])
    state = game.state
    plain = [c for c, h in game.board.hexes.items() if h.tile.color == "white" and not h.tile.stop_ids()]
    names = [n for n in game.board.tile_counts if n in game.tiles]
    for index, (coord, name) in enumerate(zip(plain, names)):
        state.tiles[coord] = (name, index % 6)
    corps = [c.sym for c in game.title.corporations]
    cities = [c for c, h in game.board.hexes.items() if h.tile.cities and h.tile.offboard is None]
    for index, coord in enumerate(cities[:6]):
        state.tokens[CityRef(coord, 0)] = [corps[index % len(corps)]]
    blocker = next((c.sym for c in game.title.companies if c.ability(BlocksHexes) is not None), None)
    if blocker is not None:
        state.companies[blocker].owner = Owner.player(PLAYERS[0])
    if game.title.settings.gating_pieces is not None:
        for corp in game.title.corporations[:3]:
            state.map_pieces[corp.sym] = [corp.home]
    return game


def replayed(title: str, name: str) -> Game:
    record = load_record(record_path(title, name))
    renderer = Renderer(record)
    for action in effective_actions(record):
        if action["type"] == "end_game":  # ended by the players: the board as it was
            break
        ours = renderer.render(action)
        if ours is not None:
            renderer.game.apply(renderer.seat(action), ours)
    return renderer.game


@pytest.fixture(scope="module")
def finals() -> dict[str, Game]:
    """The recorded games at their ends, by file name."""
    return {name: replayed(title, name) for title, name in RECORDS}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def elements(root: ET.Element, tag: str, css: str) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}{tag}") if e.get("class") == css]


# -- what the SVG holds -----------------------------------------------------------------------


def check_board(game: Game) -> ET.Element:
    """Every structural promise of :func:`board_svg` for ``game`` (module text)."""
    root = parse(board_svg(game))
    board = game.board
    hexes = elements(root, "g", "hex")
    assert sorted(g.get("data-hex") or "" for g in hexes) == sorted(board.hexes)

    paths = Counter(p.get("data-hex") for p in elements(root, "path", "track"))
    for coord in board.hexes:
        shown = track.placed(game, coord)
        assert paths[coord] == len(shown.tile.paths), (coord, shown.tile.name)

    tokens = Counter((g.get("data-corp"), g.get("data-hex")) for g in elements(root, "g", "token"))
    expected = Counter((corp, ref.coord) for ref, corps in game.state.tokens.items() for corp in corps)
    assert tokens == expected

    held = Counter((g.get("data-corp"), g.get("data-hex"), g.get("data-why")) for g in elements(root, "g", "held"))
    shown_held = Counter((corp, coord, why) for coord in board.hexes for found in stations(game, coord).values()
                         for corp, why in found.held)
    assert held == shown_held

    blocked = {(g.get("data-hex"), g.get("data-company")) for g in elements(root, "g", "blocker")}
    assert blocked == {(c, game.hex_blocker(c)) for c in board.hexes if game.hex_blocker(c) is not None}

    pieces = Counter((g.get("data-corp"), g.get("data-hex")) for g in elements(root, "g", "piece"))
    assert pieces == Counter((corp, h) for corp, hexes in game.state.map_pieces.items() for h in hexes)

    drawn = {(e.get("data-hex"), int(e.get("data-edge") or -1)): e.get("data-kind")
             for e in elements(root, "line", "border")}
    closed = set(game.title.presentation.closed_sides(game))
    for coord, hex_data in board.hexes.items():
        for border in hex_data.borders:
            if border.kind is not None:
                assert _side_kind(board, drawn, coord, border.edge) == border.kind, (coord, border.edge)
    for coord, edge in closed:
        assert _side_kind(board, drawn, coord, edge) == "impassable"
    rivers = Counter(p.get("data-hex") for p in elements(root, "path", "river"))
    assert rivers == Counter(line.coord for line in game.title.presentation.map_lines(game))
    return root


def _side_kind(board: MapData, drawn: dict[tuple[str | None, int], str | None], coord: str, edge: int) -> str | None:
    """How a side is drawn, whichever of its two hexes it was drawn from."""
    if (coord, edge) in drawn:
        return drawn[(coord, edge)]
    other = board.neighbor(coord, edge)
    return drawn.get((other, (edge + 3) % 6))


@pytest.mark.parametrize(("title", "variants", "players"), BUILT)
def test_a_built_position_of_every_title_is_drawn_whole(title: str, variants: tuple[str, ...], players: int) -> None:
    game = built(title, variants, players)
    root = check_board(game)
    assert elements(root, "g", "token"), "the built position has station tokens"
    if game.title.settings.gating_pieces is not None:
        assert elements(root, "g", "piece")
    if any(c.ability(BlocksHexes) for c in game.title.companies):
        assert elements(root, "g", "blocker")


@pytest.mark.parametrize(("title", "name"), RECORDS)
def test_the_final_position_of_every_recorded_game_is_drawn_whole(finals: dict[str, Game], title: str,
                                                                   name: str) -> None:
    record_path(title, name)
    game = finals[name]
    root = check_board(game)
    assert len(elements(root, "g", "token")) == sum(len(c) for c in game.state.tokens.values()) > 0


def test_the_1870_rivers_and_the_closed_ohio_are_drawn() -> None:
    plain = check_board(Game(load_title("1870"), PLAYERS[:4]))
    assert len(elements(plain, "path", "river")) == 16  # the Mississippi's hexes
    historical = check_board(Game(load_title("1870", ("historical_order_start",)), PLAYERS[:4]))
    rivers = {p.get("data-hex") for p in elements(historical, "path", "river")}
    assert {"E20", "F19"} <= rivers
    closed = {(e.get("data-hex"), e.get("data-edge")) for e in elements(historical, "line", "border")
              if e.get("data-kind") == "impassable"}
    assert closed & {("F19", "2"), ("E18", "5")}, "the Ohio's side is closed while the Bridge Company is unsold"
    e20 = next(g for g in elements(historical, "g", "hex") if g.get("data-hex") == "E20")
    assert len([e for e in e20.iter(f"{SVG}circle") if e.get("class") == "town"]) == 2  # Cairo and Paducah


def test_a_held_home_is_a_ring_with_the_name_in_lower_case() -> None:
    game = Game(load_title("1830"), PLAYERS[:3])
    root = parse(board_svg(game))
    held = [g for g in elements(root, "g", "held") if g.get("data-corp") == "PRR"]
    assert [g.get("data-hex") for g in held] == ["H12"]
    assert "".join(held[0].itertext()) == "prr"


# -- the PNG ----------------------------------------------------------------------------------


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) read from the PNG's IHDR."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


@pytest.mark.parametrize("name", ["1830_game_end_bank.json", "1870_game_end_bank.json", "1825_game_end_bank.json"])
def test_the_mail_png_is_a_png_of_the_mail_width_and_small(finals: dict[str, Game], name: str) -> None:
    png = svg_to_png(board_svg(finals[name]), width=MAIL_WIDTH)
    width, height = png_size(png)
    assert width == MAIL_WIDTH and height > MAIL_WIDTH // 2
    assert len(png) <= 200 * 1024


def test_tiles_alone_and_in_a_sheet() -> None:
    tiles = load_title("1870").tiles
    alone = parse(tile_picture(tiles["59"], 2, 40.0))
    assert alone.tag == f"{SVG}svg" and len(elements(alone, "path", "track")) == len(tiles["59"].paths)
    chosen = [(tiles[n], i + 1) for i, n in enumerate(["1", "7", "14", "55", "63", "171K"])]
    sheet = tile_sheet_svg(chosen)
    root = parse(sheet)
    assert len(elements(root, "path", "track")) == sum(len(t.paths) for t, _ in chosen)
    assert [e.text for e in elements(root, "text", "count")] == [f"#{t.name} ×{i}" for t, i in chosen]
    assert png_size(svg_to_png(sheet))[0] > 0


# -- one geometry -----------------------------------------------------------------------------


def test_both_renderers_import_the_one_geometry() -> None:
    assert pbem.asciimap.hex_places is geometry.hex_places is board_module.hex_places
    assert pbem.asciimap.EDGE_NAMES is geometry.EDGE_NAMES
    for module in ("pbem/asciimap.py", "pbem/picture/board_svg.py"):
        tree = ast.parse((REPO / module).read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "pbem.picture.geometry" in imported, module
    names = {node.name for node in ast.walk(ast.parse((REPO / "pbem/asciimap.py").read_text(encoding="utf-8")))
             if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert not names & {"_xy", "_Place", "hex_places", "_row_label", "_col_label", "_coord_key"}


def test_the_edge_names_are_read_off_the_neighbour_rule() -> None:
    assert geometry.EDGE_NAMES["pointy"] == ("SW", "W", "NW", "NE", "E", "SE")
    assert geometry.EDGE_NAMES["flat"] == ("S", "SW", "NW", "N", "NE", "SE")


@pytest.mark.parametrize(("title", "variants"), [("1830", ()), ("1870", ()), ("1825", ("unit_123",)), ("1829", ())])
def test_the_neighbour_across_each_edge_is_where_the_picture_puts_it(title: str, variants: tuple[str, ...]) -> None:
    """Twice the way to an edge's middle from a hex's centre is the neighbour's centre, and
    that neighbour is the engine's (EDGE_DELTAS)."""
    board = load_title(title, variants).board
    size = 10.0
    for place in geometry.hex_places(board):
        x, y = geometry.centre(board.layout, place.col, place.row, size)
        for edge in range(6):
            mx, my = geometry.edge_midpoint(board.layout, edge, size)
            col, row = geometry.neighbour_place(board.layout, place.col, place.row, edge)
            assert (col - place.col, row - place.row) == EDGE_DELTAS[board.layout][edge]
            nx, ny = geometry.centre(board.layout, col, row, size)
            assert math.isclose(x + 2 * mx, nx, abs_tol=1e-9) and math.isclose(y + 2 * my, ny, abs_tol=1e-9)
            other = board.neighbor(place.coord, edge)
            if other is not None:
                assert geometry.place_of(other, board.layout) == geometry.Place(other, col, row)


_TRANSLATE = re.compile(r"translate\(([-0-9.]+),([-0-9.]+)\)")
_CELL = re.compile(r"(?<=[|#~^])([A-Za-z]{1,2}-?[0-9]+)(?= |[|#~^]|$)")


@pytest.mark.parametrize(("title", "variants"), [("1830", ()), ("1870", ()), ("1825", ("unit_123",)), ("1829", ())])
def test_the_ascii_map_and_the_picture_place_every_hex_alike(title: str, variants: tuple[str, ...]) -> None:
    """Across: a hex's text column and its picture's x both grow by the same step per place
    (HALF characters, X units); down: hexes of one row share a text line and a y, and a lower
    row is lower in both."""
    game = Game(load_title(title, variants), PLAYERS[:4])
    board = game.board
    text = render_map(game, width=100_000).split("\nLegend:\n")[0].splitlines()
    at_text: dict[str, tuple[int, int]] = {}
    for number, line in enumerate(text):
        for match in _CELL.finditer(line):
            if match.group(1) in board.hexes and match.group(1) not in at_text:
                at_text[match.group(1)] = (number, match.start() - 1)
    root = parse(board_svg(game))
    at_picture: dict[str, tuple[float, float]] = {}
    for group in elements(root, "g", "hex"):
        found = _TRANSLATE.match(group.get("transform") or "")
        assert found is not None
        at_picture[group.get("data-hex") or ""] = (float(found.group(1)), float(found.group(2)))
    assert set(at_text) == set(at_picture) == set(board.hexes)
    places = {p.coord: p for p in geometry.hex_places(board)}
    first = geometry.hex_places(board)[0]
    step_x = geometry.unit(board.layout)[0] * board_module.SIZE
    for coord, place in places.items():
        assert at_text[coord][1] - at_text[first.coord][1] == HALF * (place.col - first.col)
        assert math.isclose(at_picture[coord][0] - at_picture[first.coord][0], step_x * (place.col - first.col),
                            abs_tol=0.15)
    by_row: dict[int, set[tuple[int, float]]] = {}
    for coord, place in places.items():
        by_row.setdefault(place.row, set()).add((at_text[coord][0], at_picture[coord][1]))
    rows = sorted(by_row)
    assert all(len(by_row[r]) == 1 for r in rows)
    lines = [next(iter(by_row[r])) for r in rows]
    assert lines == sorted(lines) and len({t for t, _ in lines}) == len(lines)


def test_every_corporation_has_its_own_colour() -> None:
    for title, variants in [("1830", ()), ("1870", ()), ("1829", ()),
                            ("1825", ("unit_123", "r1", "r2", "r3", "k5", "k7"))]:
        corps = load_title(title, variants).corporations
        assert all(c.color and re.fullmatch(r"#[0-9a-f]{6}", c.color) for c in corps), title
        assert len({c.color for c in corps}) == len(corps), title
