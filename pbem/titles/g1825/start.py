"""The start of a game of 1825, as 18xx.games sets it up (``g_1825/game.rb``, ``setup``):
no auction. In seat order each player is dealt one private company, the cheapest first, and
pays its face value; once the privates run out, the next player gets the LNWR's Director's
certificate at the LNWR's fixed par, and each player after that one LNWR share at par. The
privates left over (more privates than players) are bought from the bank in the stock
round, cheapest first (:mod:`pbem.titles.g1825.stock`). Each minor's required train is set
aside from the depot for it. The game then begins with stock round 1.

Source: issue 12 ("Privates sold at face value in seat order (with the Director's
certificate of the LNWR, or LNWR shares, to the players after them, as 18xx.games does), no
auction").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pbem.engine import market, shares
from pbem.engine.events import PrivateBought, SharesBought
from pbem.engine.state import IPO, Owner
from pbem.titles.g1825.state import State1825, is_minor, state1825

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.titles.g1825.tables import Tables

START_CORPORATION = "LNWR"
"""The company whose certificates the players after the privates are dealt."""


def facts(game: Game) -> Tables:
    """The composed tables of ``game``'s units and kits (pars, bands, required trains):
    :func:`pbem.titles.g1825.tables.tables_for` of the title's variants."""
    from pbem.titles.g1825.tables import tables_for

    return tables_for(game.title.variants)


def deal(game: Game) -> None:
    """Deal the start (see the module text): privates cheapest first in seat order at face
    value, then the LNWR's Director's certificate and LNWR shares; set aside the minors'
    trains. Announced as events; changes ``game.state``.

    :raises ValueError: a minor's required train is not in the depot (the data are wrong).
    """
    state, title = game.state, game.title
    privates = sorted((c for c in title.companies), key=lambda c: c.value)  # stable: listed order on a tie
    for index, player in enumerate(state.seats):
        if index < len(privates):
            company = privates[index]
            state.players[player].cash -= company.value
            state.bank += company.value
            state.players[player].companies.append(company.sym)
            state.companies[company.sym].owner = Owner.player(player)
            game.event(PrivateBought(player, company.sym, company.value))
        elif index == len(privates):
            _director(game, player)
        else:
            _share(game, player)
    mine = state1825(state)
    mine.band = 1 if not unsold_start_privates(game) else 0
    _reserve_minor_trains(game, mine)


def _director(game: Game, player: str) -> None:
    state, title = game.state, game.title
    sym = START_CORPORATION
    price = facts(game).par(sym)
    assert price is not None, f"{sym} has no fixed par"
    coord = par_cell(game, price)
    corp = state.corporations[sym]
    corp.par = coord
    market.place(state, sym, coord)
    corp.ipoed = True
    corp.president = player
    cert = next(c for c in state.certificates if c.corporation == sym and c.president)
    cost = shares.certificate_price(title, sym, cert.percent, price)
    cert.owner = Owner.player(player)
    state.players[player].cash -= cost
    state.bank += cost
    from pbem.titles.g1825.stock import DirectorshipBought

    game.event(DirectorshipBought(player, cert.percent, sym, cost))
    shares.float_if_ready(state, title, sym, game.pending_events)


def _share(game: Game, player: str) -> None:
    state, title = game.state, game.title
    sym = START_CORPORATION
    cert = shares.pick_certificates(state, IPO, sym, 1)[0]
    cost = shares.certificate_price(title, sym, cert.percent, shares.par_price(state, title, sym))
    cert.owner = Owner.player(player)
    state.players[player].cash -= cost
    state.bank += cost
    game.event(SharesBought(player, cert.percent, sym, "ipo", cost))
    shares.update_president(state, title, sym, game.pending_events)
    shares.float_if_ready(state, title, sym, game.pending_events)


def par_cell(game: Game, price: int) -> tuple[int, int]:
    """The market cell of ``price`` (1825's market is one row; a major's par is a par cell,
    a minor's any cell of that price).

    :raises ValueError: no cell has that price.
    """
    coord = market.par_coord(game.title, price)
    if coord is not None:
        return coord
    for r, row in enumerate(game.title.market):
        for c, cell in enumerate(row):
            if cell is not None and cell.price == price:
                return (r, c)
    raise ValueError(f"no market cell at {price}")


def unsold_start_privates(game: Game) -> list[str]:
    """The privates never yet sold (not those sold back to the bank), cheapest first: while
    any is left no company is offered, and the cheapest is the one for sale."""
    state = game.state
    pool = state1825(state).pool_privates
    left = [c for c in game.title.companies
            if state.companies[c.sym].owner is None and not state.companies[c.sym].closed
            and c.sym not in pool]
    return [c.sym for c in sorted(left, key=lambda c: c.value)]


def _reserve_minor_trains(game: Game, mine: State1825) -> None:
    state, title = game.state, game.title
    tables = facts(game)
    for corp in title.corporations:
        if not is_minor(title, corp.sym):
            continue
        wanted = tables.required_train(corp.sym)
        if wanted is None:
            continue
        found = next((t for t in state.depot if t.kind == wanted), None)
        if found is None:
            raise ValueError(f"no {wanted} train in the depot for the minor {corp.sym}")
        state.depot.remove(found)
        mine.minor_trains[corp.sym] = found
