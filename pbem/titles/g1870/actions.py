"""1870's own actions: where a connected corporation's destination token goes, the GM's
ruling that a connection is made, and a corporation redeeming or reissuing its own shares
(1870 rules). Their order words are in :mod:`pbem.titles.g1870.orders`.

A reader of its log is given them by the title's vocabulary (``Vocabulary.action_types``,
from its order codecs), under the same ``kind`` names the log has always had, so older logs
read back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from pbem.engine.actions import Action

__all__ = ["DestinationToken", "GrantConnection", "Redeem", "Reissue", "StartOutOfOrder"]


@dataclass(frozen=True, slots=True)
class DestinationToken(Action):
    """A corporation that has just connected to its destination places its destination token
    on the map (``"map"``: free, in an extra slot, and the destination counts twice) or keeps
    it on its charter as a spare token (``"charter"``: no bonus). 1870 rules, destinations.

    :raises ValueError: ``choice`` is neither.
    """

    kind: ClassVar[str] = "destination_token"
    choice: Literal["map", "charter"]

    def __post_init__(self) -> None:
        if self.choice not in ("map", "charter"):
            raise ValueError(f"choice must be map or charter, not {self.choice!r}")


@dataclass(frozen=True, slots=True)
class Redeem(Action):
    """The president has ``corporation`` buy back one of its shares into its treasury, from
    the bank pool or (when the pool has none) from player ``source`` (1870 rules: share
    redemption, in the stock round, as the president's turn)."""

    kind: ClassVar[str] = "redeem"
    corporation: str
    source: str = "pool"


@dataclass(frozen=True, slots=True)
class Reissue(Action):
    """The president has ``corporation`` offer for sale again every share it has redeemed,
    at a new par (1870 rules: reissue, in the stock round, as the president's turn). From
    then on a share bought from its treasury pays the corporation (incremental
    capitalization)."""

    kind: ClassVar[str] = "reissue"
    corporation: str


@dataclass(frozen=True, slots=True)
class GrantConnection(Action):
    """A GM ruling that ``corporation`` has connected to its destination whatever the engine
    finds (a table ruling, or a recorded game whose platform granted it): its destination
    token choice and connection run come now (1870 rules, destinations)."""

    kind: ClassVar[str] = "grant_connection"
    gm_only: ClassVar[bool] = True
    corporation: str



@dataclass(frozen=True, slots=True)
class StartOutOfOrder(Action):
    """A GM ruling that ``corporation`` may be started now, whatever the Historical Order
    Start's order says (issue 13: the GM may rule otherwise); given in a stock round as the
    seat whose turn it is, it is no part of that seat's turn."""

    kind: ClassVar[str] = "start_out_of_order"
    gm_only: ClassVar[bool] = True
    corporation: str
