"""Title plugins: each title's code is the package ``pbem.titles.g<title>`` (``g1830``,
``g1870``), which exposes ``HOOKS``, a :class:`pbem.engine.hooks.TitleHooks` of its rules'
parts, and may expose ``COMPOSER``, a subclass of
:class:`pbem.ruleset.composer.TitleComposer` (how its data is put together), and
``PRESENTATION``, a subclass of :class:`pbem.presentation.TitlePresentation` (its order words
and report sections); the base where absent. A new title needs a package and its data in
``rules/<title>/``, and no edit here: :func:`hooks_for`, :func:`composer_class` and
:func:`presentation_class` find the package by its name.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TypeVar

from pbem.engine.hooks import TitleHooks
from pbem.errors import ConfigError
from pbem.presentation import TitlePresentation
from pbem.ruleset.composer import TitleComposer

T = TypeVar("T")


def _package(title: str) -> ModuleType:
    """The package ``pbem.titles.g<title>``.

    :raises ConfigError: no such package, or ``title`` is not a title's name."""
    if not title or not all(ch.isalnum() or ch == "_" for ch in title):
        raise ConfigError(f"no title plugin for {title!r}: a title's name is letters, digits and _")
    name = f"{__name__}.g{title}"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name != name:
            raise
        raise ConfigError(f"no title plugin for {title!r} (no package {name})") from None
    return module


def hooks_for(title: str) -> TitleHooks:
    """``title``'s hooks (``"1870"`` -> ``pbem.titles.g1870.HOOKS``); its parts hold no state,
    so every game of the title shares them.

    :raises ConfigError: no package ``pbem.titles.g<title>``, or its ``HOOKS`` is not a
        :class:`TitleHooks`.
    """
    module = _package(title)
    hooks = getattr(module, "HOOKS", None)
    if not isinstance(hooks, TitleHooks):
        raise ConfigError(f"{module.__name__}.HOOKS is not a TitleHooks")
    return hooks


def composer_class(title: str) -> type[TitleComposer]:
    """How ``title``'s data is composed: its package's ``COMPOSER``, or the base
    :class:`TitleComposer` where it has none (``"1825"`` -> ``pbem.titles.g1825.COMPOSER``).

    :raises ConfigError: no package ``pbem.titles.g<title>``, or its ``COMPOSER`` is not a
        :class:`TitleComposer` subclass.
    """
    return _part(title, "COMPOSER", TitleComposer)


def presentation_class(title: str) -> type[TitlePresentation]:
    """``title``'s order words and report sections: its package's ``PRESENTATION``, or the
    base :class:`TitlePresentation` where it has none.

    :raises ConfigError: no package ``pbem.titles.g<title>``, or its ``PRESENTATION`` is not a
        :class:`TitlePresentation` subclass.
    """
    return _part(title, "PRESENTATION", TitlePresentation)


def _part(title: str, name: str, base: type[T]) -> type[T]:
    """The class ``name`` of ``title``'s package, ``base`` where it has none.

    :raises ConfigError: no such package, or the class is not a subclass of ``base``."""
    module = _package(title)
    found = getattr(module, name, base)
    if not (isinstance(found, type) and issubclass(found, base)):
        raise ConfigError(f"{module.__name__}.{name} is not a {base.__name__} class")
    return found


__all__ = ["TitleComposer", "TitleHooks", "TitlePresentation", "composer_class", "hooks_for", "presentation_class"]
