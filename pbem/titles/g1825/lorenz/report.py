"""The variant's section of the turn report: the bids standing on each private, the money
each player has set aside for them, and which public company holds each designated power."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.titles.g1825.lorenz.facts import CHP, CW, DESIGNATED, DOVER, DURHAM, PEAK, TWW
from pbem.titles.g1825.lorenz.powers import HEX_OF, off_the_map
from pbem.titles.g1825.lorenz.state import lorenz_state

if TYPE_CHECKING:
    from pbem.engine.game import Game


USE = {TWW: f"LAY {DURHAM} <tile> <rotation> USING {TWW}", CHP: f"LAY {PEAK} <tile> <rotation> USING {CHP}",
       CW: f"TOKEN {DOVER} USING {CW}"}
"""How each power is used, as the report says it."""


def lines(game: Game) -> tuple[str, ...]:
    """The section's lines (money in the title's currency); a power whose hex is not on the
    map is said to be unusable (:func:`~.powers.off_the_map`), with no ASSIGN offered."""
    state, money = game.state, game.money
    out: list[str] = []
    auction = state.round.auction
    if auction is not None and auction.available:
        for company in auction.available:
            bids = auction.bids.get(company, [])
            text = ", ".join(f"{player} {money(price)}" for player, price in bids) or "none"
            note = " (being auctioned)" if auction.auctioning == company else ""
            out.append(f"Bids on {company}{note}: {text}")
        for player in state.seats:
            aside = sum(price for bids in auction.bids.values() for who, price in bids if who == player)
            out.append(f"Set aside by {player}: {money(aside)}")
    mine = lorenz_state(state)
    for company in DESIGNATED:
        found = state.companies.get(company)
        if found is None:
            continue
        corp = mine.designated.get(company)
        unusable = off_the_map(game, company)
        if unusable and not found.closed:
            status = f"cannot be used on this map (no {HEX_OF[company]} among the units in play)"
        elif found.closed:
            status = "closed" + (f" (was {corp}'s)" if corp else "")
        elif corp is None:
            status = "not given yet" + (_may_give(game, found.owner.name, company) if found.owner else "")
        elif company in mine.used:
            status = f"held by {corp} (used)"
        else:
            status = f"held by {corp} ({USE[company]} in its turn)"
        out.append(f"Power of {company}: {status}")
    return tuple(out)


def _may_give(game: Game, owner: str, company: str) -> str:
    """What the report says ``owner`` of ``company`` may do with its power: the ASSIGN line
    for the first operating company they direct, or that they direct none yet."""
    directed = [sym for sym, corp in game.state.corporations.items()
                if corp.president == owner and corp.floated and not corp.closed]
    if not directed:
        return f" ({owner} directs no company to give it to yet)"
    return f" ({owner} may ASSIGN {company} {directed[0]})"
