"""The designated powers in the operating round (Lorenz rule 5 and the private companies'
texts): the owner of TWW, C&HP or C&W gives its power to an operating public company they
direct (``ASSIGN``), and that company uses it in its own turn.

* TWW: a free extra tile lay or upgrade on Durham (K13), outside the turn's lays and wherever
  the company's track is; an upgrade closes TWW at once, a first yellow tile leaves it open
  (until the first 5-train closes every private).
* C&HP: the company's lay on the mountain P14 at half its terrain cost (one of the turn's
  lays, reached by its track as any lay); C&HP stays open. Until then no company may lay
  track on P14 (:func:`peak_problem`).
* C&W: a free station token in Dover (W25), connected or not (one of the company's tokens,
  not the turn's token); C&W closes. Until then Dover is kept for it: no other token goes
  there (:func:`dover_reserved`), though routes pass through it.

Readings (the variant does not say): a designation stands once given; it may be given in
an operating round at any time, by the private's owner, for a company that has floated and
that they direct; the powers are used in the designated company's turn, by its Director.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from pbem.engine import track
from pbem.engine.actions import Action, LayTile, PlaceToken
from pbem.engine.events import CompanyClosed
from pbem.engine.steps.operating.base import OpStep, current_corp, op_state, president
from pbem.engine.steps.operating.tokens import place_token
from pbem.engine.steps.operating.tracklay import lay_tile, tile_lay_entry
from pbem.engine.values import Owner
from pbem.errors import IllegalOrderError
from pbem.titles.g1825.lorenz.actions import Designate, PowerLay, PowerToken
from pbem.titles.g1825.lorenz.events import Designated, PowerUsed
from pbem.titles.g1825.lorenz.facts import CHP, CW, DESIGNATED, DOVER, DURHAM, PEAK, TWW, VARIANT
from pbem.titles.g1825.lorenz.state import lorenz_state

if TYPE_CHECKING:
    from pbem.engine.game import Game

HEX_OF = {TWW: DURHAM, CHP: PEAK, CW: DOVER}
"""Where each designated power is used."""


def in_play(game: Game) -> bool:
    """Whether the game plays the variant."""
    return VARIANT in game.title.variants


def is_open(game: Game, company: str) -> bool:
    """Whether ``company`` is in the game and not closed."""
    found = game.state.companies.get(company)
    return found is not None and not found.closed


def holder(game: Game, company: str) -> str | None:
    """The public company designated for ``company``'s power, or None."""
    return lorenz_state(game.state).designated.get(company)


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


def designate(game: Game, player: str, action: Designate) -> None:
    """``player`` gives ``action.company``'s power to ``action.corporation``.

    :raises IllegalOrderError: not the variant; not one of the three privates, or not
        ``player``'s, or closed, or already designated; the company has not floated, has
        closed or is not directed by ``player``.
    """
    state, company, corp = game.state, action.company, action.corporation
    if not in_play(game):
        raise IllegalOrderError("privates give powers to companies only in Lorenz's variant")
    if company not in DESIGNATED:
        raise IllegalOrderError(f"{company} has no power to give: only {', '.join(DESIGNATED)} have")
    found = state.companies.get(company)
    if found is None or found.closed or found.owner != Owner.player(player):
        raise IllegalOrderError(f"{player} does not own the private company {company}")
    mine = lorenz_state(state)
    if company in mine.designated:
        raise IllegalOrderError(f"{company}'s power has been given to {mine.designated[company]}")
    data = state.corporations.get(corp)
    if data is None or not data.floated or data.closed:
        raise IllegalOrderError(f"{corp} is not an operating company")
    if data.president != player:
        raise IllegalOrderError(f"{player} does not direct {corp}")
    mine.designated[company] = corp
    game.event(Designated(player, company, corp))


def _check_use(game: Game, player: str, company: str | None, coord: str) -> tuple[str, str]:
    if not in_play(game) or company not in HEX_OF:
        raise IllegalOrderError(f"{company} has no power of Lorenz's variant")
    corp = current_corp(game)
    if holder(game, company) != corp:
        given = holder(game, company)
        raise IllegalOrderError(f"{company}'s power is {'given to ' + given if given else 'not given to any company'}"
                                f", not to {corp}")
    if president(game, corp) != player:
        raise IllegalOrderError(f"{player} does not direct {corp}")
    if not is_open(game, company) or company in lorenz_state(game.state).used:
        raise IllegalOrderError(f"{company}'s power has been used or has closed")
    if coord != HEX_OF[company]:
        raise IllegalOrderError(f"{company}'s power is used on {HEX_OF[company]}, not {coord}")
    return corp, company


def _close(game: Game, company: str) -> None:
    game.close_company(company)
    game.event(CompanyClosed(company))


def use_lay(game: Game, player: str, action: PowerLay) -> None:
    """TWW's free extra lay or upgrade on Durham, or C&HP's half-price lay on P14 (see the
    module text).

    :raises IllegalOrderError: the power is not the operating company's, or is used; the lay
        breaks the tile rules; C&HP: no lay left this turn, or the treasury cannot pay.
    """
    corp, company = _check_use(game, player, action.using, action.hex)
    mine, state = lorenz_state(game.state), game.state
    plain = LayTile(action.hex, action.tile, action.rotation)
    upgrade = track.placed(game, action.hex).tile.color != "white"
    mine.used.append(company)  # first: P14 is open to the lay that uses the power
    if company == TWW:
        lay_tile(game, corp, plain, ignore_reach=True, free=True)
        game.event(PowerUsed(corp, company, action.hex))
        if upgrade:
            _close(game, company)
        return
    entry = tile_lay_entry(game)
    op = op_state(game)
    if entry is None or not entry["lay"] or "track" in op.passed_steps:
        raise IllegalOrderError(f"{corp} has no tile lay left this turn for C&HP's build")
    cost = game.board.hexes[action.hex].cost // 2 if track.placed(game, action.hex).printed else 0
    cash = state.corporations[corp].cash
    if cost > cash:
        raise IllegalOrderError(f"{corp} has {game.money(cash)}; half the terrain costs {game.money(cost)}")
    lay_tile(game, corp, plain, free=True)
    state.corporations[corp].cash -= cost
    state.bank += cost
    op.tiles_laid += 1
    op.upgraded = op.upgraded or upgrade
    op.laid_hexes.append(action.hex)
    game.event(PowerUsed(corp, company, action.hex, cost))


def use_token(game: Game, player: str, action: PowerToken) -> None:
    """C&W's free token in Dover, connected or not; C&W then closes.

    :raises IllegalOrderError: the power is not the operating company's; no token left, or
        the city has no slot for it.
    """
    corp, company = _check_use(game, player, action.using, action.hex)
    lorenz_state(game.state).used.append(company)  # first: Dover's kept slot is now its
    place_token(game, corp, PlaceToken(action.hex, action.city), ignore_reach=True, free=True)
    game.event(PowerUsed(corp, company, action.hex))
    _close(game, company)


class PowerStep(OpStep):
    """The variant's orders in an operating round, at any time: ``ASSIGN`` from a private's
    owner, and the powers' uses in the designated company's turn (each checked here)."""

    name = "lorenz_powers"
    description = "give or use a private's power"
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
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return []
