"""1825's track and token: one step of a company's turn in which it lays its tiles and places
its station token in either order — the token before its first tile, between its two yellow
tiles, or after its tiles (1830 and 1870 lay track first, then place a token).

* While lays are left and the token is not yet placed, both ``LAY`` and ``TOKEN`` are legal;
  after the token, the lays left stay open; after the lays, the token stays open.
* ``PASS`` in this step ends both (the turn goes on to the run); an order of a later step
  (``RUN``, ``TRAIN`` ...) passes the step as it passes any optional step.
* The step keeps the core's name ``track``, so what asks whether the turn's track has been
  passed (the legal-lay list, Lorenz's C&HP build as one of the turn's lays) reads it alike.

Each half is the core's own rule: the lays are :class:`~pbem.titles.g1825.operating_rules.
Track1825`'s (:meth:`pbem.engine.steps.operating.Track.problem`), the token
:class:`~pbem.titles.g1825.operating_rules.Token1825`'s (:func:`pbem.engine.track.
token_problem`, its cost against what the company may spend).

Source: 18xx.games ``lib/engine/game/g_1825/step/track_and_token.rb`` (on
``step/track_and_token.rb``), the operating round's step list in ``g_1825/game.rb``; issue 19.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.actions import Action, LayTile, Pass, PlaceToken
from pbem.engine.steps.operating import OpStep, accepted, current_corp, op_state
from pbem.engine.steps.operating.base import pass_step
from pbem.errors import IllegalOrderError
from pbem.titles.g1825 import trains as trains1825
from pbem.titles.g1825.operating_rules import Token1825, Track1825

if TYPE_CHECKING:
    from pbem.engine.game import Game


def open_parts(game: Game) -> tuple[bool, bool]:
    """Whether the operating company may still lay track (a lay or upgrade left:
    :meth:`pbem.engine.steps.operating.Track.offers`) and still place its station token (none
    placed yet, one it can pay for, a city it reaches with a free slot:
    :meth:`pbem.engine.steps.operating.Token.offers`) this turn."""
    return Track1825.offers(game), Token1825.offers(game)


class TrackAndToken1825(OpStep):
    """Lay the turn's tiles and place a station token, in either order (see the module text):
    the lays go to :class:`Track1825`, the token to :class:`Token1825`."""

    name = "track"
    description = "lay or upgrade a tile (LAY) or place a station token (TOKEN), in either order, or PASS"
    optional = True
    takes = (LayTile, PlaceToken, Pass)

    @classmethod
    def offers(cls, game: Game) -> bool:
        return any(open_parts(game))

    @classmethod
    def pass_note(cls, game: Game) -> str:
        """What a PASS declines: what is left of the track and the token."""
        lays, token = open_parts(game)
        if lays and token:
            return "no more track or token this turn"
        return "no more track this turn" if lays else "no token this turn"

    @classmethod
    def actor(cls, game: Game) -> str:
        return trains1825.acting_player(game, current_corp(game))

    @classmethod
    def describe(cls, game: Game) -> str:
        """What is left: both (in either order), the lays (the track step's words) or the
        token."""
        lays, token = open_parts(game)
        if lays and token:
            return cls.description
        if lays:
            return Track1825.describe(game)
        return Token1825.describe(game)

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        """A ``LAY`` by the track step's rules, a ``TOKEN`` by the token step's (one a turn),
        a ``PASS`` ending both.

        :raises IllegalOrderError: the lay or the token is refused (why), or the token of the
            turn is placed already.
        """
        corp = current_corp(game)
        if isinstance(action, Pass):
            lays, token = open_parts(game)
            what = " and ".join(w for w, open_ in (("laying track", lays), ("placing a token", token)) if open_)
            pass_step(game, cls, what or "laying track and placing a token")
            return
        if isinstance(action, PlaceToken):
            if op_state(game).token_placed:
                raise IllegalOrderError(f"{corp} has placed its station token this turn")
            Token1825.process(game, player, action)
            return
        Track1825.process(game, player, action)

    @classmethod
    def legal_actions(cls, game: Game, player: str) -> list[Action]:
        """The lays left (the track step's list), the tokens the company may place (each
        checked by applying it to a copy), then PASS."""
        found: list[Action] = []
        lays, token = open_parts(game)
        if lays:
            found += [a for a in Track1825.legal_actions(game, player) if not isinstance(a, Pass)]
        if token:
            found += [a for a in Token1825.candidates(game, player)
                      if isinstance(a, PlaceToken) and accepted(game, player, a)]
        return [*found, Pass()]
