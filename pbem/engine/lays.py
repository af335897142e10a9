"""The legal tile lays of the operating corporation, spelled out: every (hex, tile, rotation)
it may lay now, for the turn report, and the refusal of a ``LAY`` that names what does fit.

There is one definition of a legal lay, :meth:`pbem.engine.steps.operating.Track.problem`
(the turn's lays, the tile supply and phase, the upgrade rules, reach, the terrain cost; with
each title's own rules: 1870's two lays, its Mississippi bridge, Dixon's upgrade chart). This
module only enumerates candidates and asks that check about each one, so the order, the
report and the refusal cannot disagree. Candidates are the hexes the corporation's track
reaches, the tiles of the supply one colour above what lies there, and the six rotations.

The result is cached on the game per position (the tiles, tokens, phase, the turn's lays so
far, the treasury and trains, the private companies' owners and the title's lay gate, see
:meth:`pbem.engine.track_rules.TrackRules.lay_gate`), so a report and a refusal of the same
position enumerate once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from pbem.engine.state import RoundKind
from pbem.engine import track
from pbem.engine.actions import LayTile

if TYPE_CHECKING:
    from pbem.engine.game import Game


@dataclass(frozen=True)
class LegalLay:
    """One legal ordinary lay: tile ``tile`` on hex ``hex`` at ``rotation`` (0-5, see
    :mod:`pbem.engine.board`), ``upgrade`` when it replaces a tile, and its terrain
    ``cost`` (money, an int; 0 for an upgrade)."""

    hex: str
    tile: str
    rotation: int
    upgrade: bool
    cost: int


def _position_key(game: Game, corp: str) -> object:
    state = game.state
    op = state.round.operating
    return (
        corp,
        tuple(sorted(state.tiles.items())),
        tuple(sorted((k, tuple(v)) for k, v in state.tokens.items())),
        state.phase,
        (op.tiles_laid, op.upgraded, tuple(op.laid_hexes), tuple(op.no_upgrade_hexes),
         tuple(op.passed_steps)) if op else None,
        state.corporations[corp].cash,
        tuple(state.corporations[corp].trains),  # (1825: an upgrade must be in a train's reach)
        tuple(sorted((s, c.owner, c.closed) for s, c in state.companies.items())),
        game.hooks.track.graph_key(game),
        game.hooks.track.lay_gate(game, corp),
    )


def legal_lays(game: Game, corp: str | None = None) -> tuple[LegalLay, ...]:
    """Every ordinary tile lay (without ``USING``) that ``corp`` (default: the operating
    corporation) may make now, by hex (letters, then number), then tile and rotation; empty
    outside an operating round or when its lays are used up.

    Each candidate is checked by :meth:`~pbem.engine.steps.operating.Track.problem`, the
    check the ``LAY`` order itself passes; only hexes the corporation reaches (its network's
    hex edges) and the tiles the title's ``lay_candidates`` names (1830: one colour above the
    hex's, which the upgrade rules require) are candidates. Cached on ``game`` per position.

    Source: 1830 rules 6.2; the issue's requirement that one legal-move generator serve the
    order, the report and the refusal.
    """
    from pbem.engine.steps import operating

    if game.state.round.kind != RoundKind.OPERATING or game.state.finished or game.state.round.operating is None:
        return ()
    corp = corp if corp is not None else operating.current_corp(game)
    key = _position_key(game, corp)
    cached = game.cache.get(("legal_lays", corp))
    if cached is not None and cached[0] == key:
        return cast("tuple[LegalLay, ...]", cached[1])
    found = tuple(_enumerate(game, corp))
    game.cache[("legal_lays", corp)] = (key, found)
    return found


def _enumerate(game: Game, corp: str) -> list[LegalLay]:
    from pbem.engine.steps import operating

    op = game.state.round.operating
    if op is None or "track" in op.passed_steps or operating.tile_lay_entry(game) is None:
        return []
    allowed = set(game.phase().tiles)
    supply = [name for name in game.board.tile_counts
              if game.tiles[name].color in allowed and game.tiles_left(name) > 0]
    by_color: dict[str, list[str]] = {}
    for name in supply:
        by_color.setdefault(game.tiles[name].color, []).append(name)
    net = track.network(game, corp)
    gate = game.hooks.track.lay_gate(game, corp)
    out: list[LegalLay] = []
    free = game.hooks.track.lays_without_reach(game, corp)
    for coord in sorted(set(net.hex_edges) | free, key=coord_key):
        if coord not in game.board.hexes or (gate is not None and coord not in gate):
            continue
        candidates = game.hooks.track.lay_candidates(game, coord, by_color)
        if not candidates:
            continue
        cost = operating.lay_cost(game, coord)
        for name in sorted(candidates, key=tile_key):
            for rotation in range(6):
                if operating.Track.problem(game, corp, LayTile(coord, name, rotation)) is None:
                    out.append(LegalLay(coord, name, rotation, game.hooks.track.counts_as_upgrade(game, coord), cost))
    return out


def coord_key(coord: str) -> tuple[int, str, int]:
    """Sort key of a coordinate: letters (shorter first), then the number (``B9`` < ``B10``)."""
    letters = coord.rstrip("0123456789")
    digits = coord[len(letters):]
    return (len(letters), letters, int(digits) if digits else 0)


def tile_key(name: str) -> tuple[int, str]:
    """Sort key of a tile name: by its number, then the rest (``7`` < ``57`` < ``171K``)."""
    digits = name[: len(name) - len(name.lstrip("0123456789"))]
    return (int(digits) if digits else 1 << 30, name)


def by_hex(lays: tuple[LegalLay, ...] | list[LegalLay]) -> dict[str, dict[str, list[int]]]:
    """``{hex: {tile: [rotations]}}`` in the order of ``lays``."""
    out: dict[str, dict[str, list[int]]] = {}
    for lay in lays:
        out.setdefault(lay.hex, {}).setdefault(lay.tile, []).append(lay.rotation)
    return out


def hex_summary(tiles: dict[str, list[int]]) -> str:
    """One hex's tiles and rotations, compactly: ``57 r0 r3; 7 r1; 8 r2 r5``."""
    return "; ".join(f"{tile} " + " ".join(f"r{r}" for r in rotations) for tile, rotations in tiles.items())


def refusal(game: Game, corp: str, action: LayTile, problem: str) -> str:
    """The refusal of ``action`` (an ordinary ``LAY`` the check refused with ``problem``),
    naming what does fit: the legal rotations of that tile on that hex, the other tiles that
    fit there, or, where no tile may go on that hex, the hexes where one may."""
    fits = by_hex(legal_lays(game, corp))
    here = fits.get(action.hex, {})
    notes: list[str] = []
    if action.tile in here:
        rotations = " ".join(f"r{r}" for r in here[action.tile])
        notes.append(f"#{action.tile} fits on {action.hex} at {rotations}")
    others = {t: r for t, r in here.items() if t != action.tile}
    if others:
        notes.append(f"{'other tiles that fit' if action.tile in here else 'what fits'} on {action.hex}: "
                     + hex_summary(others))
    if not here:
        if fits:
            hexes = list(fits)
            shown = ", ".join(hexes[:12]) + (f" and {len(hexes) - 12} more" if len(hexes) > 12 else "")
            notes.append(f"no tile may go on {action.hex} now; {corp} may lay on {shown}; the report lists the tiles")
        else:
            notes.append(f"{corp} has no legal tile lay now; PASS")
    return problem + " (" + "; ".join(notes) + ")"
