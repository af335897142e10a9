"""What the export writes so that 18xx.games' own engine replays it (issue 19), each on a
built position: the hexes of a run between its stops, two 2-trains run as one, the share ids
the platform holds after a sale of part of a president's certificate, a redemption and a
price protection, a token's slot, 1870's checks for connection runs and 1825's pass after a
token and its private sold to the bank.

The platform's behaviour each test follows: 18xx.games ``lib/engine/share_pool.rb``
(transfer_shares, handle_partial), ``game/g_1870/step/buy_sell_par_shares.rb``
(redeemable_shares), ``game/g_1870/step/price_protection.rb``, ``part/city.rb`` (get_slot),
``game/g_1870/step/check_connection.rb``, ``game/g_1825/step/track_and_token.rb``,
``game/g_1825/game.rb`` (double headers)."""

from __future__ import annotations

from typing import Any

from pbem.engine.ids import ShareId, TrainId
from pbem.engine.values import CityRef
from pbem.engine import track
from pbem.engine.actions import BuyPrivate, BuyShares, Pass, PlaceToken, RunRoutes, SellShares, TrainRun
from pbem.engine.game import Game
from pbem.engine.state import IPO, POOL, Owner
from pbem.exporters.e18xx import Exporter
from pbem.exporters.records import LoggedOrder
from pbem.importers.e18xx import Renderer
from pbem.titles.g1825.stock import SellPrivate
from pbem.titles.g1870.actions import Redeem
from tests.positions import mp_operating_with_the_bridge_company
from tests.test_1825_operating import bournemouth_line
from tests.test_1825_stock import P1, P2, all_privates_sold, new_game, stock_round
from tests.test_export_records import exporter_on


def holding(exporter: Exporter, sym: str) -> dict[str, list[str]]:
    """The record's share ids of ``sym`` by holder (players by name, ``POOL``, ``IPO``), as text."""
    exporter.renderer.holdings.follow(exporter.game.state)
    return {h.name or h.kind.upper(): [str(i) for i in ids]
            for h, ids in exporter.renderer.holdings.shares[sym].items() if ids}


def set_holding(exporter: Exporter, sym: str, by_holder: dict[Owner, list[str]]) -> None:
    """Give the record's ids of ``sym`` (text, ``"MP_1"``) to the holders our engine gives them
    to, in the order each received them (our engine's certificates are alike, so only counts
    matter)."""
    holdings = exporter.renderer.holdings
    holdings.shares[sym] = {h: [ShareId.parse(i) for i in ids] for h, ids in by_holder.items()}
    holdings.seen = tuple(cert.owner for cert in exporter.game.state.certificates)
    on_offer = {ShareId.parse(i) for h, ids in by_holder.items() if h == IPO for i in ids}
    exporter.renderer.ipo_ids = {i for i in exporter.renderer.ipo_ids if i.corporation != sym} | on_offer


def own_mp(game: Game, owners: dict[int, Owner]) -> None:
    """MP's certificates by index -> owner (the rest stay in the offering)."""
    for cert in game.state.certificates:
        if cert.corporation == "MP" and cert.index in owners:
            cert.owner = owners[cert.index]


def stock_turn(game: Game, seat: str) -> None:
    """A stock round (number 2) in which ``seat`` is to act."""
    from pbem.engine.state import RoundState, StockRoundState

    game.state.round = RoundState(kind="stock", number=2, stock=StockRoundState())
    game.state.order = ["A", "B", "C"]
    game.state.round.entity_index = game.state.order.index(seat)


# --- runs -------------------------------------------------------------------------------


def test_a_checked_run_keeps_the_hexes_each_leg_passes() -> None:
    game = bournemouth_line("Y13.0")  # Y13 - X14 (#57) - W15 (plain track) - V16 (a town)
    [result] = track.check_runs(game, "LSWR", [((TrainId("2", 0), TrainId("2", 1)), ["Y13", "X14", "V16"])])
    assert result.legs == (("Y13", "X14"), ("X14", "W15", "V16"))
    [back] = track.check_runs(game, "LSWR", [((TrainId("2", 0), TrainId("2", 1)), ["V16", "X14", "Y13"])])
    assert back.legs == (("V16", "W15", "X14"), ("X14", "Y13"))  # in the direction of travel


def test_two_2_trains_run_as_one_are_two_routes_meeting_at_the_middle_stop() -> None:
    game = bournemouth_line("Y13.0")
    exporter = exporter_on(game)
    run = RunRoutes((TrainRun("2", ("Y13", "X14", "V16"), ("2",)),))
    exporter.add(LoggedOrder(7, "Ann", run))
    *_, written = exporter.actions
    assert written["type"] == "run_routes" and written["entity"] == "LSWR"
    first, second = written["routes"]
    assert (first["train"], first["connections"], first["revenue"]) == ("2-0", [["Y13", "X14"]], 40)
    # the stop they share counts on the first route only (50 in all, as one 3-train)
    assert (second["train"], second["connections"], second["revenue"]) == ("2-1", [["X14", "W15", "V16"]], 10)
    assert first["nodes"] == ["Y13-0", "X14-0"] and second["nodes"] == ["X14-0", "V16-0"]
    # and the importer reads the two routes back as the one order (the export checks it too)
    reader = Renderer({"title": "1825", "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]},
                      game.title)
    reader.game = bournemouth_line("Y13.0")
    assert reader.render({**written, "id": 1}) == run


def test_two_2_train_routes_both_through_a_token_are_two_runs() -> None:
    """Two 2-trains from the company's token each way are no double header on the platform
    (both tokened, meeting at a city): read as two runs."""
    game = bournemouth_line("X14.0")
    reader = Renderer({"title": "1825", "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]},
                      game.title)
    reader.game = game
    routes = [{"train": "2-0", "connections": [["Y13", "X14"]], "nodes": ["Y13-0", "X14-0"]},
              {"train": "2-1", "connections": [["X14", "W15", "V16"]], "nodes": ["X14-0", "V16-0"]}]
    read = reader.render({"type": "run_routes", "id": 1, "entity": "LSWR", "entity_type": "corporation",
                          "routes": routes})
    assert read == RunRoutes((TrainRun("2", ("Y13", "X14")), TrainRun("2", ("X14", "V16"))))


# --- share ids --------------------------------------------------------------------------


def test_a_sale_of_part_of_the_presidents_certificate_takes_back_the_pools_oldest_share() -> None:
    """B (president: MP_0 and MP_1) sells 20% while C holds 20%: the platform moves the named
    shares to the pool, C swaps two shares for the president's certificate, and B gets back
    the share the pool held first."""
    game = mp_operating_with_the_bridge_company()
    own_mp(game, {0: Owner.player("B"), 1: Owner.player("B"), 2: Owner.player("C"), 3: Owner.player("C"),
                  4: POOL})
    stock_turn(game, "B")
    exporter = exporter_on(game)
    assert holding(exporter, "MP")["POOL"] == ["MP_4"]
    exporter.add(LoggedOrder(1, "B", SellShares("MP", 2)))
    sale = exporter.actions[-1]
    assert sale["shares"] == ["MP_1", "MP_0"] and sale["percent"] == 20
    held = holding(exporter, "MP")
    assert held["B"] == ["MP_4"]  # not MP_1, which it sold
    assert held["C"] == ["MP_0"]
    assert sorted(held["POOL"]) == ["MP_1", "MP_2", "MP_3"]


def test_a_redemption_names_the_share_its_holder_received_first() -> None:
    game = mp_operating_with_the_bridge_company(president_holds_shares=True)
    own_mp(game, {5: Owner.player("C"), 6: Owner.player("C")})
    exporter = exporter_on(game)
    c = Owner.player("C")
    set_holding(exporter, "MP", {Owner.player("B"): ["MP_0", "MP_1", "MP_2", "MP_3", "MP_4"],
                                 c: ["MP_6", "MP_5"], IPO: ["MP_7", "MP_8", "MP_9"]})
    assert exporter.share_ids("MP", c, 1) == [ShareId("MP", 5)]  # a buy or sale may name any
    written = exporter.renderer.translation.export(exporter, "B", Redeem("MP", "C"))
    assert written is not None and written[0]["shares"] == ["MP_6"]  # the platform offers only this one


def test_a_price_protection_names_the_shares_the_sale_named() -> None:
    """C sells MP_5 while the pool holds MP_1: B's price protection buys back MP_5."""
    game = mp_operating_with_the_bridge_company()
    own_mp(game, {0: Owner.player("B"), 1: POOL, 2: Owner.player("B"), 5: Owner.player("C"),
                  6: Owner.player("C")})
    stock_turn(game, "C")
    exporter = exporter_on(game)
    set_holding(exporter, "MP", {Owner.player("B"): ["MP_0", "MP_2"], Owner.player("C"): ["MP_5", "MP_6"],
                                 POOL: ["MP_1"], IPO: ["MP_3", "MP_4", "MP_7", "MP_8", "MP_9"]})
    exporter.add(LoggedOrder(1, "C", SellShares("MP", 1)))
    assert exporter.actions[-1]["shares"] == ["MP_5"]
    exporter.add(LoggedOrder(2, "C", Pass()))
    assert "B" in game.waiting_for()
    exporter.add(LoggedOrder(3, "B", BuyShares("MP", "pool", 1)))
    protection = exporter.actions[-1]
    assert protection["type"] == "buy_shares" and protection["entity"] == 2
    assert protection["shares"] == ["MP_5"]
    assert "MP_5" in holding(exporter, "MP")["B"] and holding(exporter, "MP")["POOL"] == ["MP_1"]


# --- tokens -----------------------------------------------------------------------------


def test_a_tokens_slot_leaves_one_for_a_held_home_and_reuses_one_a_closed_corporation_left() -> None:
    game = mp_operating_with_the_bridge_company()
    exporter = exporter_on(game)
    game.state.tiles["J5"] = ("170", 0)  # Dallas, TP's home: two slots
    exporter.slots.follow(game)
    assert track.reserved_home(game, "J5", 0) == ["TP"]
    assert exporter.token_slot("J5", 0, "MP") == 1  # slot 0 is held for TP
    assert exporter.token_slot("J5", 0, "TP") == 0
    game.state.tokens[CityRef("J5", 0)] = ["TP", "MP"]
    exporter.slots.follow(game)
    assert exporter.slots.taken[CityRef("J5", 0)] == ["TP", "MP"]
    game.state.tokens[CityRef("J5", 0)] = ["MP"]  # TP closed: its token leaves
    game.state.corporations["TP"].closed = True
    exporter.slots.follow(game)
    assert exporter.slots.taken[CityRef("J5", 0)] == [None, "MP"]
    assert exporter.token_slot("J5", 0, "SLSF") == 0


def test_a_token_written_names_its_slot() -> None:
    game = bournemouth_line("Y13.0")
    exporter = exporter_on(game)
    exporter._sync_tiles()  # the tiles of the built position, as if the record had laid them
    exporter.renderer._tile_hex.update({tile: coord for coord, tile in exporter.tile_ids.items()})
    exporter.add(LoggedOrder(1, "Ann", PlaceToken("X14", 0)))
    token = exporter.actions[0]
    assert (token["type"], token["city"], token["slot"], token["entity"]) == ("place_token", "57-0-0", 0, "LSWR")


def mp_beside_its_home_tile(variants: tuple[str, ...]) -> Game:
    """1870 (with ``variants``) OR 1: MP (president B, $500) operates alone, its home C18
    already tiled with #57, so a #4 may go on D17."""
    from pbem.engine.state import OperatingState, RoundState
    from pbem.ruleset import load_title

    game = Game(load_title("1870", variants), ["A", "B", "C"])
    state = game.state
    corp = state.corporations["MP"]
    corp.cash, corp.floated, corp.ipoed, corp.president = 500, True, True, "B"
    corp.par = corp.price = (1, 6)
    state.market[(1, 6)] = ["MP"]
    state.tokens[CityRef("C18", 0)] = ["MP"]
    state.tiles["C18"] = ("57", 0)
    state.round = RoundState(kind="operating", operating=OperatingState(order=["MP"]))
    return game


def test_1870s_original_tiles_lay_the_copies_the_platform_kept() -> None:
    """With "original tiles" (alone or in "original rules") the platform drops the first
    copies of the tiles it has fewer of (#4-0 and #4-1 of six #4): a #4 laid is #4-2 there;
    in the base game it is #4-0."""
    from pbem.engine.actions import LayTile

    for variants, expected in (((), "4-0"), (("original_tiles",), "4-2"), (("original_rules",), "4-2")):
        game = mp_beside_its_home_tile(variants)
        lay = next(a for a in game.legal_actions("B") if isinstance(a, LayTile) and a.tile == "4")
        exporter = exporter_on(game)
        exporter.add(LoggedOrder(1, "B", lay))
        written = exporter.actions[-1]
        assert (written["type"], written["hex"], written["tile"]) == ("lay_tile", "D17", expected), variants
        assert exporter.tile_id("D17") == expected


# --- steps the platform waits for -----------------------------------------------------------


def connection_checks(action: dict[str, Any]) -> list[tuple[str, list[str]]]:
    return [(a["entity"], a["corporations"]) for a in action.get("auto_actions", [])
            if a["type"] == "destination_connection"]


def test_1870s_checks_for_connection_runs_end_a_turn_and_start_the_next() -> None:
    game = mp_operating_with_the_bridge_company()
    game.state.round.operating.order = ["MP", "SLSF"]  # type: ignore[union-attr]
    slsf = game.state.corporations["SLSF"]
    slsf.floated, slsf.ipoed, slsf.president, slsf.cash = True, True, "C", 300
    slsf.par = slsf.price = (1, 6)
    game.state.tokens[CityRef("I12", 0)] = ["SLSF"]  # its home, Kansas City... any token will do here
    exporter = exporter_on(game)
    exporter.memo["connection_checks"] = {("start", exporter.turn())}  # MP's turn began before
    while game.operating_corporation() == "MP":
        exporter.add(LoggedOrder(len(exporter.actions) + 1, "B", Pass()))
    ends = [a for a in exporter.actions if a.get("auto_actions")]
    assert len(ends) == 1 and ends[0] is exporter.actions[-1]
    assert connection_checks(ends[0]) == [("MP", []), ("SLSF", [])]
    assert all(not a.get("auto_actions") for a in exporter.actions[:-1])


def test_1870s_corporation_closing_in_its_turn_gets_no_check_at_its_end() -> None:
    """The platform moves on at once from a corporation that closes in its turn (18xx.games
    ``close_corporation``): the next corporation's turn starts with its check, and the closed
    one has none at its end."""
    game = mp_operating_with_the_bridge_company()
    game.state.round.operating.order = ["MP", "SLSF"]  # type: ignore[union-attr]
    slsf = game.state.corporations["SLSF"]
    slsf.floated, slsf.ipoed, slsf.president, slsf.cash = True, True, "C", 300
    slsf.par = slsf.price = (1, 6)
    game.state.tokens[CityRef("I12", 0)] = ["SLSF"]
    mp = game.state.corporations["MP"]
    game.state.market[(1, 6)] = []
    mp.price = (8, 1)  # $10, next to the closing cell: a withheld run closes MP
    game.state.market[(8, 1)] = ["MP"]
    exporter = exporter_on(game)
    exporter.memo["connection_checks"] = {("start", exporter.turn())}
    while game.operating_corporation() == "MP":
        exporter.add(LoggedOrder(len(exporter.actions) + 1, "B", Pass()))
    assert mp.closed and game.operating_corporation() == "SLSF"
    ends = [a for a in exporter.actions if a.get("auto_actions")]
    assert len(ends) == 1 and ends[0] is exporter.actions[-1]
    assert connection_checks(ends[0]) == [("SLSF", [])]


def test_1825s_pass_after_a_token_while_a_tile_could_still_be_laid() -> None:
    """After its token a company that could still lay a tile is in its track-and-token step
    on both engines: the player's PASS ends it and is written as the platform's pass."""
    game = bournemouth_line("Y13.0")
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(1, "Ann", PlaceToken("X14", 0)))
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("place_token", "LSWR")]
    exporter.add(LoggedOrder(2, "Ann", Pass()))
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("place_token", "LSWR"), ("pass", "LSWR")]
    assert exporter.sources == [1, 2]


def test_1825s_private_sold_to_the_bank_and_bought_back() -> None:
    game = new_game(2)
    all_privates_sold(game)
    stock_round(game, 2)
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(1, P1, SellPrivate("C&W")))
    assert exporter.actions[-1] == {"type": "sell_company", "entity": 1, "entity_type": "player",
                                    "company": "C&W", "price": 100, "id": 1}
    exporter.add(LoggedOrder(2, P1, Pass()))
    exporter.add(LoggedOrder(3, P2, BuyPrivate("C&W")))
    assert exporter.actions[-1] == {"type": "buy_company", "entity": 2, "entity_type": "player",
                                    "company": "C&W", "price": 130, "id": 3}
    assert game.state.companies["C&W"].owner == Owner.player(P2)


# --- orders that pass over steps, and RUN AUTO ----------------------------------------------


def test_a_train_bought_with_no_lay_first_is_written_after_a_pass_of_each_step_passed_over() -> None:
    """Our engine lets TRAIN pass the optional track and token steps; the platform's steps
    each wait for a pass (18xx.games ``step/track.rb``, ``step/token.rb``: blocking until
    passed), so the export writes those passes first, for the corporation, from the same
    log number, and the import reads them back as the one TRAIN order."""
    from pbem.engine.actions import BuyTrain
    from pbem.engine.steps.operating.walk import active_steps, passed_over

    game = mp_operating_with_the_bridge_company()
    over = passed_over(game, "B", BuyTrain("2"))
    assert over and over == active_steps(game)[:len(over)]  # the steps before the train step
    assert active_steps(game)[0] in over  # nothing of the game changed asking
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(9, "B", BuyTrain("2")))
    *passes, bought = exporter.actions
    assert len(passes) == len(over)
    assert all(p["type"] == "pass" and p["entity"] == "MP" and p["entity_type"] == "corporation" for p in passes)
    assert bought["type"] == "buy_train" and bought["train"] == "2-0"
    assert exporter.sources == [9] * len(exporter.actions)
    assert game.state.corporations["MP"].trains == [TrainId("2", 0)]


def test_a_lay_passes_over_nothing_and_is_written_alone() -> None:
    from pbem.engine.actions import LayTile
    from pbem.engine.steps.operating.walk import passed_over

    game = mp_operating_with_the_bridge_company()
    lay = next(a for a in game.legal_actions("B") if isinstance(a, LayTile))
    assert passed_over(game, "B", lay) == []
    assert passed_over(game, "C", lay) == []  # not C's turn: refused, so nothing passed over
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(3, "B", lay))
    assert [a["type"] for a in exporter.actions] == ["lay_tile"]


def test_run_auto_is_written_as_the_run_our_engine_finds() -> None:
    """RUN AUTO (as the server logs it when a game leaves runs to it) has no record action of
    its own: the export writes the best run, here two 2-trains run as one (50), after the
    pass of the track-and-token step it passes over."""
    from pbem.engine.actions import RunAuto

    game = bournemouth_line("Y13.0")
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(4, "Ann", RunAuto()))
    *passes, written = exporter.actions
    assert [p["type"] for p in passes] == ["pass"]
    assert written["type"] == "run_routes" and written["entity"] == "LSWR"
    assert sum(route["revenue"] for route in written["routes"]) == 50
    assert [route["connections"] for route in written["routes"]] == [[["Y13", "X14"]], [["X14", "W15", "V16"]]]


def test_a_train_the_record_never_moved_is_bought_from_the_corporation_holding_it() -> None:
    """A company in receivership buys its train in the platform's step by itself, with no
    record action (18xx.games ``g_1825/step/buy_train.rb``, receivership_buy), as ours does:
    a later purchase of that train from the company is read as from that company (not from
    the depot), so the export of such a purchase reads back."""
    from pbem.engine.actions import BuyTrain
    from tests.test_1825_operating import operate, take

    game = operate(new_game(), "LSWR", cash=900)
    take(game, TrainId("3", 0))
    game.state.corporations["GWR"].trains.append(TrainId("3", 0))  # bought with no record action
    reader = Renderer({"title": "1825", "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]},
                      game.title)
    reader.game = game
    read = reader.render({"type": "buy_train", "id": 1, "entity": "LSWR", "entity_type": "corporation",
                          "train": "3-0", "price": 250})
    assert read == BuyTrain("3", "GWR", 250)
    # a train of the depot is still the depot's
    read = reader.render({"type": "buy_train", "id": 2, "entity": "LSWR", "entity_type": "corporation",
                          "train": "3-1", "price": 200})
    assert read == BuyTrain("3", "depot", None)


def test_a_presidents_certificate_sold_to_the_pool_is_bought_back_from_the_pool() -> None:
    """1825 lets a Director's certificate be sold to the pool (18xx.games
    ``PRESIDENT_SALES_TO_MARKET``, and ours): bought later, it comes from the pool, not the
    offering, though the record never bought it from the offering (its par took it)."""
    from pbem.engine.actions import Par

    game = new_game()
    reader = Renderer({"title": "1825", "players": [{"id": 1, "name": "Ann"}, {"id": 2, "name": "Bob"}]},
                      game.title)
    reader.game = game
    assert reader.render({"type": "par", "id": 1, "entity": 1, "entity_type": "player", "corporation": "GER",
                          "share_price": "100,0,4"}) == Par("GER", 100)
    read = reader.render({"type": "buy_shares", "id": 9, "entity": 2, "entity_type": "player",
                          "shares": ["GER_0"], "percent": 20})
    assert read == BuyShares("GER", "pool", 1)


# --- the platform's turns for a private trade between players --------------------------------


def _1830_stock_round(number: int) -> tuple[Game, Exporter]:
    """1830 in stock round ``number`` with A to act, the privates held (A: SV, MH; B: CS,
    CA; C: DH, BO), B and C with $5 each (nothing they can buy or sell)."""
    from pbem.engine.state import RoundState, StockRoundState
    from pbem.importers.e18xx import TurnWatch
    from pbem.ruleset import load_title

    game = Game(load_title("1830"), ["A", "B", "C"])
    for player, company in (("A", "SV"), ("B", "CS"), ("C", "DH"), ("A", "MH"), ("B", "CA"), ("C", "BO")):
        game.state.companies[company].owner = Owner.player(player)
        game.state.players[player].companies.append(company)
    game.state.round = RoundState(kind="stock", number=number, stock=StockRoundState())
    game.state.order = ["A", "B", "C"]
    game.state.round.entity_index = 0
    for player in ("B", "C"):
        game.state.players[player].cash = 5
    exporter = exporter_on(game)
    exporter.renderer.turns = TurnWatch(game)
    return game, exporter


def at_the_certificate_limit(game: Game, player: str) -> None:
    """``player`` given shares of unstarted corporations from the IPO up to the limit (they
    have no price, so none may be sold)."""
    from pbem.engine import shares
    from pbem.engine.state import IPO

    short = shares.certificate_limit(game.state, game.title) - shares.certificate_count(game.state, game.title, player)
    spare = [c for c in game.state.certificates if c.owner == IPO and not c.president]
    for cert in spare[:short]:
        cert.owner = Owner.player(player)


def test_our_engine_gives_a_turn_to_a_player_who_may_buy_a_private_from_another() -> None:
    """From the second stock round, in phases 2 to 4, a player may buy another player's
    private (the title's ``private_trades``, as 18xx.games plays 1830: ``g_1830/game.rb``
    ``can_buy_companies_from_other_players``; ``g_1830/step/buy_sell_par_shares.rb``: not in
    the first stock round): B and C, with $5 and nothing else to do, are asked on both sides."""
    game, exporter = _1830_stock_round(2)
    exporter.add(LoggedOrder(3, "A", Pass()))
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("pass", 1)]
    assert game.current_actors() == ["B"]


def test_a_player_at_the_certificate_limit_our_engine_passes_is_asked_by_the_platform() -> None:
    """The platform offers another player's private to a player at the certificate limit
    (it does not check the limit there); our engine refuses it and passes B and C, who have
    nothing else to do: the export writes their passes after A's, in turn order, and reads
    them back as no order."""
    game, exporter = _1830_stock_round(2)
    for player in ("B", "C"):
        at_the_certificate_limit(game, player)
    exporter.add(LoggedOrder(3, "A", Pass()))
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("pass", 1), ("pass", 2), ("pass", 3)]
    assert exporter.sources == [3, 3, 3]
    assert game.round_label() == "SR 3"  # every player passed: the round is over on both sides


def test_in_the_first_stock_round_the_platform_offers_no_private_trade() -> None:
    game, exporter = _1830_stock_round(1)
    exporter.add(LoggedOrder(3, "A", Pass()))
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("pass", 1)]


def test_a_player_with_no_money_is_not_asked() -> None:
    game, exporter = _1830_stock_round(2)
    at_the_certificate_limit(game, "B")
    game.state.players["C"].cash = 0
    exporter.add(LoggedOrder(3, "A", Pass()))
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("pass", 1), ("pass", 2)]


def test_the_bo_is_no_private_for_sale_between_players() -> None:
    """1830's B&O private may not be bought (18xx.games ``g_1830/entities.rb``: ``no_buy``,
    which its stock round's ``purchasable_companies`` honours): with only the BO left in a
    player's hands the platform asks nobody our engine passes."""
    game, exporter = _1830_stock_round(2)
    for sym, company in game.state.companies.items():
        company.closed = sym != "BO"
    exporter.add(LoggedOrder(3, "A", Pass()))
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("pass", 1)]


def test_a_pass_our_engine_made_in_an_earlier_round_does_not_swallow_the_players_own_pass() -> None:
    """The import reads a recorded pass as the platform's for a turn our engine passed by
    itself during the last order (no order) when that turn is in the round now, or the
    player is not to act; a player to act now whose automatic pass was in the round before
    (which the platform did not ask) gives their own PASS."""
    from pbem.engine.events.rounds import NoValidActions, RoundStarted
    from pbem.importers.e18xx import TurnWatch

    game, _ = _1830_stock_round(2)
    game.state.players["C"].cash = 0  # no private of another player's is for sale to C
    game.state.round.entity_index = game.state.order.index("B")
    watch = TurnWatch(game)
    watch.label = "SR 1"
    game.last_events = [NoValidActions("B"), NoValidActions("C"), RoundStarted("SR 2"), NoValidActions("C")]
    watch.rendered()
    watch.look()
    assert watch.auto_passed == [("SR 1", "B", False), ("SR 1", "C", False), ("SR 2", "C", False)]
    assert not watch.auto_pass("B")  # B is to act in SR 2: a pass of B now is B's own
    assert watch.auto_pass("C") and watch.auto_passed == [("SR 1", "B", False), ("SR 1", "C", False)]
    assert watch.auto_pass("C")  # not to act: an earlier round's turn
    assert not watch.auto_pass("C")


def test_the_platforms_passes_after_an_order_that_ends_a_stock_round_are_read_in_order() -> None:
    """An order that ends stock round 2 (A's purchase; B and C have nothing to do) and the
    next stock round's start (B to act first, again with nothing to do): the platform asks B
    and C to pass in round 2 and B again in round 3 (a private of another player is for sale
    to each, 1830 phases 2-4 from the second stock round); A, with no money, it does not
    ask. The import expects exactly those passes, in that order, and no more; C, to act
    first in the new round, then passes on their own."""
    from pbem.engine.actions import BuyShares
    from pbem.engine.events.rounds import NoValidActions, RoundStarted
    from pbem.importers.e18xx import TurnWatch
    from pbem.titles.g1830.importing import Translation1830

    game, _ = _1830_stock_round(3)
    game.state.players["A"].cash = 0
    game.state.round.entity_index = game.state.order.index("C")
    watch = TurnWatch(game, Translation1830())
    watch.label, watch.held = "SR 2", ({"A": 0, "B": 5, "C": 5}, "2")
    watch.rendered("A", BuyShares("PRR"))
    game.last_events = [NoValidActions("B"), NoValidActions("C"), NoValidActions("A"),
                        RoundStarted("OR 2.1"), RoundStarted("SR 3"), NoValidActions("B")]
    watch.look()
    assert watch.expected == ["B", "C", "B"]
    assert not watch.platform_pass("C")  # out of turn: not the platform's next pass
    assert watch.platform_pass("B") and watch.platform_pass("C") and watch.platform_pass("B")
    assert not watch.platform_pass("B") and watch.expected == []
    assert watch.acts_in_new_round("C") and not watch.acts_in_new_round("B")


def test_declining_the_dh_token_is_the_privates_pass() -> None:
    """1830's D&H: once its tile is on F16 the platform asks the private itself for the
    token there (18xx.games ``step/special_token.rb``: a pass by the teleporting company);
    our PASS then is written as the D&H's pass, which reads back as PASS, and the agreement
    names the D&H as the one to act."""
    from pbem.engine.actions import LayTile
    from pbem.importers.agreement import acting_entity

    game, exporter = _prr_owning("DH")
    lay = next(a for a in game.legal_actions("A") if isinstance(a, LayTile) and a.using == "DH")
    game.apply("A", lay)
    assert game.state.pending_teleport == "F16" and acting_entity(game) == "DH"
    exporter.add(LoggedOrder(5, "A", Pass()))
    assert exporter.actions == [{"type": "pass", "entity": "DH", "entity_type": "company", "id": 1}]
    assert game.state.pending_teleport is None and acting_entity(game) == "PRR"


def test_a_stock_round_pass_read_after_the_round_ended_is_no_order_for_a_president_to_act() -> None:
    """B was passed by our engine as the stock round ended and now acts as MP's president
    in the operating round that followed: a recorded pass of B (a player) then is the
    platform's stock-round turn, no order."""
    from pbem.importers.e18xx import TurnWatch

    game = mp_operating_with_the_bridge_company()
    assert "B" in game.current_actors() and game.round_label().startswith("OR")
    watch = TurnWatch(game)
    watch.auto_passed = [("SR 1", "B", False)]
    assert watch.auto_pass("B") and watch.auto_passed == []


def test_a_player_who_bought_in_the_turn_is_not_asked_again_for_a_private() -> None:
    """The platform offers another player's private only in a turn with no purchase (the
    base step's ``purchasable_companies``: not ``bought?``, a par counts): A, who started a
    corporation earlier in the turn and now sells its one NYC share, has nothing more to do
    and gets no pass of the platform (B, NYC's president, acts next on both sides)."""
    from tests.test_engine_operating import float_corp

    game, exporter = _1830_stock_round(2)
    float_corp(game, "NYC", "B", 90, 0)
    share = next(c for c in game.state.certificates if c.corporation == "NYC" and c.index == 5)
    share.owner = Owner.player("A")
    game.state.players["A"].cash = 0
    stock = game.state.round.stock
    assert stock is not None
    stock.turn_actions = ["par"]
    exporter.add(LoggedOrder(4, "A", SellShares("NYC", 1)))
    assert game.current_actors() == ["B"]
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("sell_shares", 1)]


def _prr_owning(company: str = "CS", tiles: dict[str, tuple[str, int]] | None = None) -> tuple[Game, Exporter]:
    """1830, OR 1.1: PRR (A, $1000) operates and owns ``company`` (the CS, whose extra tile
    on B20 it may lay at any time in its turn, or the D&H), bought from its player; the
    map shows ``tiles`` (hex -> tile, rotation) too."""
    from pbem.importers.e18xx import TurnWatch
    from pbem.ruleset import load_title
    from tests.test_engine_operating import float_corp, operating

    game = Game(load_title("1830"), ["A", "B", "C"])
    for player, private in (("A", "SV"), ("B", "CS"), ("C", "DH"), ("A", "MH"), ("B", "CA")):
        game.apply(player, BuyPrivate(private))
    float_corp(game, "PRR", "A", 100, 1000)
    holder = game.state.companies[company].owner
    assert holder is not None
    game.state.players[holder.name].companies.remove(company)
    game.state.companies[company].owner = Owner.corporation("PRR")
    game.state.tiles.update(tiles or {})
    operating(game)
    exporter = exporter_on(game)
    exporter.renderer.turns = TurnWatch(game)
    if tiles:  # the record's copies of the tiles built in, as if the record had laid them
        exporter._sync_tiles()
        exporter.renderer._tile_hex.update({exporter.tile_ids[coord]: coord for coord in tiles})
    return game, exporter


def test_a_turn_ended_with_the_cs_lay_unmade_gets_the_platforms_last_pass() -> None:
    """18xx.games keeps a corporation's turn open at its last step (Buy Companies, blocking)
    while it owns an ability usable in its turn (the CS's extra tile, ``owning_corp_or_turn``):
    when our engine ends PRR's turn (its PASS of the train step, nothing left), the export
    writes PRR's pass of that step too, which reads back as no order."""
    from pbem.engine.actions import BuyTrain

    game, exporter = _prr_owning()
    exporter.add(LoggedOrder(1, "A", BuyTrain("2")))
    bought = len(exporter.actions)
    exporter.add(LoggedOrder(2, "A", Pass()))
    assert game.operating_corporation() != "PRR"
    assert exporter.actions[bought:] == [
        {"type": "pass", "entity": "PRR", "entity_type": "corporation", "id": bought + 1},
        {"type": "pass", "entity": "PRR", "entity_type": "corporation", "id": bought + 2}]


def test_with_the_cs_lay_made_the_turn_ends_with_our_pass() -> None:
    from pbem.engine.actions import BuyTrain

    game, exporter = _prr_owning()
    game.state.used_abilities.append("CS")
    exporter.add(LoggedOrder(1, "A", BuyTrain("2")))
    bought = len(exporter.actions)
    exporter.add(LoggedOrder(2, "A", Pass()))
    assert exporter.actions[bought:] == [{"type": "pass", "entity": "PRR", "entity_type": "corporation",
                                          "id": bought + 1}]


def test_the_platforms_last_pass_reads_as_no_order_when_the_corporation_operates_next_too() -> None:
    """As above, PRR alone with two operating rounds a set (phase 3): the turn our engine ends
    is followed by PRR's turn in the next operating round, so the platform's pass of the last
    step is written and read back as no order (once: PRR's own PASS after it is a PASS).""" 
    from pbem.engine.actions import BuyTrain

    game, exporter = _prr_owning()
    game.state.phase, game.state.operating_rounds = "3", 2
    game.state.bank += game.state.corporations["PRR"].cash - 80
    game.state.corporations["PRR"].cash = 80  # a 2-train's price: nothing left after it
    exporter.add(LoggedOrder(1, "A", BuyTrain("2")))
    assert game.round_label() == "OR 1.2" and game.operating_corporation() == "PRR"
    assert [(a["type"], a["entity"]) for a in exporter.actions[-2:]] == [("buy_train", "PRR"), ("pass", "PRR")]
    renderer = exporter.renderer
    assert renderer.render({"type": "pass", "entity": "PRR", "entity_type": "corporation", "id": 99}) == Pass()


def test_a_route_back_to_the_hex_it_left_reads_in_the_order_written() -> None:
    """A run G7 (one city) - F6 - G7 (the other city): both ends of its first hex chain are
    ends of the second, so the first chain's own order gives the start; a route whose first
    chain shares one end is read from its other end, as before."""
    from pbem.importers.e18xx import _join_chains

    assert _join_chains([["G7", "F6"], ["F6", "G7"]]) == ["G7", "F6", "G7"]
    assert _join_chains([["F6", "G7"], ["G7", "F6"]]) == ["F6", "G7", "F6"]
    assert _join_chains([["F6", "G7"], ["F6", "E5"]]) == ["G7", "F6", "E5"]
    assert _join_chains([["E5", "D4", "F6"]]) == ["E5", "F6"]


def test_a_player_who_sold_in_the_order_is_asked_with_the_money_the_sale_brought() -> None:
    """A, with no money, bought earlier in the turn and now sells: our engine ends A's turn and
    passes B and C (no money) and then A, who has nothing left to do. The platform asks A
    again on A's next turn, holding the sale's $67 while another player's private is for sale
    (1830, phases 2-4 from the second stock round)."""
    from pbem.engine.events import SharesSold
    from pbem.engine.events.rounds import NoValidActions
    from pbem.titles.g1830.importing import Translation1830

    game, _ = _1830_stock_round(2)
    for player in ("B", "C"):
        game.state.players[player].cash = 0
    game.state.players["A"].cash = 67  # after the sale
    events = [SharesSold("A", 1, "NYC", 10, 67), NoValidActions("B"), NoValidActions("C"), NoValidActions("A")]
    passes = Translation1830().platform_passes
    assert passes(game, "A", SellShares("NYC"), "SR 2", True, ({"A": 0, "B": 0, "C": 0}, "2"), events) == ["A"]
    game.state.players["A"].cash = 0
    assert passes(game, "A", SellShares("NYC"), "SR 2", True, ({"A": 0, "B": 0, "C": 0}, "2"), events) == []


def test_1825_the_platform_asks_a_player_who_could_pay_for_a_start_of_any_band() -> None:
    """18xx.games lists a start for a 1825 player while some company is not started and the
    player has twice the market's lowest par (£67) and room under the certificate limit, the
    company's band open or not; it then asks a player our engine passes."""
    from pbem.titles.g1825.importing import Translation1825

    game = new_game()
    all_privates_sold(game)
    asks = Translation1825().asks_in_stock_round
    assert asks(game, P1, 2, "1", 134) and not asks(game, P1, 2, "1", 133)
    for corp in game.state.corporations.values():
        corp.ipoed = True
    assert not asks(game, P1, 2, "1", 1000)


def test_1825_the_platform_waits_for_the_pass_of_a_company_with_less_than_a_trade_costs() -> None:
    """Unit 3: HR (£6, a U3, room for more) can pay for no train of the bank's; GNoS holds a
    train, which 18xx.games counts as buyable for £1 and sells from £10: its train step waits
    for HR's pass, which our engine, ending the turn, does not ask. With £10 HR may buy it
    (our engine asks too); with no other company's train there is nothing to wait for."""
    from pbem.titles.g1825.importing import Translation1825
    from tests.test_1825_operating import new_game as game_1825
    from tests.test_1825_operating import operate, take

    game = game_1825(("unit_3",))
    operate(game, "HR", cash=6, owned=(TrainId("U3", 0),))
    asks = Translation1825().asks_at_turn_end
    assert not asks(game, "HR")
    take(game, TrainId("5", 0))
    game.state.corporations["GNoS"].trains.append(TrainId("5", 0))
    assert asks(game, "HR")
    game.state.corporations["HR"].cash = 10
    assert not asks(game, "HR")


def test_1825_the_directors_certificate_from_the_pool_is_bought_for_one_shares_percent() -> None:
    """GER in receivership, its Director's certificate alone in the pool: P1, holding a
    share, buys the certificate for one share's price and gives a share back. 18xx.games
    takes a purchase of that certificate for one share's percent (its share pool rebundles a
    President's share bought from the pool, ``allow_president_sale``), which the export
    writes and which reads back as the same BUY."""
    from tests.test_1825_stock import start

    game = new_game()
    all_privates_sold(game)
    start(game, "GER", P2, 76, {P1: 1})
    director = next(c for c in game.state.certificates if c.corporation == "GER" and c.president)
    director.owner = POOL
    game.state.corporations["GER"].president = None
    stock_round(game, 2)
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(1, P1, BuyShares("GER", "pool")))
    assert exporter.actions == [{"type": "buy_shares", "entity": 1, "entity_type": "player",
                                 "shares": ["GER_0"], "percent": 10, "id": 1}]
    assert game.state.corporations["GER"].president == P1


def test_1870_a_redemption_is_the_presidents_whole_turn_on_the_platform_too() -> None:
    """After B's redemption our engine ends B's turn, and so does 18xx.games: no pass of B is
    written though a private of another player is for sale to B (1870 phase 2); after a sale
    ending B's turn the platform would ask."""
    from pbem.titles.g1870.actions import Redeem
    from pbem.titles.g1870.importing import Translation1870
    from tests.test_engine_1870 import sr_game

    game = sr_game()
    game.state.phase = "2"
    game.state.companies["GSC"].owner = Owner.player("A")
    game.state.round.entity_index = game.state.order.index("C")  # B's turn over
    held = ({p: s.cash for p, s in game.state.players.items()}, "2")
    translation = Translation1870()
    assert translation.platform_passes(game, "B", Redeem("MP", "C"), "SR 2", False, held, []) == []
    assert translation.platform_passes(game, "B", SellShares("MP"), "SR 2", False, held, []) == ["B"]


def test_1825_the_platform_lists_a_token_a_company_in_receivership_pays_on_credit() -> None:
    """GER in receivership, its track step over with £20 in its treasury: 18xx.games' track
    and token step still lists a station token (its next, £40, within the treasury and the
    £200 credit, the credit already lent this turn not counted; Southend reachable) where
    our engine, whose credit a run must repay, has moved on. The export writes GER's pass for that step; the import reads a pass of GER
    met at our lease before the run as that step's, no order."""
    from pbem.importers.translation import NO_ORDER
    from pbem.titles.g1825.importing import Translation1825, _token_listed_after_track
    from tests.test_1825_operating import receivership_position

    game = receivership_position("V20.4")
    game.state.corporations["GER"].cash = 20
    op = game.state.round.operating
    op.passed_steps += ["lease_train", "track"]
    assert _token_listed_after_track(game, "GER")
    exporter = exporter_on(game)
    record_pass = {"type": "pass", "entity": "GER", "entity_type": "corporation", "id": 1}
    assert Translation1825().render(exporter.renderer, record_pass) is NO_ORDER
    op.token_placed = True
    assert not _token_listed_after_track(game, "GER")
    op.token_placed = False
    game.state.corporations["GER"].cash = -190  # £190 lent this turn: the platform keeps the loan
    assert _token_listed_after_track(game, "GER")  # apart, its buying power still £200


def test_a_train_from_another_corporation_at_the_banks_price_reads_back_by_its_seller() -> None:
    """NYC's 2-train came to it with no record action (here: built in); PRR buys it for $80,
    the bank's price, while the bank sells 2s too. The platform reads the seller from the
    train's owner; the export also names it (``seller``, ours), so the import reads the same
    purchase and not one from the bank."""
    from pbem.engine.actions import BuyTrain
    from tests.test_engine_operating import float_corp

    game, exporter = _prr_owning()
    float_corp(game, "NYC", "B", 90, 900)
    game.state.corporations["NYC"].trains.append(game.state.depot.pop(0))
    exporter.add(LoggedOrder(1, "A", BuyTrain("2", "NYC", 80)))
    bought = exporter.actions[-1]
    assert bought["type"] == "buy_train" and bought["seller"] == "NYC" and bought["price"] == 80
    assert game.state.corporations["NYC"].trains == [] and game.state.corporations["PRR"].trains == [TrainId("2", 0)]


def test_1825_a_private_sold_to_the_bank_counts_in_the_money_the_platform_sees() -> None:
    """P1, with £42, sells a private to the bank for £180 and our engine ends P1's turn: the
    platform, which lists a start to a player who could pay £134, asks P1 again."""
    from pbem.titles.g1825.importing import Translation1825
    from pbem.titles.g1825.stock import PrivateSold, SellPrivate

    game = new_game()
    all_privates_sold(game)
    stock_round(game, 2, first=P2)
    held = ({P1: 42, P2: 0}, "1")
    game.state.players[P1].cash = 222  # after the sale
    passes = Translation1825().platform_passes
    assert passes(game, P1, SellPrivate("L&M"), "SR 2", False, held, [PrivateSold(P1, "L&M", 180)]) == [P1]
    game.state.players[P1].cash = 42
    assert passes(game, P1, SellPrivate("L&M"), "SR 2", False, held, [PrivateSold(P1, "L&M", 180)]) == []


def test_1825_the_lnwr_certificates_dealt_at_the_start_are_not_on_offer() -> None:
    """With eight players 1825 deals the LNWR's Director's certificate and a share with the
    privates: bought back later from the pool they are pool purchases, not the offering's."""
    record = {"title": "1825", "players": [{"id": i, "name": f"P{i}"} for i in range(1, 9)],
              "settings": {"optional_rules": ["unit_123"]}, "actions": []}
    renderer = Renderer(record)
    assert ShareId("LNWR", 0) not in renderer.ipo_ids and ShareId("LNWR", 1) not in renderer.ipo_ids
    assert ShareId("LNWR", 2) in renderer.ipo_ids


def test_1870_mp_is_asked_in_phase_1_to_pass_a_bridge_company_it_cannot_buy() -> None:
    """MRBC has closed: in phase 1 18xx.games still names it to MP at the end of MP's turn
    (``purchasable_companies``), so it waits for MP's pass; our engine ends the turn (no
    purchase is possible) and the export writes that pass."""
    from pbem.importers.e18xx import TurnWatch

    game = mp_operating_with_the_bridge_company()
    game.state.round.number, game.state.round.or_number = 1, 1  # OR 1.1, the set's only one
    game.close_company("MRBC")
    exporter = exporter_on(game)
    exporter.renderer.turns = TurnWatch(game)
    exporter.add(LoggedOrder(1, "B", Pass()))  # MP passes its track
    exporter.add(LoggedOrder(2, "B", Pass()))  # and its trains: nothing more to do
    assert game.round_label() != "OR 1.1" or game.operating_corporation() != "MP"
    assert [a["type"] for a in exporter.actions if a["entity"] == "MP"] == ["pass", "pass", "pass"]


def test_the_money_asked_about_is_the_players_as_the_orders_round_ended() -> None:
    """A's purchase ends stock round 2; the operating round that follows pays B $100 of
    private income. The platform asked B as round 2 ended, before that income: with $0 then,
    B is not asked; with $50, B is (a private of another player being for sale)."""
    from pbem.engine.actions import BuyShares
    from pbem.engine.events.rounds import CompanyIncome, NoValidActions, RoundStarted
    from pbem.titles.g1830.importing import Translation1830

    game, _ = _1830_stock_round(3)
    game.state.players["B"].cash = 100  # after the later income
    events = [NoValidActions("B"), RoundStarted("OR 2.1"), CompanyIncome("B", 100, "CS"), RoundStarted("SR 3")]
    passes = Translation1830().platform_passes
    assert passes(game, "A", BuyShares("PRR"), "SR 2", True, ({"A": 0, "B": 0, "C": 0}, "2"), events) == []
    game.state.players["B"].cash = 150
    assert passes(game, "A", BuyShares("PRR"), "SR 2", True, ({"A": 0, "B": 0, "C": 0}, "2"), events) == ["B"]


def test_1825_the_platform_lists_a_private_the_bank_holds_to_anyone_with_money() -> None:
    """A private sold to the bank is listed by 18xx.games to every player with any money and
    room for a certificate, whatever its price (``can_buy_any_companies?``), but not to the
    player who sold it this round: it asks such a player our engine passes."""
    from pbem.titles.g1825.importing import Translation1825
    from pbem.titles.g1825.state import state1825

    game = new_game()
    all_privates_sold(game)
    for corp in game.state.corporations.values():
        corp.ipoed = True  # no start left to list
    stock_round(game, 2)
    mine = state1825(game.state)
    mine.pool_privates.append("C&W")
    mine.sold_privates[P1], mine.sold_round = ["C&W"], 2
    asks = Translation1825().asks_in_stock_round
    assert asks(game, P2, 2, "1", 1) and not asks(game, P2, 2, "1", 0)
    assert not asks(game, P1, 2, "1", 1000)
    stock_round(game, 3)  # the sale ended round 2 (our engine began round 3 in the same order)
    assert not asks(game, P1, 2, "1", 1000) and asks(game, P1, 3, "1", 1000)


def test_a_token_elsewhere_while_the_dh_token_waits_declines_it_first() -> None:
    """With the D&H's free token on offer PRR places its own token on H16 instead: the
    platform first has the private's token declined (the D&H's pass), then takes PRR's."""
    from pbem.engine.actions import LayTile

    game, exporter = _prr_owning("DH", {"H14": ("9", 1), "H16": ("57", 1)})
    lay = next(a for a in game.legal_actions("A") if isinstance(a, LayTile) and a.using == "DH")
    game.apply("A", lay)
    exporter.add(LoggedOrder(6, "A", PlaceToken("H16", 0)))
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [("pass", "DH"), ("place_token", "PRR")]
    assert game.state.tokens[CityRef("H16", 0)] == ["PRR"] and game.state.pending_teleport is None


def test_a_train_from_the_pool_names_the_pool_as_its_seller() -> None:
    from pbem.engine.actions import BuyTrain

    game, exporter = _prr_owning()
    game.state.pool_trains.append(game.state.depot.pop(0))
    exporter.add(LoggedOrder(1, "A", BuyTrain("2", "pool")))
    bought = exporter.actions[-1]
    assert bought["type"] == "buy_train" and bought["seller"] == "pool"
    assert game.state.corporations["PRR"].trains == [TrainId("2", 0)] and game.state.pool_trains == []


def test_1825_a_company_in_receivership_that_closes_at_its_turns_end_has_its_empty_run_first() -> None:
    """GER in receivership at £5 with no train and nothing to lease: after its track step it
    runs nothing, its price falls to £0 and it closes. 18xx.games' run step still waits for
    GER's (empty) run when GER has a route, and closes it only after its dividend step; with
    no route that step is skipped, so nothing is written; nor for a company with a Director,
    whose run step the platform skips when it has no train."""
    from pbem.engine.events import NoRun
    from pbem.engine.steps.operating import walk
    from tests.test_1825_operating import new_game as new_1825
    from tests.test_1825_operating import operate

    for token, route, director in (("V20.4", True, None), ("V20.3", False, None), ("V20.4", True, "Ann")):
        # (London's city 4 faces Southend; city 3 the bare U21)
        game = operate(new_1825(), "GER", president=director, tokens=(CityRef.parse(token),), price=5, cash=0)
        game.state.depot = []
        walk.start_corporation_turns(game)
        exporter = exporter_on(game)
        exporter.add(LoggedOrder(1, game.current_actors()[0], Pass()))
        assert NoRun("GER", route) in game.last_events
        assert game.state.corporations["GER"].closed
        written = ["pass", "run_routes"] if route and director is None else ["pass"]
        assert [a["type"] for a in exporter.actions] == written, (token, director)
    assert NoRun("GER", False).render(str) == "GER does not run (no route)"


def test_1825_the_platforms_token_step_after_a_lay_that_ends_a_receivers_whole_turn() -> None:
    """GER in receivership with £30, no train and nothing to lease lays a tile: our engine
    offers no token (no run could repay the credit) and ends GER's turn there. 18xx.games
    still lists a token (£40 within £30 and the £200 credit, Southend in reach), so the
    export writes GER's pass of that step, then its empty run."""
    from pbem.engine.actions import LayTile
    from pbem.engine.steps.operating import walk
    from tests.test_1825_operating import new_game as new_1825
    from tests.test_1825_operating import operate

    game = operate(operate(new_1825(), "LSWR"), "GER", president=None, tokens=(CityRef("V20", 4),), cash=30)
    game.state.depot, game.state.phase = [], "3"
    assert game.state.round.operating is not None
    game.state.round.operating.order.append("LSWR")  # who operates after GER
    walk.start_corporation_turns(game)
    actor = game.current_actors()[0]
    lay = LayTile("V20", "32", 0)  # London upgraded: GER's only lay this turn
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(1, actor, lay))
    assert game.operating_corporation() != "GER"  # its turn is over in our engine
    assert [(a["type"], a["entity"]) for a in exporter.actions] == [
        ("lay_tile", "GER"), ("pass", "GER"), ("run_routes", "GER")]


def test_1825_the_receivers_discard_is_written_for_the_platforms_discard_step() -> None:
    """Our engine's receiver discards a train over the limit by itself; 18xx.games' discard
    step waits for the discard of a company in receivership (its acting player's choice).
    The export writes the train our engine put in the pool; the import reads that record
    action, with the company no longer over the limit, as no order."""
    from pbem.engine.events import TrainDiscarded
    from pbem.importers.translation import NO_ORDER
    from pbem.titles.g1825.importing import IN_RECEIVERSHIP, Translation1825
    from tests.test_1825_operating import receivership_position

    game = receivership_position("V20.4")
    game.state.corporations["GER"].trains = [TrainId("3", 0), TrainId("4", 0)]
    game.state.depot = [t for t in game.state.depot if t not in (TrainId("3", 0), TrainId("3", 1), TrainId("4", 0))]
    game.state.pool_trains = [TrainId("3", 1)]  # as the receiver discarded it
    exporter = exporter_on(game)
    exporter.memo[IN_RECEIVERSHIP] = frozenset({"GER"})
    written = Translation1825().after_order(exporter, [TrainDiscarded("GER", "3")])
    assert written == [{"type": "discard_train", "entity": "GER", "entity_type": "corporation", "train": "3-1"}]
    assert Translation1825().render(exporter.renderer, {**written[0], "id": 1}) is NO_ORDER
    exporter.memo[IN_RECEIVERSHIP] = frozenset()
    game.state.corporations["GER"].president = "Ann"  # a Director's discard is an order of his own
    assert Translation1825().after_order(exporter, [TrainDiscarded("GER", "3")]) == []


def test_1825_crewes_preprinted_tile_is_the_second_of_its_definition_with_units_1_and_2() -> None:
    """The platform names a preprinted tile by its place among the hexes of the same
    definition: with Units 1 and 2, Crewe (Q11) shares Unit 1's T16 definition and is
    ``Q11-1``, so a token there is written in city ``Q11-1-0``; with Unit 2 alone it is
    ``Q11-0``; other hexes keep ``-0``."""
    from pbem.engine.game import Game
    from pbem.ruleset import load_title

    for units, crewe in ((("unit_1", "unit_2"), "Q11-1"), (("unit_2",), "Q11-0")):
        game = Game(load_title("1825", units), ["A", "B", "C", "D", "E", "F"][:6 if len(units) == 2 else 3])
        exporter = exporter_on(game)
        assert exporter.tile_id("Q11") == crewe
        assert exporter.tile_id("O15") == "O15-0"


def test_1825_an_empty_run_met_as_the_same_company_begins_its_next_turn_is_no_order() -> None:
    """GER, the only company of the operating round, ran nothing and our engine began its
    next turn in the same order; the platform's empty run of the turn before, met there, is
    no order. Once GER has laid a tile this turn it is read as the core reads it."""
    from pbem.engine.steps.operating import walk
    from pbem.importers.translation import NO_ORDER
    from pbem.titles.g1825.importing import Translation1825
    from tests.test_1825_operating import receivership_position

    game = receivership_position("V20.4")
    walk.start_corporation_turns(game)
    exporter = exporter_on(game)
    empty = {"type": "run_routes", "entity": "GER", "entity_type": "corporation", "routes": [],
             "extra_revenue": 0, "subsidy": 0, "id": 1}
    assert Translation1825().render(exporter.renderer, empty) is NO_ORDER
    assert game.state.round.operating is not None
    game.state.round.operating.tiles_laid = 1
    assert Translation1825().render(exporter.renderer, empty) is not NO_ORDER


def test_1825_the_platform_lists_the_directors_certificate_alone_in_the_pool_at_its_whole_price() -> None:
    """GER in receivership, its Director's certificate alone in the pool (£152 whole at
    £76). Player 1 holds no GER share to give back, so our engine offers no purchase; the
    platform lists one to a player who could pay the whole certificate (its listing asks no
    share back, its purchase does) and waits for that player's pass, which the export writes."""
    from pbem.titles.g1825.importing import _directorship_listed
    from tests.test_1825_ending import receivership

    game = new_game()
    all_privates_sold(game)
    receivership(game, "GER", 0, {P2: 1})
    stock_round(game, 2)
    assert BuyShares("GER", "pool") not in game.legal_actions(P1)
    assert _directorship_listed(game, P1, "GER", 2, 152) and not _directorship_listed(game, P1, "GER", 2, 151)
    assert not _directorship_listed(game, P1, "GER", 1, 152)  # a round over: who sold what is not known
    assert game.state.round.stock is not None
    game.state.round.stock.sold[P1] = ["GER"]  # not to a player who sold GER this round
    assert not _directorship_listed(game, P1, "GER", 2, 152)


def test_1825_a_token_on_a_tile_whose_city_is_not_its_first_part() -> None:
    """The platform numbers a city by its place among the tile's parts: #119 draws its
    stripes first, so its one city is ``119-<copy>-1``; Glasgow's preprinted cities are parts
    0, 2 and 4. The export writes those numbers and the import reads our city back."""
    from pbem.engine.actions import PlaceToken
    from pbem.exporters.core_actions import core_actions
    from tests.test_1825_operating import new_game as new_1825
    from tests.test_1825_operating import operate

    game = operate(new_1825(("unit_1", "k6", "db1"), players=4), "GER", tokens=(CityRef("V20", 4),))
    game.state.tiles["X20"] = ("119", 0)
    exporter = exporter_on(game)
    exporter.tile_ids["X20"] = "119-0"
    part = core_actions(exporter, "Ann", PlaceToken("X20", 0))[0]
    assert part["city"] == "119-0-1"
    exporter.renderer.render({"type": "lay_tile", "entity": "GER", "entity_type": "corporation", "hex": "X20",
                              "tile": "119-0", "rotation": 0, "id": 1})  # the record's tile: where it lies
    assert exporter.renderer.render({**part, "id": 2}) == PlaceToken("X20", 0)
    glasgow = operate(new_1825(("unit_3",), players=2), "CR", tokens=(CityRef("G5", 2),))
    exporter = exporter_on(glasgow)
    part = core_actions(exporter, "Ann", PlaceToken("G5", 1))[0]
    assert part["city"] == "G5-0-2"
    assert exporter.renderer.render({**part, "id": 1}) == PlaceToken("G5", 1)


def test_1825_two_2_trains_run_as_one_with_k7s_2_plus_2_train_in_the_game() -> None:
    """With K7 a 2+2 train type is in the game, so ``RUN 2+2`` names it; LSWR owns two
    2-trains and no 2+2, so the engine runs them as one. The export writes the platform's two
    routes meeting at Southampton and reads them back as the same order."""
    from pbem.order_codecs import Vocabulary
    from pbem.orders import parse_order
    from tests.test_1825_operating import new_game as new_1825
    from tests.test_1825_operating import operate, put

    game = operate(new_1825(("unit_1", "k7"), players=4), "LSWR", owned=(TrainId("2", 0), TrainId("2", 1)), tokens=(CityRef("Y13", 0),))
    put(game, "X14", "57", ("Y13", "W15"))
    put(game, "W15", "9", ("X14", "V16"))
    put(game, "V16", "4", ("W15", "U17"))
    assert any(train.name == "2+2" for train in game.title.trains)
    order = parse_order("RUN 2+2: Y13-X14-V16", Vocabulary.from_title(game.title))
    exporter = exporter_on(game)
    exporter.add(LoggedOrder(1, game.current_actors()[0], order))  # raises if it read back otherwise
    runs = [a for a in exporter.actions if a["type"] == "run_routes"]
    assert [r["train"] for r in runs[0]["routes"]] == ["2-0", "2-1"]


def test_a_home_city_ours_placed_alone_is_the_platforms_choice_and_reads_back_as_no_order() -> None:
    """The Taff Vale's Cardiff (V8, R1), a home naming no city, after another company took
    one city of the two: our engine puts the home token in the city left; the platform has
    the company choose it (its home-token step), so the export writes that choice, which the
    import reads as no order of ours. Not where the order was the choice itself, nor on a tile
    with no track (the platform places that one alone too)."""
    from pbem.engine.events import TokenPlaced
    from pbem.exporters.core_actions import home_city_chosen
    from tests.test_1825_operating import new_game as new_1825_game

    game = new_1825_game(("unit_1", "r1"), players=4)
    exporter = exporter_on(game)
    placed = [TokenPlaced("TV", "V8", home=True)]
    game.state.tokens[CityRef("V8", 0)] = ["TV"]
    assert home_city_chosen(exporter, Pass(), placed) == [], "the printed OO has no track"
    del game.state.tokens[CityRef("V8", 0)]
    game.state.tiles["V8"] = ("52", 1)
    game.state.tokens[CityRef("V8", 0)] = ["GWR"]
    exporter._sync_tiles()
    exporter.renderer._tile_hex.update({tile: coord for coord, tile in exporter.tile_ids.items()})
    game.hooks.track.place_home_token(game, "TV")
    assert game.state.tokens[CityRef("V8", 1)] == ["TV"]
    exporter.slots.follow(game)
    chosen = home_city_chosen(exporter, Pass(), placed)
    assert [(a["type"], a["entity"], a["city"], a["slot"]) for a in chosen] == [("place_token", "TV", "52-0-1", 0)]
    assert exporter.renderer.render({**chosen[0], "id": 1}) is None
    assert home_city_chosen(exporter, PlaceToken("V8", 1), placed) == []
