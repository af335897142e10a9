"""1829 on Dagger's combined boards (seed 003), clause by clause, each on a built position:
the start (the private railways sold first, cheapest first, those of one price together),
the share launches, the starting prices, the last four's three-share Director's
certificates, the starting capital and certificate limits, the 5% rule, the fall won back by
rebuying, the L&M's exchange for an L&YR share, the packets and their port income, the end
after 30 operating rounds, and the GNSR and big-bank options."""

from __future__ import annotations

import pytest

from pbem import report_sections as sections
from pbem.engine import market, shares
from pbem.engine.actions import BuyPrivate, BuyShares, Par, Pass, SellShares
from pbem.engine.events.base import Event, render_all
from pbem.engine.game import Game
from pbem.engine.state import IPO, RoundKind, RoundState
from pbem.engine.stock_rules import PriceMove
from pbem.engine.values import CityRef, Owner
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title
from pbem.titles.g1829.launches import Launched
from pbem.titles.g1829.state import state1829
from tests.changed import with_title_rules

FIVE = ["Ann", "Bob", "Cat", "Dan", "Eve"]
RAILWAYS = ["S&M", "A&F", "C&HP", "C&W", "S&D", "L&M"]


def new_game(players: list[str] = FIVE, variants: tuple[str, ...] = ()) -> Game:
    return Game(load_title("1829", variants), list(players))


def sell_railways(game: Game) -> list[Event]:
    """The six private railways bought in turn, cheapest first; the last purchase's events."""
    events: list[Event] = []
    for company in RAILWAYS:
        events = game.apply(game.current_actors()[0], BuyPrivate(company))
    return events


def started(game: Game, sym: str, president: str, *, floated: bool = True) -> None:
    """``sym`` started at its starting price by ``president``, who holds 60% when floated."""
    corp = game.state.corporations[sym]
    par = game.title.corporation(sym).par
    assert par is not None
    coord = market.par_coord(game.title, par)
    assert coord is not None
    corp.ipoed, corp.president, corp.par, corp.price = True, president, coord, coord
    market.place(game.state, sym, coord)
    certs = [c for c in game.state.certificates if c.corporation == sym]
    owned = 0
    for cert in sorted(certs, key=lambda c: c.index):
        if owned >= (60 if floated else 20):
            break
        cert.owner = Owner.player(president)
        owned += cert.percent
    corp.floated = floated
    if floated:
        corp.cash = 10 * par


# -- the start --------------------------------------------------------------------------------


def test_the_game_begins_with_a_stock_round_offering_the_two_cheapest_railways_together() -> None:
    game = new_game()
    assert game.state.round.kind == RoundKind.STOCK and game.state.round.number == 1
    first = game.current_actors()[0]
    offered = game.legal_actions(first)
    assert {a.company for a in offered if isinstance(a, BuyPrivate)} == {"S&M", "A&F"}
    assert not [a for a in offered if isinstance(a, (Par, BuyShares))]
    with pytest.raises(IllegalOrderError, match="C&HP is not on offer yet"):
        game.apply(first, BuyPrivate("C&HP"))
    with pytest.raises(IllegalOrderError, match="every private railway"):
        game.apply(first, Par("LNWR", 100))


def test_a_railway_is_sold_at_face_value_and_is_the_turns_one_purchase() -> None:
    game = new_game()
    first = game.current_actors()[0]
    cash = game.state.players[first].cash
    game.apply(first, BuyPrivate("A&F"))
    assert game.state.players[first].cash == cash - 30
    assert game.state.companies["A&F"].owner == Owner.player(first)
    second = game.current_actors()[0]
    assert second != first, "a purchase ends the turn in the start as a share purchase does"
    assert {a.company for a in game.legal_actions(second) if isinstance(a, BuyPrivate)} == {"S&M"}


def test_once_the_railways_are_sold_the_first_three_are_launched_and_the_cheapest_packet_offered() -> None:
    game = new_game()
    events = sell_railways(game)
    assert [e.corporations for e in events if isinstance(e, Launched)] == [("LNWR", "GWR", "NER")]
    player = game.current_actors()[0]
    legal = game.legal_actions(player)
    assert {(a.corporation, a.price) for a in legal if isinstance(a, Par)} == {("LNWR", 100), ("GWR", 90), ("NER", 90)}
    assert {a.company for a in legal if isinstance(a, BuyPrivate)} == {"HULL"}
    with pytest.raises(IllegalOrderError, match="MR is not on offer yet: it is offered after 3 operating rounds"):
        game.apply(player, Par("MR", 82))
    assert "PAR GWR 90" in "\n".join(sections.options(game, player))


def test_a_company_starts_at_its_starting_price_only() -> None:
    game = new_game()
    sell_railways(game)
    player = game.current_actors()[0]
    with pytest.raises(IllegalOrderError, match="LNWR starts at 100 only"):
        game.apply(player, Par("LNWR", 90))
    game.apply(player, Par("LNWR", 100))
    assert market.price_at(game.title, game.state.corporations["LNWR"].price) == 100


def test_the_starting_prices_are_the_seeds_table() -> None:
    table = {"LNWR": 100, "GWR": 90, "NER": 90, "MR": 82, "LSWR": 76, "NBR": 76, "CR": 72, "GNR": 71,
             "LBSC": 67, "L&YR": 67, "GER": 64, "GCR": 61, "GSWR": 58, "HR": 56, "SECR": 56, "FR": 53}
    title = load_title("1829")
    assert {c.sym: c.par for c in title.corporations} == table
    tokens = {c.sym: len(c.tokens) for c in title.corporations}
    assert [tokens[s] for s in table] == [6] * 4 + [5] * 8 + [4] * 4
    for price in table.values():
        assert market.par_coord(title, price) is not None, f"{price} is a par cell"


def test_the_last_four_have_a_three_share_directors_certificate() -> None:
    title = load_title("1829")
    for corp in title.corporations:
        expected = 30 if corp.sym in ("GSWR", "HR", "SECR", "FR") else 20
        assert corp.shares[0] == expected and sum(corp.shares) == 100 and set(corp.shares[1:]) == {10}


def test_the_market_zones_are_the_seeds() -> None:
    title = load_title("1829")
    for row in title.market:
        for cell in row:
            if cell is None:
                continue
            if cell.price < 20:
                assert cell.buy_multiple, cell.price
            elif cell.price < 35:
                assert cell.unlimited_holding and not cell.buy_multiple, cell.price
            elif cell.price < 50:
                assert not cell.counts_for_limit and not cell.unlimited_holding, cell.price
            else:
                assert cell.counts_for_limit, cell.price


@pytest.mark.parametrize(("players", "cash", "limit"), [(4, 945, 34), (5, 756, 27), (6, 630, 23), (7, 540, 20),
                                                        (8, 475, 17), (9, 420, 15), (10, 378, 14)])
def test_starting_capital_and_certificate_limits(players: int, cash: int, limit: int) -> None:
    game = new_game([f"P{i}" for i in range(players)])
    assert {p.cash for p in game.state.players.values()} == {cash}
    assert shares.certificate_limit(game.state, game.title) == limit
    assert cash * players == (3800 if players == 8 else 3780)


# -- share launches ---------------------------------------------------------------------------


def _stock_round(game: Game, operating_rounds: int) -> None:
    state1829(game.state).operating_rounds = operating_rounds


def test_the_mr_waits_for_three_operating_rounds_and_the_earlier_three_floated() -> None:
    game = new_game()
    sell_railways(game)
    player = game.current_actors()[0]
    for sym in ("LNWR", "GWR"):
        started(game, sym, FIVE[0])
    _stock_round(game, 3)
    with pytest.raises(IllegalOrderError, match="offered once NER has floated"):
        game.apply(player, Par("MR", 82))
    started(game, "NER", FIVE[1], floated=False)
    with pytest.raises(IllegalOrderError, match="once NER has floated"):
        game.apply(player, Par("MR", 82))
    game.state.corporations["NER"].floated = True
    assert Par("MR", 82) in game.legal_actions(player)
    with pytest.raises(IllegalOrderError, match="LSWR is not on offer yet: it is offered after 5 operating rounds"):
        game.apply(player, Par("LSWR", 76))


@pytest.mark.parametrize(("after", "group"), [(5, ("LSWR", "NBR")), (7, ("CR", "GNR")),
                                              (9, ("LBSC", "L&YR", "GER", "GCR")),
                                              (11, ("GSWR", "HR", "SECR", "FR"))])
def test_each_later_group_opens_after_its_operating_rounds_once_all_before_floated(after: int, group: tuple[str, ...]) -> None:
    game = new_game()
    sell_railways(game)
    order = [c.sym for c in game.title.corporations]
    for sym in order[:order.index(group[0])]:
        started(game, sym, FIVE[0])
    player = game.current_actors()[0]
    _stock_round(game, after - 1)
    assert not {a.corporation for a in game.legal_actions(player) if isinstance(a, Par)} & set(group)
    _stock_round(game, after)
    assert {a.corporation for a in game.legal_actions(player) if isinstance(a, Par)} == set(group)


# -- share prices -----------------------------------------------------------------------------


@pytest.mark.parametrize(("paid", "moves"), [(0, (PriceMove.LEFT,)), (50, ()), (40, ()), (51, (PriceMove.RIGHT,)),
                                             (500, (PriceMove.RIGHT,))])
def test_a_dividend_raises_the_price_only_above_five_percent(paid: int, moves: tuple[PriceMove, ...]) -> None:
    game = new_game()
    started(game, "LNWR", FIVE[0])  # at 100: £5 a share is 5%, not more
    assert game.hooks.dividends.dividend_moves(game, "LNWR", paid, paid) == moves


def test_the_percent_of_the_five_percent_rule_is_a_setting() -> None:
    game = Game(with_title_rules(load_title("1829"), dividend_rise_above_percent=0), FIVE)
    started(game, "LNWR", FIVE[0])
    assert game.hooks.dividends.dividend_moves(game, "LNWR", 10, 10) == (PriceMove.RIGHT,)


def turn(game: Game, action: BuyShares | SellShares) -> str:
    """The player on turn makes ``action`` and ends the turn; returns who it was."""
    player = game.current_actors()[0]
    game.apply(player, action)
    if game.current_actors() == [player]:
        game.apply(player, Pass())
    return player


def price(game: Game, sym: str) -> int:
    return market.price_at(game.title, game.state.corporations[sym].price)


def test_a_fall_by_sales_is_won_back_by_rebuying_from_the_pool_in_the_same_round() -> None:
    game = new_game()
    sell_railways(game)
    started(game, "LNWR", "Ann")
    for cert in [c for c in game.state.certificates if c.corporation == "LNWR" and c.owner == IPO][:2]:
        cert.owner = Owner.player("Bob")
    game.state.round.number = 2  # sales allowed
    game.state.round.entity_index = game.state.order.index("Bob")
    assert turn(game, SellShares("LNWR", 2)) == "Bob"
    assert price(game, "LNWR") == 82
    turn(game, BuyShares("LNWR", "pool"))
    assert price(game, "LNWR") == 90, "one share rebought: one row won back"
    turn(game, BuyShares("LNWR", "pool"))
    assert price(game, "LNWR") == 100
    turn(game, BuyShares("LNWR", "ipo"))
    assert price(game, "LNWR") == 100, "nothing more to win back"


@pytest.mark.parametrize(("reading", "after_ipo_purchase"), [("pool", 90), ("any", 100), ("none", 90)])
def test_purchases_before_a_sale_never_win_back_and_ipo_purchases_only_where_set(reading: str,
                                                                                 after_ipo_purchase: int) -> None:
    game = Game(with_title_rules(load_title("1829"), rebuy_restores_price=reading), FIVE)
    sell_railways(game)
    started(game, "LNWR", "Ann")
    game.state.round.number = 2
    next(c for c in game.state.certificates if c.corporation == "LNWR" and c.owner == IPO).owner = Owner.player("Dan")
    game.state.round.entity_index = game.state.order.index("Cat")
    assert turn(game, BuyShares("LNWR", "ipo")) == "Cat"  # before any sale: banks nothing
    assert turn(game, SellShares("LNWR", 1)) == "Dan"
    assert price(game, "LNWR") == 90
    assert turn(game, BuyShares("LNWR", "ipo")) == "Eve"
    assert price(game, "LNWR") == after_ipo_purchase


def test_a_fall_in_an_earlier_round_is_not_won_back() -> None:
    game = new_game()
    sell_railways(game)
    started(game, "LNWR", "Ann")
    state1829(game.state).drops["LNWR"] = 2
    game.hooks.sequence.new_stock_round(game)
    assert state1829(game.state).drops == {}


# -- the L&M ----------------------------------------------------------------------------------


def test_the_lm_closes_into_an_lyr_share_when_the_lyr_floats() -> None:
    game = new_game()
    sell_railways(game)
    owner = game.state.companies["L&M"].owner
    assert owner is not None and owner.is_player
    buyer, *others = [p for p in FIVE if p != owner.name]
    order = [c.sym for c in game.title.corporations]
    for i, sym in enumerate(order[:order.index("L&YR")]):
        started(game, sym, others[i % len(others)])  # nobody over the certificate limit
    _stock_round(game, 9)
    started(game, "L&YR", buyer, floated=False)  # 20%
    game.state.round.number = 2
    for _ in range(3):
        for cert in [c for c in game.state.certificates if c.corporation == "L&YR" and c.owner == IPO][:1]:
            cert.owner = Owner.player(buyer)
    # the fourth share makes 60%: the buyer's purchase floats the L&YR
    game.state.round.entity_index = game.state.order.index(buyer)
    events = render_all(game.apply(buyer, BuyShares("L&YR", "ipo")), game.money)
    assert game.state.corporations["L&YR"].floated
    assert game.state.companies["L&M"].closed and "L&M" not in game.state.players[owner.name].companies
    assert game.state.percent_of(Owner.player(owner.name), "L&YR") == 10
    assert any("L&M closes and" in line and owner.name in line for line in events)
    # not a purchase of the owner's: on their turn they may still buy
    game.apply(buyer, Pass())
    while game.current_actors()[0] != owner.name:
        game.apply(game.current_actors()[0], Pass())
    assert BuyShares("L&YR", "ipo") in game.legal_actions(owner.name)


# -- packets ----------------------------------------------------------------------------------


def _operating(game: Game, corp: str) -> None:
    from pbem.engine.state import OperatingState

    game.state.round = RoundState(kind=RoundKind.OPERATING, number=1, or_number=1,
                                  operating=OperatingState(order=[corp]))


def test_a_station_in_an_owned_packets_port_earns_forty_at_the_start_of_the_turn() -> None:
    game = new_game()
    sell_railways(game)
    started(game, "FR", "Ann")  # home Barrow (M9), the Barrow packet's port
    game.state.tokens[CityRef("M9", 0)] = ["FR"]
    cash = game.state.corporations["FR"].cash
    game.hooks.sequence.corporation_turn_started(game, "FR")
    assert game.state.corporations["FR"].cash == cash, "an unsold packet pays nobody"
    game.state.companies["BARROW"].owner = Owner.player("Bob")
    game.state.players["Bob"].companies.append("BARROW")
    game.pending_events = []
    game.hooks.sequence.corporation_turn_started(game, "FR")
    lines = render_all(game.pending_events, game.money)
    assert game.state.corporations["FR"].cash == cash + 40
    assert any("Barrow" in line or "BARROW" in line for line in lines)


def test_packets_are_offered_cheapest_first_those_of_one_price_together() -> None:
    game = new_game()
    sell_railways(game)
    from pbem.titles.g1829.stock import for_sale

    assert for_sale(game) == ["HULL"]
    for sym in ("HULL", "BARROW", "HOLYHEAD"):
        game.state.companies[sym].owner = Owner.player("Ann")
    assert for_sale(game) == ["HARWICH", "STRANRAER"]
    for sym in ("HARWICH", "STRANRAER"):
        game.state.companies[sym].owner = Owner.player("Ann")
    assert for_sale(game) == ["DOVER", "ABERDEEN"]


def test_privates_count_in_a_players_final_worth() -> None:
    game = new_game()
    sell_railways(game)
    owner = game.state.companies["L&M"].owner
    assert owner is not None
    held = game.state.players[owner.name].companies
    assert "L&M" in held
    faces = sum(game.title.company(c).value for c in held)
    assert game.player_value(owner.name) == game.state.players[owner.name].cash + faces


# -- the end and the options -----------------------------------------------------------------


@pytest.mark.parametrize(("limit", "ends"), [(30, True), (26, True), (31, False), (0, False)])
def test_the_game_ends_after_the_settings_operating_rounds(limit: int, ends: bool) -> None:
    game = Game(with_title_rules(load_title("1829"), end_after_operating_rounds=limit), FIVE)
    state1829(game.state).operating_rounds = (30 if limit != 26 else 26) - 1  # completed before this one
    finished = RoundState(kind=RoundKind.OPERATING, number=10, or_number=game.state.operating_rounds)
    following = game.hooks.sequence.next_round(game, finished)
    assert (following is None) == ends
    assert game.state.finished == ends
    assert state1829(game.state).operating_rounds == (30 if limit != 26 else 26)


def test_big_bank_is_one_and_a_half_times_and_has_no_round_limit() -> None:
    title = load_title("1829", ("big_bank",))
    assert title.bank_cash == 30000 == 3 * load_title("1829").bank_cash // 2
    assert title.title_rule("end_after_operating_rounds") == 0


def test_gnsr_replaces_the_highland_with_its_certificates_and_price_at_aberdeen() -> None:
    title = load_title("1829", ("gnsr",))
    syms = [c.sym for c in title.corporations]
    assert "HR" not in syms and syms.index("GNSR") == 13
    gnsr = title.corporation("GNSR")
    assert gnsr.home == "B12" and gnsr.par == 56 and gnsr.shares[0] == 30


def test_five_e_adds_two_trains_from_phase_4_at_the_4_4e_price() -> None:
    title = load_title("1829", ("five_e",))
    five_e = next(t for t in title.trains if t.name == "5E")
    assert (five_e.count, five_e.price, five_e.available_on) == (2, 830, "4")
    counts = {t.name: t.count for t in load_title("1829").trains}
    assert counts == {"2": 10, "3": 9, "4": 6, "5": 5, "3T": 5, "6": 3, "2+2": 3, "7": 6}


def test_help_lists_the_settings_in_force() -> None:
    from pbem.orders import help_text

    plain = " ".join(help_text(title=load_title("1829")).split())
    assert "(end_after_operating_rounds): 30;" in plain and "survey parties a company has (survey_parties): 1;" in plain
    assert "Director's certificates of three shares" in plain
    assert "SURVEY [<from>] <hex>" in plain and "PARK" in plain
    big = " ".join(help_text(title=load_title("1829", ("big_bank",))).split())
    assert "(end_after_operating_rounds): 0;" in big


def test_a_2_plus_2_pays_double_and_a_5e_pays_its_best_five_stops_of_any_number() -> None:
    from pbem.engine.ids import TrainId
    from pbem.engine.values import Vertex

    game = new_game(variants=("five_e",))
    routes = game.hooks.routes
    stops = [Vertex("Q11", "c0"), Vertex("P4", "c0"), Vertex("N20", "c0"), Vertex("V14", "c0"),
             Vertex("V20", "c0"), Vertex("O11", "c0"), Vertex("O9", "c0")]   # 10 20 20 10 50 40 40
    two_two = (TrainId("2+2", 0),)
    assert routes.run_revenue(game, "LNWR", two_two, stops[:2], 30) == 60
    assert routes.run_problem(game, "LNWR", two_two, stops[:3]) is not None, "a 2+2 visits two stops"
    five_e = (TrainId("5E", 0),)
    assert routes.run_problem(game, "LNWR", five_e, stops) is None, "any number of stops"
    assert routes.run_revenue(game, "LNWR", five_e, stops, 190) == 50 + 40 + 40 + 20 + 20
    assert routes.run_revenue(game, "LNWR", (TrainId("3", 0),), stops[:3], 50) == 50


@pytest.mark.parametrize(("board", "corporations", "packets"), [
    ((), 16, {"HULL", "BARROW", "HOLYHEAD", "HARWICH", "STRANRAER", "DOVER", "ABERDEEN"}),
    (("south",), 10, {"HULL", "PRESTON", "HOLYHEAD", "HARWICH", "DOVER"}),
    (("north",), 11, {"HULL", "BARROW", "HOLYHEAD", "STRANRAER", "ABERDEEN"}),
])
def test_each_board_plays_the_companies_whose_homes_hexes_and_ports_it_has(
        board: tuple[str, ...], corporations: int, packets: set[str]) -> None:
    from pbem.engine.abilities import BlocksHexes
    from pbem.titles.g1829.packets import Packet

    title = load_title("1829", board)
    hexes = set(Game(title, FIVE).board.hexes)
    assert len(title.corporations) == corporations
    assert all(c.home in hexes for c in title.corporations)
    assert {c.sym for c in title.companies if c.ability(Packet) is not None} == packets
    for company in title.companies:
        packet, blocks = company.ability(Packet), company.ability(BlocksHexes)
        assert packet is None or packet.port in hexes, company.sym
        assert blocks is None or set(blocks.hexes) <= hexes, company.sym
    assert len([c for c in title.companies if c.ability(Packet) is None]) == (6 if not board else 4)


def test_on_one_board_the_launch_groups_keep_the_schedule_with_that_boards_companies() -> None:
    from pbem.titles.g1829 import launches

    south = new_game(FIVE[:4], ("south",))
    assert launches.groups(south) == [("LNWR", "GWR"), ("MR",), ("LSWR",), ("GNR",), ("LBSC", "L&YR", "GER", "GCR"),
                                      ("SECR",)]
    north = new_game(FIVE[:4], ("north", "gnsr"))
    assert launches.groups(north)[-1] == ("GSWR", "GNSR", "FR")


def test_the_first_certificate_sold_of_a_company_is_its_directors() -> None:
    game = new_game()
    sell_railways(game)
    player = game.current_actors()[0]
    assert BuyShares("LNWR", "ipo") not in game.legal_actions(player)
    with pytest.raises(IllegalOrderError, match=r"LNWR has not been started \(PAR it first\)"):
        game.apply(player, BuyShares("LNWR", "ipo"))
    game.apply(player, Par("LNWR", 100))
    director = next(c for c in game.state.certificates if c.corporation == "LNWR" and c.president)
    assert director.owner == Owner.player(player) and director.percent == 20


def test_orders_may_name_a_company_by_its_code_on_the_map() -> None:
    from pbem.orders import Vocabulary, format_order, parse_order

    vocab = Vocabulary.from_title(load_title("1829"))
    assert parse_order("PAR LNW 100", vocab) == Par("LNWR", 100)
    assert parse_order("buy cal", vocab) == BuyShares("CR", "ipo")
    assert format_order(parse_order("BUY MID", vocab), vocab) == "BUY MR"
    assert parse_order("BUY LYR", vocab) == BuyShares("L&YR", "ipo")  # the symbol without '&' still wins
