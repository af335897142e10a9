"""Events of rounds and turns, the private companies and shares (see
:mod:`pbem.engine.events`)."""

from __future__ import annotations

from dataclasses import dataclass

from pbem.engine.events.base import Event, Money, plural


# -- rounds and turns ------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundStarted(Event):
    """A round begins; ``label`` as ``Game.round_label`` gives it (``"SR 2"``, ``"OR 1.2"``)."""

    label: str

    def render(self, money: Money) -> str:
        return f"-- {self.label} --"


@dataclass(frozen=True)
class PriorityDeal(Event):
    """``player`` holds the priority deal for the stock round."""

    player: str

    def render(self, money: Money) -> str:
        return f"{self.player} has priority deal"


@dataclass(frozen=True)
class NoValidActions(Event):
    """``player`` cannot act and passes automatically."""

    player: str

    def render(self, money: Money) -> str:
        return f"{self.player} has no valid actions and passes"


@dataclass(frozen=True)
class Operates(Event):
    """``president`` operates ``corporation`` now (None: it has no president)."""

    president: str | None
    corporation: str

    def render(self, money: Money) -> str:
        if self.president is None:
            return f"{self.corporation} has no president: the receiver operates it"
        return f"{self.president} operates {self.corporation}"


@dataclass(frozen=True)
class Passed(Event):
    """``player`` passes in a stock round (``ended_turn``: after acting this turn)."""

    player: str
    ended_turn: bool = False

    def render(self, money: Money) -> str:
        return f"{self.player} ends the turn" if self.ended_turn else f"{self.player} passes"


@dataclass(frozen=True)
class AuctionPassed(Event):
    """``player`` passes in the private auction: on ``company`` being auctioned, or (None)
    on bidding this turn."""

    player: str
    company: str | None = None

    def render(self, money: Money) -> str:
        if self.company is None:
            return f"{self.player} passes bidding"
        return f"{self.player} passes on {self.company}"


@dataclass(frozen=True)
class UpForAuction(Event):
    """Private ``company`` is auctioned among its bidders now."""

    company: str

    def render(self, money: Money) -> str:
        return f"{self.company} goes up for auction"


@dataclass(frozen=True)
class MinimumBidLowered(Event):
    """Nobody bought the cheapest private ``company``: its price falls from ``before`` to
    ``after`` (1830 rules 4.2)."""

    company: str
    before: int
    after: int

    def render(self, money: Money) -> str:
        return f"{self.company} minimum bid decreases from {money(self.before)} to {money(self.after)}"


@dataclass(frozen=True)
class StepPassed(Event):
    """``corporation`` passes an operating step (``what``: ``"laying track"``)."""

    corporation: str
    what: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} passes {self.what}"


# -- private companies ---------------------------------------------------------------------


@dataclass(frozen=True)
class CompanyIncome(Event):
    """A private company pays ``amount`` to its owner (a player's or corporation's name)."""

    owner: str
    amount: int
    company: str

    def render(self, money: Money) -> str:
        return f"{self.owner} collects {money(self.amount)} from {self.company}"


@dataclass(frozen=True)
class BidPlaced(Event):
    """``player`` bids ``price`` for ``company``."""

    player: str
    price: int
    company: str

    def render(self, money: Money) -> str:
        return f"{self.player} bids {money(self.price)} for {self.company}"


@dataclass(frozen=True)
class PrivateBought(Event):
    """``player`` gets ``company`` for ``price``; ``bidders`` is how many had bid on it
    (0: bought outright; 1: the only bid; more: won the auction)."""

    player: str
    company: str
    price: int
    bidders: int = 0

    def render(self, money: Money) -> str:
        if self.bidders == 0:
            return f"{self.player} buys {self.company} for {money(self.price)}"
        if self.bidders == 1:
            return f"{self.player} wins the auction for {self.company} with the only bid of {money(self.price)}"
        return f"{self.player} wins the auction for {self.company} with a bid of {money(self.price)}"


@dataclass(frozen=True)
class CompanySold(Event):
    """``corporation`` buys private ``company`` from player ``seller`` for ``price``."""

    corporation: str
    company: str
    seller: str
    price: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} buys {self.company} from {self.seller} for {money(self.price)}"


@dataclass(frozen=True)
class CompanyTraded(Event):
    """``player`` buys private ``company`` from player ``seller`` for ``price`` (a sale
    between players in a stock round)."""

    player: str
    company: str
    seller: str
    price: int

    def render(self, money: Money) -> str:
        return f"{self.player} buys {self.company} from {self.seller} for {money(self.price)}"


@dataclass(frozen=True)
class CompanyClosed(Event):
    """Private company ``company`` closes."""

    company: str

    def render(self, money: Money) -> str:
        return f"the private company {self.company} closes"


# -- shares ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Parred(Event):
    """``player`` sets the par price of ``corporation`` at ``price``."""

    player: str
    corporation: str
    price: int

    def render(self, money: Money) -> str:
        return f"{self.player} pars {self.corporation} at {money(self.price)}"


@dataclass(frozen=True)
class SharesBought(Event):
    """``player`` buys a ``percent`` share of ``corporation`` from ``source`` (``"ipo"`` or
    ``"pool"``) for ``price``."""

    player: str
    percent: int
    corporation: str
    source: str
    price: int

    def render(self, money: Money) -> str:
        where = "the IPO" if self.source == "ipo" else "the market"
        return f"{self.player} buys a {self.percent}% share of {self.corporation} from {where} for {money(self.price)}"


@dataclass(frozen=True)
class PresidencyBought(Event):
    """``player`` buys the ``percent`` president's certificate of ``corporation`` for ``cost``."""

    player: str
    percent: int
    corporation: str
    cost: int

    def render(self, money: Money) -> str:
        return (f"{self.player} buys the {self.percent}% president's certificate of {self.corporation} "
                f"for {money(self.cost)}")


@dataclass(frozen=True)
class SharesSold(Event):
    """``player`` sells ``count`` shares (``percent`` in all) of ``corporation`` for ``amount``."""

    player: str
    count: int
    corporation: str
    percent: int
    amount: int

    def render(self, money: Money) -> str:
        return (f"{self.player} sells {self.count} share{plural(self.count)} of {self.corporation} "
                f"({self.percent}%) and receives {money(self.amount)}")


@dataclass(frozen=True)
class ShareReceived(Event):
    """``player`` receives a share of ``corporation`` with a private company: a ``percent``
    share, or (``percent`` None) the president's certificate."""

    player: str
    corporation: str
    percent: int | None = None

    def render(self, money: Money) -> str:
        if self.percent is None:
            return f"{self.player} receives the president's certificate of {self.corporation}"
        return f"{self.player} receives a {self.percent}% share of {self.corporation}"


@dataclass(frozen=True)
class Exchanged(Event):
    """``player`` exchanges private ``company`` for a ``percent`` share of ``corporation``."""

    player: str
    company: str
    percent: int
    corporation: str

    def render(self, money: Money) -> str:
        return f"{self.player} exchanges {self.company} for a {self.percent}% share of {self.corporation}"


@dataclass(frozen=True)
class Floated(Event):
    """``corporation`` floats."""

    corporation: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} floats"


@dataclass(frozen=True)
class CapitalReceived(Event):
    """``corporation`` receives ``amount`` from the bank when it floats."""

    corporation: str
    amount: int

    def render(self, money: Money) -> str:
        return f"{self.corporation} receives {money(self.amount)}"


@dataclass(frozen=True)
class PresidentChanged(Event):
    """``player`` becomes the president of ``corporation``."""

    player: str
    corporation: str

    def render(self, money: Money) -> str:
        return f"{self.player} becomes the president of {self.corporation}"


@dataclass(frozen=True)
class PriceMoved(Event):
    """``corporation``'s share price goes from ``before`` to ``after`` (money); ``how`` is
    the verb of the move: ``"moves"``, ``"falls"`` or ``"rises"``."""

    corporation: str
    before: int
    after: int
    how: str = "moves"

    def render(self, money: Money) -> str:
        return f"{self.corporation}'s share price {self.how} from {money(self.before)} to {money(self.after)}"
