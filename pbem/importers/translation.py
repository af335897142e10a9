"""A title's own part of reading 18xx.games records: the extension point of the importer.

The importer core (:mod:`pbem.importers.e18xx`) renders the record actions every title
shares (pass, bid, par, share buys and sales by players, tile lays, tokens, runs, dividends,
trains, privates). A title whose record holds actions of its own (1870: a corporation
redeeming or reissuing its shares, destination tokens, connection runs) gives its
translation in the module ``pbem.titles.g<title>.importing``, found by name as
:func:`pbem.titles.hooks_for` finds the hooks: the module exposes ``TRANSLATION``, a
:class:`RecordTranslation` subclass. A title without that module uses the base class, which
translates nothing, so the core renders every action. The core names no title.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, ClassVar, Final, Hashable, Sequence

from pbem.engine.abilities import NoBuy, TileLayAbility
from pbem.errors import ConfigError

if TYPE_CHECKING:
    from pbem.engine.actions import Action
    from pbem.engine.events import Event
    from pbem.engine.game import Game
    from pbem.exporters.e18xx import Exporter
    from pbem.importers.e18xx import Renderer


class NoOrder:
    """The value of :data:`NO_ORDER`: a record action that becomes no order of ours."""

    def __repr__(self) -> str:
        return "NO_ORDER"


NO_ORDER: Final = NoOrder()
"""What :meth:`RecordTranslation.render` returns for a record action the title knows and
that needs no order (the platform's note of something our engine does by itself)."""


class RecordTranslation:
    """A title's translation of its own record actions; the base translates none.

    One instance serves one :class:`~pbem.importers.e18xx.Renderer`; it keeps no state of
    its own (what it must remember lives on the renderer, which is copied with the game).
    The same class translates the other way for the exporter (:meth:`export`), so each of a
    title's mappings lives in one place.
    """

    platform_lacks: ClassVar[frozenset[str]] = frozenset()
    """The title's variants the recording platform does not have: a game played with one
    is not exported (:mod:`pbem.exporters.e18xx`)."""

    platform_plays: ClassVar[frozenset[str]] = frozenset()
    """The title's variants that are how the platform always plays, with no option of its:
    a game with one is exported without it among the record's options."""

    whole_turn_orders: ClassVar[tuple[type[Action], ...]] = ()
    """Orders of a player's stock-round turn after which the platform moves on by itself (a
    corporation's redemption or reissue in 1870, the president's whole turn): it does not
    ask that player again in the turn."""

    def asks_in_stock_round(self, game: Game, player: str, stock_round: int, phase: str,
                            cash: int) -> bool:
        """Whether the platform's stock round ``stock_round`` (1: the first) in ``phase`` gives
        ``player``, holding ``cash``, a turn that our engine passed by itself (``player`` has
        no order of ours left): a private company of another player is for sale to them (the
        title's ``private_trades``, as the platform plays it; not one barred from sale,
        1830's BO) and they have money, where our engine passed them (at the certificate
        limit, which the platform does not check for a private). The export writes the
        platform's pass for that turn; the import reads it as no order. ``game`` holds the
        privates' owners."""
        state = game.state
        rule = game.title.settings.private_trades
        if phase not in rule.phases or stock_round < rule.from_stock_round:
            return False
        if cash <= 0:
            return False
        return any(not company.closed and company.owner is not None and company.owner.is_player
                   and company.owner.name != player and game.title.company(sym).ability(NoBuy) is None
                   for sym, company in state.companies.items())

    def asks_at_turn_end(self, game: Game, corp: str) -> bool:
        """Whether the platform's operating turn, which our engine has just ended for
        ``corp`` (``game`` after it), still waits for ``corp``'s pass at its last step
        (buying privates): ``corp`` owns a private whose extra tile lay it may make at any
        time in its turn and has not made (1830's CS; 18xx.games asks a corporation with an
        ability usable in its turn, ``owning_corp_or_turn``, in its blocking Buy Companies
        step). Our engine does not hold the turn open for it: the lay is sent with the
        turn's orders. The export writes that pass; the import reads it as no order."""
        state = game.state
        for sym, company in state.companies.items():
            if company.closed or company.owner is None or company.owner.name != corp or company.owner.is_player:
                continue
            ability = game.title.company(sym).ability(TileLayAbility)
            if ability is not None and ability.extra and sym not in state.used_abilities:
                return True
        return False

    def platform_passes(self, game: Game, seat: str, action: Action, label: str, bought: bool,
                        held: tuple[dict[str, int], str], events: Sequence[Event]) -> list[str]:
        """The players, in order, whose passes the platform's stock round records after our
        order ``action`` by ``seat`` for turns our engine ended by itself
        (:meth:`asks_in_stock_round`): first ``seat``, when its turn ended with nothing left
        to do and nothing bought in it (``bought``), then each player passed for having
        nothing to do (``NoValidActions`` among ``events``), once a round. ``game`` is after
        the order, ``label`` the round it began in and ``held`` the players' cash and the
        phase before it; the money asked about is the players' as the order's own round ended
        (the game's, less the privates' income and dividends of rounds the order began after
        it; in those, the game's own). The export writes
        these passes and the import reads them back as no order."""
        from pbem.engine.actions import Pass
        from pbem.engine.events.operating import DividendPaid
        from pbem.engine.events.rounds import CompanyIncome, NoValidActions, RoundStarted

        out: list[str] = []
        passed: set[str] = set()
        ended = seat not in game.current_actors() or game.round_label() != label
        phase = held[1]
        cash = {p: s.cash for p, s in game.state.players.items()}  # as the round of the order ends:
        began = next((i for i, e in enumerate(events) if isinstance(e, RoundStarted)), len(events))
        for event in events[began:]:  # less what later rounds of the order paid the players
            if isinstance(event, CompanyIncome) and event.owner in cash:
                cash[event.owner] -= event.amount
            elif isinstance(event, DividendPaid):
                for amount, who in event.paid:
                    if who in cash:
                        cash[who] -= amount
        if label.startswith("SR ") and not isinstance(action, (Pass, *self.whole_turn_orders)) and ended and not bought \
                and self.asks_in_stock_round(game, seat, int(label.split()[1]), phase, cash[seat]):
            out.append(seat)  # after acting: the platform asks again in the round
        for event in events:
            if isinstance(event, RoundStarted):
                label, passed = event.label, set()
                cash, phase = {p: s.cash for p, s in game.state.players.items()}, game.state.phase
            elif isinstance(event, NoValidActions) and label.startswith("SR ") and event.player not in passed:
                if self.asks_in_stock_round(game, event.player, int(label.split()[1]), phase, cash[event.player]):
                    out.append(event.player)
                    passed.add(event.player)
        return out

    def tile_copy_ids(self, exporter: Exporter, name: str, count: int) -> list[str]:
        """The record ids of the ``count`` copies of tile ``name`` in the game's supply, in
        the order they are taken: the platform numbers a tile's copies from 0
        (``"<name>-<n>"``); a title whose variant drops copies the platform numbers otherwise
        says so here."""
        return [f"{name}-{i}" for i in range(count)]

    def city_parts(self, tile: str) -> tuple[int, ...] | None:
        """The platform's number of each city of tile ``tile`` (a tile's name, or a hex's for
        its preprinted tile) in its city ids (``"<tile id>-<n>"``: the city's place among the
        tile's parts), or None where that is the city's own index, as in most tiles."""
        return None

    def printed_tile_id(self, exporter: Exporter, coord: str) -> str:
        """The record id of the preprinted tile of ``coord``: the platform names it
        ``<hex>-<n>``, ``n`` the hex's place among the hexes of the same definition, 0 for
        every hex with track and a city in the titles here unless a title says otherwise."""
        return f"{coord}-0"

    def render(self, renderer: Renderer, action: dict[str, Any]) -> Action | NoOrder | None:
        """Our action for the record action ``action`` (a JSON object of the record), asked
        before the core renders it: an :class:`~pbem.engine.actions.Action`, :data:`NO_ORDER`
        for an action that becomes no order, or None when the action is not the title's own
        (the core renders it). ``renderer.game`` is our game just before the action.

        :raises pbem.importers.e18xx.UnsupportedRecordAction: a title's action it cannot
            render in this position (the message names the record action).
        """
        return None

    def export(self, exporter: Exporter, seat: str, action: Action) -> list[dict[str, Any]] | None:
        """The record actions (JSON objects without ``id``) for our order ``action`` by
        ``seat`` when the order is the title's own, else None (the core exports it).
        ``exporter.game`` is our game just before the order; the exporter checks that each
        record action renders back as ``action`` (or as no order).

        :raises pbem.exporters.records.UnsupportedExport: an order the title cannot export.
        """
        return None

    def after_order(self, exporter: Exporter, events: Sequence[Event]) -> list[dict[str, Any]]:
        """Record actions (JSON objects without ``id``) the platform's steps wait for after our
        order that our engine took by itself during it (``events``: what the order did;
        ``exporter.game``: after it); each must read back as no order. The base: none."""
        return []

    def auto_actions(self, exporter: Exporter, turn: Hashable | None,
                     events: Sequence[Event]) -> list[dict[str, Any]]:
        """The record actions the platform's own steps log by themselves after an exported
        order (its ``auto_actions``, JSON objects without ``id``): ``turn`` is
        :meth:`~pbem.exporters.e18xx.Exporter.turn` before the order, ``events`` what the
        order did and ``exporter.game`` the game after it. The base logs none."""
        return []

    def seat(self, renderer: Renderer, action: dict[str, Any]) -> str | None:
        """The seat that sends the order for ``action`` when the title decides it (a
        corporation run by someone other than its president), or None for the core's answer
        (a player, or the president of the acting corporation)."""
        return None


def translation_module(title: str) -> str:
    """The module a title's translation lives in (``"1870"`` -> ``pbem.titles.g1870.importing``)."""
    return f"pbem.titles.g{title}.importing"


def translation_for(title: str) -> RecordTranslation:
    """A fresh translation for ``title``: its module's ``TRANSLATION``, or the base
    :class:`RecordTranslation` when the title has no such module.

    :raises ConfigError: ``title`` is not a title's name (letters, digits and _), or its
        module's ``TRANSLATION`` is not a :class:`RecordTranslation` class.
    """
    if not title or not all(ch.isalnum() or ch == "_" for ch in title):
        raise ConfigError(f"no title {title!r}: a title's name is letters, digits and _")
    name = translation_module(title)
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name not in (name, name.rsplit(".", 1)[0]):
            raise
        return RecordTranslation()
    kind = getattr(module, "TRANSLATION", None)
    if not (isinstance(kind, type) and issubclass(kind, RecordTranslation)):
        raise ConfigError(f"{name}.TRANSLATION is not a RecordTranslation class")
    return kind()
