"""Title plugins: a title's hooks are found by its package name (issue 11, "a title is a
plugin"), and a title's own state extends the core state."""

from __future__ import annotations

import sys
import types

import pytest

from pbem.engine.hooks import TitleHooks
from pbem.errors import ConfigError
from pbem.titles import hooks_class, hooks_for
from pbem.titles.g1870.hooks import Hooks1870


def test_the_known_titles_find_their_hooks() -> None:
    assert hooks_class("1830") is TitleHooks
    assert hooks_class("1870") is Hooks1870
    assert isinstance(hooks_for("1870"), Hooks1870)


def test_a_title_without_a_package_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="no title plugin for '1899'"):
        hooks_for("1899")
    with pytest.raises(ConfigError):
        hooks_for("../1830")


def test_a_new_title_needs_only_its_package(monkeypatch: pytest.MonkeyPatch) -> None:
    """A package ``pbem.titles.g<name>`` with ``HOOKS`` is found with no registry edit."""

    class MadeUp(TitleHooks):
        def dividend_kinds(self) -> tuple[str, ...]:
            return ("payout",)

    module = types.ModuleType("pbem.titles.gmadeup")
    module.HOOKS = MadeUp  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pbem.titles.gmadeup", module)
    assert hooks_for("madeup").dividend_kinds() == ("payout",)


def test_a_package_without_hooks_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType("pbem.titles.gbroken")
    module.HOOKS = object  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "pbem.titles.gbroken", module)
    with pytest.raises(ConfigError, match="not a TitleHooks class"):
        hooks_for("broken")
