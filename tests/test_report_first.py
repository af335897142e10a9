"""The report a player reads first (the issue's list): the own section right after the
header, fitting a phone's first screen; the GM's equivalent; standing bids; lines with the
values filled in; the track in words; the wording fixes; the opening report in the welcome;
HELP for the game's own title with what a rotation means; names a private and a corporation
share (1870), in the report, the order language and ``pbem log``."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from click.testing import CliRunner

from pbem import report_sections as sections
from pbem.actionlog import ActionLog, NewRecord
from pbem.engine import lays
from pbem.engine.actions import Bid, BuyPrivate, BuyShares
from pbem.engine.game import Game
from pbem.engine.events import render_all
from pbem.ruleset import load_title
from pbem.games import GameInfo, Replay, Seat, genesis_data
from pbem.orders import Vocabulary, format_order, help_text, parse_order, rotation_help
from pbem.reports import render, report_context
from tests.records import replayed_before

PHONE = 24


def replay_of(game: Game) -> Replay:
    """A Replay around ``game`` (the report only reads it), seats ``p0@x.invalid`` ..."""
    seats = [Seat(name, f"p{i}@x.invalid", "") for i, name in enumerate(game.state.seats)]
    info = GameInfo("g", game.title.title, game.title.variants, seats, "gm@x.invalid", "")
    return Replay(info, game.title, game, last_seq=1)


def report(game: Game, recipient: str | None, width: int = 80) -> str:
    return render("report.txt.j2", report_context(replay_of(game), since_seq=1, number=3,
                                                  recipient=recipient, width=width))


def late_1870_track() -> Game:
    return replayed_before("1870", "1870_game_end_bank.json", 1306.1).game


def test_the_first_phone_screen_says_everything_needed_to_answer() -> None:
    """Late 1870, MKT to lay track, about 500 legal lays: at 80 columns the first 24 lines
    hold the own section with the orders and the first lays; the rest are counted there and
    all listed in TILE LAYS."""
    game = late_1870_track()
    player = game.current_actors()[0]
    text = report(game, player)
    first = text.splitlines()[:PHONE]
    assert all(len(line) <= 80 for line in text.splitlines())
    assert f"FOR {player.upper()}" in first and any("It is your turn." in line for line in first)
    assert any(line.strip().startswith("PASS") for line in first)
    assert any(line.strip().startswith("LAY ") for line in first)
    more = next(line for line in first if "more hexes: all in TILE LAYS below" in line)
    assert more == first[-1] or first.index(more) < PHONE
    section = text.split("\nTILE LAYS: WHERE MKT MAY LAY")[1]
    for coord in lays.by_hex(lays.legal_lays(game)):
        assert f" {coord}: " in section or f" {coord} ($" in section, coord
    assert text.index("FOR ") < text.index("SINCE THE LAST REPORT")


def test_the_gm_and_the_archive_get_the_same_without_for() -> None:
    game = late_1870_track()
    player = game.current_actors()[0]
    text = report(game, None)
    assert "FOR " not in text
    assert f"TO ACT: {player.upper()}\n  It is {player}'s turn." in text
    assert f"  {player} may send any of these lines" in text


def test_a_player_not_to_act_is_told_so_first() -> None:
    game = late_1870_track()
    other = next(p for p in game.state.seats if p not in game.current_actors())
    text = report(game, other)
    assert text.split("\n\n")[1].startswith(f"FOR {other.upper()}\n  Nothing is asked of you now.")


def test_standing_bids_show_in_the_privates_and_beside_the_cash() -> None:
    game = Game(load_title("1830"), ["Ann", "Bob", "Cy"])
    game.apply("Ann", BuyPrivate("SV"))
    game.apply("Bob", Bid("CA", 170))
    game.apply("Cy", Bid("CA", 175))
    text = report(game, "Ann", width=132)
    assert "CA  Camden & Amboy               $160  revenue  $25  for sale; bids: Bob $170, Cy $175" in text
    players = text.split("\nPLAYERS\n")[1]
    assert "Bids" in players.splitlines()[0]
    bob = next(line for line in players.splitlines() if line.strip().startswith("Bob"))
    assert bob.split()[1:3] == [f"${game.state.players['Bob'].cash}", "$170"]
    first = " ".join(text.split("\nSINCE THE LAST REPORT")[0].split())  # lines joined
    assert "BID CA 180 -- the least bid on CA (bids: Bob $170, Cy $175); Ann may bid up to $780" in first
    assert "(cash $780, 1/20 certificates)" in first


def test_choices_are_lines_with_the_values_filled_in() -> None:
    """The stock round offers PAR <corporation> <price> as lines one may send (PAR NYC 100),
    never a template with <...>."""
    game = replayed_before("1830", "1830_game_end_bank.json", 27).game
    player = game.current_actors()[0]
    found = sections.offer(game, player)
    assert found is not None
    orders = [order for choice in found.choices for order in choice.orders]
    assert any(order.startswith("PAR ") and order.split()[-1].isdigit() for order in orders)
    assert not any("<" in order for order in orders)


def test_the_1870_report_offers_shares_of_a_shared_name_as_shares() -> None:
    """SLSF and MKT are a private and a corporation (1870): a share purchase is written
    BUY MKT IPO, which reads back as shares; a private's purchase stays BUY MKT."""
    vocab = Vocabulary.from_title(load_title("1870"))
    for sym in ("SLSF", "MKT"):
        assert vocab.shared(sym)
        for action in (BuyShares(sym, "ipo", 1), BuyShares(sym, "pool", 1), BuyShares(sym, "ipo", 2),
                       BuyPrivate(sym), BuyPrivate(sym, 150)):
            assert parse_order(format_order(action, vocab), vocab) == action
    assert format_order(BuyShares("MKT", "ipo", 1), vocab) == "BUY MKT IPO"
    # written without the title's vocabulary, a share purchase still reads back as shares
    assert parse_order(format_order(BuyShares("MKT", "ipo", 1)), vocab) == BuyShares("MKT", "ipo", 1)
    assert format_order(BuyShares("PRR", "ipo", 1)) == "BUY PRR IPO"
    assert format_order(BuyShares("PRR", "ipo", 1), Vocabulary.from_title(load_title("1830"))) == "BUY PRR"


def test_pbem_log_writes_a_shared_name_share_purchase_back_as_shares(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.cli import main

    monkeypatch.chdir(tmp_path)
    data = genesis_data("g", "1870", (), [("A", "a@x.invalid"), ("B", "b@x.invalid"), ("C", "c@x.invalid")],
                        "gm@x.invalid", {"A": "s1", "B": "s2", "C": "s3"}, "gm")
    log = ActionLog.create(tmp_path / "pbem-data" / "games" / "g" / "log.jsonl", data)
    log.append([NewRecord("action", "A", BuyShares("MKT", "ipo", 1).to_dict())])
    result = CliRunner().invoke(main, ["log", "g"])
    assert result.exit_code == 0, result.output
    assert "BUY MKT IPO" in result.output


def test_a_private_that_closes_is_named_a_private() -> None:
    """1870: the SLSF private (only the president's certificate) closes once SLSF is parred."""
    game = Game(load_title("1870"), ["A", "B", "C"])
    events: list[str] = []
    for _ in range(40):
        actor = game.current_actors()[0]
        legal = game.legal_actions(actor)
        pick = next((a for a in legal if isinstance(a, BuyPrivate)), None) or next(
            (a for a in legal if type(a).__name__ == "Par"), legal[-1])
        events += render_all(game.apply(actor, pick), game.money)
        if game.state.companies["SLSF"].closed:
            break
    assert "the private company SLSF closes" in events


def test_the_track_in_words_follows_the_map() -> None:
    game = replayed_before("1830", "1830_game_end_bank.json", 500).game
    text = report(game, None, width=132)
    words = text.split("Track in words (tile and rotation; cities with their station tokens):\n")[1]
    words = words.split("\n\n")[0]
    for coord, (tile, rotation) in game.state.tiles.items():
        name = game.board.hexes[coord].name
        assert f"{coord}{' ' + name if name else ''}: tile {tile} r{rotation}" in words
    assert "H12 Altoona: printed, city $10 PRR" in words


def test_wording_of_the_tables() -> None:
    """D unlimited (not "D xunlimited"); the next change skips a train that changes nothing;
    a player with privates only has no "-;"; the map's ERI is named beside ERIE; the
    80-column market has no empty rows."""
    game = Game(load_title("1830"), ["Ann", "Bob", "Cy"])
    game.apply("Ann", BuyPrivate("SV"))
    text = report(game, "Ann")
    assert "D unlimited" in text and "xunlimited" not in text
    assert "Next change: the first 3-train: phase 3" in text and "no change" not in text
    ann = next(line for line in text.split("\nPLAYERS\n")[1].splitlines() if line.strip().startswith("Ann"))
    assert ann.rstrip().endswith("  SV") and "-;" not in ann
    assert "On the map: ERIE is ERI, NYNH is NNH." in text
    market = text.split("\nSTOCK MARKET\n")[1].split("  * = ")[0]
    assert not [line for line in market.splitlines() if line.strip().isdigit()]


def test_help_lists_only_the_titles_orders_and_what_a_rotation_means() -> None:
    t1830, t1870 = load_title("1830"), load_title("1870")
    text = help_text(title=t1830)
    for keyword in ("REDEEM", "REISSUE", "CONNECT", "HALF", "DESTINATION", "ASSIGN"):
        assert f"\n  {keyword}" not in text, keyword
    assert "\n  EXCHANGE <private>" in text and "\n  LAY <hex>" in text
    assert "0 SW, 1 W, 2 NW," in text, "1830's map has pointy hexes"
    text = help_text(title=t1870, include_gm=True)
    for keyword in ("REDEEM", "REISSUE", "CONNECT", "HALF", "DESTINATION", "ASSIGN"):
        assert f"\n  {keyword}" in text, keyword
    assert "0 SW, 1 W, 2 NW," in text, "1870's map has pointy hexes too"
    assert "CONNECT" not in help_text(title=t1870)
    assert help_text() == help_text(include_gm=False), "without a title: every order, as before"
    assert "\n  REDEEM" in help_text()


def test_the_rotation_picture_matches_the_board() -> None:
    """Edge e of a hex faces the neighbour the picture puts there (board.EDGE_DELTAS), and
    rotation r moves a tile's edge e to (e + r) mod 6 (TileData.rotate_endpoint)."""
    from pbem.engine.board import TileData
    from pbem.ruleset import load_map

    board = load_map("1830")
    assert board.neighbor("H10", 0) == "I9" and board.neighbor("H10", 4) == "H12"  # SW, E
    assert "0 SW" in "\n".join(rotation_help("pointy")) and "4 E" in "\n".join(rotation_help("pointy"))
    assert load_map("1870").neighbor("F13", 1) == "F11" and load_map("1870").neighbor("F13", 3) == "E14"  # W, NE
    assert "0 S, 1 SW, 2 NW," in "\n".join(rotation_help("flat")), "a flat map's edges (board.EDGE_DELTAS)"
    assert TileData.rotate_endpoint("e5", 2) == "e1"


def test_an_unknown_order_is_refused_with_the_titles_orders_only() -> None:
    from pbem.errors import OrderSyntaxError

    with pytest.raises(OrderSyntaxError) as refused:
        parse_order("FLY H10", Vocabulary.from_title(load_title("1830")))
    listed = str(refused.value).split("(orders: ")[1]
    assert "REDEEM" not in listed and "HALF" not in listed and "BUY" in listed


def test_the_welcome_ends_with_the_opening_report(tmp_path: Path) -> None:
    from tests.test_mailroom import body, make_room, queued

    room = make_room(tmp_path)
    room.new_game("w1", "1830", (), [("Ann", "ann@x.example"), ("Bob", "bob@x.example"), ("Cy", "cy@x.example")],
                  "gm@x.example")
    welcomes = {str(m["To"]): body(m) for _, m in queued(room)}
    ann = welcomes["ann@x.example"]
    report_part = ann.split("The game as it stands (the opening report):\n\n")[1]
    assert "w1 -- 1830: Railways and Robber Barons   the opening report" in report_part
    assert "FOR ANN\n  It is your turn." in report_part and "BUY SV" in report_part
    assert "FOR BOB\n  Nothing is asked of you now." in welcomes["bob@x.example"]
    assert "\n  REDEEM" not in ann, "the welcome's HELP is 1830's"


def test_offers_are_kept_per_position() -> None:
    game = late_1870_track()
    player = game.current_actors()[0]
    first = sections.offer(game, player, position=7)
    assert sections.offer(game, player, position=7) is first
    assert sections.offer(copy.deepcopy(game), player, position=7) == first
