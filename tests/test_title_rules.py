"""Settings of a title's own rules (``game.yaml`` ``title_rules``; issue 12's extension point,
which Lorenz's 1825 uses for the readings it chooses where the variant's text is silent): the
title's composer declares each setting with its default, the loader refuses any other key and a
value of another type, fills in the defaults, and a variant changes a setting. A made-up
title: 1830's files copied, with a composer of its own."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Mapping

import pytest

from pbem.errors import ConfigError
from pbem.ruleset import load_title
from pbem.ruleset.composer import TitleComposer
from pbem.ruleset.files import RULES_DIR


class Settled(TitleComposer):
    """Two settings of the made-up title's own rules."""

    @classmethod
    def title_rules(cls) -> Mapping[str, bool | int | str]:
        return {"late_trains": False, "drop": 5}


def folder(tmp_path: Path, variant: str) -> Path:
    """A rules folder holding 1830's files and ``variants/odd.yaml`` with ``variant``'s text."""
    shutil.copytree(RULES_DIR / "1830", tmp_path / "1830")
    shutil.copy(RULES_DIR / "tiles.yaml", tmp_path / "tiles.yaml")
    (tmp_path / "1830" / "variants" / "odd.yaml").write_text(variant, encoding="utf-8")
    return tmp_path


def test_the_declared_defaults_are_filled_in_and_a_variant_changes_one(tmp_path: Path) -> None:
    root = folder(tmp_path, "game:\n  title_rules: {drop: 0}\n")
    plain = load_title("1830", rules_dir=root, composer=Settled)
    assert plain.title_rule("late_trains") is False and plain.title_rule("drop") == 5
    odd = load_title("1830", ("odd",), rules_dir=root, composer=Settled)
    assert odd.title_rule("drop") == 0 and odd.title_rule("late_trains") is False
    with pytest.raises(KeyError):
        plain.title_rule("nothing")


def test_an_undeclared_setting_fails_the_load_with_the_file_and_key(tmp_path: Path) -> None:
    root = folder(tmp_path, "game:\n  title_rules: {dorp: 0}\n")
    with pytest.raises(ConfigError, match=r"odd\.yaml: title_rules\.dorp: not a setting of this title "
                                          r"\(known: late_trains, drop\)"):
        load_title("1830", ("odd",), rules_dir=root, composer=Settled)


def test_a_value_of_another_type_than_the_default_fails_the_load(tmp_path: Path) -> None:
    root = folder(tmp_path, "game:\n  title_rules: {late_trains: 1}\n")
    with pytest.raises(ConfigError, match=r"odd\.yaml: title_rules\.late_trains: a bool, not 1"):
        load_title("1830", ("odd",), rules_dir=root, composer=Settled)


def test_1830_declares_its_readings_of_a_train_due_a_home_naming_no_city_and_a_lifted_token() -> None:
    declared = {"emergency_train_from_corporation": "face_value", "home_naming_no_city": "whole_hex",
                "token_city_after_lay": "layer"}
    assert load_title("1830").settings.title_rules == declared
    assert TitleComposer.title_rules() == declared
