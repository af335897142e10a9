"""Per-corporation map pieces that gate track laying (1829's survey parties).

A title whose data has ``gating_pieces`` (``game.yaml``; see
:class:`pbem.ruleset.schema.GatingPieces`) gives each corporation pieces on the map
(:attr:`pbem.engine.state.GameState.map_pieces`: corporation -> hexes). A corporation may lay
or upgrade a tile only on a hex within ``radius`` hexes of one of its own pieces, and, with
``hostile_blocks``, not on a hex holding another corporation's piece. Without the key nothing
is gated (1830).

The permission is asked through the hook :meth:`pbem.engine.track_rules.TrackRules.lay_gate`
(whose base answer is :func:`allowed_hexes`), from the one lay check
(:func:`pbem.engine.track.lay_problem`); the legal-lay generator (:mod:`pbem.engine.lays`)
enumerates only the hexes allowed and keys its cache on them, so the report's lays and the
refusal agree. How pieces move is the title's own rule: it calls :func:`place_piece`.

Source: the issue's requirement ("per-corporation map pieces that gate track laying");
Dagger's 1829 combined boards variant (survey parties).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from pbem.engine.board import MapData
from pbem.engine.events import PiecePlaced
from pbem.engine.settings import GatingRule

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.title import TitleData


def gating_rule(title: TitleData) -> GatingRule | None:
    """The title's :class:`~pbem.engine.settings.GatingRule` (its setting ``gating_pieces``),
    or None (no gating: every title without the key)."""
    return title.settings.gating_pieces


def within(board: MapData, centres: list[str], radius: int) -> set[str]:
    """The hexes of ``board`` at most ``radius`` steps from one of ``centres`` (a breadth
    first walk over neighbouring hexes)."""
    seen = {c for c in centres if c in board.hexes}
    frontier = list(seen)
    for _ in range(radius):
        nxt = []
        for coord in frontier:
            for edge in range(6):
                other = board.neighbor(coord, edge)
                if other is not None and other not in seen:
                    seen.add(other)
                    nxt.append(other)
        frontier = nxt
    return seen


def allowed_by(rule: GatingRule, board: MapData, pieces: Mapping[str, list[str]], corp: str) -> frozenset[str]:
    """The hexes ``corp`` may lay on with its pieces and the others' where ``pieces`` says
    (corporation -> hexes) under ``rule``."""
    allowed = within(board, list(pieces.get(corp, [])), rule.radius)
    if rule.hostile_blocks:
        allowed -= {coord for other, hexes in pieces.items() if other != corp for coord in hexes}
    return frozenset(allowed)


def allowed_hexes(game: Game, corp: str) -> frozenset[str] | None:
    """The hexes ``corp`` may lay track on now by the title's gating pieces, or None where
    the title gates nothing (see the module text)."""
    rule = gating_rule(game.title)
    if rule is None:
        return None
    return allowed_by(rule, game.board, game.state.map_pieces, corp)


def gate_problem(game: Game, corp: str, coord: str) -> str | None:
    """Why ``corp`` may not lay on ``coord`` by the title's lay gate
    (:meth:`~pbem.engine.track_rules.TrackRules.lay_gate`), or None."""
    allowed = game.hooks.track.lay_gate(game, corp)
    if allowed is None or coord in allowed:
        return None
    return game.hooks.track.gate_refusal(game, corp, coord)


def gate_refusal(game: Game, corp: str, coord: str) -> str:
    """Why the title data's gating pieces close ``coord`` to ``corp`` (a hex outside the
    gate): another corporation's piece holds it, or it is not near ``corp``'s own."""
    rule = gating_rule(game.title)
    name = rule.name if rule is not None else "map piece"
    pieces = game.state.map_pieces
    if rule is not None and rule.hostile_blocks and any(coord in h for c, h in pieces.items() if c != corp):
        holder = next(c for c, h in pieces.items() if c != corp and coord in h)
        return f"{holder}'s {name} holds {coord}"
    own = ", ".join(pieces.get(corp, [])) or "none placed"
    return f"{corp} may lay only near its {name} ({own}), not on {coord}"


def place_piece(game: Game, corp: str, coord: str, replaces: str | None = None) -> None:
    """Put one of ``corp``'s gating pieces on ``coord`` (moving the one on ``replaces``
    when given), announced. Whether the move is legal is the title's rule.

    :raises ValueError: ``coord`` is not a hex of the map, or ``corp`` has no piece on
        ``replaces``.
    """
    if coord not in game.board.hexes:
        raise ValueError(f"there is no hex {coord}")
    hexes = game.state.map_pieces.setdefault(corp, [])
    if replaces is not None:
        if replaces not in hexes:
            raise ValueError(f"{corp} has no piece on {replaces}")
        hexes.remove(replaces)
    hexes.append(coord)
    rule = gating_rule(game.title)
    name = rule.name if rule is not None else "map piece"
    game.event(PiecePlaced(corp, name, coord, moved=replaces is not None))
