"""The packets (the variant's "Private Railways and Packets"): private companies that are
bought in stock rounds in place of a share, the cheapest first, those of one price together,
once every private railway has been sold (Dirk Clemens' summary of 1829: "then packets can be
bought in stock rounds as an alternative to shares"). A packet pays its owner its revenue
like any private company, and a company with a station in the packet's port earns the
packet's ``income`` at the start of each of its operating turns while the packet is owned
(his program notes: "a station in a packet port earns the company £40 each operating round
at the start of its turn"; this game reads "while owned": an unsold or closed packet earns
nobody anything).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Sequence

from pbem.engine.abilities import Ability
from pbem.engine.events.base import Event, Money

if TYPE_CHECKING:
    from pbem.engine.game import Game


@dataclass(frozen=True)
class Packet(Ability):
    """The company is a packet sailing from ``port`` (a hex): a company with a station there
    earns ``income`` (money) at the start of each of its operating turns while the packet is
    owned."""

    kind: ClassVar[str] = "packet"
    port: str = ""
    income: int = 40


@dataclass(frozen=True)
class PortIncome(Event):
    """``corporation`` earns ``amount`` from ``packet`` for its station in ``port``."""

    corporation: str
    packet: str
    port: str
    amount: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} earns {money(self.amount)} from the {self.packet} packet (station in {self.port})"


def packets(game: Game) -> list[str]:
    """The packets of the game, in the listed order."""
    return [c.sym for c in game.title.companies if c.ability(Packet) is not None]


def cheapest_unsold(game: Game, candidates: Sequence[str]) -> list[str]:
    """Those of ``candidates`` the bank still holds that share the lowest face value: the
    companies on offer ("where the companies have the same price they are offered
    simultaneously")."""
    state = game.state
    unsold = [s for s in candidates if state.companies[s].owner is None and not state.companies[s].closed]
    if not unsold:
        return []
    low = min(game.title.company(s).value for s in unsold)
    return [s for s in unsold if game.title.company(s).value == low]


def pay_port_income(game: Game, corp: str) -> None:
    """At the start of ``corp``'s operating turn: the income of each owned packet whose port
    holds one of ``corp``'s stations, from the bank (see the module text)."""
    state = game.state
    stations = {ref.coord for ref, held in state.tokens.items() if corp in held}
    for sym in packets(game):
        company = state.companies[sym]
        packet = game.title.company(sym).ability(Packet)
        assert packet is not None
        if company.owner is None or company.closed or packet.port not in stations:
            continue
        state.corporations[corp].cash += packet.income
        state.bank -= packet.income
        game.event(PortIncome(corp, sym, packet.port, packet.income))
    game.check_bank()
