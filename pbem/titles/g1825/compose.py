"""The data of an 1825 game: the documents of the units and kits in play, composed from
``rules/1825/parts/`` (to be filled in)."""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks


class Composition(TitleHooks):
    """1825's ``compose`` and ``resolve_variants`` (to be filled in)."""
