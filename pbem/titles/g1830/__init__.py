"""1830 (Avalon Hill, 1986): the base title. Its rules are the core's own; its hooks are the
base :class:`~pbem.engine.hooks.TitleHooks`, every part 1830's."""

from __future__ import annotations

from pbem.engine.hooks import TitleHooks

HOOKS = TitleHooks()
"""1830's hooks: the core's parts (every method documents the 1830 rule it implements)."""
