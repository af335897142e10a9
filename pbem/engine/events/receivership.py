"""The events of receivership (:mod:`pbem.engine.receivership`): a corporation whose
president's certificate lies in the bank pool, run by the title's rules."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.events.base import Event, Money


@dataclass(frozen=True)
class PresidencyToPool(Event):
    """``corporation``'s president's certificate was sold to the bank pool: it has no
    president now and is in receivership."""

    corporation: str

    def render(self, money: Money) -> str:
        return (f"{self.corporation}'s president's certificate is in the bank pool: "
                f"{self.corporation} has no president and is in receivership")


@dataclass(frozen=True)
class ReceivershipEnded(Event):
    """``player`` takes the president's certificate of ``corporation`` from the pool."""

    player: str
    corporation: str

    def render(self, money: Money) -> str:
        return f"{self.player} becomes the president of {self.corporation}: its receivership ends"


@dataclass(frozen=True)
class ReceiverPassed(Event):
    """The receiver of ``corporation`` passes ``step`` (a step's name, ``"buy_train"``):
    the policy gave nothing the step accepted."""

    corporation: str
    step: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} (in receivership) passes {self.step.replace('_', ' ')}"
