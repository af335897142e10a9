"""The private-company auction round of 1830 (rules 4.2, the "waterfall" auction), and the
par of a corporation whose president's certificate came with a private (the B&O).

In turn order each player buys the cheapest unsold private at its price, bids on another
(at least the face value, or the highest bid, plus the increment), or passes. When the
cheapest private is bought, the next one goes to its only bidder, or is auctioned among its
bidders (lowest bidder acts first; a pass leaves the auction); this repeats down the list.
If everyone passes in a row: while the cheapest private is unsold its price drops by 5 (at 0
the next player must take it); otherwise the privates pay their revenue and bidding goes on.
A bid commits its money: a player may bid at most their cash less their other bids.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pbem.engine.abilities import CloseAfterPar, Shares
from pbem.engine import market, shares
from pbem.engine.actions import Action, Bid, BuyPrivate, Par, Pass
from pbem.engine.events import (
    AuctionPassed,
    BidPlaced,
    CompanyClosed,
    MinimumBidLowered,
    Parred,
    PrivateBought,
    ShareReceived,
    UpForAuction,
)
from pbem.engine.state import AuctionState, Owner
from pbem.engine.step import Step
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


def _auction(game: Game) -> AuctionState:
    state = game.state.round.auction
    assert state is not None, "not in an auction round"
    return state


def min_price(game: Game, company: str) -> int:
    """The current price of a private (face value less any discount)."""
    return game.title.company(company).value - game.state.companies[company].discount


def committed(game: Game, player: str) -> int:
    """Money ``player`` has committed in open bids."""
    return sum(price for bids in _auction(game).bids.values() for p, price in bids if p == player)


def own_bid(game: Game, player: str, company: str) -> int:
    """``player``'s current bid on ``company``, or 0."""
    return next((price for p, price in _auction(game).bids.get(company, []) if p == player), 0)


def max_bid(game: Game, player: str, company: str) -> int:
    """The most ``player`` may bid on ``company``: cash less other committed bids."""
    return game.state.players[player].cash - committed(game, player) + own_bid(game, player, company)


def may_purchase(game: Game, company: str) -> bool:
    """Whether ``company`` is the cheapest unsold private and no auction is on."""
    auction = _auction(game)
    return auction.auctioning is None and bool(auction.available) and auction.available[0] == company


def min_bid(game: Game, company: str) -> int:
    """The smallest legal bid on ``company`` now (its price if it may be bought outright)."""
    if may_purchase(game, company):
        return min_price(game, company)
    bids = _auction(game).bids.get(company, [])
    base = max((price for _, price in bids), default=min_price(game, company))
    return base + game.title.settings.bid_increment


class PendingPar(Step):
    """A player who received a president's certificate with a private sets its par at once."""

    name = "company_pending_par"
    description = "set the par price of the corporation that came with a private"

    @classmethod
    def active(cls, game: Game) -> bool:
        auction = game.state.round.auction
        return auction is not None and bool(auction.pending_par)

    @classmethod
    def actors(cls, game: Game) -> list[str]:
        company = _auction(game).pending_par[0]
        owner = game.state.companies[company].owner
        name = owner.player_name() if owner else None
        return [name] if name else []

    @classmethod
    def pending_corporation(cls, game: Game) -> str:
        """The corporation whose president's certificate is waiting for a par price."""
        company = game.title.company(_auction(game).pending_par[0])
        ability = company.ability(Shares)
        assert ability is not None
        return ability.corporation

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> Iterable[Action]:
        sym = cls.pending_corporation(game)
        for coord in game.title.par_cells():
            yield Par(sym, market.price_at(game.title, coord))

    @classmethod
    def process_par(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Par)
        sym = cls.pending_corporation(game)
        if action.corporation != sym:
            raise IllegalOrderError(f"{player} must first set the par price of {sym}")
        coord = market.par_coord(game.title, action.price)
        if coord is None:
            raise IllegalOrderError(
                f"{action.price} is not a par value; choose one of "
                + ", ".join(str(market.price_at(game.title, c)) for c in game.title.par_cells())
            )
        state = game.state
        corp = state.corporations[sym]
        corp.par = coord
        market.place(state, sym, coord)
        game.event(Parred(player, sym, action.price))
        pres = next(c for c in state.certificates if c.corporation == sym and c.president)
        pres.owner = Owner.player(player)
        corp.ipoed = True
        corp.president = player
        game.event(ShareReceived(player, sym))
        shares.float_if_ready(state, game.title, sym, game.pending_events)
        company = _auction(game).pending_par.pop(0)
        if game.title.company(company).ability(CloseAfterPar) is not None:
            # 1870: the SLSF private was only the president's certificate; it closes.
            owner = state.companies[company].owner
            if owner is not None and owner.is_player:
                state.players[owner.name].companies.remove(company)
            state.companies[company].closed = True
            state.companies[company].owner = None
            game.event(CompanyClosed(company))



class WaterfallAuction(Step):
    """Buy the cheapest private, bid on another, or pass (1830 rules 4.2)."""

    name = "waterfall_auction"
    description = "bid on the private companies"

    @classmethod
    def active(cls, game: Game) -> bool:
        auction = game.state.round.auction
        return auction is not None and bool(auction.available)

    @classmethod
    def actors(cls, game: Game) -> list[str]:
        auction = _auction(game)
        if auction.auctioning is not None:
            bids = auction.bids[auction.auctioning]
            return [min(bids, key=lambda b: b[1])[0]]
        return [game.state.order[game.state.round.entity_index]]

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> Iterable[Action]:
        auction = _auction(game)
        if auction.auctioning is not None:
            company = auction.auctioning
            if min_bid(game, company) <= max_bid(game, player, company):
                yield Bid(company, min_bid(game, company))
            yield Pass()
            return
        for company in auction.available:
            price = min_bid(game, company)
            if price <= max_bid(game, player, company):
                yield BuyPrivate(company) if may_purchase(game, company) else Bid(company, price)
        yield Pass()

    # -- handlers -------------------------------------------------------------------------

    @classmethod
    def process_buy(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, BuyPrivate)
        if not may_purchase(game, action.company):
            cls._not_purchasable(game, action.company)
        cls.process_bid(game, player, Bid(action.company, min_price(game, action.company)))

    @classmethod
    def process_bid(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Bid)
        auction = _auction(game)
        company = action.company
        if company not in auction.available:
            cls._not_available(game, company)
        if auction.auctioning is not None and company != auction.auctioning:
            raise IllegalOrderError(
                f"{auction.auctioning} is being auctioned: bid on it or pass"
            )
        minimum = min_bid(game, company)
        if action.price < minimum:
            raise IllegalOrderError(
                f"the minimum bid for {company} is {game.money(minimum)}"
            )
        maximum = max_bid(game, player, company)
        if action.price > maximum:
            raise IllegalOrderError(
                f"{player} can bid at most {game.money(maximum)} on {company} "
                f"(cash less other open bids)"
            )
        increment = game.title.settings.bid_increment
        if game.title.settings.bid_multiple_of_increment and (action.price - minimum) % increment:
            raise IllegalOrderError(f"bids must rise by a multiple of {game.money(increment)}")
        game.state.players[player].passed = False
        if auction.auctioning is not None:
            cls._add_bid(game, player, company, action.price)
            return
        if may_purchase(game, company):
            cls._buy_company(game, player, company, action.price)
            cls._resolve(game)
        else:
            cls._add_bid(game, player, company, action.price)
        game.next_entity_index()

    @classmethod
    def process_pass(cls, game: Game, player: str, action: Action) -> None:
        auction = _auction(game)
        if auction.auctioning is not None:
            company = auction.auctioning
            game.event(AuctionPassed(player, company))
            auction.bids[company] = [b for b in auction.bids[company] if b[0] != player]
            cls._resolve(game)
            return
        game.event(AuctionPassed(player))
        state = game.state
        state.players[player].passed = True
        if all(state.players[p].passed for p in state.order):
            cls._all_passed(game)
        game.next_entity_index()


    # -- internals ------------------------------------------------------------------------

    @classmethod
    def _not_available(cls, game: Game, company: str) -> None:
        if company in game.state.companies and game.state.companies[company].owner:
            raise IllegalOrderError(f"{company} is already sold")
        raise IllegalOrderError(f"there is no private company {company!r} for sale")

    @classmethod
    def _not_purchasable(cls, game: Game, company: str) -> None:
        auction = _auction(game)
        if company not in auction.available:
            cls._not_available(game, company)
        if auction.auctioning is not None:
            raise IllegalOrderError(f"{auction.auctioning} is being auctioned: bid on it or pass")
        raise IllegalOrderError(
            f"only the cheapest private ({auction.available[0]}) may be bought outright; "
            f"bid on {company} instead"
        )

    @classmethod
    def _add_bid(cls, game: Game, player: str, company: str, price: int) -> None:
        auction = _auction(game)
        bids = [b for b in auction.bids.get(company, []) if b[0] != player]
        bids.append((player, price))
        auction.bids[company] = bids
        bidders = auction.bidders.setdefault(company, [])
        if player not in bidders:
            bidders.append(player)
        game.event(BidPlaced(player, price, company))

    @classmethod
    def _buy_company(cls, game: Game, player: str, company: str, price: int) -> None:
        auction = _auction(game)
        state = game.state
        available = max_bid(game, player, company)
        if available < price:
            raise IllegalOrderError(
                f"{player} has {game.money(available)} available and cannot spend {game.money(price)}"
            )
        auction.bids.pop(company, None)
        state.companies[company].owner = Owner.player(player)
        state.players[player].companies.append(company)
        state.players[player].cash -= price
        state.bank += price
        auction.available.remove(company)
        nbidders = len(auction.bidders.get(company, []))
        game.event(PrivateBought(player, company, price, nbidders))
        cls._after_buy_company(game, player, company)

    @classmethod
    def _after_buy_company(cls, game: Game, player: str, company: str) -> None:
        """A private that carries a share gives it now; a president's certificate waits for
        its par (1830: the CA's PRR share, the BO's B&O president's certificate)."""
        data = game.title.company(company)
        for ability in data.abilities:
            if not isinstance(ability, Shares):
                continue
            sym, index = ability.corporation, ability.index
            cert = next(
                c for c in game.state.certificates if c.corporation == sym and c.index == index
            )
            if cert.president:
                _auction(game).pending_par.append(company)
            else:
                cert.owner = Owner.player(player)
                game.event(ShareReceived(player, sym, cert.percent))

    @classmethod
    def _resolve(cls, game: Game) -> None:
        """Sell down the list: a single bid buys; two or more start an auction."""
        auction = _auction(game)
        while auction.available:
            company = auction.available[0]
            new_auction = company != auction.auctioning
            auction.auctioning = None
            bids = auction.bids.get(company, [])
            if len(bids) == 1:
                player, price = bids[0]
                cls._buy_company(game, player, company, price)
                continue
            if len(bids) > 1:
                auction.auctioning = company
                if new_auction:
                    game.event(UpForAuction(company))
            break

    @classmethod
    def _all_passed(cls, game: Game) -> None:
        auction = _auction(game)
        state = game.state
        if auction.cheapest in auction.available:
            company = auction.cheapest
            before = min_price(game, company)
            state.companies[company].discount += 5
            after = min_price(game, company)
            game.event(MinimumBidLowered(company, before, after))
            if after <= 0:
                game.next_entity_index()
                taker = state.order[state.round.entity_index]
                cls._buy_company(game, taker, company, 0)
                cls._resolve(game)
        else:
            game.payout_companies()
        for p in state.order:
            state.players[p].passed = False


def new_auction_state(game: Game) -> AuctionState:
    """The auction at the start of the game: every private for sale, cheapest first."""
    companies = sorted(game.title.companies, key=lambda c: c.value)
    syms = [c.sym for c in companies]
    return AuctionState(available=syms, cheapest=syms[0])



PendingPar.handlers = {Par: PendingPar.process_par}


WaterfallAuction.handlers = {Bid: WaterfallAuction.process_bid, BuyPrivate: WaterfallAuction.process_buy, Pass: WaterfallAuction.process_pass}
