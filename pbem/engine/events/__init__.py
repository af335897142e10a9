"""What happened: the typed events that ``Game.apply`` returns.

Each event is a frozen dataclass of plain values (names, symbols, money as an int). The
turn report's line for an event comes from its :meth:`Event.render`, given the title's money
format (``TitleData.format_money``); the rules code records values only and never formats
text. The render is a plain method of each event, not a table outside the engine, so that a
title's own events (defined in its package) render themselves and a new title needs no edit
of the reports. :class:`Note` carries a line of text for rare cases with no event of their
own (now only the remarks of the RUN AUTO search, which the route search words).

The events live in :mod:`.base` (``Event``, ``Note``), :mod:`.rounds` (rounds, turns, the
private companies, shares) and :mod:`.operating` (track, tokens, runs, dividends, trains,
closing, the end); import them from here.

Source: issue 11 ("events as frozen dataclasses that the reports render").
"""

from __future__ import annotations

from pbem.engine.events.base import Event, Money, Note, plural, render_all
from pbem.engine.events.operating import (
    BankBroken,
    Contributed,
    CorporationClosed,
    DiscountReceived,
    DividendPaid,
    GameOver,
    NoRun,
    OwnedPrivatesClosed,
    PhaseStarted,
    PiecePlaced,
    PrivateTokenPlaced,
    PrivateTokenRemoved,
    PrivatesClosed,
    TileLaid,
    TokenCityChosen,
    TokenCityPending,
    TokenPlaced,
    TrainBought,
    TrainDiscarded,
    TrainRan,
    TrainsLost,
    TrainsRemoved,
    TrainsRusted,
    WentBankrupt,
    Withheld,
)
from pbem.engine.events.rounds import (
    AuctionPassed,
    BidPlaced,
    CapitalReceived,
    CompanyClosed,
    CompanyIncome,
    CompanySold,
    CompanyTraded,
    Exchanged,
    Floated,
    MinimumBidLowered,
    NoValidActions,
    Operates,
    Parred,
    Passed,
    PresidencyBought,
    PresidentChanged,
    PriceMoved,
    PriorityDeal,
    PrivateBought,
    RoundStarted,
    ShareReceived,
    SharesBought,
    SharesSold,
    StepPassed,
    UpForAuction,
)

__all__ = [
    "AuctionPassed",
    "BankBroken",
    "BidPlaced",
    "CapitalReceived",
    "CompanyClosed",
    "CompanyIncome",
    "CompanySold",
    "CompanyTraded",
    "Contributed",
    "CorporationClosed",
    "DiscountReceived",
    "DividendPaid",
    "Event",
    "Exchanged",
    "Floated",
    "GameOver",
    "MinimumBidLowered",
    "Money",
    "NoRun",
    "NoValidActions",
    "Note",
    "Operates",
    "OwnedPrivatesClosed",
    "Parred",
    "Passed",
    "PhaseStarted",
    "PiecePlaced",
    "PresidencyBought",
    "PresidentChanged",
    "PriceMoved",
    "PriorityDeal",
    "PrivateBought",
    "PrivateTokenPlaced",
    "PrivateTokenRemoved",
    "PrivatesClosed",
    "RoundStarted",
    "ShareReceived",
    "SharesBought",
    "SharesSold",
    "StepPassed",
    "TileLaid",
    "TokenCityChosen",
    "TokenCityPending",
    "TokenPlaced",
    "TrainBought",
    "TrainDiscarded",
    "TrainRan",
    "TrainsLost",
    "TrainsRemoved",
    "TrainsRusted",
    "UpForAuction",
    "WentBankrupt",
    "Withheld",
    "plural",
    "render_all",
]
