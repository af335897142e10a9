"""HELP's examples as a player of each title reads them: every example line of every title's
HELP (and the lay its rotation help shows) reads with the title's own order parser and names
only its own companies, hexes and tiles;
an 1870 game's HELP names none of 1830's; the commands' examples name the game's own
corporation; and the note on Bill Dixon's rules is in HELP where the variant ``dixon`` is on."""

from __future__ import annotations

import itertools
import re

import pytest

from pbem.application.plans import parse_entry
from pbem.commands import HELP_WIDTH, full_help, sample_corporation
from pbem.engine import track
from pbem.engine.actions import Action, LayTile, PlaceToken, RunRoutes
from pbem.engine.game import Game
from pbem.engine.title import TitleData
from pbem.order_reference import ROTATION_SAMPLE
from pbem.orders import Vocabulary, help_text, parse_order
from pbem.ruleset import load_title
from pbem.ruleset.files import available_variants

GAMES: list[tuple[str, tuple[str, ...]]] = [
    *((title, variants) for title in ("1830", "1825", "1829", "1870")
      for variants in ((), *((v,) for v in available_variants(title)))),
    ("1825", ("unit_12", "lorenz")),  # Lorenz's own examples (ASSIGN, USING)
    ("1825", ("unit_123", "lorenz")),
]
"""Every title alone and with each of its variants, and 1825's Lorenz rules on two units."""

DIXON_HEADING = "Bill Dixon's track rules (his section 6)"


def examples(title: TitleData) -> list[str]:
    """The example lines (``e.g. ...``) of the title's HELP, the GM's rulings included."""
    text = help_text(title=title, include_gm=True)
    return [line.split("e.g. ", 1)[1] for line in text.splitlines() if line.startswith("      e.g. ")]


def hexes_named(action: Action) -> list[str]:
    """The hexes an order names (a lay's, a token's, a private's token's, a run's stops)."""
    coord = getattr(action, "hex", None)
    found = [coord] if isinstance(coord, str) else []
    if isinstance(action, RunRoutes):
        found += [stop.split(".")[0] for run in action.runs for stop in run.stops]
    return found


def param(game: tuple[str, tuple[str, ...]]) -> object:
    """``game`` as a test parameter, named ``1825-unit_2-lorenz``."""
    return pytest.param(game, id="-".join((game[0], *game[1])))


@pytest.mark.parametrize("game", [param(game) for game in GAMES])
def test_every_example_reads_with_the_titles_own_orders(game: tuple[str, tuple[str, ...]]) -> None:
    title = load_title(*game)
    vocab = Vocabulary.from_title(title)
    lines = examples(title)
    assert len(lines) > 10
    for line in [*lines, title.settings.help_examples.get(ROTATION_SAMPLE, ROTATION_SAMPLE)]:
        parse_order(line, vocab)  # names the title's own companies and trains, or raises
    corp = sample_corporation(title)
    assert corp in vocab.corporations
    parse_entry(f"BUY {corp} IF PRICE {corp} <= 90 ELSE PASS", vocab)  # the commands' example


@pytest.mark.parametrize("game", [param(game) for game in GAMES])
def test_every_example_names_the_titles_own_hexes_and_tiles(game: tuple[str, tuple[str, ...]]) -> None:
    title = load_title(*game)
    vocab = Vocabulary.from_title(title)
    for line in [*examples(title), title.settings.help_examples.get(ROTATION_SAMPLE, ROTATION_SAMPLE)]:
        action = parse_order(line, vocab)
        for coord in hexes_named(action):
            assert coord in title.board.hexes, (line, coord)
        if isinstance(action, LayTile):
            assert action.tile in title.board.tile_counts, line


def test_1870s_help_names_none_of_1830s_companies_or_hexes() -> None:
    t1830, t1870 = load_title("1830"), load_title("1870")
    own = {c.sym for c in (*t1870.companies, *t1870.corporations)}
    others = {c.sym for c in (*t1830.companies, *t1830.corporations)} - own
    assert {"PRR", "B&O", "NYNH", "CA", "SV", "CS"} <= others
    for variants in ((), *((v,) for v in available_variants("1870"))):
        title = load_title("1870", variants)
        for is_gm in (False, True):
            text = full_help(is_gm=is_gm, title=title)
            words = set(re.split(r"[\s,;:()=]+", text))
            assert not words & others, (variants, words & others)
            for coord in re.findall(r"\b([A-O]\d{1,2})(?:\.\d)?\b", text):
                assert coord in title.board.hexes, (variants, coord)
    text = full_help(is_gm=False, title=t1870)
    for line in ("e.g. BID GSC 85", "e.g. BUY GRSC", "e.g. BUY ATSF POOL", "e.g. BUY SCC 80",
                 "e.g. PAR SP 100", "e.g. SELL 2 SSW", "e.g. LAY B9 57 1", "e.g. TOKEN H13",
                 "e.g. RUN 2: B9-B11; 2: B9-D5", "e.g. ASSIGN SCC B9"):
        assert f"      {line}\n" in text, line
    assert "(B9: 57 r0 r3 = LAY B9 57 0 or" in text and "NEXT BUY ATSF" in text


def test_1870s_lay_and_token_examples_are_legal_on_its_map() -> None:
    """The lay goes on a hex that takes the tile (Topeka, empty, one city), at the rotation of
    the example and of the rotation help's sample; the token on a city of the map (reach
    aside: no corporation has track at the start)."""
    for variants in ((), ("dixon",), ("original_rules",), ("historical_order_start",)):
        title = load_title("1870", variants)
        game = Game(title, ["A", "B", "C"])
        vocab = Vocabulary.from_title(title)
        for line in (title.settings.help_examples["LAY H16 57 1"], title.settings.help_examples[ROTATION_SAMPLE]):
            lay = parse_order(line, vocab)
            assert isinstance(lay, LayTile)
            assert track.lay_problem(game, "ATSF", lay.hex, lay.tile, lay.rotation, ignore_reach=True) is None, line
        token = parse_order(title.settings.help_examples["TOKEN F20.1"], vocab)
        assert isinstance(token, PlaceToken)
        assert track.token_problem(game, "ATSF", token.hex, token.city, ignore_reach=True) is None


def test_the_dixon_note_is_in_help_with_the_variant_only() -> None:
    plain = full_help(is_gm=False, title=load_title("1870"))
    assert DIXON_HEADING not in plain and "#144" not in plain
    for variants in (("dixon",), ("dixon", "historical_order_start")):
        for is_gm in (False, True):
            text = full_help(is_gm=is_gm, title=load_title("1870", variants))
            notes = text[text.index("Rules of this game:"):text.index("\nCommands:")]
            assert f"\n  {DIXON_HEADING}\n" in notes
            flat = " ".join(notes.split())
            assert "#58 may become #141, #142 or #143, not #144" in flat
            assert "raise the value of a city it reaches" in flat
            after = notes[notes.index(DIXON_HEADING):].splitlines()
            note = after[:1] + list(itertools.takewhile(lambda line: not re.match(r"  \S", line), after[1:]))
            assert 4 <= len(note) <= 12, "a short note"
            assert all(len(line) <= HELP_WIDTH for line in note)
            assert max(len(line) for line in text.splitlines()) <= 80


def test_the_commands_examples_name_the_games_own_corporation() -> None:
    """NEXT's example names the corporation of the title's own BUY example (1830: PRR); a
    part of a title whose BUY example names another part's corporation gets its own first."""
    for game, corp in ((("1830", ()), "PRR"), (("1870", ()), "ATSF"), (("1870", ("dixon",)), "ATSF"),
                       (("1825", ("unit_1",)), "LNWR"), (("1825", ("unit_3",)), "CR")):
        text = " ".join(full_help(is_gm=False, title=load_title(*game)).split())
        assert f"NEXT BUY {corp} IF PRICE {corp} <= 90 ELSE PASS" in text, game
        assert f"{corp} STARTED, {corp} FLOATED, POOL {corp}, UNSOLD {corp}" in text, game
    assert "NEXT BUY PRR IF PRICE PRR <= 90" in " ".join(full_help(is_gm=False).split())


def test_1829_one_board_says_how_its_own_start_goes() -> None:
    from pbem.commands import full_help
    from pbem.ruleset import load_title

    north = " ".join(full_help(is_gm=False, title=load_title("1829", ("north",))).split())
    south = " ".join(full_help(is_gm=False, title=load_title("1829", ("south",))).split())
    assert "the four private railways" in north and "BUY A&F" in north and "BUY S&M" not in north
    assert "then the LNWR and NER are offered together" in north
    assert "then the LNWR and GWR are offered together" in south and "six private" not in south
