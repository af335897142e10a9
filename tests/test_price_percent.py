"""Prices quoted for a part of a corporation other than one share (the core's
``StockRules.price_percent``; 1825's minors quote their price for 10% though their shares
are of 20%), and capital at float for a corporation paid as its IPO sells (issue 12: an
extension point 1825 needs, shown on the made-up title 9999).

A variant of 9999 quotes SBR's price for 5%, so a 10% share costs twice the price and the
20% director's certificate four times it, in purchases, sales, capital and worth.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.actions import BuyPrivate, BuyShares, Par, Pass, SellShares
from pbem.engine.events import BankBroken
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.state import RoundState, StockRoundState, TitleState
from pbem.engine.steps.stock import buy_problem, par_offers
from pbem.engine.title import TitleData
from pbem.ruleset import load_title
from tests.titles import RULES
from tests.titles.g9999 import (HOOKS9999, Composer9999, Presentation9999, Sequence9999, State9999, Stock9999Rules,
                                hooks9999)

ANN, BOB, CY = "Ann", "Bob", "Cy"


class QuotedForFive(Stock9999Rules):
    """9999 with SBR's price quoted for 5% of it."""

    def price_percent(self, title: TitleData, sym: str) -> int:
        return 5 if sym == "SBR" else super().price_percent(title, sym)


@dataclass
class PaidAsSold(State9999):
    """9999's state, with SBR paid by its IPO sales though the title is fully capitalised."""

    def incremental(self, title: TitleData, sym: str) -> bool:
        return sym == "SBR"

    def copy(self) -> PaidAsSold:
        return PaidAsSold(formed=self.formed[:], levies=dict(self.levies), operating_rounds=self.operating_rounds)


class Incremental(Sequence9999):
    def new_title_state(self) -> TitleState:
        return PaidAsSold()


def in_stock_round(hooks: TitleHooks, number: int = 1) -> Game:
    """A 9999 game past its start (Ann AW, Cy BC), in stock round ``number`` with Ann to act."""
    game = Game(load_title("9999", rules_dir=RULES, hooks=hooks, composer=Composer9999, presentation=Presentation9999), [ANN, BOB, CY])
    game.apply(ANN, BuyPrivate("AW"))
    game.apply(BOB, Pass())
    game.apply(CY, BuyPrivate("BC"))
    if number != 1:
        game.state.round = RoundState(kind="stock", number=number, stock=StockRoundState())
        game.state.round.entity_index = game.state.order.index(ANN)
    return game


def turn(game: Game, player: str, action: BuyShares | Par) -> None:
    """``player`` takes ``action`` and ends the turn (passing if the game still waits)."""
    game.apply(player, action)
    if game.current_actors() == [player]:
        game.apply(player, Pass())


def test_the_price_of_a_certificate_follows_the_quoted_part() -> None:
    game = in_stock_round(hooks9999(stock=QuotedForFive()))
    assert Par("SBR", 90) in par_offers(game, ANN)
    turn(game, ANN, Par("SBR", 90))
    assert game.state.players[ANN].cash == 470 - 360  # 20% at 90 a 5%
    turn(game, BOB, BuyShares("SBR", "ipo"))
    assert game.state.players[BOB].cash == 500 - 180  # 10% at 90 a 5%
    # what a player is worth counts the shares the same way (the market price is 90)
    assert game.player_value(BOB) == 320 + 180
    # the other corporations are priced by the share as before
    turn(game, CY, Par("NWR", 90))
    assert game.state.players[CY].cash == 450 - 270


def test_a_player_short_of_the_quoted_price_may_not_par_or_buy() -> None:
    game = in_stock_round(hooks9999(stock=QuotedForFive()))
    game.state.players[ANN].cash = 359
    assert not [a for a in par_offers(game, ANN) if a.corporation == "SBR"]
    game.state.players[ANN].cash = 470
    turn(game, ANN, Par("SBR", 90))
    game.state.players[BOB].cash = 179
    assert buy_problem(game, BOB, "SBR", "ipo") == "Bob has £179, a share costs £180"


def test_capital_and_sales_follow_the_quoted_part() -> None:
    game = in_stock_round(hooks9999(stock=QuotedForFive()), number=2)
    turn(game, ANN, Par("SBR", 90))
    for player in (BOB, CY, ANN, BOB, CY):
        if player == ANN:
            game.apply(ANN, Pass())
        else:
            turn(game, player, BuyShares("SBR", "ipo"))
    # floated at 60%: the bank pays the par of the whole corporation, 100% at 90 a 5%
    assert game.state.corporations["SBR"].floated
    assert game.state.corporations["SBR"].cash == 1800
    before = game.state.players[ANN].cash
    assert game.current_actors() == [ANN]
    game.apply(ANN, SellShares("SBR", 1))
    assert game.state.players[ANN].cash == before + 180


def test_a_corporation_paid_as_its_ipo_sells_gets_no_capital_at_float() -> None:
    game = in_stock_round(hooks9999(sequence=Incremental()))
    turn(game, ANN, Par("SBR", 90))
    assert game.state.corporations["SBR"].cash == 180  # the director's certificate paid it
    for player in (BOB, CY, ANN, BOB):
        turn(game, player, BuyShares("SBR", "ipo"))
    corp = game.state.corporations["SBR"]
    assert corp.floated and corp.cash == 180 + 4 * 90
    # a corporation of the title's full capitalization still gets its capital at float
    turn(game, CY, Par("NWR", 90))
    for player in (ANN, BOB, CY):
        turn(game, player, BuyShares("NWR", "ipo"))
    assert game.state.corporations["NWR"].floated and game.state.corporations["NWR"].cash == 900


# -- a title's own count of the bank --------------------------------------------------------------


class PlayersHoldTheBank(Sequence9999):
    """9999 whose bank breaks once the players hold more than 1400 between them (counted
    only once ``armed``, as the game checks its bank after every order)."""

    armed = False

    def bank_broken(self, game: Game) -> bool:
        return self.armed and sum(p.cash for p in game.state.players.values()) > 1400


class EndsAtOnce(PlayersHoldTheBank):
    def bank_broken_ends(self, game: Game) -> str:
        return "after this operating round"


def test_the_title_says_in_words_when_a_broken_bank_ends_the_game() -> None:
    game = in_stock_round(hooks9999(sequence=EndsAtOnce()))
    game.hooks.sequence.armed = True  # type: ignore[attr-defined]
    game.check_bank()
    assert [e.render(game.money) for e in game.pending_events] == [
        "-- The bank has broken: the game ends after this operating round --"]


def test_the_title_says_when_the_bank_has_broken() -> None:
    game = in_stock_round(hooks9999(sequence=PlayersHoldTheBank()))  # the players hold 1420 after the start
    assert not game.state.bank_broken and game.state.bank > 0
    game.hooks.sequence.armed = True  # type: ignore[attr-defined]
    game.check_bank()
    assert game.state.bank_broken
    assert [type(e) for e in game.pending_events] == [BankBroken]
    assert game.pending_events[0].render(game.money) == (
        "-- The bank has broken: the game ends after this set of operating rounds --")
    game.pending_events.clear()
    game.check_bank()  # announced once
    assert game.pending_events == []
    plain = in_stock_round(HOOKS9999)
    plain.check_bank()
    assert not plain.state.bank_broken  # 1830's count: the bank still has cash


class BankCountsTreasuries(Sequence9999):
    """9999 whose reports count the corporations' treasuries as the bank's."""

    def bank_cash(self, game: Game) -> int:
        return game.state.bank + sum(c.cash for c in game.state.corporations.values())


def test_the_report_shows_the_bank_as_the_title_counts_it() -> None:
    from pbem.games import GameInfo, Replay, Seat
    from pbem.reports import report_context

    def shown(game: Game) -> str:
        seats = [Seat(name, f"p{i}@x.invalid", "") for i, name in enumerate(game.state.seats)]
        info = GameInfo("g", game.title.title, game.title.variants, seats, "gm@x.invalid", "")
        return str(report_context(Replay(info, game.title, game, last_seq=1), since_seq=1, number=2)["bank"])

    for hooks in (HOOKS9999, hooks9999(sequence=BankCountsTreasuries())):
        game = in_stock_round(hooks)
        game.state.corporations["NWR"].cash = 500
        game.state.bank -= 500
        assert shown(game) == (f"£{game.state.bank}" if hooks is HOOKS9999 else f"£{game.state.bank + 500}")
