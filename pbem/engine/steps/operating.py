"""The operating round (1830 rules 6): each floated corporation in turn, highest share price
first, lays track, places a station token, runs its trains, pays or withholds, buys trains and
may buy private companies.

Each step says whether it *blocks* (the turn waits for it while it has something to offer)
and which actions it takes from whom. An action goes to the first active step that takes
it; a blocking step before it that still offers something must be done or passed first —
except the optional ones (track, token, buying a private), which an action of a later step
passes implicitly, as a player who writes "no track, token in X" means.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, ClassVar, Iterable, Mapping

from pbem.engine import market, protection, shares, track, trains
from pbem.engine.actions import (
    Action,
    Assign,
    Bankrupt,
    BuyPrivate,
    BuyShares,
    BuyTrain,
    DestinationToken,
    DiscardTrain,
    Dividend,
    LayTile,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from pbem.engine.state import IPO, POOL, OperatingState, corp_owner
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


def _or(game: Game) -> OperatingState:
    op = game.state.round.operating
    assert op is not None, "not in an operating round"
    return op


def current_corp(game: Game) -> str:
    """The corporation operating now."""
    op = _or(game)
    return op.order[op.index]


def president(game: Game, corp: str) -> str:
    """The president of ``corp`` (the player who gives its orders)."""
    pres = game.state.corporations[corp].president
    assert pres is not None, f"{corp} has no president"
    return pres


class OpStep:
    """A step of a corporation's turn."""

    name: ClassVar[str] = "op_step"
    description: ClassVar[str] = ""
    blocks: ClassVar[bool] = True
    optional: ClassVar[bool] = False
    sticky: ClassVar[bool] = False
    """A sticky step is never passed: it offers itself whenever its condition holds."""
    takes: ClassVar[tuple[type[Action], ...]] = ()

    @classmethod
    def offers(cls, game: Game) -> bool:
        """Whether the step has anything to offer now (if not, it is skipped)."""
        raise NotImplementedError

    @classmethod
    def actor(cls, game: Game) -> str:
        """Who acts in this step: by default the operating corporation's president."""
        return president(game, current_corp(game))

    @classmethod
    def describe(cls, game: Game) -> str:
        """What the step asks for now, with the order to give (by default ``description``)."""
        return cls.description

    @classmethod
    def subject(cls, game: Game) -> str:
        """The corporation the step is about: by default the operating one."""
        return current_corp(game)

    @classmethod
    def prepare(cls, game: Game) -> None:
        """What happens as the step comes up, every earlier step done (usually nothing)."""

    @classmethod
    def skip(cls, game: Game) -> None:
        """What happens when the step is skipped (usually nothing)."""

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        raise NotImplementedError

    @classmethod
    def legal(cls, game: Game) -> Iterable[Action]:
        """Example actions for the report (not necessarily every legal one)."""
        return ()


def _passed(game: Game, step: type[OpStep]) -> bool:
    return not step.sticky and step.name in _or(game).passed_steps


def _pass(game: Game, step: type[OpStep], what: str) -> None:
    """The operating corporation passes ``step`` (``what`` it declines, for the log)."""
    game.event(f"{current_corp(game)} passes {what}")
    _mark_passed(game, step)


def _mark_passed(game: Game, step: type[OpStep]) -> None:
    if step.sticky:
        return
    op = _or(game)
    if step.name not in op.passed_steps:
        op.passed_steps.append(step.name)


# -- track -----------------------------------------------------------------------------------


class PendingToken(OpStep):
    """A token lifted by a tile lay is placed again, in the city its owner chooses."""

    name = "pending_token"
    description = "choose the city for the token (TOKEN <hex>.<city>)"
    takes = (PlaceToken,)
    sticky = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        return bool(game.state.pending_tokens)

    @classmethod
    def actor(cls, game: Game) -> str:
        return president(game, game.state.pending_tokens[0][0])

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        corp, coord = game.state.pending_tokens[0]
        if action.hex != coord:
            raise IllegalOrderError(f"{corp}'s token goes back on {coord}")
        problem = track.token_problem(game, corp, coord, action.city, ignore_reach=True)
        if problem:
            raise IllegalOrderError(problem)
        game.state.pending_tokens.pop(0)
        game.state.tokens.setdefault(track.city_key(coord, action.city), []).append(corp)
        game.event(f"{corp} places its token on {coord} city {action.city}")


class Track(OpStep):
    """Lay one tile or upgrade one (1830 rules 6.2): reached by the corporation's track,
    terrain cost paid from the treasury, colours as the phase allows."""

    name = "track"
    description = "lay or upgrade a tile (LAY), or PASS"
    optional = True
    takes = (LayTile, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        entry = tile_lay_entry(game)
        if entry is not None and bool(entry["lay"] or entry["upgrade"]):
            return True
        return can_buy_tile_laying_company(game, current_corp(game))

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if isinstance(action, Pass):
            _pass(game, cls, "laying track")
            return
        assert isinstance(action, LayTile)
        if action.using:
            special_lay(game, corp, action)
            return
        problem = cls.problem(game, corp, action)
        if problem:
            from pbem.engine.lays import refusal

            raise IllegalOrderError(refusal(game, corp, action, problem))
        op = _or(game)
        upgrade = track.placed(game, action.hex).tile.color != "white"
        lay_tile(game, corp, action)
        op.tiles_laid += 1
        op.upgraded = op.upgraded or upgrade
        op.laid_hexes.append(action.hex)

    @classmethod
    def problem(cls, game: Game, corp: str, action: LayTile) -> str | None:
        """Why ``corp`` may not make the ordinary tile lay ``action`` (no ``USING``) now, or
        None: the one definition of a legal lay, which the order, the report's list of lays
        and a refusal's list of what fits all use. The turn's lays (1830: one lay or upgrade;
        1870: two new tiles or one upgrade, not twice on one hex), a hex whose free tile was
        laid this round (1870 MRBC), :func:`pbem.engine.track.lay_problem` (tile, phase,
        upgrade rules, reach), and the terrain cost against the treasury (1830 rules 6.2)."""
        entry = tile_lay_entry(game)
        if entry is None:
            return f"{corp} has laid its tiles this turn"
        if action.hex not in game.board.hexes:
            return f"there is no hex {action.hex}"
        op = _or(game)
        upgrade = track.placed(game, action.hex).tile.color != "white"
        if upgrade and not entry["upgrade"]:
            return f"{corp} may not upgrade a tile now (one upgrade, or {len(tile_lays(game))} new tiles, a turn)"
        if not upgrade and not entry["lay"]:
            return f"{corp} may not lay another new tile now"
        if entry.get("cannot_reuse_same_hex") and action.hex in op.laid_hexes:
            return f"{corp} has laid on {action.hex} this turn already"
        if action.hex in op.no_upgrade_hexes:
            return f"{action.hex} may not be upgraded in the round its free tile was laid"
        problem = track.lay_problem(game, corp, action.hex, action.tile, action.rotation)
        if problem:
            return problem
        cost = lay_cost(game, action.hex)
        cash = game.state.corporations[corp].cash
        if cost > cash:
            return f"{corp} has {game.money(cash)}; the terrain costs {game.money(cost)}"
        return None


def can_buy_tile_laying_company(game: Game, corp: str) -> bool:
    """Whether ``corp`` could still buy a private whose tile lay counts as one of its lays
    (1870: MRBC) — the track step then stays open, as 18xx.games plays it."""
    if not trains.phase_data(game.title, game.state.phase).corporations_may_buy_privates:
        return False
    cash = game.state.corporations[corp].cash
    for sym in purchasable(game, corp):
        ability = game.title.company(sym).ability("tile_lay")
        if ability is not None and not ability.data.get("extra", True) and price_range(game, sym)[0] <= cash:
            return True
    return False


def tile_lays(game: Game) -> list[dict[str, object]]:
    """The title's tile lays a turn (``game.yaml`` ``tile_lays``; 1830: one lay or upgrade,
    1870: two new tiles or one upgrade). Each entry: ``lay`` (True, False or
    ``"not_if_upgraded"``), ``upgrade`` (bool), optionally ``cannot_reuse_same_hex``."""
    return list(game.title.const("tile_lays", [{"lay": True, "upgrade": True}]))


def tile_lay_entry(game: Game) -> dict[str, object] | None:
    """What the next tile lay of this turn may be, or None when the lays are used up."""
    lays = tile_lays(game)
    op = _or(game)
    if op.tiles_laid >= len(lays):
        return None
    entry = dict(lays[op.tiles_laid])
    if entry.get("lay") == "not_if_upgraded":
        entry["lay"] = not op.upgraded
    if entry.get("upgrade") == "not_if_upgraded":
        entry["upgrade"] = not op.upgraded
    return entry


def lay_tile(game: Game, corp: str, action: LayTile, *, ignore_reach: bool = False, free: bool = False) -> None:
    """Lay ``action``'s tile for ``corp``: checks, terrain cost, tokens moved to the new tile."""
    problem = track.lay_problem(game, corp, action.hex, action.tile, action.rotation, ignore_reach=ignore_reach)
    if problem:
        raise IllegalOrderError(problem)
    state = game.state
    shown = track.placed(game, action.hex)
    cost = 0 if free else lay_cost(game, action.hex)
    if cost > state.corporations[corp].cash:
        raise IllegalOrderError(f"{corp} has {game.money(state.corporations[corp].cash)}; the terrain costs {game.money(cost)}")
    new = game.tiles[action.tile]
    if not shown.tile.paths and len(new.cities) > 1:
        # Tokens on a city hex without track yet (1830: the OO hexes) are placed again by
        # their owners in the city of their choice once track gives the cities an identity.
        for i in range(len(shown.tile.cities)):
            for owner in state.tokens.pop(track.city_key(action.hex, i), []):
                state.pending_tokens.append((owner, action.hex))
                game.event(f"{owner} must choose the city on {action.hex} for its token")
    else:
        _move_tokens(game, action.hex, shown, new, action.rotation)
    state.tiles[action.hex] = (action.tile, action.rotation)
    if cost:
        state.corporations[corp].cash -= cost
        state.bank += cost
    spent = f" spends {game.money(cost)} and" if cost else ""
    game.event(f"{corp}{spent} lays tile #{action.tile} with rotation {action.rotation} on {action.hex}")


def lay_cost(game: Game, coord: str) -> int:
    """What a tile on ``coord`` costs the treasury: the printed terrain cost for the first
    tile, nothing for an upgrade (1830 rules 6.2)."""
    shown = track.placed(game, coord)
    return game.board.hexes[coord].cost if shown.printed else 0


def _move_tokens(game: Game, coord: str, old: track.Placed, new: object, rotation: int) -> None:
    """Keep station tokens in the city that takes over each old city's track."""
    from pbem.engine.board import TileData

    assert isinstance(new, TileData)
    if len(old.tile.cities) <= 1:
        return
    moved: dict[str, list[str]] = {}
    for i in range(len(old.tile.cities)):
        key = track.city_key(coord, i)
        if key not in game.state.tokens:
            continue
        old_edges = {e for a, b in old.tile.paths_at(old.rotation) if f"c{i}" in (a, b)
                     for e in (a, b) if e.startswith("e")}
        target = i
        for j in range(len(new.cities)):
            new_edges = {e for a, b in new.paths_at(rotation) if f"c{j}" in (a, b)
                         for e in (a, b) if e.startswith("e")}
            if old_edges and old_edges <= new_edges:
                target = j
                break
        moved[track.city_key(coord, target)] = game.state.tokens.pop(key)
    game.state.tokens.update(moved)


def special_lay(game: Game, corp: str, action: LayTile) -> None:
    """A private company's tile lay (1830: CS on B20, extra; DH on F16 as the turn's lay)."""
    state = game.state
    company = action.using
    assert company is not None
    if state.companies.get(company) is None or state.companies[company].owner != corp_owner(corp):
        raise IllegalOrderError(f"{corp} does not own the private company {company}")
    data = game.title.company(company)
    ability = data.ability("tile_lay") or data.ability("teleport")
    if ability is None:
        raise IllegalOrderError(f"{company} has no tile-laying ability")
    if action.hex not in ability.data.get("hexes", []):
        raise IllegalOrderError(f"{company} may lay only on {', '.join(ability.data['hexes'])}")
    if action.tile not in [str(t) for t in ability.data.get("tiles", [])]:
        raise IllegalOrderError(f"{company} may lay only tile {', '.join(map(str, ability.data['tiles']))}")
    used = company in state.used_abilities
    if used:
        raise IllegalOrderError(f"{company}'s ability has been used")
    if ability.kind == "teleport":
        op = _or(game)
        if op.tiles_laid >= 1:
            raise IllegalOrderError(f"{corp} has laid its tile this turn")
        lay_tile(game, corp, action, ignore_reach=True)
        op.tiles_laid += 1
        op.laid_hexes.append(action.hex)
        state.pending_teleport = action.hex
    elif ability.data.get("extra", True):
        lay_tile(game, corp, action, ignore_reach=True, free=True)
    else:
        _lay_counted_with_discount(game, corp, action, company, ability.data)
    state.used_abilities.append(company)


def _lay_counted_with_discount(game: Game, corp: str, action: LayTile, company: str,
                               data: Mapping[str, object]) -> None:
    """A private's lay that is one of the corporation's normal lays, with a discount on the
    terrain (1870: MRBC, $40 off in a river hex). Bought by MP or SSW before its first turn is
    over, the lay in its home hex is free and extra, and that hex may not be upgraded in the
    same round (the private's ``free_home_lay``)."""
    state, op = game.state, _or(game)
    home = game.title.corporation(corp).home
    free_home = game.title.company(company).ability("free_home_lay")
    extra = (free_home is not None and corp in free_home.data.get("corporations", [])
             and action.hex == home and not state.corporations[corp].operated)
    if not extra and tile_lay_entry(game) is None:
        raise IllegalOrderError(f"{corp} has laid its tiles this turn")
    shown = track.placed(game, action.hex)
    cost = game.board.hexes[action.hex].cost if shown.printed else 0
    discount = min(cost, int(str(data.get("discount", 0))))
    if extra:
        discount = cost
    treasury = state.corporations[corp]
    treasury.cash += discount  # lay_tile charges the full terrain; the discount comes back
    try:
        lay_tile(game, corp, action, ignore_reach=bool(extra) or not data.get("reachable", True))
    except IllegalOrderError:
        treasury.cash -= discount
        raise
    if discount:
        game.event(f"{corp} receives a discount of {game.money(discount)} from {company}")
    if extra:
        op.no_upgrade_hexes.append(action.hex)
    else:
        op.tiles_laid += 1
        op.laid_hexes.append(action.hex)


# -- station tokens --------------------------------------------------------------------------


def next_token_cost(game: Game, corp: str) -> int | None:
    """The price of ``corp``'s next station token, or None if it has none left."""
    state = game.state
    placed = sum(1 for corps in state.tokens.values() if corp in corps)
    costs = list(game.title.corporation(corp).tokens)
    if corp in state.destination_on_charter:  # 1870: the spare destination token comes last
        costs.append(int(game.title.const("destination_token_value", 100)))
    elif corp in state.destinations_reached:
        placed -= 1  # 1870: the destination token on the map is not one of its own
    return costs[placed] if placed < len(costs) else None


class Token(OpStep):
    """Place one station token (1830 rules 6.3)."""

    name = "token"
    description = "place a station token (TOKEN), or PASS"
    optional = True
    takes = (PlaceToken, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        if _or(game).token_placed or game.state.pending_teleport:
            return bool(game.state.pending_teleport) and not _or(game).token_placed
        cost = next_token_cost(game, corp)
        if cost is None or cost > game.state.corporations[corp].cash:
            return False
        net = track.network(game, corp)
        for vertex in net.stops:
            coord, stop = track.split_vertex(vertex)
            if stop.startswith("c") and track.token_problem(game, corp, coord, int(stop[1:]), net) is None:
                return True
        return False

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if isinstance(action, Pass):
            _pass(game, cls, "placing a token")
            game.state.pending_teleport = None
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
        _or(game).token_placed = True


def place_token(game: Game, corp: str, action: PlaceToken, *, ignore_reach: bool = False, free: bool = False) -> None:
    """Place ``corp``'s next station token as ``action`` says, paying its cost."""
    problem = track.token_problem(game, corp, action.hex, action.city, ignore_reach=ignore_reach)
    if problem:
        raise IllegalOrderError(problem)
    cost = next_token_cost(game, corp)
    if cost is None:
        raise IllegalOrderError(f"{corp} has no station tokens left")
    if free:
        cost = 0
    treasury = game.state.corporations[corp]
    if cost > treasury.cash:
        raise IllegalOrderError(f"{corp} has {game.money(treasury.cash)}; the token costs {game.money(cost)}")
    treasury.cash -= cost
    game.state.bank += cost
    game.state.tokens.setdefault(track.city_key(action.hex, action.city), []).append(corp)
    spent = f" for {game.money(cost)}" if cost else ""
    game.event(f"{corp} places a token on {action.hex}{spent}")


def place_home_token(game: Game, corp: str) -> None:
    """Put ``corp``'s home token in its home city when it first operates (1830 rules 6.1)."""
    if any(corp in corps for corps in game.state.tokens.values()):
        return
    data = game.title.corporation(corp)
    city = data.home_city or 0
    game.state.tokens.setdefault(track.city_key(data.home, city), []).append(corp)
    game.event(f"{corp} places its home token on {data.home}")


# -- routes and revenue ----------------------------------------------------------------------


class Route(OpStep):
    """Run the trains (1830 rules 6.5); required when there is a route."""

    name = "route"
    description = "run the trains (RUN)"
    takes = (RunRoutes,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        if not game.state.corporations[corp].trains or _or(game).revenue is not None:
            return False
        return route_available(game, corp)

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        results = checked_runs(game, current_corp(game), action)
        op = _or(game)
        op.revenue = sum(result.revenue for result in results)
        op.routes = [list(r.stops) for r in results]


def checked_runs(game: Game, corp: str, action: RunRoutes) -> list[track.RouteResult]:
    """``corp``'s runs checked and priced (1830 rules 6.5), each logged.

    :raises IllegalOrderError: a train it does not own, or a run the rules forbid.
    """
    owned = list(game.state.corporations[corp].trains)
    runs: list[tuple[str, list[str]]] = []
    for run in action.runs:
        match = next((t for t in owned if trains.train_type(t) == run.train), None)
        if match is None:
            raise IllegalOrderError(f"{corp} has no {run.train} train left to run")
        owned.remove(match)
        runs.append((match, list(run.stops)))
    try:
        results = track.check_runs(game, corp, runs)
    except ValueError as exc:
        raise IllegalOrderError(str(exc)) from None
    for result in results:
        stops = "-".join(track.split_vertex(s)[0] for s in result.stops)
        game.event(f"{corp} runs a {trains.train_type(result.train)} train for {game.money(result.revenue)}: {stops}")
    game.last_run = results
    return results


def route_available(game: Game, corp: str) -> bool:
    """Whether ``corp`` has a route: its track joins a token city to another stop."""
    net = track.network(game, corp)
    return len(net.stops) >= 2


class DividendStep(OpStep):
    """Pay out or withhold (1830 rules 6.6): payout moves the price right, withholding (or
    no revenue) left; shares in the pool pay the corporation, shares in the IPO pay no one."""

    name = "dividend"
    description = "PAYOUT or WITHHOLD (or HALF where the title allows it)"
    takes = (Dividend,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = _or(game)
        return bool(op.revenue) and "dividend_done" not in op.passed_steps

    @classmethod
    def skip(cls, game: Game) -> None:
        op = _or(game)
        if "dividend_done" in op.passed_steps:
            return
        pay_dividend(game, current_corp(game), "withhold")

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Dividend)
        if action.choice not in game.hooks.dividend_kinds():
            raise IllegalOrderError(f"{action.choice} is not a choice in {game.title.title}: "
                                    f"{', '.join(game.hooks.dividend_kinds())}")
        pay_dividend(game, current_corp(game), action.choice)


def pay_dividend(game: Game, corp: str, choice: str) -> None:
    """Pay out, pay half or withhold this turn's revenue, and move the share price (1830
    rules 6.6; the title's hooks say what each choice keeps and pays, which holders pay the
    corporation, and which way the price moves)."""
    state, hooks = game.state, game.hooks
    op = _or(game)
    revenue = op.revenue or 0
    treasury = state.corporations[corp]
    treasury.last_revenue = revenue
    treasury.last_choice = choice if revenue else "did not run"
    op.passed_steps.append("dividend_done")
    op.passed_steps.append(DividendStep.name)
    kept = distribute(game, corp, revenue, choice)
    direction = hooks.price_move(revenue, revenue - kept)
    if direction == "right":
        _move(game, corp, hooks.right)
    elif direction == "left":
        _move(game, corp, hooks.left)
    treasury.operated = True
    game.check_bank()


def distribute(game: Game, corp: str, revenue: int, choice: str) -> int:
    """Pay ``revenue`` as ``choice`` says: the corporation keeps its part, each holder gets
    its shares' worth (the hooks say which bank holders pay the corporation). Returns the
    amount kept by the corporation."""
    state, title, hooks = game.state, game.title, game.hooks
    treasury = state.corporations[corp]
    share_pct = shares.share_percent(title, corp)
    total_shares = sum(title.corporation(corp).shares) // share_pct
    kept, per_share = hooks.split(revenue, choice, total_shares)
    if kept:
        treasury.cash += kept
        state.bank -= kept
    if not revenue:
        game.event(f"{corp} does not run")
    elif choice == "withhold":
        game.event(f"{corp} withholds {game.money(revenue)}")
    if per_share > 0:
        paid: list[str] = []
        for holder in state.seats:
            pct = state.percent_of(holder, corp)
            if pct:
                amount = hooks.dividend_amount(pct, share_pct, per_share)
                state.players[holder].cash += amount
                state.bank -= amount
                paid.append(f"{game.money(amount)} to {holder}")
        for holder in (IPO, POOL):
            pct = state.percent_of(holder, corp)
            if pct and hooks.pays_the_corporation(holder):
                amount = hooks.dividend_amount(pct, share_pct, per_share)
                treasury.cash += amount
                state.bank -= amount
                paid.append(f"{game.money(amount)} to {corp}")
        each = game.money(int(per_share)) if per_share == int(per_share) else f"{per_share:g}"
        if kept:
            game.event(f"{corp} keeps {game.money(kept)} and pays {game.money(revenue - kept)} = {each} per share "
                       f"({', '.join(paid)})")
        else:
            game.event(f"{corp} pays out {game.money(revenue)} = {each} per share ({', '.join(paid)})")
    return kept


def _move(game: Game, corp: str, how: object) -> None:
    treasury = game.state.corporations[corp]
    before = treasury.price
    assert before is not None
    after = how(game.title, before)  # type: ignore[operator]
    if market.move(game.state, game.title, corp, after):
        game.event(f"{corp}'s share price moves from {game.money(market.price_at(game.title, before))} "
                   f"to {game.money(market.price_at(game.title, after))}")


# -- trains ----------------------------------------------------------------------------------


def crowded(game: Game) -> list[str]:
    """Corporations over the train limit, in operating order."""
    limit = trains.train_limit(game)
    op = _or(game)
    return [c for c in op.order if len(game.state.corporations[c].trains) > limit] + [
        c for c, s in game.state.corporations.items() if c not in op.order and len(s.trains) > limit
    ]


class Discard(OpStep):
    """A corporation over the train limit after a phase change discards to the pool."""

    name = "discard_train"
    description = "discard a train over the limit (DISCARD)"
    takes = (DiscardTrain,)
    sticky = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        return bool(crowded(game))

    @classmethod
    def actor(cls, game: Game) -> str:
        return president(game, crowded(game)[0])

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, DiscardTrain)
        corp = crowded(game)[0]
        owned = game.state.corporations[corp].trains
        match = next((t for t in owned if trains.train_type(t) == action.train), None)
        if match is None:
            raise IllegalOrderError(f"{corp} has no {action.train} train")
        owned.remove(match)
        game.state.pool_trains.append(match)
        game.event(f"{corp} discards a {action.train} train")


def must_buy_train(game: Game, corp: str) -> bool:
    """A corporation with no train and a route must buy one (1830 rules 6.7)."""
    return (not game.state.corporations[corp].trains and bool(trains.depot_offer(game))
            and track.network(game, corp).route_for_train)


class BuyTrainStep(OpStep):
    """Buy trains (1830 rules 6.7): from the bank at the printed price (the cheapest type
    only), from the pool, or from another corporation at any price of at least 1; a
    corporation that must have a train and cannot pay gets its president's cash, then the
    president sells shares; if that is not enough, the president is bankrupt."""

    name = "buy_train"
    description = "buy trains (TRAIN), or PASS"
    takes = (BuyTrain, Pass, SellShares, Bankrupt)

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        if must_buy_train(game, corp):
            return True
        treasury = game.state.corporations[corp]
        if len(treasury.trains) >= trains.train_limit(game):
            return False
        prices = [trains.train_data(game.title, t).price for t in trains.depot_offer(game)]
        others = [t for c, s in game.state.corporations.items() if c != corp for t in s.trains]
        return bool(prices and min(prices) <= treasury.cash) or (bool(others) and treasury.cash >= 1)

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if isinstance(action, Pass):
            if must_buy_train(game, corp):
                raise IllegalOrderError(f"{corp} must buy a train")
            _pass(game, cls, "buying trains")
            return
        if isinstance(action, SellShares):
            emergency_sale(game, player, corp, action)
            return
        if isinstance(action, Bankrupt):
            game.bankrupt(player, corp)
            return
        assert isinstance(action, BuyTrain)
        buy_train(game, corp, action)


def buy_train(game: Game, corp: str, action: BuyTrain) -> None:
    """Buy a train for ``corp`` (see :class:`BuyTrainStep`)."""
    state, title = game.state, game.title
    treasury = state.corporations[corp]
    if len(treasury.trains) >= trains.train_limit(game):
        raise IllegalOrderError(f"{corp} is at the train limit of {trains.train_limit(game)}")
    offer = trains.depot_offer(game)
    if action.source in ("depot", "pool"):
        pool = action.source == "pool"
        candidates = [t for t in offer if trains.train_type(t) == action.train and ((t in state.pool_trains) == pool)]
        if not candidates:
            have = ", ".join(f"{trains.train_type(t)}{' (pool)' if t in state.pool_trains else ''}" for t in offer)
            raise IllegalOrderError(f"no {action.train} train is for sale {'in the pool' if pool else 'from the bank'} (for sale: {have})")
        train_id = candidates[0]
        price = trains.train_data(title, train_id).price
        exchange_id = None
        if action.exchange:
            data = trains.train_data(title, train_id)
            trade = dict(data.trade_in)
            if action.exchange not in trade:
                raise IllegalOrderError(f"a {action.exchange} train cannot be traded in for a {data.name}")
            exchange_id = next((t for t in treasury.trains if trains.train_type(t) == action.exchange), None)
            if exchange_id is None:
                raise IllegalOrderError(f"{corp} has no {action.exchange} train to trade in")
            price -= int(trade[action.exchange])
        if action.price is not None and action.price != price:
            raise IllegalOrderError(f"the {action.train} train costs {game.money(price)}")
        _pay_for_train(game, corp, price, from_depot=True)
        if pool:
            state.pool_trains.remove(train_id)
        else:
            state.depot.remove(train_id)
            trains.top_up_unlimited(game, train_id)
        if exchange_id:
            treasury.trains.remove(exchange_id)
            state.pool_trains.append(exchange_id)
        treasury.trains.append(train_id)
        state.bank += price
        verb = f"trades in a {action.exchange} train and buys" if exchange_id else "buys"
        where = "the pool" if pool else "the bank"
        game.event(f"{corp} {verb} a {trains.train_type(train_id)} train for {game.money(price)} from {where}")
        trains.after_first_of_type(game, train_id)
    else:
        seller = action.source
        if seller not in state.corporations or seller == corp:
            raise IllegalOrderError(f"{seller} is not another corporation")
        if action.price is None or action.price < 1:
            raise IllegalOrderError("a train from another corporation needs a price (FOR <price>)")
        owned = state.corporations[seller].trains
        bought = next((t for t in owned if trains.train_type(t) == action.train), None)
        if bought is None:
            raise IllegalOrderError(f"{seller} has no {action.train} train")
        if action.price > treasury.cash:
            raise IllegalOrderError(f"{corp} has {game.money(treasury.cash)}")
        treasury.cash -= action.price
        state.corporations[seller].cash += action.price
        owned.remove(bought)
        treasury.trains.append(bought)
        game.event(f"{corp} buys a {action.train} train for {game.money(action.price)} from {seller}")
    _or(game).trains_bought += 1
    game.after_train_bought(corp)


def _pay_for_train(game: Game, corp: str, price: int, *, from_depot: bool) -> None:
    treasury = game.state.corporations[corp]
    if price <= treasury.cash:
        treasury.cash -= price
        return
    if not must_buy_train(game, corp):
        raise IllegalOrderError(f"{corp} has {game.money(treasury.cash)}; the train costs {game.money(price)}")
    cheapest = trains.cheapest_depot_price(game)
    if cheapest is not None and price > cheapest:
        raise IllegalOrderError(f"with the president's money {corp} may buy only the cheapest train ({game.money(cheapest)})")
    pres = president(game, corp)
    need = price - treasury.cash
    player = game.state.players[pres]
    if player.cash < need:
        raise IllegalOrderError(
            f"{pres} has {game.money(player.cash)} but must add {game.money(need)}: sell shares first (SELL), or BANKRUPT"
        )
    player.cash -= need
    treasury.cash = 0
    game.event(f"{pres} contributes {game.money(need)}")


def emergency_sale(game: Game, player: str, corp: str, action: SellShares) -> None:
    """The president sells shares to raise money for a required train (1830 rules 6.7):
    no more than needed (one share fewer would not be enough), never so many of the
    operating corporation that its presidency changes; the corporations still to operate
    are then re-ordered by their new share prices. Where the title says
    ``emergency_sale_down_to_holding_limit`` (1870 as 18xx.games plays it), a player holding
    more than the 60% limit of a corporation sells at least down to the limit, and a sale
    to exactly the limit is allowed even if it raises more than needed."""
    if not must_buy_train(game, corp):
        raise IllegalOrderError("shares may be sold in an operating round only to buy a required train")
    state = game.state
    sym = action.corporation
    if sym == corp and state.corporations[corp].president == player:
        remaining = state.percent_of(player, corp) - action.count * shares.share_percent(game.title, corp)
        others = max(state.percent_of(p, corp) for p in state.seats if p != player)
        if remaining < others:
            raise IllegalOrderError(f"{player} may not sell the presidency of {corp} to buy its train")
    cheapest = trains.cheapest_depot_price(game) or 0
    need = cheapest - state.corporations[corp].cash - state.players[player].cash
    if sym in state.corporations and state.corporations[sym].price is not None:
        price = shares.current_price(state, game.title, sym)
        down_to_limit = False
        if game.title.const("emergency_sale_down_to_holding_limit", False):
            limit = int(game.title.const("max_percent_per_corporation", 60))
            held = state.percent_of(player, sym)
            after = held - action.count * shares.share_percent(game.title, sym)
            if held > limit and after > limit:
                raise IllegalOrderError(f"{player} holds {held}% of {sym}: a sale must bring it down "
                                        f"to {limit}% or less")
            down_to_limit = held > limit and after == limit
        if need <= 0 or ((action.count - 1) * price >= need and not down_to_limit):
            raise IllegalOrderError(f"{player} may sell only as many shares as needed for the train")
    game.sell_shares(player, sym, action.count)
    recalculate_order(game)


def recalculate_order(game: Game) -> None:
    """Re-sort the corporations that have not operated yet in this round by share price."""
    op = _or(game)
    rest = op.order[op.index + 1 :]
    order = [c for c in game.operating_order() if c in rest]
    op.order = op.order[: op.index + 1] + order


class BuyCompany(OpStep):
    """Buy a private company from a player (1830 rules 6.10, phases 3 and 4): price from
    half to twice its face value, agreed with the owner."""

    name = "buy_company"
    description = "buy a private company (BUY <private> <price>), or PASS"
    optional = True
    takes = (BuyPrivate, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        corp = current_corp(game)
        cash = game.state.corporations[corp].cash
        if any(price_range(game, c)[0] <= cash for c in purchasable(game, corp)):
            return True
        if usable_abilities(game, corp):
            return True  # the turn stays open for the private's ability until a PASS
        # 1870 as 18xx.games plays it: in phase 1, MP and SSW are offered the MRBC purchase
        # (and must pass it) even when it is no longer a player's to sell.
        if game.state.phase == game.title.phases[0].name:
            for sym, company in game.state.companies.items():
                early = game.title.company(sym).ability("buyable_in_phase_1")
                if early is not None and corp in early.data.get("corporations", []) and not company.closed:
                    return price_range(game, sym)[0] <= cash
        return False

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
            _pass(game, cls, "buying private companies")
            return
        assert isinstance(action, BuyPrivate)
        buy_company(game, corp, action)


class PriceProtection(OpStep):
    """At the end of the operating corporation's turn, price protection for the shares its
    president sold to raise cash for a train (1870 rules; see :mod:`pbem.engine.protection`):
    the president of each sold corporation, oldest sale first, may buy the shares back from
    the pool at the sale price, or the price drops; the corporations still to operate are then
    re-ordered by their new prices."""

    name = "price_protection"
    description = "protect the price of the shares sold (BUY <n> <corporation> POOL), or PASS"
    sticky = True
    takes = (BuyShares, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        return bool(game.state.sell_queue)

    @classmethod
    def prepare(cls, game: Game) -> None:
        if game.state.sell_queue:
            protection.settle(game)
            recalculate_order(game)

    @classmethod
    def actor(cls, game: Game) -> str:
        return str(protection.head(game)["president"])

    @classmethod
    def subject(cls, game: Game) -> str:
        return str(protection.head(game)["corporation"])

    @classmethod
    def describe(cls, game: Game) -> str:
        entry = protection.head(game)
        count, sym = int(entry["count"]), entry["corporation"]
        cost = game.money(int(entry["price"]) * count)
        return (f"protect the price of {sym}: buy the {count} share{'s' if count > 1 else ''} sold "
                f"(BUY {count} {sym} POOL, {cost}), or PASS and the price drops")

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        if player != cls.actor(game):
            raise IllegalOrderError(f"it is not {player}'s turn: waiting for {cls.actor(game)} to {cls.describe(game)}")
        if isinstance(action, Pass):
            protection.decline(game, forced=False)
        else:
            assert isinstance(action, BuyShares)
            protection.protect(game, player, action)
        protection.settle(game)
        recalculate_order(game)

    @classmethod
    def legal(cls, game: Game) -> Iterable[Action]:
        entry = protection.head(game)
        return (BuyShares(entry["corporation"], "pool", int(entry["count"])), Pass())


def purchasable(game: Game, corp: str) -> list[str]:
    """Private companies ``corp`` may buy now: owned by a player, not closed, not barred
    (1830: BO), in a phase that allows it — or, in a phase that does not, a private whose
    ``buyable_in_phase_1`` ability names ``corp`` (1870: MRBC for MP and SSW)."""
    allowed = trains.phase_data(game.title, game.state.phase).corporations_may_buy_privates
    out = []
    for sym, company in game.state.companies.items():
        data = game.title.company(sym)
        if company.closed or company.owner not in game.state.players or data.ability("no_buy") is not None:
            continue
        early = data.ability("buyable_in_phase_1")
        first_phase = game.state.phase == game.title.phases[0].name
        if allowed or (early is not None and first_phase and corp in early.data.get("corporations", [])):
            out.append(sym)
    return out


def price_range(game: Game, sym: str) -> tuple[int, int]:
    """The lowest and highest price a corporation may pay for private ``sym``: half to twice
    face value (1830 rules 6.10), unless an ability of the private says otherwise (1870:
    MRBC $20-$40 in phase 1, and until the first 3-train)."""
    data = game.title.company(sym)
    low, high = math.ceil(data.value / 2), data.value * 2
    early = data.ability("buyable_in_phase_1")
    if early is not None and game.state.phase == game.title.phases[0].name:
        low, high = int(early.data.get("min_price", low)), int(early.data.get("max_price", high))
    capped = data.ability("max_price_until_train")
    if capped is not None and str(capped.data.get("train")) not in game.state.types_sold:
        high = min(high, int(capped.data.get("max_price", high)))
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
    state.players[seller].cash += action.price
    state.players[seller].companies.remove(action.company)
    company.owner = corp_owner(corp)
    game.event(f"{corp} buys {action.company} from {seller} for {game.money(action.price)}")


# -- destination connections (1870) ----------------------------------------------------------


def queue_connections(game: Game) -> bool:
    """At the end of a corporation's turn: queue the connection runs now owed (the title's
    ``connections_due`` hook; the operating corporation first). True if any are waiting."""
    op = _or(game)
    if op.connections:
        return True
    current = current_corp(game)
    order = [current] + [c for c in op.order if c != current]
    due = game.hooks.connections_due(game, order)
    for corp in due:
        game.event(f"-- {corp} has connected to its destination "
                   f"{game.title.corporation(corp).destination} --")
    op.connections = list(due)
    return bool(due)


def connection_runnable(game: Game, corp: str) -> bool:
    """Whether one of ``corp``'s trains can run from its home to its destination now (the
    train must count every stop between, 1870 game.yaml)."""
    data = game.title.corporation(corp)
    held = game.state.corporations[corp].trains
    if not data.destination or not held:
        return False
    longest = max(trains.train_data(game.title, t).distance for t in held)
    home = track.stop_vertex(data.home, track.token_stop(game, data.home, data.home_city or 0))
    return track.fewest_stops(game, corp, home, data.destination, most=longest) is not None


def grant_connection(game: Game, corp: str) -> None:
    """A GM ruling: ``corp`` has connected to its destination, whatever the engine finds; its
    destination token choice and connection run come now, before anything else (1870).

    :raises IllegalOrderError: not in an operating round, or ``corp`` has no destination, has
        connected already or has no train.
    """
    state = game.state
    if state.round.kind != "operating":
        raise IllegalOrderError("a connection run is granted only in an operating round")
    if corp not in state.corporations or not game.title.corporation(corp).destination:
        raise IllegalOrderError(f"{corp} has no destination")
    if corp in state.destinations_reached:
        raise IllegalOrderError(f"{corp} has connected to its destination already")
    if not state.corporations[corp].trains or state.corporations[corp].closed:
        raise IllegalOrderError(f"{corp} has no train to make a connection run")
    op = _or(game)
    if corp in op.connections:
        raise IllegalOrderError(f"{corp}'s connection run is due already")
    op.connections.append(corp)
    game.event(f"-- GM ruling: {corp} has connected to its destination "
               f"{game.title.corporation(corp).destination} --")


def connecting_corp(game: Game) -> str:
    """The corporation making its connection run now."""
    return _or(game).connections[0]


class _ConnectionStep(OpStep):
    sticky = True

    @classmethod
    def actor(cls, game: Game) -> str:
        return president(game, connecting_corp(game))

    @classmethod
    def subject(cls, game: Game) -> str:
        return connecting_corp(game)


class ConnectionToken(_ConnectionStep):
    """The corporation that has connected chooses where its destination token goes (1870
    game.yaml: on the map, free, and the destination then counts twice; or on the charter as
    a spare token, with no bonus). Only the charter when it already has a token there."""

    name = "connection_token"
    description = "place the destination token (DESTINATION MAP) or keep it (DESTINATION CHARTER)"
    takes = (DestinationToken,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = _or(game)
        return bool(op.connections) and op.connections[0] not in game.state.destinations_reached

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, DestinationToken)
        state, corp = game.state, connecting_corp(game)
        destination = game.title.corporation(corp).destination
        assert destination is not None
        key = track.city_key(destination, 0)
        if action.choice == "map":
            if corp in state.tokens.get(key, []):
                raise IllegalOrderError(f"{corp} already has a token on {destination}: DESTINATION CHARTER")
            state.tokens.setdefault(key, []).append(corp)
            game.event(f"{corp} places its destination token on {destination}; runs starting or "
                       f"ending there count it twice")
        else:
            state.destination_on_charter.append(corp)
            value = game.title.const("destination_token_value", 100)
            game.event(f"{corp} keeps its destination token on the charter (a spare "
                       f"{game.money(int(value))} token), giving up the bonus")
        state.destinations_reached.append(corp)


class ConnectionRoute(_ConnectionStep):
    """The connection run: the corporation runs its trains at once, at least one of them
    from its home to its destination (1870 game.yaml)."""

    name = "connection_route"
    description = "make the connection run (RUN), one train from home to the destination"
    takes = (RunRoutes,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = _or(game)
        return (bool(op.connections) and op.connections[0] in game.state.destinations_reached
                and op.connection_revenue is None and connection_runnable(game, op.connections[0]))

    @classmethod
    def skip(cls, game: Game) -> None:
        op = _or(game)
        if op.connections and op.connections[0] in game.state.destinations_reached and op.connection_revenue is None:
            # granted by a GM ruling, but no train of its reaches: no run, nothing paid
            game.event(f"{op.connections.pop(0)} has no train that reaches its destination: no connection run")

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, RunRoutes)
        corp = connecting_corp(game)
        data = game.title.corporation(corp)
        ends = {data.home, data.destination}
        joined = any(len(run.stops) >= 2
                     and {run.stops[0].split(".")[0], run.stops[-1].split(".")[0]} == ends
                     for run in action.runs)
        if not joined:
            raise IllegalOrderError(f"one of {corp}'s trains must run from {data.home} to {data.destination}")
        results = checked_runs(game, corp, action)
        _or(game).connection_revenue = sum(result.revenue for result in results)


class ConnectionDividend(_ConnectionStep):
    """The connection run's revenue is paid out or withheld (no half); paying anything moves
    the price one cell right, withholding does not move it (1870 game.yaml)."""

    name = "connection_dividend"
    description = "PAYOUT or WITHHOLD the connection run"
    takes = (Dividend,)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = _or(game)
        return bool(op.connections) and op.connection_revenue is not None

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, Dividend)
        choices = game.title.const("connection_run_choices", ["payout", "withhold"])
        if action.choice not in choices:
            raise IllegalOrderError(f"a connection run is paid out or withheld, not {action.choice}")
        op, corp = _or(game), connecting_corp(game)
        revenue = op.connection_revenue or 0
        kept = distribute(game, corp, revenue, action.choice)
        if revenue - kept > 0:
            _move(game, corp, game.hooks.right)
        op.connections.pop(0)
        op.connection_revenue = None
        game.check_bank()


STEPS: tuple[type[OpStep], ...] = (ConnectionToken, ConnectionRoute, ConnectionDividend, PendingToken, Track, Token, Route, DividendStep, Discard, BuyTrainStep, BuyCompany,
                                        PriceProtection)
"""A corporation's turn, in order (1830 rules 6)."""


def active_steps(game: Game) -> list[type[OpStep]]:
    """Steps not yet passed that have something to offer, in order."""
    return [s for s in STEPS if not _passed(game, s) and s.offers(game)]


def pass_its_own_steps(game: Game) -> None:
    """Mark every step of the operating corporation's own turn passed (it has closed);
    the steps others act in (price protection, connection runs) stay."""
    op = _or(game)
    for step in STEPS:
        if not step.sticky and step.name not in op.passed_steps:
            op.passed_steps.append(step.name)


def skip_inactive(game: Game) -> None:
    """Skip (and pass) every step before the first one that offers something."""
    for step in STEPS:
        if _passed(game, step):
            continue
        step.prepare(game)
        if step.offers(game):
            return
        step.skip(game)
        _mark_passed(game, step)


class Special(OpStep):
    """A private company's ability, used at any time in its corporation's turn: a tile lay
    (1830: the CS's extra tile on B20, the DH's tile on F16; 1870: the MRBC) or a token
    (1870: SCC's cattle token; GSC's port, which a second use on the same hex closes)."""

    name = "special"
    description = "use a private company's ability"
    takes = (LayTile, Assign)

    @classmethod
    def offers(cls, game: Game) -> bool:
        return False

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        if isinstance(action, Assign):
            assign_token(game, current_corp(game), action)
        else:
            assert isinstance(action, LayTile)
            special_lay(game, current_corp(game), action)


def usable_abilities(game: Game, corp: str) -> list[str]:
    """The private companies ``corp`` owns whose token it may still place this turn (1870:
    SCC's cattle token not yet placed; GSC's port, while the closed port can still replace
    the open one). The turn stays open for them until the corporation passes at its end, as
    18xx.games keeps the buy-company step open. (Tile-lay abilities do not hold the turn.)"""
    state, owner = game.state, corp_owner(corp)
    out = []
    for sym, company in state.companies.items():
        if company.owner != owner or company.closed:
            continue
        data = game.title.company(sym)
        assign = data.ability("assign_hexes")
        if assign is not None:
            tokens = assign.data.get("tokens")
            placed_now = state.assignments.get(sym)
            if placed_now is None or (isinstance(tokens, dict) and len(tokens) > 1
                                      and placed_now["token"] == next(iter(tokens))):
                out.append(sym)
    return out


def assign_token(game: Game, corp: str, action: Assign) -> None:
    """Place ``action.company``'s token for ``corp`` (see :class:`Special`)."""
    state = game.state
    company = state.companies.get(action.company)
    if company is None or company.closed or company.owner != corp_owner(corp):
        raise IllegalOrderError(f"{corp} does not own the private company {action.company}")
    ability = game.title.company(action.company).ability("assign_hexes")
    if ability is None:
        raise IllegalOrderError(f"{action.company} has no token to place")
    if action.hex not in ability.data.get("hexes", []):
        raise IllegalOrderError(f"{action.company}'s token goes on one of {', '.join(ability.data['hexes'])}")
    placed_now = state.assignments.get(action.company)
    tokens = ability.data.get("tokens")
    if placed_now is None:
        token = next(iter(tokens)) if isinstance(tokens, dict) else str(ability.data.get("token", "token"))
        state.assignments[action.company] = {"hex": action.hex, "corp": corp, "token": token}
        game.event(f"{corp} places the {action.company} {token.replace('_', ' ')} token on {action.hex}")
        return
    if isinstance(tokens, dict) and len(tokens) > 1 and placed_now["hex"] == action.hex:
        second = list(tokens)[1]
        state.assignments[action.company] = {"hex": action.hex, "corp": corp, "token": second}
        game.close_company(action.company)
        game.event(f"{corp} turns the {action.company} token on {action.hex} into the "
                   f"{second.replace('_', ' ')}; the private company {action.company} closes")
        return
    raise IllegalOrderError(f"{action.company}'s token is already on {placed_now['hex']}")


def step_for(game: Game, player: str, action: Action) -> type[OpStep]:
    """The step that takes ``action`` now, passing optional steps before it.

    :raises IllegalOrderError: not this player's turn, or a required step comes first.
    """
    if (isinstance(action, LayTile) and action.using) or isinstance(action, Assign):
        if Special.actor(game) != player:
            raise IllegalOrderError(f"it is not {player}'s turn: {current_corp(game)} is operating")
        return Special
    active = active_steps(game)
    if not active:
        raise IllegalOrderError("no corporation is operating")
    blocking = active[0]
    taker = next((s for s in active if isinstance(action, s.takes)), None)
    if isinstance(action, BuyPrivate) and action.price is not None:
        taker = BuyCompany  # at any time in the turn; buy_company says why not, if not
    if taker is None:
        raise IllegalOrderError(f"{action.kind.replace('_', ' ')} is not possible now; {blocking.actor(game)} must {blocking.describe(game)}")
    if blocking is not taker and not isinstance(action, BuyPrivate):
        for step in active[: active.index(taker)]:
            if not step.optional:
                raise IllegalOrderError(f"first {step.describe(game)}")
    if taker is BuyCompany and isinstance(action, BuyPrivate):
        if BuyCompany.actor(game) != player:
            raise IllegalOrderError(f"it is not {player}'s turn: {current_corp(game)} is operating")
        return taker
    if taker.actor(game) != player:
        raise IllegalOrderError(f"it is not {player}'s turn: waiting for {taker.actor(game)} to {taker.describe(game)}")
    if taker is not blocking and blocking.actor(game) != player:
        raise IllegalOrderError(f"it is not {player}'s turn: waiting for {blocking.actor(game)} to {blocking.describe(game)}")
    if taker is not blocking and not isinstance(action, BuyPrivate):
        for step in active[: active.index(taker)]:
            _mark_passed(game, step)
    return taker
