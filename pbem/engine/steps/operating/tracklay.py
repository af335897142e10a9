"""Laying track in the operating round (1830 rules 6.2): the track step, a token lifted by a
tile lay, the private companies' tile lays."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Iterable

from pbem.engine.abilities import FreeHomeLay, Teleport, TileLayAbility
from pbem.engine import track, trains
from pbem.engine.actions import Action, LayTile, Pass, PlaceToken
from pbem.engine.events import DiscountReceived, TileLaid, TokenCityChosen, TokenCityPending
from pbem.engine.settings import TileLay
from pbem.engine.values import CityRef, DisplacedToken, Owner
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state, pass_step, president
from pbem.engine.steps.operating.privates import price_range, purchasable
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game


TOKEN_CITY_AFTER_LAY = "token_city_after_lay"
"""The title rule of who chooses the city of a token lifted by a tile lay that gives the hex's
cities an identity (1830's OO hexes): ``layer``, the president of the corporation laying the
tile (18xx.games plays it so); ``owner``, the token's own president."""


class PendingToken(OpStep):
    """A token lifted by a tile lay (or a home token on a hex of several cities) is placed
    again, in the city its chooser (:class:`~pbem.engine.values.DisplacedToken`) chooses."""

    name = "pending_token"
    description = "choose the city for the token (TOKEN <hex>.<city>)"
    takes = (PlaceToken,)
    sticky = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        return bool(game.state.pending_tokens)

    @classmethod
    def actor(cls, game: Game) -> str:
        return president(game, cls.subject(game))

    @classmethod
    def subject(cls, game: Game) -> str:
        """The corporation choosing: the token's owner or the one that laid the tile (not
        necessarily the operating corporation)."""
        entry = game.state.pending_tokens[0]
        return entry.chooser or entry.corporation

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        corp, coord, _ = game.state.pending_tokens[0]
        if action.hex != coord:
            raise IllegalOrderError(f"{corp}'s token goes back on {coord}")
        problem = track.token_problem(game, corp, coord, action.city, ignore_reach=True)
        if problem:
            raise IllegalOrderError(problem)
        game.state.pending_tokens.pop(0)
        game.state.tokens.setdefault(track.city_key(coord, action.city), []).append(corp)
        game.event(TokenCityChosen(corp, coord, action.city))

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        coord = game.state.pending_tokens[0].hex
        return [PlaceToken(coord, city) for city in range(len(track.placed(game, coord).tile.cities))]


class Track(OpStep):
    """Lay one tile or upgrade one (1830 rules 6.2): reached by the corporation's track,
    terrain cost paid from the treasury, colours as the phase allows."""

    name = "track"
    description = "lay or upgrade a tile (LAY), or PASS"
    optional = True
    takes = (LayTile, Pass)

    @classmethod
    def pass_note(cls, game: Game) -> str:
        return "no track this turn"

    @classmethod
    def offers(cls, game: Game) -> bool:
        entry = tile_lay_entry(game)
        if entry is not None and bool(entry.lay or entry.upgrade):
            return True
        corp = current_corp(game)
        return bool(track_step_abilities(game, corp)) or can_buy_tile_laying_company(game, corp)

    @classmethod
    def describe(cls, game: Game) -> str:
        entry = tile_lay_entry(game)
        held = track_step_abilities(game, current_corp(game))
        if held and not (entry is not None and (entry.lay or entry.upgrade)):
            return f"lay {' or '.join(held)}'s tile (LAY <hex> <tile> <rotation> USING {held[0]}), or PASS"
        return cls.description

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        if isinstance(action, Pass):
            pass_step(game, cls, "laying track")
            return
        assert isinstance(action, LayTile)
        if action.using:
            special_lay(game, corp, action)
            return
        problem = cls.problem(game, corp, action)
        if problem:
            from pbem.engine.lays import refusal

            raise IllegalOrderError(refusal(game, corp, action, problem))
        op = op_state(game)
        upgrade = game.hooks.track.counts_as_upgrade(game, action.hex)
        lay_tile(game, corp, action)
        op.tiles_laid += 1
        op.upgraded = op.upgraded or upgrade
        op.laid_hexes.append(action.hex)

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """Every ordinary lay :meth:`problem` allows (:func:`pbem.engine.lays.legal_lays`,
        no copy of the game needed), then PASS."""
        from pbem.engine.lays import legal_lays

        found: list[Action] = [LayTile(lay.hex, lay.tile, lay.rotation) for lay in legal_lays(game, current_corp(game))]
        return [*found, Pass()]

    @classmethod
    def problem(cls, game: Game, corp: str, action: LayTile) -> str | None:
        """Why ``corp`` may not make the ordinary tile lay ``action`` (no ``USING``) now, or
        None: the one definition of a legal lay, which the order, the report's list of lays
        and a refusal's list of what fits all use. The turn's lays (1830: one lay or upgrade;
        1870: two new tiles or one upgrade, not twice on one hex; what counts as an upgrade is
        the title's ``counts_as_upgrade``), a hex whose free tile was laid this round (1870
        MRBC), :func:`pbem.engine.track.lay_problem` (tile, phase, upgrade rules, reach), and
        the terrain cost against what the title's ``spending_power`` allows (1830 rules 6.2:
        the treasury) and its ``spend_problem`` (1825: credit a run must repay)."""
        entry = tile_lay_entry(game)
        if entry is None:
            return f"{corp} has laid its tiles this turn"
        if action.hex not in game.board.hexes:
            return f"there is no hex {action.hex}"
        op = op_state(game)
        upgrade = game.hooks.track.counts_as_upgrade(game, action.hex)
        if upgrade and not entry.upgrade:
            return f"{corp} may not upgrade a tile now (one upgrade, or {len(tile_lays(game))} new tiles, a turn)"
        if not upgrade and not entry.lay:
            return f"{corp} may not lay another new tile now"
        if entry.cannot_reuse_same_hex and action.hex in op.laid_hexes:
            return f"{corp} has laid on {action.hex} this turn already"
        if action.hex in op.no_upgrade_hexes:
            return f"{action.hex} may not be upgraded in the round its free tile was laid"
        problem = track.lay_problem(game, corp, action.hex, action.tile, action.rotation)
        if problem:
            return problem
        cost = lay_cost(game, action.hex)
        cash = game.state.corporations[corp].cash
        if cost > game.hooks.track.spending_power(game, corp):
            return f"{corp} has {game.money(cash)}; the terrain costs {game.money(cost)}"
        return game.hooks.track.spend_problem(game, corp, cost, action) if cost else None


def _teleport_token_fits(game: Game, corp: str, coord: str) -> bool:
    """Whether ``corp`` has a station token left to place, free, on the tile its private just
    laid on ``coord`` (1830's D&H: the token goes with the tile only if one is left)."""
    from pbem.engine.steps.operating.tokens import next_token_cost

    if next_token_cost(game, corp) is None:
        return False
    cities = range(len(track.placed(game, coord).tile.cities))
    return any(track.token_problem(game, corp, coord, city, ignore_reach=True) is None for city in cities)


def track_step_abilities(game: Game, corp: str) -> list[str]:
    """The private companies ``corp`` owns whose tile lay is made in the track step and is
    still unused (a ``tile_lay`` ability with ``extra: false``; 1870: MRBC). Each keeps the
    track step open until the lay is made or the step passed (issue 11, fault 2; 18xx.games
    keeps its track step open for such an ability), even once the normal lays are used."""
    state, owner = game.state, Owner.corporation(corp)
    out: list[str] = []
    for sym, company in state.companies.items():
        if company.owner != owner or company.closed or sym in state.used_abilities:
            continue
        ability = game.title.company(sym).ability(TileLayAbility)
        if ability is not None and not ability.extra:
            out.append(sym)
    return out


def can_buy_tile_laying_company(game: Game, corp: str) -> bool:
    """Whether ``corp`` could still buy a private whose tile lay counts as one of its lays
    (1870: MRBC) — the track step then stays open, as 18xx.games plays it."""
    if not trains.phase_data(game.title, game.state.phase).corporations_may_buy_privates:
        return False
    cash = game.state.corporations[corp].cash
    for sym in purchasable(game, corp):
        ability = game.title.company(sym).ability(TileLayAbility)
        if ability is not None and not ability.extra and price_range(game, sym)[0] <= cash:
            return True
    return False


def tile_lays(game: Game) -> tuple[TileLay, ...]:
    """The title's tile lays a turn (``game.yaml`` ``tile_lays``; 1830: one lay or upgrade,
    1870: two new tiles or one upgrade)."""
    return game.title.settings.tile_lays


def tile_lay_entry(game: Game) -> TileLay | None:
    """What the next tile lay of this turn may be (its ``lay`` a bool: a lay allowed only if
    no upgrade came before it is decided here), or None when the lays are used up."""
    lays = tile_lays(game)
    op = op_state(game)
    if op.tiles_laid >= len(lays):
        return None
    entry = lays[op.tiles_laid]
    if entry.lay == "not_if_upgraded":
        return dataclasses.replace(entry, lay=not op.upgraded)
    return entry


def lay_tile(game: Game, corp: str, action: LayTile, *, ignore_reach: bool = False, free: bool = False) -> None:
    """Lay ``action``'s tile for ``corp``: checks, terrain cost, tokens moved to the new tile."""
    problem = track.lay_problem(game, corp, action.hex, action.tile, action.rotation, ignore_reach=ignore_reach)
    if problem:
        raise IllegalOrderError(problem)
    state = game.state
    shown = track.placed(game, action.hex)
    cost = 0 if free else lay_cost(game, action.hex)
    if cost > game.hooks.track.spending_power(game, corp):
        raise IllegalOrderError(f"{corp} has {game.money(state.corporations[corp].cash)}; the terrain costs {game.money(cost)}")
    new = game.tiles[action.tile]
    if not shown.tile.paths and len(new.cities) > 1:
        # Tokens on a city hex without track yet (1830: the OO hexes) are placed again in the
        # city the layer or their owner chooses (TOKEN_CITY_AFTER_LAY) once track gives the
        # cities an identity.
        chooser = corp if game.title.title_rule(TOKEN_CITY_AFTER_LAY) == "layer" else ""
        for i in range(len(shown.tile.cities)):
            for owner in state.tokens.pop(track.city_key(action.hex, i), []):
                state.pending_tokens.append(DisplacedToken(owner, action.hex, chooser))
                game.event(TokenCityPending(owner, action.hex))
    else:
        _move_tokens(game, action.hex, shown, new, action.rotation)
    state.tiles[action.hex] = (action.tile, action.rotation)
    if cost:
        state.corporations[corp].cash -= cost
        state.bank += cost
    game.event(TileLaid(corp, action.tile, action.rotation, action.hex, cost))


def lay_cost(game: Game, coord: str) -> int:
    """What a tile on ``coord`` costs the treasury: the printed terrain cost for the first
    tile, nothing for an upgrade (1830 rules 6.2)."""
    shown = track.placed(game, coord)
    return game.board.hexes[coord].cost if shown.printed else 0


def _move_tokens(game: Game, coord: str, old: track.Placed, new: object, rotation: int) -> None:
    """Keep station tokens in the city that takes over each old city's track (cities that
    merge into one, 1825's London and Liverpool, bring it all their tokens)."""
    from pbem.engine.board import TileData

    assert isinstance(new, TileData)
    if len(old.tile.cities) <= 1:
        return
    moved: dict[CityRef, list[str]] = {}
    for i in range(len(old.tile.cities)):
        key = track.city_key(coord, i)
        if key not in game.state.tokens:
            continue
        old_edges = track.city_edges(old.tile, old.rotation, i)
        target = next((j for j in range(len(new.cities))
                       if old_edges and old_edges <= track.city_edges(new, rotation, j)),
                      i if i < len(new.cities) else 0)
        moved.setdefault(track.city_key(coord, target), []).extend(game.state.tokens.pop(key))
    game.state.tokens.update(moved)


def special_lay(game: Game, corp: str, action: LayTile) -> None:
    """A private company's tile lay (1830: CS on B20, extra; DH on F16 as the turn's lay, so
    only while the track step is open: "The tile laid is the owning corporation's one tile
    placement for the turn", the D&H's text in 1830's rules)."""
    state = game.state
    company = action.using
    assert company is not None
    if state.companies.get(company) is None or state.companies[company].owner != Owner.corporation(corp):
        raise IllegalOrderError(f"{corp} does not own the private company {company}")
    data = game.title.company(company)
    ability = data.ability(TileLayAbility) or data.ability(Teleport)
    if ability is None:
        raise IllegalOrderError(f"{company} has no tile-laying ability")
    if action.hex not in ability.hexes:
        raise IllegalOrderError(f"{company} may lay only on {', '.join(ability.hexes)}")
    if action.tile not in [str(t) for t in ability.tiles]:
        raise IllegalOrderError(f"{company} may lay only tile {', '.join(map(str, ability.tiles))}")
    used = company in state.used_abilities
    if used:
        raise IllegalOrderError(f"{company}'s ability has been used")
    if isinstance(ability, Teleport):
        op = op_state(game)
        if op.tiles_laid >= 1:
            raise IllegalOrderError(f"{corp} has laid its tile this turn")
        if Track.name in op.passed_steps:  # it is the turn's one tile placement, so in the track step
            raise IllegalOrderError(f"{corp} has passed its track step: {company}'s tile is its tile "
                                    "placement for the turn")
        lay_tile(game, corp, action, ignore_reach=True)
        op.tiles_laid += 1
        op.laid_hexes.append(action.hex)
        if _teleport_token_fits(game, corp, action.hex):
            state.pending_teleport = action.hex
    elif ability.extra:
        lay_tile(game, corp, action, ignore_reach=True, free=True)
    else:
        _lay_counted_with_discount(game, corp, action, company, ability)
    state.used_abilities.append(company)


def _lay_counted_with_discount(game: Game, corp: str, action: LayTile, company: str,
                               ability: TileLayAbility) -> None:
    """A private's lay made in the track step (not once it is passed), with a discount on the
    terrain (1870: MRBC, $40 off in a river hex). It takes one of the corporation's normal lays while one is left, but
    may also be made after both (as 18xx.games plays it: the ability is not bound by the
    turn's lays). Bought by MP or SSW before its first turn is over, the lay in its home hex
    is free and extra, and that hex may not be upgraded in the same round (the private's
    ``free_home_lay``)."""
    state, op = game.state, op_state(game)
    extra = _free_home_lay(game, corp, company, action.hex)
    if not extra and Track.name in op.passed_steps:  # 18xx.games: the ability's ``when: track``
        raise IllegalOrderError(f"{corp} has passed its track step: {company}'s lay is made in it")
    shown = track.placed(game, action.hex)
    cost = game.board.hexes[action.hex].cost if shown.printed else 0
    discount = min(cost, ability.discount)
    if extra:
        discount = cost
    treasury = state.corporations[corp]
    treasury.cash += discount  # lay_tile charges the full terrain; the bank gives the discount back
    state.bank -= discount
    try:
        lay_tile(game, corp, action, ignore_reach=bool(extra) or not ability.reachable)
    except IllegalOrderError:
        treasury.cash -= discount
        state.bank += discount
        raise
    if discount:
        game.event(DiscountReceived(corp, discount, company))
    if extra:
        op.no_upgrade_hexes.append(action.hex)
    else:
        op.tiles_laid += 1
        op.laid_hexes.append(action.hex)


def _free_home_lay(game: Game, corp: str, company: str, coord: str) -> bool:
    """Whether ``company``'s lay on ``coord`` is ``corp``'s free, extra home lay (1870 MRBC
    bought by MP or SSW before its first turn is over: the private's ``free_home_lay``)."""
    free_home = game.title.company(company).ability(FreeHomeLay)
    return (free_home is not None and corp in free_home.corporations
            and coord == game.title.corporation(corp).home and not game.state.corporations[corp].operated)


def _special_ignores_reach(game: Game, corp: str, company: str, ability: TileLayAbility | Teleport,
                           coord: str) -> bool:
    """Whether :func:`special_lay` lays ``company``'s tile on ``coord`` without asking that
    ``corp`` reaches it: a teleport, an extra lay, an ability not ``reachable``, a free home
    lay (:func:`_free_home_lay`)."""
    if isinstance(ability, Teleport) or ability.extra or not ability.reachable:
        return True
    return _free_home_lay(game, corp, company, coord)


def special_lay_candidates(game: Game, corp: str) -> list[LayTile]:
    """The lays (``USING``) of the private companies ``corp`` owns whose tile-lay ability is
    unused: every hex, tile and rotation the ability names that the tile rules allow there
    (:func:`pbem.engine.track.lay_problem`, with reach where :func:`special_lay` asks for it:
    a hex the corporation does not reach is not tried); the lay itself is checked by
    :func:`special_lay` when applied."""
    state, owner = game.state, Owner.corporation(corp)
    out: list[LayTile] = []
    for sym, company in state.companies.items():
        if company.owner != owner or company.closed or sym in state.used_abilities:
            continue
        data = game.title.company(sym)
        ability = data.ability(TileLayAbility) or data.ability(Teleport)
        if ability is None:
            continue
        for coord in ability.hexes:
            if coord not in game.board.hexes:
                continue
            ignore_reach = _special_ignores_reach(game, corp, sym, ability, coord)
            if not ignore_reach and coord not in game.hooks.track.lays_without_reach(game, corp) \
                    and not track.network(game, corp).hex_edges.get(coord):
                continue  # lay_problem refuses every tile there: the corporation does not reach it
            for tile in [str(t) for t in ability.tiles]:
                for rotation in range(6):
                    if tile in game.tiles and track.lay_problem(
                            game, corp, coord, tile, rotation, ignore_reach=ignore_reach) is None:
                        out.append(LayTile(coord, tile, rotation, sym))
    return out
