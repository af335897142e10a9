"""1870's own settings (``game.yaml``), typed, each default stated once (issue 20): what the
core's :class:`~pbem.engine.settings.Settings` has, and destinations, connection runs, price
protection, redemption and reissue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pbem.engine.settings import Capitalization, Settings
from pbem.engine.values import DividendChoice

if TYPE_CHECKING:
    from pbem.engine.title import TitleData


@dataclass(frozen=True)
class ShareRedemption:
    """When a corporation may redeem its own shares (1870 rules): at most this many in its
    treasury before, and only once it has operated."""

    max_treasury_shares_before: int = 3
    needs_operated: bool = True


@dataclass(frozen=True)
class ShareReissue:
    """How a corporation's reissued shares are priced (1870): the new par at most
    ``max_price`` (None: any top-row price)."""

    max_price: int | None = None


@dataclass(frozen=True)
class Settings1870(Settings):
    """1870's settings beyond the core's (see :mod:`pbem.ruleset.schema` for each key)."""

    capitalization_after_reissue: Capitalization | None = None
    destination_token_value: int = 100
    destination_token_takes_a_slot: bool = False
    connection_run_choices: tuple[DividendChoice, ...] = (DividendChoice.PAYOUT, DividendChoice.WITHHOLD)
    price_protection_barred_if_president_sold_this_round: bool = True
    share_redemption: ShareRedemption = ShareRedemption()
    share_reissue: ShareReissue = ShareReissue()


def settings1870(title: TitleData) -> Settings1870:
    """``title``'s settings, an 1870 game's (its composer builds :class:`Settings1870`)."""
    found = title.settings
    assert isinstance(found, Settings1870), "an 1870 title's settings are Settings1870"
    return found
