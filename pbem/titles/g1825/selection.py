"""What a game of 1825 is made of: its units, regional kits, extension kits and options.

1825 is sold as three units (Unit 1, the south of England; Unit 2, the north of England and
Wales' border; Unit 3, Scotland), three regional kits (R1 Wales, R2 South West England, R3
North Norfolk), extension kits (K1 supplementary tiles, K2 advanced trains, K3 phase four, K5
minors for Unit 2, K6 advanced tiles, K7 the London, Tilbury & Southend) and a development kit
(D1). A game names them as 18xx.games' options do (``unit_1`` ... ``unit_123``, ``r1``,
``k2``, ``d1``, ``big_bank``...). This module reads those names into a :class:`Selection`,
refuses the combinations 18xx.games refuses (its ``meta.rb`` and ``game.rb``: the checks are
the same, the wording is ours), gives the number of players each combination allows, and
chooses the units by the number of players when none is named.

Source: issue 12 ("the constraints between them (which need or exclude which) are refused
with a clear message at new-game. With no unit named, the unit follows the number of players
as 18xx.games does").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from pbem.errors import ConfigError

UNIT_OPTIONS: dict[str, frozenset[int]] = {
    "unit_1": frozenset({1}),
    "unit_2": frozenset({2}),
    "unit_3": frozenset({3}),
    "unit_12": frozenset({1, 2}),
    "unit_23": frozenset({2, 3}),
    "unit_123": frozenset({1, 2, 3}),
}
"""The options naming units, and the units each brings in."""

REGIONAL_OPTIONS: dict[str, int] = {"r1": 1, "r2": 2, "r3": 3}
"""The regional kits: R1 Wales, R2 South West England, R3 North Norfolk."""

KIT_OPTIONS: dict[str, int] = {"k1": 1, "k2": 2, "k3": 3, "k5": 5, "k6": 6, "k7": 7}
"""The extension kits: K1 supplementary tiles, K2 advanced trains, K3 phase four, K5 minors
for Unit 2, K6 advanced tiles, K7 the London, Tilbury & Southend Railway."""

FLAG_OPTIONS: frozenset[str] = frozenset(
    {"u3p", "big_bank", "strict_bank", "db1", "db2", "db3", "unit_4", "d1", "lorenz"}
)
"""The other options: ``u3p`` (two more 3T and U3 trains with Unit 3), ``big_bank`` (the
banks of the combined units added up), ``strict_bank`` (no extra bank for kits and minors),
Dave Berry's ``db1`` (double towns upgrade to 887/888), ``db2`` (SECR changes for Unit 1),
``db3`` (Unit 3 map revision), ``unit_4`` (the unpublished Unit 4, north of Scotland), ``d1``
(development kit 1: additional tiles) and ``lorenz`` (Kevin Lorenz's private companies)."""

SOURCE_OPTIONS: frozenset[str] = (
    frozenset(UNIT_OPTIONS) | frozenset(REGIONAL_OPTIONS) | frozenset(KIT_OPTIONS) | (FLAG_OPTIONS - {"lorenz"})
)
"""Every option 18xx.games offers for 1825 (``lorenz`` is this project's variant)."""

UNIT_NAMES: dict[frozenset[int], str] = {units: name for name, units in UNIT_OPTIONS.items()}
"""A set of units -> the option naming it (1 and 3 without 2 has none: it is refused)."""

PLAYER_RANGES: dict[frozenset[int], tuple[int, int]] = {
    frozenset({1}): (2, 5),
    frozenset({2}): (2, 4),
    frozenset({3}): (2, 2),
    frozenset({1, 2}): (3, 7),
    frozenset({2, 3}): (3, 5),
    frozenset({1, 2, 3}): (4, 8),
}
"""How many may play each combination of units (``min``, ``max``); all three units with a
regional kit allow a ninth player (:data:`MAX_WITH_REGIONALS`)."""

MAX_WITH_REGIONALS = 9
"""The most players of a game of all three units with at least one regional kit."""

DEFAULT_BY_PLAYERS: dict[int, tuple[str, ...]] = {
    2: ("unit_3",),
    3: ("unit_2",),
    4: ("unit_1",),
    5: ("unit_1",),
    6: ("unit_12",),
    7: ("unit_12",),
    8: ("unit_123",),
}
"""The options a game with no 18xx.games option named plays, by the number of players; more
than eight play :data:`DEFAULT_MANY`."""

DEFAULT_MANY: tuple[str, ...] = ("unit_123", "r1", "r2", "r3")
"""What nine (or more) players play when no option is named: all units and regional kits."""


@dataclass(frozen=True)
class Selection:
    """The parts of one game of 1825.

    ``units``: a non-empty subset of {1, 2, 3} in a valid game; ``regionals``: subset of
    {1, 2, 3} (R1, R2, R3); ``kits``: subset of {1, 2, 3, 5, 6, 7}; ``options``: the other
    options named (see :data:`FLAG_OPTIONS`).
    """

    units: frozenset[int] = frozenset()
    regionals: frozenset[int] = frozenset()
    kits: frozenset[int] = frozenset()
    options: frozenset[str] = frozenset()

    @property
    def unit_key(self) -> str:
        """The units as the tables key them: their digits in order (``"12"``, ``"123"``)."""
        return "".join(str(unit) for unit in sorted(self.units))

    @property
    def unit_option(self) -> str | None:
        """The one option naming these units (``unit_12``), or None (none, or 1 and 3)."""
        return UNIT_NAMES.get(self.units)

    def has(self, option: str) -> bool:
        """Whether the game plays ``option``, an option's name (``"r1"``, ``"k3"``,
        ``"big_bank"``, ``"unit_2"`` for "Unit 2 is in play")."""
        if option in UNIT_OPTIONS:
            return UNIT_OPTIONS[option] <= self.units
        if option in REGIONAL_OPTIONS:
            return REGIONAL_OPTIONS[option] in self.regionals
        if option in KIT_OPTIONS:
            return KIT_OPTIONS[option] in self.kits
        return option in self.options

    def player_range(self) -> tuple[int, int]:
        """The fewest and most players these units allow (:data:`PLAYER_RANGES`).

        :raises ConfigError: no units, or Units 1 and 3 without 2.
        """
        if self.units not in PLAYER_RANGES:
            raise ConfigError(_unit_problem(self.units))
        low, high = PLAYER_RANGES[self.units]
        if self.units == frozenset({1, 2, 3}) and self.regionals:
            high = MAX_WITH_REGIONALS
        return low, high


def _unit_problem(units: frozenset[int]) -> str:
    if not units:
        return "1825: no unit named; a game plays unit_1, unit_2, unit_3 or a combination (unit_12, unit_23, unit_123)"
    return "1825: Units 1 and 3 join only through Unit 2; play unit_123 or leave one of them out"


def selection_of(variants: Iterable[str]) -> Selection:
    """The :class:`Selection` the variant names give (names that are not 1825 options, if
    any, are left out; ``unit_1`` and ``unit_2`` named apart add up to Units 1 and 2). It is
    not checked: see :func:`check`."""
    units: set[int] = set()
    regionals: set[int] = set()
    kits: set[int] = set()
    options: set[str] = set()
    for name in variants:
        if name in UNIT_OPTIONS:
            units |= UNIT_OPTIONS[name]
        elif name in REGIONAL_OPTIONS:
            regionals.add(REGIONAL_OPTIONS[name])
        elif name in KIT_OPTIONS:
            kits.add(KIT_OPTIONS[name])
        elif name in FLAG_OPTIONS:
            options.add(name)
    return Selection(frozenset(units), frozenset(regionals), frozenset(kits), frozenset(options))


def check(selection: Selection) -> None:
    """Refuse a combination 18xx.games does not allow (the order of its checks, our words).

    :raises ConfigError: no unit; Units 1 and 3 without 2; a regional kit without Unit 1; K5
        without Unit 2; K7 without Unit 1; K2 with Unit 3 alone; K2 without K3; u3p without
        Unit 3; D1 with K1 or K6; big_bank with strict_bank; db1 with Unit 2 alone; db2
        without Unit 1; db3 without Unit 3; unit_4 without Unit 3.
    """
    s = selection
    named = sorted({*(f"r{r}" for r in s.regionals), *(f"k{k}" for k in s.kits), *(s.options - {"lorenz"})})
    if not s.units and named:
        raise ConfigError(
            f"1825: no unit named beside {', '.join(named)}: the unit follows the number of players only "
            "when no other option is named; name the units too (unit_1, unit_2, unit_3, unit_12, unit_23 "
            "or unit_123)")
    if not s.units or (1 in s.units and 3 in s.units and 2 not in s.units):
        raise ConfigError(_unit_problem(s.units))
    rules: list[tuple[bool, str]] = [
        (bool(s.regionals) and 1 not in s.units, "the regional kits r1, r2 and r3 join Unit 1's map: they need Unit 1"),
        (5 in s.kits and 2 not in s.units, "k5 brings minors for Unit 2: it needs Unit 2"),
        (7 in s.kits and 1 not in s.units, "k7 (London, Tilbury & Southend) is on Unit 1's map: it needs Unit 1"),
        (2 in s.kits and s.units == frozenset({3}), "k2 (advanced trains) is not played with Unit 3 alone"),
        (2 in s.kits and 3 not in s.kits, "k2 (advanced trains) needs k3 (phase four)"),
        ("u3p" in s.options and 3 not in s.units, "u3p adds Unit 3's 3T and U3 trains: it needs Unit 3"),
        ("d1" in s.options and bool(s.kits & {1, 6}), "d1 replaces k1 and k6: play d1 or k1/k6, not both"),
        ("big_bank" in s.options and "strict_bank" in s.options, "big_bank and strict_bank are two sizes of bank: choose one"),
        ("db1" in s.options and s.units == frozenset({2}), "db1 changes nothing in a game of Unit 2 alone"),
        ("db2" in s.options and 1 not in s.units, "db2 changes the SECR of Unit 1: it needs Unit 1"),
        ("db3" in s.options and 3 not in s.units, "db3 revises Unit 3's map: it needs Unit 3"),
        ("unit_4" in s.options and 3 not in s.units, "unit_4 joins Unit 3's map: it needs Unit 3"),
    ]
    for broken, message in rules:
        if broken:
            raise ConfigError(f"1825: {message}")


def resolve(variants: Iterable[str], players: int | None = None) -> tuple[str, ...]:
    """The variants a game of 1825 really plays, checked and in canonical form.

    With no 18xx.games option named (``lorenz`` alone, or nothing), the options follow the
    number of players (:data:`DEFAULT_BY_PLAYERS`: 2 Unit 3, 3 Unit 2, 4-5 Unit 1, 6-7 Units
    1+2, 8 Units 1+2+3, 9 all units and regional kits). The units are named by one option,
    first (``unit_1`` and ``unit_2`` become ``unit_12``); the others follow in the order
    given, each once. ``players`` (None or 0: not known yet) must be in the range of the units
    (:meth:`Selection.player_range`).

    :raises ConfigError: a combination :func:`check` refuses; two unit options of which one
        already combines units (``unit_12`` with ``unit_3``: name ``unit_123``); a number of
        players the units do not allow; no default for fewer than two players.
    """
    names = list(dict.fromkeys(variants))
    if not any(name in SOURCE_OPTIONS for name in names):
        if players is None or players <= 0:
            raise ConfigError("1825: no unit named and no number of players to choose one by")
        if players < 2:
            raise ConfigError(f"1825: {players} player cannot play; 1825 is for 2 to 9 players")
        names = [*DEFAULT_BY_PLAYERS.get(players, DEFAULT_MANY), *names]
    unit_names = [name for name in names if name in UNIT_OPTIONS]
    combined = [name for name in unit_names if len(UNIT_OPTIONS[name]) > 1]
    if combined and len(unit_names) > 1:
        raise ConfigError(
            f"1825: name the units with one option: {' and '.join(unit_names)} overlap "
            f"(unit_12, unit_23 and unit_123 each name their units; or name unit_1, unit_2, unit_3 apart)"
        )
    selection = selection_of(names)
    check(selection)
    low, high = selection.player_range()
    if players and not low <= players <= high:
        units = " + ".join(f"Unit {unit}" for unit in sorted(selection.units))
        extra = " with a regional kit" if selection.regionals and len(selection.units) == 3 else ""
        allowed = f"{low}" if low == high else f"{low} to {high}"
        raise ConfigError(f"1825: {units}{extra} is for {allowed} players, not {players}")
    unit = selection.unit_option
    assert unit is not None  # check() refused every set of units without an option
    return (unit, *(name for name in names if name not in UNIT_OPTIONS))
