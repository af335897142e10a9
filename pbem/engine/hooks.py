"""The base title hooks: the behaviour of 1830, which most titles share.

A title's package (``pbem/titles/g<title>/``) exposes ``HOOKS``, this class or a subclass
overriding only what differs; the game is handed an instance and calls its methods at the few
places titles differ (stock-market moves, dividends, extra revenue, extra tile-lay rules).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Hashable, Mapping

from pbem.engine import market, shares
from pbem.engine.state import POOL, Owner, RoundState, ShareSale, TitleState
from pbem.engine.steps.auction import new_auction_state
from pbem.engine.steps.stock import BuySellParShares, drop_price, pool_presidency
from pbem.engine.values import CityRef, Vertex

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.engine.board import TileData
    from pbem.engine.game import Game
    from pbem.engine.receivership import ReceivershipPolicy
    from pbem.engine.step import Step
    from pbem.engine.steps.operating import OpStep
    from pbem.engine.title import TitleData

Coord = tuple[int, int]


class TitleHooks:
    """Overridable rules; every method documents the 1830 behaviour it implements."""

    # -- the sequence of rounds ----------------------------------------------------------------

    def first_round(self, game: Game) -> RoundState:
        """The round the game begins with: its ``kind`` names the steps it runs (the title
        data's ``round_steps``); when none of them is active any more, the round that
        :meth:`next_round` names follows (1830: the first stock round). 1830: the private
        auction (rules 4.2), kind ``"auction"`` with every private for sale, cheapest first.
        A title that starts otherwise (1825 sells its privates at face value in seat order;
        1829 drafts) returns a round of its own kind whose steps it gives in
        :meth:`step_types`."""
        return RoundState(kind="auction", auction=new_auction_state(game))

    def next_round(self, game: Game, finished: RoundState) -> RoundState | None:
        """The round that follows ``finished`` (its kind and numbers; the round's own state is
        set up as it begins), or None when the game ends instead, this hook having ended it
        (``game.end_game``). 1830 (rules 5, 6, 8): the start is followed by stock round 1; a
        stock round by the first operating round of its set; an operating round by the next
        of the set (as many as the phase gave when the set began), and the last of a set by
        the next stock round, or the end of the game once the bank has broken."""
        if finished.kind == "stock":
            return RoundState(kind="operating", number=finished.number, or_number=1)
        if finished.kind == "operating":
            if finished.or_number < game.state.operating_rounds:
                return RoundState(kind="operating", number=finished.number, or_number=finished.or_number + 1)
            if game.state.bank_broken:
                game.end_game("bank")
                return None
            return RoundState(kind="stock", number=finished.number + 1)
        return RoundState(kind="stock", number=1)

    def step_types(self) -> Mapping[str, type[Step]]:
        """The title's own round steps by the name its ``round_steps`` data uses, beside the
        core's (the auction's and the stock round's); 1830: none."""
        return {}

    # -- the title's own state and stock round ---------------------------------------------

    def new_title_state(self) -> TitleState:
        """The title's own part of a new game's state (``GameState.title_state``); 1830 has
        none beyond the core's fields."""
        return TitleState()

    def stock_step(self) -> type[BuySellParShares]:
        """The stock round's step (the round step named ``buy_sell_par_shares``): the core's
        :class:`~pbem.engine.steps.stock.BuySellParShares`, or a title's subclass adding
        handlers and actions (1870: redemption, reissue and price protection). The game asks
        this step, never the core class, what a stock-round turn allows."""
        return BuySellParShares

    def launch_problem(self, game: Game, sym: str) -> str | None:
        """Why corporation ``sym``'s shares are not on offer now, or None: a title that
        puts its corporations on offer in stages says so here (1829's share launches: the MR
        after three operating rounds, once the earlier ones have floated; Lorenz's 1825: no
        more LNWR shares until every private is sold). Asked by the stock round's par and
        purchase checks and its offers, so the legal moves, the report and the refusals
        agree. 1830: every corporation is on offer from the start."""
        return None

    def sell_problem(self, game: Game, player: str, sym: str, count: int) -> str | None:
        """A title's own reason ``player`` may not sell ``count`` shares of ``sym`` now, or
        None: asked by the stock round's sale check (:func:`pbem.engine.steps.stock.sell_problem`)
        before the core's own checks, so the legal moves, the report and the refusals agree
        (Lorenz's 1825: a free NER share may not be sold until the NER's Director's certificate
        has been bought). 1830: no reason of its own."""
        return None

    def new_operating_round(self, game: Game) -> None:
        """Called when an operating round begins (its state is fresh, before the privates
        pay): where a title counts operating rounds (for its share launches); 1830: nothing."""

    def new_stock_round(self, game: Game) -> None:
        """Called when a stock round begins (its state is fresh); 1830: nothing to do."""

    def after_sale(self, game: Game, sale: ShareSale) -> None:
        """After ``sale`` is paid and the presidency handed on: the price drops a row a share
        sold (1830 rules 5.3), announced; then the presidency is checked against the pool."""
        drop_price(game, sale.corporation, sale.count)
        pool_presidency(game, sale.corporation)

    def price_percent(self, title: TitleData, sym: str) -> int:
        """The percent of corporation ``sym`` that its market price and par are quoted for:
        a certificate of ``p`` percent costs ``price * p // price_percent``
        (:func:`pbem.engine.shares.certificate_price`), in purchases, sales, capital and a
        player's worth. 1830: one ordinary share (:func:`pbem.engine.shares.share_percent`);
        a title may quote a smaller part (1825's minors: 10%, their shares being of 20%)."""
        return shares.share_percent(title, sym)

    def bank_broken(self, game: Game) -> bool:
        """Whether the bank has broken now (asked by ``Game.check_bank`` after the privates
        pay and after each dividend): 1830 rules 8, its cash is gone (0 or less). A title
        may count the bank otherwise (1825 as 18xx.games plays it: broken once the players
        hold more than the bank's whole stock of money, the treasuries counting as the
        bank's)."""
        return game.state.bank <= 0

    def bank_broken_ends(self, game: Game) -> str:
        """When the game ends once the bank has broken, in words for the report's line
        (``BankBroken``; the end itself is :meth:`next_round`'s): 1830 rules 8, "after this
        set of operating rounds"."""
        return "after this set of operating rounds"

    def bank_cash(self, game: Game) -> int:
        """The bank's cash as the reports show it (money, an int): 1830, the bank's own cash
        (``GameState.bank``). A title that counts the bank otherwise shows its count (1825
        as 18xx.games plays it: the game's money less the players', below zero once broken)."""
        return game.state.bank

    def corporation_closed(self, game: Game, sym: str) -> None:
        """Called once ``sym`` has closed on the market (:mod:`pbem.engine.closing`), to drop
        what the title's state still holds for it; 1830: nothing (no corporation closes)."""

    # -- stock market (1830 rules 5.3, 6.9) -------------------------------------------------

    def up(self, title: TitleData, coord: Coord) -> Coord:
        """One row up; stays in the top row."""
        return market.up(title, coord)

    def down(self, title: TitleData, coord: Coord) -> Coord:
        """One row down; stays at the bottom of a column."""
        return market.down(title, coord)

    def right(self, title: TitleData, coord: Coord) -> Coord:
        """One column right; at the right edge, up instead."""
        return market.right(title, coord)

    def left(self, title: TitleData, coord: Coord) -> Coord:
        """One column left; at the left edge, down instead."""
        return market.left(title, coord)

    # -- dividends (1830 rules 6.6) ---------------------------------------------------------

    def dividend_kinds(self, title: TitleData) -> tuple[str, ...]:
        """The choices a corporation has for its revenue: the title data's
        ``dividend_choices`` (1830: payout or withhold; 1870 adds half)."""
        return tuple(title.const("dividend_choices") or ("payout", "withhold"))

    def split(self, revenue: int, choice: str, shares: int) -> tuple[int, float]:
        """``(kept by the corporation, paid per share)`` for ``revenue`` and ``choice``."""
        if choice == "withhold":
            return revenue, 0.0
        return 0, revenue / shares

    def pays_the_corporation(self, holder: Owner) -> bool:
        """Whether shares held by ``holder`` (``IPO`` or ``POOL``) pay the corporation
        (1830: the pool's shares do; the IPO's pay no one)."""
        return holder == POOL

    def dividend_moves(self, game: Game, corp: str, revenue: int, paid: int) -> tuple[str, ...]:
        """The cells ``corp``'s price moves after a dividend of ``paid`` out of ``revenue``
        (money), in order: each ``"right"``, ``"left"``, ``"up"`` or ``"down"``, taken with the
        hook of that name, so a title may move several cells by the dividend's size against
        the share price (:func:`pbem.engine.shares.current_price`). 1830 rules 6.6: right when
        anything was paid, left when nothing was."""
        return ("right",) if paid > 0 else ("left",)

    def dividend_amount(self, percent: int, share_percent: int, per_share: float) -> int:
        """A holder's dividend: shares times the per-share amount, rounded up."""
        return math.ceil(percent / share_percent * per_share)

    # -- revenue and track ------------------------------------------------------------------

    def extra_revenue(self, game: Game, corp: str, stops: list[Vertex]) -> int:
        """Revenue a run earns beyond its stops' values (1830: none)."""
        return 0

    def route_problem(self, game: Game, corp: str, stops: list[Vertex]) -> str | None:
        """A title's own reason a route may not visit ``stops`` (stop vertices in order), or
        None (1830: none; 1825 forbids two cities of one hex on a route). Checked for every
        run written and every route the optimiser considers."""
        return None

    def run_problem(self, game: Game, corp: str, train_ids: tuple[str, ...], stops: list[Vertex]) -> str | None:
        """Why the trains ``train_ids`` (one train, or several run as one) may not run the
        route ``stops`` (stop vertices in order) because of what they are, or None. Checked
        for every run written and, for each train, every route the optimiser considers; the
        rules every route keeps (:func:`pbem.engine.track.path_problem`) are checked apart.
        1830 (rules 6.5): no more stops than the train's length
        (:func:`pbem.engine.heading.run_length`); a title whose trains count stops otherwise
        (1825's U3 counts only cities, its 3T/4T may end at towns) says so here."""
        from pbem.engine import heading, trains

        distance = heading.run_length(game.title, train_ids)
        if len(stops) <= distance:
            return None
        name = "+".join(trains.train_type(t) for t in train_ids)
        if len(train_ids) > 1:
            return f"the {name} trains run as one may visit {distance} stops, not {len(stops)}"
        return f"the {name} train may visit {distance} stops, not {len(stops)}"

    def run_revenue(self, game: Game, corp: str, train_ids: tuple[str, ...], stops: list[Vertex],
                    revenue: int) -> int:
        """What the trains ``train_ids`` earn on the route ``stops`` whose stops and
        :meth:`extra_revenue` come to ``revenue`` (money). 1830: ``revenue``; a title whose
        trains pay otherwise (1825's 2+2 and 4+4E pay double, the 4+4E only its best four
        cities) says so here. Used by the run check and the optimiser alike."""
        return revenue

    def most_stops(self, game: Game, corp: str, train_ids: tuple[str, ...]) -> int:
        """The most stops a route of ``train_ids`` may have, which bounds the optimiser's
        listing of routes; :meth:`run_problem` still decides each route. 1830: the length
        (:func:`pbem.engine.heading.run_length`)."""
        from pbem.engine import heading

        return heading.run_length(game.title, train_ids)

    def upgrade_problem(self, game: Game, coord: str, new: TileData, rotation: int) -> str | None:
        """Why tile ``new`` at ``rotation`` may not replace what shows on ``coord``, or None:
        1830 rules 6.2, :func:`pbem.engine.upgrades.upgrade_problem` (colour, label, cities and
        towns, every old path kept; the title's ``tile_hexes`` and ``upgrade_chart``). A
        title with upgrades of its own (1825's town-to-city upgrades, its striped tiles)
        decides here; :meth:`lay_problem` adds reasons on top of this one."""
        from pbem.engine import upgrades

        return upgrades.upgrade_problem(game, coord, new, rotation)

    def lay_candidates(self, game: Game, coord: str, supply: Mapping[str, list[str]]) -> list[str]:
        """The tiles worth checking for a lay on ``coord`` when the legal lays are listed
        (:func:`pbem.engine.lays.legal_lays`), from ``supply`` (colour -> the tiles left of
        the colours the phase allows); each is then checked by the one lay check. 1830: those
        one colour above the tile showing; none on a hex of another colour (red, gray,
        blue). A title with upgrades across colours (1825's 119 to 51, its tile 200 on a
        sepia hex) adds them here."""
        from pbem.engine import track

        old = track.placed(game, coord).tile
        if old.color not in track.COLOR_ORDER[:-1]:
            return []
        return list(supply.get(track.COLOR_ORDER[track.COLOR_ORDER.index(old.color) + 1], []))

    def spending_power(self, game: Game, corp: str) -> int:
        """The most ``corp`` may spend now on terrain and station tokens (money): 1830, its
        treasury. A title that lends (1825: a company in receivership may spend beyond its
        treasury, the bank's loan repaid from its run) says more; the treasury then goes
        below nothing until the title settles it."""
        return game.state.corporations[corp].cash

    def spend_problem(self, game: Game, corp: str, cost: int, action: Action) -> str | None:
        """Why ``corp`` may not spend ``cost`` (money, within :meth:`spending_power`) on
        ``action`` (a ``LayTile``'s terrain or a ``PlaceToken``'s price), or None; asked by
        the track and token steps, so an order, the report's "you may" and a refusal agree.
        1830: None (it spends its treasury alone). 1825: what a company in receivership spends
        on credit must be repaid by the run its trains could make after it."""
        return None

    def lays_without_reach(self, game: Game, corp: str) -> frozenset[str]:
        """The hexes ``corp`` may lay a tile on though its track does not reach them (every
        side of such a hex counts as reached). 1830: none; 1825: a minor's home hex while its
        home token waits for a tile with a city there."""
        return frozenset()

    def place_home_token(self, game: Game, corp: str) -> None:
        """Put ``corp``'s home token on the map when its turn begins (and after each tile it
        lays, where the title defers the token). 1830 rules 6.1: in its home city as it first
        operates (:func:`pbem.engine.steps.operating.place_home_token`)."""
        from pbem.engine.steps.operating.tokens import place_home_token

        place_home_token(game, corp)

    def counts_as_upgrade(self, game: Game, coord: str) -> bool:
        """Whether a tile laid on ``coord`` now counts as an upgrade among the turn's tile
        lays (``tile_lays``: the lays that may or may not be upgrades). 1830: whenever a tile
        lies there already (the hex is not a white one); 1825 counts a tile on a printed
        yellow hex as a new tile."""
        from pbem.engine import track

        return track.placed(game, coord).tile.color != "white"

    def city_slots(self, game: Game, coord: str, city: int, printed: int) -> int:
        """How many station slots city ``city`` of the tile on ``coord`` has, given the
        tile's ``printed`` slots (1830: the printed slots; a title may add slots for tokens
        of its own that take none, 1870's destination tokens)."""
        return printed

    def kept_slots(self, game: Game, coord: str, city: int) -> tuple[str, ...]:
        """Corporations for which the title's own rule keeps a slot of city ``city`` on
        ``coord`` now, beyond the homes :func:`pbem.engine.track.reserved_home` holds: shown
        on the map and in the track list like a held home (lower case); the rule itself is
        the title's :meth:`token_problem`, which this only displays (1830: none; Jerkich's
        1870 Kansas City slot kept for the Katy)."""
        return ()

    def graph_key(self, game: Game) -> Hashable:
        """What of the title's own state the track network (blocking, slots) and the best
        run depend on beyond tiles, tokens, trains and privates: part of the key their
        caches are kept under, so it must change whenever such a fact does (1830: nothing,
        ``()``)."""
        return ()

    def lay_problem(self, game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
        """A title's extra reason a tile may not go there (1830: none)."""
        return None

    def token_problem(self, game: Game, corp: str, coord: str, city: int) -> str | None:
        """A title's extra reason ``corp`` may not place a station token in city ``city`` of
        ``coord`` now, or None (Lorenz's 1825: Dover is kept for the token of the company
        holding C&W's power). Asked by the one token check
        (:func:`pbem.engine.track.token_problem`) after the slots and before the reach, so
        the legal moves, the report and the refusals agree; a slot kept this way does not
        block routes through the city. 1830: none."""
        return None

    # -- the operating round (1830 rules 6) --------------------------------------------------

    def operating_order(self, game: Game) -> list[str]:
        """The floated corporations in the order they operate, fixed when an operating round
        starts (and when a train purchase changes prices, 1830: never mid-round). 1830 rules
        6: highest share price first; on one price, the rightmost cell first, then the higher
        row, then the one that arrived on the cell first. A title with a fixed order (1825:
        majors by par, ties by formation order, then minors) overrides this."""
        state = game.state

        def key(sym: str) -> tuple[int, int, int, int, str]:
            coord = state.corporations[sym].price
            assert coord is not None
            return (-market.price_at(game.title, coord), -coord[1], coord[0],
                    state.market[coord].index(sym), sym)

        floated = [s for s, c in state.corporations.items() if c.floated and not c.closed]
        return sorted(floated, key=key)

    def homes(self, game: Game, corp: str) -> tuple[CityRef, ...]:
        """The cities ``corp``'s home tokens go in, each keeping a slot for it until the
        corporation places its first token (1830 rules 6.1: its one home, the charter's
        ``home`` and ``home_city``, followed through upgrades to the city that took over its
        track). A title with companies of several homes names them all
        (1825: the LNWR of Units 1 and 2 at Wolverton and Crewe). A home that names no city
        on a hex of several is held on the hex instead (:func:`pbem.engine.track.held_on_hex`)."""
        from pbem.engine import track

        data = game.title.corporation(corp)
        if not data.home or track.hex_home(game, corp) is not None:
            return ()

        city = data.home_city if data.home_city is not None else 0
        return (CityRef(data.home, track.printed_city_now(game, data.home, city)),)

    def station_tokens(self, game: Game, corp: str) -> tuple[list[int], int]:
        """``(the prices of corp's station tokens in order, how many of them are placed)``
        (1830: the charter's tokens; every token of ``corp`` on the map is one of them)."""
        placed = sum(1 for corps in game.state.tokens.values() if corp in corps)
        return list(game.title.corporation(corp).tokens), placed

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        """The steps of a corporation's turn, in order (1830: a lifted token placed again,
        track, token, run, dividend, a discard over the limit, trains, private companies)."""
        from pbem.engine.steps.operating import CORE_STEPS

        return CORE_STEPS

    # -- the map's extension points: gated lays (1829) -----------------------------------------

    def lay_gate(self, game: Game, corp: str) -> frozenset[str] | None:
        """The hexes ``corp`` may lay or upgrade tiles on now, or None for no restriction
        (1830). The base answer is the title data's ``gating_pieces``
        (:func:`pbem.engine.pieces.allowed_hexes`: hexes near the corporation's survey
        parties); the one lay check refuses other hexes and the legal-lay generator lists
        only these, keyed on the set returned (so it must depend only on the state)."""
        from pbem.engine.pieces import allowed_hexes

        return allowed_hexes(game, corp)

    # -- receivership (issue 11: an extension point 1825 needs) ---------------------------

    def receivership(self) -> ReceivershipPolicy | None:
        """The rules that run a corporation with no president
        (:class:`~pbem.engine.receivership.ReceivershipPolicy`), or None. With a policy, a
        president may sell the president's certificate to the bank pool when no other player
        can take it over, and the receiver then takes the corporation's operating turns
        (1825: a company whose Director's certificate is in the pool). 1830: None — the
        president's certificate never lies in the pool."""
        return None
