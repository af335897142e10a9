"""Small immutable values of the game state.

:class:`Owner` says who holds a certificate or a private company: a player, a corporation,
a corporation's initial offering (``IPO``, also its treasury) or the bank pool (``POOL``).
It is a tagged tuple (a kind and a name) rather than a string with a prefix, so no caller
slices or builds owner ids; being a tuple of two strings it compares and hashes as fast as
the strings did and copies for free (the state's copies share it).
"""

from __future__ import annotations

from dataclasses import dataclass
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


@dataclass(frozen=True)
class PrivateToken:
    """A private company's token on the map (1870: SCC's cattle token, GSC's port): on
    ``hex``, serving ``corporation`` (the owner that placed it), ``token`` the ability's name
    for it (``"cattle_token"``, ``"open_port"``)."""

    hex: str
    corporation: str
    token: str


class DisplacedToken(NamedTuple):
    """A station token waiting to be put back on ``hex`` by ``corporation``, in the city of
    its choice, once a tile lay gives the hex's cities an identity (1830: the OO hexes)."""

    corporation: str
    hex: str
