"""The games the random driver plays: each title with each of its options, and for 1825 its
units alone and combined, with the kits that join them.

A :class:`Setup` names a title, the options (variants, as ``pbem new-game --variant`` takes
them) and the number of players; :func:`resolved` gives the variants a game of it really
plays (the title's own resolution, which refuses a combination the title refuses).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from pbem.errors import ConfigError


@dataclass(frozen=True)
class Setup:
    """One title with options: ``variants`` as named at ``new-game``; ``players`` seats."""

    title: str
    variants: tuple[str, ...] = ()
    players: int = 4

    @property
    def name(self) -> str:
        """``"1825 unit_1+r1 (4 players)"``: how a run names the setup."""
        options = "+".join(self.variants) or "base"
        return f"{self.title} {options} ({self.players} players)"

    def command_options(self) -> str:
        """The benchmark's options that select this setup (``--title 1825 --options unit_1 r1
        --players 4``)."""
        options = f" --options {' '.join(self.variants)}" if self.variants else ""
        return f"--title {self.title}{options} --players {self.players}"


def resolved(setup: Setup) -> tuple[str, ...]:
    """The variants a game of ``setup`` plays (the title's composer's ``resolve_variants``).

    :raises ConfigError: a combination of options, or a number of players, the title refuses.
    """
    from pbem.ruleset.files import known_titles
    from pbem.titles import composer_class

    if setup.title not in known_titles():
        raise ConfigError(f"unknown title {setup.title!r}; known: {', '.join(known_titles())}")
    return composer_class(setup.title).resolve_variants(tuple(setup.variants), setup.players)


_1870_OPTIONS = ("dixon", "diesels", "finish_on_400", "original_market", "original_tiles", "station_wars",
                 "max_reissue_200", "can_protect_if_sold", "original_rules", "small_cities",
                 "historical_order_start")

SETUPS: tuple[Setup, ...] = (
    Setup("1830", (), 4),
    Setup("1830", ("multiple_brown_from_ipo",), 5),
    Setup("1870", (), 4),
    *(Setup("1870", (option,), 3 + i % 3) for i, option in enumerate(_1870_OPTIONS)),
    Setup("1870", ("historical_order_start", "dixon", "diesels"), 4),
    Setup("1825", ("unit_1",), 4),
    Setup("1825", ("unit_2",), 3),
    Setup("1825", ("unit_3",), 2),
    Setup("1825", ("unit_12",), 6),
    Setup("1825", ("unit_23",), 4),
    Setup("1825", ("unit_123",), 8),
    Setup("1825", ("unit_1", "r1"), 4),
    Setup("1825", ("unit_1", "r2", "r3"), 5),
    Setup("1825", ("unit_1", "k7", "k1"), 4),
    Setup("1825", ("unit_1", "k6", "db1"), 4),
    Setup("1825", ("unit_1", "d1", "db2"), 4),
    Setup("1825", ("unit_2", "k5"), 3),
    Setup("1825", ("unit_3", "u3p", "db3"), 2),
    Setup("1825", ("unit_3", "unit_4"), 2),
    Setup("1825", ("unit_12", "k3", "k2", "big_bank"), 6),
    Setup("1825", ("unit_123", "r1", "r2", "r3", "strict_bank"), 8),
    Setup("1825", ("unit_1", "lorenz"), 4),
    Setup("1829", (), 5),
    Setup("1829", ("south",), 4),
    Setup("1829", ("north",), 4),
    Setup("1829", ("gnsr", "five_e", "liverpool_water"), 6),
    Setup("1829", ("big_bank",), 4),
)
"""Every title and option set the driver covers (each combination 18xx.games allows; the
1825 kits each joined to a unit they need; 1829 on each board and with its options)."""


def add_setup_arguments(parser: argparse.ArgumentParser) -> None:
    """The command-line choice of setups and seeds that :func:`setups_for` reads
    (``--title``, ``--options``, ``--players``, ``--games``, ``--seed``, ``--max-actions``)."""
    parser.add_argument("--title", help="1830, 1870 or 1825 (default: every title)")
    parser.add_argument("--options", nargs="*", help="the variants of one setup (none: the base game)")
    parser.add_argument("--players", type=int, help="the number of players (default: the setup's)")
    parser.add_argument("--games", type=int, default=1, help="games of each setup")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--max-actions", type=int, default=20_000, help="a game longer than this fails")


def setups_for(title: str | None = None, options: tuple[str, ...] | None = None,
               players: int | None = None) -> list[Setup]:
    """The setups of :data:`SETUPS` for ``title`` (all when None); with ``options``, the one
    setup of exactly those options (made if :data:`SETUPS` has none), with ``players`` seats
    (else the listed setup's, or 4)."""
    chosen = [s for s in SETUPS if title is None or s.title == title]
    if options is not None:
        if title is None:
            raise ConfigError("options need a title")
        found = [s for s in chosen if s.variants == options]
        base = found[0].players if found else 4
        return [Setup(title, options, players or base)]
    if players is not None:
        chosen = [Setup(s.title, s.variants, players) for s in chosen]
    return chosen
