"""S&D's clause for a combined game that includes Unit 1 (seed 002): "no additional NER shares
may be bought by any player until the GWR has been sold out".

The variant does not say what "sold out" is; the setting
:data:`~.readings.SOLD_OUT_FROM_IPO` chooses:

* ``True`` (``lorenz``): no GWR share is left in its IPO, as 1825 reads "sold out" when a
  band of companies opens (shares in the bank pool count as sold);
* ``False`` (``lorenz_gwr_sold_out_to_players``): all ten GWR shares are held by players, so
  a share in the bank pool keeps the NER closed.

"Has been sold out" is an event: once it happens the NER stays open, even if GWR shares go to
the pool later. The game keeps that it happened (``LorenzState.sold_out``), noted after each
action of a stock turn (:func:`with_sold_out_noted`), where shares are bought.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from pbem.engine.state import IPO, POOL
from pbem.titles.g1825.lorenz.facts import SOLD_OUT_FIRST, plays
from pbem.titles.g1825.lorenz.readings import SOLD_OUT_FROM_IPO, reading
from pbem.titles.g1825.lorenz.state import lorenz_state

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.engine.game import Game
    from pbem.engine.step import Handler
    from pbem.engine.steps.stock import BuySellParShares


def reading_text(from_ipo: bool) -> str:
    """What "the GWR has sold out" means under the setting, in a player's words."""
    if from_ipo:
        return f"no {SOLD_OUT_FIRST} share left in its IPO"
    return f"all ten {SOLD_OUT_FIRST} shares held by players, none in its IPO or the bank pool"


def sold_out_now(game: Game, sym: str = SOLD_OUT_FIRST) -> bool:
    """Whether ``sym`` is sold out now, as the game reads it (see the module text)."""
    state = game.state
    if state.percent_of(IPO, sym) > 0:
        return False
    return reading(game, SOLD_OUT_FROM_IPO) or state.percent_of(POOL, sym) == 0


def has_sold_out(game: Game) -> bool:
    """Whether the GWR has been sold out (now, or at some time before)."""
    return lorenz_state(game.state).sold_out or sold_out_now(game)


def note_sold_out(game: Game) -> None:
    """Keep that the GWR has been sold out, if it is now (a game of the variant with the GWR)."""
    if plays(game.title.variants) and SOLD_OUT_FIRST in game.state.corporations and sold_out_now(game):
        lorenz_state(game.state).sold_out = True


def _noting(handler: Handler) -> Handler:
    def run(game: Game, player: str, action: Action) -> None:
        handler(game, player, action)
        note_sold_out(game)

    return run


@functools.lru_cache(maxsize=8)
def with_sold_out_noted(base: type[BuySellParShares]) -> type[BuySellParShares]:
    """``base`` (the title's stock step) noting after each of its actions whether the GWR has
    sold out (:func:`note_sold_out`)."""

    class Noting(base):  # type: ignore[misc, valid-type]
        __doc__ = f"{base.__name__}, noting when the {SOLD_OUT_FIRST} has sold out (Lorenz's variant)."
        handlers = {kind: _noting(handler) for kind, handler in base.handlers.items()}

    Noting.__name__ = Noting.__qualname__ = f"SoldOutNoted{base.__name__}"
    return Noting
