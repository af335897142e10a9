"""The Atchison, Topeka & Santa Fe in Lou Jerkich's additional rules for 1870's Historical
Order Start (issue 13's seed 000, section 5), and the corporations that have no special
benefits (sections 4, 6, 8, 9 and 10: nothing here touches them).

Section 5 says, in our words:

* the AT&SF's destination is Galveston (N7), not the Southwest (N1), and Galveston may take
  the brown #170 "P" tile (:func:`composed`: the corporation's ``destination`` and a future
  label P at brown for N7, both data; with Dixon's rules, N7 is added to the hexes #170 may
  go on);
* if the AT&SF joins Chicago (A22), Kansas City (B11), Oklahoma City (F5), Fort Worth (J3),
  Houston (M6) and Galveston (N7) with an uninterrupted line of track, it counts both
  Galveston and Chicago as destinations, doubling each on the runs with those two as end
  points; no token is needed in Chicago, Galveston needs its destination token
  (:func:`double_bonus`).

Settings (``game.yaml`` ``title_rules``, plain 1870 values in :data:`DEFAULTS`: off):

* ``historical_atsf_destination`` — the AT&SF's destination hex (``N7``; empty: the charter's);
* ``historical_p_hexes`` — hexes that take the P label at brown besides 1870's five
  (``N7``), blanks between;
* ``historical_atsf_line`` — the hexes of the line, in order, blanks between, the first and
  the last being the two destinations doubled (``A22 B11 F5 J3 M6 N7``; empty: no double
  destination);
* ``historical_atsf_doubled_runs`` — ``both_ends`` (a run doubles Chicago only when its end
  points are Galveston and Chicago) or ``either_end`` (Chicago counts as a destination on any
  run ending there).

Readings (also in the variant's yaml and the README's list):

* "uninterrupted track line": every two cities next in the seed's list (Chicago, Kansas
  City, Oklahoma City, Fort Worth, Houston, Galveston; the order of the historical line and
  of the map, north to south) are joined by a route the AT&SF could run now, of any length
  (no train needed), passing no city filled by other corporations and no off-board area; and
  no city of the four in the middle is filled by other corporations (a train could pass
  through it). The pieces between the cities may share track: the line is not one route a
  single train must be able to run. It is judged afresh at each run (a token laid later may
  interrupt it), not earned once for good.
* "doubling each of them for all runs between and including those two locations as end
  points": by default (``both_ends``) a run whose two end points are Galveston and Chicago
  counts each of them twice; Galveston alone at an end is doubled as 1870's destination
  anyway. ``either_end`` is the other reading.
* "Galveston does require its destination token": the AT&SF has connected and placed its
  destination token on Galveston (not kept it on the charter); Chicago needs none.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Mapping

from pbem.engine.values import Vertex

if TYPE_CHECKING:
    from pbem.engine.game import Game

CORP = "ATSF"
"""The corporation of section 5."""

DESTINATION = "historical_atsf_destination"
P_HEXES = "historical_p_hexes"
LINE = "historical_atsf_line"
DOUBLED_RUNS = "historical_atsf_doubled_runs"
DOUBLED_CHOICES = ("both_ends", "either_end")
P_TILE = "170"

DEFAULTS: Mapping[str, str] = {DESTINATION: "", P_HEXES: "", LINE: "", DOUBLED_RUNS: "both_ends"}
"""Each setting and its default (plain 1870: the charter's destination, no double destination)."""


def composed(documents: Mapping[str, Any]) -> dict[str, Any]:
    """``documents`` (1870's parsed data files by stem) with the AT&SF's destination the hex
    of ``historical_atsf_destination`` and each hex of ``historical_p_hexes`` taking the P
    label at brown (``extras`` ``future_labels``; where ``game`` ``tile_hexes`` limits #170 to
    some hexes, as Dixon's rules do, those hexes are added). Seed 000, section 5. Unchanged
    when both settings are empty; the inputs are not changed.

    :raises ConfigError: the AT&SF is not a corporation of the documents, or a P hex already
        has a label at brown.
    """
    from pbem.errors import ConfigError

    rules = (documents["game"] or {}).get("title_rules") or {}
    target = str(rules.get(DESTINATION) or "")
    p_hexes = str(rules.get(P_HEXES) or "").split()
    found = dict(documents)
    if target:
        corporations = copy.deepcopy(documents["corporations"])
        atsf = next((c for c in corporations["corporations"] if c["sym"] == CORP), None)
        if atsf is None:
            raise ConfigError(f"title_rules.{DESTINATION}: {CORP} is not a corporation of this title")
        atsf["destination"] = target
        found["corporations"] = corporations
    if p_hexes:
        extras = copy.deepcopy(documents.get("extras") or {})
        labels = extras.setdefault("future_labels", {})
        for coord in p_hexes:
            entries = labels.setdefault(coord, [])
            if any(e.get("color") == "brown" for e in entries):
                raise ConfigError(f"title_rules.{P_HEXES}: {coord} already has a label at brown")
            entries.append({"label": "P", "color": "brown"})
        found["extras"] = extras
        limits = ((documents["game"] or {}).get("tile_hexes") or {}).get(P_TILE) or {}
        if "only" in limits:
            game = copy.deepcopy(documents["game"])
            only = game["tile_hexes"][P_TILE]["only"]
            only.extend(c for c in p_hexes if c not in only)
            found["game"] = game
    return found


def line(game: Game) -> tuple[str, ...]:
    """The hexes of the AT&SF's line (``historical_atsf_line``), first to last; empty when
    the double destination is not played."""
    return tuple(str(game.title.title_rule(LINE)).split())


def line_joined(game: Game) -> bool:
    """Whether the AT&SF's line is joined now (see the module's reading): every two hexes
    next in :func:`line` joined by a route the AT&SF could run, and no city of the line but
    its two ends filled by other corporations. False when the line is not played."""
    from pbem.engine import track

    hexes = line(game)
    if len(hexes) < 2:
        return False
    key = ("atsf_line", track.track_graph(game),
           tuple((k, tuple(v)) for k, v in game.state.tokens.items()), game.hooks.track.graph_key(game))
    cached = game.cache.get("atsf_line")
    if isinstance(cached, tuple) and cached[0] == key:
        return bool(cached[1])
    joined = _joined(game, hexes)
    game.cache["atsf_line"] = (key, joined)
    return joined


def _stop(game: Game, coord: str) -> Vertex | None:
    """The stop of ``coord`` a line passes: its first city, or its off-board area."""
    from pbem.engine import track

    stops = track.placed(game, coord).tile.stop_ids()
    for stop in stops:
        if stop.startswith("c") or stop == "o":
            return Vertex(coord, stop)
    return None


def _joined(game: Game, hexes: tuple[str, ...]) -> bool:
    from pbem.engine import track

    stops = [_stop(game, coord) for coord in hexes]
    if any(stop is None for stop in stops):
        return False
    for inner in stops[1:-1]:
        assert inner is not None
        if track.blocks(game, inner, CORP):
            return False
    for here, there in zip(stops, hexes[1:]):
        assert here is not None
        if track.fewest_stops(game, CORP, here, there) is None:
            return False
    return True


def double_bonus(game: Game, corp: str, stops: list[Vertex]) -> int:
    """Money a run of ``corp`` over ``stops`` earns for the first hex of the line (Chicago)
    counted twice (seed 000, section 5): its stop's revenue once more when ``corp`` is the
    AT&SF, its destination token is on the map at its destination (the line's last hex,
    Galveston), the line is joined (:func:`line_joined`) and the run's end points are the
    line's two ends (``both_ends``) or one of them is Chicago (``either_end``); else 0.
    Galveston's own doubling is 1870's destination bonus.

    :raises ValueError: ``historical_atsf_doubled_runs`` is not one of its two values.
    """
    from pbem.engine import track
    from pbem.titles.g1870.connections import destination, destination_token_at

    hexes = line(game)
    if corp != CORP or len(hexes) < 2 or len(stops) < 2:
        return 0
    mode = str(game.title.title_rule(DOUBLED_RUNS))
    if mode not in DOUBLED_CHOICES:
        raise ValueError(f"title_rules.{DOUBLED_RUNS}: one of {', '.join(DOUBLED_CHOICES)}, not {mode!r}")
    first, last = hexes[0], hexes[-1]
    if destination(game.title, corp) != last or not destination_token_at(game, corp, last):
        return 0
    ends = {stops[0].coord, stops[-1].coord}
    if first not in ends or (mode == "both_ends" and last not in ends):
        return 0
    if not line_joined(game):
        return 0
    chicago = stops[0] if stops[0].coord == first else stops[-1]
    return track.stop_revenue(game, chicago)


def report_lines(game: Game) -> tuple[str, ...]:
    """The report's lines on the AT&SF's double destination: whether the line is joined and
    the destination token placed, places named with their coordinates (``Galveston N7``,
    :func:`pbem.titles.g1870.historical.place`); empty when it is not played."""
    from pbem.titles.g1870.connections import destination, destination_token_at

    hexes = line(game)
    if len(hexes) < 2 or CORP not in game.state.corporations:
        return ()
    from pbem.titles.g1870.historical import place

    first, last = place(game, hexes[0]), place(game, hexes[-1])
    joined = "joined" if line_joined(game) else "not joined"
    token = ("destination token on " + last if destination_token_at(game, CORP, hexes[-1])
             else "no destination token on " + last + " yet")
    dest = destination(game.title, CORP)
    named = [place(game, h) for h in hexes]
    return (f"{CORP}: destination {place(game, dest) if dest else dest}; {first} and {last} both count as "
            f"destinations once {', '.join(named[:-1])} and {named[-1]} are joined ({joined}; {token})",)
