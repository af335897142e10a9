"""Records of 18xx.games: each recorded action rendered as the order line its player would
email, so the order language and the engine are tested on real games.

The record is data only (a JSON object, see the fixtures' README). Undo, redo and skipped
actions are resolved first (:func:`effective_actions`); engine-generated ``auto_actions``
follow the action that carries them; programmed-action settings (``program_*``) change
nothing in the game and are dropped. The renderer runs our own engine alongside, because the
order line sometimes depends on the position (buying the cheapest private is ``BUY SV``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from pbem.engine.actions import Action, Bid, BuyPrivate, BuyShares, Par, Pass, SellShares
from pbem.engine.game import Game
from pbem.engine.steps.auction import min_price, may_purchase
from pbem.engine.title import TitleData, load_title
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


def load_record(path: Path) -> dict[str, Any]:
    """Read a record file (JSON)."""
    with path.open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


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
    """The actions in force after undo/redo, each followed by its auto-actions.

    ``undo`` takes back the last action in force (or, with ``action_id``, everything after
    that action); ``redo`` restores the last one taken back; actions marked ``skip`` were
    undone later and are left out with their undo.
    """
    active: list[dict[str, Any]] = []
    undone: list[dict[str, Any]] = []
    for action in record["actions"]:
        if action.get("skip"):
            continue
        kind = action["type"]
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                if active:
                    undone.append(active.pop())
            else:
                while active and active[-1]["id"] > target:
                    undone.append(active.pop())
        elif kind == "redo":
            if undone:
                active.append(undone.pop())
        elif kind == "message":
            continue
        else:
            active.append(action)
            undone.clear()
    out: list[dict[str, Any]] = []
    for action in active:
        out.append(action)
        for i, auto in enumerate(action.get("auto_actions") or [], start=1):
            out.append({**auto, "id": f"{action['id']}.{i}"})
    return out


class Renderer:
    """Renders record actions as our actions, keeping our own game in step."""

    def __init__(self, record: dict[str, Any], title: TitleData | None = None) -> None:
        self.record = record
        self.title = title or load_title(str(record["title"]))
        self.names = player_names(record)
        self.game = Game(self.title, list(self.names.values()))
        self._ipo_ids = {
            f"{c.sym}_{i}" for c in self.title.corporations for i in range(len(c.shares))
        }
        for company in self.title.companies:
            for ability in company.abilities:
                if ability.kind == "shares":
                    self._ipo_ids.discard(str(ability.data["share"]))

    def seat(self, action: dict[str, Any]) -> str:
        """The seat acting: a player, or a corporation's president."""
        entity = action["entity"]
        if action.get("entity_type", "player") == "player":
            return self.names[entity]
        corp = self.game.state.corporations.get(str(entity))
        if corp is None or corp.president is None:
            raise UnsupportedRecordAction(f"action {action['id']}: no president for {entity!r}")
        return corp.president

    def render(self, action: dict[str, Any]) -> Action | None:
        """Our action for one record action (None for settings that change nothing).

        :raises UnsupportedRecordAction: an action type this version cannot render.
        """
        kind = action["type"]
        if kind.startswith("program_"):
            return None
        if kind == "pass":
            return Pass()
        if kind == "bid":
            company = action["company"]
            price = int(action["price"])
            if self.game.state.round.auction is not None and may_purchase(self.game, company) \
                    and price == min_price(self.game, company):
                return BuyPrivate(company)
            return Bid(company, price)
        if kind == "par":
            price = int(str(action["share_price"]).split(",")[0])
            return Par(action["corporation"], price)
        if kind == "buy_shares":
            ids = list(action["shares"])
            sym = ids[0].rsplit("_", 1)[0]
            source = "ipo" if ids[0] in self._ipo_ids else "pool"
            for share_id in ids:
                self._ipo_ids.discard(share_id)
            return BuyShares(sym, source, len(ids))  # type: ignore[arg-type]
        if kind == "sell_shares":
            ids = list(action["shares"])
            sym = ids[0].rsplit("_", 1)[0]
            corp = self.title.corporation(sym)
            share_pct = min(corp.shares[1:])
            return SellShares(sym, int(action["percent"]) // share_pct)
        raise UnsupportedRecordAction(f"action {action['id']}: {kind} is not supported yet")

    def orders(self) -> Iterator[ImportedOrder]:
        """Every effective action as an order, applied to our game as it goes.

        :raises UnsupportedRecordAction: at the first action we cannot render.
        :raises IllegalOrderError: our engine refuses a recorded action.
        """
        for action in effective_actions(self.record):
            ours = self.render(action)
            if ours is None:
                continue
            seat = self.seat(action)
            self.game.apply(seat, ours)
            yield ImportedOrder(str(action["id"]), seat, ours)
