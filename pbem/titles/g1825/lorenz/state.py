"""The variant's own part of the game state: which public company holds each designated
power, which powers have been used, the free shares given, and whose turn it is in an
auction among a private's bidders. 1825's title state holds one as its ``lorenz`` field.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.engine.state import GameState, TitleState


@dataclass
class LorenzState:
    """The variant's fields.

    * ``designated`` — private -> the public company its owner designated for its power
      (``ASSIGN TWW LNWR``);
    * ``used`` — the privates whose power has been used (TWW's first yellow tile, C&HP's
      build; a used C&W closes at once);
    * ``free_shares`` — private -> ``(company, certificate index)`` of the share it gave;
    * ``last_bidder`` — in an auction among a private's bidders, the bidder who acted last
      (at its start, the high bidder): the turn goes to the next bidder still in, to the left;
    * ``sold_out`` — whether the GWR has been sold out (with Unit 1: the NER is open from
      then on; :mod:`.sold_out`).
    """

    designated: dict[str, str] = field(default_factory=dict)
    used: list[str] = field(default_factory=list)
    free_shares: dict[str, tuple[str, int]] = field(default_factory=dict)
    last_bidder: str | None = None
    sold_out: bool = False

    def copy(self) -> LorenzState:
        """An independent copy."""
        return LorenzState(dict(self.designated), self.used[:], dict(self.free_shares), self.last_bidder,
                           self.sold_out)


@dataclass
class LorenzOnly(TitleState):
    """A title state holding only the variant's fields: for a game whose other rules keep no
    state of their own (1825's title state has the ``lorenz`` field itself)."""

    lorenz: LorenzState = field(default_factory=LorenzState)

    def copy(self) -> LorenzOnly:
        """An independent copy."""
        return LorenzOnly(self.lorenz.copy())


def lorenz_state(state: GameState) -> LorenzState:
    """``state``'s Lorenz fields (its title state's ``lorenz``).

    :raises TypeError: the title state has no such field (not a game of 1825).
    """
    found = getattr(state.title_state, "lorenz", None)
    if not isinstance(found, LorenzState):
        raise TypeError(f"no Lorenz fields in a {type(state.title_state).__name__}")
    return found
