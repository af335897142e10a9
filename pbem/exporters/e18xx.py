"""A game's log as an 18xx.games record, the inverse of :mod:`pbem.importers.e18xx`.

The orders in force (undone ones left out) are replayed through our engine, and each becomes
the record actions the platform logs for it, named by the platform's own ids: tiles
``"57-0"`` (tile name, copy index), cities ``"<tile id>-<city index>"`` (a preprinted tile's
id is ``"<hex>-0"``), trains ``"2-0"``, shares ``"PRR_3"``, companies by symbol, players by
a number from 1 in seating order. Which copy, train or share is next is followed on the
importer's own :class:`~pbem.importers.e18xx.Renderer`: every record action written is
rendered back at once, must give the order it came from (or no order, for a record action
the platform asks for that our engine does by itself), and is then applied, so the import of
an export gives the same order lines. A title's own orders are exported by its record
translation (:meth:`pbem.importers.translation.RecordTranslation.export`), which also names
the title's variants the platform does not have (:attr:`~pbem.importers.translation.
RecordTranslation.platform_lacks`): a game with one is refused.

A RUN AUTO is written as the run our engine finds for it (the same search as when it
was applied). Runs are written with one hex chain per leg, from stop to stop, naming every hex the track
passes as our route check found it (:attr:`pbem.engine.track.RouteResult.legs`).
"""

from __future__ import annotations

import dataclasses

from dataclasses import dataclass, field
from typing import Any, Sequence

from pbem.engine.actions import (
    Action,
    BuyPrivate,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Par,
    Pass,
    PlaceToken,
    RunAuto,
    RunRoutes,
)
from pbem.engine import track
from pbem.engine.routes import resolve_auto
from pbem.engine.events import Event
from pbem.engine.events.operating import TrainBought
from pbem.engine.game import Game
from pbem.engine.ids import ShareId, TrainId
from pbem.engine.state import Owner, RoundKind
from pbem.engine.steps.stock import PURCHASES
from pbem.engine.title import TitleData
from pbem.errors import OrderError
from pbem.exporters.core_actions import core_actions, home_city_chosen, teleporting
from pbem.exporters.records import (
    ExportedRecord,
    LoggedOrder,
    RecordPlayer,
    UnsupportedExport,
    orders_in_force,
    platform_options,
)
from pbem.exporters.slots import CitySlots
from pbem.importers.e18xx import Renderer, UnsupportedRecordAction
from pbem.importers.holdings import PRESIDENT_INDEX
from pbem.log_records import LogRecord
from pbem.orders import Vocabulary, format_order, parse_order


def export_log(records: Sequence[LogRecord]) -> ExportedRecord:
    """The record of a game's whole log (record 0 first): its orders in force, then
    ``end_game`` if the GM ended it (see the module docstring).

    :raises UnsupportedExport: a variant the platform lacks, or an order the record format
        cannot hold, or one that does not read back (the message names the log number).
    """
    from pbem.ruleset import load_title

    genesis, orders, ended = orders_in_force(records)
    data = genesis.genesis
    title = load_title(str(data["title"]), tuple(data.get("variants", ())))
    seats = [str(s["name"]) for s in data["seats"]]
    return export_orders(title, seats, orders, ended)


def export_orders(title: TitleData, seats: Sequence[str], orders: Sequence[LoggedOrder],
                  ended: int | None = None) -> ExportedRecord:
    """The record of a game of ``title`` (its variants as loaded) for ``seats`` (seating
    order) that played ``orders``; ``ended``: the log number of a GM's END GAME.

    :raises UnsupportedExport: see :func:`export_log`.
    """
    exporter = Exporter(title, seats)
    for order in orders:
        exporter.add(order)
    if ended is not None:
        exporter.emit({"type": "end_game", "entity": 1, "entity_type": "player"}, ended)
    return exporter.record()


@dataclass
class Exporter:
    """Exports orders one at a time, following the game on an importer's renderer (whose
    holdings and tile tracking name the record's pieces as the importer reads them).

    A title's translation uses :attr:`game`, :meth:`player_id`, :meth:`operator`,
    :meth:`share_ids` and :attr:`renderer`.
    """

    title: TitleData
    seats: Sequence[str]
    renderer: Renderer = field(init=False)
    actions: list[dict[str, Any]] = field(default_factory=list)
    sources: list[int] = field(default_factory=list)
    tile_ids: dict[str, str] = field(default_factory=dict)
    """Hex -> the record id of the tile laid there."""
    tile_supply: dict[str, list[str]] = field(default_factory=dict)
    """Tile name -> the record ids of its copies in the supply, in the order they are taken."""
    unlimited_copies: dict[str, int] = field(default_factory=dict)
    """Tile name -> copies made so far of an unlimited tile."""
    options: tuple[str, ...] = ()
    slots: CitySlots = field(default_factory=CitySlots)
    """The cities' station slots as the platform keeps them."""
    memo: dict[str, Any] = field(default_factory=dict)
    """What a title's translation remembers between orders (e.g. the checks written)."""

    def __post_init__(self) -> None:
        self.options = platform_options(self.title, self.title.variants)
        record = {"title": self.title.title,
                  "players": [{"id": i, "name": n} for i, n in enumerate(self.seats, start=1)],
                  "settings": {"optional_rules": list(self.options)}}
        self.renderer = Renderer(record, self.title)

    @property
    def game(self) -> Game:
        """Our game as it stands before the order being exported."""
        return self.renderer.game

    def record(self) -> ExportedRecord:
        """The record of everything exported so far."""
        players = tuple(RecordPlayer(i, n) for i, n in enumerate(self.seats, start=1))
        return ExportedRecord(self.title.title, players, self.options, tuple(self.actions), tuple(self.sources))

    def player_id(self, seat: str) -> int:
        """The record's id of a seat."""
        return list(self.seats).index(seat) + 1

    def emit(self, action: dict[str, Any], seq: int) -> None:
        """Append a record action (its ``id`` is given here) that came from log number ``seq``."""
        self.actions.append({**action, "id": len(self.actions) + 1})
        self.sources.append(seq)

    # --- who acts ---------------------------------------------------------------------

    def turn(self) -> tuple[int, int, int, str] | None:
        """The operating turn now: ``(stock round number, operating round in the set, index
        in the order, corporation)``, or None outside an operating turn."""
        rnd = self.game.state.round
        op = rnd.operating
        if rnd.kind != RoundKind.OPERATING or op is None or op.index >= len(op.order):
            return None
        return (rnd.number, rnd.or_number, op.index, op.order[op.index])

    def operator(self, action: Action | None = None) -> str | None:
        """The corporation operating now (for ``action``: the one the active step taking
        such an order acts for, e.g. a 1870 connection run's), or None outside an
        operating turn."""
        op = self.game.state.round.operating
        if op is None or op.index >= len(op.order) or self.game.state.round.kind != RoundKind.OPERATING:
            return None
        if action is not None:
            from pbem.engine.steps.operating.walk import active_steps

            for step in active_steps(self.game):
                if isinstance(action, step.takes):
                    return step.subject(self.game)
        return op.order[op.index]

    def acting(self, seat: str, action: Action | None = None) -> dict[str, Any]:
        """``entity`` and ``entity_type`` for ``seat``'s order: the operating corporation
        (see :meth:`operator`) when ``seat`` acts for it, else the player."""
        corp = self.operator(action)
        if corp is not None:
            probe = {"type": "pass", "id": 0, "entity": corp, "entity_type": "corporation"}
            try:
                if self.renderer.seat(probe) == seat:
                    return {"entity": corp, "entity_type": "corporation"}
            except UnsupportedRecordAction:
                pass
        return {"entity": self.player_id(seat), "entity_type": "player"}

    def by_company(self, seat: str, company: str | None) -> dict[str, Any]:
        """``entity`` for an order using private ``company``'s ability (else :meth:`acting`)."""
        if company is None:
            return self.acting(seat)
        return {"entity": company, "entity_type": "company"}

    # --- pieces -----------------------------------------------------------------------

    def share_ids(self, sym: str, holder: Owner, count: int, *, offered: bool = False,
                  units: bool = False, oldest: bool = False) -> list[ShareId]:
        """``count`` record share ids of ``sym`` that ``holder`` has: ordinary ones first, by
        index, then the president's (``offered``: only those the importer reads as bought
        from the offering; ``units``: ``count`` counts shares of the normal size, as a sale
        does, so the president's certificate counts for several; ``oldest``: the ordinary
        ones ``holder`` received first, as the platform takes the share a corporation
        redeems).

        :raises UnsupportedExport: ``holder`` has too few.
        """
        holdings = self.renderer.holdings
        holdings.follow(self.game.state)
        ids = list(holdings.shares.get(sym, {}).get(holder, []))
        if offered:
            ids = [i for i in ids if i in self.renderer.ipo_ids]
        pres = ShareId(sym, PRESIDENT_INDEX)
        ordered = [i for i in ids if i != pres]
        if not oldest:
            ordered.sort(key=lambda i: i.index)
        if pres in ids:
            ordered.append(pres)
        if units:
            unit = min(self.title.corporation(sym).shares[1:])
            picked: list[ShareId] = []
            while ordered and self.percent(picked) < count * unit:
                picked.append(ordered.pop(0))
            if self.percent(picked) >= count * unit:  # the president's share may be sold in part
                return picked
        elif len(ordered) >= count:
            return ordered[:count]
        raise UnsupportedExport(f"the record's {sym} shares of {holder.name or holder.kind} cannot be told")

    def percent(self, share_ids: Sequence[ShareId]) -> int:
        """The percentage of the record's shares ``share_ids``."""
        return sum(self.title.corporation(i.corporation).shares[i.index] for i in share_ids)

    def tile_id(self, coord: str, name: str | None = None) -> str:
        """The record id of the tile on ``coord`` (a preprinted one's: the translation's
        ``printed_tile_id``, ``"<hex>-0"`` as a rule), or with
        ``name`` the id of the copy of tile ``name`` a lay takes: the first in the supply,
        which holds the copies in order and takes back a replaced tile last (as the
        platform's tile list does); an unlimited tile gets a new copy after each lay."""
        if name is None:
            return self.tile_ids.get(coord) or self.renderer.translation.printed_tile_id(self, coord)
        return self._supply(name)[0]

    def _supply(self, name: str) -> list[str]:
        free = self.tile_supply.get(name)
        if free is None:
            count = self.game.board.tile_counts.get(name)
            free = self.tile_supply[name] = self.renderer.translation.tile_copy_ids(
                self, name, 1 if count is None else count)
        if not free:
            raise UnsupportedExport(f"no copy of tile {name} left to lay")
        return free

    def _sync_tiles(self) -> None:
        """Follow the lays (our engine's own too): a hex whose tile changed takes the next
        copy from the supply, and the tile it replaced goes back last."""
        laid = self.game.state.tiles
        for coord, (name, _) in laid.items():
            known = self.tile_ids.get(coord)
            if known is not None and known.rsplit("-", 1)[0] == name:
                continue
            free = self._supply(name)
            self.tile_ids[coord] = free.pop(0)
            if self.game.board.tile_counts.get(name, 0) is None:  # unlimited: a new copy
                free.append(f"{name}-{self.unlimited_copies.get(name, 1)}")
                self.unlimited_copies[name] = self.unlimited_copies.get(name, 1) + 1
            if known is not None:  # laid by an earlier lay, so its supply is known
                self.tile_supply[known.rsplit("-", 1)[0]].append(known)
        for coord in [c for c in self.tile_ids if c not in laid]:
            del self.tile_ids[coord]

    def token_slot(self, coord: str, city: int, corp: str) -> int:
        """The slot a token of ``corp`` takes in city ``city`` of ``coord``, as the platform
        picks it (:meth:`pbem.exporters.slots.CitySlots.slot`)."""
        return self.slots.slot(self.game, coord, city, corp)

    def train_ids(self, holder: str) -> list[TrainId]:
        """Our engine's train ids held by ``holder`` (a corporation, ``"pool"`` or ``"depot"``)."""
        state = self.game.state
        if holder == "pool":
            return list(state.pool_trains)
        if holder == "depot":
            return list(state.depot)
        return list(state.corporations[holder].trains)

    # --- the export ---------------------------------------------------------------------

    def add(self, order: LoggedOrder) -> None:
        """Export one order in force and apply it.

        :raises UnsupportedExport: an order the format cannot hold or that does not read back.
        """
        from pbem.importers.translation import RecordTranslation

        translation: RecordTranslation = self.renderer.translation
        label = self.game.round_label()
        stock = self.game.state.round.stock if self.game.state.round.kind == RoundKind.STOCK else None
        bought = stock is not None and any(kind in PURCHASES for kind in stock.turn_actions)  # a par too
        held = ({p: s.cash for p, s in self.game.state.players.items()}, self.game.state.phase)
        self._passes_before(order)
        turn = self.turn()
        closing_pass = turn is not None and isinstance(order.action, Pass) and self._last_step_open()
        if isinstance(order.action, RunAuto):  # the run our engine finds for it (deterministic)
            try:
                resolved, _ = resolve_auto(self.game, order.action)
                vocab = Vocabulary.from_title(self.title)  # as a player writes it (G19, not G19.0)
                resolved = parse_order(format_order(resolved, vocab), vocab)
            except OrderError as exc:
                raise UnsupportedExport(f"log {order.seq}: RUN AUTO: {exc}") from exc
            order = LoggedOrder(order.seq, order.seat, resolved)
        teleported = teleporting(self)
        if isinstance(order.action, PlaceToken) and order.action.using is None and teleported is not None:
            if order.action.hex == self.game.state.pending_teleport:  # the private's token, as the platform asks it
                order = LoggedOrder(order.seq, order.seat, dataclasses.replace(order.action, using=teleported))
            else:  # the corporation's own token elsewhere: the platform first has the private's declined
                self.add(LoggedOrder(order.seq, order.seat, Pass()))
        events: Sequence[Event] = ()
        try:
            own = translation.export(self, order.seat, order.action)
            parts = own if own is not None else core_actions(self, order.seat, order.action)
        except UnsupportedRecordAction as exc:
            raise UnsupportedExport(f"log {order.seq}: {exc}") from exc
        applied = False
        for part in parts:
            try:
                back = self.renderer.render({**part, "id": len(self.actions) + 1})
            except (UnsupportedRecordAction, KeyError, ValueError) as exc:
                raise UnsupportedExport(f"log {order.seq}: {format_order(order.action)} does not read back: {exc}") from exc
            if back is not None:
                if back != order.action or applied:
                    raise UnsupportedExport(f"log {order.seq}: {format_order(order.action)} would read back as "
                                            f"{format_order(back)}")
                seat = self.renderer.seat({**part, "id": 0})
                if seat != order.seat:
                    raise UnsupportedExport(f"log {order.seq}: {format_order(order.action)} by {order.seat} "
                                            f"would read back as {seat}'s")
                before = self._pieces()
                events = self.game.apply(order.seat, order.action)
                applied = True
                self._after(part, order.action, before, events)
            self.emit(part, order.seq)
        if not applied:
            events = self.game.apply(order.seat, order.action)
        self._sync_tiles()
        self.slots.follow(self.game)
        for extra in home_city_chosen(self, order.action, events) + translation.after_order(self, events):
            if self.renderer.render({**extra, "id": len(self.actions) + 1}) is not None:
                raise UnsupportedExport(f"log {order.seq}: the platform's {extra['type']} would read back as an order")
            self.emit(extra, order.seq)
        if turn is not None and self.turn() != turn and not closing_pass and not self.game.state.finished \
                and translation.asks_at_turn_end(self.game, str(turn[-1])):
            self._corporation_pass(order, str(turn[-1]))
        autos = translation.auto_actions(self, turn, events)
        bought = bought or isinstance(order.action, (BuyShares, Par, BuyPrivate))
        stock_order = label.startswith("SR ")
        if stock_order:  # the passes of its stock round come before what follows the round
            self._passes_after(order, label, events, bought, held)
        if autos and self.actions:
            self.actions[-1].setdefault("auto_actions", []).extend(autos)
        if not stock_order:
            self._passes_after(order, label, events, bought, held)

    def _passes_after(self, order: LoggedOrder, label: str, events: Sequence[Event], bought: bool,
                      held: tuple[dict[str, int], str]) -> None:
        """Export the pass of each player whose stock-round turn our engine ended by itself
        during ``order`` and whom the platform still asks
        (:meth:`RecordTranslation.platform_passes`)."""
        for player in self.renderer.translation.platform_passes(self.game, order.seat, order.action, label,
                                                                bought, held, events):
            self._platform_pass(order, player)

    def _last_step_open(self) -> bool:
        """Whether the operating turn's last step (buying privates) is the one to act now,
        so a PASS now is the one the platform's last step waits for."""
        from pbem.engine.steps.operating.privates import BuyCompany
        from pbem.engine.steps.operating.walk import active_steps

        steps = active_steps(self.game)
        return bool(steps) and steps[0] is BuyCompany

    def _corporation_pass(self, order: LoggedOrder, corp: str) -> None:
        """Export the pass of ``corp`` at the end of a turn our engine ended by itself
        (:meth:`RecordTranslation.asks_at_turn_end`), which must read back as no order."""
        part = {"type": "pass", "entity": corp, "entity_type": "corporation"}
        if self.renderer.render({**part, "id": len(self.actions) + 1}) is not None:
            raise UnsupportedExport(f"log {order.seq}: the platform's pass of {corp} would read back as an order")
        self.emit(part, order.seq)

    def _platform_pass(self, order: LoggedOrder, player: str) -> None:
        """Export the platform's pass of ``player``, which must read back as no order."""
        part = {"type": "pass", "entity": self.player_id(player), "entity_type": "player"}
        if self.renderer.render({**part, "id": len(self.actions) + 1}) is not None:
            raise UnsupportedExport(f"log {order.seq}: the platform's pass of {player} would read back as an order")
        self.emit(part, order.seq)

    def _passes_before(self, order: LoggedOrder) -> None:
        """Export a PASS for each optional step ``order`` passes over on its way to the step
        taking it (a TRAIN with no LAY before it), as the platform's steps wait for each to be
        passed; our engine takes that PASS alike, passing on the way any optional step that
        takes no PASS (1825's lease at the start of a turn, no step of the platform's)."""
        from pbem.engine.steps.operating.walk import passed_over

        for _ in range(len(self.game.operating_steps)):
            if self.game.state.round.kind != RoundKind.OPERATING:
                return
            probe = RunRoutes(()) if isinstance(order.action, RunAuto) else order.action  # as it resolves
            over = passed_over(self.game, order.seat, probe)
            if not any(Pass in step.takes for step in over):
                return
            self.add(LoggedOrder(order.seq, order.seat, Pass()))  # the first that takes it (ours alike)

    def _pieces(self) -> dict[str, list[TrainId]]:
        state = self.game.state
        out = {sym: list(c.trains) for sym, c in state.corporations.items()}
        out["pool"] = list(state.pool_trains)
        return out

    def _after(self, part: dict[str, Any], action: Action, before: dict[str, list[TrainId]],
               events: Sequence[Event]) -> None:
        """Fill in what only the move itself tells: a run's revenue, a train's id and price."""
        if isinstance(action, RunRoutes):
            routes = iter(part["routes"])
            for result in self.game.last_run:
                if result.joined:  # the second route's stops beyond the first count on it alone
                    first, second = next(routes), next(routes)
                    second["revenue"] = track.stop_revenue(self.game, result.stops[-1])
                    first["revenue"] = result.revenue - second["revenue"]
                    for route, leg in zip((first, second), result.legs):
                        route["connections"] = [list(leg)]
                    continue
                route = next(routes)
                route["revenue"] = result.revenue
                if result.legs:
                    route["connections"] = [list(leg) for leg in result.legs]
        elif isinstance(action, BuyTrain):
            buyer = str(part["entity"])
            new = [t for t in self.game.state.corporations[buyer].trains if t not in before.get(buyer, [])]
            if len(new) == 1 and str(new[0]) != part["train"]:
                self.renderer.holdings.trains.pop(TrainId.parse(str(part["train"])), None)
                self.renderer.holdings.trains[new[0]] = buyer
                part["train"] = str(new[0])
            paid = [e.price for e in events if isinstance(e, TrainBought)]
            if paid:
                part["price"] = paid[0]
        elif isinstance(action, DiscardTrain):
            for sym, trains in before.items():
                if sym == "pool" or sym not in self.game.state.corporations:
                    continue
                gone = [t for t in trains if t not in self.game.state.corporations[sym].trains]
                if len(gone) == 1:
                    self.renderer.holdings.trains.pop(TrainId.parse(str(part["train"])), None)
                    self.renderer.holdings.trains[gone[0]] = "pool"
                    part.update(train=str(gone[0]), entity=sym, entity_type="corporation")
                    break
