"""What happened: the typed events that ``Game.apply`` returns.

Each event is a frozen dataclass of plain values (names, symbols, money as an int). The
turn report's line for an event comes from its :meth:`Event.render`, given the title's money
format (``TitleData.format_money``); the rules code records values only and never formats
text. The render is a plain method of each event, not a table outside the engine, so that a
title's own events (defined in its package) render themselves and a new title needs no edit
of the reports. :class:`Note` carries a line of text for rare cases with no event of their
own.

Source: issue 11 ("events as frozen dataclasses that the reports render").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

Money = Callable[[int], str]
"""Formats an amount in the title's currency (``1234`` -> ``"$1234"``)."""


def _s(count: int) -> str:
    return "s" if count > 1 else ""


@dataclass(frozen=True)
class Event:
    """The base of every event."""

    def render(self, money: Money) -> str:
        """The event's line in the turn report, amounts formatted by ``money``."""
        raise NotImplementedError


def render_all(events: Iterable[Event], money: Money) -> list[str]:
    """The report lines of ``events``, in order."""
    return [event.render(money) for event in events]


@dataclass(frozen=True)
class Note(Event):
    """A line of text for a rare case with no event of its own."""

    text: str

    def render(self, money: Money) -> str:
        return self.text


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
        return (f"{self.player} sells {self.count} share{_s(self.count)} of {self.corporation} "
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
    """``corporation`` runs a ``train`` (type) for ``revenue`` through ``stops`` (hexes)."""

    corporation: str
    train: str
    revenue: int
    stops: tuple[str, ...]

    def render(self, money: Money) -> str:
        return f"{self.corporation} runs a {self.train} train for {money(self.revenue)}: {'-'.join(self.stops)}"


@dataclass(frozen=True)
class NoRun(Event):
    """``corporation`` has no revenue this turn."""

    corporation: str

    def render(self, money: Money) -> str:
        return f"{self.corporation} does not run"


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
    trains: tuple[str, ...]

    def render(self, money: Money) -> str:
        return f"{self.corporation} loses {', '.join(self.trains)} (rusted)"


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
    """The bank has broken: the game ends after this set of operating rounds."""

    def render(self, money: Money) -> str:
        return "-- The bank has broken: the game ends after this set of operating rounds --"


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
