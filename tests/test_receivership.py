"""Receivership (issue 11's extension points; 1825: a company whose Director's certificate
lies in the bank pool is run by a receiver): a made-up title built from 1830's data with
hooks that have receivership. The president's certificate may go to the pool; the
corporation then has no president, its turn is taken by the title's policy with no player
asked; a player who buys enough becomes president again. 1830 itself is unchanged."""

from __future__ import annotations

import dataclasses

import pytest

from pbem.engine.ids import TrainId
from pbem.engine.sequence import RoundSequence
from pbem.engine import market
from pbem.engine.actions import Action, BuyPrivate, BuyShares, Pass, SellShares
from pbem.engine.game import Game
from pbem.engine.hooks import TitleHooks
from pbem.engine.receivership import RECEIVER, ReceivershipPolicy, in_receivership
from pbem.engine.events import Note, render_all
from pbem.engine.state import IPO, POOL, GameState, RoundState, StockRoundState
from pbem.engine.values import Owner
from pbem.engine.title import TitleData
from pbem.engine.steps.operating import OpStep
from pbem.errors import IllegalOrderError
from pbem.games import GameInfo, Replay, Seat
from pbem.reports import render, report_context
from pbem.ruleset import load_title

P1, P2, P3 = "Player 1", "Player 2", "Player 3"


def receiving() -> TitleHooks:
    """1830 with receivership by the base policy."""
    return TitleHooks(receivership=ReceivershipPolicy())


class PayingPolicy(ReceivershipPolicy):
    """A title whose receiver pays out, and notes who the game says may act while it works."""

    seen: list[list[object]] = []

    def action(self, game: Game, step: type[OpStep], corp: str) -> Action | None:
        PayingPolicy.seen.append([*game.current_actors(), *game.legal_actions(P1), *game.legal_actions(P2)])
        return super().action(game, step, corp)

    def dividend(self, game: Game, corp: str) -> str:
        return "payout"


def paying() -> TitleHooks:
    return TitleHooks(receivership=PayingPolicy())


def made_up(hooks: TitleHooks) -> Game:
    """1830's data with ``hooks``; privates sold at face value; in SR 2 (sales allowed)."""
    game = Game(dataclasses.replace(load_title("1830"), hooks=hooks), [P1, P2, P3])
    for player, company in ((P1, "SV"), (P2, "CS"), (P3, "DH"), (P1, "MH"), (P2, "CA"), (P3, "BO")):
        game.apply(player, BuyPrivate(company))
    game.state.round = RoundState(kind="stock", number=2, stock=StockRoundState())
    game.state.round.entity_index = game.state.order.index(P1)
    for p in game.state.players.values():
        p.passed = False
    return game


def own(who: str | Owner) -> Owner:
    """A player's name as an owner; IPO and POOL as they are."""
    return who if isinstance(who, Owner) else Owner.player(who)


def lines(game: Game) -> list[str]:
    """The report lines of what happened so far in the action being applied."""
    return render_all(game.pending_events, game.money)


def start(game: Game, sym: str, president: str, price: int, cash: int,
          ordinary: dict[str | Owner, int]) -> None:
    """Start ``sym`` at ``price``: ``president`` holds the president's certificate, each of
    ``ordinary`` that many 10% shares (in certificate order), the rest lies in the IPO."""
    state = game.state
    coord = market.par_coord(game.title, price)
    assert coord is not None
    corp = state.corporations[sym]
    corp.par, corp.ipoed, corp.floated, corp.president, corp.cash = coord, True, True, president, cash
    market.place(state, sym, coord)
    certs = sorted((c for c in state.certificates if c.corporation == sym), key=lambda c: c.index)
    certs[0].owner = own(president)
    rest = iter(certs[1:])
    for owner, count in ordinary.items():
        for _ in range(count):
            next(rest).owner = own(owner)


def held(game: Game, sym: str) -> dict[str | Owner, int]:
    found = {o: game.state.percent_of(own(o), sym) for o in (P1, P2, P3, POOL, IPO)}
    return {o: pct for o, pct in found.items() if pct}


def president_cert_owner(game: Game, sym: str) -> Owner:
    return next(c.owner for c in game.state.certificates if c.corporation == sym and c.president)


# -- the president's certificate in the pool ----------------------------------------------------

def test_1830_keeps_the_presidents_certificate_out_of_the_pool() -> None:
    game = made_up(TitleHooks())
    start(game, "PRR", P1, 100, 1000, {P1: 2, P2: 1, IPO: 3})
    assert TitleHooks().receivership is None
    with pytest.raises(IllegalOrderError, match="may not sell the president's certificate of PRR"):
        game.apply(P1, SellShares("PRR", 3))
    assert SellShares("PRR", 3) not in game.legal_actions(P1)


def test_the_president_sells_the_certificate_to_the_pool_and_the_corporation_has_no_president() -> None:
    game = made_up(receiving())
    start(game, "PRR", P1, 100, 1000, {P1: 1, P2: 1, IPO: 5})
    cash = game.state.players[P1].cash
    events = render_all(game.apply(P1, SellShares("PRR", 3)), game.money)
    assert game.state.corporations["PRR"].president is None
    assert president_cert_owner(game, "PRR") == POOL
    assert held(game, "PRR") == {P2: 10, POOL: 30, IPO: 60}
    assert game.state.players[P1].cash == cash + 300
    assert "PRR's president's certificate is in the bank pool: PRR has no president and is in receivership" in events
    assert game.share_price("PRR") == 76, "the price still drops a row a share ($100, 90, 82, 76)"
    assert in_receivership(game, "PRR")


def test_a_part_of_the_presidents_certificate_sold_takes_a_share_back_from_the_pool() -> None:
    game = made_up(receiving())
    start(game, "PRR", P1, 100, 1000, {P2: 1, IPO: 7})
    with pytest.raises(IllegalOrderError, match="bank pool holds no PRR share to give back"):
        game.apply(P1, SellShares("PRR", 1))
    assert SellShares("PRR", 1) not in game.legal_actions(P1), "the legal moves say the same"
    next(c for c in game.state.certificates if c.corporation == "PRR" and c.owner == IPO).owner = POOL
    assert SellShares("PRR", 1) in game.legal_actions(P1)
    game.apply(P1, SellShares("PRR", 1))
    assert held(game, "PRR") == {P1: 10, P2: 10, POOL: 20, IPO: 60}
    assert president_cert_owner(game, "PRR") == POOL
    assert game.state.corporations["PRR"].president is None


def test_a_player_who_buys_the_presidents_worth_becomes_president_again() -> None:
    game = made_up(receiving())
    start(game, "PRR", P1, 100, 1000, {P2: 1, POOL: 2, IPO: 5})
    game.state.corporations["PRR"].president = None
    next(c for c in game.state.certificates if c.corporation == "PRR" and c.president).owner = POOL
    game.state.round.entity_index = game.state.order.index(P2)
    events = render_all(game.apply(P2, BuyShares("PRR", "pool")), game.money)
    assert "Player 2 becomes the president of PRR: its receivership ends" in events
    assert game.state.corporations["PRR"].president == P2
    assert president_cert_owner(game, "PRR") == Owner.player(P2)
    assert held(game, "PRR") == {P2: 20, POOL: 30, IPO: 50}, "two 10% shares went to the pool for it"


def test_too_few_shares_leave_the_corporation_in_receivership() -> None:
    game = made_up(receiving())
    start(game, "PRR", P1, 100, 1000, {POOL: 2, IPO: 6})
    game.state.corporations["PRR"].president = None
    next(c for c in game.state.certificates if c.corporation == "PRR" and c.president).owner = POOL
    game.state.round.entity_index = game.state.order.index(P2)
    game.apply(P2, BuyShares("PRR", "pool"))
    assert game.state.corporations["PRR"].president is None
    assert held(game, "PRR") == {P2: 10, POOL: 30, IPO: 60}


# -- the receiver's operating turn ---------------------------------------------------------------

def receivership_or(hooks: TitleHooks, prr_cash: int, prr_trains: list[TrainId]) -> Game:
    """PRR (home H12, a route to H16) in receivership, then NYC with Player 2, into OR 1."""
    game = made_up(hooks)
    start(game, "PRR", P1, 100, prr_cash, {P1: 2, P2: 1, IPO: 3})
    start(game, "NYC", P2, 67, 600, {P2: 5})
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    game.state.corporations["PRR"].trains = list(prr_trains)
    for train in prr_trains:
        game.state.depot.remove(train)
    if prr_trains:
        game.state.types_sold.append("2")
    game.state.corporations["PRR"].president = None
    next(c for c in game.state.certificates if c.corporation == "PRR" and c.president).owner = POOL
    game.state.round.stock = StockRoundState()
    game.pending_events = []
    game.begin_round(RoundState(kind="operating", number=2, or_number=1))
    return game


def test_the_receiver_takes_the_turn_and_no_player_is_asked() -> None:
    PayingPolicy.seen = []
    game = receivership_or(paying(), 0, [TrainId("2", 0)])
    events = lines(game)
    assert "PRR has no president: the receiver operates it" in events
    assert "PRR passes laying track" in events or any("PRR passes" in e and "track" in e for e in events)
    assert any(e.startswith("RUN AUTO: the best run of PRR") for e in events)
    assert "PRR runs a 2 train for $30: H16-H12" in events
    assert "PRR pays out $30 = $3 per share ($6 to Player 1, $3 to Player 2, $6 to PRR)" in events, \
        "the pool's shares, the president's certificate among them, pay the corporation"
    assert game.share_price("PRR") == 112, "the title's policy paid out: the price moves right"
    assert PayingPolicy.seen and all(seen == [] for seen in PayingPolicy.seen), \
        "while the receiver acts, no player may act"
    assert game.operating_corporation() == "NYC"
    assert game.current_actors() == [P2], "the game went on by itself to the next corporation"


def test_the_receiver_buys_a_train_when_funds_allow() -> None:
    game = receivership_or(receiving(), 100, [])
    assert "PRR buys a 2 train for $80 from the bank" in lines(game)
    assert game.state.corporations["PRR"].trains == [TrainId("2", 0)]
    assert game.state.corporations["PRR"].cash == 20
    assert game.operating_corporation() == "NYC"


def test_a_receiver_without_the_money_buys_no_train_and_the_turn_ends() -> None:
    game = receivership_or(receiving(), 50, [])
    assert "PRR (in receivership) passes buy train" in lines(game)
    assert game.state.corporations["PRR"].trains == []
    assert game.operating_corporation() == "NYC"
    assert game.current_actors() == [P2]


def test_the_report_names_the_receiver() -> None:
    game = receivership_or(receiving(), 0, [TrainId("2", 0)])
    seats = [Seat(name, f"p{i}@x.invalid", "") for i, name in enumerate(game.state.seats)]
    info = GameInfo("g", game.title.title, game.title.variants, seats, "gm@x.invalid", "")
    text = render("report.txt.j2", report_context(Replay(info, game.title, game, last_seq=1),
                                                  since_seq=1, number=3, recipient=P1, width=80))
    rows = [line.split() for line in text.splitlines()]
    assert ["PRR", "receiver", "$100"] in [row[:3] for row in rows], "the corporations' table"
    assert ["NYC", "Player", "2"] in [row[:3] for row in rows]


def test_the_receiver_is_no_player() -> None:
    assert RECEIVER not in (P1, P2, P3)
    game = receivership_or(receiving(), 0, [TrainId("2", 0)])
    with pytest.raises(IllegalOrderError):
        game.apply(RECEIVER, Pass())


# -- a title's own step for the receiver: 1825's lease of a train (fault 8) -----------------------

from dataclasses import dataclass, field  # noqa: E402
from typing import ClassVar  # noqa: E402

from pbem.engine.state import TitleState  # noqa: E402
from pbem.engine.steps.operating import CORE_STEPS, DividendStep, current_corp  # noqa: E402


@dataclass(frozen=True, slots=True)
class LeaseTrain(Action):
    """The receiver leases the bank's next train for this turn (the made-up title's action)."""

    kind: ClassVar[str] = "lease_train"


@dataclass
class LeaseState(TitleState):
    leased: dict[str, TrainId] = field(default_factory=dict)
    """Corporation -> the train id it leases this turn."""


LEASE_COST = 10
LEASED_NUMBER = 99
"""The number of a leased train's id: no train of the bank's has it."""


class Lease(OpStep):
    """A corporation in receivership with no train may lease the bank's next train for its
    turn, paying what it can of the fee (1825 on 18xx.games: £10 a turn)."""

    name = "lease_train"
    description = "lease a train"
    takes = (LeaseTrain,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        return in_receivership(game, corp) and not game.state.corporations[corp].trains

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        treasury = game.state.corporations[corp]
        fee = min(LEASE_COST, treasury.cash)
        treasury.cash -= fee
        game.state.bank += fee
        train = TrainId(game.state.depot[0].kind, LEASED_NUMBER)
        treasury.trains.append(train)
        assert isinstance(game.state.title_state, LeaseState)
        game.state.title_state.leased[corp] = train
        game.event(Note(f"{corp} leases a {train.kind} train for {game.money(fee)}"))


class ReturnLease(OpStep):
    """After the dividend a leased train goes back to the bank (it offers nothing)."""

    name = "return_lease"

    @classmethod
    def offers(cls, game: Game) -> bool:
        return False

    @classmethod
    def prepare(cls, game: Game) -> None:
        corp = current_corp(game)
        assert isinstance(game.state.title_state, LeaseState)
        train = game.state.title_state.leased.pop(corp, None)
        if train is not None:
            game.state.corporations[corp].trains.remove(train)
            game.event(Note(f"{corp} returns its leased train"))


class LeasingPolicy(ReceivershipPolicy):
    def action(self, game: Game, step: type[OpStep], corp: str) -> Action | None:
        if step is Lease:
            return LeaseTrain()
        return super().action(game, step, corp)


class LeasingSequence(RoundSequence):
    def new_title_state(self) -> TitleState:
        return LeaseState()

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        at = CORE_STEPS.index(DividendStep)
        return (*CORE_STEPS[:at - 1], Lease, *CORE_STEPS[at - 1:at + 1], ReturnLease, *CORE_STEPS[at + 1:])


def test_a_titles_own_step_for_the_receiver_leases_a_train_for_the_turn() -> None:
    game = receivership_or(TitleHooks(sequence=LeasingSequence(), receivership=LeasingPolicy()), 5, [])
    events = lines(game)
    names = [step.name for step in game.operating_steps]
    assert names.index("lease_train") < names.index("route") < names.index("dividend") < names.index("return_lease")
    assert "PRR leases a 2 train for $5" in events, "the fee, or what the treasury has of it"
    assert "PRR runs a 2 train for $30: H16-H12" in events
    assert "PRR returns its leased train" in events
    assert "PRR (in receivership) passes buy train" in events, "$30 buys no train"
    assert game.state.corporations["PRR"].trains == []
    assert game.state.corporations["PRR"].cash == 30, "$5 - $5 fee + $30 withheld"
    assert TrainId("2", 0) in game.state.depot, "the leased train was never the depot's"
    assert game.operating_corporation() == "NYC" and game.current_actors() == [P2]
    assert Lease.offers(game) is False, "a corporation with a president leases nothing"


def test_a_step_without_a_pass_takes_the_first_candidate_the_step_accepts() -> None:
    """Over the train limit (a sticky step with no PASS): the receiver discards one."""
    game = receivership_or(receiving(), 0, [TrainId("2", 0), TrainId("2", 1), TrainId("2", 2), TrainId("2", 3), TrainId("2", 4)])
    assert "PRR discards a 2 train" in lines(game)
    assert len(game.state.corporations["PRR"].trains) == 4
    assert game.operating_corporation() == "NYC" and game.current_actors() == [P2]


class ThirtyPercent(ReceivershipPolicy):
    """A title whose receivership ends only for a holder of 30%."""

    def new_president(self, state: GameState, title: TitleData, sym: str) -> str | None:
        return next((p for p in state.order if state.percent_of(Owner.player(p), sym) >= 30), None)


def strict_receiving() -> TitleHooks:
    return TitleHooks(receivership=ThirtyPercent())


def test_the_title_says_who_becomes_president_again() -> None:
    game = made_up(strict_receiving())
    start(game, "PRR", P1, 100, 1000, {P2: 1, POOL: 3, IPO: 4})
    game.state.corporations["PRR"].president = None
    next(c for c in game.state.certificates if c.corporation == "PRR" and c.president).owner = POOL
    game.state.round.entity_index = game.state.order.index(P2)
    game.apply(P2, BuyShares("PRR", "pool"))
    assert game.state.corporations["PRR"].president is None, "20% is not enough in this title"
    game.state.round.stock = StockRoundState()  # a later turn
    game.apply(P2, BuyShares("PRR", "pool"))
    assert game.state.corporations["PRR"].president == P2
    assert held(game, "PRR") == {P2: 30, POOL: 30, IPO: 40}


def test_through_apply_the_last_pass_of_the_stock_round_runs_the_receivers_turn() -> None:
    """The public entry point: the action that ends the stock round returns the receiver's
    whole turn, and the next player asked is NYC's president."""
    game = made_up(receiving())
    start(game, "PRR", P1, 100, 0, {P1: 2, P2: 1, IPO: 3})
    start(game, "NYC", P2, 67, 600, {P2: 4})
    game.state.tiles["H14"] = ("9", 1)
    game.state.tiles["H16"] = ("57", 1)
    game.state.corporations["PRR"].trains = [TrainId("2", 0)]
    game.state.depot.remove(TrainId("2", 0))
    game.state.types_sold.append("2")
    game.state.corporations["PRR"].president = None
    next(c for c in game.state.certificates if c.corporation == "PRR" and c.president).owner = POOL
    events: list[str] = []
    while game.state.round.kind == "stock":
        events = render_all(game.apply(game.current_actors()[0], Pass()), game.money)
    assert "-- OR 2.1 --" in events
    assert "PRR runs a 2 train for $30: H16-H12" in events
    assert game.state.corporations["PRR"].cash == 30
    assert game.current_actors() == [P2] and game.operating_corporation() == "NYC"
