"""1825's trains in the operating round: buying, trading between companies, and the receiver's
lease.

* **No forced purchase, no emergency money**: a company need not own a train; its Director
  never pays for one, sells no shares for one and is never bankrupt (18xx.games:
  ``must_buy_train?`` false, ``president_may_contribute?`` false).
* **Trades**: a company buys another company's train for £10 or more, a multiple of £10
  (``TRAIN_PRICE_MIN``, ``TRAIN_PRICE_MULTIPLE``), up to its treasury; the bank's trains at
  their price (:class:`BuyTrain1825`). A company in receivership buys only from the bank (new or
  from the pool). A minor's required train, shown on its Director's certificate, is never
  sold to another company; its other trains are (K5's minor rules; 18xx.games makes that
  train not ``buyable``).
* **Receivership** (a Director's certificate in the pool): as 18xx.games plays it, a player
  acts for the company (:func:`acting_player`: the first player in priority order who
  directs no company, else the priority deal's holder) in its lease, track, token and run;
  the receiver (:class:`Receiver1825`, the core's
  :class:`~pbem.engine.receivership.ReceivershipPolicy`) withholds and buys a train when
  the treasury can pay for one (the acting player chooses which where it could pay for two
  kinds or more, and must buy one; one train a turn, or by the setting
  :data:`RECEIVER_BUYS_AFTER_CHOICE` as 18xx.games plays it: the acting player chooses again
  while two kinds or more are left and there is room, then the receiver buys the one kind
  left). A minor in silent
  receivership (the stock rules) does nothing.
* **Credit** (18xx.games ``receivership_loan``): a company in receivership that owns or
  leases a train may spend up to :data:`RECEIVER_CREDIT` more than its treasury on its track,
  token and lease (its treasury going below nothing); the run's revenue, withheld, repays it
  and must cover it, so a spending the run its trains could make after it would not repay is
  refused and never offered (:mod:`pbem.titles.g1825.credit`; its setting
  ``receivership_credit``: no credit at all).
* **The lease** (fault 8 of the references): a company in receivership with no train may
  lease one of the trains the bank sells from the bank for :data:`LEASE_COST` a turn
  (``LEASE <train>``, :class:`LeaseTrain`, before its track or before its run): the train is
  the company's for the turn — it counts for the reach of its upgrades
  (:mod:`pbem.titles.g1825.track`) and runs — and goes back to the bank, in its place, after
  the dividend (:class:`ReturnLease`).

Source: 18xx.games ``g_1825/step/buy_train.rb``, ``step/lease_train.rb``,
``step/track_and_token.rb``, ``step/route.rb``, ``game.rb`` (``leaseable_trains``,
``route_trains``); issue 12.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterable

from pbem.engine import receivership, trains
from pbem.engine.actions import Action, Bankrupt, BuyTrain, Pass, SellShares
from pbem.engine.events import Event, Money
from pbem.engine.ids import TrainId
from pbem.engine.receivership import ReceivershipPolicy
from pbem.engine.steps.operating import BuyTrainStep, OpStep, buy_train, current_corp, op_state, route_available
from pbem.engine.steps.operating.base import RECEIVER, mark_passed, pass_step, president
from pbem.errors import IllegalOrderError, OrderSyntaxError
from pbem.titles.g1825.credit import credit_allowed, repay_problem
from pbem.titles.g1825.state import LeasedTrain, state1825
from pbem.order_codecs import HelpEntry, OrderCodec, Vocabulary

if TYPE_CHECKING:
    from pbem.engine.game import Game

LEASE_COST = 10
"""What a receiver pays the bank for a leased train, each operating turn (money)."""

TRAIN_PRICE_MIN = 10
"""The least price of a train bought from another company (money)."""

TRAIN_PRICE_MULTIPLE = 10
"""A train bought from another company is paid for in multiples of this (money)."""


@dataclass(frozen=True, slots=True)
class Lease(Action):
    """The receiver of the operating company leases a ``train`` (its type) from the bank
    (1825's own action; taken by the receiver, never logged)."""

    kind: ClassVar[str] = "lease_train"
    train: str


@dataclass(frozen=True)
class TrainLeased(Event):
    """``corporation`` (in receivership) leases a ``train`` from the bank for ``cost``."""

    corporation: str
    train: str
    cost: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} (in receivership) leases a {self.train} train from the bank for {money(self.cost)}"


@dataclass(frozen=True)
class LeaseReturned(Event):
    """The ``train`` ``corporation`` leased goes back to the bank."""

    corporation: str
    train: str

    def render(self, money: Money) -> str:
        return f"{self.corporation}'s leased {self.train} train goes back to the bank"


RECEIVER_BUYS_AFTER_CHOICE = "receiver_buys_after_choice"
"""The title rule (a bool, default False: one train a turn) read where 1825's public text is
silent: whether, after the acting player's choice of a train for a company in receivership,
the receiver buys once more when one kind of the bank's trains is left that the company can
pay for, with room and a route (18xx.games' receiver does, ``receivership_buy`` after the
choice)."""

RECEIVER_CREDIT = 200
"""What a company in receivership may spend beyond its treasury in its turn, lent by the bank
and repaid from its revenue (money; 18xx.games ``buying_power``)."""

@dataclass(frozen=True)
class LoanRepaid(Event):
    """``corporation``'s run repays the ``amount`` it spent on credit."""

    corporation: str
    amount: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} repays the bank {money(self.amount)} spent on credit"


def has_credit(game: Game, corp: str, *, leasing: bool = False) -> bool:
    """Whether ``corp`` may spend on credit now: the game allows it
    (:func:`pbem.titles.g1825.credit.credit_allowed`), in receivership (not silent), owning a
    train (a leased one counts) or leasing one. What it spends on credit its run must repay
    (:mod:`pbem.titles.g1825.credit`)."""
    return (credit_allowed(game) and receivership.in_receivership(game, corp) and not silent(game, corp)
            and (leasing or bool(game.state.corporations[corp].trains)))


def spending_power(game: Game, corp: str, *, leasing: bool = False) -> int:
    """What ``corp`` may spend now: its treasury, and for a company with credit
    (:func:`has_credit`) :data:`RECEIVER_CREDIT` beyond it, the treasury then going below
    nothing (the loan)."""
    cash = game.state.corporations[corp].cash
    return cash + RECEIVER_CREDIT if has_credit(game, corp, leasing=leasing) else cash


def loan_of(game: Game, corp: str) -> int:
    """What ``corp`` has spent on credit and not repaid (money; 0 for none): its treasury
    below nothing."""
    return max(0, -game.state.corporations[corp].cash)


def loan_problem(game: Game, corp: str, revenue: int) -> str | None:
    """Why a run of ``revenue`` may not be made: it does not cover ``corp``'s loan."""
    loan = loan_of(game, corp)
    if revenue < loan:
        return (f"{corp} has spent {game.money(loan)} on credit: its run must earn at least that, "
                f"not {game.money(revenue)}")
    return None


def settle_loan(game: Game, corp: str) -> None:
    """After the dividend (withheld: the revenue is in the treasury) the loan is repaid; a
    loan left without a run to repay it is forgiven by the bank."""
    loan = loan_of(game, corp)
    if loan:
        game.state.corporations[corp].cash = 0
        game.state.bank -= loan


def lease_of(game: Game) -> tuple[TrainId, int] | None:
    """The train the operating company leased this turn and the place in the depot it came
    from, or None (:attr:`State1825.lease`, kept for the company's turn)."""
    lease = state1825(game.state).lease
    if lease is None or lease.corporation != current_corp(game):
        return None
    return lease.train, lease.depot_index


def leasable(game: Game) -> list[TrainId]:
    """The train ids a receiver may lease: the trains the bank (not the pool) sells now."""
    return [t for t in trains.depot_offer(game) if t in game.state.depot]


def lease_problem(game: Game, corp: str, train_id: TrainId) -> str | None:
    """Why ``corp`` may not lease ``train_id`` for :data:`LEASE_COST`: more than it may
    spend, or spent on credit that the run of the leased train could not repay
    (:func:`pbem.titles.g1825.credit.repay_problem`); else None."""
    cash = game.state.corporations[corp].cash
    if spending_power(game, corp, leasing=True) < LEASE_COST:
        return f"{corp} has {game.money(cash)}; a lease costs {game.money(LEASE_COST)}"
    return repay_problem(game, corp, LEASE_COST, lambda: _take_lease(game, corp, train_id),
                         f"the lease of a {train_id.kind} train")


def leasable_kinds(game: Game, corp: str) -> list[str]:
    """The kinds of train ``corp`` may lease now (:func:`lease_problem`), in the bank's order."""
    kinds = dict.fromkeys(t.kind for t in leasable(game))
    return [kind for kind in kinds if lease_problem(game, corp, _first_of(game, kind)) is None]


def _first_of(game: Game, kind: str) -> TrainId:
    return next(t for t in leasable(game) if t.kind == kind)


def silent(game: Game, corp: str) -> bool:
    """Whether ``corp`` is in silent receivership (the stock rules: a minor in receivership
    in a game with Unit 1 or 2 does nothing)."""
    from pbem.titles.g1825.stock_rules import silent as stock_silent

    return stock_silent(game, corp)


def acting_player(game: Game, corp: str) -> str:
    """Who gives ``corp``'s orders: its Director; for a company in receivership the first
    player in priority order who directs no company, else the priority deal's holder
    (18xx.games ``acting_for_entity``); :data:`~pbem.engine.steps.operating.base.RECEIVER`
    for a minor in silent receivership."""
    state = game.state
    company = state.corporations[corp]
    if company.president is not None or not receivership.in_receivership(game, corp):
        return president(game, corp)
    if silent(game, corp):
        return RECEIVER
    directors = {c.president for c in state.corporations.values() if c.president is not None and not c.closed}
    return next((p for p in state.order if p not in directors), state.order[0])


class LeaseTrain(OpStep):
    """A company in receivership with no train may lease one from the bank (see the module
    text): offered before its track and again before its run, by the player acting for it."""

    name = "lease_train"
    description = "lease a train from the bank for the turn (LEASE <train>), or go on"
    optional = True
    takes: ClassVar[tuple[type[Action], ...]] = (Lease,)  # any other order goes on (18xx.games: no step of its own)

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        return (receivership.in_receivership(game, corp) and not silent(game, corp)
                and not game.state.corporations[corp].trains and lease_of(game) is None
                and bool(leasable_kinds(game, corp)))


    @classmethod
    def actor(cls, game: Game) -> str:
        return acting_player(game, current_corp(game))

    @classmethod
    def describe(cls, game: Game) -> str:
        kinds = ", ".join(leasable_kinds(game, current_corp(game)))
        return f"lease a train from the bank for {game.money(LEASE_COST)} (LEASE <train>: {kinds}), or PASS"

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if isinstance(action, Pass):
            pass_step(game, cls, "leasing a train")
            return
        assert isinstance(action, Lease)
        lease(game, corp, action.train)
        mark_passed(game, cls)

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        leases: list[Action] = [Lease(kind) for kind in leasable_kinds(game, current_corp(game))]
        return [*leases, Pass()] if Pass in cls.takes else leases


class LeaseBeforeRun(LeaseTrain):
    """The lease, offered again after the track and token (18xx.games offers it in both
    steps), where a PASS declines it and the run (a company with no train runs nothing; the
    platform's run step, which offers the lease)."""

    name = "lease_before_run"
    takes: ClassVar[tuple[type[Action], ...]] = (Lease, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        """Only with a route to run (18xx.games: its run step, where the lease is offered,
        is skipped when the company can run no route)."""
        return super().offers(game) and route_available(game, current_corp(game))


def lease(game: Game, corp: str, kind: str) -> None:
    """``corp`` leases the first ``kind`` train the bank sells, paying :data:`LEASE_COST`.

    :raises IllegalOrderError: no such train for sale, ``corp`` has a train or a lease
        already, is not in receivership, or has not the money (:func:`lease_problem`).
    """
    state = game.state
    treasury = state.corporations[corp]
    if not receivership.in_receivership(game, corp):
        raise IllegalOrderError(f"only a company in receivership leases a train ({corp} has a Director)")
    if treasury.trains or lease_of(game) is not None:
        raise IllegalOrderError(f"{corp} has a train; only a company without one leases")
    train_id = next((t for t in leasable(game) if t.kind == kind), None)
    if train_id is None:
        raise IllegalOrderError(f"the bank sells no {kind} train to lease")
    problem = lease_problem(game, corp, train_id)
    if problem:
        raise IllegalOrderError(problem)
    treasury.cash -= LEASE_COST
    state.bank += LEASE_COST
    _take_lease(game, corp, train_id)
    game.event(TrainLeased(corp, kind, LEASE_COST))


def _take_lease(game: Game, corp: str, train_id: TrainId) -> None:
    """``train_id`` goes from the bank's depot to ``corp`` for the turn (nothing paid)."""
    state = game.state
    state1825(state).lease = LeasedTrain(corp, train_id, state.depot.index(train_id))
    state.depot.remove(train_id)
    state.corporations[corp].trains.append(train_id)


def return_lease(game: Game, corp: str) -> None:
    """The train ``corp`` (operating) leased goes back to the bank's depot, in the place it
    came from."""
    entry = lease_of(game)
    if entry is None:
        return
    state1825(game.state).lease = None
    train_id, index = entry
    owned = game.state.corporations[corp].trains
    if train_id in owned:
        owned.remove(train_id)
    game.state.depot.insert(min(index, len(game.state.depot)), train_id)
    game.event(LeaseReturned(corp, train_id.kind))


class ReturnLease(OpStep):
    """After the dividend, the loan is repaid and a leased train goes back to the bank (it
    offers nothing)."""

    name = "return_lease"
    description = "the leased train goes back to the bank"

    @classmethod
    def offers(cls, game: Game) -> bool:
        return False

    @classmethod
    def prepare(cls, game: Game) -> None:
        corp = current_corp(game)
        settle_loan(game, corp)
        return_lease(game, corp)


# -- buying ---------------------------------------------------------------------------------------


def trade_problem(game: Game, corp: str, action: BuyTrain) -> str | None:
    """Why ``corp`` may not buy as ``action`` says by 1825's rules, or None: a train of
    another company costs £10 or more, a multiple of £10, and is not for a company in
    receivership; every train is paid from the treasury alone."""
    treasury = game.state.corporations[corp]
    if action.source in ("depot", "pool"):
        pool = action.source == "pool"
        offer = [t for t in trains.depot_offer(game)
                 if t.kind == action.train and (t in game.state.pool_trains) == pool]
        cost = trains.train_data(game.title, offer[0]).price if offer else 0
        if cost > treasury.cash:
            return f"{corp} has {game.money(treasury.cash)}; the {action.train} train costs {game.money(cost)}"
        return None
    if receivership.in_receivership(game, corp):
        return f"{corp} is in receivership: it buys trains from the bank only"
    if not any(seller == action.source and t.kind == action.train for seller, t in tradeable(game, corp)):
        required = state1825(game.state).required_trains.get(action.source)
        if required is not None and required.kind == action.train:
            return (f"{action.source}'s {action.train} train is the one on its Director's certificate: "
                    "a minor never sells it")
        return None  # the core says what is missing
    price = action.price
    if price is None or price < TRAIN_PRICE_MIN:
        return f"a train from another company costs at least {game.money(TRAIN_PRICE_MIN)} (FOR <price>)"
    if price % TRAIN_PRICE_MULTIPLE:
        return f"a train from another company is paid in multiples of {game.money(TRAIN_PRICE_MULTIPLE)}"
    return None


def tradeable(game: Game, corp: str) -> list[tuple[str, TrainId]]:
    """The trains other open companies may sell ``corp``, as (seller, train id): all their
    trains but each minor's required train (:attr:`State1825.required_trains`)."""
    bound = set(state1825(game.state).required_trains.values())
    return [(other, t) for other, held in sorted(game.state.corporations.items())
            if other != corp and not held.closed for t in held.trains if t not in bound]


def _sold_last(game: Game, seller: str) -> None:
    """Put ``seller``'s required train (if a minor's) after its others, so a purchase by type
    takes one that may be sold."""
    bound = set(state1825(game.state).required_trains.values())
    held = game.state.corporations[seller].trains
    held.sort(key=lambda t: t in bound)


def receiver_choices(game: Game, corp: str) -> list[TrainId]:
    """For a company in receivership (not silent) with a route and room for a train: the
    trains the bank sells, new (one a type) and from the pool (one a type), that it can pay
    for; else [] (18xx.games ``buyable_depot_trains``: its depot's trains and its discards)."""
    treasury = game.state.corporations[corp]
    if (not receivership.in_receivership(game, corp) or silent(game, corp)
            or len(treasury.trains) >= trains.train_limit(game) or not route_available(game, corp)):
        return []
    return [t for t in trains.depot_offer(game) if trains.train_data(game.title, t).price <= treasury.cash]


def acting_choices(game: Game, corp: str) -> list[TrainId]:
    """The trains the acting player chooses among for ``corp`` in receivership: the
    :func:`receiver_choices` when there are two or more and it has bought no train this
    turn (one purchase a turn), or by the reading :data:`RECEIVER_BUYS_AFTER_CHOICE` also
    after the acting player's own choices (18xx.games asks again while two kinds or more
    are left and there is room: ``receivership_skip?``); else []."""
    choices = receiver_choices(game, corp)
    again = game.title.title_rule(RECEIVER_BUYS_AFTER_CHOICE)
    return choices if len(choices) >= 2 and (again or not op_state(game).trains_bought) else []


def _source(game: Game, train_id: TrainId) -> str:
    return "pool" if train_id in game.state.pool_trains else "depot"


class BuyTrain1825(BuyTrainStep):
    """Buy trains (see the module text): optional, from the treasury alone; for a company in
    receivership that can pay for two kinds of the bank's trains or more the acting player
    chooses one and must buy it (otherwise the receiver buys the one it can pay for)."""

    description = "buy trains (TRAIN), or PASS"
    takes = (BuyTrain, Pass, SellShares, Bankrupt)

    @classmethod
    def actor(cls, game: Game) -> str:
        corp = current_corp(game)
        if acting_choices(game, corp):
            return acting_player(game, corp)
        return president(game, corp)

    @classmethod
    def describe(cls, game: Game) -> str:
        corp = current_corp(game)
        if acting_choices(game, corp):
            kinds = ", ".join(t.kind for t in acting_choices(game, corp))
            return f"buy a train from the bank for {corp}, in receivership (TRAIN <train>: {kinds})"
        return cls.description

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        treasury = game.state.corporations[corp]
        if len(treasury.trains) >= trains.train_limit(game):
            return False
        prices = [trains.train_data(game.title, t).price for t in trains.depot_offer(game)]
        trade = bool(tradeable(game, corp)) and treasury.cash >= TRAIN_PRICE_MIN and not receivership.in_receivership(game, corp)
        return bool(prices and min(prices) <= treasury.cash) or trade

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        choices = acting_choices(game, corp) if player != RECEIVER else []
        if isinstance(action, Pass):
            if choices:
                raise IllegalOrderError(f"{corp} is in receivership and must buy a train (TRAIN <train>)")
            pass_step(game, cls, "buying trains")
            return
        if isinstance(action, (SellShares, Bankrupt)):
            raise IllegalOrderError("in 1825 a company's trains are paid from its treasury alone: "
                                    "no shares are sold for them and no one goes bankrupt")
        assert isinstance(action, BuyTrain)
        problem = trade_problem(game, corp, action)
        if problem:
            raise IllegalOrderError(problem)
        if choices and action.source not in ("depot", "pool"):
            raise IllegalOrderError(f"{corp} is in receivership: it buys a train from the bank")
        if action.source not in ("depot", "pool"):
            _sold_last(game, action.source)
        buy_train(game, corp, action)
        if choices:
            left = receiver_choices(game, corp)
            if game.title.title_rule(RECEIVER_BUYS_AFTER_CHOICE):
                if len(left) >= 2:
                    return  # by that reading the acting player chooses again
                if len(left) == 1:
                    buy_train(game, corp, BuyTrain(left[0].kind, _source(game, left[0])))
            mark_passed(game, cls)  # the receiver's one train (or more, by that reading)
        elif player == RECEIVER:
            mark_passed(game, cls)  # the receiver's own purchase ends the step

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        state = game.state
        corp = current_corp(game)
        found: list[Action] = []
        for train_id in trains.depot_offer(game):
            source = "pool" if train_id in state.pool_trains else "depot"
            found.append(BuyTrain(train_id.kind, source))
        if acting_choices(game, corp):
            return [BuyTrain(t.kind, _source(game, t)) for t in acting_choices(game, corp)]
        found += [BuyTrain(t.kind, other, TRAIN_PRICE_MIN) for other, t in tradeable(game, corp)]
        return [*dict.fromkeys(found), Pass()]


# -- the receiver -------------------------------------------------------------------------------------


class Receiver1825(ReceivershipPolicy):
    """1825's receiver (see the module text): the steps it takes itself are the dividend
    (withheld) and the purchase of the one kind of train the treasury can pay for."""

    def action(self, game: Game, step: type[OpStep], corp: str) -> Action | None:
        if issubclass(step, (LeaseTrain, ReturnLease)):
            return None
        return super().action(game, step, corp)

    def train(self, game: Game, corp: str) -> Action | None:
        """The train of the bank the treasury can pay for, if it can pay for one kind only,
        has room for it and a route to run, and has bought none this turn (18xx.games
        ``receivership_buy``: one purchase, then the step is over); else None."""
        if op_state(game).trains_bought or receivership.closing(game, corp):
            return None
        choices = receiver_choices(game, corp)
        if len(choices) != 1:
            return None
        return BuyTrain(choices[0].kind, _source(game, choices[0]))


# -- the order word -------------------------------------------------------------------------------------


def _parse_lease(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 1:
        raise OrderSyntaxError(f"cannot read {line!r}: write LEASE <train>, e.g. LEASE 5")
    return Lease(vocab.train(words[0], line))


def _format_lease(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, Lease)
    return f"LEASE {action.train}"


LEASE = OrderCodec("LEASE", (), (Lease,), _parse_lease, _format_lease, (
    HelpEntry("LEASE <train>", "a company in receivership with no train leases one of the bank's trains "
              f"for the turn, for £{LEASE_COST} (1825)", "LEASE 5"),
))
"""1825's order word for the lease of a train."""
