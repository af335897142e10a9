"""The report says whether a buy in the stock round ends the turn (issue 22): the PASS
offered in a stock round carries the note, from the title's rules on sales (1830 rules 5.2:
none in the first stock round; 1870: after a sale, no sale follows a buy)."""

from __future__ import annotations

from pbem.engine.game import Game
from pbem.engine.rounds import RoundKind
from pbem.engine.state import StockRoundState
from pbem.report_sections import options
from pbem.ruleset import load_title


def stock_round(title: str, number: int, turn_actions: tuple[str, ...] = ()) -> tuple[Game, str]:
    game = Game(load_title(title), ["Ann", "Bob", "Cat"])
    game.state.round.kind = RoundKind.STOCK
    game.state.round.number = number
    game.state.round.stock = StockRoundState(turn_actions=list(turn_actions))
    return game, game.current_actors()[0]


def pass_line(game: Game, player: str) -> str:
    return next(line for line in options(game, player) if line.startswith("PASS"))


def test_a_buy_ends_the_turn_in_1830s_first_stock_round() -> None:
    game, player = stock_round("1830", 1)
    assert pass_line(game, player) == "PASS  -- a buy or a start ends your turn (no sales in this round)"


def test_after_a_buy_a_sale_may_follow_in_later_stock_rounds() -> None:
    game, player = stock_round("1830", 2)
    assert pass_line(game, player) == "PASS  -- ends your turn; after a buy or a start you may still sell, then PASS"


def test_in_1870_a_buy_after_a_sale_ends_the_turn() -> None:
    game, player = stock_round("1870", 2, ("sell",))
    assert pass_line(game, player) == "PASS  -- a buy or a start ends your turn (you have sold: no sale may follow it)"
