"""The variant's start (Lorenz rules 1-4): the privates of the units in play, cheapest first,
sold by buy/bid/pass.

On a turn a player buys the cheapest private still for sale at its face value (``BUY``;
a bid on it is no purchase at another price), bids on another (a first bid at least £5 over the face value, a later one at least £5 over the high
bid), or passes. Money bid is set aside: a player may bid at most their cash less their other
bids. After a purchase the next private goes at once to its only bidder, and so on down the
line; a private with two or more bidders is auctioned among them alone, starting with the
bidder to the left of the high bidder and going round the table: each raises by at least £5
or passes out, until one bidder is left, who buys it for the high bid. These sales are outside
the turn order: play resumes with the player to the left of the last player who bought a
private with no bids. When the last private is sold the start is over, and the next player is
first in stock round 1 (where they may buy the Director's certificate of the first company
on offer, or pass).

Readings (the variant does not say): when every player passes in succession the core's
buy/bid/pass goes on as 1830's does (the cheapest private, still unsold, falls by £5; once it
is sold, the privates sold pay their revenue); the owner of S&D or L&M receives the free share
as the private is bought, whether outright, by a single bid or at auction, provided the
company is in play (S&D in Unit 3 alone has no NER).

Built on the core's :class:`~pbem.engine.steps.auction.WaterfallAuction` (its bids, the money
set aside, the sales down the line), with the variant's own order of bidding in an auction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import shares
from pbem.engine.actions import Action, Bid, BuyPrivate, Pass
from pbem.engine.events import ShareReceived
from pbem.engine.state import IPO, AuctionState, Owner, RoundState
from pbem.engine.steps.auction import WaterfallAuction, may_purchase, min_price, new_auction_state
from pbem.errors import IllegalOrderError
from pbem.titles.g1825.lorenz.events import AuctionTurn
from pbem.titles.g1825.lorenz.facts import BIDDING, FREE_SHARES, START
from pbem.titles.g1825.lorenz.state import lorenz_state

if TYPE_CHECKING:
    from pbem.engine.game import Game


def start_round(game: Game) -> RoundState:
    """The variant's first round: every private of the game for sale, cheapest first."""
    return RoundState(kind=START, auction=new_auction_state(game))


def _auction(game: Game) -> AuctionState:
    found = game.state.round.auction
    assert found is not None, "not in the variant's start"
    return found


def high_bidder(game: Game, company: str) -> str:
    """The player with the highest bid on ``company`` (the earlier bid on a tie)."""
    bids = _auction(game).bids[company]
    top = max(price for _, price in bids)
    return next(player for player, price in bids if price == top)


def next_bidder(game: Game) -> str:
    """In the auction of a private among its bidders: the next bidder still in, to the left
    of the one who acted last (at the start, of the high bidder), never the high bidder."""
    auction = _auction(game)
    company = auction.auctioning
    assert company is not None
    inside = {player for player, _ in auction.bids[company]}
    top = high_bidder(game, company)
    seats = game.state.seats
    last = lorenz_state(game.state).last_bidder or top
    start = seats.index(last)
    for step in range(1, len(seats) + 1):
        player = seats[(start + step) % len(seats)]
        if player in inside and player != top:
            return player
    return top  # not reached while two or more bid: the auction resolves when one is left


class LorenzAuction(WaterfallAuction):
    """Buy the cheapest private, bid on another, or pass; a private with two or more bids is
    auctioned among its bidders, going round the table from the high bidder's left (see the
    module text)."""

    name = START
    description = "buy the cheapest private (BUY), bid on another (BID), or PASS"

    @classmethod
    def active(cls, game: Game) -> bool:
        auction = game.state.round.auction
        return game.state.round.kind == START and auction is not None and bool(auction.available)

    @classmethod
    def actors(cls, game: Game) -> list[str]:
        if _auction(game).auctioning is not None:
            return [next_bidder(game)]
        return [game.state.order[game.state.round.entity_index]]

    @classmethod
    def process_bid(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Bid)
        if may_purchase(game, action.company) and action.price != min_price(game, action.company):
            raise IllegalOrderError(f"{action.company}, the cheapest, is bought at its price, "
                                    f"{game.money(min_price(game, action.company))}: BUY {action.company}")
        in_auction = _auction(game).auctioning is not None
        super().process_bid(game, player, action)
        if in_auction and _auction(game).auctioning is not None:
            cls._turn_after(game, player)

    @classmethod
    def process_pass(cls, game: Game, player: str, action: Action) -> None:
        company = _auction(game).auctioning
        super().process_pass(game, player, action)
        if company is not None and _auction(game).auctioning == company:
            cls._turn_after(game, player)

    @classmethod
    def _turn_after(cls, game: Game, player: str) -> None:
        lorenz_state(game.state).last_bidder = player
        company = _auction(game).auctioning
        assert company is not None
        game.event(AuctionTurn(company, next_bidder(game)))

    @classmethod
    def _resolve(cls, game: Game) -> None:
        """Sell down the line (the core's); an auction that begins starts left of its high
        bidder."""
        before = _auction(game).auctioning
        super()._resolve(game)
        company = _auction(game).auctioning
        mine = lorenz_state(game.state)
        if company is None:
            mine.last_bidder = None
        elif company != before:
            mine.last_bidder = high_bidder(game, company)
            game.event(AuctionTurn(company, next_bidder(game)))

    @classmethod
    def _after_buy_company(cls, game: Game, player: str, company: str) -> None:
        """The core's shares of a private's data, then the variant's free share (rule 5): a
        10% share of the S&D's NER or the L&M's LNWR from the company's IPO, if it is in play."""
        super()._after_buy_company(game, player, company)
        give_free_share(game, player, company)


def give_free_share(game: Game, player: str, company: str) -> None:
    """``player`` has acquired ``company``: the share it carries (:data:`FREE_SHARES`), the
    first ordinary certificate left in the IPO, is theirs, noted in the variant's state; none
    when the company is not in play or has no ordinary share left."""
    sym = FREE_SHARES.get(company)
    state = game.state
    if sym is None or sym not in state.corporations:
        return
    certs = [c for c in state.certs_of(IPO, sym) if not c.president]
    if not certs:
        return
    cert = certs[0]
    cert.owner = Owner.player(player)
    lorenz_state(state).free_shares[company] = (sym, cert.index)
    game.event(ShareReceived(player, sym, cert.percent))
    if state.corporations[sym].ipoed:
        shares.update_president(state, game.title, sym, game.pending_events)


class LorenzBidding(LorenzAuction):
    """The auction of a private among its bidders (the first step of the start while one is
    on): the same rules as :class:`LorenzAuction`, asking for a raise or a pass."""

    name = BIDDING
    description = "raise the high bid on the private being auctioned by £5 or more (BID), or PASS out"

    @classmethod
    def active(cls, game: Game) -> bool:
        return super().active(game) and _auction(game).auctioning is not None


LorenzAuction.handlers = {Bid: LorenzAuction.process_bid, BuyPrivate: LorenzAuction.process_buy,
                          Pass: LorenzAuction.process_pass}
LorenzBidding.handlers = {Bid: LorenzBidding.process_bid, Pass: LorenzBidding.process_pass}
