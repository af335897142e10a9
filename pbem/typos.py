"""A GM's judgement on a misspelt order word (issue 22): a line read as chatter whose first word
is one slip from an order or command word of the game's title (one edit, or two in a word of
five letters or more; a swap of two letters is one) and which, with that word put right,
reads as an order, is taken for a typo, and the whole mail is refused with the line put right
(``tokn V20.1`` → ``TOKEN V20.1``). Plain chatter ("Thanks all", "Hi Bob") stays chatter: put
right it does not read as an order.
"""

from __future__ import annotations

from rapidfuzz.distance import OSA

from pbem.application.state import GameInfo
from pbem.commands import COMMAND_WORDS, parse_line
from pbem.errors import OrderError
from pbem.order_codecs import first_word, rest_of_line
from pbem.orders import Vocabulary

SHORTEST = 3
"""A shorter first word ("OK", "So") is never taken for a slip."""


def slips(word: str) -> int:
    """The edits a word of this length may be from the word meant."""
    return 1 if len(word) < 5 else 2


def put_right(line: str, vocab: Vocabulary, info: GameInfo, *, is_gm: bool) -> list[str]:
    """``line`` with its first word put right, each way that reads as an order or command of
    the game (:func:`pbem.commands.parse_line`) with the nearest words (``pas``: ``PASS``
    and ``PAY``); empty when the line is no such slip."""
    word = first_word(line)
    if len(word) < SHORTEST or not word.isalpha():
        return []
    known = set(vocab.by_word) | COMMAND_WORDS
    if word in known:
        return []
    near = sorted(w for w in known if len(w) >= SHORTEST and OSA.distance(word, w, score_cutoff=slips(word))
                  <= slips(word))
    rest = rest_of_line(line)
    readings: list[tuple[int, str]] = []
    for candidate in near:
        fixed = f"{candidate} {rest}".strip()
        try:
            parse_line(fixed, vocab, info, is_gm=is_gm)
        except (OrderError, ValueError):
            continue
        readings.append((OSA.distance(word, candidate), fixed))
    nearest = min((edits for edits, _ in readings), default=0)
    return [fixed for edits, fixed in readings if edits == nearest]
