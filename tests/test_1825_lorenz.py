"""Kevin Lorenz's private-company variant of 1825 (variant ``lorenz``; issue 12, seed 002),
clause by clause: each test fails without the rule it names.

The rules are tested on a small board of 1825's (``tests/titles/lorenz/1825/``: the
privates of the three units, LNWR, GWR and NER, the hexes the variant names) with the
variant's hooks over the core (:class:`Lorenz`); and a four-player game of Units 1 and 2
with the variant, on the real 1825 data, is played by mail through the whole start into the
first operating round (:func:`test_a_four_player_game_by_mail`).
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from pbem.engine.values import CityRef
from pbem.engine import track
from pbem.engine.actions import Bid, BuyPrivate, BuyShares, BuyTrain, LayTile, Par, Pass, PlaceToken, SellShares
from pbem.engine.events import render_all
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.state import IPO, OperatingState, RoundState, StockRoundState
from pbem.engine.values import Owner, Vertex
from pbem.errors import IllegalOrderError
from pbem.orders import Vocabulary, format_order, help_text, parse_order
from pbem.ruleset import load_title
from pbem.ruleset.composer import TitleComposer
from pbem.titles.g1825.lorenz.actions import Designate, PowerLay, PowerToken
from pbem.titles.g1825.lorenz.presentation import LorenzPresentation
from pbem.titles.g1825.lorenz.rules import (LorenzComposition, LorenzSequence, LorenzShares, LorenzTrack,
                                            compose_lorenz)
from pbem.titles.g1825.lorenz.state import lorenz_state

RULES = Path(__file__).resolve().parent / "titles" / "lorenz"
ANN, BOB, CY, DI = "Ann", "Bob", "Cy", "Di"
SEATS = [ANN, BOB, CY, DI]


MAIL_SEATS = [(name, f"{name.lower()}@example.org") for name in SEATS]
MAIL_SECRETS = {name: f"{name.lower()}pw" for name in SEATS}
GID = "lorenz-1825"


LORENZ = TitleHooks(sequence=LorenzSequence(), stock=LorenzShares(), track=LorenzTrack())
"""The variant's hooks alone over the core's."""


class LorenzData(LorenzComposition, TitleComposer):
    """The variant's data alone over the core's."""


def new_game(variants: tuple[str, ...] = ("lorenz",)) -> Game:
    """Four players on the small board (£630 each), the privates S&M, TWW, C&HP, C&W, S&D and
    L&M for sale (the variant keeps one of the two £30 privates)."""
    return Game(load_title("1825", variants, rules_dir=RULES, hooks=LORENZ, composer=LorenzData, presentation=LorenzPresentation), SEATS)


def play(game: Game, script: str) -> list[str]:
    """Apply each ``Seat: ORDER`` line, read with the title's vocabulary; each line's seat
    must be the one the game waits for. Returns every event as text."""
    vocab = Vocabulary.from_title(game.title)
    events: list[str] = []
    for line in filter(None, (raw.strip() for raw in script.splitlines())):
        seat, order = line.split(": ", 1)
        assert game.current_actors() == [seat], (line, game.waiting_for())
        events += render_all(game.apply(seat, parse_order(order, vocab)), game.money)
    return events


def owner(game: Game, company: str) -> str | None:
    found = game.state.companies[company].owner
    return found.name if found is not None else None


def cash(game: Game) -> dict[str, int]:
    return {p: game.state.players[p].cash for p in SEATS}


# -- the data --------------------------------------------------------------------------------


def test_one_30_pound_private_is_used_when_units_are_combined() -> None:
    plain = load_title("1825", rules_dir=RULES, hooks=LORENZ, composer=LorenzData, presentation=LorenzPresentation)
    assert [c.sym for c in plain.companies if c.value == 30] == ["S&M", "L&MI"]
    game = new_game()
    assert [c.sym for c in game.title.companies] == ["S&M", "TWW", "C&HP", "C&W", "S&D", "L&M"]
    docs = {"companies": [{"sym": "A", "value": 30}, {"sym": "B", "value": 30}, {"sym": "C", "value": 60}],
            "game": {}, "trains": {"trains": []}}
    assert [c["sym"] for c in compose_lorenz(docs)["companies"]] == ["A", "C"]
    assert len(docs["companies"]) == 3, "the inputs are left alone"


def test_the_privates_are_offered_cheapest_first_in_the_listed_order() -> None:
    game = new_game()
    auction = game.state.round.auction
    assert game.state.round.kind == "lorenz_auction" and auction is not None
    assert auction.available == ["S&M", "TWW", "C&HP", "C&W", "S&D", "L&M"]
    assert [game.title.company(c).value for c in auction.available] == [30, 60, 75, 130, 160, 210]


def test_without_the_variant_plain_1825_starts_and_nothing_is_kept_back() -> None:
    game = new_game(())
    assert game.state.round.kind != "lorenz_auction"
    assert game.hooks.stock.launch_problem(game, "LNWR") is None
    assert game.hooks.track.token_problem(game, "GWR", "W25", 0) is None


# -- the start: buy, bid or pass ----------------------------------------------------------


def test_a_turn_buys_the_cheapest_private_bids_on_another_or_passes() -> None:
    game = new_game()
    assert game.legal_actions(ANN) == [BuyPrivate("S&M"), Bid("TWW", 65), Bid("C&HP", 80), Bid("C&W", 135),
                                       Bid("S&D", 165), Bid("L&M", 215), Pass()]
    with pytest.raises(IllegalOrderError, match=r"only the cheapest private \(S&M\) may be bought outright"):
        game.apply(ANN, BuyPrivate("TWW"))
    with pytest.raises(IllegalOrderError, match=r"S&M, the cheapest, is bought at its price, £30: BUY S&M"):
        game.apply(ANN, Bid("S&M", 40))
    play(game, "Ann: BUY S&M\nBob: PASS\nCy: BUY TWW")
    assert owner(game, "S&M") == ANN and owner(game, "TWW") == CY
    assert cash(game) == {ANN: 600, BOB: 630, CY: 570, DI: 630}
    assert game.current_actors() == [DI]


def test_a_first_bid_is_5_over_face_value_and_each_later_bid_5_over_the_high_bid() -> None:
    game = new_game()
    with pytest.raises(IllegalOrderError, match="the minimum bid for C&W is £135"):
        game.apply(ANN, Bid("C&W", 134))
    play(game, "Ann: BID C&W 135")
    with pytest.raises(IllegalOrderError, match="the minimum bid for C&W is £140"):
        game.apply(BOB, Bid("C&W", 139))
    play(game, "Bob: BID C&W 140")
    assert game.state.round.auction is not None and game.state.round.auction.bids["C&W"] == [(ANN, 135), (BOB, 140)]


def test_money_bid_is_set_aside_while_the_bid_stands() -> None:
    game = new_game()
    play(game, "Ann: BID L&M 600")
    assert cash(game)[ANN] == 630, "set aside, not paid"
    play(game, "Bob: PASS\nCy: PASS\nDi: PASS")
    assert BuyPrivate("S&M") in game.legal_actions(ANN)  # £30 free of the £600 bid
    assert Bid("TWW", 65) not in game.legal_actions(ANN)
    with pytest.raises(IllegalOrderError, match=r"Ann can bid at most £30 on TWW \(cash less other open bids\)"):
        game.apply(ANN, Bid("TWW", 65))


def test_after_a_purchase_the_next_privates_with_one_bid_go_to_their_bidders_at_once() -> None:
    game = new_game()
    events = play(game, """
        Ann: BID TWW 65
        Bob: BID C&HP 85
        Cy: BID S&D 170
        Di: BUY S&M
    """)
    assert owner(game, "TWW") == ANN and owner(game, "C&HP") == BOB, "down the line, one bid each"
    assert owner(game, "C&W") is None and owner(game, "S&D") is None, "C&W has no bid: the line stops there"
    assert events[-2:] == ["Ann wins the auction for TWW with the only bid of £65",
                           "Bob wins the auction for C&HP with the only bid of £85"]
    assert cash(game) == {ANN: 565, BOB: 545, CY: 630, DI: 600}
    assert game.current_actors() == [ANN], "play resumes to the left of Di, who bought S&M with no bids"


def test_two_bidders_auction_a_private_from_the_left_of_the_high_bidder_round_the_table() -> None:
    game = new_game()
    play(game, """
        Ann: PASS
        Bob: PASS
        Cy: BID C&HP 80
        Di: PASS
        Ann: PASS
        Bob: BID C&HP 85
        Cy: PASS
        Di: PASS
        Ann: BID C&HP 90
        Bob: BUY S&M
        Cy: BUY TWW
    """)
    # C&HP has three bidders, Ann high: Bob, to her left, raises or passes first (not Cy,
    # the lowest bidder, as 1830's auction would have it); Di has not bid and takes no part
    auction = game.state.round.auction
    assert auction is not None and auction.auctioning == "C&HP"
    assert game.current_actors() == [BOB]
    assert game.waiting_for() == "Bob: raise the high bid on the private being auctioned by £5 or more (BID), or PASS out"
    assert game.legal_actions(BOB) == [Bid("C&HP", 95), Pass()]
    with pytest.raises(IllegalOrderError, match="buy private is not possible now"):
        game.apply(BOB, BuyPrivate("C&W"))
    assert game.legal_actions(DI) == []
    play(game, "Bob: BID C&HP 95\nCy: PASS\nAnn: BID C&HP 100\nBob: BID C&HP 110\nAnn: PASS")
    assert owner(game, "C&HP") == BOB and cash(game)[BOB] == 630 - 30 - 110
    assert cash(game)[ANN] == 630 and cash(game)[CY] == 630 - 60, "the losers' money is free again"
    assert game.current_actors() == [DI], "play resumes to the left of Cy, who bought TWW with no bids"


def test_only_the_bidders_of_a_private_take_part_in_its_auction() -> None:
    game = new_game()
    play(game, "Ann: PASS\nBob: BID C&W 135\nCy: BID C&W 140\nDi: BUY S&M\nAnn: BUY TWW")
    assert game.current_actors() == [BOB], "C&HP (no bids) stops the line; the turn is Bob's"
    play(game, "Bob: BUY C&HP")
    assert game.current_actors() == [BOB], "C&W's auction: Bob, left of the high bidder Cy"
    with pytest.raises(IllegalOrderError, match="it is not Ann's turn"):
        game.apply(ANN, Bid("C&W", 150))
    play(game, "Bob: PASS")
    assert owner(game, "C&W") == CY and cash(game)[CY] == 630 - 140
    assert game.current_actors() == [CY], "resumes to the left of Bob, the last to buy a private with no bids"


def test_when_the_last_private_is_sold_the_next_player_starts_the_stock_round() -> None:
    game = new_game()
    play(game, """
        Ann: BUY S&M
        Bob: BUY TWW
        Cy: BUY C&HP
        Di: BUY C&W
        Ann: BID L&M 215
        Bob: BUY S&D
    """)
    assert owner(game, "L&M") == ANN, "the only bid: sold at once"
    assert game.state.round.kind == "stock" and game.state.round.number == 1
    assert game.state.order[0] == CY and game.current_actors() == [CY], "the player whose turn is next"
    assert any(isinstance(a, Par) and a.corporation == "LNWR" for a in game.legal_actions(CY))
    assert Pass() in game.legal_actions(CY)


def test_the_owners_of_s_and_d_and_l_and_m_receive_their_free_shares_on_acquiring_them() -> None:
    game = new_game()
    events = play(game, "Ann: BID L&M 215\nBob: BID S&D 165\nCy: BUY S&M\nDi: BUY TWW\nAnn: BUY C&HP\nBob: BUY C&W")
    assert game.state.percent_of(Owner.player(ANN), "LNWR") == 10
    assert game.state.percent_of(Owner.player(BOB), "NER") == 10
    assert "Bob receives a 10% share of NER" in events and "Ann receives a 10% share of LNWR" in events
    assert lorenz_state(game.state).free_shares == {"S&D": ("NER", 1), "L&M": ("LNWR", 1)}
    assert game.state.corporations["LNWR"].president is None, "a share, not the Director's certificate"


# -- shares --------------------------------------------------------------------------------


def after_the_start() -> Game:
    """SR 1 after Ann bought S&M and L&M, Bob TWW and S&D, Cy C&HP and Di C&W: Cy to act."""
    game = new_game()
    play(game, "Ann: BUY S&M\nBob: BUY TWW\nCy: BUY C&HP\nDi: BUY C&W\nAnn: BID L&M 215\nBob: BUY S&D")
    return game


def test_no_further_lnwr_shares_are_on_offer_until_every_private_is_sold() -> None:
    game = new_game()
    assert game.hooks.stock.launch_problem(game, "LNWR") == "no further LNWR shares are on offer until every private is sold"
    assert game.hooks.stock.launch_problem(game, "GWR") is None
    game = after_the_start()
    assert game.hooks.stock.launch_problem(game, "LNWR") is None


def test_with_unit_1_no_further_ner_shares_until_the_gwr_has_sold_out() -> None:
    game = after_the_start()
    player = game.current_actors()[0]
    with pytest.raises(IllegalOrderError, match="no further NER shares may be bought until the GWR has sold out"):
        game.apply(player, Par("NER", 100))
    assert not any(isinstance(a, Par) and a.corporation == "NER" for a in game.legal_actions(player))
    for cert in game.state.certs_of(IPO, "GWR"):
        cert.owner = Owner.player(DI)
    assert game.hooks.stock.launch_problem(game, "NER") is None
    assert Par("NER", 100) in game.legal_actions(player)


def test_without_unit_1_the_ner_is_on_offer() -> None:
    game = after_the_start()
    del game.state.corporations["GWR"]  # as a game of Units 2 and 3
    assert game.hooks.stock.launch_problem(game, "NER") is None


def test_the_free_ner_share_may_not_be_sold_before_the_ners_directors_certificate_is_bought() -> None:
    game = after_the_start()
    game.state.round.number = 2  # sales are allowed
    assert game.hooks.stock.sell_problem(game, BOB, "NER", 1) == (
        "the free NER share of S&D may not be sold before NER's Director's certificate is bought")
    game.state.round.entity_index = game.state.order.index(BOB)
    assert SellShares("NER", 1) not in game.legal_actions(BOB)
    ner = game.state.corporations["NER"]
    ner.president, ner.ipoed = DI, True
    assert game.hooks.stock.sell_problem(game, BOB, "NER", 1) is None


def test_privates_may_never_be_sold_to_the_bank() -> None:
    game = after_the_start()
    assert isinstance(game.hooks.stock, LorenzShares)
    assert game.hooks.stock.may_sell_privates(game) is False
    plain = new_game(())
    assert isinstance(plain.hooks.stock, LorenzShares) and plain.hooks.stock.may_sell_privates(plain) is True


# -- the powers: ASSIGN --------------------------------------------------------------------


def operating(game: Game, corp: str = "LNWR", director: str = ANN, treasury: int = 500,
              privates: tuple[str, ...] = ("TWW", "C&HP", "C&W")) -> Game:
    """``game`` in an operating round with ``corp`` floated (``treasury`` in cash, at par
    £100, its home token on its home city, ``director`` holding its Director's certificate)
    operating first; ``privates`` moved to ``director``."""
    state = game.state
    for company in privates:
        held = state.companies[company].owner
        if held is not None:
            state.players[held.name].companies.remove(company)
        state.companies[company].owner = Owner.player(director)
        state.players[director].companies.append(company)
    data = state.corporations[corp]
    data.cash, data.floated, data.ipoed, data.president = treasury, True, True, director
    data.par = data.price = (0, 4)
    state.market.setdefault((0, 4), []).append(corp)
    next(c for c in state.certificates if c.corporation == corp and c.president).owner = Owner.player(director)
    home = game.title.corporation(corp).home
    assert home is not None
    state.tokens[track.city_key(home, 0)] = [corp]
    state.round = RoundState(kind="operating", operating=OperatingState(order=[corp]))
    return game


def test_assign_is_an_order_word_of_its_own_with_help() -> None:
    title = new_game().title
    vocab = Vocabulary.from_title(title)
    assert parse_order("ASSIGN TWW LNWR", vocab) == Designate("TWW", "LNWR")
    assert parse_order("assign c&hp to gwr", vocab) == Designate("C&HP", "GWR")
    assert format_order(Designate("C&W", "NER"), vocab) == "ASSIGN C&W NER"
    reference = help_text(title=title)
    assert "ASSIGN <private> <company>" in reference and "ASSIGN C&HP LNWR" in reference
    assert "LAY K13 <tile> <rotation> USING TWW" in reference and "LAY P14 <tile> <rotation> USING C&HP" in reference
    assert "TOKEN W25 USING C&W" in reference
    assert "ASSIGN <private> <company>" not in help_text(title=load_title("1830"))
    assert parse_order("LAY K13 3 1 USING TWW", vocab) == PowerLay("K13", "3", 1, "TWW")
    assert parse_order("LAY K13 3 1", vocab) == LayTile("K13", "3", 1)
    assert parse_order("TOKEN W25 USING C&W", vocab) == PowerToken("W25", 0, "C&W")
    assert format_order(PowerLay("P14", "9", 0, "C&HP"), vocab) == "LAY P14 9 0 USING C&HP"


def test_the_owner_designates_an_operating_company_they_direct() -> None:
    game = operating(after_the_start())
    with pytest.raises(IllegalOrderError, match="Bob does not own the private company TWW"):
        game.apply(BOB, Designate("TWW", "LNWR"))
    with pytest.raises(IllegalOrderError, match="GWR is not an operating company"):
        game.apply(ANN, Designate("TWW", "GWR"))
    with pytest.raises(IllegalOrderError, match="S&D has no power to give"):
        game.apply(ANN, Designate("S&D", "LNWR"))
    game.state.corporations["LNWR"].president = BOB
    with pytest.raises(IllegalOrderError, match="Ann does not direct LNWR"):
        game.apply(ANN, Designate("TWW", "LNWR"))
    game.state.corporations["LNWR"].president = ANN
    events = render_all(game.apply(ANN, Designate("TWW", "LNWR")), game.money)
    assert events == ["Ann gives the power of TWW to LNWR"]
    assert lorenz_state(game.state).designated == {"TWW": "LNWR"}
    with pytest.raises(IllegalOrderError, match="TWW's power has been given to LNWR"):
        game.apply(ANN, Designate("TWW", "LNWR"))


def test_a_power_is_used_only_by_its_designated_company() -> None:
    game = operating(after_the_start())
    with pytest.raises(IllegalOrderError, match="TWW's power is not given to any company, not to LNWR"):
        game.apply(ANN, PowerLay("K13", "3", 0, "TWW"))


# -- Tanfield Wagon Way: Durham ---------------------------------------------------------------


def fitting(game: Game, corp: str, coord: str, tiles: tuple[str, ...], *, reach: bool = False) -> LayTile:
    """The first of ``tiles`` and rotations the tile rules allow ``corp`` on ``coord`` (its
    track's reach only with ``reach``), P14 being open (looked for on a copy of the game)."""
    probe = copy.deepcopy(game)
    lorenz_state(probe.state).used.append("C&HP")
    return next(LayTile(coord, tile, r) for tile in tiles for r in range(6)
                if track.lay_problem(probe, corp, coord, tile, r, ignore_reach=not reach) is None)


def test_tww_gives_a_free_extra_yellow_tile_at_durham_and_stays_open() -> None:
    game = operating(after_the_start())
    game.apply(ANN, Designate("TWW", "LNWR"))
    lay = fitting(game, "LNWR", "K13", ("3", "4", "58"))
    with pytest.raises(IllegalOrderError, match="TWW's power is used on K13, not P12"):
        game.apply(ANN, PowerLay("P12", lay.tile, lay.rotation, "TWW"))
    before = game.state.corporations["LNWR"].cash
    events = render_all(game.apply(ANN, PowerLay(lay.hex, lay.tile, lay.rotation, "TWW")), game.money)
    assert game.state.tiles["K13"] == (lay.tile, lay.rotation), "far from the LNWR's track: no connection needed"
    assert "LNWR uses the power of TWW on K13, free" in events
    assert game.state.corporations["LNWR"].cash == before
    assert game.state.round.operating is not None and game.state.round.operating.tiles_laid == 0, "an extra lay"
    assert not game.state.companies["TWW"].closed and lorenz_state(game.state).used == ["TWW"]
    with pytest.raises(IllegalOrderError, match="TWW's power has been used or has closed"):
        game.apply(ANN, PowerLay("K13", lay.tile, lay.rotation, "TWW"))


def test_tww_used_for_an_upgrade_closes_at_once() -> None:
    game = operating(after_the_start())
    game.apply(ANN, Designate("TWW", "LNWR"))
    game.state.tiles["K13"] = (fitting(game, "LNWR", "K13", ("4",)).tile, fitting(game, "LNWR", "K13", ("4",)).rotation)
    game.state.phase = "3"
    upgrade = fitting(game, "LNWR", "K13", ("141", "142", "143", "144"))
    events = render_all(game.apply(ANN, PowerLay(upgrade.hex, upgrade.tile, upgrade.rotation, "TWW")), game.money)
    assert game.state.tiles["K13"][0] == upgrade.tile
    assert game.state.companies["TWW"].closed and "TWW" not in game.state.players[ANN].companies
    assert events[-1] == "the private company TWW closes"


# -- Cromford & High Peak: the mountain P14 ---------------------------------------------------


def test_no_company_lays_track_on_p14_until_the_chp_power_is_used() -> None:
    game = operating(after_the_start())
    lay = fitting(game, "LNWR", "P14", ("9", "8", "7"))
    for corp in ("LNWR", "GWR"):
        assert track.lay_problem(game, corp, "P14", lay.tile, lay.rotation, ignore_reach=True) == (
            "P14 is kept for the company with C&HP's power until it has built there (LAY P14 ... USING C&HP)")
    with pytest.raises(IllegalOrderError, match="P14 is kept for the company with C&HP's power"):
        game.apply(ANN, lay)
    assert lay not in game.legal_actions(ANN)
    game.close_all_companies()  # the first 5-train
    assert track.lay_problem(game, "GWR", "P14", lay.tile, lay.rotation, ignore_reach=True) is None


def test_chp_builds_on_p14_at_half_price_and_stays_open() -> None:
    game = operating(after_the_start())
    game.apply(ANN, Designate("C&HP", "LNWR"))
    reached = fitting(game, "LNWR", "P14", ("9", "8", "7"), reach=True)
    events = render_all(game.apply(ANN, PowerLay("P14", reached.tile, reached.rotation, "C&HP")), game.money)
    assert "LNWR uses the power of C&HP on P14, paying £50" in events
    assert game.state.corporations["LNWR"].cash == 450, "half the mountain's £100"
    assert game.state.round.operating is not None and game.state.round.operating.tiles_laid == 1, "the turn's lay"
    assert not game.state.companies["C&HP"].closed
    assert game.hooks.track.lay_problem(game, "GWR", "P14", "9", 0) is None, "P14 is open to all now"


def test_chp_needs_the_companys_track_to_reach_p14() -> None:
    game = operating(after_the_start(), corp="GWR")
    game.apply(ANN, Designate("C&HP", "GWR"))
    lay = fitting(game, "GWR", "P14", ("9", "8", "7"))
    with pytest.raises(IllegalOrderError, match="does not reach|not connected|reach"):
        game.apply(ANN, PowerLay("P14", lay.tile, lay.rotation, "C&HP"))


# -- Canterbury & Whitstable: Dover -----------------------------------------------------------


def test_cw_places_a_free_token_in_dover_without_a_connection_and_closes() -> None:
    game = operating(after_the_start())
    game.apply(ANN, Designate("C&W", "LNWR"))
    events = render_all(game.apply(ANN, PowerToken("W25", 0, "C&W")), game.money)
    assert game.state.tokens[CityRef("W25", 0)] == ["LNWR"]
    assert game.state.corporations["LNWR"].cash == 500, "free"
    assert game.state.companies["C&W"].closed and events[-1] == "the private company C&W closes"
    assert game.hooks.track.station_tokens(game, "LNWR")[1] == 2, "one of the LNWR's own tokens"


def test_no_other_company_tokens_dover_while_the_cw_token_is_unplaced() -> None:
    game = operating(after_the_start(), corp="GWR", privates=())
    assert track.token_problem(game, "GWR", "W25", 0, ignore_reach=True) == (
        "W25 is kept for the token of the company with C&W's power (TOKEN W25 USING C&W)")
    assert not track.blocks(game, Vertex("W25", "c0"), "GWR"), "routes pass through Dover"
    from pbem.asciimap import hex_cell
    from pbem.track_words import track_summary

    assert "(kept for C&W)" in " ".join(track_summary(game)), "shown kept, not free, in words"
    assert any("c&w" in line for line in hex_cell(game, "W25")), "and on the map"
    game.close_all_companies()  # C&W closes with its token unplaced (the first 5-train)
    assert track.token_problem(game, "GWR", "W25", 0, ignore_reach=True) is None
    assert "(kept for C&W)" not in " ".join(track_summary(game))


# -- every private closes with the first 5-train ------------------------------------------


def test_every_private_closes_when_the_first_5_train_is_bought() -> None:
    game = operating(after_the_start(), treasury=600)
    state = game.state
    state.phase, state.types_sold = "4", ["2", "3", "4"]
    state.depot = [t for t in state.depot if t.kind.startswith("5")]
    game.apply(ANN, BuyTrain("5"))
    assert all(c.closed for c in state.companies.values())
    assert all(not state.players[p].companies for p in SEATS)
    plain = load_title("1825", rules_dir=RULES, hooks=LORENZ, composer=LorenzData, presentation=LorenzPresentation)
    assert next(t for t in plain.trains if t.name == "5").events == (), "plain 1825's privates never close"


# -- the report ------------------------------------------------------------------------------


def report_of(game: Game) -> str:
    from pbem.games import GameInfo, Replay, Seat
    from pbem.reports import render, report_context

    seats = [Seat(name, f"p{i}@x.invalid", "") for i, name in enumerate(game.state.seats)]
    info = GameInfo("g", game.title.title, game.title.variants, seats, "gm@x.invalid", "")
    replay = Replay(info, game.title, game, last_seq=1)
    return render("report.txt.j2", report_context(replay, since_seq=1, number=2, recipient=ANN, width=80))


def section(text: str) -> list[str]:
    return text.split("\nLORENZ PRIVATES\n")[1].split("\n\n")[0].splitlines()


def test_the_report_shows_the_bids_the_money_set_aside_and_who_holds_each_power() -> None:
    game = new_game()
    play(game, "Ann: BID C&W 135\nBob: BID C&W 140\nCy: BID L&M 215")
    lines = section(report_of(game))
    assert "  Bids on C&W: Ann L135, Bob L140" in lines and "  Bids on L&M: Cy L215" in lines
    assert "  Bids on TWW: none" in lines
    assert ["  Set aside by Ann: L135", "  Set aside by Bob: L140", "  Set aside by Cy: L215",
            "  Set aside by Di: L0"] == [line for line in lines if "Set aside" in line]
    assert "  Power of TWW: not given yet" in lines
    game = operating(after_the_start())
    game.apply(ANN, Designate("TWW", "LNWR"))
    game.apply(ANN, Designate("C&W", "LNWR"))
    game.apply(ANN, PowerToken("W25", 0, "C&W"))
    lines = section(report_of(game))
    assert lines == ["  Power of TWW: held by LNWR (LAY K13 <tile> <rotation> USING TWW in its turn)",
                     "  Power of C&HP: not given yet (Ann may ASSIGN C&HP LNWR)",
                     "  Power of C&W: closed (was LNWR's)"]
    assert "LORENZ PRIVATES" not in report_of(new_game(()))


# -- random seating --------------------------------------------------------------------------


def test_a_new_game_of_the_variant_seats_the_players_at_random() -> None:
    from pbem.games import genesis_data

    def drawn(variants: tuple[str, ...]) -> dict[str, object]:
        return genesis_data("g", "1825", variants, MAIL_SEATS, "gm@example.org", MAIL_SECRETS, "gm",
                            random_seating=None, shuffle=lambda seats: seats.reverse())

    data = drawn(("unit_1", "lorenz"))
    assert [s["name"] for s in data["seats"]] == [DI, CY, BOB, ANN]  # type: ignore[attr-defined]
    assert data["settings"] == {"mail": "turn", "random_seating": True}
    plain = drawn(("unit_1",))
    assert [s["name"] for s in plain["seats"]] == SEATS and "random_seating" not in plain["settings"]  # type: ignore[index]


# -- a game by mail ----------------------------------------------------------------------------


START_BY_MAIL = [
    (ANN, "BID C&W 135"),
    (BOB, "BID C&W 140"),
    (CY, "BID S&D 165"),
    (DI, "BUY S&M"),           # C&HP has no bid: the line stops, and Ann (left of Di) is next
    (ANN, "BUY C&HP"),         # C&W: two bids, auctioned from the left of Bob, the high bidder
    (ANN, "BID C&W 150"),
    (BOB, "PASS"),             # C&W to Ann; then S&D, with its one bid, to Cy at once
    (BOB, "BUY L&M"),          # the turns resume with Bob, left of Ann (the last to buy with no bids)
]
STOCK_BY_MAIL = [
    (CY, "PASS"), (DI, "PASS"),
    (ANN, "PAR LNWR 100"), (BOB, "BUY LNWR"), (CY, "BUY LNWR"), (DI, "BUY LNWR"),
    (ANN, "PASS"), (BOB, "PASS"), (CY, "PASS"), (DI, "PASS"),
]
FIRST_OR_BY_MAIL = [(ANN, "ASSIGN C&W LNWR"), (ANN, "TOKEN W25 USING C&W")]


def test_a_four_player_game_by_mail() -> None:
    """Ann, Bob, Cy and Di play Units 1 and 2 with Lorenz's privates by mail: the bids, a
    one-bid sale down the line (S&D), an auction among two bidders (C&W), the turns resumed
    after the sales, the free shares; the stock round the next player opens; and in the first
    operating round Ann gives C&W's power to the LNWR, which places its free token in Dover.
    Each mail is read by the application as it comes from the mailbox; the log replays to
    the same game."""
    import itertools

    from pbem.application.mail import AppConfig, TurnReports, handle_mail
    from pbem.application.state import replay
    from pbem.application.texts import TextSettings, turn_report
    from pbem.commands import is_command_line
    from pbem.games import genesis_data, hash_secret
    from pbem.log_records import GameRecord, LogRecord
    from pbem.mail.types import BodyLine, Submission

    data = genesis_data(GID, "1825", ("unit_12", "lorenz"), MAIL_SEATS, "gm@example.org", MAIL_SECRETS, "gmpw",
                        random_seating=None, shuffle=lambda seats: None)  # drawn as listed, for the script
    assert data["settings"] == {"mail": "turn", "random_seating": True}
    records: list[LogRecord] = [GameRecord(seq=0, genesis=data)]
    state = replay(records)
    counter = itertools.count(1)
    config = AppConfig(new_secret=lambda: f"fresh{next(counter)}", hash_secret=hash_secret, route_budget=20_000)
    reports: list[str] = []

    def send(seat: str, *lines: str) -> None:
        nonlocal state, records
        body = tuple(BodyLine(n, text, is_command_line(text)) for n, text in enumerate(lines, start=1))
        sub = Submission(f"<m{len(records)}@example.org>", dict(MAIL_SEATS)[seat], seat, f"[{GID}] orders", GID,
                         MAIL_SECRETS[seat], body)
        decision = handle_mail(state, sub, config)
        assert decision.refusal is None, (lines, decision.refusal)
        assert any(isinstance(r, TurnReports) for r in decision.replies)
        records = records + list(decision.records)
        state = decision.state
        reports.append(turn_report(state, TextSettings("pbem@example.org"), since=0, number=len(reports) + 1,
                                   recipient=seat, width=80))

    game = state.game
    assert game.state.round.kind == "lorenz_auction"
    assert [c.sym for c in game.title.companies] == ["S&M", "C&HP", "C&W", "S&D", "L&M"], "one £30 private"
    for seat, line in START_BY_MAIL[:3]:
        send(seat, line)
    lines = section(reports[-1])
    assert "  Bids on C&W: Ann L135, Bob L140" in lines and "  Bids on S&D: Cy L165" in lines
    assert "  Set aside by Cy: L165" in lines
    for seat, line in START_BY_MAIL[3:5]:
        send(seat, line)
    assert state.game.state.round.auction is not None and state.game.state.round.auction.auctioning == "C&W"
    assert state.game.current_actors() == [ANN]
    send(ANN, "BID C&W 150")
    assert state.game.current_actors() == [BOB]
    send(BOB, "PASS")
    game = state.game
    assert owner(game, "C&W") == ANN and owner(game, "S&D") == CY
    assert game.state.percent_of(Owner.player(CY), "NER") == 10
    assert game.current_actors() == [BOB], "the turns resume with Bob"
    send(BOB, "BUY L&M")
    game = state.game
    assert game.state.percent_of(Owner.player(BOB), "LNWR") == 10
    assert game.state.round.kind == "stock" and game.current_actors() == [CY]
    assert {p: game.state.players[p].cash for p in SEATS} == {ANN: 630 - 75 - 150, BOB: 630 - 210, CY: 630 - 165,
                                                              DI: 630 - 30}
    from pbem.titles.g1825.stock import sell_private_problem

    assert sell_private_problem(game, CY, "S&D") == "private companies may not be sold to the bank"
    for seat, line in STOCK_BY_MAIL:
        send(seat, line)
    game = state.game
    assert game.state.round.kind == "operating" and game.operating_corporation() == "LNWR"
    send(ANN, *(line for _, line in FIRST_OR_BY_MAIL))
    game = state.game
    assert game.state.tokens[CityRef("W25", 0)] == ["LNWR"] and game.state.companies["C&W"].closed
    assert "  Power of C&W: closed (was LNWR's)" in section(reports[-1])
    assert "LNWR uses the power of C&W on W25, free" in reports[-1]
    again = replay(records)
    assert again.game.state == state.game.state and again.last_seq == len(records) - 1
