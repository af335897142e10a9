"""1825's record actions of 18xx.games as our orders (the importer's extension point,
:mod:`pbem.importers.translation`).

* a company in receivership (its Director's certificate in the bank pool) is operated by a
  player, not a Director: the platform records its actions as the company's, and the order
  is sent by the player acting for it (:func:`pbem.titles.g1825.trains.acting_player`:
  the first player in priority order who directs no company, else the priority deal's);
* ``buy_company`` by a player at face value is a private bought from the bank (``BUY
  <private>``: in the start, or one sold to the bank);
* ``special_buy`` by such a company is its lease of a train from the bank for the turn
  (``LEASE <train>``; g_1825 step/lease_train.rb, fault 8 of the references);
* ``sell_company``, a player selling a private to the bank (g_1825
  step/buy_sell_par_shares_companies.rb, from stock round 2), is ``SELL <private>``; the
  price the record holds must be ours (face value less £30), else the record is refused;
* the platform has no variant of Kevin Lorenz's private companies (``lorenz`` and its
  readings): such a game is not exported;
* the platform lists a start for a player while a company is not yet started, its band
  open or not, so it asks a player our engine passes (:meth:`Translation1825.
  asks_in_stock_round`); the export writes that player's pass;
* two routes of 2-trains meeting at one stop that the platform counts as one 3-train
  (its double headers) are ``RUN 2+2``, and the export writes a ``RUN 2+2`` so.

A company's ``pass`` in the platform's one step for track and a token needs no translation:
ours is one step too (:mod:`pbem.titles.g1825.track_and_token`), ended by a ``PASS`` alike.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, Sequence

from pbem.engine import market, shares, track, trains
from pbem.engine.actions import BuyPrivate, BuyShares, LayTile, Pass, RunRoutes, TrainRun
from pbem.engine.ids import TrainId
from pbem.engine.state import POOL, RoundKind
from pbem.engine.steps.operating import route_available
from pbem.engine.steps.operating.buytrains import crowded
from pbem.engine.events import NoRun, TileLaid, TrainDiscarded, TrainRan
from pbem.importers.translation import NO_ORDER, NoOrder, RecordTranslation
from pbem.titles.g1825.selection import selection_of
from pbem.titles.g1825.stock import (COMPANY_SALE_FEE, SellPrivate, buyable_privates, director_alone_in_pool,
                                     directorship_in_pool)
from pbem.engine import receivership
from pbem.errors import IllegalOrderError
from pbem.titles.g1825.trains import (LEASE_COST, RECEIVER_CREDIT, TRAIN_PRICE_MIN, Lease, acting_player, silent,
                                      tradeable)

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.engine.events import Event
    from pbem.engine.game import Game
    from pbem.exporters.e18xx import Exporter
    from pbem.importers.e18xx import Renderer

CITY_PARTS: dict[str, tuple[int, ...]] = {"119": (1,), "166": (1,), "200": (1,), "G5": (0, 2, 4)}
"""Tile or hex -> the platform's part number of each of its cities (:meth:`Translation1825.city_parts`)."""

TOKEN_AFTER_LAY = "1825 token listed after the lay"
"""The exporter's memo key: whether the platform lists a token after the tile lay being
exported (:func:`_token_listed_after_lay`)."""

IN_RECEIVERSHIP = "1825 in receivership before the order"
"""The exporter's memo key: the companies in receivership before the order being exported
(one may close during it), but a minor in silent receivership (the platform has it do nothing)."""


class Translation1825(RecordTranslation):
    """1825's own record actions (see the module docstring)."""

    platform_lacks = frozenset({"lorenz", "receivership_no_credit", "home_whole_hex",
                                "token_city_chosen_by_owner"})  # lorenz: and every reading of it, each including it
    platform_plays = frozenset({"receiver_buys_after_choice"})

    def asks_in_stock_round(self, game: Game, player: str, stock_round: int, phase: str, cash: int) -> bool:
        """The platform lists a start (``par``) while any company is not yet started and the
        player could pay twice the market's lowest par (its share price for a company with
        none yet) within the certificate limit, whether or not the company's band is open
        (18xx.games: the base step's ``can_ipo_any?`` asks ``can_par?``, which knows no band;
        ``g_1825/game.rb`` ``can_ipo?`` has the band, checked at the par itself); and it lists
        a private the bank holds (one sold to it, not by this player this round) to a player
        with any money at all, its price checked only when bought; and a Director's
        certificate alone in the pool (:func:`_directorship_listed`). So it asks a player whom
        our engine passes for having nothing to do; the export writes the pass."""
        state, title = game.state, game.title
        if shares.certificate_count(state, title, player) >= shares.certificate_limit(state, title):
            return False
        if cash > 0 and buyable_privates(game, player, stock_round):
            return True  # a private of the bank's is listed whatever its price (can_buy_any_companies?)
        if any(_directorship_listed(game, player, sym, stock_round, cash) for sym in state.corporations):
            return True
        if all(corp.ipoed for corp in state.corporations.values()):
            return False
        lowest = min(market.price_at(title, coord) for coord in title.par_cells())
        return cash >= 2 * lowest

    def city_parts(self, tile: str) -> tuple[int, ...] | None:
        """The platform's tiles #119, #166 and #200 draw their stripes first, so their city
        is its part 1; Glasgow's preprinted tile (G5) interleaves its cities with their track,
        parts 0, 2 and 4 (18xx.games ``config/tile.rb`` and ``g_1825/map.rb``)."""
        return CITY_PARTS.get(tile)

    def printed_tile_id(self, exporter: Exporter, coord: str) -> str:
        """Crewe (Q11, Unit 2) is defined as Unit 1's T16 is, so with both units the platform's
        map holds that definition twice and Crewe's tile is ``Q11-1`` (``g_1825/map.rb``
        ``append_game_hexes``); every other hex with track and a city is ``<hex>-0``."""
        units = selection_of(exporter.title.variants).units
        return "Q11-1" if coord == "Q11" and {1, 2} <= units else super().printed_tile_id(exporter, coord)

    def asks_at_turn_end(self, game: Game, corp: str) -> bool:
        """Besides the core's case, the platform's train step waits for a pass from a company
        (not in receivership, with room for a train) that can afford no train of the bank's and
        holds at least £1 but less than a train from another company costs (£10) while another
        company has a train it may sell (not a minor's required one): it counts such a train as buyable for £1 (``Train#min_price``) and
        offers it only from £10 (``g_1825/step/buy_train.rb``), so our engine, which ends the
        turn, is asked for the pass the export writes."""
        if super().asks_at_turn_end(game, corp):
            return True
        state = game.state
        treasury = state.corporations[corp]
        if treasury.closed or receivership.in_receivership(game, corp) or not 1 <= treasury.cash < TRAIN_PRICE_MIN:
            return False
        if len(treasury.trains) >= trains.train_limit(game):
            return False
        if any(trains.train_data(game.title, t).price <= treasury.cash for t in trains.depot_offer(game)):
            return False
        return bool(tradeable(game, corp))

    def export(self, exporter: Exporter, seat: str, action: Action) -> list[dict[str, Any]] | None:
        """A lease as the platform's ``special_buy`` by the company (its ``description`` the
        train's type, ``cost`` the lease's); a private bought from the bank by a player as
        its ``buy_company`` at face value; a private sold to the bank as its
        ``sell_company`` by the player (``price``: face value less the fee); a company in
        receivership declining the lease before its run: a ``run_routes`` with no route (the
        platform's run step, which offers the lease, when the company has a route); the
        Director's certificate bought from the pool for one share's price as a purchase of
        that certificate for one share's percent (the platform then swaps a share back);
        every other order is the core's."""
        exporter.memo[IN_RECEIVERSHIP] = frozenset(c for c in exporter.game.state.corporations
                                                   if receivership.in_receivership(exporter.game, c)
                                                   and not silent(exporter.game, c))
        if isinstance(action, LayTile):
            exporter.memo[TOKEN_AFTER_LAY] = _token_listed_after_lay(exporter.game, seat, action)
        if isinstance(action, Pass):
            if _lease_step(exporter.game) == "lease_before_run":  # its run step, where the lease is offered: no run
                runner = exporter.operator() or ""
                return [{"type": "run_routes", "entity": runner, "entity_type": "corporation", "routes": [],
                         "extra_revenue": 0, "subsidy": 0}] if route_available(exporter.game, runner) else []
        if isinstance(action, BuyShares) and action.source == "pool" \
                and directorship_in_pool(exporter.game, seat, action.corporation):
            ids = exporter.share_ids(action.corporation, POOL, 1)  # the Director's certificate, alone there
            unit = min(exporter.title.corporation(action.corporation).shares[1:])
            return [{"type": "buy_shares", "entity": exporter.player_id(seat), "entity_type": "player",
                     "shares": [str(i) for i in ids], "percent": unit}]
        if isinstance(action, Lease):
            corp = exporter.operator()
            return [{"type": "special_buy", "entity": corp, "entity_type": "corporation",
                     "description": action.train, "cost": LEASE_COST}]
        if isinstance(action, BuyPrivate) and action.price is None:
            return [{"type": "buy_company", "entity": exporter.player_id(seat), "entity_type": "player",
                     "company": action.company, "price": exporter.title.company(action.company).value}]
        if isinstance(action, SellPrivate):
            price = exporter.title.company(action.company).value - COMPANY_SALE_FEE
            return [{"type": "sell_company", "entity": exporter.player_id(seat), "entity_type": "player",
                     "company": action.company, "price": price}]
        return None

    def after_order(self, exporter: Exporter, events: Sequence[Event]) -> list[dict[str, Any]]:
        """What the platform's steps wait for after our engine moved a company in
        receivership on by itself: after a tile lay that ended our track step, the pass of
        its track-and-token step while that lists a token (:func:`_token_listed_after_lay`,
        found before the order, as our engine may end the turn and even close the company);
        with no train and a route, once our engine passed over its run (it has no step there
        when no lease is offered), a ``run_routes`` with no route (18xx.games
        ``g_1825/step/route.rb``); the receiver's discards over the train limit, which the
        platform's discard step waits for (:func:`_receivers_discards`)."""
        out: list[dict[str, Any]] = []
        written = exporter.actions[-1] if exporter.actions else {}
        laid = next((e.corporation for e in events if isinstance(e, TileLaid)), None)
        if laid is not None and exporter.memo.pop(TOKEN_AFTER_LAY, False):
            out.append({"type": "pass", "entity": laid, "entity_type": "corporation"})
        for event in events:
            if not isinstance(event, NoRun):
                continue
            corp = event.corporation
            treasury = exporter.game.state.corporations.get(corp)
            if treasury is None or corp not in exporter.memo.get(IN_RECEIVERSHIP, frozenset()):
                continue  # (one that closed as this turn ended ran first, as the platform's does)
            if written.get("type") == "run_routes" and written.get("entity") == corp:
                continue  # the order itself was that run (a lease declined)
            if not any(isinstance(e, TrainRan) and e.corporation == corp for e in events) and event.route:
                out.append({"type": "run_routes", "entity": corp, "entity_type": "corporation", "routes": [],
                            "extra_revenue": 0, "subsidy": 0})
        out += _receivers_discards(exporter, events)
        return out

    def render(self, renderer: Renderer, action: dict[str, Any]) -> Action | NoOrder | None:
        if action["type"] == "special_buy" and action.get("entity_type") == "corporation":
            return Lease(str(action["description"]))
        if action["type"] == "sell_company" and action.get("entity_type", "player") == "player":
            return self._sell_private(renderer, action)
        if action["type"] == "buy_company" and action.get("entity_type") == "player":
            company = str(action["company"])
            if int(action["price"]) == renderer.title.company(company).value:
                return BuyPrivate(company)  # a player buys a private from the bank at face value
        if action["type"] == "pass" and action.get("entity_type") == "corporation" \
                and renderer.game.operating_corporation() == action.get("entity") \
                and _first_step(renderer.game) in ("lease_before_run", "route"):
            return NO_ORDER  # the platform's track-and-token step, over in our engine
        if action["type"] == "discard_train" and action.get("entity") not in crowded(renderer.game):
            renderer.holdings.trains[TrainId.parse(str(action["train"]))] = "pool"
            return NO_ORDER  # the receiver's discard, made by our engine
        if action["type"] == "run_routes":
            if not action.get("routes") and _lease_step(renderer.game) == "lease_before_run":
                return Pass()  # a company in receivership declines the lease and runs nothing
            if not action.get("routes") and (renderer.game.operating_corporation() != action.get("entity")
                                             or _turn_untouched(renderer.game)):
                return NO_ORDER  # an empty run by a company whose turn our engine has ended (it
                # may have begun its next one: the only company of an operating round)
            return self._double_headed(renderer, action)
        return None

    def _double_headed(self, renderer: Renderer, action: dict[str, Any]) -> Action | None:
        """A run in which two 2-trains run as one, as the platform records it: two routes of
        two stops each meeting at one stop (g_1825 game.rb, double headers: the stop they
        share is no city filled by others, neither route only towns, one of them through a
        city with the company's token and, unless they meet at a town, only one), read as
        ``RUN 2+2: <stop>-<shared stop>-<stop>``. None when the record has no such pair (the
        core reads the run)."""
        runs = [renderer.route_run(route) for route in action["routes"]]
        corp = str(action["entity"])
        merged: list[TrainRun] = []
        used: set[int] = set()
        for i, first in enumerate(runs):
            if i in used:
                continue
            partner = next((j for j in range(i + 1, len(runs)) if j not in used
                            and _double_header(renderer.game, corp, first, runs[j])), None)
            if partner is None:
                merged.append(first)
                continue
            used.add(partner)
            second = runs[partner]
            shared = next(s for s in first.stops if s in second.stops)
            ends = [s for s in first.stops if s != shared] + [shared] + [s for s in second.stops if s != shared]
            named = f"{first.train}+{second.train}"
            if any(train.name == named for train in renderer.title.trains):  # as the order names them
                merged.append(TrainRun(named, tuple(ends), ()))
            else:
                merged.append(TrainRun(first.train, tuple(ends), (second.train,)))
        if not used:
            return None
        return RunRoutes(tuple(merged))

    def seat(self, renderer: Renderer, action: dict[str, Any]) -> str | None:
        """For a company with no Director (in receivership), the player acting for it; else
        the core's answer (its Director)."""
        if action.get("entity_type") != "corporation":
            return None
        sym = str(action["entity"])
        corp = renderer.game.state.corporations.get(sym)
        if corp is None or corp.president is not None:
            return None
        return acting_player(renderer.game, sym)

    def _sell_private(self, renderer: Renderer, action: dict[str, Any]) -> SellPrivate:
        """``SELL <private>`` for a player's sale of a private to the bank.

        :raises UnsupportedRecordAction: the private is not one of the game's, or the record's
            price is not its face value less :data:`COMPANY_SALE_FEE`.
        """
        from pbem.importers.e18xx import UnsupportedRecordAction

        sym = str(action["company"])
        if sym not in renderer.game.state.companies:
            raise UnsupportedRecordAction(f"action {action['id']}: no private {sym!r} in this game")
        ours = max(0, renderer.title.company(sym).value - COMPANY_SALE_FEE)
        if int(action.get("price", ours)) != ours:
            raise UnsupportedRecordAction(f"action {action['id']}: {sym} sold to the bank for "
                                          f"{action['price']}; the rules pay {ours}")
        return SellPrivate(sym)


def _directorship_listed(game: Game, player: str, sym: str, stock_round: int, cash: int) -> bool:
    """Whether the platform lists to ``player`` (holding ``cash``) a purchase of ``sym``'s
    Director's certificate, alone in the pool: its listing prices it whole and asks no share
    to give back (``can_buy_shares?``), though the purchase needs one (``can_buy?``'s
    ``can_buy_presidents_share?``, ours :func:`directorship_in_pool`); not after the player
    sold ``sym`` in that round, which must still be on."""
    state, title = game.state, game.title
    director = director_alone_in_pool(game, sym)
    if director is None:
        return False
    sr = state.round.stock if state.round.kind == RoundKind.STOCK and state.round.number == stock_round else None
    if sr is None or sym in sr.sold.get(player, []):
        return False  # (a round over: who sold what in it is gone; the platform then lists nothing we know of)
    price = shares.certificate_price(title, sym, director.percent, shares.current_price(state, title, sym))
    return cash >= price


def _turn_untouched(game: Game) -> bool:
    """Whether the operating company's turn has only begun: at its lease or track step,
    nothing laid or placed."""
    op = game.state.round.operating
    return (op is not None and _first_step(game) in ("lease_train", "track")
            and op.tiles_laid == 0 and not op.token_placed)


def _first_step(game: Game) -> str | None:
    """The name of the first step of the operating turn now, or None outside one."""
    op = game.state.round.operating
    if game.state.round.kind != RoundKind.OPERATING or op is None or op.index >= len(op.order) or game.state.finished:
        return None
    from pbem.engine.steps.operating.walk import active_steps

    steps = active_steps(game)
    return steps[0].name if steps else None


def _receivers_discards(exporter: Exporter, events: Sequence[Event]) -> list[dict[str, Any]]:
    """A ``discard_train`` for each train our engine's receiver discarded to the pool (the
    train of that type last put there) for a company in receivership (a minor in silent
    receivership too: the platform's discard step waits for every company over the limit)."""
    receivers = exporter.memo.get(IN_RECEIVERSHIP, frozenset())
    state = exporter.game.state
    receivers |= {c for c, treasury in state.corporations.items() if treasury.president is None}  # silent ones too
    pool = list(state.pool_trains)
    out: list[dict[str, Any]] = []
    for event in reversed(events):
        if isinstance(event, TrainDiscarded) and event.corporation in receivers:
            train = next(t for t in reversed(pool) if t.kind == event.train)
            pool.remove(train)
            out.insert(0, {"type": "discard_train", "entity": event.corporation, "entity_type": "corporation",
                           "train": str(train)})
    return out


def _token_listed_after_lay(game: Game, seat: str, lay: LayTile) -> bool:
    """Whether 18xx.games still lists a station token for the company in receivership now
    operating once ``lay`` by ``seat`` is made (:func:`_token_listed_after_track` on a copy
    of ``game`` where the lay alone is made: our engine would go on to the rest of the turn)."""
    corp = game.operating_corporation()
    if corp is None or game.state.corporations[corp].president is not None:
        return False
    twin = copy.deepcopy(game)
    try:
        twin.round.process(twin, seat, lay)
    except IllegalOrderError:
        return False
    return _token_listed_after_track(twin, corp)


def _token_listed_after_track(game: Game, corp: str) -> bool:
    """Whether 18xx.games' track-and-token step still lists a station token for ``corp`` (in
    receivership, operating) after our track step ended with a tile lay: no token placed
    this turn, one left whose cost its treasury and the £200 credit cover (its
    ``buying_power``: the treasury, never below nothing as the platform keeps the turn's loan
    apart, and £200 more), and a city its track reaches with room for it. Our engine offers the
    token only on a credit a run could repay (:mod:`pbem.titles.g1825.credit`)."""
    from pbem.engine.steps.operating.tokens import next_token_cost

    state = game.state
    treasury = state.corporations[corp]
    if treasury.president is not None or game.operating_corporation() != corp \
            or _first_step(game) == "track" or state.round.operating is None or state.round.operating.token_placed:
        return False
    cost = next_token_cost(game, corp)
    if cost is None or cost > max(treasury.cash, 0) + RECEIVER_CREDIT:  # its loan kept apart, not counted
        return False
    net = track.network(game, corp)
    return any(v.is_city and track.token_problem(game, corp, v.coord, v.number, net) is None for v in net.stops)


def _lease_step(game: Game) -> str | None:
    """The name of the lease step now first in the operating turn (``lease_train`` at its
    start, ``lease_before_run`` after the track and token), or None."""
    step = _first_step(game)
    return step if step in ("lease_train", "lease_before_run") else None


def _double_header(game: Game, corp: str, first: TrainRun, second: TrainRun) -> bool:
    """Whether the platform reads routes ``first`` and ``second`` of ``corp`` as two 2-trains
    run as one (g_1825 game.rb, double headers; see :meth:`Translation1825._double_headed`)."""
    for run in (first, second):
        if len(run.stops) != 2 or trains.type_data(game.title, run.train).distance != 2:
            return False
    shared = [s for s in first.stops if s in second.stops]
    if len(shared) != 1:
        return False
    vertices = {spec: track.stop_candidates(game, spec) for spec in (*first.stops, *second.stops)}
    if not all(vertices.values()):
        return False
    common = vertices[shared[0]][0]
    if common.stop.startswith("c") and track.blocks(game, common, corp):
        return False
    if any(all(vertices[s][0].stop.startswith("t") for s in run.stops) for run in (first, second)):
        return False
    tokened = [any(track.stop_is_token(game, corp, vertices[s][0]) for s in run.stops) for run in (first, second)]
    if not any(tokened):
        return False
    return common.stop.startswith("t") or not all(tokened)


TRANSLATION: type[RecordTranslation] = Translation1825
"""1825's translation of record actions."""
