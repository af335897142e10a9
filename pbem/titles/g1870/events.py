"""1870's own events (see :mod:`pbem.engine.events`): redemption and reissue, price
protection, destinations and connection runs, the GM's OUTOFORDER ruling. Each renders its own report line, so the
reports know nothing of 1870.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.events import Event, Money


def _shares(count: int) -> str:
    return f"{count} share{'s' if count > 1 else ''}"


@dataclass(frozen=True)
class Redeemed(Event):
    """``corporation`` (its president ``player`` acting) buys back a ``percent`` share for
    ``price`` from player ``payee``, or (None) from the bank pool (1870 rules: redemption)."""

    corporation: str
    player: str
    percent: int
    payee: str | None
    price: int

    def render(self, money: Money) -> str:
        return (f"{self.corporation} ({self.player}) redeems a {self.percent}% share from "
                f"{self.payee or 'the market'} for {money(self.price)}")


@dataclass(frozen=True)
class Reissued(Event):
    """``corporation`` (``player`` acting) puts ``count`` treasury shares on sale again."""

    corporation: str
    player: str
    count: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} ({self.player}) reissues {_shares(self.count)}"


@dataclass(frozen=True)
class ParChanged(Event):
    """``corporation``'s par price becomes ``price`` (after a reissue)."""

    corporation: str
    price: int

    def render(self, money: Money) -> str:
        return f"{self.corporation}'s par price is now {money(self.price)}"


@dataclass(frozen=True)
class PriceProtected(Event):
    """``player`` buys the ``count`` sold shares of ``corporation`` for ``cost`` in all."""

    player: str
    count: int
    corporation: str
    cost: int

    def render(self, money: Money) -> str:
        return f"{self.player} price protects {_shares(self.count)} of {self.corporation} for {money(self.cost)}"


@dataclass(frozen=True)
class NotProtected(Event):
    """``president`` (None: nobody) does not protect the ``count`` shares of ``corporation``
    sold; ``forced``: could not."""

    president: str | None
    count: int
    corporation: str
    forced: bool

    def render(self, money: Money) -> str:
        verb = "can't" if self.forced else "does not"
        return f"{self.president or 'nobody'} {verb} price protect {_shares(self.count)} of {self.corporation}"


@dataclass(frozen=True)
class DestinationReached(Event):
    """``corporation`` has connected to its ``destination`` hex (``ruling``: by the GM's
    ruling)."""

    corporation: str
    destination: str | None
    ruling: bool = False

    def render(self, money: Money) -> str:
        by = "GM ruling: " if self.ruling else ""
        return f"-- {by}{self.corporation} has connected to its destination {self.destination} --"


@dataclass(frozen=True)
class DestinationTokenPlaced(Event):
    """``corporation`` places its destination token on ``destination``, or (``value`` given)
    keeps it on the charter as a spare token of that value, giving up the bonus."""

    corporation: str
    destination: str
    value: int | None = None

    def render(self, money: Money) -> str:
        if self.value is None:
            return (f"{self.corporation} places its destination token on {self.destination}; runs starting or "
                    f"ending there count it twice")
        return (f"{self.corporation} keeps its destination token on the charter (a spare "
                f"{money(self.value)} token), giving up the bonus")


@dataclass(frozen=True)
class NoConnectionRun(Event):
    """``corporation``'s connection was granted, but none of its trains reaches."""

    corporation: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} has no train that reaches its destination: no connection run"


@dataclass(frozen=True)
class OutOfOrderRuled(Event):
    """The GM has ruled that ``corporation`` may be started now, out of the Historical Order
    Start's order, where it was waiting for ``waiting_for`` (issue 13; mail review #9)."""

    corporation: str
    waiting_for: str

    def render(self, money: Money) -> str:
        return (f"-- GM ruling: {self.corporation} may be started now, out of the historical order "
                f"(it was waiting for {self.waiting_for}) --")
