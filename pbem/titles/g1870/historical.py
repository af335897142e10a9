"""1870's Historical Order Start (variant ``historical_order_start``): the corporations are
started in a fixed order; with Lou Jerkich's additional rules, the GM&O's president's
certificate is the fifth private (:func:`composed`) and the last tile #5 is held for the MP
(:func:`reserved_tile_problem`).

The published text of the variant (Mayfair rules and Dixon's online rules, section 16) is not
public. This is our reading, from the numbered list of corporations in Lou Jerkich's
additional rules for the variant (issue 13's seed 000), whose commentary agrees on every
position it names: a corporation may be started (its president's certificate bought, its par
set) only when every corporation before it in the order has been started. Both the order and
the condition are settings of 1870's own rules (``game.yaml`` ``title_rules``):

* ``historical_order`` — the corporations' symbols, separated by blanks, first to start
  first; empty (the default) when the order is not played;
* ``historical_order_condition`` — ``started`` (the default: the earlier corporation's par
  has been set) or ``floated`` (it has floated).

The GM may rule otherwise for one corporation with ``ACT AS <seat> OUTOFORDER <corporation>``
in a stock round (``State1870.out_of_order``), or for the whole game with the settings.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Mapping

if TYPE_CHECKING:
    from pbem.engine.game import Game

ORDER = "historical_order"
"""The setting giving the starting order (symbols separated by blanks; empty: not played)."""
CONDITION = "historical_order_condition"
"""The setting saying what an earlier corporation must be before the next starts."""
FIFTH_PRIVATE = "historical_fifth_private"
"""The setting naming the corporation whose president's certificate is the fifth private."""
RESERVED_TILE = "historical_reserved_tile"
"""The setting naming the tile one copy of which is held (the MP's #5)."""
RESERVED_FOR = "historical_reserved_for"
"""The setting naming the corporation the held tile is for."""
CONDITIONS = ("started", "floated")
"""The values :data:`CONDITION` may take."""

DEFAULTS: Mapping[str, str] = {ORDER: "", CONDITION: "started", FIFTH_PRIVATE: "",
                               RESERVED_TILE: "", RESERVED_FOR: ""}
"""Each setting and its default (plain 1870: no order, the Frisco's certificate the private)."""


def composed(documents: Mapping[str, Any]) -> dict[str, Any]:
    """``documents`` (1870's parsed data files by stem) with the corporation named by the
    ``historical_fifth_private`` setting in the place of the private that is a president's
    certificate (the SLSF, companies.yaml: ``shares`` of ``SLSF_0`` and ``close_after_par``):
    the private keeps its face value ($140) and abilities (its buyer sets the par at once, no
    corporation may buy it) but carries that corporation's certificate and name; that
    corporation floats with the private's float percentage (20%), and the old one with the
    default (60%). Seed 000, "The Fifth Private Company". Unchanged when the setting is empty.
    The inputs are not changed.

    :raises ConfigError: the setting names no corporation, or no private is a certificate.
    """
    from pbem.errors import ConfigError

    new = str(((documents["game"] or {}).get("title_rules") or {}).get(FIFTH_PRIVATE) or "")
    if not new:
        return dict(documents)
    corporations = copy.deepcopy(documents["corporations"])
    by_sym = {c["sym"]: c for c in corporations["corporations"]}
    if new not in by_sym:
        raise ConfigError(f"title_rules.{FIFTH_PRIVATE}: {new!r} is not a corporation of 1870")
    companies = copy.deepcopy(documents["companies"])
    private = next((c for c in companies
                    if any(a.get("kind") == "close_after_par" for a in c.get("abilities") or [])), None)
    if private is None:
        raise ConfigError(f"title_rules.{FIFTH_PRIVATE}: no private company is a president's certificate")
    old = str(private["sym"])
    private["sym"], private["name"] = new, by_sym[new]["name"]
    for ability in private["abilities"]:
        if ability.get("kind") == "shares":
            ability["share"] = f"{new}_0"
    percent = by_sym[old].pop("float_percent", None)
    if percent is not None:
        by_sym[new]["float_percent"] = percent
    return {**documents, "companies": companies, "corporations": corporations}


def order(game: Game) -> tuple[str, ...]:
    """The starting order's symbols, first first; empty when the order is not played.

    :raises ValueError: a symbol that is no corporation of the game, or an unknown condition.
    """
    syms = tuple(str(game.title.title_rule(ORDER)).split())
    for sym in syms:
        if sym not in game.state.corporations:
            raise ValueError(f"title_rules.{ORDER}: {sym!r} is not a corporation of this game")
    if condition(game) not in CONDITIONS:
        raise ValueError(f"title_rules.{CONDITION}: one of {', '.join(CONDITIONS)}, "
                         f"not {condition(game)!r}")
    return syms


def condition(game: Game) -> str:
    """``started`` or ``floated``: what an earlier corporation must be before the next starts."""
    return str(game.title.title_rule(CONDITION))


def _met(game: Game, sym: str) -> bool:
    corp = game.state.corporations[sym]
    return corp.floated if condition(game) == "floated" else corp.ipoed


def waiting_for(game: Game, sym: str) -> str | None:
    """The first corporation before ``sym`` in the order that is not yet started (or floated,
    as the setting says), or None when ``sym`` may be started (or is not in the order, or is
    already started, or the GM has ruled it may start out of order). A closed corporation counts as started."""
    from pbem.titles.g1870.state import state1870

    syms = order(game)
    if (sym not in syms or game.state.corporations[sym].ipoed
            or sym in state1870(game.state).out_of_order):
        return None
    for earlier in syms[:syms.index(sym)]:
        corp = game.state.corporations[earlier]
        if not corp.closed and not _met(game, earlier):
            return earlier
    return None


def launch_problem(game: Game, sym: str) -> str | None:
    """Why ``sym`` may not be started now under the order, or None (issue 13, the order of
    starting)."""
    earlier = waiting_for(game, sym)
    if earlier is None:
        return None
    word = "floated" if condition(game) == "floated" else "been started"
    return (f"{sym} may not be started until {earlier} has {word} "
            f"(historical order: {' '.join(order(game))})")


def report_lines(game: Game) -> tuple[str, ...]:
    """The report's lines: the order, the corporation that may be started next (the first
    in the order not yet started whose predecessors allow it), or that all have started, the
    GM's OUTOFORDER rulings in force (:func:`rulings_lines`), and the reserved tile."""
    syms = order(game)
    word = "floated" if condition(game) == "floated" else "started"
    lines = [f"Start order: {', '.join(syms)} (each once those before it have {word})",
             "(our reading of a rule whose base text is not public; the GM may rule otherwise)"]
    nxt = next((s for s in syms if not game.state.corporations[s].ipoed
                and not game.state.corporations[s].closed and waiting_for(game, s) is None), None)
    if nxt is not None:
        lines.append(f"May be started next: {nxt}")
    elif all(game.state.corporations[s].ipoed or game.state.corporations[s].closed for s in syms):
        lines.append("Every corporation has been started")
    else:
        pending = next(s for s in syms if not game.state.corporations[s].ipoed)
        lines.append(f"Next to start: {pending}, once those before it have {word}")
    lines += rulings_lines(game)
    held = reserved(game)
    if held is not None:
        lines.append(f"Tile #{held[0]}: one reserved for {held[1]} until its first operating turn is over "
                     f"({game.tiles_left(held[0])} left)")
    return tuple(lines)


def rulings_lines(game: Game) -> tuple[str, ...]:
    """A line for each GM ruling in force that lets a corporation start out of order
    (``OUTOFORDER``, ``State1870.out_of_order``) while that corporation has not been started:
    ``"ATSF may start out of order (GM ruling)"`` (mail review #8)."""
    from pbem.titles.g1870.state import state1870

    return tuple(f"{sym} may start out of order (GM ruling)" for sym in state1870(game.state).out_of_order
                 if sym in game.state.corporations and not game.state.corporations[sym].ipoed
                 and not game.state.corporations[sym].closed)


def place(game: Game, coord: str) -> str:
    """A hex as the report names it: its map name and coordinate (``"Chicago A22"``), or
    the coordinate alone where the map names none (mail review #8)."""
    found = game.board.hexes.get(coord)
    name = None if found is None else found.name
    return f"{name} {coord}" if name else coord


def reserved(game: Game) -> tuple[str, str] | None:
    """``(tile, corporation)`` while one copy of the tile is still held for the corporation:
    from the start until the corporation has operated (paid or withheld in its first turn;
    its own lays come before that), or None. Seed 000, Missouri Pacific: "one tile #5 is
    reserved for the exclusive use of the MoPac until it has completed its first operating
    turn" (settings ``historical_reserved_tile`` and ``historical_reserved_for``)."""
    tile, corp = str(game.title.title_rule(RESERVED_TILE)), str(game.title.title_rule(RESERVED_FOR))
    if not tile or not corp:
        return None
    state = game.state.corporations.get(corp)
    if state is None or state.operated or state.closed:
        return None
    return tile, corp


def reserved_tile_problem(game: Game, corp: str, tile: str) -> str | None:
    """Why ``corp`` may not lay ``tile`` now because of the reservation, or None. Our reading
    of "reserved": the last copy left in the supply is the one held, so another corporation
    may lay the tile while two or more are left, never the last; the reserved corporation lays
    it freely."""
    held = reserved(game)
    if held is None or held != (tile, held[1]) or corp == held[1]:
        return None
    if game.tiles_left(tile) <= 1:
        return f"the last #{tile} is reserved for {held[1]} until it has completed its first operating turn"
    return None
