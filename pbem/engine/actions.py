"""Typed actions: what a player (or the president acting for a corporation) does.

Actions are frozen, slotted value objects validated when built; they hold symbols, never
state. Each has ``to_dict()`` and :func:`action_from_dict` for the action log, and the order
language (:mod:`pbem.orders`) formats and parses them as order lines.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from types import MappingProxyType
from typing import Any, ClassVar, Literal, Mapping

from pbem.engine.values import DividendChoice

ShareSource = Literal["ipo", "pool"]


def _positive(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions; ``kind`` names the type in the log."""

    kind: ClassVar[str] = "action"
    gm_only: ClassVar[bool] = False
    """Only the GM may give this order (a ruling), for whichever seat they act as."""
    named: ClassVar[str] = ""
    """How a refusal names the action where its kind does not read as the order a player
    wrote (Lorenz's ``designate`` is ``ASSIGN``); empty: the kind, spaced (``buy shares``)."""

    @property
    def spoken(self) -> str:
        """The action's name in a refusal: :attr:`named`, or the kind with blanks."""
        return self.named or self.kind.replace("_", " ")

    def to_dict(self) -> dict[str, Any]:
        """``{"type": kind, **fields}`` — JSON-ready."""
        return {"type": self.kind, **asdict(self)}


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Pass (in the auction: decline to act or leave an auction; in a stock round: end the turn)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Bid(Action):
    """Bid ``price`` on private company ``company`` (1830 rules 4.2, waterfall auction).

    A bid on the cheapest unsold private at or above its price buys it at once.
    """

    kind: ClassVar[str] = "bid"
    company: str
    price: int

    def __post_init__(self) -> None:
        _positive("price", self.price)


@dataclass(frozen=True, slots=True)
class BuyPrivate(Action):
    """Buy a private company: in the auction, the cheapest unsold one at its current price
    (``price`` None; 1830 rules 4.2); in an operating round, the operating corporation buys
    one from a player for ``price`` (half to twice face value; 1830 rules 6.10)."""

    kind: ClassVar[str] = "buy_private"
    company: str
    price: int | None = None

    def __post_init__(self) -> None:
        if self.price is not None:
            _positive("price", self.price)


@dataclass(frozen=True, slots=True)
class Par(Action):
    """Start corporation ``corporation`` at par ``price``, buying its president's certificate."""

    kind: ClassVar[str] = "par"
    corporation: str
    price: int

    def __post_init__(self) -> None:
        _positive("price", self.price)


@dataclass(frozen=True, slots=True)
class BuyShares(Action):
    """Buy ``count`` shares of ``corporation`` from the IPO or the bank pool."""

    kind: ClassVar[str] = "buy_shares"
    corporation: str
    source: ShareSource = "ipo"
    count: int = 1

    def __post_init__(self) -> None:
        _positive("count", self.count)
        if self.source not in ("ipo", "pool"):
            raise ValueError(f"source must be 'ipo' or 'pool', not {self.source!r}")


@dataclass(frozen=True, slots=True)
class SellShares(Action):
    """Sell ``count`` shares (of the normal share size) of ``corporation`` to the bank pool."""

    kind: ClassVar[str] = "sell_shares"
    corporation: str
    count: int = 1

    def __post_init__(self) -> None:
        _positive("count", self.count)


@dataclass(frozen=True, slots=True)
class LayTile(Action):
    """Lay or upgrade to tile ``tile`` on ``hex`` turned by ``rotation`` (0-5) (1830 rules 6.2);
    ``using`` names a private company whose ability allows the lay (1830: CS, DH)."""

    kind: ClassVar[str] = "lay_tile"
    hex: str
    tile: str
    rotation: int
    using: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.rotation, int) or not 0 <= self.rotation <= 5:
            raise ValueError(f"rotation must be 0 to 5, not {self.rotation!r}")


@dataclass(frozen=True, slots=True)
class PlaceToken(Action):
    """Place a station token in city ``city`` (index on the tile, 0 for most) of ``hex``
    (1830 rules 6.3)."""

    kind: ClassVar[str] = "place_token"
    hex: str
    city: int = 0
    using: str | None = None


@dataclass(frozen=True, slots=True)
class TrainRun:
    """One train's run: the train type and the stops in order (``"F20"`` or ``"F20.1"``
    for the second city on a hex); ``joined``: the types of further trains run with it as
    one (double-heading, where the title's ``double_heading`` allows it; see
    :mod:`pbem.engine.heading`)."""

    train: str
    stops: tuple[str, ...]
    joined: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RunRoutes(Action):
    """Run the operating corporation's trains (1830 rules 6.5)."""

    kind: ClassVar[str] = "run_routes"
    runs: tuple[TrainRun, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"type": self.kind, "runs": [{"train": r.train, "stops": list(r.stops)}
                                            | ({"with": list(r.joined)} if r.joined else {}) for r in self.runs]}


@dataclass(frozen=True, slots=True)
class RunAuto(Action):
    """Run the operating corporation's trains for the best revenue the server finds
    (:mod:`pbem.engine.routes`). The server turns it into the :class:`RunRoutes` it found
    before the order is logged, so the log keeps the run itself."""

    kind: ClassVar[str] = "run_auto"


@dataclass(frozen=True, slots=True)
class Dividend(Action):
    """Pay the revenue out to the shareholders, pay half (titles that allow it, 1870), or
    withhold it (1830 rules 6.6)."""

    kind: ClassVar[str] = "dividend"
    choice: DividendChoice

    def __post_init__(self) -> None:
        """A choice read as text (a log record) becomes the enum.

        :raises ValueError: not payout, half or withhold."""
        try:
            object.__setattr__(self, "choice", DividendChoice(self.choice))
        except ValueError:
            raise ValueError(f"choice must be payout, half or withhold, not {self.choice!r}") from None


@dataclass(frozen=True, slots=True)
class BuyTrain(Action):
    """Buy a train of type ``train`` from ``source`` (``"depot"``, ``"pool"`` or a
    corporation's symbol) for ``price`` (None: the printed price), optionally trading in a
    train of type ``exchange`` (1830 rules 6.7)."""

    kind: ClassVar[str] = "buy_train"
    train: str
    source: str = "depot"
    price: int | None = None
    exchange: str | None = None

    def __post_init__(self) -> None:
        if self.price is not None:
            _positive("price", self.price)


@dataclass(frozen=True, slots=True)
class DiscardTrain(Action):
    """Discard a train of type ``train`` to the bank pool (over the train limit)."""

    kind: ClassVar[str] = "discard_train"
    train: str


@dataclass(frozen=True, slots=True)
class Assign(Action):
    """Place private ``company``'s token on ``hex`` (1870: the SCC cattle token, the GSC port
    token; the port's second use on its hex closes the port)."""

    kind: ClassVar[str] = "assign"
    company: str
    hex: str


@dataclass(frozen=True, slots=True)
class Exchange(Action):
    """Exchange private ``company`` for a share of its corporation from the IPO or the pool
    (1830: MH for a 10% NYC share, any time; the private closes)."""

    kind: ClassVar[str] = "exchange"
    company: str
    source: ShareSource = "ipo"


@dataclass(frozen=True, slots=True)
class Bankrupt(Action):
    """Declare bankruptcy: the president cannot raise the money for a required train."""

    kind: ClassVar[str] = "bankrupt"


ACTION_TYPES: Mapping[str, type[Action]] = MappingProxyType({
    cls.kind: cls
    for cls in (Pass, Bid, BuyPrivate, Par, BuyShares, SellShares, LayTile, PlaceToken, RunRoutes, RunAuto,
                Dividend, BuyTrain, DiscardTrain, Exchange, Assign, Bankrupt)
})
"""The core's action types by ``kind``, as the log names them (read-only). A title's own
actions are not here: a reader passes them (:attr:`pbem.order_codecs.Vocabulary.action_types`)."""


def action_from_dict(data: dict[str, Any], types: Mapping[str, type[Action]] | None = None) -> Action:
    """Inverse of :meth:`Action.to_dict`. ``types`` (kind -> class) are read beside
    :data:`ACTION_TYPES`: the title's own actions
    (:attr:`pbem.order_codecs.Vocabulary.action_types`); without them only the core's are read.

    :raises ValueError: unknown ``type`` or bad fields.
    """
    try:
        cls = (types or {}).get(data["type"]) or ACTION_TYPES[data["type"]]
    except KeyError:
        raise ValueError(f"unknown action type in {data!r}") from None
    if cls is RunRoutes:
        runs = tuple(TrainRun(str(r["train"]), tuple(r["stops"]), tuple(str(t) for t in r.get("with", ())))
                     for r in data["runs"])
        return RunRoutes(runs)
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ValueError(f"unexpected fields {sorted(extra)} for {cls.kind}")
    return cls(**{k: v for k, v in data.items() if k != "type"})
