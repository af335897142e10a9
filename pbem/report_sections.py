"""Sections of the postal turn report as plain data: the stock market, the trains and phases,
the corporations' trains and tokens, and what the player to act may do.

Pure functions of the engine's game; the templates lay them out.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, cast

from pbem.engine.state import Owner, RoundKind
from pbem.engine import deals, lays, market, routes, shares, trains
from pbem.engine.actions import (
    Action, Assign, Bankrupt, Bid, BuyPrivate, BuyShares, BuyTrain, DiscardTrain, Dividend, Exchange,
    LayTile, Par, Pass, PlaceToken, RunAuto, RunRoutes, SellShares,
)
from pbem.engine.game import Game
from pbem.engine.offers import LegalOffer, legal_offers
from pbem.engine.steps import operating, stock
from pbem.orders import Vocabulary, format_order


def stock_market(game: Game) -> dict[str, Any]:
    """The market grid, row by row: each cell ``"100p"`` (price and zone letters; ``*``
    marks a cell with corporations in it), and the markers in operating order."""
    title, state = game.title, game.state
    rows = []
    for r, row in enumerate(title.market):
        cells = []
        for c, cell in enumerate(row):
            if cell is None:
                cells.append("")
                continue
            text = f"{cell.price}{'p' if cell.par else ''}{cell.zone}"
            if state.market.get((r, c)):
                text = "*" + text
            cells.append(text)
        rows.append(cells)
    markers = []
    for coord, corps in sorted(state.market.items(), key=lambda kv: (-market.price_at(title, kv[0]), -kv[0][1], kv[0][0])):
        if corps:
            markers.append(f"{'/'.join(corps)} {game.money(market.price_at(title, coord))} "
                           f"(row {coord[0] + 1}, column {coord[1] + 1})")
    zones = []
    legend = title.market_legend or {
        "p": "par value", "y": "shares do not count against the certificate limit",
        "o": "as y, and a player may hold more than 60%", "b": "as o, and several shares may be bought a turn"}
    shown = {letter for row in title.market for cell in row if cell is not None
             for letter in cell.zone + ("p" if cell.par else "")}
    for letter, meaning in legend.items():
        if letter in shown:
            zones.append(f"{letter} = {meaning}")
    return {"rows": rows, "markers": markers, "zones": zones}


def market_lines(game: Game, width: int = 132) -> list[str]:
    """The market grid as text lines no wider than ``width``: split into parts by columns
    when it does not fit (each part headed by its column numbers)."""
    data = stock_market(game)
    columns = max(len(row) for row in data["rows"])
    per_part = max(1, (width - 4) // 6)
    lines: list[str] = []
    for first in range(0, columns, per_part):
        last = min(columns, first + per_part)
        if lines:
            lines.append("")
        lines.append("    " + "".join(f"{c + 1:>6}" for c in range(first, last)))
        for r, row in enumerate(data["rows"]):
            cells = [row[c] if c < len(row) else "" for c in range(first, last)]
            if any(cells):  # a row with no cells in this part is left out
                lines.append((f"{r + 1:>3} " + "".join(f"{cell:>6}" for cell in cells)).rstrip())
    return lines


def trains_and_phase(game: Game) -> dict[str, Any]:
    """The phase, what the bank sells now, what is left in the depot, and what the next
    new train type changes."""
    title, state = game.title, game.state
    phase = game.phase()
    offer = []
    for train_id in trains.depot_offer(game):
        data = trains.train_data(title, train_id)
        where = " (pool)" if train_id in state.pool_trains else ""
        offer.append(f"{data.name} {game.money(data.price)}{where}")
    left: dict[str, int] = {}
    for train_id in state.depot:
        left[train_id.kind] = left.get(train_id.kind, 0) + 1
    depot = []
    for data in title.trains:
        if data.name in left:
            depot.append(f"{data.name} unlimited" if data.count is None else f"{data.name} x{left[data.name]}")
    next_change = ""
    for nxt in (t for t in title.trains if t.name not in state.types_sold):
        effects = []
        for p in title.phases:
            if p.on == nxt.name and p.name != state.phase:
                effects.append(f"phase {p.name}: train limit {p.train_limit}, tiles {', '.join(p.tiles)}, "
                               f"{p.operating_rounds} operating round{'s' if p.operating_rounds > 1 else ''} a set")
        rusted = [t.name for t in title.trains if t.rusts_on == nxt.name]
        if rusted:
            effects.append(f"{', '.join(rusted)}-trains rust")
        if "close_companies" in nxt.events:
            effects.append("private companies close")
        if effects:  # a train type that changes nothing is not the next change
            next_change = f"the first {nxt.name}-train: " + "; ".join(effects)
            break
    return {
        "phase": phase.name,
        "limit": phase.train_limit,
        "tiles": ", ".join(phase.tiles),
        "rounds": phase.operating_rounds,
        "offer": ", ".join(offer) or "none",
        "depot": ", ".join(depot) or "empty",
        "next": next_change or "no more new trains",
    }


def open_bids(game: Game) -> dict[str, list[tuple[str, int]]]:
    """The standing bids of the auction: private -> ``[(player, amount)]`` in the order
    placed (empty outside the auction). A bid commits its money (1830 rules 4.2)."""
    rnd = game.state.round
    if rnd.auction is None:
        return {}
    return {company: list(offers) for company, offers in rnd.auction.bids.items() if offers}


def holdings_line(game: Game, player: str) -> str:
    """A player's own position in one line (issue 22: the first screen): cash, each share
    holding with its price, privates, certificates against the limit and standing bids."""
    state, money = game.state, game.money
    held = []
    for sym, corp in state.corporations.items():
        percent = state.percent_of(Owner.player(player), sym)
        if percent:
            price = shares.current_price(state, game.title, sym) if corp.price is not None else None
            held.append(f"{sym} {percent}%" + (f" at {money(price)}" if price is not None else ""))
    privates = [c for c in state.players[player].companies if not state.companies[c].closed]
    bids = [f"{company} {money(amount)}" for company, offers in open_bids(game).items()
            for bidder, amount in offers if bidder == player]
    parts = [f"cash {money(state.players[player].cash)}", ", ".join(held) or "no shares"]
    parts += [f"privates {', '.join(privates)}"] if privates else []
    parts += [f"{shares.certificate_count(state, game.title, player)}/"
              f"{shares.certificate_limit(state, game.title)} certificates"]
    parts += [f"your bids {', '.join(bids)}"] if bids else []
    return "Yours: " + "; ".join(parts) + "."


def corporation_extras(game: Game, sym: str) -> dict[str, str]:
    """A corporation's trains, station tokens placed/total (the charter's tokens, as the
    title's ``station_tokens`` hook counts them: 1870's destination token on the map is not one),
    and last revenue."""
    corp = game.state.corporations[sym]
    costs, placed = game.hooks.track.station_tokens(game, sym)
    last = "-"
    if corp.last_revenue is not None:
        last = "did not run" if corp.last_choice == "did not run" else f"{game.money(corp.last_revenue)} {corp.last_choice}"
    return {
        "trains": " ".join(t.kind for t in corp.trains) or "-",
        "tokens": f"{placed}/{len(costs)}",
        "last": last,
    }


@dataclass(frozen=True)
class Choice:
    """Orders of one kind a player may send now: ``orders`` are order lines, each to be
    sent as written (known values filled in: ``PAR B&O 100``, ``TOKEN H10``); ``note`` says
    what they cost or what else may be written."""

    orders: tuple[str, ...]
    note: str = ""
    also: tuple[str, ...] = ()
    """Further order lines of the same kind, which the note sums up (a private's tile lays:
    ``B20: 3 r0 r1; 58 r2``) rather than lists."""


@dataclass(frozen=True)
class Offer:
    """What the player to act may do now: ``player``, ``task`` (one line: what is asked,
    for which corporation), ``choices`` (every line offered is accepted as written: it reads
    back as an action the engine lists as legal, or it was applied to a copy of the game), and for a corporation about to lay track its legal lays
    (``lays``: hex -> the tiles and rotations, ``"57 r0 r3; 7 r1"``, with ``lay_costs``:
    hex -> its terrain cost as money, ``"$80"``) of corporation ``lay_corp``."""

    player: str
    task: str
    choices: tuple[Choice, ...] = ()
    lays: dict[str, str] = field(default_factory=dict)
    lay_costs: dict[str, str] = field(default_factory=dict)
    lay_corp: str = ""


def offer(game: Game, player: str, route_budget: int = routes.DEFAULT_SEARCH_BUDGET,
          position: object = None) -> Offer | None:
    """What ``player`` may do now (None if it is not their turn). Candidate orders come from
    the engine (its legal actions, the legal tile lays, the best run, the trains for sale);
    each is written as an order line in the title's vocabulary and offered only if it reads
    back as the same action and, unless the engine listed it as legal, applies to a copy of
    the game -- so every line offered is accepted as written (issue: "every line the report
    offers is accepted as written"). With ``position`` (the log position), the result is kept
    on the game for the other reports of that position."""
    if player not in game.current_actors():
        return None
    key = ("offer", player, route_budget)
    cached = game.cache.get(key)
    if position is not None and cached is not None and cached[0] == position:
        return cached[1]  # type: ignore[return-value]
    found = _offer(game, player, route_budget)
    if position is not None:
        game.cache[key] = (position, found)
    return found


def options(game: Game, player: str, route_budget: int = routes.DEFAULT_SEARCH_BUDGET) -> list[str]:
    """:func:`offer` as plain text lines: the task, then each choice (its orders joined by
    ``or``, then its note), then the legal lays (empty if it is not ``player``'s turn)."""
    found = offer(game, player, route_budget)
    if found is None:
        return []
    out = [found.task]
    for choice in found.choices:
        out.append("  or  ".join(choice.orders) + (f"  -- {choice.note}" if choice.note and choice.orders
                                                       else choice.note))
    out += [f"{coord}: {text}" for coord, text in found.lays.items()]
    return out


def may_now(game: Game, player: str | None, route_budget: int = routes.DEFAULT_SEARCH_BUDGET,
            most: int = 12, width: int = 76) -> list[str]:
    """What a refusal and HELP tell ``player`` they may do now (empty if it is not their
    turn or ``player`` is None): :func:`options`, at most ``most`` of them and a line saying
    how many more the turn report lists, each wrapped at ``width`` columns."""
    found = options(game, player, route_budget) if player is not None else []
    if len(found) > most:
        found = found[:most] + [f"... and {len(found) - most} more: send REPORT for the full list"]
    return [part for line in found for part in textwrap.wrap(line, width, subsequent_indent="    ",
                                                             break_on_hyphens=False)]


def _offer(game: Game, player: str, route_budget: int) -> Offer:
    vocab = Vocabulary.from_title(game.title)
    offered = legal_offers(game, player, route_budget)

    def listed(found: Sequence[LegalOffer], note: str = "") -> list[Choice]:
        # each action is written once: the codecs' format and parse are exact inverses (the
        # random games check that each line offered reads back as itself and is accepted)
        lines = tuple(dict.fromkeys(format_order(o.action, vocab) for o in found))
        return [Choice(lines, note)] if lines else []

    if game.state.round.kind != RoundKind.OPERATING:
        return _non_operating(game, player, offered, listed)
    return _operating(game, player, offered, route_budget, vocab, listed)


Listed = Callable[[Sequence[LegalOffer], str], list[Choice]]


def _operating(game: Game, player: str, offered: Sequence[LegalOffer], route_budget: int, vocab: Vocabulary,
               listed: Listed) -> Offer:
    """The operating round: the offers (:func:`pbem.engine.offers.legal_offers`) of the step
    asked for, grouped by kind with notes, then what the corporation may do at any time in
    its turn (buy a private, a private's tile lay or token). Nothing here decides what is
    legal."""
    money = game.money
    step = operating.active_steps(game)[0]
    corp = step.subject(game)
    cash = game.state.corporations[corp].cash
    task = f"{step.heading(game) or f'{corp} ({money(cash)} in the treasury)'}: {step.describe(game)}"
    mine = [o for o in offered if o.step is step]

    def of(kind: type[Action] | tuple[type[Action], ...], found: Sequence[LegalOffer] = mine) -> list[LegalOffer]:
        return [o for o in found if isinstance(o.action, kind)]

    out: list[Choice] = []
    lay_text: dict[str, str] = {}
    lay_costs: dict[str, str] = {}
    ordinary = {o.action for o in of(LayTile) if not cast(LayTile, o.action).using}
    if ordinary:
        legal = [lay for lay in lays.legal_lays(game, corp) if LayTile(lay.hex, lay.tile, lay.rotation) in ordinary]
        for coord, tiles in lays.by_hex(legal).items():
            lay_text[coord] = lays.hex_summary(tiles)
        lay_costs = {lay.hex: money(lay.cost) for lay in legal if lay.cost}
        if legal:
            first = legal[0]
            line = format_order(LayTile(first.hex, first.tile, first.rotation), vocab)
            out.append(Choice((line,), f"or any of the {len(legal)} lays listed below"))
    tokens = sorted(of(PlaceToken), key=lambda o: (lays.coord_key(cast(PlaceToken, o.action).hex),
                                                    cast(PlaceToken, o.action).city))
    if tokens:
        cost = tokens[0].cost
        out += listed(tokens, "" if cost is None else f"a token costs {money(cost)}")
    out += _run_choices(game, of((RunRoutes, RunAuto)), route_budget, listed)
    dividends = of(Dividend)
    if dividends:
        out += listed(dividends, f"the revenue is {money(dividends[0].revenue or 0)}")
    if step is operating.BuyTrainStep:
        out += _train_choices(game, corp, mine, listed)
    discards = of(DiscardTrain)
    if discards:
        out += listed(discards, f"{operating.crowded(game)[0]} is over the train limit")
    for bought in of(BuyPrivate, offered):
        company = cast(BuyPrivate, bought.action).company
        owner = deals.counterparty(game, player, bought.action)
        out += listed([bought], f"{company} for {money(bought.low or 0)} to {money(bought.high or 0)}"
                      + (f", an offer {owner} must ACCEPT" if owner else ""))
    handled: tuple[type[Action], ...] = (LayTile, PlaceToken, RunAuto, RunRoutes, Dividend, DiscardTrain,
                                         BuyPrivate, Pass, Assign)
    if step is operating.BuyTrainStep:
        handled += (BuyTrain, SellShares, Bankrupt)
    out += listed([o for o in mine if not isinstance(o.action, handled)], "")
    assigns = of(Assign, offered)
    if assigns:
        out += listed(assigns, "a private company's token")
    if any(o.action == Pass() for o in mine) and step is not operating.BuyTrainStep:
        out += listed([LegalOffer(Pass(), step)], step.pass_note(game))
    out += _special_lays(game, [cast(LayTile, o.action) for o in of(LayTile, offered) if o.step is operating.Special],
                         vocab)
    out += _anytime_choices(game, offered, vocab, listed)
    return Offer(player, task, tuple(out), lay_text, lay_costs, corp if lay_text else "")


def _anytime_choices(game: Game, offered: Sequence[LegalOffer], vocab: Vocabulary, listed: Listed) -> list[Choice]:
    """What the title's anytime steps (:attr:`~pbem.engine.steps.operating.OpStep.anytime`)
    offer (Lorenz's 1825: ``ASSIGN``, and a private's power used): tile lays naming a
    private (``USING``) as the private companies' lays are shown, each other kind of action
    one choice noted with the step's description."""
    out: list[Choice] = []
    steps = dict.fromkeys(o.step for o in offered if o.step is not None and issubclass(o.step, operating.OpStep)
                          and o.step.anytime)
    for step in steps:
        assert step is not None
        mine = [o for o in offered if o.step is step]
        using = [o.action for o in mine if isinstance(o.action, LayTile) and o.action.using]
        out += _special_lays(game, using, vocab)
        rest = [o for o in mine if not (isinstance(o.action, LayTile) and o.action.using)]
        for kind in dict.fromkeys(type(o.action) for o in rest):
            out += listed([o for o in rest if type(o.action) is kind], step.description)
    return out


def _run_choices(game: Game, runs: Sequence[LegalOffer], route_budget: int, listed: Listed) -> list[Choice]:
    """The run due (the turn's or a connection run), from the offers: the best run found
    and RUN AUTO, or RUN NONE where no run is found, and how to write one's own."""
    if not runs:
        return []
    money = game.money
    run_corp, _ = routes.run_due(game)
    best = next(o for o in runs if isinstance(o.action, RunRoutes))
    proven = "the best run" if best.proven else f"the best run found in {route_budget:,} search steps"
    out: list[Choice] = []
    if cast(RunRoutes, best.action).runs:
        out += listed([best], f"{proven}, {money(best.revenue or 0)}")
        out += listed([o for o in runs if isinstance(o.action, RunAuto)], "the server finds the best run")
    else:
        out += listed([best], f"{run_corp} has no run to make")
    kinds = " ".join(t.kind for t in game.state.corporations[run_corp].trains)
    out.append(Choice((), f"or any run of your own: RUN <train>: <stop>-<stop>...; trains: {kinds}"))
    return out


def _non_operating(game: Game, player: str, offered: Sequence[LegalOffer], listed: Listed) -> Offer:
    """The auction and the stock round: the offers (:func:`pbem.engine.offers.legal_offers`)
    grouped by kind, with what the engine knows of each (a bid's range, a sale's most
    shares), and the private exchanges."""
    money = game.money

    def of(kind: type[Action]) -> list[LegalOffer]:
        return [o for o in offered if isinstance(o.action, kind)]

    out: list[Choice] = []
    owners = {o.action: deals.counterparty(game, player, o.action) for o in of(BuyPrivate)}
    for bought in of(BuyPrivate):
        if owners[bought.action] is None:
            company = cast(BuyPrivate, bought.action).company
            out += listed([bought], f"buys {company}, the cheapest, for {money(bought.low or 0)}")
    standing = open_bids(game)
    for bid in of(Bid):
        company = cast(Bid, bid.action).company
        others = ", ".join(f"{bidder} {money(price)}" for bidder, price in standing.get(company, []))
        out += listed([bid], f"the least bid on {company}" + (f" (bids: {others})" if others else "")
                      + f"; {player} may bid up to {money(bid.high or 0)}")
    buys = of(BuyShares)
    if buys:
        protecting = game.state.round.stock is not None and game.hooks.sequence.stock_step().interrupted(game)
        out += listed(buys, "protect the price" if protecting else "one share each" if len(buys) > 1 else "one share")
    pars = of(Par)
    if pars:
        corps = list(dict.fromkeys(cast(Par, o.action).corporation for o in pars))
        prices = [cast(Par, o.action) for o in pars]
        highest = {c: max(a.price for a in prices if a.corporation == c) for c in corps}
        # the lower prices a corporation may also start at (none where each has one price: 1829)
        lower = [str(p) for p in sorted({a.price for a in prices if a.price < highest[a.corporation]}, reverse=True)]
        top = [LegalOffer(Par(c, highest[c]), None) for c in corps]
        out += listed(top, ("or a lower par price: " + ", ".join(lower)) if lower else "")
    trades = [o for o in of(BuyPrivate) if owners[o.action] is not None]
    if trades:
        whose = ", ".join(f"{owners[o.action]}'s {cast(BuyPrivate, o.action).company}" for o in trades)
        out += listed(trades, f"another player's private ({whose}) for {money(trades[0].low or 0)} to "
                              f"{money(trades[0].high or 0)}, an offer its owner must ACCEPT")
    sells = of(SellShares)
    if sells:
        vocab = Vocabulary.from_title(game.title)
        more = next((o for o in sells if o.most > 1), None)
        also = ""
        if more is not None:
            sale = cast(SellShares, more.action)
            also = f"; {format_order(SellShares(sale.corporation, 2), vocab)} sells two"
        out += listed(sells, ("one share each" if len(sells) > 1 else "one share") + also)
    rest = [o for o in offered if not isinstance(o.action, (BuyPrivate, Bid, BuyShares, Par, SellShares, Pass,
                                                            Exchange))]
    for found in rest:
        out += listed([found], "")
    out += listed(of(Exchange), "a private for a share, at any time")
    out += listed(of(Pass), _turn_end_note(game, bool(buys or pars)))
    step = game.active_step()
    cash = game.state.players[player].cash
    committed = sum(price for offers in standing.values() for bidder, price in offers if bidder == player)
    held = (f"cash {money(cash)}" + (f", {money(committed)} of it bid" if committed else "")
            + f", {shares.certificate_count(game.state, game.title, player)}/"
            f"{shares.certificate_limit(game.state, game.title)} certificates")
    task = f"{game.round_label()}: {step.description if step else ''} ({held})"
    return Offer(player, task, tuple(out))


def _turn_end_note(game: Game, may_buy: bool) -> str:
    """What ends a stock-round turn, for its PASS: a buy does where no sale may follow it (the
    first stock round of 1830, rules 5.2; 1870 after a sale, sell_buy_or_buy_sell); else PASS
    does, a buy leaving the sales open."""
    if game.state.round.kind != RoundKind.STOCK or not may_buy:
        return ""
    if not stock.sales_open(game):
        return "a buy or a start ends your turn (no sales in this round)"
    sr = game.state.round.stock
    if game.title.settings.sell_buy_order == "sell_buy_or_buy_sell" and sr is not None and "sell" in sr.turn_actions:
        return "a buy or a start ends your turn (you have sold: no sale may follow it)"
    return "ends your turn; after a buy or a start you may still sell, then PASS"


def _train_choices(game: Game, corp: str, legal: Sequence[LegalOffer], listed: Listed) -> list[Choice]:
    """The train step's offers (``legal``): trains from the bank and the pool, with
    trade-ins; other corporations' trains; the president's sales and BANKRUPT when a train
    is due; else a PASS."""
    money = game.money
    out: list[Choice] = []
    state = game.state
    buys = [o for o in legal if isinstance(o.action, BuyTrain)]
    offered = [o for o in buys if cast(BuyTrain, o.action).source in ("depot", "pool")]
    prices = ", ".join(f"{trains.train_data(game.title, t).name} {money(trains.train_data(game.title, t).price)}"
                       f"{' (pool)' if t in state.pool_trains else ''}" for t in trains.depot_offer(game))
    must = operating.must_buy_train(game, corp)
    out += listed(offered, f"for sale: {prices}" + ("; the president pays what the treasury lacks" if must else ""))
    others = [o for o in buys if o not in offered]
    held = ", ".join(dict.fromkeys(f"{cast(BuyTrain, o.action).source} {cast(BuyTrain, o.action).train}"
                                   for o in others))
    if out and others:  # the bank sells one: other corporations' trains in a note
        out.append(Choice((), f"or another corporation's train at a price its president accepts, "
                              f"TRAIN <type> FROM <corporation> FOR <price> (trains held: {held})"))
    elif others:
        low, high = others[0].low or 1, others[0].high or 1
        out += listed(others, f"another corporation's train: FOR any price from "
                      f"{money(low)}" + (f" to {money(high)}" if high > low else "")
                      + ", an offer its president must ACCEPT unless it is you")
    out += listed([o for o in legal if isinstance(o.action, SellShares)], "to raise the money for the train")
    out += listed([o for o in legal if isinstance(o.action, Bankrupt)], "the president cannot raise the money")
    out += listed([o for o in legal if isinstance(o.action, Pass)], "no train")
    return out


def _special_lays(game: Game, legal: Sequence[LayTile], vocab: Vocabulary) -> list[Choice]:
    """The legal tile lays of the private companies the operating corporation owns
    (``USING``, from the engine's legal moves), one choice a private: its first lay, the rest
    summed up by hex."""
    out: list[Choice] = []
    for sym in dict.fromkeys(a.using for a in legal):
        mine = [a for a in legal if a.using == sym]
        lines = [format_order(a, vocab) for a in mine]
        grouped = lays.by_hex([lays.LegalLay(a.hex, a.tile, a.rotation, False, 0) for a in mine])
        summary = " | ".join(f"{coord}: {lays.hex_summary(tiles)}" for coord, tiles in grouped.items())
        out.append(Choice((lines[0],), f"{sym}'s own tile lay; or any of {summary}", tuple(lines[1:])))
    return out
