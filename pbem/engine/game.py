"""The game: title data plus state, and the one entry point that changes it, :meth:`Game.apply`.

No I/O here: the engine never touches mail, files or templates. The current round
(:mod:`pbem.engine.rounds`) holds the title's steps and walks them to the handler that takes
an action (each step's ``{ActionType: handler}`` table). After each action the round advances
(players with nothing legal to do are passed), and a finished round gives way to the one the
title names next (:meth:`~pbem.engine.sequence.RoundSequence.next_round`).
"""

from __future__ import annotations

from typing import Iterable, Mapping

from pbem.engine.abilities import BlocksHexes, CloseOnTrain, ExchangeForShare
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
    Note,
    PrivatesClosed,
    WentBankrupt,
)
from pbem.engine.rounds import Round, StepRound, round_for
from pbem.engine.state import IPO, POOL, CompanyState, CorporationState, GameState, Owner, PlayerState, RoundKind, RoundState
from pbem.engine.step import Step
from pbem.engine.steps import operating
from pbem.engine.steps.stock import execute_sale
from pbem.engine.offers import exchange_problem
from pbem.engine.title import PhaseData, TitleData
from pbem.engine.track import RouteResult
from pbem.engine.hooks import TitleHooks
from pbem.errors import IllegalOrderError

ROUND_NAMES: dict[str, str] = {RoundKind.AUCTION: "Private auction", RoundKind.STOCK: "Stock round",
                               RoundKind.OPERATING: "Operating round"}

_KEYED_CACHES = ("network", "legal_lays", "best_run")
"""The entries of :attr:`Game.cache` a copy of the game keeps: each is stored with a key of
all it depends on and checked against it at each use."""


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
        round=RoundState(kind=RoundKind.AUCTION),
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
        self.operating_steps: tuple[type[operating.OpStep], ...] = self.hooks.sequence.operating_steps()
        """The operating round's steps in order, from the title (its ``operating_steps``)."""
        self.probing = False
        """True on a copy made to check whether an action would be accepted."""
        self.board: MapData = title.board
        self.tiles: Mapping[str, TileData] = title.tiles
        self.state = new_state(title, players)
        self.state.title_state = self.hooks.sequence.new_title_state()
        self.pending_events: list[Event] = []
        self.turn_over = False
        self.last_run: list[RouteResult] = []
        """The run the last order applied made itself (none if it ran nothing)."""
        self.last_events: list[Event] = []
        """What the last order applied did (the events :meth:`apply` returned)."""
        self.cache: dict[object, tuple[object, object]] = {}
        """Derived data (track graph, networks) keyed by what it was derived from."""
        self.rounds: dict[tuple[str, TitleHooks], Round] = {}
        """The round objects made so far (:attr:`round`), shared with copies of the game."""
        self.begin_round(self.hooks.sequence.first_round(self))

    def __deepcopy__(self, memo: dict[int, object]) -> Game:
        """A copy with its own state; the immutable title, map and tile data are shared."""
        twin = Game.__new__(Game)
        twin.title, twin.board, twin.tiles, twin.hooks = self.title, self.board, self.tiles, self.hooks
        twin.operating_steps, twin.rounds = self.operating_steps, self.rounds
        twin.probing = self.probing
        twin.state = self.state.copy()
        twin.pending_events = []
        twin.turn_over = False
        twin.last_run = list(self.last_run)
        twin.last_events = list(self.last_events)
        # the track graph is immutable (pbem.engine.graph): the twin starts from it, and from
        # the networks, legal lays and best runs found (each kept against a key of all it
        # depends on and checked at each use, so one the twin's changes outdate is not used)
        twin.cache = {key: value for key, value in self.cache.items()
                      if key == "track_graph" or (isinstance(key, tuple) and key[0] in _KEYED_CACHES)}
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

    @property
    def round(self) -> Round:
        """The current round's object (its steps from the title), made once per kind."""
        kind = self.state.round.kind
        key = (kind, self.hooks)  # a test may hand the game other hooks before it starts
        found = self.rounds.get(key)
        if found is None:
            found = self.rounds[key] = round_for(self, kind)
        return found

    def active_step(self) -> type[Step] | None:
        """The first active step of the current round, or None (and None in an operating
        round, whose steps are in :mod:`pbem.engine.steps.operating`)."""
        rnd = self.round
        if self.state.finished or not isinstance(rnd, StepRound):
            return None
        return rnd.active_step(self)

    def current_actors(self) -> list[str]:
        """The players who may act now: empty when the game has ended, and never the
        receiver of a corporation without a president (:mod:`pbem.engine.receivership`),
        whose steps the game takes by itself."""
        return [] if self.state.finished else self.round.actors(self)

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
            ability = self.title.company(sym).ability(BlocksHexes)
            if ability is not None and coord in ability.hexes:
                return sym
        return None

    def operating_corporation(self) -> str | None:
        """The corporation operating now, or None outside an operating round."""
        if self.state.round.kind != RoundKind.OPERATING or self.state.finished:
            return None
        return operating.current_corp(self)

    def round_label(self) -> str:
        """``"Private auction"``, ``"SR 2"``, ``"OR 1.2"``."""
        rnd = self.state.round
        if rnd.kind == RoundKind.STOCK:
            return f"SR {rnd.number}"
        if rnd.kind == RoundKind.OPERATING:
            return f"OR {rnd.number}.{rnd.or_number}"
        return ROUND_NAMES.get(rnd.kind, rnd.kind.replace("_", " ").capitalize())

    def waiting_for(self) -> str:
        """One line: who must act and what for (``"Player 2: bid on the private companies"``)."""
        if self.state.finished:
            return f"The game is over ({self.state.end_reason})."
        return self.round.waiting_for(self)

    def legal_actions(self, player: str) -> list[Action]:
        """Every legal action for ``player`` now (bids and prices at their minimum), [] if not
        their turn, from the current round (:meth:`Round.legal_actions`). In an operating
        round: what the steps' own checks accept (one ``RUN AUTO`` stands for every run of
        the trains)."""
        if self.state.finished:
            return []
        return self.round.legal_actions(self, player)

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
                self.last_events = events
                return events
            if isinstance(action, RunAuto):
                action, notes = routes.resolve_auto(self, action)
                self.pending_events.extend(Note(note) for note in notes)
            rnd = self.round
            self.last_run = []
            rnd.process(self, player, action)
            own_run = self.last_run  # the order's own run: not a receiver's that follows in the walk
            self.check_bank()  # any payment may break it (a stock-round sale too)
            closing.settle_market(self)
            self._follow_rounds(not self.state.finished and rnd.advance(self, player))
            if rnd.settles_late and closing.settle_market(self) and not self.state.finished:
                self._follow_rounds(self.round.after_closing(self))
        except Exception:
            if backup is not None:
                self.state.__dict__.update(backup.__dict__)  # same object: callers keep their reference
            raise
        events, self.pending_events = self.pending_events, []
        self.last_events = events
        self.last_run = own_run
        return events

    # -- the sequence of rounds ------------------------------------------------------------

    def operating_order(self) -> list[str]:
        """The floated corporations in operating order: the title's
        (:meth:`~pbem.engine.sequence.RoundSequence.operating_order`; 1830: highest share price first)."""
        return self.hooks.sequence.operating_order(self)

    def begin_round(self, round_state: RoundState) -> None:
        """Enter the round ``round_state`` names (its kind and numbers) and set it up; if it is
        over at once, the rounds that follow are entered as the title orders them."""
        self.state.round = round_state
        self._follow_rounds(self.round.begin(self))

    def _follow_rounds(self, over: bool) -> None:
        """While the current round is ``over``: it finishes, and the title's next round
        (:meth:`~pbem.engine.sequence.RoundSequence.next_round`) begins, until one waits for a player or the game ends.

        A whole set of rounds (stock round to stock round) in which no player may act and
        after which the game is as it was (the round aside; e.g. every corporation has closed
        on the market and none may be started: nobody may buy and nothing operates) would
        follow alike for ever: the game ends then, reason ``stalled``."""
        set_began: GameState | None = None
        while over and not self.state.finished:
            self.round.finish(self)
            if self.state.finished:
                return
            following = self.hooks.sequence.next_round(self, self.state.round)
            if following is None:
                return
            if following.kind == RoundKind.STOCK:
                now = self._without_round()
                if set_began is not None and now == set_began:
                    self.end_game("stalled")
                    return
                set_began = now
            self.state.round = following
            over = self.round.begin(self)

    def _without_round(self) -> GameState:
        """A copy of the state with the round left out (for :meth:`_follow_rounds`)."""
        found = self.state.copy()
        found.round = RoundState(kind="")
        return found

    def _exchange(self, player: str, action: Exchange) -> None:
        """A private's owner exchanges it for a share of its corporation, at any time; the
        share comes free and does not count against the certificate-limit check; the
        private closes (1830: MH for NYC)."""
        problem = exchange_problem(self, player, action)
        if problem:
            raise IllegalOrderError(problem)
        state, title = self.state, self.title
        ability = title.company(action.company).ability(ExchangeForShare)
        assert ability is not None
        sym = ability.corporation
        certs = shares.pick_certificates(state, IPO if action.source == "ipo" else POOL, sym, 1)
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
            ability = self.title.company(sym).ability(CloseOnTrain)
            if ability is not None and ability.corporation == corp:
                self._close_company(sym)
                self.event(CompanyClosed(sym))

    def check_bank(self) -> None:
        """Whether the bank has broken, as the title says (:meth:`~pbem.engine.sequence.RoundSequence.bank_broken`;
        1830: its cash is gone), noted and announced once, after every order and within one
        where a payment is followed by more; the title's
        :meth:`~pbem.engine.sequence.RoundSequence.next_round` then ends the game (1830 rules 8: after this set of
        operating rounds)."""
        if not self.state.bank_broken and self.hooks.sequence.bank_broken(self):
            self.state.bank_broken = True
            self.event(BankBroken(self.hooks.sequence.bank_broken_ends(self)))

    def bankrupt(self, player: str, corp: str) -> None:
        """``player`` cannot raise the money for ``corp``'s train (1830 rules 6.7, 8): they sell
        every share they can (largest lots first, corporations in operating order, never the
        presidency of ``corp``, none of a corporation sold in blocks already this turn), the
        cash goes to the bank, and the game ends."""
        from pbem.engine.steps.operating import buytrains
        from pbem.engine.steps.stock import sell_problem

        state = self.state
        self.event(WentBankrupt(player))

        def key(sym: str) -> tuple[int, int, int, int, str]:
            coord = state.corporations[sym].price
            assert coord is not None
            return (-market.price_at(self.title, coord), -coord[1], coord[0], state.market[coord].index(sym), sym)

        blocked = buytrains.blocked_sales(self)
        held = [s for s in state.corporations if state.percent_of(Owner.player(player), s) and state.corporations[s].price
                and s not in blocked]
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
        """End the game now with ``reason`` (``bank``, ``bankrupt``, ``manually_ended``,
        ``stalled``: :meth:`_follow_rounds`)."""
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
                total += shares.certificate_price(self.title, cert.corporation, cert.percent, price)
        total += sum(self.title.company(c).value for c in state.players[player].companies)
        return total

    def iter_players(self) -> Iterable[str]:
        """Players in seating order."""
        return iter(self.state.seats)
