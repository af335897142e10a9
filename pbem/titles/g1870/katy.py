"""The Katy (corporation MKT) in Lou Jerkich's Historical Order Start rules for 1870 (issue
13, seed 000, section 7 and "Missouri-Kansas-Texas Railroad"): Kansas City's slot kept for
it, its free new home in Kansas City, the home of its connection run, and the move of its
Junction City token.

Our readings (each also in ``rules/1870/variants/historical_order_start.yaml``):

* *Kansas City's slot* (``katy_kansas_city_reserved``): until the first 6-train is bought
  (the phase it starts has begun), no other corporation may take Kansas City's last free slot
  while the Katy has no token there; it does not block routes through the city. Before the
  Katy has any token the core already holds its charter home's slot.
* *New home* (``katy_kansas_city_home``): once floated, in any of its operating turns, the
  Katy may place its next unused token in Kansas City for free (``NEWHOME B11``), its track
  needing not reach it; the usual slot rules apply. It is optional.
* *Home* (with ``mkt_private_lays``, :func:`place_home_token`): Junction City is the Katy's
  original home (seed 000: B7 "now becomes the original home base"; its Kansas City token is
  optional, placed by ``NEWHOME``), also when the Katy floats before the private has laid its
  first tile (a GM's ``OUTOFORDER`` ruling, or the private closed or never laid): no token goes
  on Kansas City by itself. As 1825 defers a minor's home: while the Katy has no token on the
  map, its turn puts its home token on Junction City's town where a tile lies on B7; where none
  does, it may lay on B7 though its track does not reach it (:func:`lays_without_reach`), and
  the token goes on B7's town right after that tile (:class:`KatyTrack`). Once the Katy has
  any token (a ``NEWHOME`` first), no token goes on Junction City. Kansas City keeps its slot
  for the Katy meanwhile (the core holds its charter home's slot while it has no token).
* *Connection run* (:func:`connection_home`): from its token in Kansas City where it has one,
  else from Junction City's town where its token stands there, else its charter's home.
* *The move* (``katy_junction_city_move_cost``, $100; 0: no move): with a Katy token in Kansas
  City, in any of its operating turns, the Katy may move its Junction City token to a city
  its track reaches (``MOVEHOME <hex>[.<city>]``), under the one token check
  (:func:`pbem.engine.track.token_problem`: reach, a free slot, one token a hex), paying the
  cost from its treasury; an off-board area is no large city. No token goes back to Junction
  City: the token check places tokens in cities only, and a town has none.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterable, Mapping

from pbem.engine import track
from pbem.engine.actions import Action
from pbem.engine.events import Note, TokenPlaced
from pbem.engine.steps.operating.base import OpStep, current_corp, president
from pbem.engine.steps.operating.tracklay import Track
from pbem.errors import IllegalOrderError
from pbem.titles.g1870 import mkt_private

if TYPE_CHECKING:
    from pbem.engine.game import Game

KATY = mkt_private.KATY
KANSAS_CITY = mkt_private.KANSAS_CITY
JUNCTION_CITY = mkt_private.JUNCTION_CITY
RESERVED = "katy_kansas_city_reserved"
NEW_HOME = "katy_kansas_city_home"
MOVE_COST = "katy_junction_city_move_cost"
DEFAULTS: Mapping[str, bool | int] = {RESERVED: False, NEW_HOME: False, MOVE_COST: 0}
"""The settings and their plain-1870 values (none of the Katy's rules)."""
PERMANENT_TRAIN = "6"
"""The first permanent train; its purchase opens Kansas City's kept slot (seed 000)."""


@dataclass(frozen=True, slots=True)
class KatyHome(Action):
    """The Katy places its next unused token free in city ``city`` of Kansas City ``hex``,
    its new home (seed 000, section 7; ``NEWHOME B11``)."""

    kind: ClassVar[str] = "katy_home"
    named: ClassVar[str] = "NEWHOME"
    hex: str
    city: int = 0


@dataclass(frozen=True, slots=True)
class MoveHomeToken(Action):
    """The Katy moves its Junction City token to city ``city`` of ``hex`` for the move's cost
    (seed 000, section 7; ``MOVEHOME <hex>[.<city>]``)."""

    kind: ClassVar[str] = "move_home_token"
    named: ClassVar[str] = "MOVEHOME"
    hex: str
    city: int = 0


def has_token(game: Game, coord: str) -> bool:
    """Whether a Katy token stands in a city (or town) of ``coord``."""
    return any(KATY in corps and key.coord == coord for key, corps in game.state.tokens.items())


def home_deferred(game: Game, corp: str) -> bool:
    """Whether ``corp`` is the Katy, floated, with the private's rules on and no token of its
    own on the map yet: its home token is still to go on Junction City (see the module text)."""
    if corp != KATY or not mkt_private.enabled(game):
        return False
    katy = game.state.corporations[KATY]
    if not katy.floated or katy.closed:
        return False
    return not any(KATY in corps for corps in game.state.tokens.values())


def place_home_token(game: Game, corp: str) -> bool:
    """Put the Katy's home token on Junction City's town when a tile lies on B7 and its home
    is deferred (:func:`home_deferred`); True when ``corp``'s home is the Katy's Junction City
    (placed now or waiting for a tile), so the charter's home (Kansas City) is not used;
    False for every other corporation and without the private's rules."""
    if not home_deferred(game, corp):
        return corp == KATY and mkt_private.enabled(game)
    if JUNCTION_CITY in game.state.tiles:
        game.state.tokens.setdefault(track.city_key(JUNCTION_CITY, 0), []).append(KATY)
        game.event(TokenPlaced(KATY, JUNCTION_CITY, home=True))
    return True


def lays_without_reach(game: Game, corp: str) -> frozenset[str]:
    """Junction City for the Katy while its home waits for a tile there (:func:`home_deferred`
    and no tile on B7)."""
    if home_deferred(game, corp) and JUNCTION_CITY not in game.state.tiles:
        return frozenset({JUNCTION_CITY})
    return frozenset()


class KatyTrack(Track):
    """The core's track step; after a tile on Junction City the Katy's deferred home token
    goes on its town (:func:`place_home_token`), as 1825 places a minor's deferred home."""

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        super().process(game, player, action)
        corp = current_corp(game)
        if home_deferred(game, corp):
            place_home_token(game, corp)


def permanent_bought(game: Game) -> bool:
    """Whether the first 6-train has been bought: the phase it starts has begun."""
    names = [phase.name for phase in game.title.phases]
    start = next((p.name for p in game.title.phases if p.on == PERMANENT_TRAIN), None)
    return start is not None and names.index(game.state.phase) >= names.index(start)


def slot_kept(game: Game) -> bool:
    """Whether Kansas City keeps a slot for the Katy now (the setting; no 6-train bought yet;
    the Katy open and without a token there)."""
    if not game.title.title_rule(RESERVED) or permanent_bought(game):
        return False
    return not game.state.corporations[KATY].closed and not has_token(game, KANSAS_CITY)


def token_problem(game: Game, corp: str, coord: str, city: int) -> str | None:
    """Why ``corp`` may not take a slot of Kansas City now: its last free slot is kept for
    the Katy (see the module text); None for the Katy and anywhere else."""
    if corp == KATY or coord != KANSAS_CITY or not slot_kept(game):
        return None
    if KATY in track.reserved_home(game, coord, city):
        return None  # the core holds the charter home's slot already
    if track.free_slots(game, coord, city, corp) <= 1:
        return "Kansas City's last free slot is kept for the Katy until the first 6-train is bought"
    return None


def kept_slots(game: Game, coord: str, city: int) -> tuple[str, ...]:
    """``("MKT",)`` for the Katy's home city of Kansas City while :func:`token_problem` keeps
    its slot and the core does not hold it already as the charter's home (the map and track
    list show it held, not free); () elsewhere."""
    home_city = game.title.corporation(KATY).home_city or 0
    if coord != KANSAS_CITY or city != home_city or not slot_kept(game):
        return ()
    return () if KATY in track.reserved_home(game, coord, city) else (KATY,)


def connection_home(game: Game, corp: str) -> tuple[str, int] | None:
    """``(hex, city)`` of the Katy's home for its connection run with these rules on: its
    Kansas City token where it has one, else Junction City's where it has one; None for
    other corporations and otherwise (the charter's home)."""
    if corp != KATY or not game.title.title_rule(NEW_HOME):
        return None
    for place, corps in game.state.tokens.items():
        if place.coord == KANSAS_CITY and KATY in corps:
            return place.coord, place.city
    if mkt_private.home_token_placed(game):
        return JUNCTION_CITY, 0
    return None


def _token_costs(game: Game) -> tuple[int, int]:
    costs, placed = game.hooks.track.station_tokens(game, KATY)
    return len(costs), placed


def home_problem(game: Game, action: KatyHome) -> str | None:
    """Why the Katy may not make Kansas City its new home now (``NEWHOME``), or None."""
    if not game.title.title_rule(NEW_HOME):
        return "the Katy has no free token for Kansas City in this game"
    if action.hex != KANSAS_CITY:
        return f"the Katy's free new home is Kansas City {KANSAS_CITY}, not {action.hex}"
    if has_token(game, KANSAS_CITY):
        return "the Katy has a token in Kansas City already"
    count, placed = _token_costs(game)
    if placed >= count:
        return "the Katy has no unused token"
    return track.token_problem(game, KATY, action.hex, action.city, ignore_reach=True)


def move_problem(game: Game, action: MoveHomeToken) -> str | None:
    """Why the Katy may not move its Junction City token to ``action``'s city now, or None."""
    cost = int(game.title.title_rule(MOVE_COST))
    if cost <= 0:
        return "the Katy's Junction City token does not move in this game"
    if action.hex == JUNCTION_CITY:
        return f"no token may go back to Junction City {JUNCTION_CITY} (seed 000: never once it has moved)"
    if not has_token(game, KANSAS_CITY):
        return "the Katy moves its Junction City token only once it has a token in Kansas City"
    if not mkt_private.home_token_placed(game):
        return "the Katy has no token on Junction City"
    if action.hex not in game.board.hexes or track.placed(game, action.hex).tile.offboard is not None:
        return f"{action.hex} is no large city"
    problem = track.token_problem(game, KATY, action.hex, action.city)
    if problem:
        return problem
    if cost > game.hooks.track.spending_power(game, KATY):
        return f"the Katy has {game.money(game.state.corporations[KATY].cash)}; the move costs {game.money(cost)}"
    return None


class KatyTokens(OpStep):
    """The Katy's own token orders, at any time in its operating turn: ``NEWHOME``
    (:class:`KatyNewHome`) and ``MOVEHOME`` (:class:`KatyMove`), given by its president (see
    the module text); each its own step, so the report notes each with its own text."""

    name: ClassVar[str] = "katy_tokens"
    anytime: ClassVar[bool] = True

    @classmethod
    def offers(cls, game: Game) -> bool:
        return False

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        op = game.state.round.operating
        if op is None or op.index >= len(op.order) or current_corp(game) != KATY:
            raise IllegalOrderError("the Katy's token orders are given in its operating turn")
        if player != president(game, KATY):
            raise IllegalOrderError(f"only the Katy's president gives its token orders, not {player}")
        state = game.state
        if isinstance(action, KatyHome):
            problem = home_problem(game, action)
            if problem:
                raise IllegalOrderError(problem)
            state.tokens.setdefault(track.city_key(action.hex, action.city), []).append(KATY)
            game.event(TokenPlaced(KATY, action.hex, 0))
            game.event(Note("(free: the Katy's new home in Kansas City)"))
            return
        assert isinstance(action, MoveHomeToken)
        problem = move_problem(game, action)
        if problem:
            raise IllegalOrderError(problem)
        cost = int(game.title.title_rule(MOVE_COST))
        key = track.city_key(JUNCTION_CITY, 0)
        state.tokens[key].remove(KATY)
        if not state.tokens[key]:
            del state.tokens[key]
        state.tokens.setdefault(track.city_key(action.hex, action.city), []).append(KATY)
        state.corporations[KATY].cash -= cost
        state.bank += cost
        game.event(TokenPlaced(KATY, action.hex, cost))
        game.event(Note(f"(the Katy's Junction City token, moved from {JUNCTION_CITY})"))

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        op = game.state.round.operating
        if op is None or op.index >= len(op.order) or current_corp(game) != KATY:
            return []
        if player != president(game, KATY):
            return []
        found: list[Action] = []
        if game.title.title_rule(NEW_HOME) and not has_token(game, KANSAS_CITY):
            found += [KatyHome(KANSAS_CITY, c) for c in range(len(track.placed(game, KANSAS_CITY).tile.cities))]
        if int(game.title.title_rule(MOVE_COST)) > 0 and has_token(game, KANSAS_CITY):
            stops = sorted(track.network(game, KATY).stops)
            found += [MoveHomeToken(v.coord, v.number) for v in stops if v.is_city]
        return found

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        out: list[Action] = []
        for action in cls.candidates(game, player):
            if not isinstance(action, cls.takes):
                continue
            problem = home_problem(game, action) if isinstance(action, KatyHome) else (
                move_problem(game, action) if isinstance(action, MoveHomeToken) else "?")
            if problem is None:
                out.append(action)
        return out


class KatyNewHome(KatyTokens):
    """``NEWHOME B11``: the Katy's free token in Kansas City, its new home."""

    name: ClassVar[str] = "katy_new_home"
    description: ClassVar[str] = "put the Katy's next unused token free in Kansas City, its new home (NEWHOME B11)"
    takes = (KatyHome,)


class KatyMove(KatyTokens):
    """``MOVEHOME <hex>``: the Katy's Junction City token moved to a large city its track
    reaches, for the move's cost (``katy_junction_city_move_cost``: $100 in the variant)."""

    name: ClassVar[str] = "katy_move_home"
    description: ClassVar[str] = ("move the Katy's Junction City token to a large city its track reaches, "
                                  "for $100 from its treasury (MOVEHOME <hex>)")
    takes = (MoveHomeToken,)


def report_lines(game: Game) -> tuple[str, ...]:
    """Kansas City's kept slot and the M-K-T private's duty, for the HISTORICAL ORDER START
    section of the report."""
    out: list[str] = []
    if game.title.title_rule(RESERVED):
        if has_token(game, KANSAS_CITY):
            out.append("Kansas City: the Katy has its token there (its home for the connection run)")
        elif permanent_bought(game):
            out.append("Kansas City: a 6-train has been bought; the Katy's slot is open to every corporation")
        else:
            out.append("Kansas City: one slot kept for the Katy until the first 6-train is bought")
    return (*out, *mkt_private.report_lines(game))

