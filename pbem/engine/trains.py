"""Trains and phases (1830 rules 6.7-6.8, 7): the depot, buying, rusting, the train limit.

Trains are named by a :class:`~pbem.engine.ids.TrainId` (``TrainId("2", 0)``, shown as
``"2-0"`` as 18xx.games names it, is the first 2-train). The depot sells its trains in
order: only the first unsold type (and any type the phase has made available early, such as
the D after the first 6) can be bought, plus trains discarded to the bank pool. The first
train of a type may start a new phase, rust older trains and fire events (1830: the first
5-train closes the private companies).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine.events import PhaseStarted, PrivateTokenRemoved, TrainsLost, TrainsRusted
from pbem.engine.ids import TrainId
from pbem.engine.title import PhaseData, TitleData, TrainData

if TYPE_CHECKING:
    from pbem.engine.game import Game

def new_depot(title: TitleData) -> list[TrainId]:
    """Every train the bank starts with, in the order they are sold."""
    depot: list[TrainId] = []
    for train in title.trains:
        count = train.count if train.count is not None else 1  # topped up as they sell
        depot.extend(TrainId(train.name, i) for i in range(count))
    return depot


def train_data(title: TitleData, train_id: TrainId) -> TrainData:
    """The :class:`TrainData` of a train id.

    :raises KeyError: the title has no train of its type."""
    return type_data(title, train_id.kind)


def type_data(title: TitleData, kind: str) -> TrainData:
    """The :class:`TrainData` of the train type named ``kind`` (``"3"``).

    :raises KeyError: the title has no such type."""
    for train in title.trains:
        if train.name == kind:
            return train
    raise KeyError(kind)


def phase_data(title: TitleData, name: str) -> PhaseData:
    """The phase called ``name``."""
    for phase in title.phases:
        if phase.name == name:
            return phase
    raise KeyError(name)


def phase_index(title: TitleData, name: str) -> int:
    """Position of phase ``name`` in the title's phase list."""
    return [p.name for p in title.phases].index(name)


def phase_available(title: TitleData, current: str, needed: str | None) -> bool:
    """Whether phase ``needed`` (e.g. a train's ``available_on``) has been reached."""
    return needed is not None and phase_index(title, needed) <= phase_index(title, current)


def depot_offer(game: Game) -> list[TrainId]:
    """Train ids the depot sells now: the first train left, one of each type the phase has
    made available, and one of each type in the bank pool (discarded trains)."""
    state, title = game.state, game.title
    offer: list[TrainId] = []
    seen: set[str] = set()
    for i, train_id in enumerate(state.depot):
        kind = train_id.kind
        data = train_data(title, train_id)
        if (i == 0 or phase_available(title, state.phase, data.available_on)) and kind not in seen:
            offer.append(train_id)
            seen.add(kind)
    pool_seen: set[str] = set()
    for train_id in state.pool_trains:
        kind = train_id.kind
        if kind not in pool_seen:
            offer.append(train_id)
            pool_seen.add(kind)
    return offer


def train_limit(game: Game) -> int:
    """How many trains a corporation may own in the current phase."""
    return phase_data(game.title, game.state.phase).train_limit


def cheapest_offer_price(game: Game) -> int | None:
    """The lowest price of a train the bank sells now, new or from the pool (the train a
    corporation buys with its president's money, 1830 rules 6.7), or None if none is for sale."""
    prices = [train_data(game.title, t).price for t in depot_offer(game)]
    return min(prices) if prices else None


def after_first_of_type(game: Game, train_id: TrainId) -> None:
    """After ``train_id`` is bought, by the bank or by a corporation: the next phase begins if
    it starts on this type (1830 rules 7), and on the first of its type obsolete trains rust
    and its events happen (6.8). A corporation's purchase matters only where the train came to
    it unsold: 1825's minors' required trains, whose 5 may be bought before the 3s (18xx.games
    alike: any purchase of the next phase's type starts it)."""
    state, title = game.state, game.title
    kind = train_id.kind
    while phase_index(title, state.phase) + 1 < len(title.phases):
        phase = title.phases[phase_index(title, state.phase) + 1]
        if phase.on != kind:
            break
        state.phase = phase.name
        game.event(PhaseStarted(phase.name, phase.operating_rounds, phase.train_limit, tuple(phase.tiles)))
    if kind in state.types_sold:
        return
    state.types_sold.append(kind)
    rusted = [t.name for t in title.trains if t.rusts_on == kind]
    if rusted:
        for corp in state.corporations.values():
            gone = [t for t in corp.trains if t.kind in rusted]
            for t in gone:
                corp.trains.remove(t)
            if gone:
                game.event(TrainsLost(corp.sym, tuple(gone)))
        state.pool_trains = [t for t in state.pool_trains if t.kind not in rusted]
        state.depot = [t for t in state.depot if t.kind not in rusted]
        game.event(TrainsRusted(tuple(rusted)))
    data = train_data(title, train_id)
    for event in data.events:
        if event == "close_companies":
            game.close_all_companies()
        elif event == "remove_tokens":
            for company in list(state.assignments):
                game.event(PrivateTokenRemoved(company, state.assignments[company].hex))
            state.assignments.clear()


def top_up_unlimited(game: Game, sold: TrainId) -> None:
    """Keep an unlimited train type in stock after one is sold."""
    data = train_data(game.title, sold)
    if data.count is not None:
        return
    if not any(t.kind == data.name for t in game.state.depot):
        game.state.depot.append(TrainId(data.name, sold.number + 1))
