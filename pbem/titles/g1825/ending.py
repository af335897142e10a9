"""How a game of 1825 ends, as 18xx.games plays it (``g_1825/game.rb``: ``GAME_END_CHECK``
``{bank: :current_or, stock_market: :immediate}``, ``bank_cash``, no bankruptcy).

* The bank breaks once the players between them hold more than the game's whole stock of
  money (``bank_cash`` of the composed data): 18xx.games counts the bank as that stock less
  the players' cash, the companies' treasuries being the bank's. The game then ends when the
  operating round under way (or, if it broke in a stock round, the next one) is over.
* A share price reaching the top cell of the market (zone ``e``, ``ends_game``) ends the
  game at once: the core's :func:`pbem.engine.closing.settle_market` does it after every
  action.
* No one goes bankrupt (there is no forced train purchase).

Source: issue 12 ("no bankruptcy; the game ends when the bank breaks (after that operating
round) or at once when a share price reaches the top of the market").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.state import RoundKind

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.state import RoundState


def bank_broken(game: Game) -> bool:
    """Whether the players hold more money than the game has (18xx.games: the bank's cash,
    the game's money less the players', is below zero)."""
    held = sum(p.cash for p in game.state.players.values())
    return game.title.bank_cash - held < 0


def bank_cash(game: Game) -> int:
    """The bank's cash as 18xx.games shows it: the game's money less the players' (the
    companies' treasuries are not taken off). Money, an int; below zero once broken."""
    return game.title.bank_cash - sum(p.cash for p in game.state.players.values())


def ends_after(game: Game, finished: RoundState) -> bool:
    """Whether the game ends now that ``finished`` is over: an operating round, with the
    bank broken. The caller ends it (reason ``"bank"``)."""
    return finished.kind == RoundKind.OPERATING and game.state.bank_broken


def ends_when(game: Game) -> str:
    """When a bank broken now ends the game, in words for the report."""
    if game.state.round.kind == RoundKind.OPERATING:
        return "after this operating round"
    return "after the next operating round"
