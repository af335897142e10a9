"""Game state: typed, mutable dataclasses that the rules functions change.

The state is always the replay of the action log; it is never stored as the truth. Who holds
a certificate or a private company is an :class:`~pbem.engine.values.Owner` (a player, a
corporation, ``IPO`` or ``POOL``): an immutable value the state's copies share.
"""

from __future__ import annotations

import copy as _copy
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, TypeVar

from pbem.engine.ids import TrainId
from pbem.engine.values import IPO, POOL, CityRef, DisplacedToken, Owner, PrivateToken, Vertex

if TYPE_CHECKING:
    from pbem.engine.title import TitleData

_T = TypeVar("_T")

__all__ = ["IPO", "POOL", "Owner"]  # re-exported: the owners the rules modules use with the state


def _shallow(obj: _T) -> _T:
    """A new object of ``obj``'s class with the same attribute values (no ``__init__`` run)."""
    new = object.__new__(type(obj))
    new.__dict__ = obj.__dict__.copy()
    return new


@dataclass
class Certificate:
    """One share certificate of a corporation: ``percent`` of it, owned by ``owner``."""

    corporation: str
    index: int
    percent: int
    president: bool
    owner: Owner

    def copy(self) -> Certificate:
        """An independent copy."""
        return _shallow(self)


@dataclass(frozen=True)
class ShareSale:
    """One sale of shares to the bank pool: ``count`` certificates of ``corporation`` sold by
    ``seller`` at ``price`` each (money, an int); ``president`` is the corporation's president
    before the sale (None if it had none). A title that delays the price drop keeps these
    (1870's price protection)."""

    corporation: str
    count: int
    seller: str
    president: str | None
    price: int


@dataclass
class TitleState:
    """The base of a title's own part of the game state (``GameState.title_state``): a title
    whose rules need fields the core does not have subclasses this (1870: ``State1870``) and
    returns a fresh one from ``RoundSequence.new_title_state``. The core's share rules ask it the
    few questions below; the base answers as 1830 does.

    It must copy with the rest of the state (:meth:`GameState.copy`): plain data only, no
    references into other parts of the state.
    """

    def withheld(self, cert: Certificate) -> bool:
        """Whether ``cert``, lying in the IPO, is held back: out of the market (not for sale)
        and counted as sold for the sold-out rise (1870: a redeemed share). Base: never."""
        return False

    def incremental(self, title: TitleData, sym: str) -> bool:
        """Whether a share of ``sym`` sold from its IPO pays the corporation although the
        title's ``capitalization`` is full (1870: after a reissue). Base: never."""
        return False

    def uncounted(self, state: GameState, title: TitleData) -> frozenset[str]:
        """Corporations whose certificates do not count against the certificate limit now
        for a reason of the title's own, beyond the market zones (1870: a sale waiting for
        price protection whose drop reaches such a zone). Base: none."""
        return frozenset()

    def copy(self) -> TitleState:
        """An independent copy (for :meth:`GameState.copy`): a deep copy here; a title with
        many fields overrides it with a structural copy."""
        return _copy.deepcopy(self)


@dataclass
class PlayerState:
    """A player: ``cash`` in the title's currency; private companies held by symbol."""

    name: str
    cash: int
    companies: list[str] = field(default_factory=list)
    passed: bool = False
    bankrupt: bool = False

    def copy(self) -> PlayerState:
        """An independent copy."""
        new = _shallow(self)
        new.companies = self.companies[:]
        return new


@dataclass
class CorporationState:
    """A corporation's changing facts.

    ``price`` and ``par`` are market coordinates (row, column) or None before par.
    ``president`` is the player holding the president's certificate, or None.
    """

    sym: str
    cash: int = 0
    par: tuple[int, int] | None = None
    price: tuple[int, int] | None = None
    ipoed: bool = False
    floated: bool = False
    president: str | None = None
    closed: bool = False
    operated: bool = False
    trains: list[TrainId] = field(default_factory=list)
    last_revenue: int | None = None
    last_choice: str | None = None

    def copy(self) -> CorporationState:
        """An independent copy."""
        new = _shallow(self)
        new.trains = self.trains[:]
        return new


@dataclass
class CompanyState:
    """A private company: ``owner`` is a player or a corporation, or None while unsold."""

    sym: str
    owner: Owner | None = None
    discount: int = 0
    closed: bool = False

    def copy(self) -> CompanyState:
        """An independent copy."""
        return _shallow(self)


@dataclass
class AuctionState:
    """The waterfall auction of the private companies (1830 rules 4.2).

    ``available`` lists the unsold companies cheapest first; ``bids`` maps a company to its
    bids ``[(player, price)]`` in the order placed; ``auctioning`` is the company being
    auctioned among its bidders, if any; ``pending_par`` lists companies whose president's
    certificate awaits a par price from their owner.
    """

    available: list[str]
    cheapest: str
    bids: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    bidders: dict[str, list[str]] = field(default_factory=dict)
    auctioning: str | None = None
    pending_par: list[str] = field(default_factory=list)

    def copy(self) -> AuctionState:
        """An independent copy."""
        new = _shallow(self)
        new.available = self.available[:]
        new.bids = {k: v[:] for k, v in self.bids.items()}
        new.bidders = {k: v[:] for k, v in self.bidders.items()}
        new.pending_par = self.pending_par[:]
        return new


@dataclass
class StockRoundState:
    """Per-stock-round bookkeeping (1830 rules 5).

    ``sold`` maps a player to the corporations they sold this round (they may not buy those
    again this round); ``turn_actions`` lists the kinds of action taken in the current turn.
    """

    sold: dict[str, list[str]] = field(default_factory=dict)
    turn_actions: list[str] = field(default_factory=list)
    turn_buys: list[str] = field(default_factory=list)
    turn_sells: list[str] = field(default_factory=list)
    bought_from_ipo: bool = False
    last_to_act: str | None = None
    turns: int = 0
    """How many turns of the round have ended (a deal offered stands in one turn)."""

    def copy(self) -> StockRoundState:
        """An independent copy."""
        new = _shallow(self)
        new.sold = {k: v[:] for k, v in self.sold.items()}
        new.turn_actions = self.turn_actions[:]
        new.turn_buys = self.turn_buys[:]
        new.turn_sells = self.turn_sells[:]
        return new


@dataclass
class OperatingState:
    """One operating round: the corporations in operating order (fixed when it starts), the
    one operating now, and what it has done this turn (1830 rules 6)."""

    order: list[str]
    index: int = 0
    passed_steps: list[str] = field(default_factory=list)
    tiles_laid: int = 0
    upgraded: bool = False
    laid_hexes: list[str] = field(default_factory=list)
    token_placed: bool = False
    revenue: int | None = None
    routes: list[list[Vertex]] = field(default_factory=list)
    trains_bought: int = 0
    sale_price: int | None = None
    """The price of one share in the president's last sale this turn for a train due
    (emergency money), or None."""
    sold: list[str] = field(default_factory=list)
    """The corporations whose shares the president sold this turn for a train due."""
    no_upgrade_hexes: list[str] = field(default_factory=list)

    def copy(self) -> OperatingState:
        """An independent copy."""
        new = _shallow(self)
        new.order = self.order[:]
        new.passed_steps = self.passed_steps[:]
        new.laid_hexes = self.laid_hexes[:]
        new.routes = [r[:] for r in self.routes]
        new.no_upgrade_hexes = self.no_upgrade_hexes[:]
        new.sold = self.sold[:]
        return new


class RoundKind(StrEnum):
    """The core's kinds of round (1830 rules 4-6): the private auction, a stock round, an
    operating round. A title's own kinds are strings of its own (1825's start)."""

    AUCTION = "auction"
    STOCK = "stock"
    OPERATING = "operating"


@dataclass
class RoundState:
    """Which round is on: ``kind`` is a :class:`RoundKind` of the core, or a title's own kind
    (a ``str``; its steps are named by the title data's ``round_steps``).

    ``entity_index`` points into :attr:`GameState.order`; ``number`` is the stock-round number
    (the "turn") and ``or_number`` the operating round within the set.
    """

    kind: str
    number: int = 1
    or_number: int = 0
    entity_index: int = 0
    auction: AuctionState | None = None
    stock: StockRoundState | None = None
    operating: OperatingState | None = None

    def copy(self) -> RoundState:
        """An independent copy."""
        new = _shallow(self)
        new.auction = self.auction.copy() if self.auction is not None else None
        new.stock = self.stock.copy() if self.stock is not None else None
        new.operating = self.operating.copy() if self.operating is not None else None
        return new


@dataclass
class GameState:
    """The whole game at one moment.

    ``order`` is the players' names in the current priority order (the priority deal holder
    first, then clockwise); ``seats`` the fixed seating order. ``market`` maps a cell
    ``(row, col)`` to the corporations on it, oldest arrival first (it decides operating order).
    """

    seats: list[str]
    order: list[str]
    players: dict[str, PlayerState]
    bank: int
    corporations: dict[str, CorporationState]
    companies: dict[str, CompanyState]
    certificates: list[Certificate]
    market: dict[tuple[int, int], list[str]]
    round: RoundState
    phase: str = ""
    operating_rounds: int = 1
    depot: list[TrainId] = field(default_factory=list)
    pool_trains: list[TrainId] = field(default_factory=list)
    types_sold: list[str] = field(default_factory=list)
    tiles: dict[str, tuple[str, int]] = field(default_factory=dict)
    tokens: dict[CityRef, list[str]] = field(default_factory=dict)
    """Station tokens on the map: each city -> the corporations in its slots, in order."""
    used_abilities: list[str] = field(default_factory=list)
    assignments: dict[str, PrivateToken] = field(default_factory=dict)
    """Private companies' tokens on the map, by company."""
    pending_teleport: str | None = None
    pending_tokens: list[DisplacedToken] = field(default_factory=list)
    bank_broken: bool = False
    finished: bool = False
    end_reason: str | None = None
    title_state: TitleState = field(default_factory=TitleState)
    """The title's own fields (see :class:`TitleState`; the hooks' ``new_title_state``)."""
    map_pieces: dict[str, list[str]] = field(default_factory=dict)
    """Corporation -> the hexes of its map pieces that gate its track lays (the title data's
    ``gating_pieces``, 1829's survey parties; :mod:`pbem.engine.pieces`)."""

    def copy(self) -> GameState:
        """An independent copy, for applying an action all-or-nothing: a structural copy,
        each part copied by its own ``copy`` (strings, numbers, tuples and frozen values are
        shared, being immutable). Every field of the state's classes must be copied here or
        in their ``copy``: tests/test_state_copy.py checks that no mutable part is shared."""
        new = _shallow(self)
        new.seats = self.seats[:]
        new.order = self.order[:]
        new.players = {k: v.copy() for k, v in self.players.items()}
        new.corporations = {k: v.copy() for k, v in self.corporations.items()}
        new.companies = {k: v.copy() for k, v in self.companies.items()}
        new.certificates = [_shallow(c) for c in self.certificates]  # Certificate.copy, inlined
        new.market = {k: v[:] for k, v in self.market.items()}
        new.round = self.round.copy()
        new.depot = self.depot[:]
        new.pool_trains = self.pool_trains[:]
        new.types_sold = self.types_sold[:]
        new.tiles = dict(self.tiles)
        new.tokens = {k: v[:] for k, v in self.tokens.items()}
        new.used_abilities = self.used_abilities[:]
        new.assignments = dict(self.assignments)
        new.pending_tokens = self.pending_tokens[:]
        new.title_state = self.title_state.copy()
        new.map_pieces = {k: v[:] for k, v in self.map_pieces.items()}
        return new

    def certs_of(self, owner: Owner, corporation: str | None = None) -> list[Certificate]:
        """Certificates held by ``owner`` (optionally of one corporation)."""
        return [
            c
            for c in self.certificates
            if c.owner == owner and (corporation is None or c.corporation == corporation)
        ]

    def percent_of(self, owner: Owner, corporation: str) -> int:
        """Percent of ``corporation`` that ``owner`` holds."""
        return sum(c.percent for c in self.certificates if c.corporation == corporation and c.owner == owner)
