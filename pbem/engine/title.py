"""Title data: the facts of one 18xx title (and its switched-on variants), loaded from YAML.

A title lives in ``rules/<title>/`` as a few YAML files (``game.yaml``, ``companies.yaml``,
``corporations.yaml``, ``market.yaml``, ``trains.yaml``). A variant is
``rules/<title>/variants/<name>.yaml``: a mapping from file stem to a partial document that is
deep-merged over the title's (mappings merge key by key, lists and scalars replace). Everything
here is immutable; the game state refers to it by symbol.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

import yaml

from pbem.errors import ConfigError

RULES_DIR = Path(str(resources.files("pbem.rules")))
"""The title and variant data: the repository's top-level ``rules/`` folder, which the build
ships inside the package as ``pbem.rules`` (found with :mod:`importlib.resources`, so a wheel
and an editable install read the same files)."""


@dataclass(frozen=True)
class Ability:
    """One special ability of a private company: a named kind plus its data (``hexes``, ``share``...)."""

    kind: str
    data: Mapping[str, Any]


@dataclass(frozen=True)
class CompanyData:
    """A private company: ``value`` is the face value (auction minimum), ``revenue`` per OR."""

    sym: str
    name: str
    value: int
    revenue: int
    abilities: tuple[Ability, ...] = ()

    def ability(self, kind: str) -> Ability | None:
        """The first ability of ``kind``, or None."""
        return next((a for a in self.abilities if a.kind == kind), None)


@dataclass(frozen=True)
class CorporationData:
    """A corporation: ``shares`` lists the certificate percents, the president's first."""

    sym: str
    name: str
    tokens: tuple[int, ...]
    home: str
    shares: tuple[int, ...]
    float_percent: int
    home_city: int | None = None
    short: str = ""
    destination: str | None = None


@dataclass(frozen=True)
class MarketCell:
    """One stock-market cell: price and zone flags (see ``market.yaml``)."""

    price: int
    par: bool = False
    counts_for_limit: bool = True
    unlimited_holding: bool = False
    buy_multiple: bool = False
    closes: bool = False
    """A corporation whose price reaches this cell closes (1870)."""
    ends_game: bool = False
    """A price reaching this cell ends the game at once (1870's $400 finish)."""
    zone: str = ""


@dataclass(frozen=True)
class TrainData:
    """A train type: ``count`` is None for unlimited; ``rusts_on`` names a train type."""

    name: str
    distance: int
    price: int
    count: int | None
    rusts_on: str | None = None
    available_on: str | None = None
    events: tuple[str, ...] = ()
    trade_in: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class PhaseData:
    """A phase: starts when the first train named ``on`` is bought (None for the first phase)."""

    name: str
    on: str | None
    train_limit: int
    tiles: tuple[str, ...]
    operating_rounds: int
    corporations_may_buy_privates: bool = False


@dataclass(frozen=True)
class TitleData:
    """Everything the engine needs to know about one title with its variants applied.

    Money is an int in the title's currency; ``currency`` is a format string such as ``"${}"``.
    """

    title: str
    name: str
    variants: tuple[str, ...]
    currency: str
    bank_cash: int
    min_players: int
    max_players: int
    starting_cash: Mapping[int, int]
    certificate_limit: Mapping[int, int]
    constants: Mapping[str, Any]
    companies: tuple[CompanyData, ...]
    corporations: tuple[CorporationData, ...]
    market: tuple[tuple[MarketCell | None, ...], ...]
    trains: tuple[TrainData, ...]
    phases: tuple[PhaseData, ...]
    round_steps: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    market_legend: Mapping[str, str] = field(default_factory=dict)
    """Zone letter -> its meaning in words, for reports (``market.yaml`` zone_text)."""

    def company(self, sym: str) -> CompanyData:
        """The private company with symbol ``sym``; raises KeyError."""
        for c in self.companies:
            if c.sym == sym:
                return c
        raise KeyError(sym)

    def corporation(self, sym: str) -> CorporationData:
        """The corporation with symbol ``sym``; raises KeyError."""
        for c in self.corporations:
            if c.sym == sym:
                return c
        raise KeyError(sym)

    def format_money(self, amount: int) -> str:
        """``1234`` -> ``"$1234"`` in the title's currency."""
        return self.currency.format(amount)

    def par_cells(self) -> list[tuple[int, int]]:
        """Coordinates (row, column) of the par cells, highest price first."""
        cells = [
            (r, c)
            for r, row in enumerate(self.market)
            for c, cell in enumerate(row)
            if cell is not None and cell.par
        ]
        return sorted(cells, key=lambda rc: -self.market[rc[0]][rc[1]].price)  # type: ignore[union-attr]

    def const(self, key: str, default: Any = None) -> Any:
        """A title constant from ``game.yaml`` (e.g. ``"pool_share_limit"``)."""
        return self.constants.get(key, default)


def deep_merged(base: Any, overlay: Any) -> Any:
    """``overlay`` merged into ``base``: mappings key by key, anything else (lists included)
    replaced by the overlay's value."""
    if isinstance(base, dict) and isinstance(overlay, dict):
        merged = dict(base)
        for key, value in overlay.items():
            merged[key] = deep_merged(base.get(key), value) if key in base else value
        return merged
    return copy.deepcopy(overlay)


def read_rules_yaml(path: Path) -> Any:
    """Parse one rules file.

    :raises ConfigError: the file is missing or is not valid YAML.
    """
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.safe_load(fh)
    except FileNotFoundError:
        raise ConfigError(f"rules file missing: {path}") from None
    except yaml.YAMLError as exc:
        raise ConfigError(f"rules file {path} is not valid YAML: {exc}") from None


def _changed_rows(rows: list[list[Any]], changes: Mapping[str, Any]) -> list[list[Any]]:
    """The market rows with a variant's ``changes`` applied: ``{"row,col": cell}`` (top row 0,
    left column 0), so a variant names only the cells it changes."""
    changed = [list(row) for row in rows]
    for where, text in changes.items():
        try:
            row, col = (int(part) for part in str(where).split(","))
            changed[row][col] = text
        except (ValueError, IndexError) as exc:
            raise ConfigError(f"market change {where!r}: not a cell of the market (write \"row,col\")") from exc
    return changed


def _parse_cell(text: str, zones: Mapping[str, Mapping[str, Any]]) -> MarketCell | None:
    text = str(text).strip()
    if not text:
        return None
    digits = "".join(ch for ch in text if ch.isdigit())
    letters = "".join(ch for ch in text if ch.isalpha())
    flags: dict[str, Any] = {}
    for letter in letters:
        if letter not in zones:
            raise ConfigError(f"market cell {text!r}: unknown zone letter {letter!r}")
        flags.update(zones[letter])
    zone = "".join(ch for ch in letters if ch != "p")
    return MarketCell(price=int(digits), zone=zone, **flags)


@functools.lru_cache(maxsize=16)
def load_extras(title: str, rules_dir: Path = RULES_DIR) -> Mapping[str, Any]:
    """``rules/<title>/extras.yaml``: board facts a title's hooks read (1870: the
    Mississippi's banks); an empty mapping when the title has none.

    :raises ConfigError: the file is not valid YAML.
    """
    path = rules_dir / title / "extras.yaml"
    if not path.is_file():
        return {}
    data = read_rules_yaml(path)
    return data if isinstance(data, dict) else {}


def available_variants(title: str, rules_dir: Path = RULES_DIR) -> list[str]:
    """Names of the variants under ``rules/<title>/variants/``."""
    folder = rules_dir / title / "variants"
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def variant_overlays(title: str, variants: tuple[str, ...], rules_dir: Path = RULES_DIR) -> list[tuple[str, dict[str, Any]]]:
    """The overlays of the named variants, in the order they apply: ``(name, {file stem:
    partial document})``. A variant may ``include`` others (a list of names), applied just
    before it — a variant that is a set of options, like 1870's original rules; each variant
    applies once.

    :raises ConfigError: an unknown variant (the message lists the known ones).
    """
    folder = rules_dir / title / "variants"
    ordered: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()

    def visit(name: str) -> None:
        if name in seen:
            return
        seen.add(name)
        path = folder / f"{name}.yaml"
        if not path.is_file():
            raise ConfigError(
                f"unknown variant {name!r} for {title}; known: "
                f"{', '.join(available_variants(title, rules_dir)) or 'none'}"
            )
        overlay = dict(read_rules_yaml(path) or {})
        for included in overlay.pop("include", None) or []:
            visit(str(included))
        ordered.append((name, overlay))

    for variant in variants:
        visit(variant)
    return ordered


@functools.lru_cache(maxsize=64)
def load_title(title: str, variants: tuple[str, ...] = (), rules_dir: Path = RULES_DIR) -> TitleData:
    """Load ``rules/<title>/`` and apply the named variant overlays in order (cached: the
    result is immutable).

    :raises ConfigError: unknown title or variant, missing file, invalid YAML or a bad value.
    """
    folder = rules_dir / title
    if not (folder / "game.yaml").is_file():
        known = sorted(p.name for p in rules_dir.iterdir() if (p / "game.yaml").is_file())
        raise ConfigError(f"unknown title {title!r}; known titles: {', '.join(known)}")
    docs = {
        stem: read_rules_yaml(folder / f"{stem}.yaml")
        for stem in ("game", "companies", "corporations", "market", "trains")
    }
    for variant, overlay in variant_overlays(title, variants, rules_dir):
        for stem, part in overlay.items():
            if stem == "map":
                continue  # read by pbem.engine.board.load_map
            if stem not in docs:
                raise ConfigError(f"variant {variant!r} overlays unknown file {stem!r}")
            docs[stem] = deep_merged(docs[stem], part)
    return _build(title, tuple(variants), docs)


def _build(title: str, variants: tuple[str, ...], docs: Mapping[str, Any]) -> TitleData:
    game = docs["game"]
    try:
        companies = tuple(
            CompanyData(
                sym=str(c["sym"]),
                name=c["name"],
                value=int(c["value"]),
                revenue=int(c["revenue"]),
                abilities=tuple(
                    Ability(kind=a["kind"], data={k: v for k, v in a.items() if k != "kind"})
                    for a in c.get("abilities", [])
                ),
            )
            for c in docs["companies"]
        )
        corp_doc = docs["corporations"]
        defaults = corp_doc.get("defaults", {})
        corporations = tuple(
            CorporationData(
                sym=str(c["sym"]),
                name=c["name"],
                tokens=tuple(int(t) for t in c.get("tokens", defaults.get("tokens", []))),
                home=str(c.get("home", "")),
                shares=tuple(int(s) for s in c.get("shares", defaults["shares"])),
                float_percent=int(c.get("float_percent", defaults.get("float_percent", 60))),
                home_city=int(c["home_city"]) if c.get("home_city") is not None else None,
                short=str(c.get("short", str(c["sym"])[:3])),
                destination=str(c["destination"]) if c.get("destination") else None,
            )
            for c in corp_doc["corporations"]
        )
        zones = docs["market"].get("zones", {})
        market = tuple(
            tuple(_parse_cell(cell, zones) for cell in row)
            for row in _changed_rows(docs["market"]["rows"], docs["market"].get("changes") or {})
        )
        trains = tuple(
            TrainData(
                name=str(t["name"]),
                distance=int(t["distance"]),
                price=int(t["price"]),
                count=None if t["count"] == "unlimited" else int(t["count"]),
                rusts_on=str(t["rusts_on"]) if t.get("rusts_on") is not None else None,
                available_on=str(t["available_on"]) if t.get("available_on") is not None else None,
                events=tuple(t.get("events", [])),
                trade_in={str(k): int(v) for k, v in (t.get("trade_in") or {}).items()},
            )
            for t in docs["trains"]["trains"]
        )
        phases = tuple(
            PhaseData(
                name=str(p["name"]),
                on=str(p["on_train"]) if p.get("on_train") is not None else None,
                train_limit=int(p["train_limit"]),
                tiles=tuple(p["tiles"]),
                operating_rounds=int(p["operating_rounds"]),
                corporations_may_buy_privates=bool(p.get("corporations_may_buy_privates", False)),
            )
            for p in docs["trains"]["phases"]
        )
        plain_keys = {
            "title", "name", "currency", "bank_cash", "players", "starting_cash",
            "certificate_limit", "round_steps",
        }
        return TitleData(
            title=str(game["title"]),
            name=game["name"],
            variants=variants,
            currency=game.get("currency", "${}"),
            bank_cash=int(game["bank_cash"]),
            min_players=int(game["players"]["min"]),
            max_players=int(game["players"]["max"]),
            starting_cash={int(k): int(v) for k, v in game["starting_cash"].items()},
            certificate_limit={int(k): int(v) for k, v in game["certificate_limit"].items()},
            constants={k: v for k, v in game.items() if k not in plain_keys},
            companies=companies,
            corporations=corporations,
            market=market,
            market_legend={str(k): str(v) for k, v in (docs["market"].get("zone_text") or {}).items()},
            trains=trains,
            phases=phases,
            round_steps={k: tuple(v) for k, v in game.get("round_steps", {}).items()},
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"rules for {title}: bad or missing value ({exc!r})") from None
