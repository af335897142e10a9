"""The record actions a core order becomes on 18xx.games (the exporter's
:func:`core_actions`; a title's translation writes its own first): a bid, a par, shares,
a tile, a token, a run, a dividend, a train and the rest, with the platform's ids."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any, Sequence

from pbem.engine.abilities import ExchangeForShare, Shares, Teleport
from pbem.engine import market, track
from pbem.engine.events import Event, TokenPlaced
from pbem.engine.actions import (
    Action,
    Assign,
    Bankrupt,
    Bid,
    BuyPrivate,
    BuyShares,
    BuyTrain,
    DiscardTrain,
    Dividend,
    Exchange,
    LayTile,
    Par,
    Pass,
    PlaceToken,
    RunRoutes,
    SellShares,
)
from pbem.engine.state import IPO, Owner, POOL, RoundKind
from pbem.engine.steps.auction import min_price
from pbem.exporters.records import UnsupportedExport
from pbem.orders import format_order

if TYPE_CHECKING:
    from pbem.exporters.e18xx import Exporter


def core_actions(exporter: Exporter, seat: str, action: Action) -> list[dict[str, Any]]:
    """The record actions of a core order ``action`` by ``seat`` (before it is applied).

    :raises UnsupportedExport: an order the platform has no action for.
    """
    game = exporter.game
    player = {"entity": exporter.player_id(seat), "entity_type": "player"}
    if isinstance(action, Pass):
        teleported = teleporting(exporter)
        if teleported is not None:  # the platform asks the private for its token
            return [{"type": "pass", "entity": teleported, "entity_type": "company"}]
        return [{"type": "pass", **exporter.acting(seat)}]
    if isinstance(action, Bid):
        return [{"type": "bid", **player, "company": action.company, "price": action.price}]
    if isinstance(action, BuyPrivate):
        if action.price is None:  # the cheapest private in the auction, at its price
            return [{"type": "bid", **player, "company": action.company,
                     "price": min_price(game, action.company)}]
        if game.state.round.kind == RoundKind.STOCK and game.title.company(action.company).ability(Shares):
            # 18xx.games (base after_buy_company) hands a player buying a private its share
            # again, from whoever holds it now; the share came with the first purchase only
            raise UnsupportedExport(f"{format_order(action)}: the platform would give {action.company}'s "
                                    "share to its buyer again")
        return [{"type": "buy_company", **exporter.acting(seat), "company": action.company, "price": action.price}]
    if isinstance(action, Par):
        coord = market.par_coord(exporter.title, action.price) or _price_cell(exporter, action.price)
        if coord is None:
            raise UnsupportedExport(f"no par cell at {action.price}")
        return [{"type": "par", **player, "corporation": action.corporation,
                 "share_price": f"{action.price},{coord[0]},{coord[1]}"}]
    if isinstance(action, BuyShares):
        holder = IPO if action.source == "ipo" else POOL
        ids = exporter.share_ids(action.corporation, holder, action.count, offered=action.source == "ipo")
        return [{"type": "buy_shares", **player, "shares": [str(i) for i in ids], "percent": exporter.percent(ids)}]
    if isinstance(action, SellShares):
        ids = exporter.share_ids(action.corporation, Owner.player(seat), action.count, units=True)
        unit = min(exporter.title.corporation(action.corporation).shares[1:])
        return [{"type": "sell_shares", **player, "shares": [str(i) for i in ids], "percent": action.count * unit}]
    if isinstance(action, Exchange):
        sym = _exchange_corporation(exporter, action.company)
        holder = IPO if action.source == "ipo" else POOL
        ids = exporter.share_ids(sym, holder, 1, offered=action.source == "ipo")
        return [{"type": "buy_shares", "entity": action.company, "entity_type": "company",
                 "shares": [str(i) for i in ids], "percent": exporter.percent(ids)}]
    if isinstance(action, LayTile):
        return [{"type": "lay_tile", **exporter.by_company(seat, action.using), "hex": action.hex,
                 "tile": exporter.tile_id(action.hex, action.tile), "rotation": action.rotation}]
    if isinstance(action, PlaceToken):
        corp = exporter.operator(action) or ""
        entity = exporter.acting(seat, action) if action.using is None else exporter.by_company(seat, action.using)
        return [{"type": "place_token", **entity,
                 "city": f"{exporter.tile_id(action.hex)}-{_city_part(exporter, action.hex, action.city)}",
                 "slot": exporter.token_slot(action.hex, action.city, corp), "tokener": corp}]
    if isinstance(action, RunRoutes):
        return [{"type": "run_routes", **exporter.acting(seat, action), "routes": _routes(exporter, action),
                 "extra_revenue": 0, "subsidy": 0}]
    if isinstance(action, Dividend):
        return [{"type": "dividend", **exporter.acting(seat, action), "kind": action.choice}]
    if isinstance(action, BuyTrain):
        return [_buy_train(exporter, seat, action)]
    if isinstance(action, DiscardTrain):
        return [_discard(exporter, seat, action)]
    if isinstance(action, Bankrupt):
        return [{"type": "bankrupt", **exporter.acting(seat)}]
    if isinstance(action, Assign):
        return [{"type": "assign", "entity": action.company, "entity_type": "company",
                 "target": action.hex, "target_type": "hex"}]
    raise UnsupportedExport(f"{format_order(action)}: 18xx.games has no such action")

def teleporting(exporter: Exporter) -> str | None:
    """The private whose tile was just laid with its token to follow (1830's D&H), while
    that token waits, else None."""
    state = exporter.game.state
    corp = exporter.operator()
    if not state.pending_teleport or corp is None:
        return None
    for sym, company in state.companies.items():
        ability = exporter.title.company(sym).ability(Teleport)
        if ability is not None and company.owner == Owner.corporation(corp) \
                and state.pending_teleport in ability.hexes:
            return sym
    return None

def _price_cell(exporter: Exporter, price: int) -> tuple[int, int] | None:
    """The first market cell showing ``price`` (a par that is no par cell: 1825's minors)."""
    for row, cells in enumerate(exporter.title.market):
        for col in range(len(cells)):
            if market.cell(exporter.title, (row, col)) is not None and market.price_at(exporter.title, (row, col)) == price:
                return (row, col)
    return None

def _exchange_corporation(exporter: Exporter, company: str) -> str:
    ability = exporter.title.company(company).ability(ExchangeForShare)
    if ability is not None and ability.corporation:
        return ability.corporation
    raise UnsupportedExport(f"{company} is exchanged for no corporation's share")

def _routes(exporter: Exporter, action: RunRoutes) -> list[dict[str, Any]]:
    corp = exporter.operator(action)
    if corp is None:
        raise UnsupportedExport("a run outside an operating turn")
    owned = exporter.train_ids(corp)
    out: list[dict[str, Any]] = []
    for run in action.runs:
        if not run.joined and "+" in run.train and not any(t.kind == run.train for t in owned):
            # a train type named like trains run as one (1825's 2+2): without such a train the
            # name is the trains it joins, as the engine reads it (pbem.engine.steps.operating.runs)
            first, *rest = run.train.split("+")
            run = dataclasses.replace(run, train=first, joined=tuple(rest))
        if run.joined and (len(run.joined) != 1 or len(run.stops) != 3):
            raise UnsupportedExport(f"trains run as one ({run.train}+{'+'.join(run.joined)}) over "
                                    f"{len(run.stops)} stops: 18xx.games runs two 2-trains as one over three")
        # two trains run as one are two routes on the platform, meeting at the middle stop
        parts = [(run.train, run.stops[:2]), (run.joined[0], run.stops[1:])] if run.joined else [(run.train, run.stops)]
        for kind, stops in parts:
            train = next((t for t in owned if t.kind == kind), None)
            if train is None:
                raise UnsupportedExport(f"{corp} has no {kind} train")
            owned.remove(train)
            hexes = [stop.split(".")[0] for stop in stops]
            nodes = [f"{h}-{stop.split('.')[1] if '.' in stop else 0}" for h, stop in zip(hexes, stops)]
            out.append({"train": str(train), "connections": [[a, b] for a, b in zip(hexes, hexes[1:])],
                        "hexes": hexes, "revenue": 0, "revenue_str": "-".join(hexes), "nodes": nodes})
    return out

def _buy_train(exporter: Exporter, seat: str, action: BuyTrain) -> dict[str, Any]:
    corp = exporter.operator(action)
    if corp is None:
        raise UnsupportedExport("a train bought outside an operating turn")
    kind = action.train
    source = action.source
    candidates = exporter.train_ids(source)
    train = next((t for t in candidates if t.kind == kind), None)
    if train is None:
        raise UnsupportedExport(f"{source} has no {kind} train")
    out: dict[str, Any] = {"type": "buy_train", **exporter.acting(seat, action), "train": str(train),
                           "price": action.price or 0, "variant": kind}
    if source in exporter.game.state.corporations or source == "pool":
        out["seller"] = source  # ours: the platform names no seller (it reads the train's owner)
    if action.exchange is not None:
        traded = next((t for t in exporter.train_ids(corp) if t.kind == action.exchange), None)
        if traded is None:
            raise UnsupportedExport(f"{corp} has no {action.exchange} train to trade in")
        out["exchange"] = str(traded)
    return out

def _discard(exporter: Exporter, seat: str, action: DiscardTrain) -> dict[str, Any]:
    """The discard of the corporation over the limit that is to discard now (the first
    in operating order, as the step asks), else of one of ``seat``'s."""
    from pbem.engine.steps.operating.buytrains import crowded

    state = exporter.game.state
    over = crowded(exporter.game) if state.round.kind == RoundKind.OPERATING and state.round.operating else []
    for sym in over[:1]:
        match = next((t for t in state.corporations[sym].trains if t.kind == action.train), None)
        if match is not None:
            return {"type": "discard_train", "entity": sym, "entity_type": "corporation", "train": str(match)}
    for sym, corp in state.corporations.items():
        if corp.president == seat or sym == exporter.operator():
            match = next((t for t in corp.trains if t.kind == action.train), None)
            if match is not None:
                return {"type": "discard_train", "entity": sym, "entity_type": "corporation", "train": str(match)}
    raise UnsupportedExport(f"no corporation of {seat} has a {action.train} train to discard")


def _city_part(exporter: Exporter, coord: str, city: int) -> int:
    """The platform's number of our city ``city`` of the tile on ``coord`` in its city ids
    (the translation's ``city_parts``)."""
    name = exporter.tile_id(coord).rsplit("-", 1)[0]
    parts = exporter.renderer.translation.city_parts(name)
    return parts[city] if parts is not None and city < len(parts) else city


def home_city_chosen(exporter: Exporter, order: Action, events: Sequence[Event]) -> list[dict[str, Any]]:
    """The platform's choice of city for each home token our engine placed by itself on a
    home hex that names no city (:func:`pbem.engine.track.hex_home`) and whose tile has track:
    there the platform always has the company choose (its home-token step), where ours
    places the token in the one city with room (after the slots followed the token)."""
    out: list[dict[str, Any]] = []
    for event in events:
        if not (isinstance(event, TokenPlaced) and event.home and not isinstance(order, PlaceToken)
                and track.hex_home(exporter.game, event.corporation) == event.hex
                and track.placed(exporter.game, event.hex).tile.paths):
            continue
        corp, coord = event.corporation, event.hex
        city = next(i for i in range(len(track.placed(exporter.game, coord).tile.cities))
                    if corp in track.tokens_in(exporter.game, coord, i))
        taken = exporter.slots.taken.get(track.city_key(coord, city), [])
        out.append({"type": "place_token", "entity": corp, "entity_type": "corporation",
                    "city": f"{exporter.tile_id(coord)}-{_city_part(exporter, coord, city)}",
                    "slot": taken.index(corp) if corp in taken else 0, "tokener": corp})
    return out
