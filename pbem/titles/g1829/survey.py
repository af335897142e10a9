"""Survey parties (the variant's "Survey Parties and Track Building"): each company has
survey parties on the map that gate where it builds, with the variant's three modifications.

1829's own survey-party rules are not public; what the public summaries give (the Rules
Difference List: new track only on the hex the company's own party has just left and not
under a rival's party; an upgrade needs a moved party and a hex free of parties) is played as
they say, and every unknown is a setting (``title_rules``) with this game's reading:

==============================  =========  ================================================
setting                         default    meaning
==============================  =========  ================================================
``survey_parties``              1          parties a company has; they are put on its home
                                           hex as it first operates
``survey_party_moves``          1          hexes a party moves in one turn (to a land hex of
                                           the map: no off-board area, no sea)
``survey_parties_share_hexes``  false      a party may enter a hex holding another
                                           company's party
``parked_party_upgrades``       true       a company whose party is parked may upgrade
``party_station``               false      a company may also place a station token in the
                                           city where its party stands, though its track
                                           does not reach it (else stations are 1830's)
==============================  =========  ================================================

Each operating turn begins with the survey (``SURVEY <hex>``, ``SURVEY <from> <to>`` with
several parties): a party must move, unless it is on one of the company's home stations and
is parked there (``PARK``; the variant's third modification: "just move it there using legal
survey party moves and then leave it there"; it moves again when its company next surveys).
Then track, with the variant's first modification (1830's reach: some of the new track on a
legal route from one of the company's stations, the core's check): a new tile only on a hex
a party of the company has just left, an upgrade on any hex free of every party once a party
has moved (or is parked), and, the variant's second modification, a hex holding another
company's party is closed to the company only where that company could lay there but for the
parties (this game's reading: where that company's track reaches the hex).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Iterable, Mapping

from pbem.engine import lays, track
from pbem.engine.actions import Action, PlaceToken
from pbem.engine.events import PiecePlaced
from pbem.engine.events.base import Event, Money
from pbem.engine.steps.operating.base import OpStep, current_corp, mark_passed, op_state
from pbem.engine.steps.operating.tokens import Token, place_token
from pbem.engine.steps.operating.tracklay import Track, can_buy_tile_laying_company, track_step_abilities
from pbem.engine.track_rules import TrackRules
from pbem.errors import IllegalOrderError
from pbem.titles.g1829.state import state1829

if TYPE_CHECKING:
    from pbem.engine.game import Game

NAME = "survey party"
PARTIES_RULE = "survey_parties"
MOVES_RULE = "survey_party_moves"
SHARE_RULE = "survey_parties_share_hexes"
PARKED_UPGRADES_RULE = "parked_party_upgrades"
STATION_RULE = "party_station"
DEFAULTS: Mapping[str, bool | int | str] = {PARTIES_RULE: 1, MOVES_RULE: 1, SHARE_RULE: False,
                                            PARKED_UPGRADES_RULE: True, STATION_RULE: False}
"""The survey parties' settings and their defaults (module text)."""
UPGRADABLE = ("yellow", "green", "brown")
"""The colours of a printed face a tile may replace."""


@dataclass(frozen=True, slots=True)
class MoveParty(Action):
    """The operating company moves its survey party on ``origin`` (None: its only party that
    may reach ``to``) to the hex ``to``."""

    kind: ClassVar[str] = "survey"
    to: str
    origin: str | None = None


@dataclass(frozen=True, slots=True)
class ParkParty(Action):
    """The operating company leaves its survey party parked on one of its home stations."""

    kind: ClassVar[str] = "park"


@dataclass(frozen=True)
class PartyParked(Event):
    """``corporation``'s survey party stays parked on ``hex``."""

    corporation: str
    hex: str

    def render(self, money: Money) -> str:
        return f"{self.corporation}'s {NAME} stays parked on its home station {self.hex}"


def parties(game: Game, corp: str) -> list[str]:
    """The hexes of ``corp``'s survey parties (one entry a party)."""
    return list(game.state.map_pieces.get(corp, []))


def home_hexes(game: Game, corp: str) -> set[str]:
    """The hexes of ``corp``'s home stations: its charter's home hex."""
    home = game.title.corporation(corp).home
    return {home} if home else set()


def place_parties(game: Game, corp: str) -> None:
    """``corp``'s parties go on its home hex, as it first operates."""
    if corp in game.state.map_pieces:
        return
    home = game.title.corporation(corp).home
    game.state.map_pieces[corp] = []
    for _ in range(int(game.title.title_rule(PARTIES_RULE))):
        game.state.map_pieces[corp].append(home)
        game.event(PiecePlaced(corp, NAME, home))


def _held_by_others(game: Game, corp: str) -> dict[str, str]:
    """Hex -> the other company whose party stands there."""
    return {coord: other for other, hexes in game.state.map_pieces.items() if other != corp for coord in hexes}


def _land(game: Game, coord: str) -> bool:
    spec = game.board.hexes.get(coord)
    return spec is not None and spec.tile.color not in ("red", "blue") and spec.tile.offboard is None


def targets(game: Game, corp: str, origin: str) -> list[str]:
    """The hexes ``corp``'s party on ``origin`` may move to: land hexes within the setting's
    number of steps, each step onto a land hex (and not onto another company's party unless
    the setting allows), not staying where it is."""
    share = bool(game.title.title_rule(SHARE_RULE))
    others = _held_by_others(game, corp)
    seen, frontier = {origin}, [origin]
    for _ in range(int(game.title.title_rule(MOVES_RULE))):
        step: list[str] = []
        for coord in frontier:
            for edge in range(6):
                other = game.board.neighbor(coord, edge)
                if other is None or other in seen or not _land(game, other) or (not share and other in others):
                    continue
                seen.add(other)
                step.append(other)
        frontier = step
    return sorted(seen - {origin}, key=_coord_key)


def _coord_key(coord: str) -> tuple[str, int]:
    letters = coord.rstrip("-0123456789")
    return (letters, int(coord[len(letters):] or 0))


def move_problem(game: Game, corp: str, action: MoveParty) -> tuple[str | None, str | None]:
    """``(why the move is refused or None, the party's hex it moves from)``."""
    mine = state1829(game.state)
    if mine.surveyed or mine.parked:
        return f"{corp} has already surveyed this turn", None
    origins = [action.origin] if action.origin is not None else sorted(set(parties(game, corp)))
    if action.origin is not None and action.origin not in parties(game, corp):
        return f"{corp} has no {NAME} on {action.origin}", None
    able = [o for o in origins if action.to in targets(game, corp, o)]
    if not able:
        return _why_not(game, corp, action.to, origins), None
    if len(set(able)) > 1:
        return f"{corp} has parties on {' and '.join(sorted(set(able)))}: write SURVEY <from> {action.to}", None
    return None, able[0]


def _why_not(game: Game, corp: str, to: str, origins: list[str]) -> str:
    """Why no party of ``corp`` on ``origins`` may move to ``to``, and where they may."""
    moves = int(game.title.title_rule(MOVES_RULE))
    others = _held_by_others(game, corp)
    if to not in game.board.hexes:
        why = f"{to} is not a hex of the map"
    elif not _land(game, to):
        why = f"{to} is {'sea' if game.board.hexes[to].tile.color == 'blue' else 'an off-board area'}: a party moves onto land"
    elif to in origins:
        why = f"{corp}'s {NAME} is on {to} already: it must move" + (
            ", or PARK on its home station" if to in home_hexes(game, corp) else "")
    elif to in others and not game.title.title_rule(SHARE_RULE):
        why = f"{others[to]}'s {NAME} is on {to}: no two parties share a hex"
    else:
        why = f"{to} is more than {moves} hex{'es' if moves > 1 else ''} from {' or '.join(origins)}: a party moves {moves} a turn"
    ways = [f"SURVEY {t}" for o in origins for t in targets(game, corp, o)]
    return f"{why}. {corp} may send " + (", ".join(ways) if ways else "no SURVEY now")


def park_problem(game: Game, corp: str) -> str | None:
    """Why ``corp`` may not park its party now, or None: a party must stand on a home station."""
    mine = state1829(game.state)
    if mine.surveyed or mine.parked:
        return f"{corp} has already surveyed this turn"
    homes = home_hexes(game, corp)
    if not any(coord in homes for coord in parties(game, corp)):
        return f"{corp}'s {NAME} is parked only on a home station ({', '.join(sorted(homes))}); move it there first"
    return None


class Survey(OpStep):
    """The survey at the start of a company's turn (module text)."""

    name = "survey"
    description = "move a survey party (SURVEY <hex>), or PARK it on a home station"
    takes = (MoveParty, ParkParty)

    @classmethod
    def offers(cls, game: Game) -> bool:
        mine = state1829(game.state)
        if mine.surveyed or mine.parked:
            return False
        return bool(cls.candidates(game, ""))

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        corp = current_corp(game)
        found: list[Action] = []
        several = len(set(parties(game, corp))) > 1
        for origin in sorted(set(parties(game, corp))):
            found += [MoveParty(to, origin if several else None) for to in targets(game, corp, origin)]
        if park_problem(game, corp) is None:
            found.append(ParkParty())
        return found

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        return list(cls.candidates(game, player))

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        corp = current_corp(game)
        mine = state1829(game.state)
        if isinstance(action, ParkParty):
            problem = park_problem(game, corp)
            if problem:
                raise IllegalOrderError(problem)
            mine.parked = True
            home = next(c for c in parties(game, corp) if c in home_hexes(game, corp))
            game.event(PartyParked(corp, home))
        else:
            assert isinstance(action, MoveParty)
            problem, origin = move_problem(game, corp, action)
            if problem:
                raise IllegalOrderError(problem)
            assert origin is not None
            hexes = game.state.map_pieces[corp]
            hexes[hexes.index(origin)] = action.to
            mine.surveyed = True
            mine.left.append(origin)
            game.event(PiecePlaced(corp, NAME, action.to, moved=True))
        mark_passed(game, cls)


def new_turn(game: Game, corp: str) -> None:
    """A company's turn begins: its parties placed if it has none; nothing surveyed yet."""
    mine = state1829(game.state)
    mine.surveyed, mine.parked, mine.left = False, False, []
    place_parties(game, corp)


def blocked_by_rival(game: Game, corp: str, coord: str) -> str | None:
    """The company whose party closes ``coord`` to ``corp``, or None: a rival party blocks
    only where its own company's track reaches the hex (the variant's second modification)."""
    for other, hexes in game.state.map_pieces.items():
        if other != corp and coord in hexes and not game.state.corporations[other].closed:
            if coord in track.network(game, other).hex_edges:
                return other
    return None


def _printed_upgradable(game: Game) -> frozenset[str]:
    """The hexes whose printed face a tile may replace (kept in the game's cache against the
    title: the map never changes)."""
    cached = game.cache.get("1829 printed upgradable")
    if cached is not None and cached[0] is game.title:
        assert isinstance(cached[1], frozenset)
        return cached[1]
    found = frozenset(coord for coord, spec in game.board.hexes.items() if spec.tile.color in UPGRADABLE)
    game.cache["1829 printed upgradable"] = (game.title, found)
    return found


class Track1829(TrackRules):
    """1830's track and tokens, gated by the survey parties (module text)."""

    def lay_gate(self, game: Game, corp: str) -> frozenset[str] | None:
        """The hexes a party of ``corp`` left this turn, and, once it has surveyed (or is
        parked, where the setting allows), every hex with a tile to upgrade; less the hexes
        rival parties close."""
        state = game.state
        if state.round.operating is None:
            return None
        mine = state1829(state)
        # asked for every lay the legal-lay generator tries: kept against all it depends on
        key = (mine.surveyed, mine.parked, tuple(mine.left), tuple(sorted(state.tiles)),
               tuple(sorted((k, tuple(v)) for k, v in state.map_pieces.items())),
               tuple(sorted((ref, tuple(held)) for ref, held in state.tokens.items())))
        cached = game.cache.get(("1829 lay gate", corp))
        if cached is not None and cached[0] == key:
            assert isinstance(cached[1], frozenset)
            return cached[1]
        allowed = set(mine.left)
        if mine.surveyed or (mine.parked and game.title.title_rule(PARKED_UPGRADES_RULE)):
            allowed |= set(state.tiles) | _printed_upgradable(game)
        gate = frozenset(c for c in allowed if blocked_by_rival(game, corp, c) is None)
        game.cache[("1829 lay gate", corp)] = (key, gate)
        return gate

    def gate_refusal(self, game: Game, corp: str, coord: str) -> str:
        """Why ``coord`` is outside the gate, in the survey's terms."""
        mine = state1829(game.state)
        rival = blocked_by_rival(game, corp, coord)
        if rival is not None:
            return f"{rival}'s {NAME} on {coord} closes it to {corp} ({rival}'s track reaches it)"
        if not (mine.surveyed or mine.parked):
            return f"{corp} must survey first (SURVEY <hex>, or PARK on a home station)"
        left = ", ".join(mine.left) or "none: its party is parked"
        return (f"{corp} lays new track only on the hex its {NAME} has just left ({left}); "
                f"{coord} has no tile to upgrade")


class Track1829Step(Track):
    """1830's track step, skipped where the survey leaves no lay (a party that left a gray
    home, or a hex out of reach): no round trip for a PASS that is the only order."""

    @classmethod
    def offers(cls, game: Game) -> bool:
        if not super().offers(game):
            return False
        corp = current_corp(game)
        return (bool(lays.legal_lays(game, corp)) or bool(track_step_abilities(game, corp))
                or can_buy_tile_laying_company(game, corp))


class Token1829(Token):
    """1830's station token step; with the setting ``party_station``, also in a city where
    one of the company's parties stands, though its track does not reach it."""

    @classmethod
    def candidates(cls, game: Game, player: str) -> Iterable[Action]:
        found = list(super().candidates(game, player))
        return [*(a for a in _party_stations(game) if a not in found), *found]

    @classmethod
    def offers(cls, game: Game) -> bool:
        return super().offers(game) or (not op_state(game).token_placed and bool(_party_stations(game)))

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        if isinstance(action, PlaceToken) and action in _party_stations(game):
            place_token(game, current_corp(game), action, ignore_reach=True)
            op_state(game).token_placed = True
            return
        super().process(game, player, action)


def _party_stations(game: Game) -> list[PlaceToken]:
    """The station tokens the setting ``party_station`` allows now, beyond 1830's."""
    if not game.title.title_rule(STATION_RULE):
        return []
    corp = current_corp(game)
    found = []
    for coord in sorted(set(parties(game, corp))):
        for city in range(len(track.placed(game, coord).tile.cities)):
            if track.token_problem(game, corp, coord, city, ignore_reach=True) is None:
                found.append(PlaceToken(coord, city))
    return found
