"""The operating round (1830 rules 6): each floated corporation in turn, highest share price
first, lays track, places a station token, runs its trains, pays or withholds, buys trains and
may buy private companies.

Each step says whether it *blocks* (the turn waits for it while it has something to offer)
and which actions it takes from whom. An action goes to the first active step that takes
it; a blocking step before it that still offers something must be done or passed first —
except the optional ones (track, token, buying a private), which an action of a later step
passes implicitly, as a player who writes "no track, token in X" means.

The round is split along its seams: :mod:`.base` (the step contract), :mod:`.tracklay`
(track and the privates' tile lays), :mod:`.tokens`, :mod:`.runs`, :mod:`.dividends`,
:mod:`.buytrains` (trains and the president's emergency money), :mod:`.privates` (buying
private companies, their token abilities) and :mod:`.walk` (which step takes an action, what
is legal now). This package re-exports their public names. A title's own steps live in its
package (1870: :mod:`pbem.titles.g1870.operating`), listed by its ``operating_steps`` hook.
"""

from __future__ import annotations

from pbem.engine.steps.operating.base import OpStep, accepted, current_corp, op_state, president
from pbem.engine.steps.operating.buytrains import (
    BuyTrainStep,
    Discard,
    buy_train,
    crowded,
    emergency_sale,
    must_buy_train,
    recalculate_order,
    train_candidates,
)
from pbem.engine.steps.operating.dividends import DividendStep, distribute, move_price, pay_dividend
from pbem.engine.steps.operating.privates import (
    BuyCompany,
    assign_candidates,
    assign_token,
    buy_candidates,
    buy_company,
    price_range,
    purchasable,
    usable_abilities,
)
from pbem.engine.steps.operating.runs import Route, checked_runs, route_available
from pbem.engine.steps.operating.tokens import Token, next_token_cost, place_home_token, place_token
from pbem.engine.steps.operating.tracklay import (
    PendingToken,
    Track,
    can_buy_tile_laying_company,
    lay_cost,
    lay_tile,
    special_lay,
    special_lay_candidates,
    tile_lay_entry,
    tile_lays,
)
from pbem.engine.steps.operating.walk import (
    CORE_STEPS,
    Special,
    active_steps,
    legal_actions,
    legal_moves,
    pass_its_own_steps,
    skip_inactive,
    step_for,
    turn_held_open,
)

__all__ = [
    "BuyCompany",
    "BuyTrainStep",
    "CORE_STEPS",
    "Discard",
    "DividendStep",
    "OpStep",
    "PendingToken",
    "Route",
    "Special",
    "Token",
    "Track",
    "accepted",
    "active_steps",
    "assign_candidates",
    "assign_token",
    "buy_candidates",
    "buy_company",
    "buy_train",
    "can_buy_tile_laying_company",
    "checked_runs",
    "crowded",
    "current_corp",
    "distribute",
    "emergency_sale",
    "lay_cost",
    "lay_tile",
    "legal_actions",
    "legal_moves",
    "move_price",
    "must_buy_train",
    "next_token_cost",
    "op_state",
    "pass_its_own_steps",
    "pay_dividend",
    "place_home_token",
    "place_token",
    "president",
    "price_range",
    "purchasable",
    "recalculate_order",
    "route_available",
    "skip_inactive",
    "special_lay",
    "special_lay_candidates",
    "step_for",
    "tile_lay_entry",
    "tile_lays",
    "train_candidates",
    "turn_held_open",
    "usable_abilities",
]
