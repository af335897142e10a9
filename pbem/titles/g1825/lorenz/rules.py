"""Kevin Lorenz's private companies for 1825 (to be filled in)."""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks


class LorenzRules(TitleHooks):
    """The ``lorenz`` variant's hooks; plain 1825 where the variant is not in play (to be
    filled in)."""
