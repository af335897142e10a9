"""The variant's own events (see :mod:`pbem.engine.events`): each renders its own report line."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.events import Event, Money


@dataclass(frozen=True)
class Designated(Event):
    """``player``, owner of ``company``, gives its power to ``corporation``."""

    player: str
    company: str
    corporation: str

    def render(self, money: Money) -> str:
        return f"{self.player} gives the power of {self.company} to {self.corporation}"


@dataclass(frozen=True)
class PowerUsed(Event):
    """``corporation`` uses the power of ``company`` on ``hex``; ``cost`` is what it paid."""

    corporation: str
    company: str
    hex: str
    cost: int = 0

    def render(self, money: Money) -> str:
        paid = f", paying {money(self.cost)}" if self.cost else ", free"
        return f"{self.corporation} uses the power of {self.company} on {self.hex}{paid}"


@dataclass(frozen=True)
class AuctionTurn(Event):
    """In the auction of ``company`` among its bidders, ``player`` is next to raise or pass."""

    company: str
    player: str

    def render(self, money: Money) -> str:
        return f"{self.player} is next to raise or pass on {self.company}"
