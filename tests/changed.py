"""A title's data with some of its settings given anew, for a test's made-up position
(:class:`pbem.engine.settings.Settings` is frozen: a test replaces it, never edits it)."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import Any

from pbem.engine.title import TitleData


def with_settings(title: TitleData, **changes: Any) -> TitleData:
    """``title`` with the settings ``changes`` names (``pool_share_limit=40``)."""
    return dataclasses.replace(title, settings=dataclasses.replace(title.settings, **changes))


def with_title_rules(title: TitleData, **rules: bool | int | str) -> TitleData:
    """``title`` with the settings of its own rules ``rules`` names (``game.yaml``
    ``title_rules``)."""
    return with_settings(title, title_rules=MappingProxyType({**title.settings.title_rules, **rules}))
