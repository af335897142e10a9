"""1825's operating rules, by concern (mixed into :mod:`pbem.titles.g1825.hooks`'s classes,
cooperative ``super()``): the hooks of the core they answer, each a thin call into the module
that holds the rule.

* track (:mod:`pbem.titles.g1825.track`): the upgrade rules (and the tiles the legal-lay
  list tries), a printed yellow hex taking a new tile, the two tiles of a turn on hexes not
  adjacent, track pointing at a sepia hex only along its printed track, an upgraded station
  in reach of a train; the home tokens: placed as each operating round begins (a Director choosing the city
  where the home hex has several), a minor's once its home hex has a tile with a city (the
  minor may lay that tile without reaching the hex);
* routes (:mod:`pbem.titles.g1825.routes`): what each train visits and earns, London's one
  stop a hex, double-heading;
* dividends (:mod:`pbem.titles.g1825.dividends`): the price moves by the dividend's size;
  no share held by the bank (IPO or pool) pays the company;
* trains (:mod:`pbem.titles.g1825.trains`): the turn's steps (the lease, the credit of a
  company in receivership, 1825's train purchases), the player acting for a company in
  receivership, the receiver; the credit only as far as the run can repay it
  (:mod:`pbem.titles.g1825.credit`).

Source: 18xx.games ``lib/engine/game/g_1825/`` (``game.rb``, ``step/*.rb``,
``round/operating.rb``); issue 12.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from pbem.engine import shares
from pbem.engine import track as core_track
from pbem.engine.ids import TrainId
from pbem.engine.route_rules import RouteRules
from pbem.engine.sequence import RoundSequence
from pbem.engine.steps.operating.dividend_rules import DividendRules
from pbem.engine.stock_rules import PriceMove
from pbem.engine.track_rules import TrackRules
from pbem.engine.steps.operating import (
    DividendStep,
    Discard,
    OpStep,
    PendingToken,
    Route,
    Token,
    Track,
    current_corp,
    op_state,
)
from pbem.engine.values import CityRef, Owner, Vertex
from pbem.errors import IllegalOrderError
from pbem.titles.g1825 import credit, dividends, routes, track
from pbem.titles.g1825 import trains as trains1825

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.engine.board import TileData
    from pbem.engine.game import Game


def home_deferred(game: Game, corp: str) -> bool:
    """Whether ``corp`` is a minor whose home token waits for a tile with a city and track
    on its home hex (18xx.games ``can_place_home_token?``): none of its tokens is placed or
    waiting to be, and the home hex shows no such tile."""
    data = game.title.corporation(corp)
    if data.kind != "minor" or _home_placed(game, corp):
        return False
    tile = core_track.placed(game, data.home).tile
    return not (tile.paths and tile.cities)


def _home_placed(game: Game, corp: str) -> bool:
    state = game.state
    return (any(corp in corps for corps in state.tokens.values())
            or any(entry.corporation == corp for entry in state.pending_tokens))


def _place_other_homes(game: Game, corp: str) -> None:
    """A company with two homes (the LNWR of Units 1+2 at T16 and Q11, the GWR with R2 at V14
    and Y7) puts a token on each with its first: in the first city of each further home hex
    that has one, each the next of its tokens (both free; 18xx.games ``place_home_token``
    with an array of coordinates; ``parts/corporations.yaml``). A home already holding its
    token, or with no free slot, is passed over."""
    from pbem.engine.events import TokenPlaced
    from pbem.titles.g1825.start import facts

    found = facts(game).corporation_facts.get(corp)
    for coord in found.homes[1:] if found is not None else ():
        if coord not in game.title.board.hexes or not core_track.placed(game, coord).tile.cities:
            continue
        key = core_track.city_key(coord, 0)
        if corp in game.state.tokens.get(key, []) or core_track.free_slots(game, coord, 0, corp) <= 0:
            continue
        game.state.tokens.setdefault(key, []).append(corp)
        game.event(TokenPlaced(corp, coord, home=True))


class Track1825(Track):
    """The core's track step, given by the player acting for a company in receivership;
    after each tile a minor's deferred home token goes down once its home hex has a tile
    with a city (18xx.games ``lay_tile_action``)."""

    @classmethod
    def actor(cls, game: Game) -> str:
        return trains1825.acting_player(game, current_corp(game))

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        super().process(game, player, action)
        corp = current_corp(game)
        if not _home_placed(game, corp):
            game.hooks.track.place_home_token(game, corp)


class Token1825(Token):
    """The core's token step, given by the player acting for a company in receivership."""

    @classmethod
    def actor(cls, game: Game) -> str:
        return trains1825.acting_player(game, current_corp(game))


class Route1825(Route):
    """The core's run, given by the player acting for a company in receivership (a minor in
    silent receivership runs nothing: the receiver's); a company that had no train to run and
    bought one in its turn does not run it until its next turn (the run comes before the
    purchases, 18xx.games)."""

    @classmethod
    def offers(cls, game: Game) -> bool:
        return op_state(game).trains_bought == 0 and super().offers(game)

    @classmethod
    def process(cls, game: Game, player: str, action: Action) -> None:
        """The core's run; for a company in receivership its revenue must cover the turn's
        loan (:func:`pbem.titles.g1825.trains.loan_problem`)."""
        corp = current_corp(game)
        super().process(game, player, action)
        problem = trains1825.loan_problem(game, corp, op_state(game).revenue or 0)
        if problem:
            raise IllegalOrderError(problem)
        loan = trains1825.loan_of(game, corp)
        if loan:
            game.event(trains1825.LoanRepaid(corp, loan))

    @classmethod
    def actor(cls, game: Game) -> str:
        return trains1825.acting_player(game, current_corp(game))


class OperatingTurn1825(RoundSequence):
    """1825's operating turn: its steps, and the home tokens put down as a round begins."""

    def new_operating_round(self, game: Game) -> None:
        """Every company of the round puts down its home token as the round begins (18xx.games
        ``HOME_TOKEN_TIMING = :operating_round``), where it can."""
        super().new_operating_round(game)
        op = game.state.round.operating
        for corp in op.order if op is not None else ():
            game.hooks.track.place_home_token(game, corp)

    def operating_steps(self) -> tuple[type[OpStep], ...]:
        """A token waiting for its city, a lease (receivership), track and a token in either
        order (:class:`~pbem.titles.g1825.track_and_token.TrackAndToken1825`), a lease, the
        run, the dividend, the lease returned, a discard over the limit, trains (companies
        never buy privates in 1825)."""
        from pbem.titles.g1825.track_and_token import TrackAndToken1825  # it builds on this module's steps

        return (PendingToken, trains1825.LeaseTrain, TrackAndToken1825, trains1825.LeaseBeforeRun, Route1825,
                DividendStep, trains1825.ReturnLease, Discard, trains1825.BuyTrain1825)


class TrackAndTokens1825(TrackRules):
    """1825's homes, upgrades, lays, and the credit of a company in receivership."""

    def homes(self, game: Game, corp: str) -> tuple[CityRef, ...]:
        """Its charter's home and each further home of the units in play (the LNWR's Crewe
        Q11 with Units 1 and 2, the GWR's Exeter Y7 with R2; ``parts/corporations.yaml``),
        each keeping a slot until the company first operates (18xx.games reserves every
        coordinate of a company's home list)."""
        from pbem.titles.g1825.start import facts

        found = facts(game).corporation_facts.get(corp)
        further = tuple(CityRef(coord, 0) for coord in (found.homes[1:] if found is not None else ())
                        if coord in game.title.board.hexes)
        return super().homes(game, corp) + further

    def upgrade_problem(self, game: Game, coord: str, new: TileData, rotation: int) -> str | None:
        """1825's upgrades (:func:`pbem.titles.g1825.track.upgrade_problem`)."""
        return track.upgrade_problem(game, coord, new, rotation)

    def lay_candidates(self, game: Game, coord: str, supply: Mapping[str, list[str]]) -> list[str]:
        """The ordinary candidates, the extra upgrades and tile 200 on its printed hexes
        (:func:`pbem.titles.g1825.track.lay_candidates`)."""
        return track.lay_candidates(game, coord, supply, super().lay_candidates(game, coord, supply))

    def counts_as_upgrade(self, game: Game, coord: str) -> bool:
        """A printed yellow hex takes a new tile (:func:`pbem.titles.g1825.track.counts_as_upgrade`)."""
        return track.counts_as_upgrade(game, coord)

    def lay_problem(self, game: Game, corp: str, coord: str, tile: str, rotation: int) -> str | None:
        """No track pointing at a sepia hex but where its printed track meets the side; the
        tiles of one turn on hexes not adjacent; an upgraded station in reach of a train of
        ``corp`` (not for a minor's first tile on its home hex)."""
        problem = super().lay_problem(game, corp, coord, tile, rotation) or track.sepia_problem(
            game, coord, game.tiles[tile], rotation)
        if problem:
            return problem
        op = game.state.round.operating
        if op is not None and op.index < len(op.order) and current_corp(game) == corp:
            problem = track.adjacent_problem(game, coord)
            if problem:
                return problem
        if home_deferred(game, corp) and coord == game.title.corporation(corp).home:
            return None
        return track.reach_problem(game, corp, coord, game.tiles[tile], rotation)

    def spending_power(self, game: Game, corp: str) -> int:
        """A company in receivership with a train may spend on credit
        (:func:`pbem.titles.g1825.trains.spending_power`)."""
        return max(super().spending_power(game, corp), trains1825.spending_power(game, corp))

    def spend_problem(self, game: Game, corp: str, cost: int, action: Action) -> str | None:
        """What a company in receivership spends on credit, the run its trains could make
        after it must repay (:func:`pbem.titles.g1825.credit.spend_problem`)."""
        return super().spend_problem(game, corp, cost, action) or credit.spend_problem(game, corp, cost, action)

    def lays_without_reach(self, game: Game, corp: str) -> frozenset[str]:
        """A minor whose home token waits may lay on its home hex."""
        found = super().lays_without_reach(game, corp)
        if home_deferred(game, corp):
            found = found | {game.title.corporation(corp).home}
        return found

    def place_home_token(self, game: Game, corp: str) -> None:
        """A minor's waits for a tile with a city on its home hex; otherwise the core's home
        token (on a home hex of several cities with none named and room in more than one,
        the Director chooses the city, ``TOKEN <hex>.<city>``)."""
        if _home_placed(game, corp) or home_deferred(game, corp):
            return
        super().place_home_token(game, corp)
        _place_other_homes(game, corp)


class Routes1825(RouteRules):
    """1825's trains: U3, 3T/4T, 2+2 and 4+4E."""

    def run_problem(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex]) -> str | None:
        """1825's trains (:func:`pbem.titles.g1825.routes.run_problem`)."""
        return routes.run_problem(game, corp, train_ids, stops)

    def run_revenue(self, game: Game, corp: str, train_ids: tuple[TrainId, ...], stops: list[Vertex],
                    revenue: int) -> int:
        """1825's trains (:func:`pbem.titles.g1825.routes.run_revenue`)."""
        return routes.run_revenue(game, corp, train_ids, stops, super().run_revenue(game, corp, train_ids, stops, revenue))

    def most_stops(self, game: Game, corp: str, train_ids: tuple[TrainId, ...]) -> int:
        """1825's trains (:func:`pbem.titles.g1825.routes.most_stops`)."""
        return routes.most_stops(game, corp, train_ids)


class Dividends1825(DividendRules):
    """1825's dividends: the price moves by the dividend's size; no share pays the company."""

    def dividend_moves(self, game: Game, corp: str, revenue: int, paid: int) -> tuple[PriceMove, ...]:
        """By the dividend's size against the share price
        (:func:`pbem.titles.g1825.dividends.price_moves`)."""
        return dividends.price_moves(paid, shares.current_price(game.state, game.title, corp))

    def pays_the_corporation(self, holder: Owner) -> bool:
        """No share pays the company: neither the IPO's nor the pool's (18xx.games 1825:
        ``corporation_dividends`` is nothing)."""
        return False
