"""Records of 18xx.games: each recorded action rendered as the order line its player would
email, so the order language and the engine are tested on real games.

The record is data only (a JSON object, see the fixtures' README). Undo, redo and skipped
actions are resolved first (:func:`effective_actions`); engine-generated ``auto_actions``
follow the action that carries them; programmed-action settings (``program_*``) change
nothing in the game and are dropped. The renderer runs our own engine alongside, because the
order line sometimes depends on the position (buying the cheapest private is ``BUY SV``).
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pbem.engine.values import DividendChoice
from pbem.engine.abilities import Shares
from pbem.engine.actions import (
    Action,
    Bankrupt,
    Bid,
    BuyPrivate,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Assign,
    Dividend,
    Exchange,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
    TrainRun,
)
from pbem.engine import track
from pbem.engine.game import Game
from pbem.engine.ids import ShareId, TrainId
from pbem.engine.state import IPO, POOL, Owner
from pbem.engine.steps.auction import min_price, may_purchase
from pbem.engine.title import TitleData
from pbem.importers.holdings import PRESIDENT_INDEX, RecordHoldings
from pbem.importers.turns import TurnSnapshot, TurnWatch, ended_between  # noqa: F401 (the importer's names)
from pbem.importers.translation import NoOrder, RecordTranslation, translation_for
from pbem.orders import format_order


class UnsupportedRecordAction(Exception):
    """A recorded action this version cannot render yet (the message names it)."""


@dataclass(frozen=True)
class ImportedOrder:
    """One order line for one seat, from record action ``record_id`` (``"26.3"`` for the
    third auto-action of action 26)."""

    record_id: str
    seat: str
    action: Action

    @property
    def line(self) -> str:
        """The canonical order line."""
        return format_order(self.action)


@dataclass(frozen=True)
class ImportedGameEnd:
    """The record's ``end_game`` (record action ``record_id``): the GM's ``END GAME``."""

    record_id: str

    line = "END GAME"
    """The GM's command."""


def load_record(path: Path) -> dict[str, Any]:
    """Read a record file (JSON)."""
    with path.open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def record_variants(record: dict[str, Any]) -> tuple[str, ...]:
    """The record's optional rules as our variant names (``rules/<title>/variants/``), with
    the readings the platform always plays (the title's ``platform_plays``), as the title
    resolves them for the record's number of players (its defaults filled in).

    :raises UnsupportedRecordAction: an option we have no variant for.
    """
    from pbem.ruleset import RULES_DIR, available_variants

    title = str(record["title"])
    if not (RULES_DIR / title / "game.yaml").is_file():
        raise UnsupportedRecordAction(f"the title {title} is not supported yet")
    options = tuple(str(o) for o in (record.get("settings") or {}).get("optional_rules") or ())
    known = available_variants(title)
    missing = [o for o in options if o not in known]
    if missing:
        raise UnsupportedRecordAction(f"optional rules not supported yet: {', '.join(missing)}")
    from pbem.importers.translation import translation_for
    from pbem.titles import composer_class

    plays = tuple(sorted(translation_for(title).platform_plays - set(options)))
    return composer_class(title).resolve_variants(options + plays, len(record.get("players") or ()))


def player_names(record: dict[str, Any]) -> dict[Any, str]:
    """Record player id (or name where ids are absent) -> seat name."""
    names: dict[Any, str] = {}
    for p in record["players"]:
        if isinstance(p, dict):
            names[p.get("id", p["name"])] = p["name"]
        else:
            names[p] = str(p)
    return names


def effective_actions(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The actions in force after undo and redo, each followed by its auto-actions.

    As the platform resolves them: an ``undo`` takes back the last action in force, or with
    ``action_id`` every action after that one; a ``redo`` restores what the most recent undo
    took back; any other action ends the chance to redo. Messages are dropped.
    """
    actions = record["actions"]
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    undone: list[list[tuple[int, dict[str, Any]]]] = []
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                last = max((i for i, a in enumerate(kept) if a is not None), default=-1)
                start = max(last, 0)
            elif target == 0:
                start = 0
            else:
                start = next(i for i, a in enumerate(actions) if a["id"] == target) + 1
            group = [(i, a) for i, a in enumerate(kept[start:index], start) if a is not None]
            for i, _ in group:
                kept[i] = None
            undone.append(group)
        elif kind == "redo":
            for i, a in undone.pop() if undone else []:
                kept[i] = a
        elif kind == "message":
            continue
        else:
            undone.clear()
            kept[index] = action
    out: list[dict[str, Any]] = []
    for action in kept:
        if action is None:
            continue
        out.append(action)
        for i, auto in enumerate(action.get("auto_actions") or [], start=1):
            out.append({**auto, "id": f"{action['id']}.{i}"})
    return out


def _join_chains(chains: list[list[str]]) -> list[str]:
    """Stops of a run from its hex chains (each chain joins two consecutive stops)."""
    if len(chains) == 1:
        return [chains[0][0], chains[0][-1]]
    first, second = chains[0], chains[1]
    ends = (second[0], second[-1])
    # the first chain's end not shared with the second; a route back to the hex it left
    # (both ends shared) is read in the order written
    start = first[-1] if first[0] in ends and first[-1] not in ends else first[0]
    stops = [start]
    for chain in chains:
        nxt = chain[-1] if chain[0] == stops[-1] else chain[0]
        stops.append(nxt)
    return stops


class Renderer:
    """Renders record actions as our actions, keeping our own game in step.

    What is a title's own (its record actions, who acts for a corporation) its
    :class:`~pbem.importers.translation.RecordTranslation` answers, asked first.
    """

    def __init__(self, record: dict[str, Any], title: TitleData | None = None) -> None:
        self.record = record
        from pbem.ruleset import load_title

        self.title = title or load_title(str(record["title"]), record_variants(record))
        self.names = player_names(record)
        self.game = Game(self.title, list(self.names.values()))
        self.translation: RecordTranslation = translation_for(self.title.title)
        """The title's own part of the rendering."""
        self.ipo_ids = {
            ShareId(c.sym, i) for c in self.title.corporations for i in range(len(c.shares))
        }
        """The record's share ids still on offer (bought from the offering, not the pool)."""
        for company in self.title.companies:
            for ability in company.abilities:
                if isinstance(ability, Shares):
                    self.ipo_ids.discard(ability.share_id)
        for cert in self.game.state.certificates:  # dealt at the start (1825's LNWR with 8 players)
            if cert.owner != IPO:
                self.ipo_ids.discard(ShareId(cert.corporation, cert.index))
        self._tile_hex: dict[str, str] = {}
        self.holdings = RecordHoldings.at_start({c.sym: len(c.shares) for c in self.title.corporations})
        """Who holds each share and train the record names (see :mod:`pbem.importers.holdings`)."""
        self.rulings: list[str] = []
        """Record action ids rendered as GM rulings (a connection our engine does not find)."""
        self.turns = TurnWatch(self.game, self.translation)
        """Whose turns our engine ended by itself (see :class:`TurnWatch`)."""

    def __deepcopy__(self, memo: dict[int, object]) -> Renderer:
        """A copy with its own game and share/tile tracking; record and title are shared."""
        twin = Renderer.__new__(Renderer)
        twin.record, twin.title, twin.names = self.record, self.title, self.names
        twin.translation = self.translation
        twin.game = copy.deepcopy(self.game, memo)
        twin.ipo_ids = set(self.ipo_ids)
        twin._tile_hex = dict(self._tile_hex)
        twin.holdings = self.holdings.copy()
        twin.rulings = list(self.rulings)
        twin.turns = self.turns.copy(twin.game)
        return twin

    def seat(self, action: dict[str, Any]) -> str:
        """The seat acting: a player, or a corporation's president (for a private company's
        ability, the president of the corporation owning it)."""
        chosen = self.translation.seat(self, action)
        if chosen is not None:
            return chosen
        entity = action["entity"]
        kind = action.get("entity_type", "player")
        if kind == "player":
            return self.names[entity]
        if kind == "company":
            owner = self.game.state.companies[str(entity)].owner
            if owner is not None and owner.is_player:
                return owner.name
            entity = owner.name if owner is not None else ""
        corp = self.game.state.corporations.get(str(entity))
        if corp is None or corp.president is None:
            raise UnsupportedRecordAction(f"action {action['id']}: no president for {entity!r}")
        return corp.president

    def render(self, action: dict[str, Any]) -> Action | None:
        """Our action for one record action (None for settings that change nothing): the
        title's translation's, else the core's.

        :raises UnsupportedRecordAction: an action type this version cannot render.
        """
        kind = action["type"]
        if kind.startswith("program_"):
            return None
        self.holdings.follow(self.game.state)
        self.turns.look()
        own = self.translation.render(self, action)
        if isinstance(own, NoOrder):
            return None
        ours = own if own is not None else self._render_core(action)
        if ours is not None:
            try:
                seat: str | None = self.seat(action)
            except (UnsupportedRecordAction, KeyError):
                seat = None
            self.turns.rendered(seat, ours)
        return ours

    def _render_core(self, action: dict[str, Any]) -> Action | None:
        """The core's action for ``action`` (see :meth:`render`)."""
        kind = action["type"]
        if kind == "pass":
            return self._pass(action)
        if kind == "sell_company":
            raise UnsupportedRecordAction(f"action {action['id']}: {self.title.title} has no sale of a "
                                          "private company to the bank (sell_company)")
        if kind == "bid":
            company = action["company"]
            price = int(action["price"])
            if self.game.state.round.auction is not None and may_purchase(self.game, company) \
                    and price == min_price(self.game, company):
                return BuyPrivate(company)
            return Bid(company, price)
        if kind == "par":
            price = int(str(action["share_price"]).split(",")[0])
            president = ShareId(str(action["corporation"]), PRESIDENT_INDEX)
            self.holdings.move_share(president, Owner.player(self.names[action["entity"]]))
            self.ipo_ids.discard(president)  # bought with the par, never again from the offering
            return Par(action["corporation"], price)
        if kind == "buy_shares" and action.get("entity_type") == "company":
            share_id = ShareId.parse(str(action["shares"][0]))
            source = "ipo" if share_id in self.ipo_ids else "pool"
            self.ipo_ids.discard(share_id)
            owner = self.game.state.companies[str(action["entity"])].owner
            if owner is not None and owner.is_player:
                self.holdings.move_share(share_id, owner)
            return Exchange(str(action["entity"]), source)  # type: ignore[arg-type]
        if kind == "buy_shares":
            ids = [ShareId.parse(str(i)) for i in action["shares"]]
            sym = ids[0].corporation
            source = "ipo" if ids[0] in self.ipo_ids else "pool"
            for share_id in ids:
                self.ipo_ids.discard(share_id)
                self.holdings.move_share(share_id, Owner.player(self.names[action["entity"]]))
            return BuyShares(sym, source, len(ids))  # type: ignore[arg-type]
        if kind == "sell_shares":
            ids = [ShareId.parse(str(i)) for i in action["shares"]]
            sym = ids[0].corporation
            corp = self.title.corporation(sym)
            share_pct = min(corp.shares[1:])
            seller = Owner.player(self.names[action["entity"]])
            for share_id in ids:
                self.holdings.move_share(share_id, POOL)
            self.holdings.return_partial(sym, POOL, seller, sum(corp.shares[i.index] for i in ids)
                                         - int(action["percent"]), share_pct)
            return SellShares(sym, int(action["percent"]) // share_pct)
        if kind == "lay_tile":
            name = str(action["tile"]).rsplit("-", 1)[0]
            self._tile_hex[str(action["tile"])] = action["hex"]
            using = str(action["entity"]) if action.get("entity_type") == "company" else None
            return LayTile(action["hex"], name, int(action["rotation"]), using)
        if kind == "place_token":
            tile_id, _, city = str(action["city"]).rpartition("-")
            coord = self._tile_hex.get(tile_id) or tile_id.rsplit("-", 1)[0]
            using = str(action["entity"]) if action.get("entity_type") == "company" else None
            parts = self.translation.city_parts(tile_id.rsplit("-", 1)[0])  # the platform's part number
            index = parts.index(int(city)) if parts is not None and int(city) in parts else int(city)
            entity = str(action["entity"])
            if using is None and entity in self.game.state.corporations and track.hex_home(self.game, entity) == coord \
                    and entity in track.tokens_in(self.game, coord, index):
                return None  # the platform's choice of a home city that ours had only one of (placed already)
            return PlaceToken(coord, index, using)
        if kind == "run_routes":
            return RunRoutes(tuple(self._run(route) for route in action["routes"]))
        if kind == "dividend":
            choice = str(action["kind"])
            return Dividend(DividendChoice(choice) if choice in ("payout", "half") else DividendChoice.WITHHOLD)
        if kind == "buy_train":
            return self._buy_train(action)
        if kind == "discard_train":
            discarded = TrainId.parse(str(action["train"]))
            self.holdings.trains[discarded] = "pool"
            return DiscardTrain(discarded.kind)
        if kind == "buy_company":
            return BuyPrivate(action["company"], int(action["price"]))
        if kind == "bankrupt":
            return Bankrupt()
        if kind == "assign":
            return Assign(str(action["entity"]), str(action["target"]))
        raise UnsupportedRecordAction(f"action {action['id']}: {kind} is not supported yet")

    def _pass(self, action: dict[str, Any]) -> Pass | None:
        """A recorded pass: ``PASS`` where our engine expects one from the entity, else no
        order where our engine has already passed the player or ended the corporation's turn
        (:class:`TurnWatch`). The platform still asks a player who can afford nothing, and a
        corporation that could buy another's train (which it prices at 1): both record a pass
        that our engine has made by itself. A private's pass while the token of its tile waits
        (1830's D&H) declines that token. Any other pass stays ``PASS``, which our engine
        then accepts or refuses."""
        entity = str(action["entity"])
        game = self.game
        if action.get("entity_type") == "company":  # a private declining its token (1830's D&H)
            if not game.state.pending_teleport:
                raise UnsupportedRecordAction(f"action {action['id']}: a pass of {entity} with no token of it waiting")
            return Pass()
        if action.get("entity_type", "player") == "corporation":
            if game.operating_corporation() == entity:
                if entity in self.turns.just_ended and self.translation.asks_at_turn_end(game, entity):
                    self.turns.just_ended.remove(entity)  # the end of the turn ours ended, before its next
                    return None
                return Pass()
            return None if self.turns.corporation_done(entity) else Pass()
        name = self.names.get(action["entity"], entity)
        if self.turns.platform_pass(name):
            return None
        if name in self.turns.just_ended and not self.turns.acts_in_new_round(name):
            self.turns.just_ended.remove(name)
            return None
        if self.turns.auto_pass(name):
            return None
        if name in game.current_actors():
            return Pass()
        return None if self.turns.player_done(name) else Pass()

    def route_run(self, route: dict[str, Any]) -> TrainRun:
        """Our run for a recorded route (:meth:`_run`), for a title's translation."""
        return self._run(route)

    def _run(self, route: dict[str, Any]) -> TrainRun:
        """Our run for a recorded route: stops in travel order (joined from the hex chains),
        with the city index from the recorded nodes where a hex has more than one stop."""
        train = TrainId.parse(str(route["train"])).kind
        hexes = _join_chains([list(c) for c in route["connections"]])
        queues: dict[str, list[str]] = {}
        for node in route.get("nodes") or []:
            coord, _, index = str(node).rpartition("-")
            queues.setdefault(coord, []).append(index)
        stops = []
        for coord in hexes:
            index = queues[coord].pop(0) if queues.get(coord) else "0"
            many = len(self._tile_at(coord).stop_ids()) > 1
            stops.append(f"{coord}.{index}" if many and index != "0" else coord if not many else f"{coord}.{index}" if index != "0" else coord)
        return TrainRun(train, tuple(stops))

    def _tile_at(self, coord: str) -> Any:
        from pbem.engine.track import placed

        return placed(self.game, coord).tile

    def _buy_train(self, action: dict[str, Any]) -> Action:
        """A train purchase, from the seller holding the named train as the record shows it:
        the corporation our export names (``seller``, a field of ours the platform ignores),
        else the corporation or the pool the record last moved it to (:attr:`RecordHoldings.trains`)
        while that seller has a train of its type (a train that left its corporation with no
        record action, as when the corporation closes, is looked for in the pool); a train the
        record has not moved yet comes from the pool if our engine's train of that id lies
        there, else from the corporation holding our train of that id (one the platform's
        step bought by itself with no record action, as for a company in receivership) when
        the price is not the bank's or the bank has none of the type, else from the depot while it has one of the type, else from the pool. The named
        train is then the buyer's (an exchanged train leaves the game)."""
        train_id = TrainId.parse(str(action["train"]))
        kind = train_id.kind
        state = self.game.state
        traded = TrainId.parse(str(action["exchange"])) if action.get("exchange") else None
        exchange = traded.kind if traded is not None else None
        holder = self.holdings.trains.get(train_id)
        self.holdings.trains[train_id] = str(action["entity"])
        if traded is not None:
            self.holdings.trains.pop(traded, None)

        def has(trains: list[TrainId]) -> bool:
            return any(t.kind == kind for t in trains)

        seller = action.get("seller")  # our export's own note of the seller
        if seller in state.corporations and has(state.corporations[str(seller)].trains):
            return BuyTrain(kind, str(seller), int(action["price"]), exchange)
        if seller == "pool" and has(state.pool_trains):
            return BuyTrain(kind, "pool", None, exchange)
        if holder in state.corporations and has(state.corporations[holder].trains):
            return BuyTrain(kind, holder, int(action["price"]), exchange)
        if holder is not None and has(state.pool_trains):  # the pool's, or left its holder unrecorded
            return BuyTrain(kind, "pool", None, exchange)
        if train_id in state.pool_trains:
            return BuyTrain(kind, "pool", None, exchange)
        if holder is None:
            owner = next((sym for sym, c in state.corporations.items() if train_id in c.trains), None)
            face = next((t.price for t in self.title.trains if t.name == kind), None)
            if owner is not None and owner != str(action["entity"]) \
                    and (int(action["price"]) != face or not has(state.depot)):
                return BuyTrain(kind, owner, int(action["price"]), exchange)
        if not has(state.depot) and has(state.pool_trains):
            return BuyTrain(kind, "pool", None, exchange)
        return BuyTrain(kind, "depot", None, exchange)

    def orders(self) -> Iterator[ImportedOrder | ImportedGameEnd]:
        """Every effective action as an order, applied to our game as it goes; a GM ruling
        (an action that is ``gm_only``) is an order too, by the seat the GM acts as. The
        record's ``end_game`` ends our game and the iteration (:class:`ImportedGameEnd`).

        :raises UnsupportedRecordAction: at the first action we cannot render.
        :raises IllegalOrderError: our engine refuses a recorded action.
        """
        for action in effective_actions(self.record):
            if action["type"] == "end_game":
                self.game.end_game("manually_ended")
                yield ImportedGameEnd(str(action["id"]))
                return
            ours = self.render(action)
            if ours is None:
                continue
            seat = self.seat(action)
            self.game.apply(seat, ours)
            yield ImportedOrder(str(action["id"]), seat, ours)
