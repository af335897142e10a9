"""Private companies' special abilities as typed values, one frozen dataclass a kind (issue
20: "private abilities as typed per-kind classes a title can add without editing the core").

A company's ``abilities`` in ``companies.yaml`` name their ``kind``; the loader builds each
with the class of that kind from :data:`CORE_ABILITIES` or the title's own (its composer's
:meth:`~pbem.ruleset.composer.TitleComposer.ability_kinds`), checking its keys against the
class's fields. Code asks a company for one by class: ``company.ability(Teleport)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar, Literal, Mapping

from pbem.engine.ids import ShareId

Holder = Literal["corporation", "player"]
"""Who may use an ability: the corporation owning the company, or the player."""


@dataclass(frozen=True)
class Ability:
    """One special ability; ``kind`` is its name in ``companies.yaml``."""

    kind: ClassVar[str] = ""


@dataclass(frozen=True)
class BlocksHexes(Ability):
    """No tile may go on ``hexes`` while a player owns the company (1830's privates, each
    on its own hex: their ``blocks_hexes`` in ``companies.yaml``)."""

    kind: ClassVar[str] = "blocks_hexes"
    hexes: tuple[str, ...] = ()


@dataclass(frozen=True)
class TileLayAbility(Ability):
    """The owning corporation may lay one of ``tiles`` on one of ``hexes``: on top of its
    normal lays (``extra``) or as one of them; where ``reachable``, only on a hex its track
    reaches; ``discount`` off the terrain cost (money). 1830's C&StL, 1870's bridge company."""

    kind: ClassVar[str] = "tile_lay"
    hexes: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()
    owner: Holder = "corporation"
    count: int = 1
    extra: bool = True
    reachable: bool = True
    discount: int = 0


@dataclass(frozen=True)
class Teleport(Ability):
    """The owning corporation may lay one of ``tiles`` on one of ``hexes`` and place a
    station token there, reached or not (1830's D&H)."""

    kind: ClassVar[str] = "teleport"
    hexes: tuple[str, ...] = ()
    tiles: tuple[str, ...] = ()
    owner: Holder = "corporation"


@dataclass(frozen=True)
class ExchangeForShare(Ability):
    """The owning player may exchange the company for a share of ``corporation`` from the
    places ``from_`` names (1830's M&H)."""

    kind: ClassVar[str] = "exchange"
    corporation: str = ""
    from_: tuple[Literal["ipo", "pool"], ...] = ("ipo", "pool")
    owner: Holder = "player"


@dataclass(frozen=True)
class Shares(Ability):
    """The company comes with the certificate ``share`` (``"PRR_1"``: the corporation's
    symbol and the certificate's index, as the title data writes it; :attr:`share_id` reads it)."""

    kind: ClassVar[str] = "shares"
    share: str = ""

    @property
    def share_id(self) -> ShareId:
        """The certificate as a value.

        :raises ValueError: ``share`` is not ``<corporation>_<index>``."""
        return ShareId.parse(self.share)

    @property
    def corporation(self) -> str:
        return self.share_id.corporation

    @property
    def index(self) -> int:
        return self.share_id.index


@dataclass(frozen=True)
class NoBuy(Ability):
    """No corporation may buy the company."""

    kind: ClassVar[str] = "no_buy"


@dataclass(frozen=True)
class CloseOnTrain(Ability):
    """The company closes when ``corporation`` buys its first train (1830's B&O)."""

    kind: ClassVar[str] = "close_on_train"
    corporation: str = ""


@dataclass(frozen=True)
class CloseAfterPar(Ability):
    """The company closes once the corporation whose certificate it carries has a par."""

    kind: ClassVar[str] = "close_after_par"


@dataclass(frozen=True)
class MaxPriceUntilTrain(Ability):
    """A corporation pays at most ``max_price`` (money) for the company until the first
    ``train`` is sold."""

    kind: ClassVar[str] = "max_price_until_train"
    train: str = ""
    max_price: int = 0


@dataclass(frozen=True)
class BuyableInPhase1(Ability):
    """In the first phase ``corporations`` may buy the company, for ``min_price`` to
    ``max_price`` (money)."""

    kind: ClassVar[str] = "buyable_in_phase_1"
    corporations: tuple[str, ...] = ()
    min_price: int = 0
    max_price: int = 0


@dataclass(frozen=True)
class FreeHomeLay(Ability):
    """One of ``corporations`` buying the company before its first turn ends lays in its home
    city free (``extra``: on top of its lays)."""

    kind: ClassVar[str] = "free_home_lay"
    corporations: tuple[str, ...] = ()
    extra: bool = True


@dataclass(frozen=True)
class Bonus:
    """What a run stopping at a token earns more (money): the token's corporation
    ``owner``, every other corporation ``others``."""

    owner: int = 0
    others: int = 0


@dataclass(frozen=True)
class TokenKind:
    """One kind of token a company places, and its bonus."""

    bonus: Bonus = Bonus()


@dataclass(frozen=True)
class AssignHexes(Ability):
    """The owning corporation places the company's ``token`` (or, with ``tokens``, one of
    its kinds by name) on one of ``hexes``, up to ``count`` times; a run stopping there earns
    the ``bonus``."""

    kind: ClassVar[str] = "assign_hexes"
    hexes: tuple[str, ...] = ()
    token: str = "token"
    owner: Holder = "corporation"
    count: int = 1
    bonus: Bonus | None = None
    tokens: Mapping[str, TokenKind] = field(default_factory=lambda: MappingProxyType({}))


CORE_ABILITIES: Mapping[str, type[Ability]] = MappingProxyType({cls.kind: cls for cls in (
    BlocksHexes, TileLayAbility, Teleport, ExchangeForShare, Shares, NoBuy, CloseOnTrain, CloseAfterPar,
    MaxPriceUntilTrain, BuyableInPhase1, FreeHomeLay, AssignHexes)})
"""The kinds the core reads, by name."""
