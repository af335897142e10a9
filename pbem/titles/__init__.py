"""Title plugins: each title's code is the package ``pbem.titles.g<title>`` (``g1830``,
``g1870``), which exposes ``HOOKS``, a subclass of :class:`pbem.engine.hooks.TitleHooks` (or
the class itself). A new title needs a package and its data in ``rules/<title>/``, and no
edit here: :func:`hooks_for` finds the package by its name.
"""

from __future__ import annotations

import importlib

from pbem.engine.hooks import TitleHooks
from pbem.errors import ConfigError


def hooks_class(title: str) -> type[TitleHooks]:
    """The hooks class of ``title`` (``"1870"`` -> ``pbem.titles.g1870.HOOKS``).

    :raises ConfigError: no package ``pbem.titles.g<title>``, or it has no ``HOOKS`` that is a
        :class:`TitleHooks` subclass.
    """
    if not title or not all(ch.isalnum() or ch == "_" for ch in title):
        raise ConfigError(f"no title plugin for {title!r}: a title's name is letters, digits and _")
    name = f"{__name__}.g{title}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise ConfigError(f"no title plugin for {title!r} (no package {name})") from None
    hooks = getattr(module, "HOOKS", None)
    if not (isinstance(hooks, type) and issubclass(hooks, TitleHooks)):
        raise ConfigError(f"{name}.HOOKS is not a TitleHooks class")
    return hooks


def hooks_for(title: str) -> TitleHooks:
    """A fresh instance of ``title``'s hooks (see :func:`hooks_class`).

    :raises ConfigError: ``title`` has no plugin.
    """
    return hooks_class(title)()


__all__ = ["TitleHooks", "hooks_class", "hooks_for"]
