"""The tile manifest (issue 23): every title's tiles left in the supply with their counts,
colours and track in words, as the report's TILES LEFT section and the TILES answer by mail
give them; the counts are the engine's (a lay takes one, an upgrade gives the old tile back),
and every tile the legal lays name is in the manifest, on sale and with copies left."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem import tile_manifest as manifest
from pbem.commands import Info, full_help, parse_line
from pbem.engine import lays
from pbem.engine.actions import LayTile
from pbem.engine.game import Game
from pbem.errors import OrderSyntaxError
from pbem.games import GameInfo, Seat
from pbem.orders import Vocabulary
from pbem.ruleset import load_title
from tests.records import replayed_before
from tests.test_mailroom import Table, body, demo_lines_as_gm, only

GAMES = {
    "1830": ("1830", (), 3),
    "1870": ("1870", (), 3),
    "1825 unit 1": ("1825", ("unit_1",), 4),
    "1825 unit 3": ("1825", ("unit_3",), 2),
    "1825 unit 1 with R1 and K1": ("1825", ("unit_1", "r1", "k1"), 4),
    "1825 unit 1 with K3 and K6": ("1825", ("unit_1", "k3", "k6"), 4),
    "1829": ("1829", (), 4),
}
"""A new game of each title (and 1825 in several units and kits): title, variants, players."""

POSITIONS = {
    "1830 OR 1.1, B&O": ("1830", "1830_game_end_bank.json", 28),
    "1830 OR 3.1, PRR": ("1830", "1830_game_end_bank.json", 97),
    "1830 OR 5.1, ERIE": ("1830", "1830_game_end_bank.json", 236),
    "1830 OR 6.1": ("1830", "1830_game_end_bank.json", 300),
    "1870 OR 5.1, TP": ("1870", "1870_game_end_bank.json", 624.1),
    "1870 late, second lay": ("1870", "1870_game_end_bank.json", 1166),
    "1825 OR 6.1, GWR": ("1825", "1825_game_end_bank.json", 123),
    "1825 OR 9.3, GWR": ("1825", "1825_game_end_bank.json", 406),
}
"""Recorded positions where a corporation is about to lay track."""


GAMES_SEATS = ("Player 1", "Player 2", "Player 3")


def new_game(name: str) -> Game:
    title, variants, players = GAMES[name]
    return Game(load_title(title, variants), [f"Player {n}" for n in range(1, players + 1)])


def words_of(game: Game, number: str) -> str:
    return next(e.words for e in manifest.manifest_entries(game, used_up=True) if e.number == number)


def test_the_words_of_known_1830_tiles() -> None:
    game = new_game("1830")
    assert words_of(game, "57") == "city $20 to SW and NE"
    assert words_of(game, "7") == "sharp curve SW-W"
    assert words_of(game, "8") == "gentle curve SW-NW"
    assert words_of(game, "9") == "straight SW-NE"
    assert words_of(game, "14") == "city $30 (2 slots) to SW, W, NE and E"
    assert words_of(game, "15") == "city $30 (2 slots) to SW, W, NW and NE"
    assert words_of(game, "59") == "label OO: city $40 to SW; city $40 to NW"
    assert words_of(game, "63") == "city $40 (2 slots) to all six sides"
    assert words_of(game, "1") == "town $10 to W and NE; town $10 to SW and E"
    assert words_of(game, "54") == "label NY: city $60 to SW and W; city $60 to NW and NE"
    assert words_of(game, "23") == "straight SW-NE; gentle curve SW-E"
    assert words_of(game, "39") == "SW, W and NW each joined to the others"


def test_the_words_of_other_titles_tiles() -> None:
    assert words_of(new_game("1870"), "170") == "label P: city $50 (2 slots) to SW, W, NW, NE and E"
    assert words_of(new_game("1870"), "171K") == "label K: city $60 (3 slots) to all six sides"
    assert words_of(new_game("1825 unit 1 with K3 and K6"), "48") == "label LD: 6 cities £100, one to each side"
    wales = new_game("1825 unit 1 with R1 and K1")
    assert words_of(wales, "37") == "label OO: city £40 to NW; city £40 to SE; straight NW-SE"
    # 1829's #67 is drawn as the catalogue's #166, under its own number
    assert words_of(new_game("1829"), "67") == "city £40 (2 slots) to SW, W, NW, NE and E"


@pytest.mark.parametrize("name", list(GAMES))
def test_every_title_has_its_manifest(name: str) -> None:
    game = new_game(name)
    entries = manifest.manifest_entries(game)
    assert [e.number for e in entries] and {e.number for e in entries} == set(game.board.tile_counts)
    for entry in entries:
        assert entry.count == game.board.tile_counts[entry.number] == game.tiles_left(entry.number)
        assert entry.color == game.tiles[entry.number].color and entry.words
        assert entry.now == (entry.color == "yellow"), "the first phase lays yellow tiles only"
    colours = [e.color for e in entries]
    assert colours == sorted(colours, key=["yellow", "green", "brown", "gray"].index)
    text = manifest.manifest_text(game)
    assert text.isascii() and max(map(len, text.splitlines())) <= 78
    assert all(f"#{e.number} " in text for e in entries)
    for width in (80, 132):
        lines = manifest.report_lines(game, width)
        assert lines[0].startswith("TILES LEFT") and all(len(line) <= width - 2 for line in lines)
        assert lines[1].startswith("  yellow (now): ")
    assert len(manifest.report_lines(game, 80)) <= 1 + 3 * len(set(colours)), "a few lines a colour"


def test_1825s_striped_tiles_wait_for_their_later_colour() -> None:
    game = new_game("1825 unit 1 with K3 and K6")
    entries = {e.number: e for e in manifest.manifest_entries(game)}
    assert "laid once brown tiles are on sale" in entries["119"].notes
    assert "only on Q11, T16, V14 (their printed face)" in entries["200"].notes
    game.state.phase = "2"  # green on sale: 119 is not, yet
    entries = {e.number: e for e in manifest.manifest_entries(game)}
    assert entries["14"].now and not entries["119"].now
    lines = manifest.report_lines(game, 80)
    assert any(" 119x2*" in line for line in lines) and lines[-1].startswith("  * may not be laid yet")
    assert "not yet in this phase" in " ".join(manifest.manifest_text(game).split())
    game.state.phase = "3"
    assert {e.number: e for e in manifest.manifest_entries(game)}["119"].now


def test_the_title_rules_of_a_tile_are_its_notes() -> None:
    dixon = Game(load_title("1870", ("dixon",)), ["A", "B", "C"])
    notes = {e.number: e.notes for e in manifest.manifest_entries(dixon)}
    assert notes["170"] == ("only on B11, C18, J3, J5, N17", "becomes #171K, #172L")
    assert notes["58"] == ("becomes #141, #142, #143",)
    historical = Game(load_title("1870", ("historical_order_start",)), ["A", "B", "C"])
    notes = {e.number: e.notes for e in manifest.manifest_entries(historical)}
    assert notes["5"] == ("the last one held for MP until its first operating turn is over",)
    assert notes["57"] == () == {e.number: e.notes for e in manifest.manifest_entries(new_game("1830"))}["57"]


def test_the_phase_says_which_colours_are_on_sale() -> None:
    game = new_game("1830")
    assert manifest.report_lines(game, 80)[1:] == [
        "  yellow (now):         1x1 2x1 3x2 4x2 7x4 8x8 9x7 55x1 56x1 57x4 58x2 69x1",
        "  green (from phase 3): 14x3 15x2 16x1 18x1 19x1 20x1 23x3 24x3 25x1 26x1 27x1",
        "                        28x1 29x1 53x2 54x1 59x2",
        "  brown (from phase 5): 39x1 40x1 41x2 42x2 43x2 44x1 45x2 46x2 47x1 61x2 62x1",
        "                        63x3 64x1 65x1 66x1 67x1 68x1 70x1",
    ]
    game.state.phase = "5"
    assert [line[:16] for line in manifest.report_lines(game, 132)[1:]] == [
        "  yellow (now): ", "  green (now):  ", "  brown (now):  "]


def recorded(name: str) -> Game:
    title, record, action = POSITIONS[name]
    game = replayed_before(title, record, action).game
    assert lays.legal_lays(game), "a corporation is about to lay track"
    return game


@pytest.mark.parametrize("name", list(POSITIONS))
def test_the_legal_lays_name_only_tiles_of_the_manifest(name: str) -> None:
    game = recorded(name)
    entries = {e.number: e for e in manifest.manifest_entries(game)}
    for entry in manifest.manifest_entries(game, used_up=True):
        assert entry.count == game.tiles_left(entry.number)
    for lay in lays.legal_lays(game):
        entry = entries.get(lay.tile)
        assert entry is not None and entry.count != 0 and entry.now, (lay, entry)
        assert f" {lay.tile}x" in " " + " ".join(manifest.report_lines(game, 132))
    text = manifest.manifest_text(game)
    corp = game.operating_corporation()
    assert f"{corp} may lay it now on" in text and max(map(len, text.splitlines())) <= 78


def left(game: Game) -> dict[str, int | None]:
    return {e.number: e.count for e in manifest.manifest_entries(game, used_up=True)}


@pytest.mark.parametrize("name", ["1830 OR 3.1, PRR", "1825 OR 9.3, GWR"])
def test_a_lay_takes_a_tile_and_an_upgrade_gives_the_old_one_back(name: str) -> None:
    game = recorded(name)
    corp = game.operating_corporation()
    assert corp is not None
    president = game.state.corporations[corp].president or ""
    found = lays.legal_lays(game)
    new = next((lay for lay in found if lay.hex not in game.state.tiles), None)
    upgrade = next(lay for lay in found if lay.hex in game.state.tiles)
    before = left(game)
    for lay in [upgrade] + ([new] if new is not None else []):
        twin = copy.deepcopy(game)
        twin.apply(president, LayTile(lay.hex, lay.tile, lay.rotation))
        after = left(twin)
        changed = {tile: (before[tile], after[tile]) for tile in before if before[tile] != after[tile]}
        count = before[lay.tile]
        assert count is not None
        if lay is upgrade:
            old = game.state.tiles[lay.hex][0]
            was = before[old]
            assert was is not None
            assert changed == {lay.tile: (count, count - 1), old: (was, was + 1)}
        else:
            assert changed == {lay.tile: (count, count - 1)}


def test_tiles_is_a_player_command() -> None:
    title = load_title("1830")
    vocab = Vocabulary.from_title(title)
    info = GameInfo("g", "1830", (), [Seat(n, f"{n[-1]}@example.org", "x") for n in GAMES_SEATS], "gm@example.org", "x")
    assert parse_line("tiles", vocab, info, is_gm=False) == Info("tiles", "tiles")
    with pytest.raises(OrderSyntaxError, match="write TILES alone"):
        parse_line("TILES H10 57 0", vocab, info, is_gm=False)
    assert "\n  TILES                         the tile manifest" in full_help(is_gm=False, title=title)


def test_tiles_by_mail_fits_80_columns(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("Player 1", "TILES")
    text = body(only(mails))
    assert outcome == "processed"
    assert "TILE MANIFEST (phase 2: yellow tiles may be laid)\n" in text
    assert "\nYELLOW TILES (may be laid now)\n" in text
    assert "\n  #57  x4  city $20 to SW and NE\n" in text and "\nGREEN TILES (from phase 3)\n" in text
    assert max(map(len, text.splitlines())) <= 80
    assert table.order("GM", *demo_lines_as_gm(35))[0] == "processed"  # into OR 1.1
    [seat] = table.state().game.current_actors()
    _, mails = table.order(seat, "TILES")
    text = body(only(mails))
    assert " may lay it now on " in text and max(map(len, text.splitlines())) <= 80
