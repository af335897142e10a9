"""One legal-move generator for the operating round (issue 11): ``Game.legal_actions``
answers in the operating round from the steps' own checks, on hand-built 1830 and 1870
positions; every action it lists is accepted by ``apply`` on a copy, and what it leaves out
of a kind it lists is refused. The report's "you may" section and the refusal text use it
(HALF offered in 1870, the bridge company's phase-1 price range)."""

from __future__ import annotations

import copy

import pytest

from pbem import report_sections as sections
from pbem.engine.actions import (
    Action,
    Bankrupt,
    BuyPrivate,
    BuyTrain,
    Dividend,
    LayTile,
    Pass,
    PlaceToken,
    RunAuto,
    RunRoutes,
    TrainRun,
)
from pbem.engine.game import Game
from pbem.engine.ids import TrainId
from pbem.engine.state import POOL
from pbem.engine.steps import operating
from pbem.ruleset import load_title
from pbem.errors import IllegalOrderError
from tests.positions import mp_operating_with_the_bridge_company
from tests.test_engine_operating import P1, P2, float_corp
from tests.test_engine_operating import operating as start_operating


def applies(game: Game, player: str, action: Action) -> bool:
    twin = copy.deepcopy(game)
    try:
        twin.apply(player, action)
    except IllegalOrderError:
        return False
    return True


def check_listed(game: Game, player: str) -> list[Action]:
    """The legal actions, each accepted by apply on a copy; nobody else has any."""
    legal = game.legal_actions(player)
    assert legal, f"nothing legal for {player}: {game.waiting_for()}"
    for action in legal:
        assert applies(game, player, action), f"{action} is listed but refused"
    for other in game.state.seats:
        if other != player:
            assert game.legal_actions(other) == [], f"{other} is not to act"
    return legal


@pytest.fixture
def g1830() -> Game:
    g = Game(load_title("1830"), [P1, P2, "Player 3"])
    for player, company in ((P1, "SV"), (P2, "CS"), ("Player 3", "DH"), (P1, "MH"), (P2, "CA")):
        g.apply(player, BuyPrivate(company))
    float_corp(g, "PRR", P1, 100, 1000)
    return start_operating(g)


def test_1830_a_whole_turn_from_the_legal_actions(g1830: Game) -> None:
    game = g1830
    legal = check_listed(game, P1)
    lays = [a for a in legal if isinstance(a, LayTile)]
    assert lays and Pass() in legal
    assert not any(isinstance(a, Dividend) for a in legal), "no revenue yet"
    assert not any(isinstance(a, RunAuto) for a in legal), "PRR has no train"
    assert any(isinstance(a, BuyTrain) for a in legal), "the track and token steps may be passed for a train"
    assert not any(isinstance(a, BuyPrivate) for a in legal), "phase 2: no privates for corporations"
    # a lay of a listed kind that is not listed is refused
    unlisted = LayTile(lays[0].hex, lays[0].tile, (lays[0].rotation + 1) % 6)
    if unlisted not in legal:
        assert not applies(game, P1, unlisted)
    game.apply(P1, lays[0])
    legal = check_listed(game, P1)
    assert not any(isinstance(a, LayTile) and not a.using for a in legal), "1830: one lay a turn"
    game.apply(P1, BuyTrain("2"))
    # 1830 rules 6: the steps come in order; the run step (nothing to run before) is over
    # once a train is bought, so the new train runs from the next operating round
    legal = check_listed(game, P1)
    assert not any(isinstance(a, (RunAuto, Dividend)) for a in legal), "a train bought does not run this turn"
    assert Pass() in legal and BuyTrain("2") in legal


def test_1830_dividends_are_payout_or_withhold(g1830: Game) -> None:
    game = g1830
    state = game.state
    state.tiles["H14"] = ("9", 1)
    state.tiles["H16"] = ("57", 1)
    state.corporations["PRR"].trains.append(state.depot.pop(0))
    game.apply(P1, Pass())  # no track
    legal = check_listed(game, P1)
    assert RunAuto() in legal
    game.apply(P1, RunAuto())
    legal = check_listed(game, P1)
    assert Dividend("payout") in legal and Dividend("withhold") in legal
    assert Dividend("half") not in legal


def test_1830_the_refusal_names_what_is_possible(g1830: Game) -> None:
    with pytest.raises(IllegalOrderError, match=r"not possible now; .*\(possible now: lay tile, pass"):
        g1830.apply(P1, Dividend("payout"))
    probe = copy.deepcopy(g1830)
    probe.probing = True  # a copy checking an action: its refusal searches no further
    with pytest.raises(IllegalOrderError) as refused:
        probe.apply(P1, Dividend("payout"))
    assert "(possible now" not in str(refused.value)


def test_1830_bankruptcy_is_not_offered_while_the_money_is_there(g1830: Game) -> None:
    state = g1830.state
    state.tiles["H14"] = ("9", 1)
    state.tiles["H16"] = ("57", 1)
    g1830.apply(P1, Pass())
    assert Bankrupt() not in g1830.legal_actions(P1)
    with pytest.raises(IllegalOrderError, match="enough for the cheapest train"):
        g1830.apply(P1, Bankrupt())


@pytest.fixture
def g1870() -> Game:
    """1870 OR 1: MP ($500, home token on C18, president B) operates; A owns MRBC."""
    return mp_operating_with_the_bridge_company(president_holds_shares=True)


def test_1870_the_bridge_company_is_offered_at_its_phase_1_range(g1870: Game) -> None:
    legal = check_listed(g1870, "B")
    assert BuyPrivate("MRBC", 20) in legal, "phase 1: MRBC for $20 to $40, offered at its least"
    assert operating.price_range(g1870, "MRBC") == (20, 40)
    assert applies(g1870, "B", BuyPrivate("MRBC", 40))
    assert not applies(g1870, "B", BuyPrivate("MRBC", 41))
    assert not applies(g1870, "B", BuyPrivate("MRBC", 19))
    offer = sections.offer(g1870, "B")
    assert offer is not None
    notes = [c.note for c in offer.choices if "BUY MRBC 20" in c.orders]
    owner = g1870.state.companies["MRBC"].owner
    assert owner is not None and owner.player_name() != "B", "another player's private"
    assert notes == [f"MRBC for $20 to $40, an offer {owner.player_name()} must ACCEPT"]


def test_1870_half_is_offered_and_applies(g1870: Game) -> None:
    state = g1870.state
    state.tiles["C18"] = ("57", 0)
    state.tiles["B19"] = ("57", 0)
    state.corporations["MP"].trains.append(state.depot.pop(0))
    g1870.apply("B", Pass())  # no track
    g1870.apply("B", Pass())  # no token
    assert RunAuto() in check_listed(g1870, "B")
    g1870.apply("B", RunAuto())
    legal = check_listed(g1870, "B")
    assert {Dividend("payout"), Dividend("half"), Dividend("withhold")} <= set(legal)
    offer = sections.offer(g1870, "B")
    assert offer is not None
    assert any("HALF" in c.orders for c in offer.choices), "the report offers HALF"


def test_1870_the_bridge_lay_after_both_normal_lays_is_listed(g1870: Game) -> None:
    g1870.apply("B", BuyPrivate("MRBC", 40))
    g1870.apply("B", LayTile("C18", "57", 0))
    g1870.apply("B", LayTile("B19", "57", 0))
    legal = check_listed(g1870, "B")
    bridge = [a for a in legal if isinstance(a, LayTile) and a.using == "MRBC"]
    assert bridge and all(a.hex != "C18" for a in bridge)
    assert not any(isinstance(a, LayTile) and not a.using for a in legal)
    assert PlaceToken("B19") in legal and Pass() in legal
    offer = sections.offer(g1870, "B")
    assert offer is not None
    lines = [line for c in offer.choices for line in (*c.orders, *c.also)]
    assert {line for line in lines if "USING MRBC" in line} == {
        f"LAY {a.hex} {a.tile} {a.rotation} USING MRBC" for a in bridge}
    assert [c.note for c in offer.choices if "PASS" in c.orders] == ["no track this turn"]


def test_the_operating_round_of_the_engine_knows_no_title() -> None:
    """The engine's operating round imports no title code and names none of 1870's steps;
    1870's steps come from its hooks (``operating_steps``)."""
    import ast
    from pathlib import Path

    from pbem.engine.steps.operating import CORE_STEPS
    from pbem.titles import hooks_for
    from pbem.titles.g1870.connections import ConnectionRoute
    from pbem.titles.g1870.operating import PriceProtection

    folder = Path(operating.__file__).parent
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("pbem.titles"), f"{path.name} imports {node.module}"
    assert hooks_for("1830").sequence.operating_steps() == CORE_STEPS
    steps_1870 = hooks_for("1870").sequence.operating_steps()
    assert ConnectionRoute in steps_1870 and PriceProtection in steps_1870
    assert all(any(issubclass(mine, core) for mine in steps_1870) for core in CORE_STEPS), \
        "each of the core's steps, or the title's own subclass of it (the Katy's track step)"


def test_1830_a_train_bought_before_any_run_does_not_run_in_that_turn(g1830: Game) -> None:
    """1830 rules 6 (a corporation's turn: track, token, run, dividend, trains, in that
    order): PRR, with no train and a route for one (H12-H16 joined), buys a 2-train with no
    lay first; its run step had nothing to run and is over, so RUN is refused and the turn
    goes on with trains, whether or not the track and token steps were passed first."""
    for passes in (0, 2):
        game = copy.deepcopy(g1830)
        game.state.tiles["H14"] = ("9", 1)
        game.state.tiles["H16"] = ("57", 1)
        price = game.share_price("PRR")
        for _ in range(passes):
            game.apply(P1, Pass())
        game.apply(P1, BuyTrain("2"))
        assert game.state.corporations["PRR"].trains == [TrainId("2", 0)]
        # no run: the dividend step, passed on the way, withheld nothing and the price moved left once
        assert game.share_price("PRR") == 90 and price == 100
        assert game.operating_corporation() == "PRR"
        with pytest.raises(IllegalOrderError):
            game.apply(P1, RunRoutes((TrainRun("2", ("H12", "H16")),)))
        assert [s.name for s in operating.active_steps(game)][:1] == ["buy_train"]
        game.apply(P1, Pass())  # the turn ends: PRR operates alone, so the round does
        assert game.operating_corporation() != "PRR"


def test_1830_the_dh_tile_is_the_turns_tile_so_it_is_laid_in_the_track_step(g1830: Game) -> None:
    """1830, Delaware & Hudson: "The tile laid is the owning corporation's one tile placement
    for the turn": PRR, owning the D&H, may lay #57 on F16 in its track step; once it has
    passed that step (or bought a train, which passes it), the lay is refused."""
    from pbem.engine.state import Owner

    game = g1830
    game.state.companies["DH"].owner = Owner.corporation("PRR")
    for player in game.state.players.values():
        if "DH" in player.companies:
            player.companies.remove("DH")
    lay = next(a for a in game.legal_actions(P1) if isinstance(a, LayTile) and a.using == "DH")
    assert (lay.hex, lay.tile) == ("F16", "57")
    assert applies(game, P1, lay)
    bought = copy.deepcopy(game)
    game.apply(P1, Pass())  # the track step
    assert not any(isinstance(a, LayTile) and a.using == "DH" for a in game.legal_actions(P1))
    with pytest.raises(IllegalOrderError, match="passed its track step"):
        copy.deepcopy(game).apply(P1, lay)
    bought.apply(P1, BuyTrain("2"))
    assert not applies(bought, P1, lay)


def test_1830_bankruptcy_counts_the_shares_the_president_could_sell(g1830: Game) -> None:
    """1830 rules 6.7: the president makes up a required train's price from their own cash
    and by selling shares; bankruptcy only when even that cannot pay for the cheapest train.
    PRR (no cash) must buy a train, only 3-trains ($180) left; P1 has $25, one NYC share
    ($90) and PRR's shares: what they would fetch keeps bankruptcy refused; once PRR's pool
    is full (no PRR share may be sold), $25 and $90 fall short and it is allowed."""
    from pbem.engine.state import Owner

    game = g1830
    float_corp(game, "NYC", P2, 90, 900)
    state = game.state
    state.corporations["PRR"].cash = 0
    state.players[P1].cash = 25
    nyc = next(c for c in state.certificates if c.corporation == "NYC" and c.index == 5)
    nyc.owner = Owner.player(P1)
    state.tiles["H14"] = ("9", 1)
    state.tiles["H16"] = ("57", 1)
    state.depot = [t for t in state.depot if t.kind != "2"]
    game.apply(P1, Pass())
    assert Bankrupt() not in game.legal_actions(P1)
    with pytest.raises(IllegalOrderError, match="would raise"):
        copy.deepcopy(game).apply(P1, Bankrupt())
    for cert in state.certificates:  # PRR's pool is full: P1 may sell no PRR share
        if cert.corporation == "PRR" and cert.index in (1, 2, 3, 4, 5):
            cert.owner = POOL
    # $25 + $90 for the NYC share = $115 < $180: the money cannot be raised
    assert Bankrupt() in game.legal_actions(P1)
    game.apply(P1, Bankrupt())
    assert state.finished


def test_1870_a_corporation_whose_withheld_run_closes_it_buys_no_train() -> None:
    """1870 (a corporation closes when its price reaches a closing space of the market):
    MP, with a 2-train and no route, stands one space right of a closing space; a TRAIN
    order would pass its run and dividend, moving the price there, so MP closes first and
    the order is refused; PASS closes it."""
    game = mp_operating_with_the_bridge_company()
    state = game.state
    state.depot.remove(TrainId("2", 0))
    state.corporations["MP"].trains = [TrainId("2", 0)]
    state.types_sold.append("2")
    state.market[(1, 6)].remove("MP")
    state.corporations["MP"].price = (9, 2)
    state.market.setdefault((9, 2), []).append("MP")
    with pytest.raises(IllegalOrderError, match="closes before it could"):
        game.apply("B", BuyTrain("2"))
    assert state.corporations["MP"].trains == [TrainId("2", 0)] and not state.corporations["MP"].closed
    game.apply("B", Pass())
    assert state.corporations["MP"].closed


def test_1830_a_town_joined_to_the_token_is_a_route_so_a_train_is_due(g1830: Game) -> None:
    """1830 rules 6.7: a corporation with a route and no train must buy one; a 2-train may
    run from its token city to a town, so PRR (home H12, a town tile #4 on H14 joined to it,
    nothing beyond) may not pass its train step; with plain track (#9) there it may."""
    for tile, due in (("4", True), ("9", False)):
        game = copy.deepcopy(g1830)
        game.state.tiles["H14"] = (tile, 1)
        game.apply(P1, Pass())  # the track step; no token to place
        if due:
            assert Pass() not in game.legal_actions(P1)
            with pytest.raises(IllegalOrderError, match="must buy a train"):
                game.apply(P1, Pass())
        else:
            assert Pass() in game.legal_actions(P1)
