"""Private companies in the operating round: buying them (1830 rules 6.10) and their token
abilities."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Iterable

from pbem.engine.abilities import AssignHexes, BuyableInPhase1, MaxPriceUntilTrain, NoBuy
from pbem.engine import trains
from pbem.engine.actions import Action, Assign, BuyPrivate, Pass
from pbem.engine.events import CompanySold, PrivateTokenPlaced
from pbem.engine.values import Owner, PrivateToken
from pbem.engine.steps.operating.base import OpStep, current_corp, pass_step
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


class BuyCompany(OpStep):
    """Buy a private company from a player (1830 rules 6.10, phases 3 and 4): price from
    half to twice its face value, agreed with the owner."""

    name = "buy_company"
    description = "buy a private company (BUY <private> <price>), or PASS"
    optional = True
    takes = (BuyPrivate, Pass)

    @classmethod
    def pass_note(cls, game: Game) -> str:
        return "end the turn"

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        cash = game.state.corporations[corp].cash
        if any(price_range(game, c)[0] <= cash for c in purchasable(game, corp)):
            return True
        # (18xx.games also asks MP and SSW in 1870's phase 1 to pass the MRBC purchase when
        # MRBC is no player's to sell: the export writes that pass, our turn does not wait.)
        return bool(usable_abilities(game, corp))  # the turn stays open for the private's ability until a PASS

    @classmethod
    def describe(cls, game: Game) -> str:
        corp = current_corp(game)
        cash = game.state.corporations[corp].cash
        held = usable_abilities(game, corp)
        if held and not any(price_range(game, c)[0] <= cash for c in purchasable(game, corp)):
            return (f"place the {' or '.join(held)} token (ASSIGN <private> <hex>), "
                    "or PASS to end the turn")
        return cls.description

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if isinstance(action, Pass):
            pass_step(game, cls, "buying private companies")
            return
        assert isinstance(action, BuyPrivate)
        buy_company(game, corp, action)

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return [*buy_candidates(game, current_corp(game)), Pass()]


def buy_candidates(game: Game, corp: str) -> list[Action]:
    """A purchase of each private company ``corp`` may buy now (:func:`purchasable`), at the
    least price of its range (:func:`price_range`); any price of the range is as legal."""
    return [BuyPrivate(sym, price_range(game, sym)[0]) for sym in purchasable(game, corp)]


def assign_candidates(game: Game, corp: str) -> list[Action]:
    """Each token placement (``ASSIGN``) the private companies ``corp`` owns might make now:
    every hex their ability names, for those of :func:`usable_abilities`."""
    found: list[Action] = []
    for sym in usable_abilities(game, corp):
        ability = game.title.company(sym).ability(AssignHexes)
        assert ability is not None
        found += [Assign(sym, str(coord)) for coord in ability.hexes]
    return found


def purchasable(game: Game, corp: str) -> list[str]:
    """Private companies ``corp`` may buy now: owned by a player, not closed, not barred
    (1830: BO), in a phase that allows it — or, in a phase that does not, a private whose
    ``buyable_in_phase_1`` ability names ``corp`` (1870: MRBC for MP and SSW)."""
    allowed = trains.phase_data(game.title, game.state.phase).corporations_may_buy_privates
    out = []
    for sym, company in game.state.companies.items():
        data = game.title.company(sym)
        if company.closed or company.owner is None or not company.owner.is_player or data.ability(NoBuy) is not None:
            continue
        early = data.ability(BuyableInPhase1)
        first_phase = game.state.phase == game.title.phases[0].name
        if allowed or (early is not None and first_phase and corp in early.corporations):
            out.append(sym)
    return out


def price_range(game: Game, sym: str) -> tuple[int, int]:
    """The lowest and highest price a corporation may pay for private ``sym``: half to twice
    face value (1830 rules 6.10), unless an ability of the private says otherwise (1870:
    MRBC $20-$40 in phase 1, and until the first 3-train)."""
    data = game.title.company(sym)
    low, high = math.ceil(data.value / 2), data.value * 2
    early = data.ability(BuyableInPhase1)
    if early is not None and game.state.phase == game.title.phases[0].name:
        low, high = early.min_price, early.max_price
    capped = data.ability(MaxPriceUntilTrain)
    if capped is not None and capped.train not in game.state.types_sold:
        high = min(high, capped.max_price)
    return low, high


def buy_company(game: Game, corp: str, action: BuyPrivate) -> None:
    """``corp`` buys ``action.company`` from its owner for ``action.price``."""
    state = game.state
    if action.company not in purchasable(game, corp):
        if not trains.phase_data(game.title, state.phase).corporations_may_buy_privates:
            raise IllegalOrderError(f"corporations may not buy private companies in phase {state.phase}")
        raise IllegalOrderError(f"{action.company} cannot be bought")
    low, high = price_range(game, action.company)
    if action.price is None or not low <= action.price <= high:
        raise IllegalOrderError(f"the price of {action.company} must be {game.money(low)} to {game.money(high)}")
    treasury = state.corporations[corp]
    if action.price > treasury.cash:
        raise IllegalOrderError(f"{corp} has {game.money(treasury.cash)}")
    company = state.companies[action.company]
    seller = company.owner
    assert seller is not None
    treasury.cash -= action.price
    state.players[seller.name].cash += action.price
    state.players[seller.name].companies.remove(action.company)
    company.owner = Owner.corporation(corp)
    game.event(CompanySold(corp, action.company, seller.name, action.price))

def usable_abilities(game: Game, corp: str) -> list[str]:
    """The private companies ``corp`` owns whose token it may still place this turn (1870:
    SCC's cattle token not yet placed; GSC's port, while the closed port can still replace
    the open one). The turn stays open for them until the corporation passes at its end, as
    18xx.games keeps the buy-company step open. (Tile-lay abilities do not hold the turn.)"""
    state, owner = game.state, Owner.corporation(corp)
    out = []
    for sym, company in state.companies.items():
        if company.owner != owner or company.closed:
            continue
        data = game.title.company(sym)
        assign = data.ability(AssignHexes)
        if assign is not None:
            tokens = assign.tokens
            placed_now = state.assignments.get(sym)
            if placed_now is None or (len(tokens) > 1
                                      and placed_now.token == next(iter(tokens))):
                out.append(sym)
    return out


def assign_token(game: Game, corp: str, action: Assign) -> None:
    """Place ``action.company``'s token for ``corp`` (see :class:`Special`)."""
    state = game.state
    company = state.companies.get(action.company)
    if company is None or company.closed or company.owner != Owner.corporation(corp):
        raise IllegalOrderError(f"{corp} does not own the private company {action.company}")
    ability = game.title.company(action.company).ability(AssignHexes)
    if ability is None:
        raise IllegalOrderError(f"{action.company} has no token to place")
    if action.hex not in ability.hexes:
        raise IllegalOrderError(f"{action.company}'s token goes on one of {', '.join(ability.hexes)}")
    placed_now = state.assignments.get(action.company)
    tokens = ability.tokens
    if placed_now is None:
        token = next(iter(tokens)) if tokens else ability.token
        state.assignments[action.company] = PrivateToken(action.hex, corp, token)
        game.event(PrivateTokenPlaced(corp, action.company, token, action.hex))
        return
    if len(tokens) > 1 and placed_now.hex == action.hex:
        second = list(tokens)[1]
        state.assignments[action.company] = PrivateToken(action.hex, corp, second)
        game.close_company(action.company)
        game.event(PrivateTokenPlaced(corp, action.company, second, action.hex, closes=True))
        return
    raise IllegalOrderError(f"{action.company}'s token is already on {placed_now.hex}")
