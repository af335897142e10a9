"""Helpers for the scripted games of 1825 (tests/test_1825_scripted*.py): a new game of some
units and kits, its orders applied line by line in the players' order language, the money
counted and the turn report rendered.

Source: issue 12, "Tests" ("a short scripted game of stock and operating rounds in the
combined units with kits").
"""

from __future__ import annotations

from pbem.engine.events import render_all
from pbem.engine.game import Game
from pbem.games import GameInfo, Replay, Seat
from pbem.order_codecs import Vocabulary
from pbem.orders import parse_order
from pbem.reports import render, report_context
from pbem.ruleset import load_title
from pbem.titles.g1825 import COMPOSER


def new_game(variants: tuple[str, ...], seats: list[str]) -> Game:
    """A new game of 1825 playing ``variants`` (18xx.games' option names) with ``seats`` in
    seat order; the variants are resolved as at new-game (defaults, canonical order)."""
    resolved = COMPOSER.resolve_variants(variants, len(seats))
    return Game(load_title("1825", resolved), seats)


def play(game: Game, script: str) -> list[str]:
    """Apply each ``Seat: ORDER`` line of ``script`` (blank lines and ``#`` comments skipped),
    read with the title's vocabulary as a mailed order is; each line's seat must be the one
    the game waits for. Returns every event as text.

    :raises AssertionError: a line's seat is not the one to act (the line and what the game
        waits for are in the message).
    :raises pbem.errors.IllegalOrderError: an order the rules refuse.
    """
    vocab = Vocabulary.from_title(game.title)
    events: list[str] = []
    for raw in script.splitlines():
        line = "" if raw.lstrip().startswith("#") else raw.strip()
        if not line:
            continue
        seat, order = line.split(": ", 1)
        assert game.current_actors() == [seat], (line, game.waiting_for())
        events += render_all(game.apply(seat, parse_order(order, vocab)), game.money)
    return events


def money(game: Game) -> int:
    """All the money of the game as it stands: the players' cash, the corporations'
    treasuries (minors included) and the bank's, in £."""
    state = game.state
    return (sum(p.cash for p in state.players.values())
            + sum(c.cash for c in state.corporations.values()) + state.bank)


def cash(game: Game) -> dict[str, int]:
    """Each player's cash (£), by name."""
    return {name: player.cash for name, player in game.state.players.items()}


def report(game: Game, width: int, recipient: str | None = None) -> str:
    """The turn report of ``game`` as it stands, rendered ``width`` columns wide for
    ``recipient`` (the first seat by default)."""
    seats = [Seat(name, f"p{i}@x.invalid", "") for i, name in enumerate(game.state.seats)]
    info = GameInfo("g", game.title.title, game.title.variants, seats, "gm@x.invalid", "")
    replay = Replay(info, game.title, game, last_seq=1)
    return render("report.txt.j2", report_context(replay, since_seq=1, number=2,
                                                  recipient=recipient or game.state.seats[0], width=width))


def city_value(game: Game, coord: str, city: int = 0) -> int:
    """The revenue (£) printed on city ``city`` of hex ``coord`` of the composed map (no tile
    laid there), read from the map data."""
    return game.title.board.hexes[coord].tile.cities[city].revenue


def pars(game: Game) -> list[tuple[str, int]]:
    """The companies and pars the player to act may start now, from the legal orders."""
    from pbem.engine.actions import Par

    (seat,) = game.current_actors()
    return [(a.corporation, a.price) for a in game.legal_actions(seat) if isinstance(a, Par)]


def privates_for_sale(game: Game) -> list[str]:
    """The privates the player to act may buy now, from the legal orders."""
    from pbem.engine.actions import BuyPrivate

    (seat,) = game.current_actors()
    return [a.company for a in game.legal_actions(seat) if isinstance(a, BuyPrivate)]


def holdings(game: Game) -> dict[str, list[str]]:
    """Each player's privates, by name."""
    return {name: list(player.companies) for name, player in game.state.players.items()}


def assert_report(game: Game) -> None:
    """The report renders at 80 and 132 columns in 1825's words: Director, never President;
    no line is wider than the page."""
    for width in (80, 132):
        text = report(game, width)
        assert "Director" in text and "president" not in text.lower(), width
        assert max(len(line) for line in text.splitlines()) <= width, width


def sell_out(game: Game, sym: str, director: str, shares: dict[str, int]) -> None:
    """A built position: major ``sym`` started at its fixed par, ``director`` holding the
    Director's certificate and each player of ``shares`` that many 10% shares, every one of
    the ten paid for at par from the buyer's cash into the company's treasury (full
    capitalisation), so the game's money is unchanged; the company floats and forms.

    :raises AssertionError: the shares do not make up the company (eight 10% shares).
    """
    from pbem.engine import market
    from pbem.engine.values import Owner
    from pbem.titles.g1825.start import facts
    from pbem.titles.g1825.state import state1825

    state, par = game.state, facts(game).corporation_facts[sym].par
    assert par is not None and sum(shares.values()) == 8
    coord = next((r, c) for r, row in enumerate(game.title.market) for c, cell in enumerate(row)
                 if cell is not None and cell.price == par)
    corp = state.corporations[sym]
    corp.par, corp.ipoed, corp.president, corp.floated = coord, True, director, True
    market.place(state, sym, coord)
    certs = iter(sorted((c for c in state.certificates if c.corporation == sym), key=lambda c: c.index))
    next(certs).owner = Owner.player(director)
    state.players[director].cash -= 2 * par
    for buyer, count in shares.items():
        for _ in range(count):
            next(certs).owner = Owner.player(buyer)
        state.players[buyer].cash -= count * par
    corp.cash += 10 * par
    state1825(state).formed.append(sym)
