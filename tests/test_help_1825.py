"""The order reference of an 1825 game as an 1825 player reads it: money as the reports
spell it, and examples that name 1825's own companies."""

from __future__ import annotations

from pbem.orders import help_text
from pbem.reports import render
from pbem.ruleset.loader import load_title


def test_help_spells_pounds_as_the_ascii_reports_do() -> None:
    text = help_text(title=load_title("1825", ("unit_1",)))
    assert "for L30 below its face value" in text
    assert "for the turn, for L10 (1825)" in text, "the lease's price is money too"
    assert "£" not in text
    context = {"game_id": "g", "title": "1825", "variants": "unit_1", "seat": "Ann", "secret": "x",
               "seats": [], "gm": "gm@example.org", "server": "pbem@example.org", "help": text, "report": ""}
    rendered = render("welcome.txt.j2", context)
    assert "L30 below" in rendered and "?30" not in rendered


OTHER_TITLES_NAMES = ("CA", "SV", "PRR", "CS", "NYNH", "B&O", "SCC", "GSC", "MH")


def test_help_examples_name_1825s_companies_and_read_as_orders() -> None:
    from pbem.orders import Vocabulary, parse_order

    for variants, expected in ((("unit_1",), "SELL 2 GWR"), (("unit_12", "lorenz"), "BID C&W 135")):
        title = load_title("1825", variants)
        vocab = Vocabulary.from_title(title)
        examples = [line.split("e.g. ", 1)[1] for line in help_text(title=title).splitlines() if "e.g. " in line]
        assert expected in examples
        for example in examples:
            words = set(example.replace(";", " ").replace(":", " ").split())
            assert not words & set(OTHER_TITLES_NAMES), example
            parse_order(example, vocab)  # each example reads in the game's own vocabulary


def test_lorenz_orders_and_1870s_assign_only_where_they_are_played() -> None:
    plain = help_text(title=load_title("1825", ("unit_1",)))
    assert "ASSIGN" not in plain and "USING TWW" not in plain and "Lorenz" not in plain
    lorenz = help_text(title=load_title("1825", ("unit_12", "lorenz")))
    assert "ASSIGN <private> <company>" in lorenz and "USING C&HP" in lorenz
    assert "USING TWW" not in lorenz, "TWW is Unit 3's private"
    assert "LAY K13 <tile> <rotation> USING TWW" in help_text(title=load_title("1825", ("unit_123", "lorenz")))
    assert "ASSIGN <private> <hex>" not in lorenz, "1870's cattle and port tokens are not 1825's"
    assert "ASSIGN <private> <hex>" in help_text(title=load_title("1870"))


def test_help_leaves_out_what_plain_1825_has_no_use_for() -> None:
    plain = help_text(title=load_title("1825", ("unit_1",)))
    assert "BID <private> <amount>" not in plain, "the privates are dealt, not auctioned"
    assert "BUY <private> <price>" not in plain, "no company buys a private"
    lorenz = help_text(title=load_title("1825", ("unit_12", "lorenz")))
    assert "BID <private> <amount>" in lorenz and "BUY <private> <price>" not in lorenz
    assert "SELL <private>" not in lorenz, "Lorenz's privates may never be sold to the bank"
    assert "SELL <private>" in plain
    t1830 = help_text(title=load_title("1830"))
    assert "BID <private> <amount>" in t1830 and "BUY <private> <price>" in t1830
