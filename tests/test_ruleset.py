"""The ruleset loader (pbem.ruleset): title data read once, checked against the schema, built
into the frozen TitleData the engine is given; and the engine's purity (issue 11: "title data
validated by a schema: an unknown or unread key fails the load with the file and key named";
"pbem/engine/ imports no yaml, pathlib, time or os").
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import shutil
from types import MappingProxyType
from pathlib import Path
from typing import Any, Iterator

import pytest
from pydantic import BaseModel

from pbem.engine.abilities import CORE_ABILITIES, Bonus, TokenKind
from pbem.engine.values import DividendChoice
from pbem.engine.settings import GatingRule, HeadingRule, Settings, Terms, TileHexes, TileLay
from pbem.titles.g1870.settings import Settings1870, ShareRedemption, ShareReissue, settings1870
from pbem.engine import title as title_module
from pbem.engine.game import Game
from pbem.errors import ConfigError
from pbem.ruleset import RULES_DIR, available_variants, known_titles, load_title
from pbem.ruleset import schema

PBEM = Path(__file__).resolve().parent.parent / "pbem"


# --- helpers ---------------------------------------------------------------------------------


def copy_rules(tmp_path: Path, title: str = "1830") -> Path:
    """A private copy of the rules folder holding ``title`` (and the tile catalogue)."""
    root = tmp_path / "rules"
    root.mkdir()
    shutil.copytree(RULES_DIR / title, root / title)
    shutil.copy(RULES_DIR / "tiles.yaml", root / "tiles.yaml")
    return root


def append(path: Path, text: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


def modules(folder: Path) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(folder.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), str(path))


# --- loading ---------------------------------------------------------------------------------


def test_every_title_loads_with_each_variant_and_with_all_of_them() -> None:
    for title in known_titles():
        variants = tuple(available_variants(title))
        plain = load_title(title)
        assert plain.title == title and plain.board.hexes and plain.tiles and plain.hooks is not None
        for variant in variants:
            assert load_title(title, (variant,)).variants == (variant,)
        assert load_title(title, variants).variants == variants


def test_a_loaded_title_is_cached_per_title_and_variants() -> None:
    assert load_title("1870", ("dixon",)) is load_title("1870", ("dixon",))
    assert load_title("1870", ("dixon",)) is not load_title("1870")


def test_the_game_plays_with_the_title_board_tiles_and_hooks_and_loads_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    title = load_title("1870", ("original_tiles",))
    import pbem.ruleset.board as ruleset_board
    import pbem.ruleset.files as ruleset_files

    def no_reading(*_: object, **__: object) -> None:
        raise AssertionError("the engine read a rules file")

    monkeypatch.setattr(ruleset_files, "read_rules_yaml", no_reading)
    monkeypatch.setattr(ruleset_board, "read_rules_yaml", no_reading)
    game = Game(title, ["A", "B", "C"])
    assert game.board is title.board and game.tiles is title.tiles and game.hooks is title.hooks
    assert title.board.tile_counts["4"] == 4  # original tiles: the variant's map overlay
    assert type(title.hooks.routes).__name__ == "Routes1870"


def test_title_data_is_frozen() -> None:
    title = load_title("1830")
    with pytest.raises(dataclasses.FrozenInstanceError):
        title.bank_cash = 1  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        title.settings.pool_share_limit = 10  # type: ignore[misc]
    with pytest.raises(TypeError):
        title.settings.title_rules["home_naming_no_city"] = "one_city_left"  # type: ignore[index]
    assert copy.deepcopy(title) is title and copy.deepcopy(title.board) is title.board  # shared, never copied


@pytest.mark.parametrize(("line", "problem"), [
    ("pool_share_limt: 50", "pool_share_limt: unknown key"),
    # 1870's destination tokens are 1870's settings (its Settings1870), not 1830's
    ("destination_token_value: 80", "destination_token_value: not a setting of this title"),
])
def test_an_unknown_key_or_another_titles_setting_names_the_file_and_the_key(tmp_path: Path, line: str,
                                                                              problem: str) -> None:
    root = copy_rules(tmp_path)
    append(root / "1830" / "game.yaml", line + "\n")
    with pytest.raises(ConfigError) as info:
        load_title("1830", rules_dir=root)
    assert str(info.value) == f"{root / '1830' / 'game.yaml'}: {problem}"


def test_settings_reach_the_engine_frozen_and_typed() -> None:
    s = load_title("1870", ("dixon",)).settings
    assert isinstance(s, Settings1870) and isinstance(s.tile_lays, tuple) and isinstance(s.tile_lays[0], TileLay)
    assert isinstance(s.certificate_limit_by_corporations, MappingProxyType)
    assert isinstance(s.help_omit, frozenset) and isinstance(s.terms, Terms)
    assert s.dividend_choices == (DividendChoice.PAYOUT, DividendChoice.HALF, DividendChoice.WITHHOLD)
    assert all(type(c) is DividendChoice for c in (*s.dividend_choices, *s.connection_run_choices))
    assert isinstance(s.tile_hexes, MappingProxyType) and isinstance(s.tile_hexes["170"], TileHexes)
    assert s.tile_hexes["170"].only == ("B11", "C18", "J3", "J5", "N17") and s.tile_hexes["63"].only is None
    assert isinstance(s.upgrade_chart, MappingProxyType) and s.upgrade_chart["170"] == ("171K", "172L")


def test_an_unknown_nested_key_names_its_path(tmp_path: Path) -> None:
    root = copy_rules(tmp_path)
    companies = root / "1830" / "companies.yaml"
    companies.write_text(companies.read_text(encoding="utf-8").replace("kind: blocks_hexes", "kind: blocks_hexes, hexs: [A1]", 1),
                         encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_title("1830", rules_dir=root)
    assert str(info.value) == f"{companies}: 0.abilities.0.hexs: unknown key"


def test_a_key_from_a_variant_names_the_variant_file(tmp_path: Path) -> None:
    root = copy_rules(tmp_path)
    variant = root / "1830" / "variants" / "typo.yaml"
    variant.write_text("game:\n  tile_lays: [{lay: true, upgrade: true, twice: true}]\n", encoding="utf-8")
    load_title("1830", rules_dir=root)  # the title alone is fine
    with pytest.raises(ConfigError) as info:
        load_title("1830", ("typo",), rules_dir=root)
    assert str(info.value) == f"{variant}: tile_lays.0.twice: unknown key"


def test_an_included_variant_is_checked_too(tmp_path: Path) -> None:
    root = copy_rules(tmp_path)
    (root / "1830" / "variants" / "inner.yaml").write_text("trains:\n  phases: [{name: '1'}]\n", encoding="utf-8")
    (root / "1830" / "variants" / "outer.yaml").write_text("include: [inner]\n", encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_title("1830", ("outer",), rules_dir=root)
    assert str(info.value).startswith(f"{root / '1830' / 'variants' / 'inner.yaml'}: phases.0.train_limit: Field required")


def test_a_bad_value_names_the_key_and_the_problem(tmp_path: Path) -> None:
    root = copy_rules(tmp_path)
    append(root / "1830" / "game.yaml", "sell_buy_order: buy_only\n")
    with pytest.raises(ConfigError) as info:
        load_title("1830", rules_dir=root)
    assert f"{root / '1830' / 'game.yaml'}: sell_buy_order: Input should be" in str(info.value)


def test_an_unknown_file_in_a_variant_is_refused(tmp_path: Path) -> None:
    root = copy_rules(tmp_path)
    variant = root / "1830" / "variants" / "odd.yaml"
    variant.write_text("gmae: {bank_cash: 1}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"odd\.yaml: overlays unknown file 'gmae'"):
        load_title("1830", ("odd",), rules_dir=root)


def test_unknown_title_and_variant_list_the_known_ones() -> None:
    with pytest.raises(ConfigError, match=r"unknown title '1999'; known titles: 1825, 1829, 1830, 1870"):
        load_title("1999")
    with pytest.raises(ConfigError, match=r"unknown variant 'nope' for 1830; known: emergency_bank_train_only, home_one_city_left, multiple_brown_from_ipo, no_private_trades, token_city_chosen_by_owner"):
        load_title("1830", ("nope",))


def test_settings_are_the_files_values_and_otherwise_the_defaults_stated_once() -> None:
    """A setting the files leave out takes the one default :class:`Settings` states (1830's);
    one they give reaches the engine typed (issue 20)."""
    t1830, t1870 = load_title("1830"), load_title("1870")
    assert t1830.settings.dividend_choices == ("payout", "withhold") == Settings().dividend_choices
    assert t1870.settings.dividend_choices == ("payout", "half", "withhold")
    assert settings1870(t1870).share_redemption == ShareRedemption(max_treasury_shares_before=3, needs_operated=True)
    assert settings1870(load_title("1870", ("max_reissue_200",))).share_reissue.max_price == 200
    assert settings1870(t1870).share_reissue.max_price is None and not hasattr(t1830.settings, "share_reissue")
    assert t1830.settings.upgrade_must_add_run_track is False and t1830.settings.tile_lays == (TileLay(),)
    assert t1830.settings.terms.president == "president"


def test_the_dixon_key_is_declared_false_by_default() -> None:
    field = schema.GameData.model_fields["upgrade_must_add_run_track"]
    assert field.annotation is bool and field.default is False


# --- every declared key is read ----------------------------------------------------------------


def _docstrings(tree: ast.Module) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _reads(skip: set[Path]) -> tuple[set[str], set[str]]:
    """(attribute names, string literals) in pbem/ code, docstrings and the files of ``skip``
    left out."""
    attrs: set[str] = set()
    strings: set[str] = set()
    for path, tree in modules(PBEM):
        if path in skip:
            continue
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                attrs.add(node.attr)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                strings.add(node.value)
    return attrs, strings


def _models(model: type[BaseModel], found: dict[str, type[BaseModel]]) -> dict[str, type[BaseModel]]:
    def types_in(annotation: Any) -> list[Any]:
        args = getattr(annotation, "__args__", None)
        return [t for arg in args for t in types_in(arg)] if args else [annotation]

    if model.__name__ not in found:
        found[model.__name__] = model
        for info in model.model_fields.values():
            for inner in types_in(info.annotation):
                if isinstance(inner, type) and issubclass(inner, BaseModel):
                    _models(inner, found)
    return found


def test_every_game_setting_is_a_typed_field_the_code_reads() -> None:
    """Each ``game.yaml`` key beyond the identity keys is a field of the engine's typed
    :class:`Settings` (issue 20), and some code outside the loader reads it as
    ``settings.<key>``: a key nothing reads cannot come back (issue 11: 15 keys of 1870's
    game.yaml were read by nothing while hooks hard-coded them)."""
    attrs, _ = _reads(skip={*(PBEM / "ruleset").glob("*.py"), PBEM / "engine" / "settings.py"})
    declared = set(schema.GameData.model_fields) - schema.IDENTITY_KEYS
    assert declared == {f.name for cls in (Settings, Settings1870) for f in dataclasses.fields(cls)}
    assert sorted(declared - attrs) == []


def test_every_declared_key_is_read_somewhere() -> None:
    """Every key of every model of the schema is named by pbem/ code outside the schema (an
    attribute or a string key), and the loader builds every identity key of game.yaml."""
    attrs, strings = _reads(skip={PBEM / "ruleset" / "schema.py"})
    found: dict[str, type[BaseModel]] = {}
    for model in [*schema.FILE_MODELS.values(), schema.Company]:
        _models(model, found)
    unread = [
        f"{name}.{info.alias or key}"
        for name, model in sorted(found.items())
        for key, info in model.model_fields.items()
        if (info.alias or key) not in strings and key not in attrs
    ]
    assert unread == []
    loader = ast.parse((PBEM / "ruleset" / "loader.py").read_text(encoding="utf-8"))
    built = {n.attr for n in ast.walk(loader) if isinstance(n, ast.Attribute)
             and isinstance(n.value, ast.Name) and n.value.id == "game"}
    assert sorted(schema.IDENTITY_KEYS - built) == []


def test_every_title_data_field_is_read_by_the_game() -> None:
    """The values the loader builds are read by the code playing the game (outside the loader
    and the module defining them)."""
    attrs, _ = _reads(skip={*(PBEM / "ruleset").glob("*.py"), PBEM / "engine" / "settings.py"})
    classes = [title_module.TitleData, title_module.CompanyData, title_module.CorporationData,
               title_module.TrainData, title_module.PhaseData, title_module.MarketCell, title_module.Ability,
               Settings, Settings1870, TileLay, ShareRedemption, ShareReissue, TileHexes, Terms, HeadingRule, GatingRule,
               *CORE_ABILITIES.values(), Bonus, TokenKind]
    unread = [f"{cls.__name__}.{f.name}" for cls in classes for f in dataclasses.fields(cls) if f.name not in attrs]
    assert unread == []


# --- the engine is pure ----------------------------------------------------------------------

FORBIDDEN = ("yaml", "pathlib", "time", "os", "pbem.titles", "pbem.ruleset")
"""Modules pbem/engine/ may not import (issue 11: no I/O, no clock, and the engine is given
what it needs rather than importing the titles or the loader)."""



def _imports(tree: ast.Module) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "import_module":
            yield from (a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "__import__":
            yield from (a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str))


def test_the_engine_imports_no_io_no_clock_no_titles_and_no_loader() -> None:
    found = set()
    for path, tree in modules(PBEM / "engine"):
        for module in _imports(tree):
            if any(module == bad or module.startswith(bad + ".") for bad in FORBIDDEN):
                found.add((str(path.relative_to(PBEM / "engine")), module))
    assert sorted(found) == []
