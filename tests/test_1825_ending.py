"""1825's receivership and the end of the game, each rule a test on a built position of the
1825 data (issue 12: "receivership (a Director's certificate in the pool ...); no bankruptcy;
the game ends when the bank breaks (after that operating round) or at once when a share
price reaches the top of the market"; 18xx.games' ``g_1825/game.rb``). The positions are
built with the helpers of :mod:`tests.test_1825_stock`."""

from __future__ import annotations

from pbem.engine import closing, market
from pbem.engine.actions import BuyShares, Dividend, Par, RunRoutes, SellShares
from pbem.engine.game import Game
from pbem.engine.ids import TrainId
from pbem.engine.receivership import ReceivershipPolicy, in_receivership
from pbem.engine.state import IPO, POOL, OperatingState, RoundState
from pbem.engine.steps.operating.buytrains import BuyTrainStep
from pbem.engine.steps.operating.dividends import DividendStep
from pbem.engine.steps.operating.runs import Route
from pbem.titles.g1825.stock_rules import Receivership1825
from pbem.titles.g1825.trains import Receiver1825
from tests.test_1825_stock import P1, P2, all_privates_sold, held, lines, new_game, start, stock_round


# -- receivership ---------------------------------------------------------------------------------

def test_the_directors_certificate_sold_to_the_pool_puts_the_company_in_receivership() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "GER", P1, 76, {P1: 4, P2: 1}, cash=500)
    stock_round(game, 2)
    game.apply(P1, SellShares("GER", 6))
    ger = game.state.corporations["GER"]
    assert ger.president is None and in_receivership(game, "GER")
    assert held(game, "GER") == {P2: 10, POOL: 60, IPO: 30}
    assert game.state.players[P1].cash == 1170 - 130 + 6 * 76


def test_a_minor_in_receivership_with_unit_1_is_silent() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "Cam", P1, 90, {P1: 1}, cash=130)
    game.state.corporations["Cam"].trains = [TrainId("U3", 0)]
    start(game, "LNWR", P2, 100, {P2: 4}, cash=500)
    for corp in ("Cam", "LNWR"):
        game.state.corporations[corp].president = None
        for cert in game.state.certificates:
            if cert.corporation == corp and cert.owner != IPO:
                cert.owner = POOL
    policy = Receivership1825()
    assert policy.action(game, Route, "Cam") == RunRoutes(())
    assert policy.action(game, BuyTrainStep, "Cam") is None
    # a major in receivership runs as the core's receiver does
    assert policy.action(game, Route, "LNWR") != RunRoutes(())


# -- the end --------------------------------------------------------------------------------------


def in_operating_round(game: Game, or_number: int = 1) -> None:
    game.state.round = RoundState(kind="operating", number=2, or_number=or_number)
    game.state.round.operating = OperatingState(order=["LNWR"])
    game.state.operating_rounds = 2


def test_the_bank_breaks_when_the_players_hold_more_than_the_games_money() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 4}, cash=6000)
    total = game.title.bank_cash
    game.state.players[P1].cash, game.state.players[P2].cash = total // 2, total - total // 2
    game.check_bank()
    assert not game.state.bank_broken  # the bank's cash is 0, not below
    assert game.hooks.sequence.bank_cash(game) == 0
    game.state.players[P1].cash += 1
    game.check_bank()
    assert game.state.bank_broken and game.hooks.sequence.bank_cash(game) == -1
    assert lines(game.pending_events) == ["-- The bank has broken: the game ends after the next operating round --"]


def test_the_bank_shown_counts_the_companies_treasuries_as_the_banks() -> None:
    game = new_game(2)
    assert game.hooks.sequence.bank_cash(game) == game.title.bank_cash - 1170 - 1125 == game.state.bank
    all_privates_sold(game)
    game.apply(P1, Par("LNWR", 100))
    for player in (P2, P1, P2, P1):
        game.apply(player, BuyShares("LNWR", "ipo"))
    # LNWR's £1000 of capital is still the bank's as 18xx.games counts it
    assert game.hooks.sequence.bank_cash(game) == game.state.bank + 1000
    players = sum(p.cash for p in game.state.players.values())
    assert game.hooks.sequence.bank_cash(game) == game.title.bank_cash - players


def test_a_broken_bank_ends_the_game_after_the_operating_round_under_way() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 4}, cash=100)
    in_operating_round(game, or_number=1)  # the first of a set of two
    game.state.players[P1].cash = game.title.bank_cash
    game.check_bank()
    assert lines(game.pending_events) == ["-- The bank has broken: the game ends after this operating round --"]
    assert game.hooks.sequence.next_round(game, game.state.round) is None
    assert game.state.finished and game.state.end_reason == "bank"


def test_a_bank_broken_in_a_stock_round_ends_the_game_after_the_next_operating_round() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 4}, cash=100)
    stock_round(game, 2)
    game.state.bank_broken = True
    following = game.hooks.sequence.next_round(game, game.state.round)
    assert following is not None and following.kind == "operating" and not game.state.finished


def test_a_price_reaching_the_top_of_the_market_ends_the_game_at_once() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 4}, cash=100)
    top = max(((0, c) for c, cell in enumerate(game.title.market[0]) if cell is not None), key=lambda rc: rc[1])
    assert game.title.market[0][top[1]].price == 340  # type: ignore[union-attr]
    market.place(game.state, "LNWR", top)
    closing.settle_market(game)
    assert game.state.finished and game.state.end_reason == "stock_market"


class PayingReceiver(ReceivershipPolicy):
    def dividend(self, game: Game, corp: str) -> str:
        return "payout"


def test_the_stock_rules_receiver_defers_to_the_policy_it_wraps() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P2, 100, {P2: 4}, cash=500)
    game.state.corporations["LNWR"].president = None
    policy = Receivership1825(PayingReceiver())
    played = game.hooks.receivership
    assert isinstance(played, Receivership1825) and isinstance(played.inner, Receiver1825)
    assert policy.action(game, DividendStep, "LNWR") == Dividend("payout")
    assert Receivership1825().action(game, DividendStep, "LNWR") == Dividend("withhold")


def receivership(game: Game, sym: str, pool: int, holders: dict[str, int]) -> None:
    """``sym`` in receivership: its Director's certificate and ``pool`` shares in the pool,
    ``holders`` with that many shares, the rest in the IPO."""
    start(game, sym, P1, 76, {POOL: pool, **holders}, cash=300)
    next(c for c in game.state.certificates if c.corporation == sym and c.president).owner = POOL
    game.state.corporations[sym].president = None


def test_the_directors_certificate_alone_in_the_pool_is_bought_for_one_shares_price() -> None:
    game = new_game(2)
    all_privates_sold(game)
    receivership(game, "GER", 0, {P2: 1})
    stock_round(game, 2, first=P2)
    assert BuyShares("GER", "pool") in game.legal_actions(P2)
    cash = game.state.players[P2].cash
    events = lines(game.apply(P2, BuyShares("GER", "pool")))
    assert events[0] == "Player 2 buys the 20% Director's certificate of GER for £76"
    assert game.state.corporations["GER"].president == P2 and not in_receivership(game, "GER")
    assert held(game, "GER") == {P2: 20, POOL: 10, IPO: 70}
    assert game.state.players[P2].cash == cash - 76
    # a player with no share to give back may not buy it
    game2 = new_game(2)
    all_privates_sold(game2)
    receivership(game2, "GER", 0, {P2: 1})
    stock_round(game2, 2)
    assert BuyShares("GER", "pool") not in game2.legal_actions(P1)


def test_a_share_bought_to_the_directors_worth_takes_the_certificate_from_the_pool() -> None:
    game = new_game(2)
    all_privates_sold(game)
    receivership(game, "GER", 2, {P2: 1})
    stock_round(game, 2, first=P2)
    game.apply(P2, BuyShares("GER", "pool"))  # an ordinary share: 20%, the Director's worth
    assert game.state.corporations["GER"].president == P2
    assert held(game, "GER") == {P2: 20, POOL: 30, IPO: 50}
