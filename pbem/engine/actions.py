"""Typed actions: what a player (or the president acting for a corporation) does.

Actions are frozen, slotted value objects validated when built; they hold symbols, never
state. Each has ``to_dict()`` and :func:`action_from_dict` for the action log, and the order
language (:mod:`pbem.orders`) formats and parses them as order lines.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar, Literal

ShareSource = Literal["ipo", "pool"]


def _positive(name: str, value: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{name} must be a positive whole number, not {value!r}")


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions; ``kind`` names the type in the log."""

    kind: ClassVar[str] = "action"

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
    """Buy the cheapest unsold private company at its current price (1830 rules 4.2)."""

    kind: ClassVar[str] = "buy_private"
    company: str


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


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls for cls in (Pass, Bid, BuyPrivate, Par, BuyShares, SellShares)
}


def action_from_dict(data: dict[str, Any]) -> Action:
    """Inverse of :meth:`Action.to_dict`.

    :raises ValueError: unknown ``type`` or bad fields.
    """
    try:
        cls = ACTION_TYPES[data["type"]]
    except KeyError:
        raise ValueError(f"unknown action type in {data!r}") from None
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ValueError(f"unexpected fields {sorted(extra)} for {cls.kind}")
    return cls(**{k: v for k, v in data.items() if k != "type"})
