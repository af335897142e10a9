"""1829's own part of the game state (``GameState.title_state``): what the core's state has
no field for.

* ``operating_rounds`` — how many operating rounds have been completed (the share
  launches count them: "after 3 operating rounds the MR is put on offer"; the end counts
  them too);
* ``launched`` — how many groups of the launch schedule have been announced as on offer;
* ``drops`` — corporation -> the rows its price fell by sales in this stock round and not yet
  won back by purchases from the pool (the variant's "Share Price Movement", 2);
* the operating company's survey this turn (:mod:`.survey`): ``surveyed`` (a party has
  moved), ``parked`` (its party stays parked on a home station), ``left`` (the hexes its
  parties have left, where it may lay new track).

Source: Stuart Dagger's Combined Boards Variant (seed 003), "Share Launches" and "Share Price
Movement"; "Survey Parties and Track Building".
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine.state import GameState, TitleState


@dataclass
class State1829(TitleState):
    """1829's fields (see the module text)."""

    operating_rounds: int = 0
    launched: int = 0
    drops: dict[str, int] = field(default_factory=dict)
    surveyed: bool = False
    parked: bool = False
    left: list[str] = field(default_factory=list)

    def copy(self) -> State1829:
        """A structural copy."""
        return State1829(self.operating_rounds, self.launched, dict(self.drops), self.surveyed, self.parked,
                         list(self.left))


def state1829(state: GameState) -> State1829:
    """``state``'s title state, a game of 1829's."""
    found = state.title_state
    assert isinstance(found, State1829), "a game of 1829 keeps a State1829"
    return found
