"""The M-K-T private's track (Lou Jerkich's Historical Order Start rules for 1870, issue 13,
seed 000, "Missouri-Kansas-Texas Railroad"): until the Katy floats, the private's holder lays
track for the Katy's network from Junction City.

Our readings of the seed (each also in ``rules/1870/variants/historical_order_start.yaml``):

* *When*: "at the time that this private company's revenues are paid" is the first step of
  an operating round (:class:`PrivateLay`, before the first corporation's own steps; the
  privates pay as the round begins). An operating round with no corporation to operate has
  no turns, and the private lays nothing in it.
* *Who*: the private's owner; once a corporation owns it, that corporation's president.
* *One tile a turn*: one new tile or one upgrade each operating round, as the phase allows,
  laid for the corporation MKT through the core's one lay check
  (:meth:`pbem.engine.steps.operating.Track.problem`, with the rules below as 1870's
  ``lay_problem``), so HELP, the report's list of lays and a refusal agree. The private has
  no treasury, and no hex it may use has a terrain cost (rivers are barred, Kansas City is
  only upgraded), so nothing is ever paid.
* *Junction City*: the first tile goes on B7 (a town), and the Katy's home token goes on its
  town right after it (a token on a town, :func:`pbem.engine.track.token_stop`). The one token
  check places tokens in cities only, so no corporation ever tokens Junction City otherwise.
* *"Must attempt to lay track each turn to Parsons"*: until the private's track reaches the
  town of Parsons (D9), each lay must bring it closer (:func:`progress`: 0 once Parsons is on
  its track, else one more than the least hex distance to D9 of a hex its track reaches or
  leads into; with no track, Junction City's distance); a PASS is refused while such a lay
  exists, and the step is skipped when none does.
* *Then*: it may go on (or PASS) anywhere in Kansas and Oklahoma (the setting
  ``mkt_private_area``: our list of their hexes from the map), and in Missouri only on D11,
  C10, C12 and B11, each lay there bringing its track closer to Kansas City (B11), and only
  once Parsons is reached.
* No river hex (terrain river, water or lake) but Kansas City, and Kansas City only where a
  tile lies already (the private upgrades it); no hex with a printed city but Kansas City,
  and no new edge of its tiles toward such a hex (:func:`large_city_entered`: "build into"
  read as track leading into the city's hex, so Topeka B9 is never joined to its track).
* All of it ends when the Katy floats (and when the private closes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Iterable, Mapping

from pbem.engine import track
from pbem.engine.actions import Action, LayTile, Pass
from pbem.engine.events import Note, TokenPlaced
from pbem.engine.graph import TrackGraph, track_graph
from pbem.engine.reach import Network, reach
from pbem.engine.steps.operating.base import OpStep, mark_passed, pass_step
from pbem.engine.values import Vertex
from pbem.errors import IllegalOrderError

if TYPE_CHECKING:
    from pbem.engine.game import Game

LAYS = "mkt_private_lays"
AREA = "mkt_private_area"
DEFAULTS: Mapping[str, bool | str] = {LAYS: False, AREA: ""}
"""The settings and their plain-1870 values (the private lays nothing)."""

PRIVATE = "MKT"
"""The M-K-T private (companies.yaml)."""
KATY = "MKT"
"""The Katy, the corporation the private lays for (corporations.yaml)."""
JUNCTION_CITY = "B7"
PARSONS = "D9"
KANSAS_CITY = "B11"
KANSAS_CITY_WAY = ("D11", "C10", "C12", "B11")
"""The Missouri hexes the private may use, only to build to Kansas City (seed 000)."""
RIVER_TERRAIN = frozenset({"river", "water", "lake"})


def enabled(game: Game) -> bool:
    """Whether the game plays the private's track (the setting ``mkt_private_lays``)."""
    return bool(game.title.title_rule(LAYS))


def active(game: Game) -> bool:
    """Whether the private lays track now: the setting is on, the private is owned and open,
    and the Katy has not floated (seed 000: "These restrictions no longer apply when the
    Katy public corporation is floated")."""
    if not enabled(game):
        return False
    company = game.state.companies.get(PRIVATE)
    if company is None or company.closed or company.owner is None:
        return False
    return not game.state.corporations[KATY].floated


def holder(game: Game) -> str | None:
    """The player who lays the private's tiles: its owner, or the president of the
    corporation owning it (our reading), or None."""
    company = game.state.companies.get(PRIVATE)
    owner = company.owner if company is not None else None
    if owner is None:
        return None
    if owner.is_player:
        return owner.name
    return game.state.corporations[owner.name].president


def area(game: Game) -> frozenset[str]:
    """The hexes of Kansas and Oklahoma (the setting ``mkt_private_area``, blank-separated),
    parsed once a game (kept in ``game.cache`` against the setting's text)."""
    text = str(game.title.title_rule(AREA))
    cached = game.cache.get(AREA)
    if cached is not None and cached[0] == text and isinstance(cached[1], frozenset):
        return cached[1]
    found = frozenset(text.split())
    game.cache[AREA] = (text, found)
    return found


def hex_distance(a: str, b: str) -> int:
    """The number of hex steps from ``a`` to ``b`` on a pointy map whose rows are letters
    and whose numbers run across, doubled (1870: B7, B9; C8)."""
    def split(coord: str) -> tuple[int, int]:
        letters = coord.rstrip("0123456789")
        return ord(letters[-1]) - ord("A") + 26 * (len(letters) - 1), int(coord[len(letters):])

    (ra, ca), (rb, cb) = split(a), split(b)
    rows, cols = abs(ra - rb), abs(ca - cb)
    return rows + max(0, (cols - rows) // 2)


def home_token_placed(game: Game) -> bool:
    """Whether the Katy's token stands on Junction City."""
    return KATY in track.tokens_in(game, JUNCTION_CITY, 0)


def private_network(game: Game, graph: TrackGraph | None = None) -> Network:
    """What the private's track reaches: the search from Junction City's town and the Katy's
    tokens (``graph``: the track with a tile not yet laid)."""
    graph = graph if graph is not None else track_graph(game)
    starts = [Vertex(JUNCTION_CITY, "t0"), *track.token_vertices(game, KATY)]
    return reach(graph, list(dict.fromkeys(starts)), lambda vertex: track.blocks(game, vertex, KATY))


def progress(game: Game, goal: str, graph: TrackGraph | None = None) -> int:
    """How far the private's track is from ``goal`` (a hex): 0 once a stop of ``goal`` is on
    it, else one more than the least hex distance to ``goal`` of a hex it reaches or leads
    into (Junction City itself with no track)."""
    net = private_network(game, graph)
    if any(stop.coord == goal for stop in net.stops):
        return 0
    return 1 + min(hex_distance(coord, goal) for coord in net.hex_edges)


def parsons_reached(game: Game) -> bool:
    """Whether the private's track, from its home token, reaches the town of Parsons."""
    return home_token_placed(game) and progress(game, PARSONS) == 0


def lay_problem(game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
    """Why the private may not lay ``tile`` at ``rotation`` on ``coord`` for the Katy now, or
    None; None for any other corporation, and once the Katy has floated (see the module text
    for the rules and our readings)."""
    if corp != KATY or not active(game):
        return None
    if not home_token_placed(game):
        if coord != JUNCTION_CITY:
            return f"the M-K-T private's first tile goes on Junction City {JUNCTION_CITY}, its home"
    elif coord not in area(game) and coord not in KANSAS_CITY_WAY:
        return (f"the M-K-T private lays only in Kansas and Oklahoma, and on "
                f"{', '.join(KANSAS_CITY_WAY)} toward Kansas City; not on {coord}")
    data = game.board.hexes[coord]
    if coord == KANSAS_CITY:
        if track.placed(game, coord).printed:
            return "the M-K-T private may build into Kansas City only once a city tile lies on B11"
    elif data.terrain in RIVER_TERRAIN:
        return f"the M-K-T private may not lay in a river hex ({coord}) but Kansas City"
    elif data.tile.cities:
        return f"the M-K-T private may not build into a large city ({coord}) but Kansas City"
    into = large_city_entered(game, coord, tile, rotation)
    if into is not None:
        return (f"#{tile} at rotation {rotation} on {coord} would lead the M-K-T track into the large city "
                f"{into}; it may build into no large city but Kansas City")
    after = track_graph(game).with_tile(coord, tile, rotation)
    reached = parsons_reached(game)
    if not reached:
        if coord in KANSAS_CITY_WAY:
            return f"the M-K-T private builds toward Kansas City only once it has reached Parsons {PARSONS}"
        if progress(game, PARSONS, after) >= progress(game, PARSONS):
            return f"#{tile} at rotation {rotation} on {coord} does not bring the M-K-T track closer to Parsons {PARSONS}"
    elif coord in KANSAS_CITY_WAY and progress(game, KANSAS_CITY, after) >= progress(game, KANSAS_CITY):
        return (f"#{tile} at rotation {rotation} on {coord} does not bring the M-K-T track closer to Kansas City "
                f"(the private enters Missouri only to build to Kansas City)")
    return None


def large_city_entered(game: Game, coord: str, tile: str, rotation: int) -> str | None:
    """The hex of a large city (a hex whose tile showing has a city, or whose printed face
    has one) other than Kansas City that a new edge of ``tile`` at ``rotation`` on ``coord``
    leads into, or None (seed 000: the private's track "may not build into any other large
    city"; our reading: no new track of it may end at such a hex's side)."""
    shown = track.placed(game, coord)
    old = frozenset() if shown.printed else shown.tile.exits(shown.rotation)
    for edge in sorted(game.tiles[tile].exits(rotation) - old):
        other = game.board.neighbor(coord, edge)
        if other is None or other == KANSAS_CITY or other not in game.board.hexes:
            continue
        if track.placed(game, other).tile.cities or game.board.hexes[other].tile.cities:
            return other
    return None


def lays_without_reach(game: Game, corp: str) -> frozenset[str]:
    """Junction City, for the private's first tile (no token of the Katy is there yet)."""
    if corp == KATY and active(game) and not home_token_placed(game):
        return frozenset({JUNCTION_CITY})
    return frozenset()


def lay_check(game: Game, action: LayTile) -> str | None:
    """The one check of a private's lay: the core's ordinary lay check for the Katy
    (:meth:`pbem.engine.steps.operating.Track.problem`, which asks :func:`lay_problem`)."""
    from pbem.engine.steps.operating import Track

    if action.using:
        return f"the M-K-T private's tile is laid without USING ({action.using})"
    return Track.problem(game, KATY, action)


def legal_private_lays(game: Game) -> list[LayTile]:
    """Every lay :func:`lay_check` allows now (:func:`pbem.engine.lays.legal_lays` for the
    Katy), empty when the private lays nothing now."""
    from pbem.engine.lays import legal_lays

    if not active(game):
        return []
    return [LayTile(lay.hex, lay.tile, lay.rotation) for lay in legal_lays(game, KATY)]


def must_lay(game: Game) -> bool:
    """Whether the holder must lay now (no PASS): Parsons not yet reached and a lay there."""
    return not parsons_reached(game) and bool(legal_private_lays(game))


class PrivateLay(OpStep):
    """The M-K-T private's tile lay, the first step of an operating round (see the module
    text): its holder lays one tile for the Katy, or PASSes once Parsons is reached; the
    first tile goes on Junction City and the Katy's home token on its town after it."""

    name: ClassVar[str] = "mkt_private_lay"
    description: ClassVar[str] = "lay the M-K-T private's tile (LAY <hex> <tile> <rotation>)"
    takes = (LayTile, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        op = game.state.round.operating
        return (op is not None and op.index == 0 and active(game) and holder(game) is not None
                and bool(legal_private_lays(game)))

    @classmethod
    def actor(cls, game: Game) -> str:
        found = holder(game)
        assert found is not None
        return found

    @classmethod
    def subject(cls, game: Game) -> str:
        return KATY

    @classmethod
    def heading(cls, game: Game) -> str | None:
        """The private's lay, by its holder (the private has no treasury)."""
        return f"the M-K-T private's lay for the Katy (by {holder(game) or 'nobody'})"

    @classmethod
    def describe(cls, game: Game) -> str:
        if not home_token_placed(game):
            return f"lay the M-K-T private's first tile on Junction City {JUNCTION_CITY} (LAY {JUNCTION_CITY} <tile> <rotation>)"
        if must_lay(game):
            return f"lay the M-K-T private's tile toward Parsons {PARSONS} (LAY <hex> <tile> <rotation>)"
        return cls.description + ", or PASS"

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        if isinstance(action, Pass):
            if must_lay(game):
                raise IllegalOrderError(f"the M-K-T private must lay toward Parsons {PARSONS} while it can: "
                                        + cls.describe(game))
            pass_step(game, cls, "the M-K-T private's tile")
            return
        assert isinstance(action, LayTile)
        problem = lay_check(game, action)
        if problem:
            from pbem.engine.lays import refusal

            raise IllegalOrderError(refusal(game, KATY, action, problem))
        from pbem.engine.steps.operating import lay_tile

        first = not home_token_placed(game)
        lay_tile(game, KATY, action)
        game.event(Note(f"(the M-K-T private's tile, laid by {player})"))
        if first:
            game.state.tokens.setdefault(track.city_key(JUNCTION_CITY, 0), []).append(KATY)
            game.event(TokenPlaced(KATY, JUNCTION_CITY, home=True))
        mark_passed(game, cls)

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """The lays :func:`legal_private_lays` lists, then PASS where the holder may pass."""
        if player != holder(game):
            return []
        found: list[Action] = list(legal_private_lays(game))
        return found if must_lay(game) else [*found, Pass()]

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        return cls.legal_actions(game, player)


def report_lines(game: Game) -> tuple[str, ...]:
    """The private's duty, for the HISTORICAL ORDER START section: where its next tile goes."""
    if not enabled(game):
        return ()
    company = game.state.companies.get(PRIVATE)
    if game.state.corporations[KATY].floated:
        return ("M-K-T private: the Katy has floated; the private lays no more track",)
    if company is None or company.closed:
        return ("M-K-T private: closed; it lays no more track",)
    who = holder(game) or "nobody"
    owner = company.owner
    held = f"held by {who}" if owner is None or owner.is_player else f"held by {owner.name}, laid by {who}"
    if not home_token_placed(game):
        return (f"M-K-T private ({held}): its first tile and the Katy's home token go on Junction City "
                f"{JUNCTION_CITY} when it next pays",)
    if not parsons_reached(game):
        steps = progress(game, PARSONS) - 1
        return (f"M-K-T private ({held}): one tile each operating round; the next must bring its track closer "
                f"to Parsons {PARSONS} ({steps} hex{'es' if steps != 1 else ''} away)",)
    return (f"M-K-T private ({held}): Parsons {PARSONS} reached; it may go on (one tile a round, or PASS) in "
            f"Kansas and Oklahoma, or through {', '.join(KANSAS_CITY_WAY[:-1])} to Kansas City {KANSAS_CITY}",)

