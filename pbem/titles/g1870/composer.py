"""1870's data before a game: the settings of its own rules and the documents the Historical
Order Start and the AT&SF's destination change (issue 20: data composition is the loader's)."""

from __future__ import annotations

from typing import Any, Mapping

from pbem.engine.settings import Settings
from pbem.ruleset.composer import TitleComposer
from pbem.titles.g1870 import atsf, gmo, historical, illinois, katy, mkt_private, ohio, small_cities
from pbem.titles.g1870.settings import Settings1870


class Composer1870(TitleComposer):
    """1870's settings and composed documents."""

    @classmethod
    def settings_type(cls) -> type[Settings]:
        """:class:`~pbem.titles.g1870.settings.Settings1870`."""
        return Settings1870

    @classmethod
    def title_rules(cls) -> Mapping[str, bool | int | str]:
        """``small_cities`` (default off): Jerkich's small-cities variant
        (:mod:`pbem.titles.g1870.small_cities`); the Historical Order Start's settings
        (:mod:`pbem.titles.g1870.historical`, :mod:`~pbem.titles.g1870.ohio`, :mod:`~pbem.titles.g1870.gmo`)."""
        return {**super().title_rules(), small_cities.RULE: False, **historical.DEFAULTS,
                **atsf.DEFAULTS, **ohio.DEFAULTS, **gmo.DEFAULTS, **illinois.DEFAULTS, **mkt_private.DEFAULTS,
                **katy.DEFAULTS}

    @classmethod
    def compose(cls, documents: Mapping[str, Any], parts: Mapping[str, Any],
                variants: tuple[str, ...]) -> dict[str, Any]:
        """With the Historical Order Start, the GM&O's president's certificate is the fifth
        private instead of the Frisco's (:func:`pbem.titles.g1870.historical.composed`); the
        AT&SF's destination is Galveston, which takes the P tile (:func:`.atsf.composed`)."""
        return atsf.composed(historical.composed(super().compose(documents, parts, variants)))
