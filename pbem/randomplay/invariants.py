"""What must hold after every action of a game, and at its end.

Each check takes the game (and what it needs besides) and returns a list of problems in
words (empty: it holds); the driver raises :class:`InvariantError` naming the game's seed,
the action number and the invariant.

- ``money``: the money of the game is conserved: the bank's, the players', the
  corporations' (money bid in an auction stays in the bidder's cash until the bid wins, so
  it is counted there);
- ``certificates``: every corporation's certificates add up to 100% (none once it has
  closed) and each has one owner: the IPO, the bank pool, a player or a corporation;
- ``market``: every corporation with a price is on a cell of the market grid, listed on
  that cell and on no other;
- ``trains``: each train is in one place (the depot, the bank pool or one corporation); no
  more of a type than the title has; none of a type that has rusted; the phase is the one
  the trains sold make; a corporation is over its train limit only while a discard is due;
- ``offers``: every line the report's "you may" offers reads back as itself and is
  accepted when sent (applied to a copy), and every refusal says why;
- ``report``: the turn report renders at 80 and 132 columns, no line wider than that;
- ``replay``: at the end, the log's order lines replayed from scratch give the same state.
"""

from __future__ import annotations

import copy
import random
from typing import Sequence

from pbem.engine import market, trains
from pbem.engine.actions import DiscardTrain
from pbem.engine.game import Game
from pbem.engine.ids import TrainId
from pbem.engine.state import IPO, POOL
from pbem.errors import OrderError
from pbem.orders import Vocabulary, format_order, parse_order


class InvariantError(AssertionError):
    """An invariant failed: ``seed`` of the game, ``action`` its number (1 = the first
    action; 0 = before any), ``invariant`` its name, ``detail`` what was found."""

    def __init__(self, setup: str, seed: int, action: int, invariant: str, detail: str) -> None:
        super().__init__(f"{setup}, seed {seed}, action {action}: invariant '{invariant}' failed: {detail}")
        self.setup = setup
        self.seed = seed
        self.action = action
        self.invariant = invariant
        self.detail = detail


def total_money(game: Game) -> int:
    """The bank's, the players' and the corporations' money added up."""
    state = game.state
    return (state.bank + sum(p.cash for p in state.players.values())
            + sum(c.cash for c in state.corporations.values()))


def money(game: Game, expected: int) -> list[str]:
    """Problems if the game's money is not ``expected`` (:func:`total_money` at the start)."""
    found = total_money(game)
    if found != expected:
        state = game.state
        parts = (f"bank {state.bank}, players {sum(p.cash for p in state.players.values())}, "
                 f"corporations {sum(c.cash for c in state.corporations.values())}")
        return [f"the game's money is {found}, not {expected} ({parts})"]
    return []


def certificates(game: Game) -> list[str]:
    """Problems with the corporations' certificates (the module's ``certificates``)."""
    state = game.state
    percent: dict[str, int] = {sym: 0 for sym in state.corporations}
    problems: list[str] = []
    for cert in state.certificates:
        if cert.corporation not in percent:
            problems.append(f"a certificate of an unknown corporation {cert.corporation}")
            continue
        percent[cert.corporation] += cert.percent
        owner = cert.owner
        if owner not in (IPO, POOL) and not (owner.is_player and owner.name in state.players) \
                and not (not owner.is_player and owner.name in state.corporations):
            problems.append(f"{cert.corporation} certificate {cert.index} is held by {owner}")
    for sym, pct in percent.items():
        closed = state.corporations[sym].closed
        if pct != (0 if closed else 100):
            problems.append(f"{sym}'s certificates add up to {pct}%" + (", but it has closed" if closed else ""))
    return problems


def market_grid(game: Game) -> list[str]:
    """Problems with the share prices (the module's ``market``)."""
    state, problems = game.state, []
    where: dict[str, list[tuple[int, int]]] = {}
    for coord, corps in state.market.items():
        for sym in corps:
            where.setdefault(sym, []).append(coord)
    for sym, corp in state.corporations.items():
        if corp.price is None:
            if sym in where:
                problems.append(f"{sym} has no price but is on the market at {where[sym]}")
            continue
        if market.cell(game.title, corp.price) is None:
            problems.append(f"{sym}'s price {corp.price} is not a cell of the market")
        elif not corp.closed and where.get(sym) != [corp.price]:
            problems.append(f"{sym}'s price is {corp.price} but the market lists it at {where.get(sym, [])}")
    return problems


def train_counts(game: Game, may_discard: bool | None = None) -> list[str]:
    """Problems with the trains and the phase (the module's ``trains``); ``may_discard``:
    the player to act may discard a train now (None: asked of the game, :func:`discard_due`,
    only when a corporation is over its limit, since listing the legal actions costs)."""
    state, title, problems = game.state, game.title, []
    places: dict[TrainId, list[str]] = {}
    for train_id in state.depot:
        places.setdefault(train_id, []).append("depot")
    for train_id in state.pool_trains:
        places.setdefault(train_id, []).append("pool")
    for sym, corp in state.corporations.items():
        for train_id in corp.trains:
            places.setdefault(train_id, []).append(sym)
    problems += [f"train {t} is in {', '.join(p)}" for t, p in places.items() if len(p) > 1]
    rusted = {t.name for t in title.trains if t.rusts_on is not None and t.rusts_on in state.types_sold}
    for train_id, where in places.items():
        if train_id.kind in rusted:
            problems.append(f"train {train_id} has rusted but is still in {', '.join(where)}")
    for data in title.trains:
        held = sum(1 for t in places if t.kind == data.name)
        if data.count is not None and held > data.count:
            problems.append(f"{held} {data.name}-trains, but the title has {data.count}")
    index = {p.name: i for i, p in enumerate(title.phases)}
    due = max((i for i, p in enumerate(title.phases) if p.on is None or p.on in state.types_sold), default=0)
    if index.get(state.phase, -1) < due:
        problems.append(f"the phase is {state.phase}, but the trains sold ({', '.join(state.types_sold)}) "
                        f"make it {title.phases[due].name}")
    limit = trains.train_limit(game)
    over = [sym for sym, c in state.corporations.items() if len(c.trains) > limit and not c.closed]
    if over and not (may_discard if may_discard is not None else discard_due(game)):
        problems.append(f"{', '.join(over)} over the train limit of {limit} with no discard due")
    return problems


def discard_due(game: Game) -> bool:
    """Whether a player to act may discard a train now."""
    return any(isinstance(a, DiscardTrain) for p in game.current_actors() for a in game.legal_actions(p))


def offers(game: Game, player: str, vocab: Vocabulary, rng: random.Random, lays_sampled: int = 3,
           position: object = None) -> list[str]:
    """Problems with what the report offers ``player`` (the module's ``offers``): every
    order line of its choices, and ``lays_sampled`` of its listed tile lays drawn with
    ``rng`` (all when negative), parsed, read back and applied to a copy of the game."""
    from pbem import report_sections as sections

    found = sections.offer(game, player, position=position)
    if found is None:
        return [f"{player} is to act, but the report offers nothing"]
    lines = [line for choice in found.choices for line in (*choice.orders, *choice.also)]
    lays = [f"LAY {coord} {tile} {rotation.removeprefix('r')}"
            for coord, text in found.lays.items() for part in text.split("; ")
            for tile, *rotations in [part.split()] for rotation in rotations]
    if 0 <= lays_sampled < len(lays):
        lays = rng.sample(lays, lays_sampled)
    problems: list[str] = []
    if not lines and not lays:
        problems.append(f"nothing is offered to {player} ({found.task})")
    for line in lines + lays:
        try:
            action = parse_order(line, vocab)
        except OrderError as exc:
            problems.append(f"offered {line!r} does not parse: {exc}")
            continue
        if format_order(action, vocab) != line:
            problems.append(f"offered {line!r} reads back as {format_order(action, vocab)!r}")
        try:
            copy.deepcopy(game).apply(player, action)
        except OrderError as exc:
            problems.append(f"offered {line!r} is refused: {exc}")
    return problems


def refusal(line: str, exc: OrderError) -> list[str]:
    """A problem if a refusal of ``line`` gives no reason."""
    return [] if str(exc).strip() else [f"{line!r} was refused with no reason"]


def report(game: Game, setup_name: str, variants: Sequence[str], widths: Sequence[int] = (80, 132),
           recipient: str | None = None) -> list[str]:
    """Problems rendering the turn report of ``game`` for ``recipient`` at each of ``widths``
    (an error, or a line wider than the width)."""
    from pbem.application.state import GameInfo, Replay, Seat
    from pbem.reports import render, report_context

    info = GameInfo(game_id="random", title=game.title.title, variants=tuple(variants),
                    seats=[Seat(name, f"seat{i}@example.org", "") for i, name in enumerate(game.state.seats)],
                    gm_email="gm@example.org", gm_secret_hash="")
    replay = Replay(info, game.title, game, last_seq=0)
    problems: list[str] = []
    for width in widths:
        info.widths = {recipient or "GM": width}
        try:
            text = render("report.txt.j2", report_context(replay, since_seq=0, number=1, recipient=recipient,
                                                           width=width))
        except Exception as exc:  # any error rendering is the fault the check looks for
            problems.append(f"the report at {width} columns fails: {type(exc).__name__}: {exc}")
            continue
        wide = [line for line in text.splitlines() if len(line) > width]
        if wide:
            problems.append(f"the report at {width} columns has {len(wide)} wider lines, e.g. {wide[0]!r}")
    return problems


def replay_equal(game: Game, log: Sequence[tuple[str, str]], vocab: Vocabulary,
                 ended_by_gm: bool = False) -> list[str]:
    """Problems if ``log`` (seat, order line) applied from scratch (and the game then ended by
    its GM, ``ended_by_gm``) does not give ``game``'s state."""
    fresh = Game(game.title, list(game.state.seats))
    for number, (seat, line) in enumerate(log, 1):
        try:
            fresh.apply(seat, parse_order(line, vocab), atomic=False)
        except OrderError as exc:
            return [f"the replay refuses action {number}, {seat}: {line!r}: {exc}"]
    if ended_by_gm:
        fresh.end_game("manually_ended")
    if fresh.state != game.state:
        differ = [name for name in vars(game.state) if getattr(fresh.state, name) != getattr(game.state, name)]
        return [f"the replay ends in another state (differing: {', '.join(differ)})"]
    return []
