"""A title's data before a game: how its documents are put together for the variants in play,
which variants a game really plays, and the settings of the title's own rules. The loader asks
these; the engine never does.

A title's package (``pbem.titles.g<title>``) may expose ``COMPOSER``, a subclass of
:class:`TitleComposer` overriding what differs; without one, the title's data is composed as
1830's is. Source: issue 12 (the extension points of a composed title), issue 20 (data
composition belongs to the rules loader).
"""

from __future__ import annotations

from typing import Any, Mapping

from pbem.engine.abilities import CORE_ABILITIES, Ability
from pbem.engine.settings import Settings


class TitleComposer:
    """1830's composition: the documents as they are, the variants as asked, 1830's settings."""

    @classmethod
    def compose(cls, documents: Mapping[str, Any], parts: Mapping[str, Any],
                variants: tuple[str, ...]) -> dict[str, Any]:
        """The title's data documents for ``variants``, built before they are checked and
        loaded: ``documents`` maps a file stem (``game``, ``companies``, ``corporations``,
        ``market``, ``trains``, ``extras``, ``map``) to its parsed YAML with the variants'
        overlays merged in, ``parts`` maps the stem of each ``rules/<title>/parts/*.yaml``
        to its parsed YAML. The result is checked against the schema like any title's files.
        Must not change its inputs (copy what it changes). 1825 composes the map, tiles,
        trains, bank and certificate limits of its units and kits here. 1830: as they are."""
        return dict(documents)

    @classmethod
    def resolve_variants(cls, variants: tuple[str, ...], players: int) -> tuple[str, ...]:
        """The variants a new game of ``players`` seats plays when ``variants`` are asked
        for: the title's defaults filled in, combinations in their canonical form (1825: with
        no unit named, the unit follows the number of players). Asked when a game is created
        and when a record is imported, before the title is loaded.

        :raises ConfigError: a combination the title does not allow, with the reason.
        1830: the variants as asked."""
        return tuple(variants)

    @classmethod
    def settings_type(cls) -> type[Settings]:
        """The type of the title's settings (``game.yaml``): the core's
        :class:`~pbem.engine.settings.Settings`, or a subclass adding the title's own keys
        with their defaults (1870's destinations, redemption, price protection)."""
        return Settings

    @classmethod
    def ability_kinds(cls) -> Mapping[str, type[Ability]]:
        """The kinds of private abilities the title's ``companies.yaml`` may give, by name: the
        core's (:data:`~pbem.engine.abilities.CORE_ABILITIES`) and the title's own classes
        (each a frozen dataclass subclass of :class:`~pbem.engine.abilities.Ability`)."""
        return CORE_ABILITIES

    @classmethod
    def title_rules(cls) -> Mapping[str, bool | int | str]:
        """The settings of the title's own rules (``game.yaml`` ``title_rules``): key -> its
        default, whose type a value must have. The loader refuses any other key and fills in
        the defaults; the title's code reads one with :meth:`~pbem.engine.title.TitleData.
        title_rule`. 1830: ``emergency_train_from_corporation``
        (:data:`pbem.engine.steps.operating.buytrains.EMERGENCY_READINGS`; ``face_value``),
        ``home_naming_no_city`` (:data:`pbem.engine.track.HOME_NAMING_NO_CITY`; ``whole_hex``),
        ``token_city_after_lay``
        (:data:`pbem.engine.steps.operating.tracklay.TOKEN_CITY_AFTER_LAY`; ``layer``)."""
        return {"emergency_train_from_corporation": "face_value", "home_naming_no_city": "whole_hex",
                "token_city_after_lay": "layer"}
