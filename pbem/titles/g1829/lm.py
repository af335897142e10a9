"""The L&M (the variant's "Private Railways and Packets"): "As soon as the L&YR floats, the
L&M closes and its owner receives a free share in the L&YR ... This does not affect his or
her buying rights in that share round." The share comes from the L&YR's IPO and is no
purchase: the owner's buy of the turn, the holding limit and the certificate limit are not
asked (the owner may have to sell down at the next turn, as after any gift).

Where a company owns the L&M, the variant is silent: this game's reading gives the share to
the company's Director (a setting, ``lm_share_when_company_owned``: ``director``; ``none``:
the L&M closes and no share is given).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.engine import shares
from pbem.engine.events.base import Event, Money
from pbem.engine.state import IPO, Owner

if TYPE_CHECKING:
    from pbem.engine.game import Game

PRIVATE = "L&M"
CORPORATION = "L&YR"
COMPANY_OWNED_RULE = "lm_share_when_company_owned"


@dataclass(frozen=True)
class ExchangedForShare(Event):
    """``company`` closes; ``player`` receives a ``percent`` share of ``corporation``
    (``player`` None: nobody does)."""

    company: str
    corporation: str
    player: str | None
    percent: int

    def render(self, money: Money) -> str:
        if self.player is None:
            return f"{self.corporation} has floated: {self.company} closes"
        return (f"{self.corporation} has floated: {self.company} closes and {self.player} receives a "
                f"{self.percent}% share of {self.corporation}")


def check(game: Game) -> None:
    """Once the L&YR has floated, close an open L&M and give its owner the share."""
    state = game.state
    if PRIVATE not in state.companies or CORPORATION not in state.corporations:
        return
    company = state.companies[PRIVATE]
    if company.closed or not state.corporations[CORPORATION].floated:
        return
    owner = company.owner
    receiver: str | None = None
    if owner is not None and owner.is_player:
        receiver = owner.name
    elif owner is not None and game.title.title_rule(COMPANY_OWNED_RULE) == "director":
        receiver = state.corporations[owner.name].president
    game.close_company(PRIVATE)
    percent = 0
    if receiver is not None:
        found = shares.pick_certificates(state, IPO, CORPORATION, 1)
        if found:
            percent = found[0].percent
            shares.transfer(found, Owner.player(receiver))
            shares.update_president(state, game.title, CORPORATION, game.pending_events)
        else:
            receiver = None
    game.event(ExchangedForShare(PRIVATE, CORPORATION, receiver, percent))
