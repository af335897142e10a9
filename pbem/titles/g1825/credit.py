"""1825: what a company in receivership spends on credit must be repaid by its run.

A company in receivership that owns or leases a train may spend beyond its treasury on its
track, its station token and its lease (:func:`pbem.titles.g1825.trains.spending_power`); the
revenue of its run, withheld, repays the bank, and a run that does not earn the loan is
refused (:func:`pbem.titles.g1825.trains.loan_problem`). 18xx.games plays it so and tells
the player to undo what the run cannot repay; the rules' text is not public, so the reading
is a setting of 1825's own rules (``game.yaml`` ``title_rules``):

==============================  ======================================  ======================
setting (default: the reading)  what it decides                         the other reading
==============================  ======================================  ======================
``receivership_credit`` (True)  a company in receivership may spend on  it spends its treasury
                                credit, but only what the best run its  alone (variant
                                trains could make right after that      ``receivership_no_credit``)
                                spending earns (:func:`spend_problem`)
==============================  ======================================  ======================

So no order is accepted (nor offered in the report's "you may") after which no run covers the
loan and the game could not go on (issue 19): each spending on credit is judged when it is
made, by the run of the trains it owns or leases on the map as that spending leaves it; a
later lay of the turn does not count for it (lay the free tile first). The run is the one
``RUN AUTO`` would find (:func:`pbem.engine.routes.best_run`, its search budget).

Source: 18xx.games ``g_1825/step/track_and_token.rb`` (``buying_power``, the loan),
``step/route.rb`` (the run must cover it; its help: undo what cannot be afforded),
``step/lease_train.rb``; issue 19.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator

from pbem.engine import routes
from pbem.engine.actions import Action, LayTile, PlaceToken
from pbem.engine.track import city_key

if TYPE_CHECKING:
    from pbem.engine.game import Game

CREDIT = "receivership_credit"
"""The setting (``title_rules``, bool): True, a company in receivership may spend on credit
what its run can repay; False, it spends its treasury alone."""

DEFAULTS = {CREDIT: True}
"""The settings of this module and their defaults (the reading chosen)."""

OTHER_READING = "receivership_no_credit"
"""The variant file that plays the other reading (no credit)."""


def credit_allowed(game: Game) -> bool:
    """Whether the game lets a company in receivership spend on credit (:data:`CREDIT`)."""
    return bool(game.title.title_rule(CREDIT))


@contextmanager
def supposing(game: Game) -> Iterator[None]:
    """Changes made to ``game``'s state inside are undone on leaving, with the events they
    logged (a look at a position not yet reached). Inside, the state's parts are copies; on
    leaving the very objects of before come back, so a caller holding one (a treasury about
    to pay) still holds the game's."""
    original = dict(game.state.__dict__)
    events = list(game.pending_events)
    game.state.__dict__.update(game.state.copy().__dict__)
    try:
        yield
    finally:
        game.state.__dict__.clear()
        game.state.__dict__.update(original)
        game.pending_events = events


def loan_after(game: Game, corp: str, cost: int) -> int:
    """What ``corp`` owes the bank once it has paid ``cost`` (money): its treasury below
    nothing (0 while the treasury pays)."""
    return max(0, cost - game.state.corporations[corp].cash)


def repay_problem(game: Game, corp: str, cost: int, change: Callable[[], None], what: str) -> str | None:
    """Why ``corp`` may not spend ``cost`` on ``what`` (words for the refusal): the best run
    of its trains once ``change`` (which makes the spending's change to the state: the tile,
    the token, the leased train) is made earns less than the loan it leaves; None if it pays
    from its treasury or the run repays the loan."""
    loan = loan_after(game, corp, cost)
    if not loan:
        return None
    with supposing(game):
        try:
            change()
        except ValueError as exc:  # the change itself refused (an IllegalOrderError): say why
            return str(exc)
        revenue = routes.best_run(game, corp).revenue
    if revenue >= loan:
        return None
    cash = game.state.corporations[corp].cash
    owed = f"{game.money(loan)} on credit" if cash >= 0 else f"{game.money(loan)} on credit in all"
    return (f"{corp} (in receivership) has {game.money(cash)}: {what} for {game.money(cost)} would leave "
            f"{owed}, which its run must repay, but the best run its trains could make after it earns "
            f"{game.money(revenue)}")


def spend_problem(game: Game, corp: str, cost: int, action: Action) -> str | None:
    """Why ``corp`` may not spend ``cost`` on the tile or token ``action`` (:func:`repay_problem`),
    or None; the core's ``spend_problem`` hook for 1825."""
    if loan_after(game, corp, cost) == 0:
        return None
    if isinstance(action, LayTile):
        from pbem.engine.steps.operating import lay_tile

        plain = LayTile(action.hex, action.tile, action.rotation)
        return repay_problem(game, corp, cost, lambda: lay_tile(game, corp, plain, ignore_reach=True, free=True),
                             f"the tile on {action.hex}")
    if isinstance(action, PlaceToken):
        key = city_key(action.hex, action.city)
        return repay_problem(game, corp, cost, lambda: game.state.tokens.setdefault(key, []).append(corp),
                             f"the token on {action.hex}")
    return None
