"""A title's settings (``game.yaml``) as the engine reads them: frozen, typed, each default
stated once here (issue 20: settings validated by pydantic reach the engine as frozen
dataclasses, not dicts re-read with their defaults repeated). The loader builds them from
the checked schema (:mod:`pbem.ruleset.schema`, which documents each key); a key a title's
files leave out takes 1830's value given here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Literal, Mapping

from pbem.engine.values import DividendChoice

Capitalization = Literal["full", "incremental"]
"""Full: a corporation receives its whole capital as it floats (1830); incremental: the
price of each share as it is sold from the IPO (1825's minors)."""


def _empty() -> Mapping[Any, Any]:
    """A new read-only empty mapping (a mapping field's default)."""
    return MappingProxyType({})


@dataclass(frozen=True)
class TileLay:
    """One tile lay of a turn: whether it may be a new tile (``"not_if_upgraded"``: only if
    no upgrade came before it this turn), whether it may be an upgrade, and whether its hex
    may be one a tile went on earlier this turn."""

    lay: bool | Literal["not_if_upgraded"] = True
    upgrade: bool = True
    cannot_reuse_same_hex: bool = False


@dataclass(frozen=True)
class TileHexes:
    """Where one tile may go: only these hexes (None: any), never these."""

    only: tuple[str, ...] | None = None
    never: tuple[str, ...] = ()


@dataclass(frozen=True)
class Terms:
    """A title's own words in reports: the president's title (1825: Director) and ASCII
    spellings of its symbols (£ as L)."""

    president: str = "president"
    ascii: Mapping[str, str] = field(default_factory=_empty)


@dataclass(frozen=True)
class HeadingRule:
    """The title's double-heading: at most ``most`` trains on one route; ``lengths`` maps a
    combination (train types joined by ``+``, in the order written) to its length where it
    is not the sum."""

    most: int = 2
    lengths: Mapping[str, int] = field(default_factory=_empty)


@dataclass(frozen=True)
class PrivateTrades:
    """When the player on turn in a stock round may buy another player's private company,
    at a price agreed with its owner: in the phases named (none: never), from stock round
    ``from_stock_round`` on (1: the first)."""

    phases: frozenset[str] = frozenset()
    from_stock_round: int = 1


@dataclass(frozen=True)
class GatingRule:
    """The title's gating pieces: what they are called, how far from a piece a corporation
    may lay (``radius`` in hexes, 0: the piece's hex only), and whether another
    corporation's piece closes its hex (``hostile_blocks``)."""

    name: str = "survey party"
    radius: int = 1
    hostile_blocks: bool = False


@dataclass(frozen=True)
class Settings:
    """The settings of a title's ``game.yaml`` (see :mod:`pbem.ruleset.schema` for each
    key's meaning); each default is 1830's. A title with settings of its own subclasses this
    (its composer's :meth:`~pbem.ruleset.composer.TitleComposer.settings_type`), adding
    fields with their defaults."""

    certificate_limit_by_corporations: Mapping[int, Mapping[int, int]] | None = None
    certificate_limit_includes_privates: bool = True
    max_percent_per_corporation: int = 60
    forced_to_sell_above_percent: bool = True
    emergency_sale_down_to_holding_limit: bool = False
    sale_down_to_holding_limit: bool = False
    pool_share_limit: int = 50
    capitalization: Capitalization = "full"
    sell_after: Literal["first_stock_round"] | None = None
    sell_buy_order: Literal["sell_buy_sell", "sell_buy_or_buy_sell"] = "sell_buy_sell"
    must_sell_in_blocks: bool = False
    sold_out_increase: bool = True
    bid_increment: int = 5
    bid_multiple_of_increment: bool = False
    multiple_buy_from_ipo: bool = False
    tile_lays: tuple[TileLay, ...] = (TileLay(),)
    dividend_choices: tuple[DividendChoice, ...] = (DividendChoice.PAYOUT, DividendChoice.WITHHOLD)
    closed_corporation_trains: Literal["to_pool", "removed"] = "to_pool"
    upgrade_chart: Mapping[str, tuple[str, ...]] | None = None
    tile_hexes: Mapping[str, TileHexes] = field(default_factory=_empty)
    terms: Terms = Terms()
    help_examples: Mapping[str, str] = field(default_factory=_empty)
    help_omit: frozenset[str] = frozenset()
    help_notes: Mapping[str, str] = field(default_factory=_empty)
    upgrade_must_add_run_track: bool = False
    gating_pieces: GatingRule | None = None
    random_seating: bool = False
    private_trades: PrivateTrades = PrivateTrades()
    double_heading: HeadingRule | None = None
    title_rules: Mapping[str, bool | int | str] = field(default_factory=_empty)
    """The settings of the title's own rules (declared by its composer), read with
    :meth:`~pbem.engine.title.TitleData.title_rule`."""
