"""The designated powers in the operating round (Lorenz rule 5 and the private companies'
texts): the owner of TWW, C&HP or C&W gives its power to an operating public company they
direct (``ASSIGN``), and that company uses it in its own turn.

* TWW: a free extra tile lay or upgrade on Durham (K13), outside the turn's lays; an upgrade
  closes TWW at once, a first yellow tile leaves it open (until the first 5-train closes
  every private).
* C&HP: the company's lay on the mountain P14 at half its terrain cost; C&HP stays open.
  Until then no company may lay track on P14 (:func:`peak_problem`).
* C&W: a free station token in Dover (W25), connected or not; C&W closes. Until then Dover
  is kept for it: no other token goes there (:func:`dover_reserved`), though routes pass
  through it.

One check decides each order (:func:`assign_problem`, :func:`use_problem`): the order is
refused with its reason, and the same check picks the orders the legal moves list
(:meth:`PowerStep.legal_actions`), which the report offers and HELP describes.

Readings (the variant does not say; each a setting of :mod:`.readings`, the other reading a
variant): ASSIGN in an operating round, at any time of it, by the private's owner, for a
company that has floated and that they direct (or also in their stock turn:
``lorenz_assign_any_time``); a designation stands once given (or may be moved while the
power is unused: the same variant); the powers are used in the designated company's turn, by
its Director; TWW's lay needs no connection (or it does: ``lorenz_tww_needs_reach``); C&HP's
build is one of the turn's lays and needs the company's track to reach P14 (or is an extra
lay, connected or not: ``lorenz_chp_extra_lay``); C&W's token is one of the company's own
(or an extra one: ``lorenz_cw_extra_token``).
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import TYPE_CHECKING, Iterator

from pbem.engine.state import RoundKind
from pbem.engine import lays, track
from pbem.engine.actions import Action, LayTile, PlaceToken
from pbem.engine.events import CompanyClosed, TokenPlaced
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state, president
from pbem.engine.steps.operating.tokens import next_token_cost, place_token
from pbem.engine.steps.operating.tracklay import lay_tile, tile_lay_entry
from pbem.engine.steps.stock import BuySellParShares
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.titles.g1825.lorenz.actions import Designate, PowerLay, PowerToken
from pbem.titles.g1825.lorenz.events import Designated, PowerUsed
from pbem.titles.g1825.lorenz.facts import CHP, CW, DESIGNATED, DOVER, DURHAM, PEAK, TWW, plays
from pbem.titles.g1825.lorenz.readings import (
    ASSIGN_ANY_TIME, CHP_NEEDS_REACH, CHP_TURN_LAY, CW_OWN_TOKEN, DESIGNATION_MAY_CHANGE, TWW_IGNORES_REACH, reading,
)
from pbem.titles.g1825.lorenz.state import lorenz_state

if TYPE_CHECKING:
    from pbem.engine.game import Game

HEX_OF = {TWW: DURHAM, CHP: PEAK, CW: DOVER}
"""Where each designated power is used."""


def in_play(game: Game) -> bool:
    """Whether the game plays the variant (``lorenz``, or a variant of its readings)."""
    return plays(game.title.variants)


def is_open(game: Game, company: str) -> bool:
    """Whether ``company`` is in the game and not closed."""
    found = game.state.companies.get(company)
    return found is not None and not found.closed


def holder(game: Game, company: str) -> str | None:
    """The public company designated for ``company``'s power, or None."""
    return lorenz_state(game.state).designated.get(company)


def off_the_map(game: Game, company: str) -> str | None:
    """Why ``company``'s power can never be used in this game, or None: its hex is not on
    the map of the units in play (C&HP in a game without Unit 2 has no P14)."""
    coord = HEX_OF.get(company)
    if coord is None or coord in game.board.hexes:
        return None
    return unusable(company)


def unusable(company: str) -> str:
    """The words for ``company``'s power whose hex is not on the map (the refusal, and
    HELP's note of the game)."""
    coord = HEX_OF[company]
    return f"{company}'s power (used on {coord}) cannot be used in this game: {coord} is not on the map of the units in play"


def peak_problem(game: Game, coord: str) -> str | None:
    """Why no tile may go on ``coord`` now for this reason, or None: P14 is kept for C&HP's
    designated company until it has used the power (or C&HP has closed)."""
    if coord != PEAK or not in_play(game) or not is_open(game, CHP) or CHP in lorenz_state(game.state).used:
        return None
    return f"{PEAK} is kept for the company with C&HP's power until it has built there (LAY {PEAK} ... USING C&HP)"


def dover_reserved(game: Game) -> bool:
    """Whether Dover's slot is kept for the company with C&W's power (C&W open, its token not
    placed): no other token may go there."""
    return in_play(game) and is_open(game, CW) and CW not in lorenz_state(game.state).used


def extra_tokens(game: Game, corp: str) -> int:
    """How many of ``corp``'s tokens on the map are not of its charter: 1 for C&W's token in
    Dover where the game reads it as an extra token (:data:`~.readings.CW_OWN_TOKEN` off),
    else 0."""
    if not in_play(game) or reading(game, CW_OWN_TOKEN) or CW not in lorenz_state(game.state).used:
        return 0
    if holder(game, CW) != corp or DOVER not in game.board.hexes:
        return 0
    cities = range(len(track.placed(game, DOVER).tile.cities))
    return int(any(corp in game.state.tokens.get(track.city_key(DOVER, city), []) for city in cities))


# -- ASSIGN ---------------------------------------------------------------------------------------


def assign_problem(game: Game, player: str, company: str, corp: str) -> str | None:
    """Why ``player`` may not give ``company``'s power to ``corp`` now, or None: the one check
    of ``ASSIGN`` (its refusal, and the legal moves, :func:`assign_offers`). Not the variant;
    not one of the three privates; outside an operating round (unless the game reads ASSIGN
    as allowed at any time); not ``player``'s or closed; given already (unless the game lets
    an unused power move, to another company); ``corp`` has not floated, has closed or is not
    ``player``'s."""
    state = game.state
    if not in_play(game):
        return "privates give powers to companies only in Lorenz's variant"
    if company not in DESIGNATED:
        return f"{company} has no power to give: only {', '.join(DESIGNATED)} have"
    unusable = off_the_map(game, company)
    if unusable:
        return unusable
    if state.round.kind != RoundKind.OPERATING and not reading(game, ASSIGN_ANY_TIME):
        return (f"a private's power is given in an operating round (ASSIGN {company} <company>), as this game "
                "reads the variant (the variant lorenz_assign_any_time allows it in a stock turn too)")
    found = state.companies.get(company)
    if found is None or found.closed or found.owner != Owner.player(player):
        return f"{player} does not own the private company {company}"
    mine = lorenz_state(state)
    given = mine.designated.get(company)
    if given is not None:
        if not reading(game, DESIGNATION_MAY_CHANGE):
            return f"{company}'s power has been given to {given}, and a designation stands once given"
        if company in mine.used:
            return f"{company}'s power has been used by {given}"
        if given == corp:
            return f"{company}'s power is {corp}'s already"
    data = state.corporations.get(corp)
    if data is None or not data.floated or data.closed:
        return f"{corp} is not an operating company"
    if data.president != player:
        return f"{player} does not direct {corp}"
    return None


def assign_offers(game: Game, player: str) -> list[Action]:
    """Every ``ASSIGN`` :func:`assign_problem` allows ``player`` now."""
    if not in_play(game):
        return []
    state = game.state
    return [Designate(company, corp) for company in DESIGNATED if company in state.players[player].companies
            for corp in state.corporations if assign_problem(game, player, company, corp) is None]


def designate(game: Game, player: str, action: Designate) -> None:
    """``player`` gives ``action.company``'s power to ``action.corporation``.

    :raises IllegalOrderError: with the reason :func:`assign_problem` gives.
    """
    problem = assign_problem(game, player, action.company, action.corporation)
    if problem:
        raise IllegalOrderError(problem)
    lorenz_state(game.state).designated[action.company] = action.corporation
    game.event(Designated(player, action.company, action.corporation))


# -- the uses -------------------------------------------------------------------------------------


@contextmanager
def _opened(game: Game, company: str) -> Iterator[None]:
    """While checking a use of ``company``'s power: its hex is no longer kept for it (as it
    is not once the power is used), so the tile and token rules can be asked."""
    used = lorenz_state(game.state).used
    added = company not in used
    if added:
        used.append(company)
    try:
        yield
    finally:
        if added:
            used.remove(company)


def _who_problem(game: Game, player: str, company: str | None, coord: str) -> str | None:
    if not in_play(game) or company not in HEX_OF:
        return f"{company} has no power of Lorenz's variant"
    if game.state.round.kind != RoundKind.OPERATING or game.state.round.operating is None:
        return f"{company}'s power is used in the operating turn of the company that holds it"
    corp = current_corp(game)
    given = holder(game, company)
    if given != corp:
        return f"{company}'s power is {'given to ' + given if given else 'not given to any company'}, not to {corp}"
    if president(game, corp) != player:
        return f"{player} does not direct {corp}"
    if not is_open(game, company) or company in lorenz_state(game.state).used:
        return f"{company}'s power has been used or has closed"
    if coord != HEX_OF[company]:
        return f"{company}'s power is used on {HEX_OF[company]}, not {coord}"
    return None


def chp_cost(game: Game) -> int:
    """What C&HP's build costs: half the terrain cost of P14 (nothing on a tile already)."""
    return game.board.hexes[PEAK].cost // 2 if track.placed(game, PEAK).printed else 0


def use_problem(game: Game, player: str, action: PowerLay | PowerToken) -> str | None:
    """Why ``player`` may not give ``action`` (a use of a power) now, or None: the one check
    of a use (its refusal, and the legal moves of :class:`PowerStep`). The power must be the
    operating company's and ``player`` its Director, open and unused, used on its hex; then
    TWW: the tile rules (reach as the game reads it); C&HP: a lay left this turn (where the
    build is one of them), the tile rules (reach as read), half the terrain against what the
    company may spend; C&W: the token rules without reach, and one of the company's tokens
    left (where the token is one of its own)."""
    company = action.using
    problem = _who_problem(game, player, company, action.hex)
    if problem or company is None:
        return problem
    if company == CW and not isinstance(action, PowerToken):
        return f"{CW}'s power is a token: TOKEN {DOVER} USING {CW}"
    if company != CW and not isinstance(action, PowerLay):
        return f"{company}'s power is a tile lay: LAY {HEX_OF[company]} <tile> <rotation> USING {company}"
    corp = current_corp(game)
    with _opened(game, company):
        if isinstance(action, PowerToken):
            found = track.token_problem(game, corp, action.hex, action.city, ignore_reach=True)
            if found is None and reading(game, CW_OWN_TOKEN) and next_token_cost(game, corp) is None:
                found = f"{corp} has no station tokens left (C&W's token is one of the company's own)"
            return found
        if company == TWW:
            return track.lay_problem(game, corp, action.hex, action.tile, action.rotation,
                                     ignore_reach=reading(game, TWW_IGNORES_REACH))
        if reading(game, CHP_TURN_LAY):
            entry = tile_lay_entry(game)
            if entry is None or not entry.lay or "track" in op_state(game).passed_steps:
                return f"{corp} has no tile lay left this turn for C&HP's build (it is one of the turn's lays)"
        found = track.lay_problem(game, corp, action.hex, action.tile, action.rotation,
                                  ignore_reach=not reading(game, CHP_NEEDS_REACH))
        if found is None and chp_cost(game) > game.hooks.track.spending_power(game, corp):
            found = (f"{corp} has {game.money(game.state.corporations[corp].cash)}; "
                     f"half the terrain costs {game.money(chp_cost(game))}")
        if found is None and chp_cost(game):
            found = game.hooks.track.spend_problem(game, corp, chp_cost(game),
                                             LayTile(action.hex, action.tile, action.rotation))
        return found


def _close(game: Game, company: str) -> None:
    game.close_company(company)
    game.event(CompanyClosed(company))


def use_lay(game: Game, player: str, action: PowerLay) -> None:
    """TWW's free extra lay or upgrade on Durham, or C&HP's half-price lay on P14 (see the
    module text).

    :raises IllegalOrderError: with the reason :func:`use_problem` gives.
    """
    problem = use_problem(game, player, action)
    if problem:
        raise IllegalOrderError(problem)
    corp, company = current_corp(game), action.using
    assert company is not None
    state = game.state
    plain = LayTile(action.hex, action.tile, action.rotation)
    upgrade = track.placed(game, action.hex).tile.color != "white"
    cost = chp_cost(game) if company == CHP else 0
    lorenz_state(state).used.append(company)  # first: P14 is open to the lay that uses the power
    lay_tile(game, corp, plain, ignore_reach=True, free=True)  # reach as read: checked above
    if company == TWW:
        game.event(PowerUsed(corp, company, action.hex))
        if upgrade:
            _close(game, company)
        return
    state.corporations[corp].cash -= cost
    state.bank += cost
    if reading(game, CHP_TURN_LAY):
        op = op_state(game)
        op.tiles_laid += 1
        op.upgraded = op.upgraded or upgrade
        op.laid_hexes.append(action.hex)
    game.event(PowerUsed(corp, company, action.hex, cost))


def use_token(game: Game, player: str, action: PowerToken) -> None:
    """C&W's free token in Dover, connected or not; C&W then closes.

    :raises IllegalOrderError: with the reason :func:`use_problem` gives.
    """
    problem = use_problem(game, player, action)
    if problem:
        raise IllegalOrderError(problem)
    corp, state = current_corp(game), game.state
    lorenz_state(state).used.append(CW)  # first: Dover's kept slot is now its
    if reading(game, CW_OWN_TOKEN):
        place_token(game, corp, PlaceToken(action.hex, action.city), ignore_reach=True, free=True)
    else:
        state.tokens.setdefault(track.city_key(action.hex, action.city), []).append(corp)
        game.event(TokenPlaced(corp, action.hex, 0))
    game.event(PowerUsed(corp, CW, action.hex))
    _close(game, CW)


def _tiles_for(game: Game, coord: str) -> list[str]:
    """The tiles the title would try on ``coord`` now (its ``lay_candidates`` from the supply
    the phase allows), in tile order."""
    allowed = set(game.phase().tiles)
    supply: dict[str, list[str]] = {}
    for name in game.board.tile_counts:
        if game.tiles[name].color in allowed and game.tiles_left(name) > 0:
            supply.setdefault(game.tiles[name].color, []).append(name)
    return sorted(game.hooks.track.lay_candidates(game, coord, supply), key=lays.tile_key)


def use_offers(game: Game, player: str) -> list[Action]:
    """Every use of a power :func:`use_problem` allows ``player`` now: the lays on Durham or
    P14 (each tile and rotation the title would try there), C&W's token in each city of
    Dover."""
    if not in_play(game) or game.state.round.operating is None:
        return []
    out: list[Action] = []
    for company in DESIGNATED:
        coord = HEX_OF[company]
        if coord not in game.board.hexes or _who_problem(game, player, company, coord) is not None:
            continue
        candidates: list[PowerLay | PowerToken]
        if company == CW:
            candidates = [PowerToken(coord, city, CW) for city in range(len(track.placed(game, coord).tile.cities))]
        else:
            candidates = [PowerLay(coord, tile, r, company) for tile in _tiles_for(game, coord) for r in range(6)]
        out += [a for a in candidates if use_problem(game, player, a) is None]
    return out


class PowerStep(OpStep):
    """The variant's orders in an operating round, at any time: ``ASSIGN`` from a private's
    owner, and the powers' uses in the designated company's turn (each checked here, the
    same check listing the legal ones for the player to act)."""

    name = "lorenz_powers"
    description = "a private's power (Lorenz's variant)"
    takes = (Designate, PowerLay, PowerToken)
    anytime = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        return False

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        if isinstance(action, Designate):
            designate(game, player, action)
        elif isinstance(action, PowerLay):
            use_lay(game, player, action)
        else:
            assert isinstance(action, PowerToken)
            use_token(game, player, action)

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """The ASSIGN orders and the uses the checks allow ``player`` (:func:`assign_offers`,
        :func:`use_offers`), no copy of the game needed."""
        return [*assign_offers(game, player), *use_offers(game, player)]


def _stock_designate(game: Game, player: str, action: Action) -> None:
    assert isinstance(action, Designate)
    designate(game, player, action)


@functools.lru_cache(maxsize=8)
def with_assign(base: type[BuySellParShares]) -> type[BuySellParShares]:
    """``base`` (the title's stock step) taking ``ASSIGN`` in a player's stock turn, offered
    with the player's other orders where the game allows it then
    (:data:`~.readings.ASSIGN_ANY_TIME`), and refused with the reason where it does not."""

    class LorenzStock(base):  # type: ignore[misc, valid-type]
        __doc__ = f"{base.__name__} with ASSIGN in a stock turn (Lorenz's variant)."
        handlers = {**base.handlers, Designate: _stock_designate}

        @classmethod
        def corporation_actions(cls, game: Game, player: str) -> list[Action]:
            return [*super().corporation_actions(game, player), *assign_offers(game, player)]

    LorenzStock.__name__ = LorenzStock.__qualname__ = f"Lorenz{base.__name__}"
    return LorenzStock


__all__ = ["PowerStep", "assign_problem", "designate", "dover_reserved", "extra_tokens", "in_play", "off_the_map",
           "peak_problem", "unusable", "use_problem", "with_assign"]
