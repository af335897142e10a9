"""Order codecs: the core's plus the title's; one first word decides chatter and dispatch."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from pbem.commands import COMMAND_WORDS, GmCommand, Info, Order, is_command_line, parse_line
from pbem.core_codecs import CORE_CODECS, HEADED_RUN
from pbem.engine.actions import Action, Dividend, Par, Pass
from pbem.titles.g1870.actions import Redeem
from pbem.engine.title import TitleData
from pbem.ruleset import load_title
from pbem.errors import OrderError, OrderSyntaxError
from pbem.games import GameInfo, Seat
from pbem.order_codecs import (
    HelpEntry,
    OrderCodec,
    Vocabulary,
    corporation,
    every_codec,
    first_word,
    hex_ref,
    rest_of_line,
    split_words,
    title_codecs,
)
from pbem.orders import format_order, help_text, is_order_word, order_words, parse_order, title_orders
from pbem.engine.hooks import TitleHooks
from pbem.presentation import TitlePresentation
from pbem.titles.g1870 import Presentation1870
from pbem.titles.g1870.orders import CODECS as CODECS_1870

T1830, T1870 = load_title("1830"), load_title("1870")
V1830, V1870 = Vocabulary.from_title(T1830), Vocabulary.from_title(T1870)
INFO = GameInfo("g", "1830", (), [Seat(n, f"{n.lower()}@example.org", "x") for n in ("Ann", "Bob")],
                "gm@example.org", "x")


# -- one first word ------------------------------------------------------------------------------


@pytest.mark.parametrize(("line", "words"), [
    ("UNDO, 5", ["UNDO", "5"]),
    ("PASS,", ["PASS"]),
    ("b,2 PRR", ["b", "2", "PRR"]),
    (" ,\tSELL , 2,NYC ", ["SELL", "2", "NYC"]),
    ("", []),
])
def test_a_comma_separates_words_as_a_blank_does(line: str, words: list[str]) -> None:
    assert split_words(line) == words
    assert first_word(line) == (words[0].upper() if words else "")


def test_undo_with_a_comma_is_the_gm_command() -> None:
    assert is_command_line("UNDO, 5")
    assert parse_line("UNDO, 5", V1830, INFO, is_gm=True) == GmCommand("UNDO, 5", "undo", ("5",))
    assert parse_line("undo,", V1830, INFO, is_gm=True) == GmCommand("undo,", "undo")
    with pytest.raises(OrderSyntaxError, match="UNDO is a GM command"):
        parse_line("UNDO, 5", V1830, INFO, is_gm=False)


def test_a_word_followed_by_a_comma_is_that_word() -> None:
    assert is_command_line("PASS,")
    assert parse_line("PASS,", V1830, INFO, is_gm=False) == Order("PASS,", Pass())
    assert parse_line("HELP,", V1830, INFO, is_gm=False) == Info("HELP,", "help")
    assert parse_line("ACT AS Bob, PASS", V1830, INFO, is_gm=True) == Order("ACT AS Bob, PASS", Pass(), seat="Bob")


def test_replace_reads_the_address_as_written_and_the_seat_without_commas() -> None:
    assert parse_line("REPLACE Bob, bob2@example.org", V1830, INFO, is_gm=True) == GmCommand(
        "REPLACE Bob, bob2@example.org", "replace", ("Bob", "bob2@example.org"))
    with pytest.raises(OrderSyntaxError, match="'a,b@c.example' is not a mail address"):
        parse_line("REPLACE Bob a,b@c.example", V1830, INFO, is_gm=True)


def test_the_text_of_a_broadcast_is_what_follows_its_word() -> None:
    assert rest_of_line("BROADCAST,Hello, all ") == "Hello, all"
    assert parse_line("BROADCAST,Hello, all", V1830, INFO, is_gm=True) == GmCommand(
        "BROADCAST,Hello, all", "broadcast", ("Hello, all",))
    deadline = parse_line("DEADLINE, Friday noon", V1830, INFO, is_gm=True)
    assert deadline == GmCommand("DEADLINE, Friday noon", "deadline", ("Friday noon",))


WORDS = sorted(order_words()) + ["HELP", "UNDO", "Hi", "Pass.", "cheers", "BUY.", "REDEEMED", "x"]
lines = st.builds(
    lambda head, sep, tail: head + sep + tail,
    st.sampled_from(WORDS).flatmap(lambda w: st.sampled_from([w, w.lower(), w.title()])),
    st.sampled_from(["", " ", ",", ", ", " ,", "\t"]),
    st.text(alphabet="ab PRC12,.;:-", max_size=12),
)


@given(lines, st.sampled_from([V1830, V1870]))
def test_the_chatter_rule_and_the_parser_see_the_same_first_word(line: str, vocab: Vocabulary) -> None:
    """A line whose first word is no command word is chatter exactly when the parser finds no
    order word in it."""
    assume(first_word(line) not in COMMAND_WORDS)
    try:
        parse_line(line, vocab, INFO, is_gm=True)
    except OrderError as err:
        unknown = "unknown order" in str(err)
    else:
        unknown = False
    assert is_command_line(line, vocab) is not unknown, line


def test_an_order_word_of_another_title_is_chatter_in_this_one() -> None:
    assert not is_command_line("Redeem my honour, please", V1830)
    assert not is_command_line("half, maybe", V1830)
    assert is_command_line("Redeem MP", V1870) and is_command_line("half", V1870)
    assert is_command_line("Redeem MP"), "without a title: any title's order word"
    assert is_order_word("redeem", V1870) and not is_order_word("redeem", V1830)
    assert "REDEEM" not in order_words(V1830) and {"B", "P", "DONE", "HALF"} <= order_words(V1870)


# -- the codecs of a title -------------------------------------------------------------------------


def test_1830_has_only_the_cores_codecs_it_calls_for() -> None:
    assert Presentation1870().order_codecs() == CODECS_1870 and TitlePresentation().order_codecs() == ()
    assert not hasattr(TitleHooks, "order_codecs") and not hasattr(TitleHooks, "report_sections")
    assert title_codecs(T1830) == tuple(c for c in CORE_CODECS if c.word != "ASSIGN" and c is not HEADED_RUN)
    assert "EXCHANGE" in title_orders(T1830) and "ASSIGN" not in title_orders(T1830)
    assert "ASSIGN" in title_orders(T1870) and "EXCHANGE" not in title_orders(T1870)
    assert title_orders(T1870)[-5:] == ("HALF", "REDEEM", "REISSUE", "CONNECT", "DESTINATION")
    assert set(CODECS_1870) <= set(every_codec()), "a title package's codecs are found without a registry"


def test_1830s_help_lists_no_1870_order_and_1870s_does() -> None:
    text_1830 = help_text(title=T1830, include_gm=True)
    text_1870 = help_text(title=T1870, include_gm=True)
    for word in ("REDEEM", "REISSUE", "CONNECT", "DESTINATION", "HALF"):
        assert word not in text_1830, word
        assert f"\n  {word}" in text_1870, word
    from pbem.ruleset import load_title

    text_variant = help_text(title=load_title("1870", ("historical_order_start",)), include_gm=True)
    for codec in CODECS_1870:
        for entry in codec.help:
            # an entry of a variant's own word is listed in that variant's games only
            text = text_1870 if entry.listed is None or entry.listed(T1870) else text_variant
            assert f"\n  {entry.syntax}\n" in text and f"e.g. {entry.example}\n" in text


def test_the_unknown_order_refusal_lists_the_titles_words() -> None:
    with pytest.raises(OrderSyntaxError) as refused:
        parse_order("REDEEM PRR", V1830)
    listed = str(refused.value).split("(orders: ")[1]
    assert "REDEEM" not in listed and "EXCHANGE" in listed
    with pytest.raises(OrderSyntaxError) as refused:
        parse_order("FLY H10", V1870)
    assert "REDEEM" in str(refused.value) and "EXCHANGE" not in str(refused.value)


# -- a made-up title adds an order word and replaces one, with no edit of the core ------------------


@dataclass(frozen=True, slots=True)
class Survey(Action):
    """A made-up title's action: place a survey party on a hex."""

    kind: ClassVar[str] = "survey"
    hex: str
    corporation: str


def _parse_survey(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 2:
        raise OrderSyntaxError(f"cannot read {line!r}: write SURVEY <corporation> <hex>")
    return Survey(hex_ref(words[1], line)[0], corporation(words[0], line, vocab))


def _format_survey(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, Survey)
    return f"SURVEY {action.corporation} {action.hex}"


def _parse_float(words: list[str], line: str, vocab: Vocabulary) -> Action:
    if len(words) != 2:
        raise OrderSyntaxError(f"cannot read {line!r}: write PAR <corporation> <price>")
    return Par(corporation(words[0], line, vocab), int(words[1]))


def _format_float(action: Action, vocab: Vocabulary | None) -> str:
    assert isinstance(action, Par)
    return f"PAR {action.corporation} AT {action.price}"


SURVEY = OrderCodec("SURVEY", ("SV",), (Survey,), _parse_survey, _format_survey, (
    HelpEntry("SURVEY <corporation> <hex>", "place a survey party", "SURVEY PRR H10"),))
FLOAT = OrderCodec("PAR", (), (Par,), _parse_float, _format_float, (
    HelpEntry("PAR <corporation> AT <price>", "float a corporation", "PAR PRR AT 90"),))


class MadeUpWords(TitlePresentation):
    """A title with an order word of its own, and its own form of PAR."""

    def order_codecs(self) -> tuple[OrderCodec, ...]:
        return (SURVEY, FLOAT)


def made_up_title() -> TitleData:
    """1830's data (its map too) with the made-up words: the codecs come from its presentation."""
    return dataclasses.replace(T1830, presentation=MadeUpWords())


def test_a_made_up_title_registers_its_own_order_word() -> None:
    title = made_up_title()
    vocab = Vocabulary.from_title(title)
    assert parse_order("sv prr h10", vocab) == Survey("H10", "PRR")
    assert format_order(Survey("H10", "PRR"), vocab) == "SURVEY PRR H10"
    assert parse_order("par PRR 90", vocab) == Par("PRR", 90), "the title's PAR replaces the core's"
    assert format_order(Par("PRR", 90), vocab) == "PAR PRR AT 90"
    assert format_order(Par("PRR", 90), V1830) == "PAR PRR 90"
    with pytest.raises(OrderSyntaxError, match="unknown order 'START'"):
        parse_order("START PRR 90", vocab)  # the core's PAR is replaced, its abbreviation too
    assert is_command_line("Survey PRR H10", vocab) and not is_command_line("Survey PRR H10", V1830)
    with pytest.raises(OrderSyntaxError, match="unknown order 'SURVEY'"):
        parse_order("SURVEY PRR H10", V1830)
    assert title_orders(title) == (*title_orders(T1830), "SURVEY"), "PAR stays in its place"
    assert "\n  PAR <corporation> AT <price>\n" in help_text(title=title)
    assert "PAR <corporation> <price>" not in help_text(title=title)


def test_a_codec_writes_only_what_is_its_own() -> None:
    payout = next(c for c in CORE_CODECS if c.word == "PAYOUT")
    assert payout.writes(Dividend("payout"), None) == "PAYOUT"
    assert payout.writes(Dividend("half"), None) is None
    assert payout.writes(Redeem("MP", "pool"), None) is None
    assert format_order(Dividend("half"), V1870) == "HALF"
    with pytest.raises(TypeError, match="no order form"):
        format_order(Dividend("half"), V1830)


def test_a_hex_written_in_lower_case_is_read_as_written_only_where_the_board_has_it() -> None:
    northern = dataclasses.replace(V1830, lowercase_hexes=frozenset({"a8"}),
                                   uppercase_hexes=V1830.uppercase_hexes | {"A8"})  # both on the board
    assert hex_ref("a8", "LAY a8 57 0", northern) == ("a8", 0)   # a row north of A
    assert hex_ref("A8", "LAY A8 57 0", northern) == ("A8", 0)
    assert hex_ref("f20.1", "TOKEN f20.1", northern) == ("F20", 1)  # not on the board as written
    assert hex_ref("a8", "LAY a8 57 0") == ("A8", 0)               # no board: upper case
    assert parse_order("LAY a8 57 0", northern).hex == "a8"         # type: ignore[attr-defined]
    assert parse_order("LAY a8 57 0", V1830).hex == "A8"            # type: ignore[attr-defined]
    assert V1830.lowercase_hexes == frozenset()
