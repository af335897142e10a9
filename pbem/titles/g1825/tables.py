"""The tables of one game of 1825, composed from the facts of its units and kits.

``rules/1825/parts/`` holds the facts per unit and kit (``units.yaml``: starting cash,
certificate limits and train counts per combination of units; ``bank.yaml``: the banks and
the minors' effect on the bank and the certificate limits; ``trains.yaml``: train types,
additions per option, phases; ``market.yaml``: the small and large markets;
``privates.yaml`` and ``corporations.yaml``). :func:`tables_of` puts them together for a
:class:`~pbem.titles.g1825.selection.Selection` as 18xx.games does (its ``game.rb`` and
``entities.rb``), into :class:`Tables`: the schema's shapes for the documents
(:mod:`pbem.titles.g1825.compose` writes them in) and the 1825-only facts the rules need
(par, band, required train, homes, reserved hexes, train kinds), which the common schema has
no keys for. :func:`tables_for` gives the tables of a loaded game's variants.

Source: issue 12 ("trains per unit and kit, phases, the market, certificate limits, bank
sizes ... the majors and minors with homes and pars, the privates per unit").
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from pbem.errors import ConfigError
from pbem.titles.g1825.selection import Selection, selection_of

DEFAULT_UNITS = frozenset({1})
"""The units a selection naming none is composed with (the title loaded without options,
e.g. to list its variants): Unit 1. A real game's units are named by
:func:`pbem.titles.g1825.selection.resolve` before it is loaded."""


@dataclass(frozen=True)
class CorporationFacts:
    """1825's facts about one corporation in play.

    ``kind``: ``"major"`` or ``"minor"``; ``source``: what brings it (``"1"``, ``"2"``,
    ``"3"`` a unit, ``"r1"``... a kit); ``par``: a major's fixed par in £ (None for a minor,
    whose Director picks it); ``band``: the band it is offered in (1 first); ``homes``: its
    home hexes (two for the LNWR of Units 1+2 and the GWR with R2); ``reserves``: hexes no
    other company may lay a tile in; ``required_train``: a minor's train (None for a major).
    """

    sym: str
    kind: str
    source: str
    par: int | None
    band: int
    homes: tuple[str, ...]
    reserves: tuple[str, ...]
    required_train: str | None = None


@dataclass(frozen=True)
class TrainKind:
    """How one train type runs beyond its distance (``trains.yaml``): ``cities_only`` (the
    distance counts cities, towns are free and pay: U3), ``express`` (any stops visited, the
    best ``distance`` cities pay: 4+4E), ``towns_pay`` (False: towns earn nothing),
    ``multiplier`` (the route's revenue times this: 2 for 2+2 and 4+4E)."""

    name: str
    cities_only: bool = False
    express: bool = False
    towns_pay: bool = True
    multiplier: int = 1


@dataclass(frozen=True)
class Tables:
    """The composed tables of one game (money in £, ints).

    ``bank_cash``: the game's money (see ``parts/bank.yaml`` on how 18xx.games keeps it);
    ``minors_counted``: the minors the bank and certificate limits count (R2 counts two, R3
    none, as the source); ``players``: (min, max); ``starting_cash`` and
    ``certificate_limit``: players -> amount; ``trains``, ``phases``, ``market_rows``,
    ``companies``, ``corporations``: entries in the shapes of the schema's trains, market,
    companies and corporations files; ``corporation_facts`` and ``train_kinds``: 1825's own
    facts by symbol and train name; ``minor_band``: the band the minors come in.
    """

    selection: Selection
    bank_cash: int
    minors_counted: int
    players: tuple[int, int]
    starting_cash: Mapping[int, int]
    certificate_limit: Mapping[int, int]
    trains: tuple[Mapping[str, Any], ...]
    phases: tuple[Mapping[str, Any], ...]
    market_rows: tuple[tuple[str, ...], ...]
    companies: tuple[Mapping[str, Any], ...]
    corporations: tuple[Mapping[str, Any], ...]
    corporation_facts: Mapping[str, CorporationFacts]
    train_kinds: Mapping[str, TrainKind]
    minor_band: int

    def par(self, sym: str) -> int | None:
        """The fixed par of major ``sym`` (None: a minor). :raises KeyError: not in play."""
        return self.corporation_facts[sym].par

    def band(self, sym: str) -> int:
        """The band ``sym`` is offered in. :raises KeyError: not in play."""
        return self.corporation_facts[sym].band

    def required_train(self, sym: str) -> str | None:
        """Minor ``sym``'s required train type (None: a major). :raises KeyError: not in play."""
        return self.corporation_facts[sym].required_train


def _part(parts: Mapping[str, Any], stem: str) -> Any:
    if stem not in parts:
        raise ConfigError(f"rules/1825/parts/{stem}.yaml is missing")
    return parts[stem]


def bank_cash(parts: Mapping[str, Any], selection: Selection) -> int:
    """The game's money: the first unit's bank (or, with ``big_bank``, all of theirs), plus,
    unless ``strict_bank``, Kits 2 and 3's extra and the extra per minor counted."""
    bank = _part(parts, "bank")
    units = selection.units or DEFAULT_UNITS
    per_unit = {int(k): int(v) for k, v in bank["per_unit"].items()}
    if selection.has("big_bank"):
        cash = sum(per_unit[u] for u in sorted(units))
    else:
        cash = per_unit[min(units)]
    if not selection.has("strict_bank"):
        cash += sum(int(v) for k, v in bank["kit_extra"].items() if selection.has(str(k)))
        cash += int(bank["per_minor"]) * minors_counted(parts, selection)
    return cash


def minors_counted(parts: Mapping[str, Any], selection: Selection) -> int:
    """The number of minors the bank and certificate limits count (``bank.yaml``)."""
    counted = _part(parts, "bank")["minors_counted"]
    return sum(int(n) for option, n in counted.items() if selection.has(str(option)))


def _counts(tables: Mapping[Any, Any]) -> dict[int, int]:
    return {int(k): int(v) for k, v in tables.items()}


def _train_counts(parts: Mapping[str, Any], selection: Selection, key: str) -> dict[str, int]:
    unit = _part(parts, "units")[key]
    trains = _part(parts, "trains")
    k3 = selection.has("k3")
    counts: dict[str, int] = {}

    def add(more: Mapping[str, Any]) -> None:
        for name, n in more.items():
            counts[str(name)] = counts.get(str(name), 0) + int(n)

    add(unit["trains_with_k3"] if k3 and "trains_with_k3" in unit else unit["trains"])
    for addition in trains["additions"]:
        if selection.has(str(addition["option"])):
            add(addition["trains"])
    if selection.has("k2"):
        if "k2_trains" not in unit:
            raise ConfigError(f"1825: k2 has no trains for units {key}")
        add(unit["k2_trains"])
        if k3:
            add(unit.get("k2_with_k3_trains") or {})
    return counts


def _phases(parts: Mapping[str, Any], selection: Selection, units: frozenset[int]) -> list[dict[str, Any]]:
    phases = _part(parts, "trains")["phases"]
    chosen = list(phases["common"])
    if 2 in units and not selection.has("k3"):
        chosen += phases["unit2_without_k3"]
    if selection.has("k3"):
        chosen += phases["k3"]
    return [dict(p) for p in chosen]


_KIND_KEYS = ("cities_only", "express", "towns_pay", "multiplier")


def _trains(parts: Mapping[str, Any], selection: Selection, key: str,
            phase_names: set[str]) -> tuple[list[dict[str, Any]], dict[str, TrainKind]]:
    counts = _train_counts(parts, selection, key)
    trains = _part(parts, "trains")
    changes = (trains.get("k3_changes") or {}) if selection.has("k3") else {}
    out: list[dict[str, Any]] = []
    kinds: dict[str, TrainKind] = {}
    for spec in trains["specs"]:
        name = str(spec["name"])
        count = counts.get(name, 0)
        if count < 0:
            raise ConfigError(f"1825: {count} {name}-trains for these options")
        if count == 0:
            continue
        entry = {k: v for k, v in spec.items() if k not in _KIND_KEYS}
        entry.update(changes.get(name) or {})
        entry["count"] = count
        if entry.get("available_on") is not None and str(entry["available_on"]) not in phase_names:
            del entry["available_on"]  # a phase this game has not: sold in its turn only
        out.append(entry)
        kinds[name] = TrainKind(name, **{k: spec[k] for k in _KIND_KEYS if k in spec})
    return out, kinds


def _companies(parts: Mapping[str, Any], units: frozenset[int]) -> list[dict[str, Any]]:
    privates = _part(parts, "privates")
    chosen: list[dict[str, Any]] = []
    for unit in privates["combine_order"]:
        if int(unit) not in units:
            continue
        for company in privates["units"][int(unit)]:
            if all(int(c["value"]) != int(company["value"]) for c in chosen):
                chosen.append(dict(company))
    return sorted(chosen, key=lambda c: int(c["value"]))


def _corporations(parts: Mapping[str, Any], selection: Selection,
                  units: frozenset[int]) -> tuple[list[dict[str, Any]], dict[str, CorporationFacts], int]:
    corps = _part(parts, "corporations")
    entries: list[tuple[str, str, dict[str, Any]]] = []  # (kind, source, fact entry)
    for unit in sorted(units):
        for major in corps["units"][unit]:
            if not any(major["sym"] == e[2]["sym"] for e in entries):
                entries.append(("major", str(unit), copy.deepcopy(major)))
        if unit == 3:
            entries += [("minor", "3", copy.deepcopy(m)) for m in corps["minors"]["3"]]
    changes: list[Mapping[str, Any]] = []
    if {1, 2} <= units:
        changes.append(corps["units_1_and_2"])
    for option in ("r1", "r2", "r3", "k5", "k7"):
        if selection.has(option):
            entries += [("minor", option, copy.deepcopy(m)) for m in corps["minors"][option]]
    for option in ("r2", "db2", "unit_4"):
        if selection.has(option) and option in corps:
            changes.append(corps[option])
    by_sym = {e[2]["sym"]: e[2] for e in entries}
    for change in changes:
        for sym, fields in change.items():
            if sym in by_sym:
                entry = by_sym[sym]
                for field, value in fields.items():
                    if field == "reserves_more":
                        entry["reserves"] = [*entry.get("reserves", []), *value]
                    else:
                        entry[field] = copy.deepcopy(value)
    pars = sorted({int(e["par"]) for kind, _, e in entries if kind == "major"}, reverse=True)
    trigger = 71 if 71 in pars else 76
    minor_band = pars.index(trigger) + 2 if trigger in pars else len(pars) + 1
    documents: list[dict[str, Any]] = []
    facts: dict[str, CorporationFacts] = {}
    for kind, source, e in entries:
        homes = tuple(e.get("homes") or [e["home"]])
        doc: dict[str, Any] = {"sym": e["sym"], "name": e["name"], "home": homes[0]}
        for key in ("short", "color"):
            if key in e:
                doc[key] = e[key]
        if kind == "major":
            doc.update(tokens=list(e["tokens"]), home_city=int(e["home_city"]))
            band = pars.index(int(e["par"])) + 1
        else:
            doc.update(kind="minor", tokens=[0], shares=list(corps["minor_shares"]), float_percent=40)
            band = minor_band
        documents.append(doc)
        facts[e["sym"]] = CorporationFacts(
            sym=e["sym"], kind=kind, source=source, par=int(e["par"]) if kind == "major" else None,
            band=band, homes=homes, reserves=tuple(e.get("reserves") or ()),
            required_train=str(e["required_train"]) if kind == "minor" else None)
    return documents, facts, minor_band


def _certificates(parts: Mapping[str, Any], key: str, minors: int) -> dict[int, int]:
    limits = _counts(_part(parts, "units")[key]["certificate_limit"])
    adjustments = _part(parts, "bank")["certificate_adjustments"]
    for players, more in _counts(adjustments.get(minors) or {}).items():
        if players in limits:
            limits[players] += more
    return limits


def tables_of(parts: Mapping[str, Any], selection: Selection) -> Tables:
    """The tables of a game of ``selection`` from the parsed ``parts`` (stem -> YAML), as
    18xx.games composes them. A selection naming no unit is composed as Unit 1
    (:data:`DEFAULT_UNITS`). The selection is not checked here
    (:func:`pbem.titles.g1825.selection.check`), only what cannot be composed is refused.

    :raises ConfigError: Units 1 and 3 without 2, or Kit 2 with Unit 3 alone (no tables); a
        part missing.
    """
    units = selection.units or DEFAULT_UNITS
    effective = Selection(units, selection.regionals, selection.kits, selection.options)
    key = effective.unit_key
    if key not in _part(parts, "units"):
        raise ConfigError(f"1825: no tables for units {' + '.join(key)}: Units 1 and 3 join only through Unit 2")
    phases = _phases(parts, effective, units)
    trains, kinds = _trains(parts, effective, key, {str(p["name"]) for p in phases})
    corporations, facts, minor_band = _corporations(parts, effective, units)
    minors = minors_counted(parts, effective)
    market = _part(parts, "market")["large" if 2 in units else "small"]
    return Tables(
        selection=effective,
        bank_cash=bank_cash(parts, effective),
        minors_counted=minors,
        players=effective.player_range(),
        starting_cash=MappingProxyType(_counts(_part(parts, "units")[key]["starting_cash"])),
        certificate_limit=MappingProxyType(_certificates(parts, key, minors)),
        trains=tuple(MappingProxyType(t) for t in trains),
        phases=tuple(MappingProxyType(p) for p in phases),
        market_rows=tuple(tuple(str(cell) for cell in row) for row in market),
        companies=tuple(MappingProxyType(c) for c in _companies(parts, units)),
        corporations=tuple(MappingProxyType(c) for c in corporations),
        corporation_facts=MappingProxyType(facts),
        train_kinds=MappingProxyType(kinds),
        minor_band=minor_band,
    )


@functools.lru_cache(maxsize=32)
def tables_for(variants: tuple[str, ...]) -> Tables:
    """The tables of a game of 1825 with these variants (a loaded game's
    ``title.variants``), from the installed ``rules/1825/parts/``; cached.

    :raises ConfigError: as :func:`tables_of`.
    """
    from pbem.ruleset.files import RULES_DIR, read_parts

    return tables_of(read_parts("1825", RULES_DIR), selection_of(variants))


__all__ = ["CorporationFacts", "Tables", "TrainKind", "bank_cash", "minors_counted", "tables_for", "tables_of"]
