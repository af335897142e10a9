"""The sides of 1870's two rivers for Jerkich's Historical Order Start rules (issue 13, seed
000): west or east of the Mississippi, north (Illinois) or south of the Ohio, and whether the
Mississippi River Bridge Company has opened the crossings."""

from __future__ import annotations

from pbem.engine.game import Game
from pbem.engine.state import Owner
from pbem.ruleset import load_title
from pbem.titles.g1870 import rivers


def test_the_mississippi_splits_the_board_in_two() -> None:
    title = load_title("1870", ("historical_order_start",))
    found = rivers.sides(title)
    assert rivers.hex_west(found, "B9") and rivers.hex_west(found, "B11") and rivers.hex_west(found, "N7")
    assert not rivers.hex_west(found, "K16") and not rivers.hex_west(found, "M20")
    assert rivers.stop_side(title, found, "C18") == "west", "St. Louis stands on the western bank"
    assert rivers.stop_side(title, found, "H17") == "east", "Memphis stands on the eastern bank"
    assert rivers.edge_side(title, found, "F19", 3) == "east" and rivers.edge_side(title, found, "F19", 1) == "west"


def test_the_ohio_splits_the_east_at_cairo() -> None:
    title = load_title("1870", ("historical_order_start",))
    found = rivers.sides(title)
    assert {"A22", "D19", "D21", "E18/east", "C18/east"} <= found.illinois
    assert "E20" not in found.illinois and "F21" not in found.illinois and "F19/east" not in found.illinois
    assert rivers.stop_ohio_side(title, found, "A22") == "north", "Chicago is in Illinois"
    assert rivers.stop_ohio_side(title, found, "K16") == "south", "Jackson is south of the Ohio"
    assert all(title.board.neighbor(rivers.OHIO_HEX, e) in found.illinois or
               rivers.edge_side(title, found, "E18", 4) == "east"
               for e in rivers.OHIO_NORTH_EDGES)
    assert all(title.board.neighbor(rivers.OHIO_HEX, e) not in found.illinois for e in (0, 5))


def test_the_bridge_opens_when_sold_to_a_corporation_or_closed() -> None:
    game = Game(load_title("1870", ("historical_order_start",)), ["A", "B", "C"])
    company = game.state.companies[rivers.BRIDGE_COMPANY]
    company.owner = Owner.player("A")
    assert not rivers.bridge_open(game)
    company.owner = Owner.corporation("MP")
    assert rivers.bridge_open(game)
    company.owner = Owner.player("A")
    company.closed = True
    assert rivers.bridge_open(game)
