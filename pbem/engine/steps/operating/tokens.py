"""Station tokens in the operating round (1830 rules 6.1, 6.3)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pbem.engine import track
from pbem.engine.actions import Action, Pass, PlaceToken
from pbem.engine.events import StepPassed, TokenCityPending, TokenPlaced
from pbem.engine.values import DisplacedToken
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state, pass_step
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


def next_token_cost(game: Game, corp: str) -> int | None:
    """The price of ``corp``'s next station token, or None if it has none left: the title's
    ``station_tokens`` hook gives the prices in order and how many are placed."""
    costs, placed = game.hooks.track.station_tokens(game, corp)
    return costs[placed] if placed < len(costs) else None


class Token(OpStep):
    """Place one station token (1830 rules 6.3)."""

    name = "token"
    description = "place a station token (TOKEN), or PASS"
    optional = True
    takes = (PlaceToken, Pass)

    @classmethod
    def pass_note(cls, game: Game) -> str:
        return "no token this turn"

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        if op_state(game).token_placed or game.state.pending_teleport:
            return bool(game.state.pending_teleport) and not op_state(game).token_placed
        cost = next_token_cost(game, corp)
        if cost is None or cost > game.hooks.track.spending_power(game, corp):
            return False
        net = track.network(game, corp)
        for vertex in net.stops:
            if (vertex.is_city and track.token_problem(game, corp, vertex.coord, vertex.number, net) is None
                    and _spend_problem(game, corp, cost, PlaceToken(vertex.coord, vertex.number)) is None):
                return True
        return False

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if isinstance(action, Pass):
            if game.state.pending_teleport:  # the private's free token declined: the turn's own
                game.state.pending_teleport = None  # token placement is still to come
                game.event(StepPassed(corp, "placing the private's free token"))
                return
            pass_step(game, cls, "placing a token")
            return
        assert isinstance(action, PlaceToken)
        teleport = game.state.pending_teleport
        if action.using or (teleport and action.hex == teleport):
            if teleport is None or action.hex != teleport:
                raise IllegalOrderError("a private's token goes where its tile was just laid")
            place_token(game, corp, action, ignore_reach=True, free=True)
            game.state.pending_teleport = None
        else:
            place_token(game, corp, action)
        op_state(game).token_placed = True


    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        corp = current_corp(game)
        found: list[Action] = []
        teleport = game.state.pending_teleport
        if teleport:
            found += [PlaceToken(teleport, city) for city in range(len(track.placed(game, teleport).tile.cities))]
        net = track.network(game, corp)
        cost = next_token_cost(game, corp)
        for vertex in sorted(net.stops):
            if not vertex.is_city or track.token_problem(game, corp, vertex.coord, vertex.number, net) is not None:
                continue
            action = PlaceToken(vertex.coord, vertex.number)
            if cost is None or _spend_problem(game, corp, cost, action) is None:
                found.append(action)
        return [*found, Pass()]


def _spend_problem(game: Game, corp: str, cost: int, action: PlaceToken) -> str | None:
    """The title's objection to spending ``cost`` on the token ``action`` (none when free)."""
    return game.hooks.track.spend_problem(game, corp, cost, action) if cost else None


def place_token(game: Game, corp: str, action: PlaceToken, *, ignore_reach: bool = False, free: bool = False) -> None:
    """Place ``corp``'s next station token as ``action`` says, paying its cost (within the
    title's ``spending_power``, and its ``spend_problem`` none).

    :raises IllegalOrderError: the token rules, no token left, or the cost refused."""
    problem = track.token_problem(game, corp, action.hex, action.city, ignore_reach=ignore_reach)
    if problem:
        raise IllegalOrderError(problem + _other_cities(game, corp, action, ignore_reach))
    cost = next_token_cost(game, corp)
    if cost is None:
        raise IllegalOrderError(f"{corp} has no station tokens left")
    if free:
        cost = 0
    treasury = game.state.corporations[corp]
    if cost > game.hooks.track.spending_power(game, corp):
        raise IllegalOrderError(f"{corp} has {game.money(treasury.cash)}; the token costs {game.money(cost)}")
    problem = _spend_problem(game, corp, cost, action)
    if problem:
        raise IllegalOrderError(problem)
    treasury.cash -= cost
    game.state.bank += cost
    game.state.tokens.setdefault(track.city_key(action.hex, action.city), []).append(corp)
    game.event(TokenPlaced(corp, action.hex, cost))


def _other_cities(game: Game, corp: str, action: PlaceToken, ignore_reach: bool) -> str:
    """On a hex of several cities, the ones a token may go in instead (``"; TOKEN V20.1 would
    be accepted"``), or ``""``."""
    if action.hex not in game.board.hexes:
        return ""
    cities = range(len(track.placed(game, action.hex).tile.cities))
    if len(cities) < 2:
        return ""
    free = [f"TOKEN {action.hex}.{c}" for c in cities
            if c != action.city and track.token_problem(game, corp, action.hex, c, ignore_reach=ignore_reach) is None]
    return f" (city {action.hex}.{action.city}); " + (f"{' or '.join(free)} would be accepted" if free
                                                      else f"no city of {action.hex} takes {corp}'s token now")


def place_home_token(game: Game, corp: str) -> None:
    """Put ``corp``'s home token in its home city when it first operates (1830 rules 6.1). A
    home naming no city on a hex of several (:func:`pbem.engine.track.hex_home`) whose tile
    has track goes in the one city with room for it; where several have room, its
    president chooses (as a displaced token's owner does)."""
    if any(corp in corps for corps in game.state.tokens.values()):
        return
    data = game.title.corporation(corp)
    city = track.printed_city_now(game, data.home, data.home_city or 0)
    if track.hex_home(game, corp) is not None:
        tile = track.placed(game, data.home).tile
        if tile.paths:
            # track tells the cities apart (1830's ERIE on E11 upgraded before its token)
            free = [i for i in range(len(tile.cities)) if track.free_slots(game, data.home, i, corp) > 0]
            if len(free) != 1:
                game.state.pending_tokens.append(DisplacedToken(corp, data.home))
                game.event(TokenCityPending(corp, data.home))
                return
            city = free[0]
    game.state.tokens.setdefault(track.city_key(data.home, city), []).append(corp)
    game.event(TokenPlaced(corp, data.home, home=True))
