"""1870 (Mayfair rules as 18xx.games plays them): the parts of its rules that differ from
1830's, one class a concern, put together as :data:`HOOKS`.

* Stock market: a cell marked ``i`` may be entered from its left only by a sale of two or
  more shares at once (so the right edge is the last cell before the ``i`` cells); moving
  up from the top row moves right and down instead.
* Dividends: payout, half (the corporation keeps half, rounded down to a multiple of the
  number of shares) or withhold; treasury (IPO) shares pay the corporation, pool shares pay
  no one; the price moves right on a full payout, left when nothing is paid, not on half.
* Stock round: its own step (:mod:`.stock`) adds redemption and reissue of shares and price
  protection; a sale's price drop is queued for the president's protection (:mod:`.protection`)
  in stock and operating rounds alike; the title's state is :class:`~.state.State1870`.
* Destinations: a run whose first or last stop is the corporation's destination counts that
  stop twice, until the corporation has placed its destination token there.
* Small cities (the variant ``small_cities``, :mod:`.small_cities`): towns worth $10 more,
  counted only where the train's length has room; two 2-trains may run as one 3-train.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Hashable

from pbem.engine.abilities import AssignHexes
from pbem.engine import market
from pbem.engine.hooks import TitleHooks
from pbem.engine.ids import TrainId
from pbem.engine.route_rules import RouteRules
from pbem.engine.sequence import RoundSequence
from pbem.engine.steps.operating.dividend_rules import DividendRules
from pbem.engine.stock_rules import Coord, PriceMove, StockRules
from pbem.engine.track_rules import TrackRules
from pbem.engine.state import IPO, Owner, RoundKind, ShareSale, TitleState
from pbem.engine.steps.stock import BuySellParShares, pool_presidency
from pbem.engine.values import CityRef, DividendChoice, Vertex
from pbem.titles.g1870.settings import settings1870
from pbem.titles.g1870 import atsf, gmo, historical, illinois, katy, mkt_private, ohio, protection, rivers, small_cities
from pbem.titles.g1870.state import State1870, state1870
from pbem.titles.g1870.stock import Stock1870

if TYPE_CHECKING:
    from pbem.engine.game import Game
    from pbem.engine.steps.operating import OpStep
    from pbem.engine.title import TitleData


class Sequence1870(RoundSequence):
    """1870's state, stock step, operating steps, and what a stock round's start and a
    closing corporation do to its state."""

    def new_title_state(self) -> TitleState:
        return State1870()

    def stock_step(self) -> type[BuySellParShares]:
        return Stock1870

    def new_stock_round(self, game: Game) -> None:
        """Each stock round's redemption budgets start afresh."""
        mine = state1870(game.state)
        mine.redeem_cash = {}
        mine.protecting = False
        mine.protector = None

    def corporation_closed(self, game: Game, sym: str) -> None:
        """A closed corporation's queued sales, redeemed shares and reissue are gone; with no
        sale left to protect, no one is deciding; a connection run owed to it is dropped."""
        mine = state1870(game.state)
        mine.sell_queue = [sale for sale in mine.sell_queue if sale.corporation != sym]
        mine.redeemed = {key for key in mine.redeemed if key[0] != sym}
        mine.reissued.discard(sym)
        if game.state.round.stock is not None and not mine.sell_queue:
            mine.protecting = False
        if game.state.round.operating is not None:
            mine.connections = [c for c in mine.connections if c != sym]

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        """Connection runs first, 1830's steps, then price protection (see
        :func:`pbem.titles.g1870.operating.operating_steps`)."""
        from pbem.titles.g1870.operating import operating_steps

        return operating_steps()


class StockRules1870(StockRules):
    """1870's launches (the Historical Order Start), sales (protection queued), and its
    market: the ledge of ``i`` cells, the top row."""

    def launch_problem(self, game: Game, sym: str) -> str | None:
        """With the Historical Order Start, no corporation starts before those ahead of it in
        the order (:func:`pbem.titles.g1870.historical.launch_problem`)."""
        return historical.launch_problem(game, sym) or super().launch_problem(game, sym)

    def after_sale(self, game: Game, sale: ShareSale) -> None:
        """In a stock or operating round the drop waits for the president's price protection
        (1870 rules; :mod:`pbem.titles.g1870.protection`)."""
        if game.state.round.kind not in (RoundKind.STOCK, RoundKind.OPERATING):
            super().after_sale(game, sale)
            return
        protection.queue_sale(game, sale)
        pool_presidency(game, sale.corporation)

    def _ledge(self, title: TitleData, coord: Coord) -> bool:
        here = market.cell(title, coord)
        nxt = market.cell(title, (coord[0], coord[1] + 1))
        return nxt is None or ("i" in nxt.zone and (here is None or "i" not in here.zone))

    def up(self, title: TitleData, coord: Coord) -> Coord:
        if coord[0] > 0:
            return market.up(title, coord)
        if market.cell(title, (0, coord[1] + 1)) is None:
            return coord
        return market.down(title, self.right(title, coord))

    def right(self, title: TitleData, coord: Coord) -> Coord:
        if self._ledge(title, coord):
            return self.up(title, coord)
        return (coord[0], coord[1] + 1)


class Dividends1870(DividendRules):
    """Payout, half or withhold; treasury shares pay the corporation, pool shares no one; no
    move on half."""

    def split(self, revenue: int, choice: DividendChoice, shares: int) -> tuple[int, float]:
        if choice == DividendChoice.HALF:
            kept = (revenue // 2 // shares) * shares
            return kept, (revenue - kept) / shares
        return super().split(revenue, choice, shares)

    def pays_the_corporation(self, holder: Owner) -> bool:
        return holder == IPO

    def dividend_moves(self, game: Game, corp: str, revenue: int, paid: int) -> tuple[PriceMove, ...]:
        """Left when nothing was paid, right when all was, none for a half payout (1870)."""
        if paid == 0:
            return (PriceMove.LEFT,)
        return (PriceMove.RIGHT,) if paid == revenue else ()


class Track1870(TrackRules):
    """1870's lays and tokens: destination tokens, the Historical Order Start's reserved
    tiles and rivers, the IC's and the Katy's homes."""

    def lays_without_reach(self, game: Game, corp: str) -> frozenset[str]:
        """The M-K-T private's first tile, on Junction City (:mod:`.mkt_private`); the Katy's
        while its home waits for a tile there (:func:`.katy.lays_without_reach`)."""
        return (super().lays_without_reach(game, corp) | mkt_private.lays_without_reach(game, corp)
                | katy.lays_without_reach(game, corp))

    def lay_problem(self, game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
        """While a player owns the Mississippi River Bridge Company, no tile in a river hex
        may join the two banks (extras.yaml, mississippi): a tile in a hex with a city or town
        reaches only edges on the stop's bank; elsewhere each path keeps to one bank. In a hex
        whose towns stand on different banks (``town_banks``: the Historical Order Start's
        A16), a town's track may reach the other bank's edge only where no track goes on beyond
        it (:func:`pbem.titles.g1870.rivers.split_stops_problem`, and
        :func:`~pbem.titles.g1870.rivers.continuing_problem` for the hexes beside it). With the
        Historical Order Start, the last #5 is held for the MP until it has operated
        (:func:`pbem.titles.g1870.historical.reserved_tile_problem`), the Ohio is closed at
        F19/E18 and in E20 (:func:`pbem.titles.g1870.ohio.lay_problem`) and the GM&O builds
        nothing west of the Mississippi before St. Louis (:func:`pbem.titles.g1870.gmo.west_problem`);
        the IC's rules (:func:`pbem.titles.g1870.illinois.lay_problem`)."""
        held = (historical.reserved_tile_problem(game, corp, tile)
                or illinois.lay_problem(game, corp, coord, tile, rotation))
        if held is not None:
            return held
        banned = ohio.lay_problem(game, corp, coord, tile, rotation) or gmo.west_problem(game, corp, coord, tile, rotation)
        if banned is not None:
            return banned
        private = mkt_private.lay_problem(game, corp, coord, tile, rotation)
        if private is not None:
            return private
        river = game.title.extras.get("mississippi") or {}
        bank = (river.get("hexes") or {}).get(coord)
        company = game.state.companies.get(str(river.get("blocked_by", "MRBC")))
        if company is None or company.closed or company.owner is None or not company.owner.is_player:
            return None
        beside = rivers.continuing_problem(game, coord, tile, rotation)
        if bank is None or beside is not None:
            return beside
        if bank.get("town_banks"):
            split = rivers.split_stops_problem(game, coord, tile, rotation)
            return None if split is None else f"{split} while {company.sym} is owned by a player"
        west, east = set(bank["west"]), set(bank["east"])
        data = game.tiles[tile]
        exits = data.exits(rotation)
        stop_bank = bank.get("stops_on")
        if stop_bank and (data.cities or data.towns):
            allowed = west if stop_bank == "west" else east
            if not exits <= allowed:
                return (f"#{tile} at rotation {rotation} would cross the Mississippi on {coord} "
                        f"while {company.sym} is owned by a player")
            return None
        for a, b in data.paths_at(rotation):
            edges = {int(e[1:]) for e in (a, b) if e.startswith("e")}
            if not (edges <= west or edges <= east):
                return (f"#{tile} at rotation {rotation} would cross the Mississippi on {coord} "
                        f"while {company.sym} is owned by a player")
        return None

    def station_tokens(self, game: Game, corp: str) -> tuple[list[int], int]:
        """A destination token kept on the charter is a spare token, the last, at the
        ``destination_token_value``; one placed on the map is not one of the charter's
        (1870 game.yaml, destinations)."""
        costs, placed = super().station_tokens(game, corp)
        mine = state1870(game.state)
        if corp in mine.destination_on_charter:
            costs.append(settings1870(game.title).destination_token_value)
        elif corp in mine.destinations_reached or illinois.holds_base(game, corp):
            placed -= 1
        return costs, placed

    def city_slots(self, game: Game, coord: str, city: int, printed: int) -> int:
        """A destination token placed on the map takes no slot: the city has an extra slot
        for each (1870 game.yaml). With ``destination_token_takes_a_slot`` (the "station
        marker wars" option) one on a city (not an off-board area) takes a slot like any
        token: a free one not held for a home, else an extra slot made for it, which a later
        upgrade with more slots absorbs."""
        from pbem.engine import track
        from pbem.titles.g1870.connections import destination_token_at

        here = track.tokens_in(game, coord, city)
        if not here or not state1870(game.state).destinations_reached:
            return printed
        tokens = [corp for corp in here if destination_token_at(game, corp, coord)]
        if not tokens:
            return printed
        if (not settings1870(game.title).destination_token_takes_a_slot
                or track.placed(game, coord).tile.offboard is not None):
            return printed + len(tokens)
        held = len(track.reserved_home(game, coord, city))
        return max(printed, len(here) + held)

    def graph_key(self, game: Game) -> Hashable:
        """The destinations reached and the tokens kept on the charter: they change a city's
        slots (:meth:`city_slots`) and a run's revenue (the destination counted twice); whether
        the Ohio is closed; and whether the M-K-T private lays now, which changes the Katy's
        legal lays."""
        mine = state1870(game.state)
        return (tuple(mine.destinations_reached), tuple(mine.destination_on_charter), ohio.closed(game),
                illinois.graph_key(game), mkt_private.active(game))

    def homes(self, game: Game, corp: str) -> tuple[CityRef, ...]:
        """With the Historical Order Start, the IC's Chicago too (:mod:`.illinois`)."""
        return super().homes(game, corp) + illinois.homes(game, corp)

    def place_home_token(self, game: Game, corp: str) -> None:
        """The home token (the Katy's on Junction City with the M-K-T private's rules,
        :func:`.katy.place_home_token`); the IC's Chicago token with it (:func:`.illinois.place_chicago`)."""
        if not katy.place_home_token(game, corp):
            super().place_home_token(game, corp)
        illinois.place_chicago(game, corp)

    def token_problem(self, game: Game, corp: str, coord: str, city: int) -> str | None:
        """The IC's $40 token (:func:`.illinois.token_problem`); Kansas City's slot kept for the
        Katy (:func:`.katy.token_problem`)."""
        return (super().token_problem(game, corp, coord, city) or illinois.token_problem(game, corp, coord, city)
                or katy.token_problem(game, corp, coord, city))

    def kept_slots(self, game: Game, coord: str, city: int) -> tuple[str, ...]:
        """Kansas City's slot kept for the Katy, shown held on the map (:func:`.katy.kept_slots`)."""
        return super().kept_slots(game, coord, city) + katy.kept_slots(game, coord, city)


class Routes1870(RouteRules):
    """1870's runs: small cities, the rivers' routes, destination and token bonuses."""

    def run_problem(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex]) -> str | None:
        """1830's length rule; with small cities, only the cities and off-board areas must
        fit in the length (towns counted where there is room), and only two 2-trains run as
        one (:mod:`.small_cities`)."""
        if not small_cities.active(game):
            return super().run_problem(game, corp, train_ids, stops)
        from pbem.engine import heading

        types = [t.kind for t in train_ids]
        problem = small_cities.heading_problem(types)
        if problem:
            return problem
        name = "+".join(types) + (" trains run as one" if len(types) > 1 else " train")
        return small_cities.length_problem(heading.run_length(game.title, train_ids), stops, name)

    def run_revenue(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex],
                    revenue: int) -> int:
        """With small cities: the towns counted earn $10 more each, those left out nothing."""
        if not small_cities.active(game):
            return revenue
        from pbem.engine import heading

        length = heading.run_length(game.title, train_ids)
        return (revenue - small_cities.skipped_value(game, length, stops)
                + small_cities.counted_bonus(game, length, stops))

    def most_stops(self, game: Game, corp: str, train_ids: tuple[TrainId, ...]) -> int:
        """With small cities a route may pass any town uncounted: the length plus the towns
        the corporation reaches."""
        length = super().most_stops(game, corp, train_ids)
        if not small_cities.active(game):
            return length
        return small_cities.most_stops(game, corp, length)

    def route_problem(self, game: Game, corp: str, stops: list[Vertex]) -> str | None:
        """With the Historical Order Start, while the Ohio is closed a route entering E20
        dead-ends in the town on its side (:func:`pbem.titles.g1870.ohio.route_problem`); the IC
        west of the Mississippi (:func:`pbem.titles.g1870.illinois.route_problem`)."""
        return ohio.route_problem(game, stops) or illinois.route_problem(game, corp, stops)

    def extra_revenue(self, game: Game, corp: str, stops: list[Vertex]) -> int:
        """The cattle and port token bonuses plus the destination doubling (1870); with the
        Historical Order Start, the AT&SF's Chicago doubled too (:func:`.atsf.double_bonus`)."""
        return (self._token_bonus(game, corp, stops) + self._destination_bonus(game, corp, stops)
                + atsf.double_bonus(game, corp, stops))

    def _token_bonus(self, game: Game, corp: str, stops: list[Vertex]) -> int:
        """The cattle and port tokens (companies.yaml, assign_hexes bonus): a run stopping in
        the token's city earns the bonus (the owner's, or the others' for an open port)."""
        total = 0
        for company, placed in game.state.assignments.items():
            if not any(v.coord == placed.hex for v in stops):
                continue
            ability = game.title.company(company).ability(AssignHexes)
            if ability is None:
                continue
            kind = ability.tokens.get(placed.token)
            bonus = (kind.bonus if kind is not None else None) if ability.tokens else ability.bonus
            if bonus is not None:
                total += bonus.owner if placed.corporation == corp else bonus.others
        return total

    def _destination_bonus(self, game: Game, corp: str, stops: list[Vertex]) -> int:
        from pbem.engine import track
        from pbem.titles.g1870.connections import destination

        target = destination(game.title, corp)
        mine = state1870(game.state)
        if (not target or len(stops) < 2 or corp not in mine.destinations_reached
                or corp in mine.destination_on_charter):
            return 0
        for vertex in (stops[0], stops[-1]):
            if vertex.coord == target:
                return track.stop_revenue(game, vertex)
        return 0


HOOKS = TitleHooks(sequence=Sequence1870(), stock=StockRules1870(), dividends=Dividends1870(), track=Track1870(),
                   routes=Routes1870())
"""1870's hooks: each part that differs from 1830's."""
