"""1870's record actions of 18xx.games as our orders (the importer's extension point,
:mod:`pbem.importers.translation`).

* a corporation buying its own share is a redemption (1870 rules: share redemption), from
  the bank pool whenever the pool holds one, else from the player holding the named share;
* a corporation selling its own shares is a reissue;
* ``choose`` Map or Charter is where the destination token goes;
* ``destination_connection``, the platform's note of the connection runs now due, is no
  order (our engine finds them), or the GM ruling that grants one ours does not find.

The export writes each of these back; the platform has no Dixon rules (``dixon``), no
Historical Order Start and no small cities (nor ``no_private_trades``): a game with one of
them is not exported. A private sold between players in phases 2 and 3 is the platform's
``buy_company`` by a player, our ``BUY <private> <price>``; the platform also offers it to a
player at the certificate limit, whom our engine passes
(:meth:`RecordTranslation.asks_in_stock_round`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Hashable, Sequence

from pbem.engine.abilities import BuyableInPhase1
from pbem.engine import shares
from pbem.engine.actions import BuyShares
from pbem.engine.ids import ShareId
from pbem.engine.state import IPO, Owner, POOL, RoundKind, ShareSale
from pbem.importers.translation import NO_ORDER, NoOrder, RecordTranslation
from pbem.ruleset.files import variant_overlays
from pbem.ruleset.loader import load_title
from pbem.titles.g1870.actions import DestinationToken, GrantConnection, Redeem, Reissue
from pbem.titles.g1870.events import DestinationReached, NoConnectionRun
from pbem.titles.g1870.state import state1870

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.engine.events import Event
    from pbem.engine.game import Game
    from pbem.exporters.e18xx import Exporter
    from pbem.importers.e18xx import Renderer


class Translation1870(RecordTranslation):
    """1870's own record actions (see the module docstring)."""

    platform_lacks = frozenset({"no_private_trades", "dixon", "historical_order_start", "small_cities",
                                "emergency_train_at_face_value", "token_city_chosen_by_owner"})
    whole_turn_orders = (Redeem, Reissue)

    def asks_at_turn_end(self, game: Game, corp: str) -> bool:
        """Also, in phase 1, MP and SSW while they could pay MRBC's least price, whoever
        holds MRBC and even once it has closed (18xx.games ``g_1870/game.rb``
        ``purchasable_companies`` names the river company to them in phase 1)."""
        from pbem.engine.steps.operating.privates import price_range

        if game.state.phase == game.title.phases[0].name:
            for company in game.title.companies:
                early = company.ability(BuyableInPhase1)
                if early is not None and corp in early.corporations \
                        and price_range(game, company.sym)[0] <= game.state.corporations[corp].cash:
                    return True
        return super().asks_at_turn_end(game, corp)

    def export(self, exporter: Exporter, seat: str, action: Action) -> list[dict[str, Any]] | None:
        """1870's own orders as record actions: a redemption (the corporation buys the share
        the pool or the named player received first, the one the platform offers it), a reissue (the corporation sells its redeemed
        shares), the destination token's place (``choose``) and a GM's granted connection
        (``destination_connection`` naming the corporation)."""
        if isinstance(action, Redeem):
            holder = POOL if action.source == "pool" else Owner.player(action.source)
            ids = exporter.share_ids(action.corporation, holder, 1, oldest=True)
            return [{"type": "buy_shares", "entity": action.corporation, "entity_type": "corporation",
                     "shares": [str(i) for i in ids], "percent": exporter.percent(ids)}]
        if isinstance(action, Reissue):
            treasury = [i for i in exporter.renderer.holdings.shares.get(action.corporation, {}).get(IPO, [])
                        if i not in exporter.renderer.ipo_ids]
            return [{"type": "sell_shares", "entity": action.corporation, "entity_type": "corporation",
                     "shares": [str(i) for i in treasury], "percent": exporter.percent(treasury)}]
        if isinstance(action, DestinationToken):
            corp = exporter.operator(action)
            return [{"type": "choose", "entity": corp, "entity_type": "corporation",
                     "choice": "Map" if action.choice == "map" else "Charter"}]
        if isinstance(action, BuyShares):
            sold = self._protected_shares(exporter, seat, action)
            if sold is not None:
                return [{"type": "buy_shares", "entity": exporter.player_id(seat), "entity_type": "player",
                         "shares": [str(i) for i in sold], "percent": exporter.percent(sold)}]
            return None
        if isinstance(action, GrantConnection):
            if self._grant_at_last_check(exporter, action.corporation):
                return []
            return [{"type": "destination_connection", "entity": exporter.operator() or action.corporation,
                     "entity_type": "corporation", "corporations": [action.corporation]}]
        return None

    def auto_actions(self, exporter: Exporter, turn: Hashable | None,
                     events: Sequence[Event]) -> list[dict[str, Any]]:
        """The platform's checks for connection runs (``destination_connection``), which its
        operating round waits for at the start and at the end of every corporation's turn
        (18xx.games' 1870 check step): at the end of the turn ``turn`` (the order ended it,
        or found connections) naming the corporations our engine found connected (the
        operating one first, as ours queues them), and at the start of the turn now on once
        no connection run is pending (naming none: the end of the turn before checked). A
        corporation that closes in its turn has no check at its end: the platform moves on at
        once to the next corporation's turn, or ends the round (18xx.games ``close_corporation``
        forcing the next entity). After
        a granted connection our engine finds no run for, the platform waits for that run and
        no check is written.
        Each check is written once (:attr:`Exporter.memo`)."""
        self._follow_sales(exporter)
        done: set[tuple[str, Hashable]] = exporter.memo.setdefault("connection_checks", set())
        now = exporter.turn()
        reached = [e.corporation for e in events if isinstance(e, DestinationReached) and not e.ruling]
        out: list[dict[str, Any]] = []
        if isinstance(turn, tuple) and (now != turn or reached) and ("end", turn) not in done:
            done.add(("end", turn))
            if not self._closed(exporter, str(turn[-1])):
                out.append(self._check(str(turn[-1]), reached))
        if now is not None and not state1870(exporter.game.state).connections and ("start", now) not in done:
            done.add(("start", now))
            if not any(isinstance(e, NoConnectionRun) for e in events):
                out.append(self._check(now[-1], []))
        return out

    @staticmethod
    def _closed(exporter: Exporter, corp: str) -> bool:
        """Whether ``corp`` is a corporation of the game that is closed now."""
        state = exporter.game.state.corporations.get(corp)
        return state is not None and state.closed

    @staticmethod
    def _follow_sales(exporter: Exporter) -> None:
        """Keep beside our queue of sales awaiting price protection the record's share ids
        each sale named (:attr:`Exporter.memo` ``"sales"``): the queue's oldest entries go as
        ours go, and a sale queued by the order just exported takes the ids of its
        ``sell_shares``."""
        queued = list(state1870(exporter.game.state).sell_queue)
        kept: list[tuple[ShareSale, list[ShareId] | None]] = exporter.memo.setdefault("sales", [])
        while kept and [sale for sale, _ in kept] != queued[:len(kept)]:
            kept.pop(0)
        last = exporter.actions[-1] if exporter.actions else {}
        for sale in queued[len(kept):]:
            named = [ShareId.parse(str(i)) for i in last.get("shares", [])] if last.get("type") == "sell_shares" else []
            fits = bool(named) and all(i.corporation == sale.corporation for i in named)
            kept.append((sale, named if fits else None))

    @staticmethod
    def _protected_shares(exporter: Exporter, seat: str, action: BuyShares) -> list[ShareId] | None:
        """The record's ids of the shares a price protection buys back: exactly those the
        queued sale named, as the platform requires (None when ``action`` is no protection,
        or the sale's ids are not known)."""
        mine = state1870(exporter.game.state)
        if action.source != "pool" or not mine.sell_queue:
            return None
        if not (mine.protecting or exporter.game.state.round.kind == RoundKind.OPERATING):
            return None
        kept: list[tuple[ShareSale, list[ShareId] | None]] = exporter.memo.get("sales", [])
        head = mine.sell_queue[0]
        if not kept or kept[0][0] != head or head.president != seat or head.corporation != action.corporation:
            return None
        return kept[0][1]

    @staticmethod
    def _check(corp: str, corporations: list[str]) -> dict[str, Any]:
        return {"type": "destination_connection", "entity": corp, "entity_type": "corporation",
                "corporations": corporations}

    def tile_copy_ids(self, exporter: Exporter, name: str, count: int) -> list[str]:
        """With the "original tiles" variant (alone or in "original rules") the platform
        takes the fewer copies out of its full tile list from the first: the copies left
        are the last ``count`` of the base game's (18xx.games 1870 ``optional_tiles``)."""
        variants = exporter.title.variants
        if "original_tiles" not in {path.stem for path, _ in variant_overlays("1870", tuple(variants))}:
            return super().tile_copy_ids(exporter, name, count)
        base = load_title("1870").board.tile_counts.get(name)
        first = base - count if base is not None and base > count else 0
        return [f"{name}-{i}" for i in range(first, first + count)]

    def _grant_at_last_check(self, exporter: Exporter, corp: str) -> bool:
        """A GM's granted connection right after the platform's check at the end of a turn
        (as the import of a record gives it, :meth:`_connection`) goes into that check, and the
        check at the start of the next turn waits for the connection run. False (nothing
        changed) when the last record action ends with no such pair of checks."""
        autos = exporter.actions[-1].get("auto_actions") if exporter.actions else None
        now = exporter.turn()
        if not autos or now is None or autos[-1] != self._check(now[-1], []) or len(autos) < 2:
            return False
        end = autos[-2]
        if end.get("type") != "destination_connection" or end["entity"] == now[-1]:
            return False
        autos.pop()
        end["corporations"] = [*end["corporations"], corp]
        exporter.memo.setdefault("connection_checks", set()).discard(("start", now))
        return True

    def render(self, renderer: Renderer, action: dict[str, Any]) -> Action | NoOrder | None:
        kind = action["type"]
        if kind == "destination_connection":
            return self._connection(renderer, action)
        if kind == "choose" and str(action.get("choice")) in ("Map", "Charter"):
            return DestinationToken("map" if action["choice"] == "Map" else "charter")
        if kind == "buy_shares" and action.get("entity_type") == "corporation":
            return self._redeem(renderer, action)
        if kind == "sell_shares" and action.get("entity_type") == "corporation":
            # a reissue puts the shares on sale in the treasury
            renderer.ipo_ids.update(ShareId.parse(str(i)) for i in action["shares"])
            return Reissue(str(action["entity"]))
        return None

    def _connection(self, renderer: Renderer, action: dict[str, Any]) -> Action | NoOrder:
        """The platform's note of the connection runs now due. Ours finds them itself; a
        corporation the platform named and ours does not find owed (the platform's check has
        changed since some games were played) is rendered as the GM ruling that grants it, so
        the game goes on as it was played (:class:`GrantConnection`).

        :raises UnsupportedRecordAction: more than one such corporation at once.
        """
        from pbem.importers.e18xx import UnsupportedRecordAction

        mine = state1870(renderer.game.state)
        missing = [c for c in action.get("corporations") or []
                   if c not in mine.connections and c not in mine.destinations_reached]
        if len(missing) > 1:
            raise UnsupportedRecordAction(f"action {action['id']}: connections granted to "
                                          f"{', '.join(missing)} at once")
        if missing:
            renderer.rulings.append(str(action["id"]))
            return GrantConnection(missing[0])
        return NO_ORDER

    def _redeem(self, renderer: Renderer, action: dict[str, Any]) -> Action:
        """A corporation buying its own share: from the bank pool whenever the pool holds
        one, as the rules require; else from the player holding the named share as the
        platform saw it (the renderer's holdings follow presidency swaps, so this is not
        always the share's last buyer); else from the one player it may be redeemed from.

        :raises UnsupportedRecordAction: the named share's holder cannot be told.
        """
        from pbem.importers.e18xx import UnsupportedRecordAction

        share_id = ShareId.parse(str(action["shares"][0]))
        sym = share_id.corporation
        game = renderer.game
        holder = renderer.holdings.holder(share_id)
        renderer.holdings.move_share(share_id, IPO)
        if shares.pick_certificates(game.state, POOL, sym, 1):
            return Redeem(sym, "pool")
        if holder is not None and holder.is_player:
            return Redeem(sym, holder.name)
        president = game.state.corporations[sym].president
        legal = game.legal_actions(president) if president is not None else []
        players = [a.source for a in legal if isinstance(a, Redeem) and a.corporation == sym and a.source != "pool"]
        if len(players) == 1:
            return Redeem(sym, players[0])
        raise UnsupportedRecordAction(f"action {action['id']}: cannot tell who holds {share_id} "
                                      f"(the pool has no {sym} share; {sym} may redeem from "
                                      f"{', '.join(players) or 'no one'})")


TRANSLATION: type[RecordTranslation] = Translation1870
"""1870's translation of record actions."""
