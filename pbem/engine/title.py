"""Title data: the facts of one 18xx title (and its switched-on variants), as values.

A title's data is read from its YAML files (``rules/<title>/``), checked and built by the
loader outside the engine (:func:`pbem.ruleset.load_title`); the engine is given the frozen
:class:`TitleData` and reads no file. Everything here is immutable; the game state refers to
it by symbol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Mapping, TypeVar

from pbem.engine.abilities import Ability
from pbem.engine.board import MapData, TileData
from pbem.engine.settings import Settings

A = TypeVar("A", bound=Ability)

if TYPE_CHECKING:
    from pbem.engine.hooks import TitleHooks
    from pbem.presentation import TitlePresentation


@dataclass(frozen=True)
class CompanyData:
    """A private company: ``value`` is the face value (auction minimum), ``revenue`` per OR."""

    sym: str
    name: str
    value: int
    revenue: int
    abilities: tuple[Ability, ...] = ()
    """Its special abilities, typed by kind (:mod:`pbem.engine.abilities`)."""

    def ability(self, kind: type[A]) -> A | None:
        """The company's first ability of class ``kind`` (``company.ability(Teleport)``), or
        None."""
        return next((a for a in self.abilities if isinstance(a, kind)), None)


@dataclass(frozen=True)
class CorporationData:
    """A corporation: ``shares`` lists the certificate percents, the president's first (a
    president's certificate may be worth several shares: 20 in 1830, 30 for 1829's last
    four); ``kind`` is ``"major"`` or a title's other kind of corporation (1825's
    ``"minor"``), which a title's hooks read (its operating order)."""

    sym: str
    name: str
    tokens: tuple[int, ...]
    home: str
    shares: tuple[int, ...]
    float_percent: int
    home_city: int | None = None
    short: str = ""
    kind: str = "major"
    par: int | None = None
    """The only price it may be started at (money; 1829's starting prices), or None: any par
    value of the market."""
    color: str | None = None
    """The colour of its station tokens on the picture (``#rrggbb``), or None: the picture
    picks one (:func:`pbem.picture.colors.corporation_color`)."""
    extras: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The title's own facts about this corporation, which the core never reads, by key (as
    the loader's schema declares them for ``corporations.yaml``; 1830 has none; 1870: the
    ``destination`` hex)."""


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
    Built by :func:`pbem.ruleset.load_title`; ``board``, ``tiles`` and ``hooks`` are what
    :class:`~pbem.engine.game.Game` plays with (issue 11: the engine is given them).
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
    settings: Settings
    """The settings of ``game.yaml`` beyond the fields above, typed, each default stated once
    (:class:`~pbem.engine.settings.Settings`)."""
    companies: tuple[CompanyData, ...]
    corporations: tuple[CorporationData, ...]
    market: tuple[tuple[MarketCell | None, ...], ...]
    trains: tuple[TrainData, ...]
    phases: tuple[PhaseData, ...]
    board: MapData = field(compare=False, repr=False)
    """The title's map with its variants' changes (``map.yaml``)."""
    tiles: Mapping[str, TileData] = field(compare=False, repr=False)
    """The tile catalogue (``rules/tiles.yaml``): tile name -> tile."""
    hooks: TitleHooks = field(compare=False, repr=False)
    """What the title's data cannot say: its hooks (``pbem.titles.hooks_for``)."""
    presentation: TitlePresentation = field(compare=False, repr=False)
    """The title's order words and report sections (``pbem.titles.presentation_class``);
    carried for the order reader and the report, never called by the engine."""
    round_steps: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    market_legend: Mapping[str, str] = field(default_factory=dict)
    """Zone letter -> its meaning in words, for reports (``market.yaml`` zone_text)."""
    extras: Mapping[str, Any] = field(default_factory=dict)
    """Board facts the map cannot say (``extras.yaml``: 1870's ``mississippi`` and
    ``future_labels``), as checked by the loader's schema."""

    def __deepcopy__(self, memo: dict[int, object]) -> TitleData:
        """The title itself: it is immutable, so a copied game shares it."""
        return self

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

    def title_rule(self, key: str) -> bool | int | str:
        """The setting ``key`` of the title's own rules (``game.yaml`` ``title_rules``, its
        default declared by the title's composer,
        :meth:`~pbem.ruleset.composer.TitleComposer.title_rules`).

        :raises KeyError: the title declares no such setting."""
        return self.settings.title_rules[key]

