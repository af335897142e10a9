"""1870's rules on hand-built positions: the Mississippi bridge, half payouts, the stock
market's edges and destination doubling (faults 1 and 4 of the reference list)."""

from __future__ import annotations

from typing import Callable

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.values import CityRef
from pbem.engine import track, upgrades
from pbem.engine.game import Game
from pbem.engine.state import CorporationState
from pbem.engine.values import IPO, POOL, Owner, Vertex
from pbem.engine.events import render_all
from pbem.ruleset import load_title
from pbem.titles.g1870.settings import settings1870
from pbem.titles.g1870 import market as ledge
from pbem.titles.g1870.state import state1870


@pytest.fixture
def game() -> Game:
    g = Game(load_title("1870"), ["A", "B", "C"])
    g.state.companies["MRBC"].owner = Owner.player("A")
    g.state.players["A"].companies.append("MRBC")
    return g


def crosses(game: Game, coord: str, tile: str, rotation: int) -> bool:
    problem = track.lay_problem(game, "MP", coord, tile, rotation, ignore_reach=True)
    return problem is not None and "cross the Mississippi" in problem


def test_no_track_crosses_the_river_while_a_player_owns_the_bridge(game: Game) -> None:
    # MP's first home tile at St. Louis with exits on both banks
    assert crosses(game, "C18", "5", 1)
    assert not crosses(game, "C18", "5", 0), "both exits on the city's (west) bank"
    # a double-town tile at A16 laid across the river
    assert all(crosses(game, "A16", "1", r) for r in range(6))
    # an upgrade at Memphis whose paths cross the river
    game.state.tiles["H17"] = ("57", 0)
    game.state.phase = "2"
    kept = [(t, r) for t in ("14", "15") for r in range(6)
            if upgrades.upgrade_problem(game, "H17", game.tiles[t], r) is None]
    assert kept, "some green tile keeps Memphis's track"
    assert any(crosses(game, "H17", t, r) for t, r in kept)
    assert all(crosses(game, "H17", t, r) != (game.tiles[t].exits(r) <= {0, 3, 4, 5}) for t, r in kept)
    # plain track in a river hex keeps each path to one bank
    assert crosses(game, "B17", "9", 0)
    assert not crosses(game, "B17", "9", 2)


def test_the_bridge_opens_once_a_corporation_owns_it(game: Game) -> None:
    game.state.companies["MRBC"].owner = Owner.corporation("MP")
    game.state.players["A"].companies.remove("MRBC")
    assert not crosses(game, "C18", "5", 1)
    assert not crosses(game, "B17", "9", 0)


def test_half_pay_keeps_half_rounded_to_whole_shares(game: Game) -> None:
    kept, per_share = game.hooks.dividends.split(90, "half", 10)
    assert (kept, per_share) == (40, 5.0)
    assert game.hooks.dividends.dividend_moves(game, "MP", 90, 50) == (), "half: the price stays"
    assert game.hooks.dividends.dividend_moves(game, "MP", 90, 90) == ("right",)
    assert game.hooks.dividends.dividend_moves(game, "MP", 90, 0) == ("left",)
    assert game.hooks.dividends.pays_the_corporation(IPO) and not game.hooks.dividends.pays_the_corporation(POOL)


def test_market_edges(game: Game) -> None:
    title = game.title
    hooks = game.hooks
    # up from the top row: one right and one down (18xx.games), so the price holds
    assert hooks.stock.up(title, (0, 3)) == (1, 4)
    # a cell marked i is not entered by moving right: the move goes up instead
    row = [c for c in title.market[2]]
    ledge = next(c for c in range(len(row) - 1) if row[c + 1] is not None and "i" in row[c + 1].zone)
    assert hooks.stock.right(title, (2, ledge)) == hooks.stock.up(title, (2, ledge))


def test_destination_counts_twice_only_at_an_end_of_the_run(game: Game) -> None:
    from pbem.titles.g1870.connections import destination
    from pbem.titles.g1870.state import state1870

    assert destination(game.title, "GMO") == "C18"
    game.state.tiles["C18"] = ("5", 0)
    game.state.tiles["B19"] = ("57", 0)
    st_louis = track.stop_revenue(game, Vertex("C18", "c0"))
    assert st_louis > 0
    assert game.hooks.routes.extra_revenue(game, "GMO", [Vertex("B19", "c0"), Vertex("C18", "c0")]) == 0, \
        "no doubling before the corporation has connected to its destination"
    state1870(game.state).destinations_reached.append("GMO")
    assert game.hooks.routes.extra_revenue(game, "GMO", [Vertex("B19", "c0"), Vertex("C18", "c0")]) == st_louis
    assert game.hooks.routes.extra_revenue(game, "GMO", [Vertex("C18", "c0"), Vertex("B19", "c0")]) == st_louis
    assert game.hooks.routes.extra_revenue(game, "GMO", [Vertex("B19", "c0"), Vertex("C18", "c0"), Vertex("D17", "t0")]) == 0
    assert game.hooks.routes.extra_revenue(game, "MP", [Vertex("B19", "c0"), Vertex("C18", "c0")]) == 0, "GMO's destination only"


def test_bridge_company_bought_in_the_first_turn_gives_a_free_extra_home_lay(game: Game) -> None:
    """Fault 2 of the reference list: MP buys MRBC in its first operating turn and lays its
    home tile with it: no cost, not one of its two lays, and no upgrade there this turn."""
    from pbem.engine.actions import BuyPrivate, LayTile
    from pbem.engine.state import OperatingState, RoundState

    state = game.state
    corp = state.corporations["MP"]
    corp.cash, corp.floated, corp.ipoed, corp.president = 500, True, True, "B"
    corp.par = corp.price = (1, 6)
    state.market[(1, 6)] = ["MP"]
    state.tokens[CityRef("C18", 0)] = ["MP"]
    state.round = RoundState(kind="operating", operating=OperatingState(order=["MP"]))
    game.apply("B", BuyPrivate("MRBC", 40))
    assert corp.cash == 460
    bank = state.bank
    events = render_all(game.apply("B", LayTile("C18", "5", 3, using="MRBC")), game.money)  # across: MP owns the bridge now
    assert corp.cash == 460, "the home lay is free"
    assert state.bank == bank, "the discount is the bank's: it receives nothing, and no money is made"
    assert "MP receives a discount of $40 from MRBC" in events
    state.phase = "2"  # so that an upgrade would otherwise be possible
    with pytest.raises(Exception, match="may not be upgraded in the round its free tile was laid"):
        game.apply("B", LayTile("C18", "14", 3))
    state.phase = "1"
    game.apply("B", LayTile("B19", "57", 0))
    game.apply("B", LayTile("A20", "8", 4))
    assert state.round.operating.tiles_laid == 2, "the free home lay did not use up a lay"


def test_baton_rouge_river_cost_is_80(game: Game) -> None:
    """Fault 5 of the reference list (second part)."""
    assert game.board.hexes["M14"].cost == 80
    assert game.board.hexes["M14"].terrain == "river"


def started(g: Game, sym: str, president: str, price: int = 76) -> CorporationState:
    """``sym`` parred at ``price``, floated and operated, ``president`` its president (no
    certificates moved)."""
    from pbem.engine import market as mk

    corp = g.state.corporations[sym]
    coord = mk.par_coord(g.title, price)
    assert coord is not None
    corp.par = coord
    mk.place(g.state, sym, coord)
    corp.ipoed = corp.floated = corp.operated = True
    corp.president = president
    return corp


def sr_game() -> Game:
    """A 1870 stock round (SR 2) with MP started: B president with 60%, C 10%."""
    from pbem.engine.state import RoundState, StockRoundState

    g = Game(load_title("1870"), ["A", "B", "C"])
    state = g.state
    started(g, "MP", "B").cash = 300
    for cert in state.certificates:
        if cert.corporation == "MP" and cert.index <= 4:
            cert.owner = Owner.player("B")
        if cert.corporation == "MP" and cert.index == 5:
            cert.owner = Owner.player("C")
    state.round = RoundState(kind="stock", number=2, stock=StockRoundState())
    state.round.entity_index = state.order.index("B")
    return g


def test_share_redemption_from_a_player_when_the_pool_has_none() -> None:
    from pbem.titles.g1870.actions import Redeem

    g = sr_game()
    cash_c = g.state.players["C"].cash
    with pytest.raises(Exception, match="name the player"):
        g.apply("B", Redeem("MP", "pool"))
    events = render_all(g.apply("B", Redeem("MP", "C")), g.money)
    assert "MP (B) redeems a 10% share from C for $76" in events
    assert g.state.players["C"].cash == cash_c + 76
    assert g.state.corporations["MP"].cash == 300 - 76
    cert = next(c for c in g.state.certificates if c.corporation == "MP" and c.index == 5)
    assert cert.owner == IPO and state1870(g.state).withheld(cert)
    assert g.current_actors() != ["B"], "a redemption is the president's whole turn"
    from pbem.engine import shares

    for_sale = shares.pick_certificates(g.state, IPO, "MP", 10)
    assert 5 not in [c.index for c in for_sale], "a redeemed share is not for sale until reissued"


def test_1870_sell_then_buy_ends_the_selling() -> None:
    from pbem.engine.actions import BuyShares, SellShares

    g = sr_game()
    g.apply("B", SellShares("MP", 1))
    with pytest.raises(Exception, match="one lot a turn"):
        g.apply("B", SellShares("MP", 1))
    from pbem.engine import market as mk

    gmo = g.state.corporations["GMO"]
    gmo.par = mk.par_coord(g.title, 68)
    assert gmo.par is not None
    mk.place(g.state, "GMO", gmo.par)
    gmo.ipoed, gmo.president = True, "A"
    next(c for c in g.state.certificates if c.corporation == "GMO" and c.president).owner = Owner.player("A")
    g.apply("B", BuyShares("GMO"))
    assert g.current_actors() != ["B"], "sold, then bought: nothing more to do, the turn ends"
    from pbem.engine.steps.stock import sell_problem

    g.state.round.entity_index = g.state.order.index("B")
    g.state.round.stock.turn_actions = ["sell", "buy"]  # as if still in that turn
    assert sell_problem(g, "B", "GMO", 1) == "this turn has sold and then bought: no more sales"


def test_cattle_and_port_tokens_add_revenue(game: Game) -> None:
    from pbem.engine.actions import Assign
    from pbem.engine.state import OperatingState, RoundState
    from pbem.engine.steps import operating

    state = game.state
    for sym, corp in (("SCC", "ATSF"), ("GSC", "GMO")):
        state.companies[sym].owner = Owner.corporation(corp)
    state.round = RoundState(kind="operating", operating=OperatingState(order=["ATSF"]))
    with pytest.raises(Exception, match="goes on one of"):
        operating.assign_token(game, "ATSF", Assign("SCC", "C18"))
    operating.assign_token(game, "ATSF", Assign("SCC", "B9"))
    operating.assign_token(game, "GMO", Assign("GSC", "M20"))
    assert game.hooks.routes.extra_revenue(game, "ATSF", [Vertex("B11", "c0"), Vertex("B9", "c0")]) == 10, "cattle: +10 for its corporation"
    assert game.hooks.routes.extra_revenue(game, "SLSF", [Vertex("B11", "c0"), Vertex("B9", "c0")]) == 0, "and no one else"
    assert game.hooks.routes.extra_revenue(game, "GMO", [Vertex("M20", "c0"), Vertex("M18", "t0")]) == 20, "open port: +20 for its corporation"
    assert game.hooks.routes.extra_revenue(game, "MP", [Vertex("M20", "c0"), Vertex("M18", "t0")]) == 10, "open port: +10 for the others"
    operating.assign_token(game, "GMO", Assign("GSC", "M20"))
    assert state.companies["GSC"].closed, "the second use closes the port and the company"
    assert game.hooks.routes.extra_revenue(game, "MP", [Vertex("M20", "c0"), Vertex("M18", "t0")]) == 0, "closed port: others get nothing"
    assert game.hooks.routes.extra_revenue(game, "GMO", [Vertex("M20", "c0"), Vertex("M18", "t0")]) == 20


def test_price_protection_holds_the_price_or_the_drop_follows() -> None:
    """1870's price protection: a sale's drop waits; the president (not the seller) may buy
    the shares back at the sale price; declined, the price drops."""
    from pbem.engine.actions import BuyShares, Pass, SellShares

    g = sr_game()
    state = g.state
    # C holds 10% of MP and sells it; B (president) is offered protection.
    state.round.entity_index = state.order.index("C")
    price = g.share_price("MP")
    g.apply("C", SellShares("MP", 1))
    g.apply("C", Pass())
    assert g.current_actors() == ["B"], "the president decides before play goes on"
    assert g.share_price("MP") == price, "the drop waits"
    cash = state.players["B"].cash
    events = render_all(g.apply("B", BuyShares("MP", "pool", 1)), g.money)
    assert f"B price protects 1 share of MP for ${price}" in events
    assert state.players["B"].cash == cash - price and g.share_price("MP") == price
    assert state.percent_of(Owner.player("B"), "MP") == 70, "protection may take the president over 60%"

    g2 = sr_game()
    g2.state.round.entity_index = g2.state.order.index("C")
    g2.apply("C", SellShares("MP", 1))
    g2.apply("C", Pass())
    events = render_all(g2.apply("B", Pass()), g2.money)
    assert "B does not price protect 1 share of MP" in events
    assert g2.share_price("MP") < price


def test_a_seller_is_not_offered_protection_of_their_own_sale() -> None:
    """Fault 6: the president who sells is not offered protection, and the price drops."""
    from pbem.engine.actions import Pass, SellShares

    g = sr_game()
    price = g.share_price("MP")
    events = render_all(g.apply("B", SellShares("MP", 1)), g.money)
    events += render_all(g.apply("B", Pass()), g.money)
    assert "B can't price protect 1 share of MP" in events
    assert g.share_price("MP") < price


def test_redeemed_shares_count_as_sold_for_the_sold_out_rise() -> None:
    """MP with players holding 80% and the corporation 20% redeemed rises at the SR's end;
    with one of those shares still unsold in the IPO it does not (replayed game 40469)."""
    from pbem.engine.steps.stock import finish_stock_round

    def finished(redeemed_all: bool) -> bool:
        g = sr_game()
        for cert in g.state.certificates:
            if cert.corporation == "MP" and cert.index == 6:
                cert.owner = Owner.player("B")
            if cert.corporation == "MP" and cert.index >= 7 and (redeemed_all or cert.index == 7):
                state1870(g.state).redeemed.add(("MP", cert.index))
        before = g.state.corporations["MP"].price
        finish_stock_round(g)
        return g.state.corporations["MP"].price != before

    assert finished(redeemed_all=True), "80% with players + 20% redeemed is sold out"
    assert not finished(redeemed_all=False), "an unsold IPO share is not sold out"


def test_an_unplaced_private_token_holds_the_turn_open_until_a_pass(game: Game) -> None:
    """Replayed games 34110, 40469: a corporation owning SCC or GSC with a token still to
    place is offered the token (and must PASS) at its turn's end."""
    from pbem.engine.actions import Assign
    from pbem.engine.state import OperatingState, RoundState
    from pbem.engine.steps import operating

    state = game.state
    state.round = RoundState(kind="operating", operating=OperatingState(order=["ATSF"]))
    assert operating.usable_abilities(game, "GMO") == []
    state.companies["SCC"].owner, state.companies["GSC"].owner = Owner.corporation("ATSF"), Owner.corporation("GMO")
    assert operating.usable_abilities(game, "ATSF") == ["SCC"]
    assert operating.BuyCompany.offers(game)
    assert operating.BuyCompany.describe(game) == \
        "place the SCC token (ASSIGN <private> <hex>), or PASS to end the turn"
    operating.assign_token(game, "ATSF", Assign("SCC", "B9"))
    assert operating.usable_abilities(game, "ATSF") == [], "the cattle token is placed once"
    operating.assign_token(game, "GMO", Assign("GSC", "M20"))
    assert operating.usable_abilities(game, "GMO") == ["GSC"], "the closed port may still follow"
    operating.assign_token(game, "GMO", Assign("GSC", "M20"))
    assert operating.usable_abilities(game, "GMO") == []


def test_off_board_values_follow_the_phase_colours_up_to_blue(game: Game) -> None:
    """M22 Southeast: yellow 20, brown 30, blue 50; the 8-train phase (6) adds "blue" to the
    phase's colours without new tiles (replayed game 40469: SLSF's run E12…M22 for $290)."""
    values = {}
    for phase in ("1", "3", "4", "5", "6", "8"):
        game.state.phase = phase
        values[phase] = track.stop_revenue(game, Vertex("M22", "o"))
    assert values == {"1": 20, "3": 20, "4": 30, "5": 30, "6": 50, "8": 50}


def test_a_connection_never_turns_back_at_a_hex_side(game: Game) -> None:
    """Replayed game 1870_game_end_bank (before action 1024): tile #25 on L7 joins M6 and L9
    only by turning back at its shared edge, which no route may do; so SP (home: the
    off-board N1) is not yet connected to N17 within its 5-train, though M6 is reached."""
    tiles = {"N3": ("9", 1), "N5": ("24", 1), "N7": ("5", 1), "M6": ("63", 0), "L7": ("25", 2),
             "L9": ("8", 5), "M10": ("58", 2), "M12": ("9", 1), "M14": ("57", 1), "M16": ("8", 5),
             "L5": ("8", 3), "K6": ("20", 2), "N17": ("14", 2)}
    game.state.tiles.update(tiles)
    game.state.tokens[CityRef("N1", 0)] = ["SP", "MKT", "ATSF"]
    assert track.token_stop(game, "N1", 0) == "o", "SP's home is the off-board area N1"
    assert track.fewest_stops(game, "SP", Vertex("N1", "o"), "M6") == 2
    assert track.fewest_stops(game, "SP", Vertex("N1", "o"), "M10") is None
    assert track.fewest_stops(game, "SP", Vertex("N1", "o"), "N17") is None
    game.state.tiles["L7"] = ("40", 0)  # the recorded upgrade that joins them (action 1024)
    assert track.fewest_stops(game, "SP", Vertex("N1", "o"), "N17") == 5


def test_shares_whose_pending_drop_reaches_an_uncounted_zone_do_not_count() -> None:
    """Replayed game 40469 (action 910): after Player 3 sold FW into a drop that would take
    FW into the yellow zone, FW no longer counts against anyone's certificate limit while
    the drop waits for price protection; for the president deciding to protect, it does."""
    from pbem.engine import market as mk
    from pbem.engine import shares
    from pbem.engine.actions import Pass, SellShares

    g = sr_game()
    state, title = g.state, g.title
    def counts(coord: tuple[int, int]) -> bool:
        found = mk.cell(title, coord)
        return found is not None and found.counts_for_limit

    coords = [(r, c) for r, row in enumerate(title.market) for c in range(len(row))]
    edge = next(coord for coord in coords if counts(coord) and mk.cell(title, ledge.dropped(title, coord, 1))
                and not counts(ledge.dropped(title, coord, 1)))
    mk.move(state, title, "MP", edge)
    before = shares.certificate_count(state, title, "B")
    state.round.entity_index = state.order.index("C")
    g.apply("C", SellShares("MP", 1))
    g.apply("C", Pass())
    assert state1870(state).sell_queue
    assert shares.certificate_count(state, title, "B") == before - 5, "B's five MP certificates"
    assert shares.certificate_count(state, title, "B", uncounted=()) == before


def test_certificate_limit_drops_once_a_corporation_has_closed() -> None:
    """1870 game.yaml: 4 players have 16 certificates while all ten corporations exist, 14
    once nine or fewer remain."""
    from pbem.engine import shares

    g = Game(load_title("1870"), ["A", "B", "C", "D"])
    assert shares.certificate_limit(g.state, g.title) == 16
    g.state.corporations["TP"].closed = True
    assert shares.certificate_limit(g.state, g.title) == 14


def reissue_game(price: int, variants: tuple[str, ...] = ()) -> Game:
    """``sr_game`` with MP's price at ``price``, A holding 10% more and MP's last two shares
    redeemed into its treasury."""
    from pbem.engine import market as mk

    g = sr_game()
    if variants:
        fresh = Game(load_title("1870", variants), ["A", "B", "C"])
        fresh.state = g.state
        g = fresh
    state = g.state
    for cert in state.certificates:
        if cert.corporation == "MP" and cert.index == 6:
            cert.owner = Owner.player("A")
        if cert.corporation == "MP" and cert.index in (7, 8):
            state1870(state).redeemed.add(("MP", cert.index))
    cell = next((r, c) for r, row in enumerate(g.title.market) for c, found in enumerate(row)
                if found is not None and found.price == price)
    mk.move(state, g.title, "MP", cell)
    return g


def test_reissue_offers_the_redeemed_shares_at_the_new_par_and_pays_the_corporation() -> None:
    """1870 share reissue: at $160 the new par is the top-row price nearest 3/4 x 160 rounded
    up ($120 > old par $76); a share bought from the treasury then pays MP, not the bank."""
    from pbem.engine import shares
    from pbem.engine.actions import BuyShares
    from pbem.titles.g1870.actions import Reissue
    from pbem.orders import Vocabulary, parse_order

    g = reissue_game(160)
    state = g.state
    with pytest.raises(Exception, match="no MP share in the IPO"):
        g.apply("B", BuyShares("MP", "ipo"))
    assert Reissue("MP") in g.legal_actions("B")
    order = parse_order("REISSUE MP", Vocabulary.from_title(g.title))
    events = render_all(g.apply("B", order), g.money)
    assert "MP (B) reissues 2 shares" in events
    assert "MP's par price is now $120" in events
    assert shares.par_price(state, g.title, "MP") == 120
    assert g.current_actors() != ["B"], "a reissue is the president's whole turn"
    assert not state1870(state).redeemed
    state.round.entity_index = state.order.index("A")
    cash_a, cash_mp, bank = state.players["A"].cash, state.corporations["MP"].cash, state.bank
    g.apply("A", BuyShares("MP", "ipo"))
    assert state.players["A"].cash == cash_a - 120
    assert state.corporations["MP"].cash == cash_mp + 120, "incremental capitalization after a reissue"
    assert state.bank == bank


def test_reissue_keeps_a_higher_old_par_and_waits_for_every_original_share() -> None:
    """1870 share reissue: at $82, 3/4 x 82 rounds up to $64 — below the old par of $76, which
    stays. No reissue while an original share is still for sale in the treasury."""
    from pbem.engine import shares
    from pbem.titles.g1870.actions import Reissue

    g = reissue_game(82)
    events = render_all(g.apply("B", Reissue("MP")), g.money)
    assert not any("par price is now" in e for e in events)
    assert shares.par_price(g.state, g.title, "MP") == 76

    g2 = reissue_game(160)
    state1870(g2.state).redeemed.discard(("MP", 8))
    assert Reissue("MP") not in g2.legal_actions("B")
    with pytest.raises(Exception, match="still has shares for sale"):
        g2.apply("B", Reissue("MP"))
    with pytest.raises(Exception, match="not the president"):
        reissue_game(160).apply("B", Reissue("GMO"))


def test_max_reissue_200_caps_the_new_par() -> None:
    """1870 option "$200 maximum reissue": at $350 the new par would be $275; with the option,
    $200."""
    from pbem.engine import shares
    from pbem.titles.g1870.actions import Reissue

    g = reissue_game(350)
    g.apply("B", Reissue("MP"))
    assert shares.par_price(g.state, g.title, "MP") == 275
    capped = reissue_game(350, ("max_reissue_200",))
    capped.apply("B", Reissue("MP"))
    assert shares.par_price(capped.state, capped.title, "MP") == 200


def closing_game() -> Game:
    """``sr_game`` with MP at $10 (one row above the closing cells), a token at St. Louis, a
    train, $300 and the bridge company."""
    from pbem.engine import market as mk

    g = sr_game()
    state = g.state
    mk.move(state, g.title, "MP", (7, 1))
    assert g.share_price("MP") == 20
    mk.move(state, g.title, "MP", (8, 1))
    assert g.share_price("MP") == 10
    state.tokens[CityRef("C18", 0)] = ["MP"]
    state.corporations["MP"].trains = [state.depot.pop(0)]
    state.companies["MRBC"].owner = Owner.corporation("MP")
    state.round.entity_index = state.order.index("C")
    return g


def test_a_sale_into_the_closing_cells_still_offers_protection_and_else_closes_the_corporation() -> None:
    """Fault 6: C's sale would take MP to $0: B is still offered price protection; protected,
    MP stays at $10; declined, MP closes at once — tokens off the map, cash to the bank, its
    train to the bank pool, its private closed, its shares gone, and the certificate limit
    falls to the table for nine corporations (3 players: 20 -> 17)."""
    from pbem.engine import shares
    from pbem.engine.actions import BuyShares, Pass, SellShares

    g = closing_game()
    g.apply("C", SellShares("MP", 1))
    g.apply("C", Pass())
    assert g.current_actors() == ["B"], "protection is offered even into the closing cells"
    g.apply("B", BuyShares("MP", "pool", 1))
    assert g.share_price("MP") == 10 and not g.state.corporations["MP"].closed

    g = closing_game()
    state = g.state
    assert shares.certificate_limit(state, g.title) == 20
    bank, cash_c = state.bank, state.players["C"].cash
    g.apply("C", SellShares("MP", 1))
    g.apply("C", Pass())
    events = render_all(g.apply("B", Pass()), g.money)
    assert "MP closes" in events
    corp = state.corporations["MP"]
    assert corp.closed and corp.price is None and corp.president is None and corp.cash == 0
    assert state.bank == bank - 10 + 300, "C was paid $10 for the share, MP's $300 went to the bank"
    assert state.players["C"].cash == cash_c + 10
    assert CityRef("C18", 0) not in state.tokens
    assert state.pool_trains == [TrainId("2", 0)] and corp.trains == []
    assert state.companies["MRBC"].closed
    assert not [c for c in state.certificates if c.corporation == "MP"]
    assert state.percent_of(Owner.player("B"), "MP") == 0
    assert shares.certificate_limit(state, g.title) == 17


def test_a_withheld_dividend_into_the_closing_cells_closes_the_corporation_in_its_turn() -> None:
    """1870 market: withholding at the left edge of the $10 row moves the price down-left into
    a $0 closing cell; MP closes at once and its turn ends (no train bought)."""
    from pbem.engine import market as mk
    from pbem.engine.state import OperatingState, RoundState

    g = closing_game()
    state = g.state
    mk.move(state, g.title, "MP", (8, 1))
    other = state.corporations["GMO"]
    other.par = mk.par_coord(g.title, 68)
    mk.place(state, "GMO", (5, 6))
    other.ipoed = other.floated = True
    other.president, other.cash = "A", 500
    state.round = RoundState(kind="operating", number=2, or_number=1,
                             operating=OperatingState(order=["MP", "GMO"]))
    op = state.round.operating
    assert op is not None
    op.passed_steps = ["connection_token", "connection_route", "connection_dividend", "pending_token", "track"]
    from pbem.engine.actions import Pass

    events = render_all(g.apply("B", Pass()), g.money)  # no token; no route to run, so the revenue of $0 is withheld
    assert "MP closes" in events
    assert state.corporations["MP"].closed
    assert any("operates GMO" in e for e in events), "MP's turn ended; GMO operates next"


def test_finish_on_400_ends_the_game_when_a_price_reaches_400() -> None:
    """1870 option "$400 finish": MP at $375 pays out and moves right to $400; the game ends at
    once. Without the option the same payout goes on."""
    from pbem.engine import market as mk
    from pbem.engine.actions import Dividend
    from pbem.engine.state import OperatingState, RoundState

    def payout(variants: tuple[str, ...]) -> Game:
        g = Game(load_title("1870", variants), ["A", "B", "C"])
        g.state = sr_game().state
        state = g.state
        mk.move(state, g.title, "MP", (0, 19))
        assert g.share_price("MP") == 375
        state.round = RoundState(kind="operating", number=2, or_number=1,
                                 operating=OperatingState(order=["MP"]))
        op = state.round.operating
        assert op is not None
        op.passed_steps = ["connection_token", "connection_route", "connection_dividend", "pending_token",
                           "track", "token", "route"]
        op.revenue = 100
        g.apply("B", Dividend("payout"))
        assert g.share_price("MP") == 400
        return g

    assert payout(("finish_on_400",)).state.end_reason == "stock_market"
    assert payout(("finish_on_400",)).state.finished
    assert not payout(()).state.finished


def test_original_market_changes_three_cells() -> None:
    """1870 option "original market": the $40 cell at the left of the fifth row is no
    multiple-buy cell, and the $60 cells of rows seven and eight count against the limit."""
    plain, original = load_title("1870"), load_title("1870", ("original_market",))
    for where in ((4, 0), (6, 5), (7, 6)):
        assert plain.market[where[0]][where[1]] != original.market[where[0]][where[1]]
    assert plain.market[4][0].buy_multiple and not original.market[4][0].buy_multiple  # type: ignore[union-attr]
    assert original.market[4][0].unlimited_holding  # type: ignore[union-attr]
    assert not plain.market[6][5].counts_for_limit and original.market[6][5].counts_for_limit  # type: ignore[union-attr]
    assert original.market[7][6].price == 60 and original.market[7][6].counts_for_limit  # type: ignore[union-attr]
    changed = sum(a != b for ra, rb in zip(plain.market, original.market) for a, b in zip(ra, rb))
    assert changed == 3


def test_original_price_protection_lets_a_president_who_sold_protect() -> None:
    """1870 price protection bars a president who sold the corporation earlier in the round;
    the "original price protection" option bars only the seller of the shares at hand."""
    from pbem.engine.actions import Pass, SellShares

    def offered(variants: tuple[str, ...]) -> bool:
        g = Game(load_title("1870", variants), ["A", "B", "C"])
        g.state = sr_game().state
        state = g.state
        g.apply("B", SellShares("MP", 1))
        g.apply("B", Pass())  # B's own sale: never offered to B
        state.round.entity_index = state.order.index("C")
        state.round.stock.turn_actions = []  # type: ignore[union-attr]
        g.apply("C", SellShares("MP", 1))
        g.apply("C", Pass())
        return g.current_actors() == ["B"]

    assert not offered(())
    assert offered(("can_protect_if_sold",))


def or_sale_game(variants: tuple[str, ...] = (), setup: Callable[[Game], None] | None = None) -> Game:
    """An 1870 OR 1: GMO (A, $100, no cash, token and a city tile at Mobile with a route to the
    Southeast) must buy a train; A, with no cash, holds two MP shares; MP ($76) is B's.
    ``setup`` changes the position before the round starts."""
    from pbem.engine import market as mk
    from pbem.engine.state import RoundState, StockRoundState
    from pbem.engine.steps import operating

    g = Game(load_title("1870", variants), ["A", "B", "C"])
    state = g.state
    for sym, president, price in (("GMO", "A", 100), ("MP", "B", 76)):
        corp = state.corporations[sym]
        corp.par = mk.par_coord(g.title, price)
        assert corp.par is not None
        mk.place(state, sym, corp.par)
        corp.ipoed = corp.floated = True
        corp.president = president
        for cert in state.certificates:
            if cert.corporation == sym and cert.index <= 4:
                cert.owner = Owner.player(president)
            if sym == "MP" and cert.corporation == sym and cert.index in (5, 6):
                cert.owner = Owner.player("A")
    state.corporations["MP"].cash = 500
    state.players["A"].cash = 0
    state.tokens[CityRef("M20", 0)] = ["GMO"]
    for rotation in range(6):
        state.tiles["M20"] = ("57", rotation)
        if operating.must_buy_train(g, "GMO"):
            break
    assert operating.must_buy_train(g, "GMO")
    if setup is not None:
        setup(g)
    state.round.stock = StockRoundState()
    g.begin_round(RoundState(kind="operating", number=1, or_number=1))
    assert setup is not None or g.current_actors() == ["A"]
    return g


def test_an_emergency_sale_in_an_operating_round_waits_for_price_protection() -> None:
    """1870 price protection in an operating round: A sells two MP shares to buy GMO's train;
    MP's price holds until GMO's turn is over, then B (MP's president) may buy them back at $76
    each — the price stays — or decline, and MP drops two rows to $68. Nobody else may act first."""
    from pbem.engine.actions import BuyShares, BuyTrain, Pass, SellShares

    for protects in (True, False):
        g = or_sale_game()
        state = g.state
        g.apply("A", Pass())  # no track
        g.apply("A", SellShares("MP", 2))
        assert g.share_price("MP") == 76, "the drop waits"
        with pytest.raises(Exception, match="not B's turn"):
            g.apply("B", Pass())
        events = render_all(g.apply("A", BuyTrain("2")), g.money)
        assert g.current_actors() == ["B"], "GMO's turn is over: MP's president decides"
        assert not any("operates MP" in e for e in events)
        cash_b = state.players["B"].cash
        if protects:
            events = render_all(g.apply("B", BuyShares("MP", "pool", 2)), g.money)
            assert "B price protects 2 shares of MP for $152" in events
            assert g.share_price("MP") == 76 and state.percent_of(Owner.player("B"), "MP") == 80
            assert state.players["B"].cash == cash_b - 152
        else:
            events = render_all(g.apply("B", Pass()), g.money)
            assert "B does not price protect 2 shares of MP" in events
            assert g.share_price("MP") == 68
        assert any("operates MP" in e for e in events), "then MP operates"


def test_an_emergency_sale_is_one_lot_a_turn_and_a_bankrupt_sells_no_more_of_it() -> None:
    """Shares of one corporation are sold in one lot a turn (1870: ``must_sell_in_blocks``),
    emergency sales too: A (holding only GMO's president's certificate) sells one MP share
    ($76) toward GMO's $80 train and may not sell the other; with nothing else to sell A may go
    bankrupt, keeping that share (18xx.games'
    emergency sales and its bankrupt's alike)."""
    from pbem.engine.actions import Bankrupt, Pass, SellShares
    from pbem.engine.steps.operating.buytrains import bankrupt_problem

    def president_only(g: Game) -> None:
        for cert in g.state.certificates:
            if cert.corporation == "GMO" and cert.owner == Owner.player("A") and not cert.president:
                cert.owner = IPO

    g = or_sale_game(setup=president_only)
    g.apply("A", Pass())  # no track
    g.apply("A", SellShares("MP", 1))
    assert SellShares("MP", 1) not in g.legal_actions("A")
    with pytest.raises(Exception, match="one lot a turn"):
        g.apply("A", SellShares("MP", 1))
    assert bankrupt_problem(g, "A", "GMO") is None and Bankrupt() in g.legal_actions("A")
    g.apply("A", Bankrupt())
    assert g.state.finished and g.state.percent_of(Owner.player("A"), "MP") == 10


def test_a_president_who_sells_the_presidency_away_is_the_one_asked_and_may_not_protect() -> None:
    """Fault 6: B (president, 60%) sells 40% of MP and C (30%) becomes president; the
    protection is B's to decide — barred as the seller — so C is not offered it and the price
    drops four rows at once."""
    from pbem.engine.actions import Pass, SellShares

    g = sr_game()
    state = g.state
    for cert in state.certificates:
        if cert.corporation == "MP" and cert.index in (6, 7):
            cert.owner = Owner.player("C")
    events = render_all(g.apply("B", SellShares("MP", 4)), g.money)
    assert state.corporations["MP"].president == "C"
    assert g.share_price("MP") == 76
    events += render_all(g.apply("B", Pass()), g.money)
    assert "B can't price protect 4 shares of MP" in events
    assert not any(e.startswith("C price protects") for e in events)
    assert g.share_price("MP") < 76 and state1870(state).sell_queue == []


def test_diesels_replace_the_8_10_and_12_trains() -> None:
    """1870 option "diesels": no 8, 10 or 12 trains; a diesel is for sale from phase 5 (not in
    phase 4), costs $800 trading in a 4, starts phase D and rusts the 4s."""
    from pbem.engine import trains
    from pbem.engine.actions import BuyTrain, Dividend, Pass, RunRoutes, TrainRun

    def late(g: Game) -> None:
        state = g.state
        state.depot = [t for t in state.depot if t.kind.startswith(("6", "D"))]
        state.phase = "4"
        assert [t.kind for t in trains.depot_offer(g)] == ["6"]
        state.phase = "5"
        state.corporations["GMO"].trains = [TrainId("4", 0)]
        state.corporations["GMO"].cash = 1000
        state.corporations["MP"].trains = [TrainId("4", 1)]

    g = or_sale_game(("diesels",), late)
    names = {t.name for t in g.title.trains}
    assert "D" in names and not names & {"8", "10", "12"}
    g.apply("A", Pass())  # no track
    g.apply("A", RunRoutes((TrainRun("4", ("M20", "M22")),)))
    g.apply("A", Dividend("withhold"))
    state = g.state
    cash = state.corporations["GMO"].cash
    events = render_all(g.apply("A", BuyTrain("D", "depot", None, "4")), g.money)
    assert state.corporations["GMO"].cash == cash - 800
    assert state.phase == "D"
    assert state.corporations["GMO"].trains == [TrainId("D", 0)]
    assert state.corporations["MP"].trains == [], "the 4s rust"
    assert "GMO trades in a 4 train and buys a D train for $800 from the bank" in events


def test_station_wars_destination_token_takes_a_slot() -> None:
    """1870 option "station marker wars": MP's destination token at Dallas (J5), where TP has
    its home, takes a slot. On a one-slot yellow Dallas both rules make an extra slot for it;
    once Dallas is green (two slots) the option leaves no slot free for a third corporation,
    where the published rules keep the destination token's own extra slot and one free."""
    from pbem.engine import track
    from pbem.titles.g1870.state import state1870

    def free_for_ssw(variants: tuple[str, ...], tile: str) -> tuple[int, int]:
        g = Game(load_title("1870", variants), ["A", "B", "C"])
        state = g.state
        state.tiles["J5"] = (tile, 0)
        state.tokens[CityRef("J5", 0)] = ["TP", "MP"]
        state1870(state).destinations_reached.append("MP")
        return track.city_slots(g, "J5", 0), track.free_slots(g, "J5", 0, "SSW")

    assert free_for_ssw((), "57") == (2, 0)
    assert free_for_ssw(("station_wars",), "57") == (2, 0), "no free slot: an extra one is made"
    assert free_for_ssw((), "15") == (3, 1)
    assert free_for_ssw(("station_wars",), "15") == (2, 0), "the upgrade absorbed the extra slot"


def test_the_kept_track_network_is_found_again_when_a_destination_is_reached() -> None:
    """A corporation's reach is kept on the game (``track.network``) under a key that takes in
    the title's facts (the ``graph_key`` hook): MP reaching its destination gives Dallas an
    extra slot (its token there becomes the destination token), so SSW's network is searched
    again; with nothing changed it is reused."""
    from pbem.engine import track
    from pbem.titles.g1870.state import state1870

    g = Game(load_title("1870"), ["A", "B", "C"])
    g.state.tiles["J5"] = ("15", 0)  # green Dallas: two slots, both taken
    g.state.tokens[CityRef("J5", 0)] = ["TP", "MP"]
    first = track.network(g, "SSW")
    assert track.network(g, "SSW") is first
    assert track.blocks(g, Vertex("J5", "c0"), "SSW")
    state1870(g.state).destinations_reached.append("MP")
    assert not track.blocks(g, Vertex("J5", "c0"), "SSW"), "the destination token's own slot is free"
    assert track.network(g, "SSW") is not first



def test_original_tiles_has_fewer_tiles() -> None:
    """1870 option "original tiles": e.g. 20 #9 instead of 23 and one #16 instead of two; a
    second #16 cannot be laid."""
    plain = Game(load_title("1870"), ["A", "B", "C"])
    original = Game(load_title("1870", ("original_tiles",)), ["A", "B", "C"])
    assert (plain.tiles_left("9"), original.tiles_left("9")) == (23, 20)
    assert (plain.tiles_left("16"), original.tiles_left("16")) == (2, 1)
    original.state.tiles["C10"] = ("16", 0)
    assert original.tiles_left("16") == 0
    assert plain.tiles_left("57") == original.tiles_left("57") == 5


def test_original_rules_switch_on_the_options_and_an_eight_corporation_limit() -> None:
    """1870 option "Bill Dixon's original rules": station wars, original tiles, $200 maximum
    reissue, original price protection and the original market together; with four players
    the certificate limit is 16, 14 with nine corporations and 12 with eight (published: 14)."""
    from pbem.engine import shares

    title = load_title("1870", ("original_rules",))
    assert settings1870(title).destination_token_takes_a_slot is True
    assert settings1870(title).share_reissue.max_price == 200
    assert settings1870(title).price_protection_barred_if_president_sold_this_round is False
    assert title.market[4][0].zone == "o"  # type: ignore[union-attr]
    g = Game(title, ["A", "B", "C", "D"])
    assert g.tiles_left("9") == 20
    limits = []
    for sym in ("TP", "FW", "IC"):
        limits.append(shares.certificate_limit(g.state, g.title))
        g.state.corporations[sym].closed = True
    limits.append(shares.certificate_limit(g.state, g.title))
    assert limits == [16, 14, 12, 12]
    plain = Game(load_title("1870"), ["A", "B", "C", "D"])
    for sym in ("TP", "FW"):
        plain.state.corporations[sym].closed = True
    assert shares.certificate_limit(plain.state, plain.title) == 14


def test_a_connection_is_granted_only_by_a_gm_ruling() -> None:
    """CONNECT <corporation> is a GM ruling: refused from a player, taken from the GM (ACT AS
    a seat); the engine then asks for the destination token at once, before the operating
    corporation goes on."""
    from pbem.commands import Order, parse_line
    from pbem.titles.g1870.actions import GrantConnection
    from pbem.errors import OrderSyntaxError
    from pbem.games import GameInfo, Seat
    from pbem.orders import Vocabulary

    g = or_sale_game()
    vocab = Vocabulary.from_title(g.title)
    info = GameInfo("g", "1870", (), [Seat(n, f"{n.lower()}@example.org", "x") for n in ("A", "B", "C")],
                    "gm@example.org", "x")
    with pytest.raises(OrderSyntaxError, match="only the GM"):
        parse_line("CONNECT MP", vocab, info, is_gm=False)
    command = parse_line("ACT AS B CONNECT MP", vocab, info, is_gm=True)
    assert isinstance(command, Order) and command.action == GrantConnection("MP") and command.seat == "B"
    with pytest.raises(Exception, match="no train"):
        g.apply("B", command.action)
    g.state.corporations["MP"].trains = [TrainId("2", 6)]
    events = render_all(g.apply("B", command.action), g.money)
    assert "-- GM ruling: MP has connected to its destination J5 --" in events
    assert g.current_actors() == ["B"], "MP's destination token comes first"
    with pytest.raises(Exception, match="due already"):
        g.apply("B", command.action)


def test_protection_may_not_take_the_president_over_the_certificate_limit() -> None:
    """Fault 6 (last part; the replayed pair of game 40469 shows both sides): B at the
    certificate limit is not offered protection of C's MP share while MP counts against the
    limit; one certificate under it, B is."""
    from pbem.engine import shares
    from pbem.engine.actions import Pass, SellShares

    def offered(spare: int) -> bool:
        g = sr_game()
        state = g.state
        limit = shares.certificate_limit(state, g.title)
        held = shares.certificate_count(state, g.title, "B")
        others = [c for c in state.certificates if c.owner == IPO and c.corporation not in ("MP",)
                  and not c.president]
        for cert in others[: limit - held - spare]:
            cert.owner = Owner.player("B")
        assert shares.certificate_count(state, g.title, "B", uncounted=()) == limit - spare
        state.round.entity_index = state.order.index("C")
        g.apply("C", SellShares("MP", 1))
        g.apply("C", Pass())
        return g.current_actors() == ["B"]

    assert not offered(0)
    assert offered(1)


def test_a_corporation_closing_at_its_turns_end_still_lets_the_other_president_protect() -> None:
    """GMO ($10 after withholding, A president with 70%) is out of cash; A sells a GMO and an
    MP share to buy its train. A cannot protect GMO (the seller), so GMO falls to $0 and
    closes; B, MP's president, is still asked to protect MP before the round goes on, and
    declining drops MP at once, in this operating round."""
    from pbem.engine import market as mk
    from pbem.engine.actions import BuyTrain, Pass, SellShares

    def setup(g: Game) -> None:
        state = g.state
        mk.move(state, g.title, "GMO", (7, 1))
        mk.move(state, g.title, "MP", (0, 6))
        next(c for c in state.certificates if c.corporation == "GMO" and c.index == 5).owner = Owner.player("A")

    g = or_sale_game(setup=setup)
    state = g.state
    while g.current_actors() == ["B"]:  # MP ($100) operates first: nothing to do
        g.apply("B", Pass())
    g.apply("A", Pass())  # GMO: no track
    g.apply("A", SellShares("GMO", 1))
    g.apply("A", SellShares("MP", 1))
    events = render_all(g.apply("A", BuyTrain("2")), g.money)
    assert "GMO closes" in events and state.corporations["GMO"].closed
    assert g.current_actors() == ["B"] and g.round_label() == "OR 1.1"
    assert g.waiting_for().startswith("B for MP: protect the price of MP")
    assert Pass() in g.legal_actions("B") and g.legal_actions("A") == []  # nothing of the closed GMO's
    price = g.share_price("MP")
    events = render_all(g.apply("B", Pass()), g.money)
    assert "B does not price protect 1 share of MP" in events
    assert g.share_price("MP") < price and state1870(state).sell_queue == []


def test_finish_on_400_ends_the_game_at_the_stock_rounds_end_before_any_operating() -> None:
    """$400 finish: a sold-out MP rising from $375 to $400 at the end of a stock round ends
    the game there; no operating round starts and no private pays again."""
    from pbem.engine import market as mk
    from pbem.engine.actions import Pass

    g = Game(load_title("1870", ("finish_on_400",)), ["A", "B", "C"])
    g.state = sr_game().state
    state = g.state
    mk.move(state, g.title, "MP", (1, 20))
    for cert in state.certificates:
        if cert.corporation == "MP" and cert.owner == IPO:
            cert.owner = Owner.player("A")
    for player in state.players.values():
        player.cash = 0
    events: list[str] = []
    while not state.finished and g.current_actors():
        events += render_all(g.apply(g.current_actors()[0], Pass()), g.money)
    assert state.finished and state.end_reason == "stock_market"
    assert g.share_price("MP") == 400
    assert not any(e.startswith("-- OR") for e in events)


def test_the_markets_closing_and_game_end_cells_are_found_once_a_game() -> None:
    """``settle_market`` looks only at the cells that close a corporation or end the game:
    none in 1830, 1870's $0 cells, and with ``finish_on_400`` the $400 cells too."""
    from pbem.engine.closing import special_cells

    assert special_cells(Game(load_title("1830"), ["A", "B", "C"])) == frozenset()
    g = Game(load_title("1870"), ["A", "B", "C"])
    cells = special_cells(g)
    prices = {g.title.market[r][c].price for r, c in cells}  # type: ignore[union-attr]
    assert cells and prices == {0}
    g400 = Game(load_title("1870", ("finish_on_400",)), ["A", "B", "C"])
    assert {g400.title.market[r][c].price for r, c in special_cells(g400)} == {0, 400}  # type: ignore[union-attr]


def test_the_bridge_companys_lay_is_made_in_the_track_step_not_after_it(game: Game) -> None:
    """MRBC's tile lay is one of the corporation's lays, made in its track step (18xx.games:
    the ability's ``when: track``): once MP has passed that step (its run and trains come
    next), the lay is refused."""
    from pbem.engine.actions import LayTile, Pass
    from pbem.engine.state import OperatingState, RoundState
    from pbem.errors import IllegalOrderError

    state = game.state
    corp = state.corporations["MP"]
    corp.cash, corp.floated, corp.ipoed, corp.president, corp.operated = 500, True, True, "B", True
    corp.par = corp.price = (1, 6)
    state.market[(1, 6)] = ["MP"]
    state.tokens[CityRef("C18", 0)] = ["MP"]
    state.tiles["C18"] = ("5", 3)
    state.companies["MRBC"].owner = Owner.corporation("MP")
    state.players["A"].companies.remove("MRBC")
    state.round = RoundState(kind="operating", operating=OperatingState(order=["MP"]))
    lay = LayTile("B17", "9", 0, using="MRBC")
    game.apply("B", Pass())  # the track step
    assert "track" in state.round.operating.passed_steps
    with pytest.raises(IllegalOrderError, match="passed its track step"):
        game.apply("B", lay)


def test_a_stock_round_sale_from_above_the_holding_limit_brings_it_to_the_limit() -> None:
    """B holds 80% of MP (the price in no zone that lifts the 60% limit): a sale must leave
    B at 60% or less, so one share is refused and two are sold (18xx.games' 1870 checks the
    holding after a sale as after a purchase)."""
    from pbem.engine.actions import SellShares
    from pbem.engine.steps.stock import sell_problem

    g = sr_game()
    for cert in g.state.certificates:
        if cert.corporation == "MP" and cert.index in (5, 6):
            cert.owner = Owner.player("B")
    assert g.state.percent_of(Owner.player("B"), "MP") == 80
    assert "down to 60% or less" in str(sell_problem(g, "B", "MP", 1))
    assert SellShares("MP", 2) in g.legal_actions("B") and SellShares("MP", 1) not in g.legal_actions("B")
    g.apply("B", SellShares("MP", 2))
    assert g.state.percent_of(Owner.player("B"), "MP") == 60


def test_a_player_over_the_certificate_limit_must_sell_even_when_only_several_shares_may_go() -> None:
    """B holds 90% of MP and of SP (8 certificates each) and two privates, 18 against 3
    players' limit of 17 once a corporation has closed: B must sell before passing, though no
    single share may go (a sale from above 60% must bring the holding down to 60%), because
    three shares may (1830 rules 5.2 on the limit; 18xx.games keeps the pass from such a
    player)."""
    from pbem.engine import shares
    from pbem.engine.actions import Pass, SellShares
    from pbem.engine.steps.stock import must_sell, sell_problem
    from pbem.errors import IllegalOrderError

    g = sr_game()
    state = g.state
    started(g, "SP", "B")
    for cert in state.certificates:
        if cert.corporation in ("MP", "SP") and cert.index <= 7:
            cert.owner = Owner.player("B")
    state.corporations["ATSF"].closed = True
    for company in ("GRSC", "SCC"):
        state.companies[company].owner = Owner.player("B")
        state.players["B"].companies.append(company)
    assert shares.certificate_count(state, g.title, "B") == 18 > shares.certificate_limit(state, g.title) == 17
    assert sell_problem(g, "B", "MP", 1) is not None and sell_problem(g, "B", "MP", 3) is None
    assert must_sell(g, "B")
    assert Pass() not in g.legal_actions("B") and SellShares("MP", 3) in g.legal_actions("B")
    with pytest.raises(IllegalOrderError, match="must sell"):
        g.apply("B", Pass())


def test_a_stock_round_sale_the_bank_cannot_pay_breaks_the_bank() -> None:
    """The bank holds $50 when C sells a $76 share of MP: the bank is broken then (1830 rules
    8, the bank runs out of money), and the game ends after the set of operating rounds that
    follows (18xx.games breaks its bank on any payment beyond its cash)."""
    from pbem.engine.actions import Pass, SellShares
    from pbem.engine.events import BankBroken

    g = sr_game()
    g.state.bank = 50
    g.state.round.entity_index = g.state.order.index("C")
    events = g.apply("C", SellShares("MP", 1))
    assert g.state.bank == 50 - 76 and g.state.bank_broken
    assert [e for e in events if isinstance(e, BankBroken)]
    rounds = []
    for _ in range(200):
        if g.state.finished:
            break
        rounds.append(g.round_label())
        actor = g.current_actors()[0]
        moves = g.legal_actions(actor)
        g.apply(actor, next((m for m in moves if isinstance(m, Pass)), moves[0]))
    assert g.state.finished and g.state.end_reason == "bank"
    assert not any(r.startswith("SR 3") for r in rounds) and any(r.startswith("OR 2") for r in rounds)
