"""The 18xx.games importer is title-pluggable: its core names no title, and a title's own
record actions are rendered by the translation its package gives
(``pbem.titles.g<title>.importing``, :mod:`pbem.importers.translation`)."""

from __future__ import annotations

import ast
import subprocess
import sys
import types
from pathlib import Path
from typing import Any, Iterator

import pytest

from pbem.engine.actions import Action, Pass
from pbem.errors import ConfigError
from pbem.importers import translation
from pbem.importers.translation import NO_ORDER, NoOrder, RecordTranslation, translation_for
from tests.records import REPO, record_path

CORE = sorted((REPO / "pbem" / "importers").glob("*.py"))


def _imported_modules(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_no_importer_module_imports_a_title_package(path: Path) -> None:
    """The registry ``pbem.titles`` (which finds a title by name) is allowed, a title's
    package ``pbem.titles.g<title>`` is not."""
    titles = [m for m in _imported_modules(path) if m.startswith("pbem.titles.g")]
    assert titles == [], f"{path.name} imports {titles}"


def test_loading_the_importer_core_loads_no_title_package() -> None:
    code = ("import sys, pbem.importers.e18xx, pbem.importers.replay, pbem.importers.log_import, "
            "pbem.importers.route_check, pbem.importers.holdings, pbem.importers.translation; "
            "print(sorted(m for m in sys.modules if m.startswith('pbem.titles.g')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=REPO)
    assert out.stdout.strip() == "[]"


def test_a_title_without_an_importing_module_gets_the_base_translation() -> None:
    found = translation_for("no_such_title")
    assert type(found) is RecordTranslation
    assert found.render(None, {"type": "pass"}) is None  # type: ignore[arg-type]
    # 1830's own module renders nothing of its own either; its private trades are the title's
    own = translation_for("1830")
    assert own.render(None, {"type": "pass"}) is None  # type: ignore[arg-type]
    from pbem.engine.settings import PrivateTrades
    from pbem.ruleset import load_title

    assert load_title("1830").settings.private_trades == PrivateTrades(frozenset({"2", "3", "4"}), 2)


def test_1870_gives_its_own_translation() -> None:
    from pbem.titles.g1870.importing import Translation1870

    assert type(translation_for("1870")) is Translation1870


def test_a_title_name_that_is_no_module_name_is_refused() -> None:
    with pytest.raises(ConfigError, match="letters, digits"):
        translation_for("18.70")


def test_an_importing_module_without_a_translation_class_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    module = types.ModuleType(translation.translation_module("zz1"))
    module.TRANSLATION = object  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with pytest.raises(ConfigError, match="not a RecordTranslation"):
        translation_for("zz1")


class _Rename(RecordTranslation):
    """Renders a made-up record action as a pass and drops the record's own passes."""

    def render(self, renderer: Any, action: dict[str, Any]) -> Action | NoOrder | None:
        if action["type"] == "made_up":
            return Pass()
        if action["type"] == "pass":
            return NO_ORDER
        return None

    def seat(self, renderer: Any, action: dict[str, Any]) -> str | None:
        return "Player 3" if action.get("entity_type") == "corporation" else None


def test_the_renderer_asks_the_title_translation_first(monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.importers.e18xx import Renderer, UnsupportedRecordAction, load_record

    module = types.ModuleType(translation.translation_module("1830"))
    module.TRANSLATION = _Rename  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    renderer = Renderer(record)
    assert isinstance(renderer.translation, _Rename)
    assert renderer.render({"id": 1, "type": "made_up", "entity": 1}) == Pass()
    assert renderer.render({"id": 2, "type": "pass", "entity": 1}) is None
    with pytest.raises(UnsupportedRecordAction, match="made_up_too is not supported"):
        renderer.render({"id": 3, "type": "made_up_too", "entity": 1})
    # the title decides who sends a corporation's order; else the core's answer
    assert renderer.seat({"id": 4, "type": "pass", "entity": "PRR", "entity_type": "corporation"}) == "Player 3"
    first = record["players"][0]
    assert renderer.seat({"id": 5, "type": "pass", "entity": first["id"]}) == first["name"]
