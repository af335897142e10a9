"""1825's start and stock round, each rule a test on a built position of the 1825 data (Unit
1 with R1's minors, as the recorded game plays; issue 12, "Rules (plain 1825)"; 18xx.games'
``g_1825/game.rb`` and ``step/buy_sell_par_shares_companies.rb``). Receivership and the end
of the game: :mod:`tests.test_1825_ending`."""

from __future__ import annotations

import pytest

from pbem.engine import market
from pbem.engine.actions import BuyPrivate, BuyShares, Par, Pass, SellShares
from pbem.engine.events import render_all
from pbem.engine.game import Game
from pbem.engine.ids import TrainId
from pbem.engine.state import IPO, POOL, OperatingState, RoundState, StockRoundState
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.orders import Vocabulary, format_order, parse_order
from pbem.ruleset import load_title
from pbem.titles.g1825.state import State1825, state1825
from pbem.titles.g1825.stock import SellPrivate, Stock1825, current_band, par_prices

P1, P2, P3, P4, P5 = (f"Player {n}" for n in range(1, 6))
VARIANTS = ("unit_1", "r1")


def new_game(players: int = 2, variants: tuple[str, ...] = VARIANTS) -> Game:
    return Game(load_title("1825", variants), [P1, P2, P3, P4, P5][:players])


def lines(events: list[object]) -> list[str]:
    return render_all(events, lambda n: f"£{n}")  # type: ignore[arg-type]


def own(who: str | Owner) -> Owner:
    return who if isinstance(who, Owner) else Owner.player(who)


def all_privates_sold(game: Game) -> None:
    """The start's leftover privates bought (two players: C&W by Player 1, L&M by Player 2)."""
    game.apply(P1, BuyPrivate("C&W"))
    game.apply(P2, BuyPrivate("L&M"))


def stock_round(game: Game, number: int, first: str = P1) -> None:
    """Stock round ``number`` begins afresh with ``first`` to act."""
    game.state.round = RoundState(kind="stock", number=number, stock=StockRoundState())
    game.state.round.entity_index = game.state.order.index(first)
    for p in game.state.players.values():
        p.passed = False
    game.hooks.sequence.new_stock_round(game)


def start(game: Game, sym: str, director: str, price: int, ordinary: dict[str | Owner, int],
          cash: int = 0, formed: bool = True) -> None:
    """``sym`` started at ``price`` with ``director`` holding the Director's certificate and
    each of ``ordinary`` that many ordinary shares (the rest in the IPO)."""
    state = game.state
    coord = next((r, c) for r, row in enumerate(game.title.market) for c, cell in enumerate(row)
                 if cell is not None and cell.price == price)
    corp = state.corporations[sym]
    corp.par, corp.ipoed, corp.president, corp.cash = coord, True, director, cash
    market.place(state, sym, coord)
    certs = sorted((c for c in state.certificates if c.corporation == sym), key=lambda c: c.index)
    certs[0].owner = own(director)
    rest = iter(certs[1:])
    for owner, count in ordinary.items():
        for _ in range(count):
            next(rest).owner = own(owner)
    corp.floated = state.percent_of(IPO, sym) <= 100 - game.title.corporation(sym).float_percent
    if formed:
        state1825(state).formed.append(sym)


def held(game: Game, sym: str) -> dict[str | Owner, int]:
    found = {o: game.state.percent_of(own(o), sym) for o in (P1, P2, POOL, IPO)}
    return {o: pct for o, pct in found.items() if pct}


# -- the start ------------------------------------------------------------------------------------


def test_the_privates_are_dealt_cheapest_first_in_seat_order_at_face_value() -> None:
    game = new_game(2)
    state = game.state
    assert isinstance(state.title_state, State1825)
    assert state.players[P1].companies == ["S&M"] and state.players[P2].companies == ["C&HP"]
    assert (state.players[P1].cash, state.players[P2].cash) == (1200 - 30, 1200 - 75)
    # no auction: the game begins with the first stock round, the seat order unchanged
    assert game.round_label() == "SR 1" and state.order == [P1, P2]
    # the two privates left over are bought from the bank cheapest first, at face value
    assert game.legal_actions(P1) == [BuyPrivate("C&W"), Pass()]
    with pytest.raises(IllegalOrderError, match="the private for sale is C&W, the cheapest"):
        game.apply(P1, BuyPrivate("L&M"))
    with pytest.raises(IllegalOrderError, match="face value"):
        game.apply(P1, BuyPrivate("C&W", 100))
    events = lines(game.apply(P1, BuyPrivate("C&W")))
    assert events == ["Player 1 buys C&W for £130"]
    assert state.players[P1].cash == 1170 - 130


def test_five_players_the_fifth_gets_the_lnwr_directors_certificate_at_its_par() -> None:
    game = new_game(5)
    state = game.state
    assert [state.players[p].companies for p in (P1, P2, P3, P4)] == [["S&M"], ["C&HP"], ["C&W"], ["L&M"]]
    lnwr = state.corporations["LNWR"]
    assert lnwr.ipoed and lnwr.president == P5 and game.share_price("LNWR") == 100
    assert state.players[P5].cash == 504 - 200 and held(game, "LNWR") == {IPO: 80}
    assert not lnwr.floated
    # every private is sold: band 1 (the LNWR) is open and may be bought at once
    assert state1825(state).band == 1 and current_band(game) == 1
    assert BuyShares("LNWR", "ipo") in game.legal_actions(P1)


def test_players_after_the_director_get_one_lnwr_share_each() -> None:
    # Units 1 and 2: five privates (Unit 2's £30 one and its duplicates left out) for seven
    names = [f"Player {n}" for n in range(1, 8)]
    game = Game(load_title("1825", ("unit_12",)), names)
    state = game.state
    assert [state.players[p].companies for p in names[:5]] == [["S&M"], ["C&HP"], ["C&W"], ["S&D"], ["L&M"]]
    assert state.corporations["LNWR"].president == "Player 6"
    assert [state.percent_of(Owner.player(p), "LNWR") for p in names[5:]] == [20, 10]
    assert (state.players["Player 6"].cash, state.players["Player 7"].cash) == (360 - 200, 360 - 100)
    assert state.percent_of(IPO, "LNWR") == 70


def test_unit_3s_minors_come_with_its_second_band() -> None:
    game = Game(load_title("1825", ("unit_3",)), [P1, P2])
    assert game.state.players[P1].companies == ["A&F"] and game.state.players[P2].companies == ["TWW"]
    game.apply(P1, BuyPrivate("S&D"))
    assert current_band(game) == 1
    with pytest.raises(IllegalOrderError, match="HR is in band 2"):
        game.apply(P2, Par("HR", 90))
    start(game, "CR", P1, 76, {P1: 4, P2: 4})
    assert current_band(game) == 2
    game.apply(P2, Par("HR", 90))
    assert game.state.corporations["HR"].president == P2


def test_each_minors_required_train_is_set_aside_at_the_start() -> None:
    game = new_game(2)
    mine = state1825(game.state)
    assert mine.minor_trains == {"Cam": TrainId("U3", 0), "TV": TrainId("4T", 0)}
    assert TrainId("U3", 0) not in game.state.depot and TrainId("4T", 0) not in game.state.depot


# -- the privates in the stock round -------------------------------------------------------------


def test_no_company_is_offered_until_the_starts_privates_are_sold() -> None:
    game = new_game(2)
    assert current_band(game) == 0
    with pytest.raises(IllegalOrderError, match="until every private company has been sold"):
        game.apply(P1, Par("LNWR", 100))
    game.apply(P1, BuyPrivate("C&W"))
    assert lines(game.apply(P2, BuyPrivate("L&M")))[-1] == "-- Band 1 companies now available --"
    game.apply(P1, Par("LNWR", 100))


def test_a_private_bought_is_the_turns_one_purchase() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P2: 3})
    stock_round(game, 2)
    game.apply(P1, SellPrivate("S&M"))
    game.apply(P1, Pass())
    game.apply(P2, BuyPrivate("S&M"))
    assert game.current_actors() == [P2]  # may still sell
    with pytest.raises(IllegalOrderError, match="already bought"):
        game.apply(P2, BuyShares("LNWR", "ipo"))


def test_a_private_sold_to_the_bank_fetches_30_below_face_value_from_stock_round_2() -> None:
    game = new_game(2)
    all_privates_sold(game)
    with pytest.raises(IllegalOrderError, match="first stock round"):
        game.apply(P1, SellPrivate("S&M"))
    stock_round(game, 2)
    cash = game.state.players[P1].cash
    assert SellPrivate("C&W") in game.legal_actions(P1)
    assert lines(game.apply(P1, SellPrivate("C&W"))) == ["Player 1 sells C&W to the bank for £100"]
    assert game.state.players[P1].cash == cash + 100
    assert game.state.companies["C&W"].owner is None and "C&W" not in game.state.players[P1].companies
    # the seller may not buy it back in this round; another player may, at face value
    game.apply(P1, Pass())
    assert BuyPrivate("C&W") in game.legal_actions(P2)
    game.apply(P2, BuyPrivate("C&W"))
    assert game.state.companies["C&W"].owner == Owner.player(P2)
    assert game.state.players[P2].cash == 1200 - 75 - 210 - 130


def test_the_seller_may_not_buy_a_private_back_in_the_same_round() -> None:
    game = new_game(2)
    all_privates_sold(game)
    stock_round(game, 2)
    game.apply(P1, SellPrivate("C&W"))
    game.apply(P1, Pass())
    game.apply(P2, Par("LNWR", 100))  # a purchase: the round goes on
    with pytest.raises(IllegalOrderError, match="may not buy it back this round"):
        game.apply(P1, BuyPrivate("C&W"))
    stock_round(game, 3)
    game.apply(P1, BuyPrivate("C&W"))  # a later round: it may
    assert game.state.players[P1].companies == ["S&M", "C&W"]


def test_no_private_may_be_sold_after_buying_in_the_same_turn() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P2, 100, {P2: 3})
    start(game, "GWR", P2, 90, {P1: 2})
    stock_round(game, 2)
    game.apply(P1, BuyShares("LNWR", "ipo"))
    assert game.current_actors() == [P1]  # GWR may still be sold
    assert not [a for a in game.legal_actions(P1) if isinstance(a, SellPrivate)]
    with pytest.raises(IllegalOrderError, match="after buying in the same turn"):
        game.apply(P1, SellPrivate("S&M"))


def test_the_order_sell_names_a_private_or_shares() -> None:
    vocab = Vocabulary.from_title(load_title("1825", VARIANTS))
    assert parse_order("SELL S&M", vocab) == SellPrivate("S&M")
    assert parse_order("sell c&hp", vocab) == SellPrivate("C&HP")
    assert parse_order("SELL 2 LNWR", vocab) == SellShares("LNWR", 2)
    assert format_order(SellPrivate("L&M"), vocab) == "SELL L&M"
    assert format_order(SellShares("GWR", 3), vocab) == "SELL 3 GWR"


def test_privates_never_close_and_corporations_cannot_buy_them() -> None:
    title = load_title("1825", VARIANTS)
    assert all(not phase.corporations_may_buy_privates for phase in title.phases)
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 5}, cash=1000)
    game.state.phase = title.phases[-1].name  # the 5-trains' phase
    game.state.round = RoundState(kind="operating", number=2, or_number=1)
    game.state.round.operating = OperatingState(order=["LNWR"])
    assert not [a for a in game.legal_actions(P1) if isinstance(a, BuyPrivate)]
    five = next(t for t in title.trains if t.name == "5")
    assert not [e for e in five.events if "clos" in e]
    assert all(not c.closed for c in game.state.companies.values())


# -- bands and pars -------------------------------------------------------------------------------


def test_the_next_band_opens_once_a_company_of_the_band_has_sold_out_its_ipo() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 3})  # one share left in the IPO
    stock_round(game, 2)
    assert current_band(game) == 1
    with pytest.raises(IllegalOrderError, match="GWR is in band 2, not yet open"):
        game.apply(P1, Par("GWR", 90))
    events = lines(game.apply(P1, BuyShares("LNWR", "ipo")))
    assert "-- Band 2 companies now available --" in events
    game.apply(P2, Par("GWR", 90))  # Player 1 had nothing left to do: the turn passed on
    assert game.state.corporations["GWR"].president == P2


def test_one_company_of_a_band_sold_out_opens_the_next_band() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 4})
    start(game, "GWR", P2, 90, {P1: 4, P2: 4})
    start(game, "LSWR", P2, 76, {P1: 4, P2: 4})  # GER, of the same band, not started
    stock_round(game, 2)
    assert current_band(game) == 4
    offered = [a for a in Stock1825.legal_actions(game, P1) if isinstance(a, Par)]
    assert offered == [Par("GER", 76), Par("SECR", 71)]


def test_a_major_starts_at_its_fixed_par() -> None:
    game = new_game(2)
    all_privates_sold(game)
    assert par_prices(game, "LNWR") == [100]
    with pytest.raises(IllegalOrderError, match="fixed par of £100"):
        game.apply(P1, Par("LNWR", 90))
    assert [a for a in game.legal_actions(P1) if isinstance(a, Par)] == [Par("LNWR", 100)]


def test_the_minors_come_in_the_band_after_the_majors_of_par_71() -> None:
    game = new_game(2)
    all_privates_sold(game)
    for sym, par in (("LNWR", 100), ("GWR", 90), ("LSWR", 76)):
        start(game, sym, P1, par, {P1: 4, P2: 4})
    stock_round(game, 2)
    with pytest.raises(IllegalOrderError, match="Cam is in band 5, not yet open"):
        game.apply(P1, Par("Cam", 90))
    start(game, "SECR", P2, 71, {P1: 4, P2: 4})
    assert current_band(game) == 5
    game.apply(P1, Par("Cam", 90))
    assert game.state.corporations["Cam"].president == P1


def test_a_minors_par_is_any_price_whose_tenfold_beats_its_train() -> None:
    game = new_game(2)
    # Cam's U3 costs 410: 42 and up (42 x 10 = 420), never the top cell of 340
    prices = par_prices(game, "Cam")
    assert min(prices) == 42 and max(prices) == 320 and 340 not in prices and 67 in prices
    # TV's 4T costs 480: 49 and up
    assert min(par_prices(game, "TV")) == 49


def test_a_minors_directors_certificate_costs_four_times_its_price_into_its_treasury() -> None:
    game = new_game(2)
    all_privates_sold(game)
    for sym, par in (("LNWR", 100), ("GWR", 90), ("LSWR", 76), ("SECR", 71)):
        start(game, sym, P2, par, {P1: 4, P2: 4})
    stock_round(game, 2)
    cash, bank = game.state.players[P1].cash, game.state.bank
    events = lines(game.apply(P1, Par("Cam", 90)))
    assert "Player 1 buys the 40% Director's certificate of Cam for £360" in events
    cam = game.state.corporations["Cam"]
    # floated at 40%, paid by the sale and nothing more; not formed: 360 < 410 for its U3
    assert game.state.players[P1].cash == cash - 360 and cam.cash == 360 and game.state.bank == bank
    assert cam.floated and "Cam" not in state1825(game.state).formed
    # a 20% share costs twice the price, paid to the minor: it can buy its train and forms
    game.apply(P1, Pass())
    game.apply(P2, Pass())
    events = lines(game.apply(P1, BuyShares("Cam", "ipo")))
    assert events[0] == "Player 1 buys a 20% share of Cam from the IPO for £180"
    assert "Minor Cam forms" in events and "Minor Cam spends £410 for its required train (U3)" in events
    assert cam.trains == [TrainId("U3", 0)] and cam.cash == 540 - 410
    assert state1825(game.state).formed[-1] == "Cam" and "Cam" not in state1825(game.state).minor_trains


def test_a_minor_that_can_pay_for_its_train_at_par_forms_at_once() -> None:
    game = new_game(2)
    all_privates_sold(game)
    for sym, par in (("LNWR", 100), ("GWR", 90), ("LSWR", 76), ("SECR", 71)):
        start(game, sym, P2, par, {P1: 4, P2: 4})
    stock_round(game, 2)
    game.state.players[P1].cash = 1300
    with pytest.raises(IllegalOrderError, match="may start at"):
        game.apply(P1, Par("TV", 48))  # 480 is not more than the 4T's 480
    events = lines(game.apply(P1, Par("TV", 320)))
    assert "Minor TV forms" in events
    assert game.state.corporations["TV"].cash == 1280 - 480 and game.state.corporations["TV"].trains == [TrainId("4T", 0)]


def test_a_major_floats_at_60_percent_with_ten_times_its_par_and_forms() -> None:
    game = new_game(2)
    all_privates_sold(game)
    game.apply(P1, Par("LNWR", 100))
    for player in (P2, P1, P2):
        game.apply(player, BuyShares("LNWR", "ipo"))
    assert not game.state.corporations["LNWR"].floated
    events = lines(game.apply(P1, BuyShares("LNWR", "ipo")))
    assert events[1:] == ["LNWR floats", "LNWR receives £1000", "LNWR forms"]
    assert game.state.corporations["LNWR"].cash == 1000


# -- sales ----------------------------------------------------------------------------------------


def test_the_price_does_not_drop_on_sales_and_the_pool_may_hold_every_share() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 5, P2: 3})
    stock_round(game, 2)
    game.apply(P1, SellShares("LNWR", 5))
    assert game.share_price("LNWR") == 100
    game.apply(P1, Pass())
    game.apply(P2, SellShares("LNWR", 3))
    assert game.share_price("LNWR") == 100 and held(game, "LNWR")[POOL] == 80


def test_no_sold_out_rise_at_the_end_of_the_round() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 4}, cash=1000)
    stock_round(game, 2)
    game.apply(P1, Pass())
    game.apply(P2, Pass())
    assert game.round_label() == "OR 2.1" and game.share_price("LNWR") == 100


def test_a_company_just_bought_may_not_be_sold_in_the_same_turn() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 2, P2: 3})
    start(game, "GWR", P2, 90, {P1: 2, P2: 4})
    stock_round(game, 2)
    game.apply(P1, BuyShares("LNWR", "ipo"))
    assert SellShares("LNWR", 1) not in game.legal_actions(P1)
    with pytest.raises(IllegalOrderError, match="has just bought LNWR"):
        game.apply(P1, SellShares("LNWR", 1))
    # the rule's exact form: the latest action; once another sale follows, it may be sold
    game.apply(P1, SellShares("GWR", 1))
    game.apply(P1, SellShares("LNWR", 1))
    assert game.state.percent_of(Owner.player(P1), "LNWR") == 40


def test_a_turn_of_sales_only_counts_as_a_pass() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 4}, cash=1000)
    stock_round(game, 2)
    game.apply(P1, SellShares("LNWR", 1))
    game.apply(P1, Pass())
    assert game.state.players[P1].passed
    game.apply(P2, Pass())  # everyone has passed in succession: the round is over
    assert game.round_label() == "OR 2.1"


def test_a_turn_that_buys_keeps_the_round_going() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4, P2: 3}, cash=1000)
    stock_round(game, 2)
    game.apply(P1, BuyShares("LNWR", "ipo"))  # nothing left to do: the turn ends
    assert not game.state.players[P1].passed
    game.apply(P2, Pass())
    assert game.round_label() == "SR 2" and game.current_actors() == [P1]


# -- the operating order --------------------------------------------------------------------------


def test_the_operating_order_is_majors_by_par_then_formation_then_minors_by_par() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LSWR", P1, 76, {P1: 4})
    start(game, "Cam", P1, 90, {})
    start(game, "GER", P2, 76, {P2: 4})
    start(game, "TV", P2, 320, {})
    start(game, "LNWR", P1, 100, {P1: 4})
    start(game, "LBSC", P2, 67, {P2: 4})
    assert game.operating_order() == ["LNWR", "LSWR", "GER", "LBSC", "TV", "Cam"]
    # the price moving does not change it
    market.place(game.state, "LBSC", (0, 25))
    assert game.operating_order() == ["LNWR", "LSWR", "GER", "LBSC", "TV", "Cam"]


def test_only_formed_companies_operate() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "LNWR", P1, 100, {P1: 4}, formed=False)
    start(game, "Cam", P2, 90, {}, formed=False)
    assert game.operating_order() == []


def test_a_minors_shares_are_worth_twice_the_price_and_sell_so() -> None:
    game = new_game(2)
    all_privates_sold(game)
    start(game, "Cam", P1, 90, {P1: 1, P2: 1}, cash=130)
    assert game.player_value(P2) == game.state.players[P2].cash + 210 + 75 + 180
    stock_round(game, 2, first=P2)
    cash = game.state.players[P2].cash
    game.apply(P2, SellShares("Cam", 1))
    assert game.state.players[P2].cash == cash + 180


def test_the_copy_of_the_1825_state_shares_nothing_mutable() -> None:
    from tests.test_state_copy import assert_independent, filled

    game = new_game(2)
    all_privates_sold(game)
    stock_round(game, 2)
    mine = state1825(game.state)
    mine.required_trains["Cam"] = TrainId("U3", 0)  # (a dict of train ids: not to be filled with a list)
    for name, value in vars(mine).items():  # every container of the title's state, filled
        if isinstance(value, list) and not value:
            value.append("x")
        elif isinstance(value, dict) and not value:
            value["x"] = ["x"]
    assert mine.formed and mine.pool_privates and mine.sold_privates and mine.minor_trains
    assert_independent(filled(game.state))


SR1_BY_MAIL = """
Player 1: BUY C&W
Player 2: buy l&m
Player 1: PAR LNWR 100
Player 2: BUY LNWR
Player 1: B LNWR
Player 2: BUY LNWR
Player 1: BUY LNWR
Player 2: PASS
Player 1: PASS
"""


def test_a_first_stock_round_by_mail_orders_as_the_record_plays_it() -> None:
    """The recorded game's first stock round (ids 1-9), by order lines: the leftover
    privates, the LNWR started and floated; the report speaks of the Director and in L."""
    from pbem.games import GameInfo, Replay, Seat
    from pbem.reports import render, report_context

    game = new_game(2)
    vocab = Vocabulary.from_title(game.title)
    for line in filter(None, (raw.strip() for raw in SR1_BY_MAIL.splitlines())):
        seat, order = line.split(": ", 1)
        assert game.current_actors() == [seat], (line, game.waiting_for())
        game.apply(seat, parse_order(order, vocab))
    assert game.round_label() == "OR 1.1" and game.state.order == [P2, P1]
    assert state1825(game.state).formed == ["LNWR"] and game.operating_order() == ["LNWR"]
    assert (game.state.players[P1].cash, game.state.players[P2].cash) == (
        1200 - 30 - 130 - 200 - 200 + 25, 1200 - 75 - 210 - 200 + 42)  # privates paid in OR 1.1
    seats = [Seat(name, f"p{i}@x.invalid", "") for i, name in enumerate(game.state.seats)]
    info = GameInfo("g", game.title.title, game.title.variants, seats, "gm@x.invalid", "")
    text = render("report.txt.j2", report_context(Replay(info, game.title, game, last_seq=9),
                                                  since_seq=9, number=2, recipient=P1, width=132))
    assert "Director" in text and "LNWR 40%D" in text and "L1000" in text and "£" not in text


def test_a_directors_certificate_alone_is_offered_whole_when_half_cannot_be_sold() -> None:
    """P1 holds only GER's Director's certificate (20%) and the pool no GER share to give
    back for half of it: one share may not be sold, the whole certificate may (to the pool,
    the company into receivership). The legal sales, which HELP and the report list and by
    which a player with nothing left to do is passed, offer that sale, so P1's turn stays
    open for it."""
    from pbem.engine.actions import SellShares

    game = new_game()
    all_privates_sold(game)
    start(game, "GER", P1, 76, {})
    stock_round(game, 2)
    legal = game.legal_actions(P1)
    assert SellShares("GER", 1) not in legal and SellShares("GER", 2) in legal
    with pytest.raises(IllegalOrderError):
        game.apply(P1, SellShares("GER", 1))
    game.apply(P1, SellShares("GER", 2))
    assert held(game, "GER") == {POOL: 20, IPO: 80}


def test_a_minor_buys_the_first_train_of_its_type_set_aside_whichever_minor_it_was_beside() -> None:
    """Units 1+2+3 with R1: the Highland's U3 and the Cambrian's are set aside at the start
    (U3-0, U3-1, in the companies' order). The Cambrian forming first buys the first of them,
    U3-0, and the Highland later the other: the trains are alike, so the first set aside goes
    first (18xx.games gives a minor the first of its type left)."""
    from pbem.engine.game import Game
    from pbem.ruleset import load_title
    from pbem.titles.g1825.state import state1825
    from pbem.titles.g1825.stock import check_formation

    game = Game(load_title("1825", ("unit_123", "r1")), [f"P{i}" for i in range(1, 9)])
    mine = state1825(game.state)
    assert (mine.minor_trains["HR"], mine.minor_trains["Cam"]) == (TrainId("U3", 0), TrainId("U3", 1))
    for sym in ("Cam", "HR"):
        game.state.corporations[sym].cash = 1000
        check_formation(game, sym)
    assert game.state.corporations["Cam"].trains == [TrainId("U3", 0)]
    assert game.state.corporations["HR"].trains == [TrainId("U3", 1)]
    assert mine.required_trains == {"Cam": TrainId("U3", 0), "HR": TrainId("U3", 1)}
