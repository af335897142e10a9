"""A title's own HELP paragraphs (game.yaml ``help_notes``), each variant adding its own:
shown on the made-up title 9999 and on 1830 data, without 1870."""

from __future__ import annotations

import shutil
from pathlib import Path

from pbem.order_reference import help_text, notes_help
from pbem.ruleset import load_title
from tests.titles import RULES
from tests.titles.g9999 import Composer9999, HOOKS9999, Presentation9999


def rules_with_variants(tmp_path: Path) -> Path:
    """A copy of the tests' rules with two variants of 9999: ``tolls`` and ``ferries``, which
    includes ``tolls``; each has a note of its own."""
    folder = tmp_path / "rules"
    shutil.copytree(RULES, folder)
    variants = folder / "9999" / "variants"
    (variants / "tolls.yaml").write_text(
        'game:\n  help_notes:\n    Tolls: "Every toll gate is paid on entry.\\n\\nThe GM sets the toll."\n')
    (variants / "ferries.yaml").write_text(
        'include: [tolls]\ngame:\n  help_notes:\n    Ferries: "A ferry carries one train a turn."\n')
    return folder


def test_each_variants_notes_are_added_under_rules_of_this_game(tmp_path: Path) -> None:
    folder = rules_with_variants(tmp_path)
    plain = load_title("9999", rules_dir=folder, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999)
    assert notes_help(plain) == [] and "Rules of this game" not in help_text(title=plain)
    tolls = help_text(title=load_title("9999", ("tolls",), rules_dir=folder, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999))
    assert tolls.endswith("Rules of this game:\n  Tolls\n      Every toll gate is paid on entry.\n\n"
                          "      The GM sets the toll.")
    both = help_text(title=load_title("9999", ("ferries",), rules_dir=folder, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999))
    assert "  Tolls\n" in both and "  Ferries\n      A ferry carries one train a turn." in both
    assert both.index("Tolls") < both.index("Ferries"), "the included variant's notes first"


def test_notes_are_wrapped_at_78_and_spelt_as_the_reports_spell_money(tmp_path: Path) -> None:
    folder = rules_with_variants(tmp_path)
    long = "A toll of £10 is paid " + "at every gate of the road " * 8
    (folder / "9999" / "variants" / "dear.yaml").write_text(f'game:\n  help_notes:\n    Dear: "{long}"\n')
    text = help_text(title=load_title("9999", ("dear",), rules_dir=folder, hooks=HOOKS9999, composer=Composer9999, presentation=Presentation9999))
    notes = text[text.index("Rules of this game:"):].splitlines()
    assert all(len(line) <= 78 for line in notes) and len(notes) > 3
    assert "A toll of L10 is paid" in text and "£" not in text


def test_1830_notes_only_its_reading_of_a_train_due() -> None:
    text = help_text(title=load_title("1830"))
    notes = text[text.index("Rules of this game:"):]
    assert "\n  Emergency train\n" in notes and "at most the train's face value" in notes
    other = help_text(title=load_title("1830", ("emergency_bank_train_only",)))
    assert "no other corporation's train may be bought" in other and "face value" not in other
