"""Sections of the postal turn report as plain data: the stock market, the trains and phases,
the corporations' trains and tokens, and what the player to act may do.

Pure functions of the engine's game; the templates lay them out.
"""

from __future__ import annotations

from typing import Any

from pbem.engine import market, routes, track, trains
from pbem.engine.game import Game
from pbem.engine.steps import operating
from pbem.orders import format_order


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
        left[trains.train_type(train_id)] = left.get(trains.train_type(train_id), 0) + 1
    depot = []
    for data in title.trains:
        if data.name in left:
            depot.append(f"{data.name} x{'unlimited' if data.count is None else left[data.name]}")
    upcoming = [t for t in title.trains if t.name not in state.types_sold]
    next_change = ""
    if upcoming:
        nxt = upcoming[0]
        effects = []
        for p in title.phases:
            if p.on == nxt.name:
                effects.append(f"phase {p.name}: train limit {p.train_limit}, tiles {', '.join(p.tiles)}, "
                               f"{p.operating_rounds} operating round{'s' if p.operating_rounds > 1 else ''} a set")
        rusted = [t.name for t in title.trains if t.rusts_on == nxt.name]
        if rusted:
            effects.append(f"{', '.join(rusted)}-trains rust")
        if "close_companies" in nxt.events:
            effects.append("private companies close")
        next_change = f"the first {nxt.name}-train: " + ("; ".join(effects) if effects else "no change")
    return {
        "phase": phase.name,
        "limit": phase.train_limit,
        "tiles": ", ".join(phase.tiles),
        "rounds": phase.operating_rounds,
        "offer": ", ".join(offer) or "none",
        "depot": ", ".join(depot) or "empty",
        "next": next_change or "no more new trains",
    }


def corporation_extras(game: Game, sym: str) -> dict[str, str]:
    """A corporation's trains, station tokens placed/total, and last revenue."""
    state, data = game.state, game.title.corporation(sym)
    corp = state.corporations[sym]
    placed = sum(1 for corps in state.tokens.values() if sym in corps)
    last = "-"
    if corp.last_revenue is not None:
        last = "did not run" if corp.last_choice == "did not run" else f"{game.money(corp.last_revenue)} {corp.last_choice}"
    return {
        "trains": " ".join(trains.train_type(t) for t in corp.trains) or "-",
        "tokens": f"{placed}/{len(data.tokens)}",
        "last": last,
    }


def options(game: Game, player: str, route_time_limit: float = routes.DEFAULT_TIME_LIMIT) -> list[str]:
    """What ``player`` may do now, as order lines with what they cost (empty if nothing)."""
    if player not in game.current_actors():
        return []
    if game.state.round.kind != "operating":
        return _summarize([format_order(a) for a in game.legal_actions(player)])
    steps = operating.active_steps(game)
    if not steps:
        return []
    step = steps[0]
    corp = step.subject(game)
    treasury = game.state.corporations[corp]
    out = [f"{corp} ({game.money(treasury.cash)} in the treasury): {step.describe(game)}"]
    if step is operating.Track:
        out.append(f"LAY <hex> <tile> <rotation>  -- {', '.join(game.phase().tiles)} tiles; or PASS")
    elif step is operating.Token:
        cost = operating.next_token_cost(game, corp)
        net = track.network(game, corp)
        places = []
        for vertex in sorted(net.stops):
            coord, stop = track.split_vertex(vertex)
            if stop.startswith("c") and track.token_problem(game, corp, coord, int(stop[1:]), net) is None:
                places.append(coord + (f".{stop[1:]}" if stop != "c0" else ""))
        out.append(f"TOKEN <{'|'.join(places)}>  -- {game.money(cost or 0)}; or PASS")
    elif step is operating.Route:
        kinds = " ".join(trains.train_type(t) for t in treasury.trains)
        out.append(f"RUN <train>: <stop>-<stop>...  -- trains: {kinds}")
        out.append(_best_run_line(game, route_time_limit))
    elif step is operating.ConnectionRoute:
        out.append(_best_run_line(game, route_time_limit))
    elif step is operating.DividendStep:
        revenue = game.state.round.operating.revenue if game.state.round.operating else 0
        out.append(f"PAYOUT ({game.money(revenue or 0)}) or WITHHOLD")
    elif step is operating.BuyTrainStep:
        offer = trains_and_phase(game)["offer"]
        must = operating.must_buy_train(game, corp)
        out.append(f"TRAIN <type>  -- for sale: {offer}" + ("" if must else "; or PASS"))
        if must:
            out.append("the corporation must buy a train; the president pays what it lacks (SELL to raise it)")
    elif step is operating.Discard:
        out.append("DISCARD <type>")
    elif step is operating.BuyCompany:
        out.append("BUY <private> <price>  -- half to twice face value; or PASS")
    return out


def _best_run_line(game: Game, route_time_limit: float) -> str:
    """What RUN AUTO would run now (issue: the best run shown to a corporation about to run)."""
    corp, must_join = routes.run_due(game)
    found = routes.cached_best_run(game, corp, route_time_limit, must_join)
    proven = "the best run" if found.complete else f"the best run found in {route_time_limit:g} s"
    return f"RUN AUTO runs {proven}: {found.describe(game)}"


def _summarize(lines: list[str]) -> list[str]:
    """Order lines grouped so the list stays short (all the PAR choices on one line)."""
    buys = [line for line in lines if line.startswith("BUY ") or line.startswith("BID ")]
    pars = [line for line in lines if line.startswith("PAR ")]
    other = [line for line in lines if line not in buys and line not in pars]
    out = list(buys)
    if pars:
        corps = sorted({line.split()[1] for line in pars})
        prices = sorted({int(line.split()[2]) for line in pars}, reverse=True)
        out.append(f"PAR <{'|'.join(corps)}> <{'|'.join(str(p) for p in prices)}>")
    out.extend(other)
    return out
