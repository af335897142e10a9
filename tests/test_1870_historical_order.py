"""1870's Historical Order Start (issue 13), the order of starting: a corporation may be
started only when every corporation before it in the order has been started (or floated, a
setting), the report names the next, and the GM may rule otherwise (OUTOFORDER)."""

from __future__ import annotations

import pytest

from pbem.engine.abilities import NoBuy
from pbem.engine.actions import Par
from pbem.engine.game import Game
from pbem.engine.state import RoundState, StockRoundState
from pbem.errors import IllegalOrderError
from pbem.ruleset import load_title

ORDER = ("GMO", "IC", "MP", "SLSF", "ATSF", "SP", "MKT", "SSW", "TP", "FW")
from tests.changed import with_title_rules


def stock_round(variants: tuple[str, ...] = ("historical_order_start",)) -> Game:
    """Stock round 1 of a four-seat game, A to act, every player with $1000."""
    game = Game(load_title("1870", variants), ["A", "B", "C", "D"])
    game.state.round = RoundState(kind="stock", number=1, stock=StockRoundState())
    game.state.round.entity_index = game.state.order.index("A")
    for player in game.state.players.values():
        player.cash = 1000
    return game


def test_the_order_is_the_seeds_numbered_list() -> None:
    title = load_title("1870", ("historical_order_start",))
    assert tuple(str(title.title_rule("historical_order")).split()) == ORDER
    assert title.title_rule("historical_order_condition") == "started"
    assert set(ORDER) == set(stock_round().state.corporations)


def test_a_corporation_waits_for_every_one_before_it() -> None:
    game = stock_round()
    with pytest.raises(IllegalOrderError, match="IC may not be started until GMO has been started"):
        game.apply("A", Par("IC", 100))
    assert not any(p.corporation == "IC" for p in game.legal_actions("A") if isinstance(p, Par))
    assert {p.corporation for p in game.legal_actions("A") if isinstance(p, Par)} == {"GMO"}
    game.apply("A", Par("GMO", 100))
    actor = game.current_actors()[0]
    with pytest.raises(IllegalOrderError, match="MP may not be started until IC"):
        game.apply(actor, Par("MP", 100))
    game.apply(actor, Par("IC", 100))
    assert game.state.corporations["IC"].ipoed


def test_plain_1870_has_no_order() -> None:
    game = stock_round(())
    game.apply("A", Par("FW", 100))
    assert game.state.corporations["FW"].ipoed
    assert game.title.presentation.report_sections(game) == ()


def test_the_condition_floated_waits_for_the_float(monkeypatch: pytest.MonkeyPatch) -> None:
    game = stock_round()
    game.title = with_title_rules(game.title, **{"historical_order_condition": "floated"})
    game.apply("A", Par("GMO", 100))
    assert game.state.corporations["GMO"].floated, "the GM&O floats with its 20% certificate"
    game.apply(game.current_actors()[0], Par("IC", 100))
    actor = game.current_actors()[0]
    with pytest.raises(IllegalOrderError, match="until IC has floated"):
        game.apply(actor, Par("MP", 100))
    game.state.corporations["IC"].floated = True
    game.apply(actor, Par("MP", 100))
    assert game.state.corporations["MP"].ipoed


def test_the_report_names_the_next_corporation() -> None:
    game = stock_round()
    sections = dict(game.title.presentation.report_sections(game))
    lines = sections["HISTORICAL ORDER START"]
    assert lines[0].startswith("Start order: GMO, IC, MP, SLSF, ATSF, SP, MKT, SSW, TP, FW")
    assert "May be started next: GMO" in lines
    game.apply("A", Par("GMO", 100))
    assert "May be started next: IC" in dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]


def test_the_gm_may_rule_a_corporation_out_of_order() -> None:
    from pbem.commands import Order, parse_line
    from pbem.errors import OrderSyntaxError
    from pbem.games import GameInfo, Seat
    from pbem.orders import Vocabulary
    from pbem.titles.g1870.actions import StartOutOfOrder

    game = stock_round()
    vocab = Vocabulary.from_title(game.title)
    info = GameInfo("g", "1870", ("historical_order_start",),
                    [Seat(n, f"{n.lower()}@example.org", "x") for n in ("A", "B", "C", "D")],
                    "gm@example.org", "x")
    with pytest.raises(OrderSyntaxError, match="only the GM"):
        parse_line("OUTOFORDER SP", vocab, info, is_gm=False)
    command = parse_line("ACT AS A OUTOFORDER SP", vocab, info, is_gm=True)
    assert isinstance(command, Order) and command.action == StartOutOfOrder("SP") and command.seat == "A"
    with pytest.raises(IllegalOrderError, match="does not hold GMO back"):
        game.apply("A", StartOutOfOrder("GMO"))
    game.apply("A", command.action)
    assert game.current_actors() == ["A"], "the ruling is no part of A's turn"
    game.apply("A", Par("SP", 100))
    assert game.state.corporations["SP"].ipoed
    with pytest.raises(IllegalOrderError, match="IC may not be started"):
        game.apply(game.current_actors()[0], Par("IC", 100))


def test_the_ruling_says_its_effect_and_the_report_shows_it_in_force() -> None:
    from pbem.titles.g1870.actions import StartOutOfOrder
    from pbem.titles.g1870.events import OutOfOrderRuled

    game = stock_round()
    assert OutOfOrderRuled("ATSF", "GMO") in game.apply("A", StartOutOfOrder("ATSF"))
    line = OutOfOrderRuled("ATSF", "GMO").render(game.money)
    assert line == "-- GM ruling: ATSF may be started now, out of the historical order (it was waiting for GMO) --"
    lines = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert "ATSF may start out of order (GM ruling)" in lines and "May be started next: GMO" in lines
    game.apply("A", Par("ATSF", 100))
    lines = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert not any("out of order" in line for line in lines), "the ruling is spent once ATSF has started"


def after_four_privates() -> Game:
    """The private auction of a four-seat game with the first four privates bought at face value."""
    from pbem.engine.actions import BuyPrivate

    game = Game(load_title("1870", ("historical_order_start",)), ["A", "B", "C", "D"])
    for player, company in (("A", "GRSC"), ("B", "MRBC"), ("C", "SCC"), ("D", "GSC")):
        game.apply(player, BuyPrivate(company))
    return game


def test_the_fifth_private_is_the_gmo_presidents_certificate() -> None:
    from pbem.engine.actions import BuyPrivate

    title = load_title("1870", ("historical_order_start",))
    fifth = title.company("GMO")
    assert (fifth.value, fifth.name) == (140, "Gulf, Mobile & Ohio")
    assert fifth.ability(NoBuy) is not None, "no public company may buy it"
    assert "SLSF" not in {c.sym for c in title.companies}
    assert "SLSF" in {c.sym for c in load_title("1870").companies}, "plain 1870 keeps the Frisco's"
    game = after_four_privates()
    game.apply("A", BuyPrivate("GMO"))
    assert game.current_actors() == ["A"], "its buyer sets the par at once"
    with pytest.raises(IllegalOrderError, match="GMO"):
        game.apply("A", Par("IC", 100))
    game.apply("A", Par("GMO", 100))
    gmo = game.state.corporations["GMO"]
    assert gmo.ipoed and gmo.president == "A"
    assert gmo.floated, "the GM&O operates with just 20% sold"
    assert game.state.companies["GMO"].closed


def test_no_corporation_may_buy_the_gmo_certificate() -> None:
    from pbem.engine.actions import BuyPrivate
    from pbem.engine.steps.operating import privates

    game = after_four_privates()
    game.apply("A", BuyPrivate("GMO"))
    assert not game.state.companies["GMO"].closed, "held by A until A sets its par"
    game.state.phase = "2"
    mp = game.state.corporations["MP"]
    mp.floated, mp.ipoed, mp.president, mp.cash = True, True, "B", 1000
    assert privates.purchasable(game, "MP") == ["GRSC", "MRBC", "SCC", "GSC"]
    assert not any(isinstance(a, BuyPrivate) and a.company == "GMO" for a in privates.buy_candidates(game, "MP"))
    with pytest.raises(IllegalOrderError, match="GMO cannot be bought"):
        privates.buy_company(game, "MP", BuyPrivate("GMO", 140))
    privates.buy_company(game, "MP", BuyPrivate("GSC", 40))
    assert game.state.companies["GSC"].owner is not None and game.state.companies["GSC"].owner.name == "MP"


def test_the_frisco_is_a_normal_share_company() -> None:
    title = load_title("1870", ("historical_order_start",))
    assert {c.sym: c.float_percent for c in title.corporations}["SLSF"] == 60
    assert {c.sym: c.float_percent for c in load_title("1870").corporations}["SLSF"] == 20
    game = stock_round()
    for sym in ("GMO", "IC", "MP"):
        game.state.corporations[sym].ipoed = True
    game.apply("A", Par("SLSF", 100))
    assert not game.state.corporations["SLSF"].floated, "its president's certificate alone does not float it"


def test_the_last_tile_5_is_held_for_the_mp_until_it_has_operated() -> None:
    from pbem.engine import track

    game = Game(load_title("1870", ("historical_order_start",)), ["A", "B", "C", "D"])
    plain = Game(load_title("1870"), ["A", "B", "C", "D"])
    free = [c for c in ("H13", "J9", "B9", "F5", "D5", "E12", "L11", "D21")
            if any(track.lay_problem(game, "ATSF", c, "5", r, ignore_reach=True) is None for r in range(6))]
    assert len(free) >= 2, free
    first, second = free[:2]
    assert game.tiles_left("5") == 2
    rotation = next(r for r in range(6) if track.lay_problem(game, "ATSF", first, "5", r, ignore_reach=True) is None)
    for g in (game, plain):
        g.state.tiles[first] = ("5", rotation)
    assert game.tiles_left("5") == 1
    rotations = [r for r in range(6) if track.lay_problem(plain, "ATSF", second, "5", r, ignore_reach=True) is None]
    assert rotations, "plain 1870 lets anyone lay the last #5"
    problem = track.lay_problem(game, "ATSF", second, "5", rotations[0], ignore_reach=True)
    assert problem == "the last #5 is reserved for MP until it has completed its first operating turn"
    assert game.hooks.track.lay_problem(game, "MP", second, "5", rotations[0]) is None, "the MP lays it"
    lines = dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"]
    assert "Tile #5: one reserved for MP until its first operating turn is over (1 left)" in lines
    game.state.corporations["MP"].operated = True
    assert track.lay_problem(game, "ATSF", second, "5", rotations[0], ignore_reach=True) is None
    assert not any(line.startswith("Tile #5") for line in dict(game.title.presentation.report_sections(game))["HISTORICAL ORDER START"])


def test_the_historical_order_start_includes_small_cities_and_combines_with_dixon() -> None:
    both = load_title("1870", ("historical_order_start", "dixon"))
    assert both.title_rule("small_cities") is True and both.settings.double_heading is not None
    assert both.settings.upgrade_must_add_run_track is True
    alone = load_title("1870", ("small_cities",))
    assert alone.title_rule("small_cities") is True and alone.title_rule("historical_order") == ""
    assert load_title("1870").title_rule("small_cities") is False
