"""The data of an 1825 game: the documents of the units and kits in play, composed from
``rules/1825/parts/`` (see :mod:`pbem.titles.g1825.tables`), and the variants a game really
plays (:mod:`pbem.titles.g1825.selection`).

The title's own files are shells: ``game.yaml`` the rules common to every 1825 game,
``companies.yaml``, ``corporations.yaml`` and ``trains.yaml`` empty lists, ``market.yaml``
the zones of the market's cells. :meth:`Composition.compose` fills in the bank, players,
starting cash and certificate limits, the privates, the corporations, the trains and phases
and the market row of the game's units and kits, and hands the map document to the map's
composer (``compose_map``). Entries a variant's overlay put in the shells' lists (a variant
giving privates abilities, say) are merged by symbol or train name onto the composed ones
in play; those not in play are left out.

Source: issue 12 (design: "1825's Composition mixin builds from its parts the map ...,
trains (counts per unit combination + kits), phases, market (small or large), bank, starting
cash, certificate limits, player range, the privates and corporations of the units in play").
"""

from __future__ import annotations

import copy
import importlib
from typing import Any, Callable, Mapping, Sequence

from pbem.ruleset.composer import TitleComposer
from pbem.titles.g1825.selection import Selection, resolve, selection_of
from pbem.titles.g1825.tables import Tables, tables_of


def _plain(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A mutable deep copy of a table entry."""
    return {key: copy.deepcopy(value) for key, value in entry.items()}


def _merged(composed: Sequence[Mapping[str, Any]], overlaid: Any, key: str) -> list[dict[str, Any]]:
    """``composed`` entries with each overlaid entry of the same ``key`` merged over its own
    (its keys replace the composed ones); overlaid entries of no composed one are dropped."""
    extra = {str(e[key]): e for e in (overlaid or []) if isinstance(e, Mapping) and key in e}
    out = []
    for entry in composed:
        plain = _plain(entry)
        plain.update(copy.deepcopy(dict(extra.get(str(entry[key]), {}))))
        out.append(plain)
    return out


def _map_composer() -> Callable[[Any, Mapping[str, Any], Selection], Any] | None:
    """The map's composer, ``pbem.titles.g1825.compose_map.compose_map``, or None before it
    exists (the map document is then left as its files give it)."""
    try:
        module = importlib.import_module("pbem.titles.g1825.compose_map")
    except ModuleNotFoundError as exc:
        if exc.name != "pbem.titles.g1825.compose_map":
            raise
        return None
    composer: Callable[[Any, Mapping[str, Any], Selection], Any] = getattr(module, "compose_map")
    return composer


def compose_documents(documents: Mapping[str, Any], parts: Mapping[str, Any],
                      variants: tuple[str, ...]) -> dict[str, Any]:
    """The documents of a game of 1825 with ``variants`` (see the module docstring); the
    inputs are not changed.

    :raises ConfigError: a combination that cannot be composed (Units 1 and 3 without 2, Kit
        2 with Unit 3 alone) or a part missing (:func:`pbem.titles.g1825.tables.tables_of`).
    """
    selection = selection_of(variants)
    tables: Tables = tables_of(parts, selection)
    composed = dict(documents)
    game = copy.deepcopy(dict(documents.get("game") or {}))
    low, high = tables.players
    game.update(
        bank_cash=tables.bank_cash,
        players={"min": low, "max": high},
        starting_cash=dict(tables.starting_cash),
        certificate_limit=dict(tables.certificate_limit),
    )
    composed["game"] = game
    composed["companies"] = _merged(tables.companies, documents.get("companies"), "sym")
    corporations = copy.deepcopy(dict(documents.get("corporations") or {}))
    corporations["corporations"] = _merged(tables.corporations, corporations.get("corporations"), "sym")
    composed["corporations"] = corporations
    trains = copy.deepcopy(dict(documents.get("trains") or {}))
    trains["trains"] = _merged(tables.trains, trains.get("trains"), "name")
    trains["phases"] = _merged(tables.phases, trains.get("phases"), "name")
    composed["trains"] = trains
    market = copy.deepcopy(dict(documents.get("market") or {}))
    market["rows"] = [list(row) for row in tables.market_rows]
    composed["market"] = market
    composer = _map_composer()
    if composer is not None and "map" in documents:
        composed["map"] = composer(copy.deepcopy(documents["map"]), parts, tables.selection)
    return composed


class Composition(TitleComposer):
    """1825's ``compose`` (the game's documents from the parts of its units and kits),
    ``resolve_variants`` (the units by the number of players, canonical names, the
    combinations 18xx.games refuses) and the settings of its own rules."""

    @classmethod
    def compose(cls, documents: Mapping[str, Any], parts: Mapping[str, Any],
                variants: tuple[str, ...]) -> dict[str, Any]:
        """The documents of the units and kits ``variants`` name (:func:`compose_documents`),
        then the next class's composition of them.

        :raises ConfigError: see :func:`compose_documents`."""
        return super().compose(compose_documents(documents, parts, variants), parts, variants)

    @classmethod
    def resolve_variants(cls, variants: tuple[str, ...], players: int) -> tuple[str, ...]:
        """The variants a game of ``players`` really plays
        (:func:`pbem.titles.g1825.selection.resolve`), then the next class's resolution.

        :raises ConfigError: a combination 18xx.games refuses, or a number of players the
            units do not allow (the message says why)."""
        return super().resolve_variants(resolve(variants, players), players)

    @classmethod
    def title_rules(cls) -> Mapping[str, bool | int | str]:
        """The reading of the credit of a company in receivership
        (:data:`pbem.titles.g1825.credit.DEFAULTS`) and of the receiver's purchase
        (:data:`pbem.titles.g1825.trains.RECEIVER_BUYS_AFTER_CHOICE`), with the other settings
        (not 1830's reading of a train due, as 1825 makes no company buy one on its Director's
        money); the Taff Vale's Cardiff keeps one city of two (as 18xx.games plays 1825)."""
        from pbem.engine import track as core_track
        from pbem.titles.g1825 import credit
        from pbem.titles.g1825 import trains as trains1825

        inherited = {k: v for k, v in super().title_rules().items() if k != "emergency_train_from_corporation"}
        return {**inherited, **credit.DEFAULTS, trains1825.RECEIVER_BUYS_AFTER_CHOICE: False,
                core_track.HOME_NAMING_NO_CITY: "one_city_left"}
