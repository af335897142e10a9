"""The variant's own actions: a private's owner designating the public company that gets its
power, and that company using it (a tile lay at Durham or on the mountain P14, a token in
Dover). Their order words are in :mod:`pbem.titles.g1825.lorenz.orders`.

The uses are the core's :class:`~pbem.engine.actions.LayTile` and
:class:`~pbem.engine.actions.PlaceToken` with ``using`` naming the private, of types of their
own so that the variant's step takes them (and every other lay or token goes its usual way).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pbem.engine.actions import Action, LayTile, PlaceToken

__all__ = ["Designate", "PowerLay", "PowerToken"]


@dataclass(frozen=True, slots=True)
class Designate(Action):
    """The owner of private ``company`` names ``corporation``, an operating public company
    they direct, as the one that gets the private's power (Lorenz rule 5)."""

    kind: ClassVar[str] = "designate"
    named: ClassVar[str] = "ASSIGN"
    company: str
    corporation: str


@dataclass(frozen=True, slots=True)
class PowerLay(LayTile):
    """The designated company lays a tile with a private's power (``using``: TWW at Durham,
    C&HP on the mountain P14)."""

    kind: ClassVar[str] = "power_lay"
    named: ClassVar[str] = "a lay with a private's power"

    def __post_init__(self) -> None:
        LayTile.__post_init__(self)
        if not self.using:
            raise ValueError("a lay with a private's power names the private")


@dataclass(frozen=True, slots=True)
class PowerToken(PlaceToken):
    """The designated company places a token with a private's power (``using``: C&W in Dover)."""

    kind: ClassVar[str] = "power_token"
    named: ClassVar[str] = "a token with a private's power"

    def __post_init__(self) -> None:
        if not self.using:
            raise ValueError("a token with a private's power names the private")
