"""The 1830 stock round (rules 5 as 18xx.games plays it) on small hand-built positions."""

from __future__ import annotations

import pytest

from pbem.engine.actions import BuyPrivate, BuyShares, Par, Pass, SellShares
from pbem.engine import market
from pbem.engine.game import Game
from pbem.engine.state import POOL, RoundState, StockRoundState
from pbem.engine.values import IPO, Owner
from pbem.engine.events import render_all
from pbem.ruleset import load_title
from pbem.errors import IllegalOrderError

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


def after_auction() -> Game:
    """Privates bought at face value in turn; SR 1 starts with Player 1 to act."""
    game = Game(load_title("1830"), [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO")):
        game.apply(player, BuyPrivate(company))
    game.apply(P3, Par("B&O", 100))
    assert game.round_label() == "SR 1"
    return game


def second_stock_round(game: Game) -> None:
    """Jump to SR 2 (operating rounds are not part of this test), Player 1 first."""
    game.state.round = RoundState(kind="stock", number=2, stock=StockRoundState())
    for p in game.state.players.values():
        p.passed = False


@pytest.fixture
def game() -> Game:
    return after_auction()


def test_par_buys_the_presidents_certificate_at_twice_par(game: Game) -> None:
    game.apply(P1, Par("PRR", 67))
    assert game.state.players[P1].cash == 800 - 20 - 110 - 134
    assert game.state.corporations["PRR"].president == P1
    assert game.share_price("PRR") == 67
    assert game.current_actors() == [P2], "nothing else to do this turn: the turn ends"


def test_par_must_be_a_par_value_and_corporation_not_started(game: Game) -> None:
    with pytest.raises(IllegalOrderError, match="not a par value"):
        game.apply(P1, Par("PRR", 80))
    with pytest.raises(IllegalOrderError, match="already been started"):
        game.apply(P1, Par("B&O", 100))


def test_buy_from_ipo_at_par_one_certificate_a_turn(game: Game) -> None:
    game.apply(P1, BuyShares("B&O"))
    assert game.state.players[P1].cash == 800 - 130 - 100
    assert game.state.percent_of(Owner.player(P1), "B&O") == 10
    assert game.current_actors() == [P2]
    second_stock_round(game)
    game.apply(P1, BuyShares("B&O"))
    with pytest.raises(IllegalOrderError, match="already bought a certificate this turn"):
        game.apply(P1, BuyShares("B&O"))


def test_no_sales_in_the_first_stock_round(game: Game) -> None:
    game.apply(P1, BuyShares("B&O"))
    game.apply(P2, Pass())
    with pytest.raises(IllegalOrderError, match="first stock round"):
        game.apply(P3, SellShares("B&O"))


def test_sixty_percent_limit(game: Game) -> None:
    second_stock_round(game)
    game.state.players[P3].cash = 5000
    for _ in range(4):
        game.state.round.entity_index = game.state.order.index(P3)
        game.apply(P3, BuyShares("B&O"))
        game.apply(P3, Pass()) if game.current_actors() == [P3] else None
    assert game.state.percent_of(Owner.player(P3), "B&O") == 60
    game.state.round.entity_index = game.state.order.index(P3)
    with pytest.raises(IllegalOrderError, match="more than 60% of B&O"):
        game.apply(P3, BuyShares("B&O"))


def test_float_at_sixty_percent_gives_ten_times_par(game: Game) -> None:
    game.state.players[P3].cash = 5000
    for n in range(4):
        game.state.round.entity_index = game.state.order.index(P3)
        events = render_all(game.apply(P3, BuyShares("B&O")), game.money)
    assert "B&O floats" in events and "B&O receives $1000" in events
    assert game.state.corporations["B&O"].cash == 1000


def test_certificate_limit(game: Game) -> None:
    second_stock_round(game)
    limit = 20
    # Give Player 1 shares until the limit: 2 privates + 18 certificates.
    for sym in ("PRR", "NYC", "CPR"):
        game.state.corporations[sym].ipoed = True
        game.state.corporations[sym].par = (0, 6)
        game.state.corporations[sym].price = (0, 6)
        game.state.market.setdefault((0, 6), []).append(sym)
    held = 0
    per_corp: dict[str, int] = {}
    for cert in game.state.certificates:
        if cert.corporation in ("PRR", "NYC", "CPR") and not cert.president:
            if per_corp.get(cert.corporation, 0) < 6:
                cert.owner = Owner.player(P1)
                per_corp[cert.corporation] = per_corp.get(cert.corporation, 0) + 1
                held += 1
    game.state.players[P1].cash = 5000
    assert len(game.state.players[P1].companies) + held == limit
    with pytest.raises(IllegalOrderError, match="certificate limit of 20"):
        game.apply(P1, BuyShares("B&O"))


def test_sale_drops_the_price_a_row_a_share_and_blocks_rebuying(game: Game) -> None:
    game.apply(P1, BuyShares("B&O"))
    game.state.round.entity_index = 0
    second_stock_round(game)
    events = render_all(game.apply(P1, SellShares("B&O")), game.money)
    assert "Player 1 sells 1 share of B&O (10%) and receives $100" in events
    assert game.share_price("B&O") == 90
    assert game.state.percent_of(POOL, "B&O") == 10
    with pytest.raises(IllegalOrderError, match="sold B&O this round"):
        game.apply(P1, BuyShares("B&O", "pool"))


def test_buy_from_pool_at_market_price(game: Game) -> None:
    game.apply(P1, BuyShares("B&O"))
    second_stock_round(game)
    game.apply(P1, SellShares("B&O"))
    game.apply(P1, Pass())
    game.apply(P2, BuyShares("B&O", "pool"))
    assert game.state.players[P2].cash == 800 - 40 - 160 - 90
    assert game.state.percent_of(POOL, "B&O") == 0


def test_presidency_passes_to_a_player_with_more_shares(game: Game) -> None:
    second_stock_round(game)
    state = game.state
    state.players[P1].cash = 5000
    for _ in range(3):
        state.round.entity_index = state.order.index(P1)
        state.round.stock = StockRoundState()
        game.apply(P1, BuyShares("B&O"))
    assert state.corporations["B&O"].president == P1
    assert state.percent_of(Owner.player(P1), "B&O") == 30 and state.percent_of(Owner.player(P3), "B&O") == 20
    pres = next(c for c in state.certificates if c.corporation == "B&O" and c.president)
    assert pres.owner == Owner.player(P1), "the new president swaps two shares for the certificate"


def test_president_sells_only_when_another_can_take_over(game: Game) -> None:
    second_stock_round(game)
    state = game.state
    state.round.entity_index = state.order.index(P3)
    with pytest.raises(IllegalOrderError, match="no other player holds 20%"):
        game.apply(P3, SellShares("B&O", 2))
    # Player 1 buys two shares; now Player 3 may dump the presidency on Player 1.
    state.players[P1].cash = 5000
    for _ in range(2):
        state.round.entity_index = state.order.index(P1)
        state.round.stock = StockRoundState()
        game.apply(P1, BuyShares("B&O"))
    state.round.entity_index = state.order.index(P3)
    state.round.stock = StockRoundState()
    game.apply(P3, SellShares("B&O", 2))
    assert state.corporations["B&O"].president == P1
    assert state.percent_of(Owner.player(P1), "B&O") == 20 and state.percent_of(Owner.player(P3), "B&O") == 0
    assert state.percent_of(POOL, "B&O") == 20
    assert game.share_price("B&O") == 82


def test_pool_holds_at_most_half(game: Game) -> None:
    second_stock_round(game)
    state = game.state
    for cert in state.certificates:
        if cert.corporation == "B&O" and not cert.president and cert.index <= 6:
            cert.owner = Owner.player(P1) if cert.index <= 6 else cert.owner
    state.corporations["B&O"].president = P3
    game.apply(P1, SellShares("B&O", 5))
    with pytest.raises(IllegalOrderError, match="may not hold more than 50%"):
        game.apply(P1, SellShares("B&O", 1))


def test_players_with_nothing_to_do_pass_and_priority_follows_the_last_to_act(game: Game) -> None:
    state = game.state
    for p in (P1, P2, P3):
        state.players[p].cash = 50 if p != P2 else 100
    state.round.entity_index = 0
    events = render_all(game.apply(P1, Pass()), game.money)
    # Player 2 still has money: it acts; then everyone passes.
    assert game.current_actors() == [P2]
    events = render_all(game.apply(P2, BuyShares("B&O")), game.money)
    assert "Player 3 has no valid actions and passes" in events
    assert "Player 1 has no valid actions and passes" in events
    assert "-- OR 1.1 --" in events
    assert state.order[0] == P3, "priority: the player after the last to buy"


def test_sold_out_corporations_rise_at_the_end_of_the_stock_round(game: Game) -> None:
    state = game.state
    for cert in state.certificates:
        if cert.corporation == "B&O" and not cert.president:
            cert.owner = Owner.player(P1 if cert.index <= 4 else P2)
    state.corporations["B&O"].floated = True
    market.place(state, "B&O", (1, 6))
    for p in state.players.values():
        p.cash = 0
    state.round.entity_index = 0
    state.players[P1].cash = 0
    game.apply(P1, Pass()) if game.current_actors() == [P1] else None
    assert game.round_label() == "OR 1.1", "B&O operates"
    assert game.share_price("B&O") == 100, "sold out: one row up from 90"


def test_must_sell_over_the_certificate_limit(game: Game) -> None:
    second_stock_round(game)
    state = game.state
    state.corporations["PRR"].ipoed = True
    state.corporations["PRR"].par = (0, 6)
    state.corporations["PRR"].price = (0, 6)
    state.market.setdefault((0, 6), []).append("PRR")
    for sym in ("NYC", "CPR"):
        state.corporations[sym].ipoed = True
        state.corporations[sym].par = (0, 6)
        market.place(state, sym, (0, 6))
    given = 0
    per_corp: dict[str, int] = {}
    for cert in state.certificates:
        if cert.corporation in ("PRR", "NYC", "CPR", "B&O") and not cert.president:
            if per_corp.get(cert.corporation, 0) < 5:
                cert.owner = Owner.player(P1)
                per_corp[cert.corporation] = per_corp.get(cert.corporation, 0) + 1
                given += 1
    assert len(state.players[P1].companies) + given > 20
    legal = game.legal_actions(P1)
    assert legal and all(isinstance(a, SellShares) for a in legal)
    with pytest.raises(IllegalOrderError, match="must sell"):
        game.apply(P1, Pass())


@pytest.mark.parametrize("title,record,action_id", [
    ("1830", "26855.json", 40), ("1870", "1870_game_end_bank.json", 60),
    ("1870", "1870_game_end_bank.json", 100), ("1870", "1870_game_end_bank.json", 300),
    ("1870", "price_protect_allowed_40469.json", 200),
])
def test_par_offers_and_has_actions_agree_with_the_rule_checks(title: str, record: str, action_id: int) -> None:
    """The par options worked out once a call are exactly the pars :func:`par_problem` allows,
    in order (corporation, then highest price); ``has_actions`` says whether ``legal_actions``
    offers anything, for every player, on recorded stock-round positions."""
    from pbem.engine.steps.stock import par_offers, par_problem
    from tests.records import replayed_before

    game = replayed_before(title, record, action_id).game
    assert game.state.round.kind == "stock"
    step = game.hooks.sequence.stock_step()
    prices = [market.price_at(game.title, c) for c in game.title.par_cells()]
    for player in game.state.seats:
        expected = [Par(sym, price) for sym in game.state.corporations for price in prices
                    if par_problem(game, player, sym, price) is None]
        assert par_offers(game, player) == expected
        assert step.has_actions(game, player) is bool(list(step.legal_actions(game, player)))
    assert any(par_offers(game, p) for p in game.state.seats) or title == "1870", "some par is open"


def test_par_offers_stop_at_the_certificate_limit_and_after_a_purchase(game: Game) -> None:
    from pbem.engine.steps.stock import par_offers

    assert Par("PRR", 67) in par_offers(game, P1)
    sr = game.state.round.stock
    assert sr is not None
    sr.turn_actions = ["buy"]
    assert par_offers(game, P1) == [], "one certificate a turn"
    sr.turn_actions = []
    assert Par("PRR", 67) in par_offers(game, P1)
    from pbem.engine import shares

    limit = shares.certificate_limit(game.state, game.title)
    for cert in [c for c in game.state.certificates if c.owner == IPO and c.corporation != "PRR"][:limit]:
        cert.owner = Owner.player(P1)
    assert par_offers(game, P1) == []
