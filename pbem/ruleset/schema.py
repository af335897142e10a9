"""The schema of a title's data files (``rules/<title>/*.yaml``), as pydantic models.

Every model forbids keys it does not declare, so a misspelt or unknown key fails the load (the
loader names the file and the key path). Each declared key is read by the code (the test
``tests/test_ruleset.py`` checks that): a fact the code does not read has no key, it is prose
in the file's comments. ``game.yaml`` keys other than the title's identity, money and players
reach the engine as its typed, frozen settings (:class:`pbem.engine.settings.Settings`,
``TitleData.settings``); a key left out of the file takes the one default stated there. The map and the tile catalogue
(``map.yaml``, ``tiles.yaml``) are checked by :mod:`pbem.ruleset.board`.

Source: issue 11 ("title data validated by a schema: an unknown or unread key fails the load
with the file and key named").
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DividendChoice = Literal["payout", "half", "withhold"]


class Strict(BaseModel):
    """Base of every model: unknown keys are refused, values are frozen; a validator is
    built on first use (most models are only ever used inside a file's model)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


# --- game.yaml -----------------------------------------------------------------------------


class Players(Strict):
    """How many may play: ``min`` to ``max`` seats."""

    min: int
    max: int


class TileLay(Strict):
    """One tile lay of an operating turn: ``lay`` a new tile (or ``not_if_upgraded``: only if
    no upgrade was made this turn), ``upgrade`` a tile, never twice on one hex
    (``cannot_reuse_same_hex``)."""

    lay: bool | Literal["not_if_upgraded"]
    upgrade: bool
    cannot_reuse_same_hex: bool | None = None


class ShareRedemption(Strict):
    """A corporation buying back its own shares (1870): only when its treasury holds at most
    ``max_treasury_shares_before`` shares, and (``needs_operated``) once it has operated."""

    max_treasury_shares_before: int | None = None
    needs_operated: bool | None = None


class ShareReissue(Strict):
    """Reissuing redeemed shares (1870): ``max_price`` caps the new par (None: no cap)."""

    max_price: int | None = None


class TileHexes(Strict):
    """Where one tile may go: ``only`` on these hexes, or ``never`` on these."""

    only: list[str] | None = None
    never: list[str] | None = None


class GatingPieces(Strict):
    """Per-corporation map pieces that gate track laying (1829's survey parties): a
    corporation may lay or upgrade a tile only on a hex within ``radius`` hexes of one of
    its pieces (0: the piece's own hex); with ``hostile_blocks``, not on a hex holding
    another corporation's piece. ``name`` is what reports and refusals call a piece."""

    name: str = "survey party"
    radius: int = Field(default=1, ge=0)
    hostile_blocks: bool = False


class PrivateTradesData(Strict):
    """Private companies sold between players: in a stock round, the player on turn may buy
    another player's private at a price agreed with its owner, as the turn's purchase, in
    the ``phases`` named (none: never) from stock round ``from_stock_round`` on (1830 and
    1870 as 18xx.games plays them)."""

    phases: list[str] = Field(default_factory=list)
    from_stock_round: int = Field(default=1, ge=1)


class DoubleHeading(Strict):
    """Several trains run as one (1825's double-heading): at most ``most`` trains on one
    route, its length the sum of their lengths unless ``lengths`` names the combination
    (train types joined by ``+`` in the order written, e.g. ``{"2+2": 3}``); the route's
    revenue is counted once."""

    most: int = Field(default=2, ge=2)
    lengths: dict[str, int] = Field(default_factory=dict)


class Terms(Strict):
    """The title's own words where they differ from 1830's, for the reports: ``president``
    (1825's "Director") and ``ascii``, how the plain-ASCII reports spell characters of the
    title's text that have no ASCII form (``{"£": "L"}``: a report would show ``?``)."""

    president: str | None = None
    ascii: dict[str, str] | None = None


class GameData(Strict):
    """``game.yaml``: the title's identity, money, players and rule constants.

    Money is an int in the title's currency (``currency`` is a format string such as
    ``"${}"``); percentages are whole percents of a corporation.
    """

    title: str
    name: str
    currency: str = "${}"
    bank_cash: int
    players: Players
    starting_cash: dict[int, int]
    certificate_limit: dict[int, int]
    round_steps: dict[str, list[str]] = Field(default_factory=dict)
    # the rest are settings, read through TitleData.settings (pbem.engine.settings)
    certificate_limit_by_corporations: dict[int, dict[int, int]] | None = None
    certificate_limit_includes_privates: bool | None = None
    max_percent_per_corporation: int | None = None
    forced_to_sell_above_percent: bool | None = None
    emergency_sale_down_to_holding_limit: bool | None = None
    sale_down_to_holding_limit: bool | None = None
    pool_share_limit: int | None = None
    capitalization: Literal["full", "incremental"] | None = None
    capitalization_after_reissue: Literal["full", "incremental"] | None = None
    sell_after: Literal["first_stock_round"] | None = None
    sell_buy_order: Literal["sell_buy_sell", "sell_buy_or_buy_sell"] | None = None
    must_sell_in_blocks: bool | None = None
    sold_out_increase: bool | None = None
    bid_increment: int | None = None
    bid_multiple_of_increment: bool | None = None
    multiple_buy_from_ipo: bool | None = None
    tile_lays: list[TileLay] | None = None
    dividend_choices: list[DividendChoice] | None = None
    destination_token_value: int | None = None
    destination_token_takes_a_slot: bool | None = None
    connection_run_choices: list[DividendChoice] | None = None
    price_protection_barred_if_president_sold_this_round: bool | None = None
    share_redemption: ShareRedemption | None = None
    share_reissue: ShareReissue | None = None
    closed_corporation_trains: Literal["to_pool", "removed"] | None = None
    upgrade_chart: dict[str, list[str]] | None = None
    tile_hexes: dict[str, TileHexes] | None = None
    terms: Terms | None = None
    help_examples: dict[str, str] | None = None
    """HELP's examples in the title's own names: the core's example (``"SELL 2 B&O"``) -> the
    title's (``"SELL 2 GWR"``); an example not named stays as the core writes it."""
    help_omit: list[str] | None = None
    """The syntaxes of the core's HELP entries the title has no use for (1825: no company
    buys a private, ``"BUY <private> <price>"``); a variant may give the list anew."""
    help_notes: dict[str, str] | None = None
    """Paragraphs HELP adds after the orders, under "Rules of this game": a heading -> its
    text (paragraphs parted by a blank line). A mapping, so that each variant's overlay adds
    its own notes to those of the title and of the variants it includes."""
    upgrade_must_add_run_track: bool = False
    """Dixon 6.2: an upgrade must add track the corporation can run on, or raise the value
    of a city it runs to (the ``dixon`` variant of 1870 sets it)."""
    gating_pieces: GatingPieces | None = None
    """Map pieces of each corporation that gate its track lays (see :class:`GatingPieces`)."""
    random_seating: bool | None = None
    """The seating order is drawn at random when a game is created (``pbem new-game``; the GM
    may say otherwise with ``--listed-seating``). Lorenz's 1825 sets it."""
    private_trades: PrivateTradesData | None = None
    """Private companies sold between players (see :class:`PrivateTradesData`); None: never."""
    double_heading: DoubleHeading | None = None
    """Trains that may run as one (see :class:`DoubleHeading`); None: each train alone."""
    title_rules: dict[str, bool | int | str] | None = None
    """Settings of the title's own rules that the core does not know (a reading the title's
    code chooses between where the rule's text is silent; Lorenz's 1825), each declared with
    its default by the title's composer
    (:meth:`~pbem.ruleset.composer.TitleComposer.title_rules`): the loader refuses a key the
    title does not declare and a value of another type than its default's, and fills in the
    defaults; read through :meth:`~pbem.engine.title.TitleData.title_rule`. A variant changes
    one as it changes any setting."""


IDENTITY_KEYS = frozenset(
    {"title", "name", "currency", "bank_cash", "players", "starting_cash", "certificate_limit", "round_steps"}
)
"""``game.yaml`` keys that become :class:`~pbem.engine.title.TitleData` fields; the others are
its settings."""


# --- companies.yaml ------------------------------------------------------------------------


class Company(Strict):
    """A private company: face ``value`` and ``revenue`` per operating round, in money;
    ``abilities``, each a mapping with its ``kind`` and that kind's keys, checked by the loader
    against the title's ability classes (:mod:`pbem.engine.abilities`, the composer's
    ``ability_kinds``)."""

    sym: str
    name: str
    value: int
    revenue: int
    abilities: list[dict[str, Any]] = Field(default_factory=list)


# --- corporations.yaml ---------------------------------------------------------------------


class CorporationDefaults(Strict):
    """What a corporation without its own entry has: certificate ``shares`` (percents, the
    president's first), ``tokens`` (their costs), ``float_percent``."""

    shares: list[int]
    tokens: list[int] | None = None
    float_percent: int | None = None
    kind: str | None = None


class Corporation(Strict):
    """One corporation: ``home`` hex (and ``home_city`` on a hex of two cities), ``tokens``
    (costs), ``destination`` hex (1870), ``short`` name for the map, ``color`` of its
    station tokens on the picture (``#rrggbb``), ``kind`` (``major``, the default, or a
    title's other kinds: 1825's ``minor``)."""

    sym: str
    name: str
    short: str | None = None
    color: str | None = Field(default=None, pattern=r"^#[0-9a-fA-F]{6}$")
    tokens: list[int] | None = None
    home: str | None = None
    home_city: int | None = None
    shares: list[int] | None = None
    float_percent: int | None = None
    destination: str | None = None
    kind: str | None = None
    par: int | None = None
    """The only price the corporation may be started at (a par value of the market), where
    the title fixes it (1829's starting share prices); None: any par value."""


class CorporationsFile(Strict):
    """``corporations.yaml``."""

    defaults: CorporationDefaults
    corporations: list[Corporation]


# --- market.yaml ---------------------------------------------------------------------------


class Zone(Strict):
    """The flags a zone letter gives a market cell."""

    par: bool | None = None
    counts_for_limit: bool | None = None
    unlimited_holding: bool | None = None
    buy_multiple: bool | None = None
    closes: bool | None = None
    ends_game: bool | None = None


class MarketFile(Strict):
    """``market.yaml``: ``rows`` of cells (price and zone letters, ``""`` for no cell),
    ``zones`` (letter -> flags), ``zone_text`` (letter -> words for reports), and a variant's
    ``changes`` (``"row,col"`` -> cell)."""

    rows: list[list[str | int]]
    zones: dict[str, Zone] = Field(default_factory=dict)
    zone_text: dict[str, str] = Field(default_factory=dict)
    changes: dict[str, str | int] = Field(default_factory=dict)


# --- trains.yaml ---------------------------------------------------------------------------


class Train(Strict):
    """A train type: ``distance`` in stops, ``price`` in money, ``count`` or ``unlimited``."""

    name: str
    distance: int
    price: int
    count: int | Literal["unlimited"]
    rusts_on: str | None = None
    available_on: str | None = None
    events: list[str] = Field(default_factory=list)
    trade_in: dict[str, int] = Field(default_factory=dict)


class Phase(Strict):
    """A phase, from the first purchase of the train ``on_train`` (none for the first)."""

    name: str
    on_train: str | None = None
    train_limit: int
    tiles: list[str]
    operating_rounds: int
    corporations_may_buy_privates: bool = False


class TrainsFile(Strict):
    """``trains.yaml``."""

    trains: list[Train]
    phases: list[Phase]


# --- extras.yaml ---------------------------------------------------------------------------


class RiverHex(Strict):
    """A hex the river splits: the corners of its ``line``, the edges on each bank, and the
    bank its city or town stands on (``stops_on``); for a hex whose two towns stand on
    different banks, ``town_banks``: the bank of the town a tile joins to each edge named."""

    line: list[int]
    west: list[int]
    east: list[int]
    stops_on: Literal["west", "east"] | None = None
    town_banks: dict[int, Literal["west", "east"]] | None = None


class River(Strict):
    """A river that no tile may cross while the private ``blocked_by`` is a player's."""

    blocked_by: str
    hexes: dict[str, RiverHex]


class FutureLabel(Strict):
    """The label a hex takes for tiles of ``color``."""

    color: str
    label: str


class ExtrasFile(Strict):
    """``extras.yaml``: board facts the map schema cannot say (1870's Mississippi, the labels
    some cities take at brown and gray)."""

    mississippi: River | None = None
    future_labels: dict[str, list[FutureLabel]] | None = None


FILE_MODELS: dict[str, type[BaseModel]] = {
    "game": GameData,
    "corporations": CorporationsFile,
    "market": MarketFile,
    "trains": TrainsFile,
    "extras": ExtrasFile,
}
"""File stem -> the model of its document (``companies`` is a list of :class:`Company`)."""
