"""Small immutable values of the game state.

:class:`Owner` says who holds a certificate or a private company: a player, a corporation,
a corporation's initial offering (``IPO``, also its treasury) or the bank pool (``POOL``).
It is a tagged tuple (a kind and a name) rather than a string with a prefix, so no caller
slices or builds owner ids; being a tuple of two strings it compares and hashes as fast as
the strings did and copies for free (the state's copies share it).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, NamedTuple

OwnerKind = Literal["player", "corporation", "ipo", "pool"]


class Owner(NamedTuple):
    """Who holds a certificate or a private company.

    ``kind`` is ``"player"`` (``name`` is the seat name, ``"Player 1"``), ``"corporation"``
    (``name`` is its symbol, ``"PRR"``), ``"ipo"`` or ``"pool"`` (``name`` is ``"IPO"`` or
    ``"POOL"``; use the constants :data:`IPO` and :data:`POOL`). Build the first two with
    :meth:`player` and :meth:`corporation`.
    """

    kind: OwnerKind
    name: str

    @classmethod
    def player(cls, name: str) -> Owner:
        """The player seated as ``name``."""
        return cls("player", name)

    @classmethod
    def corporation(cls, sym: str) -> Owner:
        """The corporation ``sym`` (owning a private company, or a train's seller)."""
        return cls("corporation", sym)

    @property
    def is_player(self) -> bool:
        """Whether a player holds it."""
        return self.kind == "player"

    @property
    def is_corporation(self) -> bool:
        """Whether a corporation holds it."""
        return self.kind == "corporation"

    def player_name(self) -> str | None:
        """The player's seat name, or None when no player holds it."""
        return self.name if self.kind == "player" else None

    def corporation_sym(self) -> str | None:
        """The corporation's symbol, or None when no corporation holds it."""
        return self.name if self.kind == "corporation" else None


IPO = Owner("ipo", "IPO")
"""A corporation's initial offering (its own unsold certificates; 1870: also its treasury)."""

POOL = Owner("pool", "POOL")
"""The bank pool (the open market)."""


class Vertex(NamedTuple):
    """A stop of the track graph: ``stop`` of the tile showing on ``coord`` (``"c1"``: its
    city 1, ``"t0"``: its town 0, ``"o"``: the off-board area). A tuple of two strings, so
    it hashes and compares as fast as the text it replaces; ``str()`` gives that text
    (``"F20:c1"``), which refusals and reports show. Hex sides stay strings in the graph.
    """

    coord: str
    stop: str

    def __str__(self) -> str:
        return f"{self.coord}:{self.stop}"

    # ordered as their text ("F20:c1" before "F2:o"), as the stops were when they were
    # strings: the searches list stops and routes in this order and break ties by it
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Vertex):
            return NotImplemented
        return str(self) < str(other)

    def __le__(self, other: object) -> bool:
        if not isinstance(other, Vertex):
            return NotImplemented
        return str(self) <= str(other)

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Vertex):
            return NotImplemented
        return str(self) > str(other)

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Vertex):
            return NotImplemented
        return str(self) >= str(other)

    @property
    def is_city(self) -> bool:
        """Whether the stop is a city (``"c<i>"``)."""
        return self.stop[0] == "c"

    @property
    def is_offboard(self) -> bool:
        """Whether the stop is the hex's off-board area (``"o"``)."""
        return self.stop == "o"

    @property
    def number(self) -> int:
        """The city's or town's index on the tile (``"c1"`` -> 1).

        :raises ValueError: for the off-board area, which has none."""
        return int(self.stop[1:])


class DividendChoice(StrEnum):
    """What a corporation does with its run's revenue (1830 rules 6.6; 1870's half)."""

    PAYOUT = "payout"
    HALF = "half"
    WITHHOLD = "withhold"


class CityRef(NamedTuple):
    """City ``city`` (its index on the tile) of the hex ``coord``: the key of
    :attr:`GameState.tokens`; ``str()`` gives the text orders use (``"F20.1"``)."""

    coord: str
    city: int

    def __str__(self) -> str:
        return f"{self.coord}.{self.city}"

    @classmethod
    def parse(cls, text: str) -> CityRef:
        """``"F20.1"`` -> ``CityRef("F20", 1)``.

        :raises ValueError: when the text has no ``.<index>`` part or the index is no number."""
        coord, sep, city = text.rpartition(".")
        if not sep or not coord:
            raise ValueError(f"{text} names no city")
        return cls(coord, int(city))


@dataclass(frozen=True)
class PrivateToken:
    """A private company's token on the map (1870: SCC's cattle token, GSC's port): on
    ``hex``, serving ``corporation`` (the owner that placed it), ``token`` the ability's name
    for it (``"cattle_token"``, ``"open_port"``)."""

    hex: str
    corporation: str
    token: str


class DisplacedToken(NamedTuple):
    """``corporation``'s station token waiting to be put back on ``hex``, in the city its
    ``chooser`` chooses (a corporation whose president acts; empty: ``corporation``), once a
    tile lay gives the hex's cities an identity (1830: the OO hexes)."""

    corporation: str
    hex: str
    chooser: str = ""
