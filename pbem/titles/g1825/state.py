"""1825's own part of the game state (``GameState.title_state``): what the core's state has
no field for. Shared by the plugin's parts; each keeps to its own fields.

Source: 18xx.games' ``g_1825/game.rb`` (``@formed``, ``@highest_layer``, ``@minor_trains``)
and its stock step (``buy_sell_par_shares_companies.rb``), as issue 12 asks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from pbem.engine.ids import TrainId
from pbem.engine.state import GameState, TitleState
from pbem.titles.g1825.lorenz.state import LorenzState

if TYPE_CHECKING:
    from pbem.engine.title import TitleData


def is_minor(title: TitleData, sym: str) -> bool:
    """Whether ``sym`` is one of 1825's minor companies (corporations.yaml ``kind: minor``:
    a 40% Director's certificate and 20% shares, paid for share by share)."""
    return title.corporation(sym).kind == "minor"


@dataclass(frozen=True)
class LeasedTrain:
    """A train a company in receivership leased from the bank for its operating turn:
    ``corporation``, the ``train`` id, and ``depot_index``, its place in the bank's depot, to
    which it goes back after the dividend (18xx.games keeps it in the round:
    ``@round.leased_train``)."""

    corporation: str
    train: TrainId
    depot_index: int


@dataclass
class State1825(TitleState):
    """1825's fields.

    Stock (the start, the stock round, the end):

    * ``formed`` — the companies that have formed, in the order they did: a major when it
      floats (60% sold), a minor when its treasury can pay for its required train; only
      formed companies operate, and the order of forming breaks ties of par in the
      operating order;
    * ``band`` — the highest band of companies announced as open so far (0 while privates
      from the start are unsold);
    * ``minor_trains`` — minor -> the train id set aside for it at the start (its required
      train, out of the depot until the minor forms and buys it);
    * ``required_trains`` — minor -> that train's id once bought: the train shown on the
      Director's certificate, which may not be sold to another company (K5's minor rules);
    * ``pool_privates`` — privates sold to the bank, which any player may buy back at face
      value once the start's privates are all sold;
    * ``sold_privates`` — player -> the privates they sold to the bank in stock round
      ``sold_round`` (they may not buy those back in the same round);
    * ``purchased`` — the current stock-round turn has bought something (a share, a
      Director's certificate, a private): only such a turn keeps the round going;
    * ``last_bought`` — the company the turn's latest action bought or started, if that was
      its latest action (it may not then be sold: no buying then selling in one turn).

    Operating: ``lease`` — the train leased for the operating company's turn, if any
    (:class:`LeasedTrain`; fault 8 of the references: a company in receivership with no train
    leases one for £10 a turn).

    Lorenz's variant: ``lorenz`` — its fields (:class:`~pbem.titles.g1825.lorenz.state.LorenzState`).
    """

    formed: list[str] = field(default_factory=list)
    band: int = 0
    minor_trains: dict[str, TrainId] = field(default_factory=dict)
    required_trains: dict[str, TrainId] = field(default_factory=dict)
    pool_privates: list[str] = field(default_factory=list)
    sold_privates: dict[str, list[str]] = field(default_factory=dict)
    sold_round: int = 0
    purchased: bool = False
    last_bought: str | None = None
    lease: LeasedTrain | None = None
    lorenz: LorenzState = field(default_factory=LorenzState)

    def copy(self) -> State1825:
        """A structural copy (subclasses with more fields extend it)."""
        new = _shallow(self)
        new.formed = self.formed[:]
        new.minor_trains = dict(self.minor_trains)
        new.required_trains = dict(self.required_trains)
        new.pool_privates = self.pool_privates[:]
        new.sold_privates = {k: v[:] for k, v in self.sold_privates.items()}
        new.lorenz = self.lorenz.copy()
        return new

    def incremental(self, title: TitleData, sym: str) -> bool:
        """A minor is paid by its IPO's sales, its Director's certificate included
        (18xx.games: the minors' ``capitalization: incremental``), though 1825's majors are
        fully capitalised."""
        return is_minor(title, sym)


def _shallow(obj: State1825) -> State1825:
    new = object.__new__(type(obj))
    new.__dict__ = obj.__dict__.copy()
    return new


def state1825(state: GameState) -> State1825:
    """``state``'s 1825 part.

    :raises TypeError: the game is not one of 1825 (its title state is another class).
    """
    found = state.title_state
    if not isinstance(found, State1825):
        raise TypeError(f"not an 1825 game state: {type(found).__name__}")
    return found
