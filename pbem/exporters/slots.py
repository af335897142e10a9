"""The station slots of each city as 18xx.games keeps them, for the ``slot`` of an exported
``place_token``.

The platform's city has numbered slots: a token goes into the slot held for its corporation's
home, else the first slot neither taken nor held for another home (18xx.games
``part/city.rb``, ``get_slot``); a token that leaves (its corporation closed) empties its slot,
which the next token takes; a token that takes no slot (1870's destination token on the map)
is kept apart. Our engine keeps each city's tokens as a list, so the slots are followed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.engine import track
from pbem.engine.values import CityRef

if TYPE_CHECKING:
    from pbem.engine.game import Game


@dataclass
class CitySlots:
    """``taken``: city (``CityRef``) -> the corporation in each slot (None: empty);
    ``apart``: city key -> the corporations whose token there takes no slot."""

    taken: dict[CityRef, list[str | None]] = field(default_factory=dict)
    apart: dict[CityRef, set[str]] = field(default_factory=dict)

    def slot(self, game: Game, coord: str, city: int, corp: str) -> int:
        """The slot a token of ``corp`` takes in city ``city`` of ``coord`` now: the first
        empty one, leaving one for each other corporation whose home there is still held
        (:func:`pbem.engine.track.reserved_home`)."""
        taken = self.taken.get(track.city_key(coord, city), [])
        held = len([c for c in track.reserved_home(game, coord, city) if c != corp])
        index = 0
        while True:
            if index >= len(taken) or taken[index] is None:
                if held == 0:
                    return index
                held -= 1
            index += 1

    def follow(self, game: Game) -> None:
        """Follow the game's tokens (our engine's own placements too): a token gone leaves its
        slot empty; a new one takes :meth:`slot`, unless it takes no slot (while the city has
        more slots than its tile prints, as many tokens take none: 1870's destination
        tokens, :meth:`pbem.engine.track_rules.TrackRules.city_slots`)."""
        for key in set(self.taken) | set(game.state.tokens):
            now = game.state.tokens.get(key, [])
            taken = self.taken.setdefault(key, [])
            apart = self.apart.setdefault(key, set())
            for i, corp in enumerate(taken):
                if corp is not None and corp not in now:
                    taken[i] = None
            apart &= set(now)
            new = [c for c in now if c not in taken and c not in apart]
            if not new:
                continue
            coord, city = key
            cities = track.placed(game, coord).tile.cities
            extra = 0 if city >= len(cities) else max(0, track.city_slots(game, coord, city) - cities[city].slots)
            for corp in new:
                if len(apart) < extra:
                    apart.add(corp)
                    continue
                index = self.slot(game, coord, city, corp)
                taken.extend([None] * (index + 1 - len(taken)))
                taken[index] = corp
