"""Certificates: counting, buying, selling, the presidency and floating (1830 rules 5).

Functions take the state and the title data and change the state; each checks nothing that
the calling step has not already checked, except where it says it raises.
"""

from __future__ import annotations

from collections.abc import Collection

from pbem.engine import market
from pbem.engine.events import CapitalReceived, Event, Floated, PresidentChanged
from pbem.engine.events.receivership import ReceivershipEnded
from pbem.engine.state import IPO, POOL, Certificate, GameState, Owner
from pbem.engine.title import TitleData


def share_percent(title: TitleData, sym: str) -> int:
    """The size of an ordinary share of ``sym`` (10 in 1830)."""
    shares = title.corporation(sym).shares
    return min(shares[1:]) if len(shares) > 1 else shares[0]


def president_percent(title: TitleData, sym: str) -> int:
    """The size of ``sym``'s president's certificate (20 in 1830)."""
    return title.corporation(sym).shares[0]


def certificate_price(title: TitleData, sym: str, percent: int, price: int) -> int:
    """What ``percent`` of ``sym`` costs (money, an int, rounded down) at the market or par
    ``price``: the price is quoted for the title's ``price_percent`` of the corporation
    (:meth:`pbem.engine.stock_rules.StockRules.price_percent`; 1830: one ordinary share, so a 10%
    share costs the price and the 20% president's certificate twice it; 1825's minors quote
    for 10% though their shares are 20%)."""
    return price * percent // title.hooks.stock.price_percent(title, sym)


def new_certificates(title: TitleData) -> list[Certificate]:
    """Every certificate of every corporation, all in the IPO; index 0 is the president's."""
    return [
        Certificate(corporation=c.sym, index=i, percent=pct, president=(i == 0), owner=IPO)
        for c in title.corporations
        for i, pct in enumerate(c.shares)
    ]


def counts_for_limit(state: GameState, title: TitleData, sym: str) -> bool:
    """Whether ``sym``'s certificates count against the certificate limit (not in y/o/b zones)."""
    corp = state.corporations[sym]
    if corp.price is None:
        return True
    found = market.cell(title, corp.price)
    return True if found is None else found.counts_for_limit


def certificate_count(state: GameState, title: TitleData, player: str, *,
                      uncounted: Collection[str] | None = None) -> int:
    """Certificates ``player`` holds that count against the limit, privates included where the
    title says so (1830 rules 5.2: certificate limit). Certificates of the corporations in
    ``uncounted`` do not count; by default those the title's state names
    (:meth:`TitleState.uncounted`; 1870: a sale waiting for price protection)."""
    pending = state.title_state.uncounted(state, title) if uncounted is None else uncounted
    owner = Owner.player(player)
    count = sum(
        1
        for c in state.certificates
        if c.owner == owner and c.corporation not in pending and counts_for_limit(state, title, c.corporation)
    )
    if title.settings.certificate_limit_includes_privates:
        count += len(state.players[player].companies)
    return count


def certificate_limit(state: GameState, title: TitleData) -> int:
    """The certificate limit for this number of players (1830 rules 5.2). Where the title
    gives ``certificate_limit_by_corporations`` (1870: ``{players: {corporations: limit}}``),
    the limit also falls as corporations close: the entry for the fewest corporations not
    below the number still open (so the last entry holds however few remain)."""
    players = len([p for p in state.players.values() if not p.bankrupt])
    table = title.settings.certificate_limit_by_corporations
    if table and players in table:
        by_count = {int(k): int(v) for k, v in table[players].items()}
        open_now = sum(1 for corp in state.corporations.values() if not corp.closed)
        fitting = [k for k in by_count if k >= open_now]
        return by_count[min(fitting)] if fitting else by_count[max(by_count)]
    return title.certificate_limit[players]


def holding_ok(state: GameState, title: TitleData, player: str, sym: str, extra: int = 0) -> bool:
    """Whether ``player`` may hold ``extra`` more percent of ``sym`` (60% rule, 1830 rules 5.2),
    unless the price is in a zone that lifts the limit."""
    corp = state.corporations[sym]
    if corp.price is not None:
        found = market.cell(title, corp.price)
        if found is not None and found.unlimited_holding:
            return True
    limit = title.settings.max_percent_per_corporation
    return state.percent_of(Owner.player(player), sym) + extra <= limit


def current_price(state: GameState, title: TitleData, sym: str) -> int:
    """The market price of one ordinary share of ``sym``."""
    coord = state.corporations[sym].price
    if coord is None:
        raise ValueError(f"{sym} has no share price")
    return market.price_at(title, coord)


def par_price(state: GameState, title: TitleData, sym: str) -> int:
    """The par price of ``sym``."""
    coord = state.corporations[sym].par
    if coord is None:
        raise ValueError(f"{sym} has not been parred")
    return market.price_at(title, coord)


def pick_certificates(state: GameState, owner: Owner, sym: str, count: int) -> list[Certificate]:
    """``count`` ordinary (non-president) certificates of ``sym`` held by ``owner``, lowest index
    first; fewer if there are not that many."""
    certs = sorted(
        (c for c in state.certificates
         if c.owner == owner and c.corporation == sym and not c.president
         and not (owner == IPO and state.title_state.withheld(c))),
        key=lambda c: c.index,
    )
    return certs[:count]


def incremental(state: GameState, title: TitleData, sym: str) -> bool:
    """Whether a share of ``sym`` sold from its IPO/treasury pays the corporation (incremental
    capitalization) rather than the bank: the title's ``capitalization``, or what the title's
    state says (:meth:`TitleState.incremental`; 1870: after a reissue)."""
    if title.settings.capitalization == "incremental":
        return True
    return state.title_state.incremental(title, sym)


def float_if_ready(state: GameState, title: TitleData, sym: str, events: list[Event]) -> None:
    """Float ``sym`` once the IPO holds no more than ``100 - float_percent`` percent; with full
    capitalization the bank pays it the par price of all its certificates (1830 rules 5.4:
    ten times par). A corporation whose IPO sales pay it (:func:`incremental`: 1825's minors
    in a game of full capitalization) has been paid as it sold and gets nothing more."""
    corp = state.corporations[sym]
    data = title.corporation(sym)
    if corp.floated or corp.par is None:
        return
    if state.percent_of(IPO, sym) > 100 - data.float_percent:
        return
    corp.floated = True
    events.append(Floated(sym))
    if title.settings.capitalization == "full" and not incremental(state, title, sym):
        amount = certificate_price(title, sym, sum(data.shares), par_price(state, title, sym))
        state.bank -= amount
        corp.cash += amount
        events.append(CapitalReceived(sym, amount))


def seat_distance(state: GameState, origin: str | None, other: str) -> int:
    """Seats clockwise from ``origin`` to ``other`` (0 when there is no origin)."""
    if origin is None or origin not in state.seats:
        return 0
    a, b = state.seats.index(origin), state.seats.index(other)
    return (b - a) % len(state.seats)


def update_president(
    state: GameState,
    title: TitleData,
    sym: str,
    events: list[Event],
    *,
    swap_to: Owner | None = None,
) -> None:
    """Give the presidency to the player with the most shares of ``sym`` if that is not the
    current president (ties keep the current president; among others, the nearest clockwise
    from the old president). The new president hands ordinary shares worth the president's
    certificate to the old one — or to ``swap_to`` (the pool, after a sale) when the old
    president no longer holds that much (1830 rules 5.5). A started corporation with no
    president (receivership, :mod:`pbem.engine.receivership`) gets the one the title's policy
    names, who takes the president's certificate from the pool for ordinary shares."""
    corp = state.corporations[sym]
    if corp.president is None and corp.ipoed and title.hooks.receivership is not None:
        _end_receivership(state, title, sym, events)
        return
    holdings = {p: state.percent_of(Owner.player(p), sym) for p in state.seats}
    top = max(holdings.values(), default=0)
    previous = corp.president
    if previous is not None and holdings.get(previous, 0) == top:
        return
    pres_pct = president_percent(title, sym)
    candidates = [p for p, pct in holdings.items() if pct == top and pct >= pres_pct]
    if not candidates:
        return
    new = min(candidates, key=lambda p: seat_distance(state, previous, p))
    corp.president = new
    events.append(PresidentChanged(new, sym))
    pres_cert = next(c for c in state.certificates if c.corporation == sym and c.president)
    if pres_cert.owner == Owner.player(new):
        return
    old_owner = pres_cert.owner
    n = pres_pct // share_percent(title, sym)
    receiver = old_owner
    if swap_to is not None and state.percent_of(old_owner, sym) < pres_pct:
        receiver = swap_to
    for cert in pick_certificates(state, Owner.player(new), sym, n):
        cert.owner = receiver
    pres_cert.owner = Owner.player(new)


def transfer(certs: list[Certificate], to: Owner) -> None:
    """Move ``certs`` to owner ``to``."""
    for cert in certs:
        cert.owner = to


def pool_room(state: GameState, title: TitleData, sym: str) -> int:
    """Percent of ``sym`` the bank pool may still take (50% limit, 1830 rules 5.3)."""
    return title.settings.pool_share_limit - state.percent_of(POOL, sym)


def _end_receivership(state: GameState, title: TitleData, sym: str, events: list[Event]) -> None:
    policy = title.hooks.receivership
    assert policy is not None
    new = policy.new_president(state, title, sym)
    if new is None:
        return
    pres_cert = next(c for c in state.certificates if c.corporation == sym and c.president)
    giver = pres_cert.owner
    transfer(pick_certificates(state, Owner.player(new), sym, pres_cert.percent // share_percent(title, sym)), giver)
    pres_cert.owner = Owner.player(new)
    state.corporations[sym].president = new
    events.append(ReceivershipEnded(new, sym))


def presidency_to_pool_problem(state: GameState, title: TitleData, player: str, sym: str,
                               count: int) -> str | None:
    """Why ``player``, president of ``sym``, may not sell ``count`` shares with the
    president's certificate going to the bank pool (receivership), or None: the pool must
    hold the ordinary shares to give back for what that certificate is worth beyond the
    sale (a 20% certificate sold as one 10% share takes one 10% share back)."""
    change = _change(state, title, player, sym, count)
    if len(pick_certificates(state, POOL, sym, change)) < change:
        return (f"the bank pool holds no {sym} share to give back for the rest of the "
                "president's certificate")
    return None


def _change(state: GameState, title: TitleData, player: str, sym: str, count: int) -> int:
    """Ordinary shares the pool gives back when ``player`` sells ``count`` shares of ``sym``
    with the president's certificate."""
    ordinary = len(pick_certificates(state, Owner.player(player), sym, 10**6))
    worth = president_percent(title, sym) // share_percent(title, sym)
    return max(0, worth - (count - ordinary))


def sell_presidency_to_pool(state: GameState, title: TitleData, player: str, sym: str,
                            count: int) -> None:
    """Move the certificates of ``player``'s sale of ``count`` shares of ``sym`` when the
    president's certificate goes to the bank pool because no other player can take the
    presidency (receivership; 18xx.games: 1825's president's sales to the market): the
    player's ordinary shares and the president's certificate go to the pool, the pool gives
    back ordinary shares for the rest of that certificate's worth, and the corporation has
    no president. Payment is the caller's.

    :raises ValueError: the pool lacks the shares to give back
        (:func:`presidency_to_pool_problem`).
    """
    problem = presidency_to_pool_problem(state, title, player, sym, count)
    if problem:
        raise ValueError(problem)
    seller = Owner.player(player)
    change = pick_certificates(state, POOL, sym, _change(state, title, player, sym, count))
    transfer(pick_certificates(state, seller, sym, 10**6), POOL)
    next(c for c in state.certificates if c.corporation == sym and c.president).owner = POOL
    transfer(change, seller)
    state.corporations[sym].president = None
