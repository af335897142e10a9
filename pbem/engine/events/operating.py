"""Events of the operating round: track, tokens, runs, dividends, trains, closing and the
end of the game (see :mod:`pbem.engine.events`)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.events.base import Event, Money
from pbem.engine.ids import TrainId


# -- track, tokens, runs -----------------------------------------------------------------------


@dataclass(frozen=True)
class TileLaid(Event):
    """``corporation`` lays tile ``tile`` at ``rotation`` on ``hex``, paying ``cost``."""

    corporation: str
    tile: str
    rotation: int
    hex: str
    cost: int = 0

    def render(self, money: Money) -> str:
        spent = f" spends {money(self.cost)} and" if self.cost else ""
        return f"{self.corporation}{spent} lays tile #{self.tile} with rotation {self.rotation} on {self.hex}"


@dataclass(frozen=True)
class DiscountReceived(Event):
    """``corporation`` gets ``amount`` of a tile lay's terrain cost back from private
    ``company``'s ability."""

    corporation: str
    amount: int
    company: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} receives a discount of {money(self.amount)} from {self.company}"


@dataclass(frozen=True)
class TokenPlaced(Event):
    """``corporation`` places a station token on ``hex`` for ``cost`` (``home``: its home
    token, free)."""

    corporation: str
    hex: str
    cost: int = 0
    home: bool = False

    def render(self, money: Money) -> str:
        if self.home:
            return f"{self.corporation} places its home token on {self.hex}"
        spent = f" for {money(self.cost)}" if self.cost else ""
        return f"{self.corporation} places a token on {self.hex}{spent}"


@dataclass(frozen=True)
class TrainRan(Event):
    """``corporation`` runs a ``train`` (type) for ``revenue`` through ``stops`` (hexes);
    ``joined``: the types of the trains run with it as one (double-heading)."""

    corporation: str
    train: str
    revenue: int
    stops: tuple[str, ...]
    joined: tuple[str, ...] = ()

    def render(self, money: Money) -> str:
        stops = "-".join(self.stops)
        if self.joined:
            names = "+".join((self.train, *self.joined))
            return f"{self.corporation} runs {names} trains as one for {money(self.revenue)}: {stops}"
        return f"{self.corporation} runs a {self.train} train for {money(self.revenue)}: {stops}"


@dataclass(frozen=True)
class NoRun(Event):
    """``corporation`` has no revenue this turn; ``route``: whether its tokens reached a
    route (it had no train to run there)."""

    corporation: str
    route: bool = True

    def render(self, money: Money) -> str:
        return f"{self.corporation} does not run" + ("" if self.route else " (no route)")


@dataclass(frozen=True)
class Withheld(Event):
    """``corporation`` withholds ``amount``."""

    corporation: str
    amount: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} withholds {money(self.amount)}"


@dataclass(frozen=True)
class DividendPaid(Event):
    """``corporation`` pays out ``revenue``, keeping ``kept`` of it: ``per_share`` to each
    share (money, possibly fractional), ``paid`` lists ``(amount, holder)``."""

    corporation: str
    revenue: int
    kept: int
    per_share: float
    paid: tuple[tuple[int, str], ...]

    def render(self, money: Money) -> str:
        each = money(int(self.per_share)) if self.per_share == int(self.per_share) else f"{self.per_share:g}"
        paid = ", ".join(f"{money(amount)} to {holder}" for amount, holder in self.paid)
        if self.kept:
            return (f"{self.corporation} keeps {money(self.kept)} and pays {money(self.revenue - self.kept)} "
                    f"= {each} per share ({paid})")
        return f"{self.corporation} pays out {money(self.revenue)} = {each} per share ({paid})"


# -- trains ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class TrainBought(Event):
    """``corporation`` buys a ``train`` (type) for ``price`` from ``seller`` (``"the bank"``,
    ``"the pool"`` or a corporation), trading in a ``traded`` train if given."""

    corporation: str
    train: str
    price: int
    seller: str
    traded: str | None = None

    def render(self, money: Money) -> str:
        verb = f"trades in a {self.traded} train and buys" if self.traded else "buys"
        return f"{self.corporation} {verb} a {self.train} train for {money(self.price)} from {self.seller}"


@dataclass(frozen=True)
class TrainDiscarded(Event):
    """``corporation`` discards a ``train`` (type) to the pool."""

    corporation: str
    train: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} discards a {self.train} train"


@dataclass(frozen=True)
class Contributed(Event):
    """``player`` (the president) contributes ``amount`` to a train purchase."""

    player: str
    amount: int

    def render(self, money: Money) -> str:
        return f"{self.player} contributes {money(self.amount)}"


@dataclass(frozen=True)
class PhaseStarted(Event):
    """Phase ``name`` begins with its limits."""

    name: str
    operating_rounds: int
    train_limit: int
    tiles: tuple[str, ...]

    def render(self, money: Money) -> str:
        return (f"-- Phase {self.name} (operating rounds: {self.operating_rounds}, "
                f"train limit: {self.train_limit}, tiles: {', '.join(self.tiles)}) --")


@dataclass(frozen=True)
class TrainsRusted(Event):
    """Trains of the ``types`` rust."""

    types: tuple[str, ...]

    def render(self, money: Money) -> str:
        return f"-- Event: {', '.join(self.types)} trains rust --"


@dataclass(frozen=True)
class TrainsLost(Event):
    """``corporation`` loses its rusted ``trains`` (ids)."""

    corporation: str
    trains: tuple[TrainId, ...]

    def render(self, money: Money) -> str:
        return f"{self.corporation} loses {', '.join(map(str, self.trains))} (rusted)"


# -- closing and the end -----------------------------------------------------------------------


@dataclass(frozen=True)
class CorporationClosed(Event):
    """``corporation`` closes."""

    corporation: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} closes"


@dataclass(frozen=True)
class GameOver(Event):
    """The game ends for ``reason``; ``scores`` lists ``(player, value)`` best first."""

    reason: str
    scores: tuple[tuple[str, int], ...]

    def render(self, money: Money) -> str:
        return f"-- Game over ({self.reason}): {', '.join(f'{p} {money(v)}' for p, v in self.scores)} --"




@dataclass(frozen=True)
class PrivatesClosed(Event):
    """Every private company closes (1830: the first 5-train)."""

    def render(self, money: Money) -> str:
        return "-- Event: private companies close --"


@dataclass(frozen=True)
class BankBroken(Event):
    """The bank has broken: the game ends ``ends`` (1830: after this set of operating rounds;
    the title's ``RoundSequence.bank_broken_ends``)."""

    ends: str = "after this set of operating rounds"

    def render(self, money: Money) -> str:
        return f"-- The bank has broken: the game ends {self.ends} --"


@dataclass(frozen=True)
class WentBankrupt(Event):
    """``player`` goes bankrupt and sells the remaining shares."""

    player: str

    def render(self, money: Money) -> str:
        return f"-- {self.player} goes bankrupt and sells remaining shares --"


@dataclass(frozen=True)
class TrainsRemoved(Event):
    """Closing ``corporation`` gives up its ``trains`` (types, comma-joined order kept):
    to the bank pool (``to_pool``) or out of the game."""

    corporation: str
    trains: tuple[str, ...]
    to_pool: bool

    def render(self, money: Money) -> str:
        where = "go to the bank pool" if self.to_pool else "leave the game"
        return f"{self.corporation}'s trains {where}: {', '.join(self.trains)}"


@dataclass(frozen=True)
class OwnedPrivatesClosed(Event):
    """Closing ``corporation``'s private ``companies`` close with it."""

    corporation: str
    companies: tuple[str, ...]

    def render(self, money: Money) -> str:
        return f"{self.corporation}'s private companies close: {', '.join(self.companies)}"


@dataclass(frozen=True)
class PiecePlaced(Event):
    """``corporation`` places (``moved``: moves) its map piece called ``name`` (1829: a
    survey party) to ``hex``."""

    corporation: str
    name: str
    hex: str
    moved: bool = False

    def render(self, money: Money) -> str:
        if self.moved:
            return f"{self.corporation} moves its {self.name} to {self.hex}"
        return f"{self.corporation} places its {self.name} on {self.hex}"


# -- tokens moved by tile lays and private companies' tokens -----------------------------------


@dataclass(frozen=True)
class TokenCityPending(Event):
    """A tile lay on ``hex`` gives its cities an identity: ``corporation`` must choose the
    city for its token there."""

    corporation: str
    hex: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} must choose the city on {self.hex} for its token"


@dataclass(frozen=True)
class TokenCityChosen(Event):
    """``corporation`` puts its waiting token in city ``city`` of ``hex``."""

    corporation: str
    hex: str
    city: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} places its token on {self.hex} city {self.city}"


@dataclass(frozen=True)
class PrivateTokenPlaced(Event):
    """``corporation`` places private ``company``'s ``token`` (its name, ``"cattle_token"``)
    on ``hex``; ``closes``: it turns the token there into ``token`` and the private closes."""

    corporation: str
    company: str
    token: str
    hex: str
    closes: bool = False

    def render(self, money: Money) -> str:
        token = self.token.replace("_", " ")
        if self.closes:
            return (f"{self.corporation} turns the {self.company} token on {self.hex} into the "
                    f"{token}; the private company {self.company} closes")
        return f"{self.corporation} places the {self.company} {token} token on {self.hex}"


@dataclass(frozen=True)
class PrivateTokenRemoved(Event):
    """Private ``company``'s token leaves ``hex`` (a train's event)."""

    company: str
    hex: str

    def render(self, money: Money) -> str:
        return f"-- Event: the {self.company} token leaves {self.hex} --"
