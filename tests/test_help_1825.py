"""The order reference of an 1825 game as an 1825 player reads it: money as the reports
spell it, and examples that name 1825's own companies."""

from __future__ import annotations

from pbem.orders import help_text
from pbem.reports import render
from pbem.ruleset.loader import load_title


def test_help_spells_pounds_as_the_ascii_reports_do() -> None:
    text = help_text(title=load_title("1825", ("unit_1",)))
    assert "for L30 below its face value" in text
    assert "£" not in text
    context = {"game_id": "g", "title": "1825", "variants": "unit_1", "seat": "Ann", "secret": "x",
               "seats": [], "gm": "gm@example.org", "server": "pbem@example.org", "help": text, "report": ""}
    rendered = render("welcome.txt.j2", context)
    assert "L30 below" in rendered and "?30" not in rendered
