"""A GM's judgement on typos (issue 22): a line whose first word is a slip of an order word and
which, put right, reads as an order refuses the whole mail with the line put right; plain
chatter stays chatter."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.application.state import GameInfo
from pbem.orders import Vocabulary
from pbem.ruleset import load_title
from pbem.typos import put_right
from tests.test_mailroom import P1, Table, body, log_records, only

VOCAB = Vocabulary.from_title(load_title("1830"))
INFO = GameInfo("g", "1830", (), [], "gm@example.org", "")


@pytest.mark.parametrize(("line", "meant"), [
    ("tokn V20.1", ["TOKEN V20.1"]),       # a letter left out
    ("lya F20 57 1", ["LAY F20 57 1"]),    # two letters swapped
    ("bui PRR", ["BUY PRR"]),              # a wrong letter
    ("parr PRR 67", ["PAR PRR 67"]),       # a letter too many
    ("pas", ["PASS", "PAY"]),              # as near to two words that both read: both named
])
def test_a_slip_of_an_order_word_is_put_right(line: str, meant: list[str]) -> None:
    assert put_right(line, VOCAB, INFO, is_gm=False) == meant


@pytest.mark.parametrize("line", ["Thanks all", "Hi Bob", "Cheers, Ann", "tokn", "Sell 2 PRR please",
                                  "pass", "ok", "Bye for now", "Lay low, everyone"])
def test_chatter_and_orders_are_no_slips(line: str) -> None:
    assert put_right(line, VOCAB, INFO, is_gm=False) == []


def test_a_gm_command_is_put_right_for_the_gm_only() -> None:
    assert put_right("pase", VOCAB, INFO, is_gm=True) == ["PASS", "PAUSE"]
    assert put_right("pase", VOCAB, INFO, is_gm=False) == ["PASS"]
    assert put_right("undoo 3", VOCAB, INFO, is_gm=True) == ["UNDO 3"]
    assert put_right("undoo 3", VOCAB, INFO, is_gm=False) == []


def test_a_mail_with_a_slip_is_refused_whole_and_chatter_is_not(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    count = len(log_records(table.data))
    outcome, mails = table.order("Player 1", "Hi all,", "bdi CA 165", "PASS")
    text = body(only(mails))
    assert outcome == "rejected" and "'bdi CA 165' -- did you mean BID CA 165?" in text
    assert len(log_records(table.data)) == count, "nothing of the mail applied"
    outcome, _ = table.order("Player 1", "Thanks all, good luck", "BID CA 165")
    assert outcome == "processed"


def test_a_redundant_final_pass_is_noted_not_refused(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("Player 1", "BID CA 165", "PASS", "DONE")
    assert outcome == "processed"
    mine = next(m for m in mails if str(m["To"]) == P1)
    text = " ".join(body(mine).split())
    assert "line 3: PASS was not needed (your turn had ended); nothing more was done" in text
    count = len(log_records(table.data))
    outcome, mails = table.order("Player 1", "PASS")
    assert outcome == "rejected", "a PASS alone out of turn is still refused"
    outcome, mails = table.order("Player 2", "BUY SV", "PASS", "BID CA 170")
    assert outcome == "rejected" and len(log_records(table.data)) == count, "a PASS before another order is refused"


@pytest.mark.parametrize("title", [("1830", ()), ("1870", ("dixon",)), ("1825", ("unit_1",)), ("1829", ())])
def test_no_line_of_help_is_wider_than_a_report_at_80_columns(title: tuple[str, tuple[str, ...]]) -> None:
    from pbem.commands import full_help

    data = load_title(*title)
    for is_gm in (False, True):
        text = full_help(is_gm=is_gm, title=data)
        assert max(len(line) for line in text.splitlines()) <= 80
        assert "  TIMING <round> <hours> [WAIT|PASS|DEFAULT]" in text or not is_gm
