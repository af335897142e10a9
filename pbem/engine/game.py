"""The game: title data plus state, and the one entry point that changes it, :meth:`Game.apply`.

No I/O here: the engine never touches mail, files or templates. A round is an ordered list of
steps named in the title's ``game.yaml`` (``round_steps``); the first active step takes the
action through its ``{ActionType: handler}`` table. After each action the game advances:
players with nothing legal to do are passed, finished rounds give way to the next.
"""

from __future__ import annotations

import copy
from typing import Iterable, Mapping

from pbem.engine import closing, market, routes, shares, trains
from pbem.engine.actions import Action, Exchange, RunAuto
from pbem.engine.board import MapData, TileData
from pbem.engine.events import (
    BankBroken,
    CompanyClosed,
    CompanyIncome,
    Event,
    Exchanged,
    GameOver,
    NoValidActions,
    Note,
    Operates,
    PriorityDeal,
    PrivatesClosed,
    RoundStarted,
    WentBankrupt,
)
from pbem.engine.state import (
    IPO,
    POOL,
    CompanyState,
    CorporationState,
    GameState,
    OperatingState,
    Owner,
    PlayerState,
    RoundState,
    StockRoundState,
)
from pbem.engine.step import Step
from pbem.engine.steps import operating
from pbem.engine.steps.auction import PendingPar, WaterfallAuction
from pbem.engine.steps.stock import BuySellParShares, end_turn, execute_sale, finish_stock_round
from pbem.engine.title import PhaseData, TitleData
from pbem.engine.track import RouteResult
from pbem.engine.hooks import TitleHooks
from pbem.errors import IllegalOrderError

STEP_TYPES: dict[str, type[Step]] = {
    cls.name: cls for cls in (PendingPar, WaterfallAuction, BuySellParShares)
}
"""Every step the engine knows, by the name the title data uses."""

ROUND_NAMES = {"auction": "Private auction", "stock": "Stock round", "operating": "Operating round"}


def new_state(title: TitleData, players: list[str]) -> GameState:
    """The state before the first action: cash dealt, privates unsold, shares in the IPO.

    :raises ValueError: a player count the title does not allow, or duplicate names.
    """
    if not title.min_players <= len(players) <= title.max_players:
        raise ValueError(
            f"{title.title} takes {title.min_players} to {title.max_players} players, not {len(players)}"
        )
    if len(set(players)) != len(players):
        raise ValueError("player names must be distinct")
    cash = title.starting_cash[len(players)]
    return GameState(
        seats=list(players),
        order=list(players),
        players={p: PlayerState(name=p, cash=cash) for p in players},
        bank=title.bank_cash - cash * len(players),
        corporations={c.sym: CorporationState(sym=c.sym) for c in title.corporations},
        companies={c.sym: CompanyState(sym=c.sym) for c in title.companies},
        certificates=shares.new_certificates(title),
        market={},
        round=RoundState(kind="auction"),
        phase=title.phases[0].name,
        depot=trains.new_depot(title),
    )


class Game:
    """One game of one title: apply actions, ask who acts and what is legal.

    :param title: the title's data with its variants.
    :param players: seat names in seating order (the first holds the priority deal).
    """

    def __init__(self, title: TitleData, players: list[str]) -> None:
        self.title = title
        self.hooks: TitleHooks = title.hooks
        self.operating_steps: tuple[type[operating.OpStep], ...] = self.hooks.operating_steps()
        """The operating round's steps in order, from the title (its ``operating_steps``)."""
        self.probing = False
        """True on a copy made to check whether an action would be accepted."""
        self.board: MapData = title.board
        self.tiles: Mapping[str, TileData] = title.tiles
        self.state = new_state(title, players)
        self.state.title_state = self.hooks.new_title_state()
        self.pending_events: list[Event] = []
        self.turn_over = False
        self.last_run: list[RouteResult] = []
        self.cache: dict[object, tuple[object, object]] = {}
        """Derived data (track graph, networks) keyed by what it was derived from."""
        self.state.round = self.hooks.start_round(self)

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        """A copy with its own state; the immutable title, map and tile data are shared."""
        twin = Game.__new__(Game)
        twin.title, twin.board, twin.tiles, twin.hooks = self.title, self.board, self.tiles, self.hooks
        twin.operating_steps = self.operating_steps
        twin.probing = self.probing
        twin.state = self.state.copy()
        twin.pending_events = []
        twin.turn_over = False
        twin.last_run = list(self.last_run)
        # the track graph is immutable (pbem.engine.graph): the twin starts from it
        twin.cache = {key: value for key, value in self.cache.items() if key == "track_graph"}
        return twin

    # -- small helpers used by the steps --------------------------------------------------

    def money(self, amount: int) -> str:
        """Format ``amount`` in the title's currency."""
        return self.title.format_money(amount)

    def event(self, event: Event) -> None:
        """Record what happened (:mod:`pbem.engine.events`; the turn report renders it)."""
        self.pending_events.append(event)

    def next_entity_index(self) -> None:
        """Move the turn to the next player in priority order."""
        self.state.round.entity_index = (self.state.round.entity_index + 1) % len(self.state.order)

    def payout_companies(self) -> None:
        """Each owned private pays its revenue from the bank to its owner (1830 rules 6.1):
        players in seating order first, then corporations."""
        owned = [(sym, c) for sym, c in self.state.companies.items() if c.owner and not c.closed]

        def key(item: tuple[str, CompanyState]) -> tuple[int, int, str]:
            owner = item[1].owner
            assert owner is not None
            if owner.is_player:
                return (0, self.state.seats.index(owner.name), item[0])
            return (1, 0, owner.name + item[0])

        for sym, company in sorted(owned, key=key):
            revenue = self.title.company(sym).revenue
            owner = company.owner
            assert owner is not None
            if owner.is_player:
                self.state.players[owner.name].cash += revenue
            else:
                self.state.corporations[owner.name].cash += revenue
            self.state.bank -= revenue
            self.event(CompanyIncome(owner.name, revenue, sym))
        self.check_bank()

    # -- queries -------------------------------------------------------------------------

    def steps(self) -> list[type[Step]]:
        """The current round's steps, in order."""
        names = self.title.round_steps.get(self.state.round.kind, ())
        own = self.hooks.step_types()
        return [self.hooks.stock_step() if n == BuySellParShares.name else own.get(n) or STEP_TYPES[n]
                for n in names]

    def active_step(self) -> type[Step] | None:
        """The first active step of the current round, or None (and None in an operating
        round, whose steps are in :mod:`pbem.engine.steps.operating`)."""
        if self.state.finished or self.state.round.kind == "operating":
            return None
        return next((s for s in self.steps() if s.active(self)), None)

    def current_actors(self) -> list[str]:
        """The players who may act now: empty when the game has ended, and never the
        receiver of a corporation without a president (:mod:`pbem.engine.receivership`),
        whose steps the game takes by itself."""
        if self.state.finished:
            return []
        if self.state.round.kind == "operating":
            active = operating.active_steps(self)
            actor = active[0].actor(self) if active else None
            return [actor] if actor in self.state.players else []  # not the receiver
        step = self.active_step()
        return step.actors(self) if step else []

    def phase(self) -> PhaseData:
        """The current phase."""
        return trains.phase_data(self.title, self.state.phase)

    def tiles_left(self, name: str) -> int:
        """Copies of tile ``name`` still in the supply."""
        count = self.board.tile_counts.get(name)
        if name not in self.board.tile_counts:
            return 0
        if count is None:
            return 1
        return count - sum(1 for tile, _ in self.state.tiles.values() if tile == name)

    def hex_blocker(self, coord: str) -> str | None:
        """The private company that blocks ``coord`` while a player owns it, or None."""
        for sym, company in self.state.companies.items():
            if company.closed or company.owner is None or not company.owner.is_player:
                continue
            ability = self.title.company(sym).ability("blocks_hexes")
            if ability is not None and coord in ability.data.get("hexes", []):
                return sym
        return None

    def operating_corporation(self) -> str | None:
        """The corporation operating now, or None outside an operating round."""
        if self.state.round.kind != "operating" or self.state.finished:
            return None
        return operating.current_corp(self)

    def round_label(self) -> str:
        """``"Private auction"``, ``"SR 2"``, ``"OR 1.2"``."""
        rnd = self.state.round
        if rnd.kind == "stock":
            return f"SR {rnd.number}"
        if rnd.kind == "operating":
            return f"OR {rnd.number}.{rnd.or_number}"
        return ROUND_NAMES.get(rnd.kind, rnd.kind.replace("_", " ").capitalize())

    def waiting_for(self) -> str:
        """One line: who must act and what for (``"Player 2: bid on the private companies"``)."""
        if self.state.finished:
            return f"The game is over ({self.state.end_reason})."
        if self.state.round.kind == "operating":
            active = operating.active_steps(self)
            if not active:
                return f"{self.round_label()}: nothing to do"
            return f"{active[0].actor(self)} for {active[0].subject(self)}: {active[0].describe(self)}"
        step = self.active_step()
        if step is None:
            return f"{self.round_label()}: this server does not yet run this round."
        return f"{', '.join(step.actors(self))}: {step.description}"

    def legal_actions(self, player: str) -> list[Action]:
        """Every legal action for ``player`` now (bids and prices at their minimum), [] if not
        their turn. In an operating round: what the steps' own checks accept
        (:func:`pbem.engine.steps.operating.legal_actions`; one ``RUN AUTO`` stands for every
        run of the trains)."""
        if self.state.finished:
            return []
        if self.state.round.kind == "operating":
            return operating.legal_actions(self, player)
        step = self.active_step()
        if step is None or player not in step.actors(self):
            return []
        found = list(step.legal_actions(self, player))
        if issubclass(step, BuySellParShares) and found:
            found[-1:-1] = step.corporation_actions(self, player)  # before the PASS
        return found

    # -- the one way to change the game --------------------------------------------------

    def apply(self, player: str, action: Action, *, atomic: bool = True) -> list[Event]:
        """Apply ``action`` by ``player`` and advance the game; returns what happened (the
        events, which the callers render: :meth:`pbem.engine.events.Event.render`).

        All or nothing: on error the state is unchanged. With ``atomic=False`` no copy of the
        state is kept to restore, and after an error the state is not to be used (a replay of
        a log, which stops at the first refusal, saves a copy of the state per action).

        :raises IllegalOrderError: not this player's turn, or the rules forbid the action.
        """
        if player not in self.state.players:
            raise IllegalOrderError(f"{player!r} is not a player in this game")
        if self.state.finished:
            raise IllegalOrderError(self.waiting_for())
        backup = self.state.copy() if atomic else None
        self.pending_events = []
        self.turn_over = False
        try:
            if isinstance(action, Exchange):
                self._exchange(player, action)
                events, self.pending_events = self.pending_events, []
                return events
            if isinstance(action, RunAuto):
                action, notes = routes.resolve_auto(self, action)
                self.pending_events.extend(Note(note) for note in notes)
            if self.state.round.kind == "operating":
                op_step = operating.step_for(self, player, action)
                op_step.process(self, player, action)
                closing.settle_market(self)
                self._advance_operating()
                events, self.pending_events = self.pending_events, []
                return events
            step = self.active_step()
            if step is None:
                raise IllegalOrderError(self.waiting_for())
            actors = step.actors(self)
            if player not in actors:
                raise IllegalOrderError(f"it is not {player}'s turn: waiting for {self.waiting_for()}")
            handler = step.handlers.get(type(action))
            if handler is None:
                raise IllegalOrderError(
                    f"{action.kind.replace('_', ' ')} is not possible now; {player} may {step.description}"
                )
            handler(self, player, action)
            closing.settle_market(self)
            if not self.state.finished:
                self._advance(player)
            if closing.settle_market(self) and self.state.round.kind == "stock" and not self.state.finished:
                if not self.hooks.stock_step().interrupted(self):
                    self._skip_stock_turns()
        except Exception:
            if backup is not None:
                self.state.__dict__.update(backup.__dict__)  # same object: callers keep their reference
            raise
        events, self.pending_events = self.pending_events, []
        return events

    # -- advancing -----------------------------------------------------------------------

    def _advance(self, player: str) -> None:
        kind = self.state.round.kind
        if kind not in ("stock", "operating"):  # the start (TitleHooks.start_round)
            if self.active_step() is None:
                self._start_stock_round()
        elif kind == "stock":
            if self.state.round.kind != "stock":
                return
            step = self.hooks.stock_step()
            if step.hold(self):
                return  # a title's interruption (1870: a price protection) is being decided
            if not self.turn_over and not step.has_actions(self, player):
                end_turn(self, player)
            if self.turn_over:
                if step.before_next_turn(self):
                    return
                self._next_stock_turn()

    def _rotate_priority(self) -> None:
        """The player at the round's entity index gets the priority deal."""
        order = self.state.order
        idx = self.state.round.entity_index % len(order)
        self.state.order = order[idx:] + order[:idx]
        self.event(PriorityDeal(self.state.order[0]))

    def _start_stock_round(self, number: int = 1) -> None:
        self._rotate_priority()
        for p in self.state.players.values():
            p.passed = False
        self.state.round = RoundState(kind="stock", number=number, stock=StockRoundState())
        self.hooks.new_stock_round(self)
        self.event(RoundStarted(self.round_label()))
        self._skip_stock_turns()

    def _skip_stock_turns(self) -> None:
        """Pass players who have nothing legal to do, from the current one on."""
        while True:
            current = self.state.order[self.state.round.entity_index]
            if self.hooks.stock_step().has_actions(self, current):
                return
            self.event(NoValidActions(current))
            end_turn(self, current)
            if self._stock_round_over():
                self._finish_stock_round()
                return
            self.next_entity_index()

    def _stock_round_over(self) -> bool:
        return all(self.state.players[p].passed for p in self.state.order)

    def _next_stock_turn(self) -> None:
        if self._stock_round_over():
            self._finish_stock_round()
            return
        self.next_entity_index()
        self._skip_stock_turns()

    def _finish_stock_round(self) -> None:
        self.next_entity_index()
        finish_stock_round(self)
        closing.settle_market(self)  # a sold-out rise may end the game ($400 finish)
        if self.state.finished:
            return
        self._rotate_priority()
        number = self.state.round.number
        for p in self.state.players.values():
            p.passed = False
        self.state.operating_rounds = self.phase().operating_rounds
        self._start_operating_round(number, 1)

    # -- operating rounds (1830 rules 6) --------------------------------------------------

    def operating_order(self) -> list[str]:
        """The floated corporations in operating order: the title's
        (:meth:`TitleHooks.operating_order`; 1830: highest share price first)."""
        return self.hooks.operating_order(self)

    def _start_operating_round(self, number: int, or_number: int) -> None:
        self.state.round = RoundState(kind="operating", number=number, or_number=or_number,
                                      operating=OperatingState(order=self.operating_order()))
        self.hooks.new_operating_round(self)
        self.event(RoundStarted(self.round_label()))
        self.payout_companies()
        self._start_corporation_turn()

    def _start_corporation_turn(self) -> None:
        op = self.state.round.operating
        assert op is not None
        while op.index < len(op.order):
            if self.state.finished:
                return
            corp = op.order[op.index]
            if self.state.corporations[corp].closed:
                op.index += 1  # closed on the market earlier in this round
                continue
            pres = self.state.corporations[corp].president
            self.event(Operates(pres, corp))
            operating.place_home_token(self, corp)
            if not self._corporation_turn_over() or self.state.finished:
                return
            self._end_corporation_turn()
        self._finish_operating_round()

    def _corporation_turn_over(self) -> bool:
        """Pass the operating corporation's steps that offer nothing (all of them once it has
        closed), settle the market (a price in a closing cell closes its corporation) and say
        whether its turn is over: nothing left to do (a step of the title's waiting included)
        and no step holding the turn open (1870: a connection run owed), or the game ended."""
        op = self.state.round.operating
        assert op is not None
        corp = self.state.corporations[op.order[op.index]]
        if corp.closed:
            # the rest of its turn is lost; a title's step owed to others (1870: a price
            # protection or a connection run) still comes before the next turn
            operating.pass_its_own_steps(self)
        operating.skip_inactive(self)
        closing.settle_market(self)
        if self.state.finished:
            return True
        return not (operating.active_steps(self) or operating.turn_held_open(self))

    def _end_corporation_turn(self) -> None:
        op = self.state.round.operating
        assert op is not None
        corp = op.order[op.index]
        if "dividend_done" not in op.passed_steps and not self.state.corporations[corp].closed:
            operating.pay_dividend(self, corp, "withhold")
            closing.settle_market(self)
        op.index += 1
        fresh = OperatingState(order=op.order, index=op.index)
        self.state.round.operating = fresh
        self.state.pending_teleport = None

    def _advance_operating(self) -> None:
        if self.state.finished:
            return
        if not self._corporation_turn_over() or self.state.finished:
            return
        self._end_corporation_turn()
        self._start_corporation_turn()

    def _finish_operating_round(self) -> None:
        rnd = self.state.round
        if rnd.or_number < self.state.operating_rounds:
            self._start_operating_round(rnd.number, rnd.or_number + 1)
            return
        if self.state.bank_broken:
            self.end_game("bank")
            return
        for p in self.state.players.values():
            p.passed = False
        self.state.round = RoundState(kind="stock", number=rnd.number + 1, stock=StockRoundState())
        self.hooks.new_stock_round(self)
        self.event(RoundStarted(self.round_label()))
        self._skip_stock_turns()

    def _exchange(self, player: str, action: Exchange) -> None:
        """A private's owner exchanges it for a share of its corporation, at any time; the
        share comes free and does not count against the certificate-limit check; the
        private closes (1830: MH for NYC)."""
        state, title = self.state, self.title
        company = state.companies.get(action.company)
        if company is None or company.closed or company.owner != Owner.player(player):
            raise IllegalOrderError(f"{player} does not own the private company {action.company}")
        ability = title.company(action.company).ability("exchange")
        if ability is None:
            raise IllegalOrderError(f"{action.company} cannot be exchanged")
        sym = str(ability.data["corporation"])
        if action.source not in ability.data.get("from", ["ipo", "pool"]):
            raise IllegalOrderError(f"{action.company} is exchanged from the {' or '.join(ability.data['from'])}")
        source = IPO if action.source == "ipo" else POOL
        certs = shares.pick_certificates(state, source, sym, 1)
        if not certs:
            raise IllegalOrderError(f"there is no {sym} share in the {'IPO' if source == IPO else 'bank pool'}")
        if not shares.holding_ok(state, title, player, sym, certs[0].percent):
            raise IllegalOrderError(f"{player} may not hold more than {title.const('max_percent_per_corporation', 60)}% of {sym}")
        certs[0].owner = Owner.player(player)
        self._close_company(action.company)
        self.event(Exchanged(player, action.company, certs[0].percent, sym))
        if state.corporations[sym].ipoed:
            shares.update_president(state, title, sym, self.pending_events)

    # -- things steps ask the game to do --------------------------------------------------

    def sell_shares(self, player: str, sym: str, count: int) -> None:
        """Sell shares to the pool (see :func:`pbem.engine.steps.stock.execute_sale`)."""
        execute_sale(self, player, sym, count)

    def close_all_companies(self) -> None:
        """Every private company closes (1830: the first 5-train)."""
        for sym, company in self.state.companies.items():
            if company.closed:
                continue
            self._close_company(sym)
        self.event(PrivatesClosed())

    def close_company(self, sym: str) -> None:
        """Close private company ``sym`` (its owner loses it; a token it placed stays)."""
        self._close_company(sym)

    def _close_company(self, sym: str) -> None:
        company = self.state.companies[sym]
        if company.owner is not None and company.owner.is_player:
            self.state.players[company.owner.name].companies.remove(sym)
        company.closed = True
        company.owner = None

    def after_train_bought(self, corp: str) -> None:
        """A private that closes when its corporation buys a train (1830: BO with the B&O)."""
        for sym, company in self.state.companies.items():
            if company.closed:
                continue
            ability = self.title.company(sym).ability("close_on_train")
            if ability is not None and ability.data.get("corporation") == corp:
                self._close_company(sym)
                self.event(CompanyClosed(sym))

    def check_bank(self) -> None:
        """The bank has broken when its cash is gone: the game ends after this set of
        operating rounds (1830 rules 8)."""
        if self.state.bank <= 0 and not self.state.bank_broken:
            self.state.bank_broken = True
            self.event(BankBroken())

    def bankrupt(self, player: str, corp: str) -> None:
        """``player`` cannot raise the money for ``corp``'s train (1830 rules 6.7, 8): they sell
        every share they can (largest lots first, corporations in operating order, never the
        presidency of ``corp``), the cash goes to the bank, and the game ends."""
        from pbem.engine.steps.stock import sell_problem

        state = self.state
        self.event(WentBankrupt(player))

        def key(sym: str) -> tuple[int, int, int, int, str]:
            coord = state.corporations[sym].price
            assert coord is not None
            return (-market.price_at(self.title, coord), -coord[1], coord[0], state.market[coord].index(sym), sym)

        held = [s for s in state.corporations if state.percent_of(Owner.player(player), s) and state.corporations[s].price]
        for sym in sorted(held, key=key):
            while True:
                pct = shares.share_percent(self.title, sym)
                most = state.percent_of(Owner.player(player), sym) // pct
                count = next((n for n in range(most, 0, -1) if sell_problem(self, player, sym, n) is None
                              and not (sym == corp and self._swaps_presidency(player, sym, n))), 0)
                if not count:
                    break
                execute_sale(self, player, sym, count)
        state.bank += state.players[player].cash
        state.players[player].cash = 0
        state.players[player].bankrupt = True
        self.end_game("bankrupt")

    def _swaps_presidency(self, player: str, sym: str, count: int) -> bool:
        state = self.state
        if state.corporations[sym].president != player:
            return False
        remaining = state.percent_of(Owner.player(player), sym) - count * shares.share_percent(self.title, sym)
        others = max((state.percent_of(Owner.player(p), sym) for p in state.seats if p != player), default=0)
        return remaining < others

    def end_game(self, reason: str) -> None:
        """End the game now with ``reason`` (``bank``, ``bankrupt``, ``manually_ended``)."""
        self.state.finished = True
        self.state.end_reason = reason
        self.event(GameOver(reason, tuple((p, self.player_value(p)) for p in self.state.seats)))

    def result(self) -> dict[str, int]:
        """Final (or current) value of each player: cash, shares at market, privates at face."""
        return {p: self.player_value(p) for p in self.state.seats}

    # -- reading -------------------------------------------------------------------------

    def share_price(self, sym: str) -> int | None:
        """Current share price of ``sym`` or None before par."""
        coord = self.state.corporations[sym].price
        return market.price_at(self.title, coord) if coord else None

    def player_value(self, player: str) -> int:
        """Cash plus shares at market price plus privates at face value (the final score)."""
        state = self.state
        total = state.players[player].cash
        owner = Owner.player(player)
        for cert in state.certificates:
            if cert.owner == owner:
                price = self.share_price(cert.corporation) or 0
                total += price * cert.percent // shares.share_percent(self.title, cert.corporation)
        total += sum(self.title.company(c).value for c in state.players[player].companies)
        return total

    def iter_players(self) -> Iterable[str]:
        """Players in seating order."""
        return iter(self.state.seats)
