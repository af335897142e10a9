"""The refusals decided before a game's state is at hand: which game a mail is for, and
what the sender is told when it names none, several, or one whose log is damaged, when
the mail cannot be read, or when it reuses another mail's Message-ID. Pure functions;
the mailroom (:mod:`pbem.server`) sends the replies.
"""

from __future__ import annotations

from typing import Callable, Sequence

from pbem.application.mail import Rejection
from pbem.mail.reading import game_tags
from pbem.mail.types import Submission, Unreadable
from pbem.orders import split_words

_UNREADABLE = {
    "malformed_mime": "Your mail could not be read: its MIME structure is broken.",
    "unknown_charset": "Your mail could not be read: it uses a character set we do not know.",
    "empty_body": "Your mail has no orders in it.",
    "oversize": "Your mail is too large for the game server.",
    "attachment_only": "Your mail has only attachments; write the orders in the mail text.",
    "no_sender": "Your mail has no From address.",
}


def unreadable(result: Unreadable) -> Rejection:
    """The refusal of a mail that could not be read (its kind names why)."""
    reason = f"{_UNREADABLE.get(result.kind, 'Your mail could not be read.')} ({result.reason})"
    return Rejection(reason, kind=result.kind)


def reused_message_id(message_id: str) -> Rejection:
    """The refusal of a mail under the key of a different mail handled before."""
    return Rejection(
        f"Your mail has the Message-ID {message_id} of a different mail you sent before, "
        "which was handled already. Nothing of this mail was applied. Send it again as a new "
        "mail (your mail program gives every new mail its own Message-ID).",
        kind="reused_message_id")


def is_general_help(lines: Sequence[str]) -> bool:
    """Whether every line of a mail is HELP (answered without a game)."""
    return bool(lines) and all(split_words(line.upper()) == ["HELP"] for line in lines)


def game_for(sub: Submission, find: Callable[[str], str | None]) -> str | None:
    """The id of the game ``sub`` is for: the first Subject tag that ``find`` knows (any
    case; ``find(tag)`` gives the game's id or None), or None when no tag names a game.

    :raises Rejection: ``unknown_game``, when the Subject names more than one game here
        (one mail, one game: never apply one game's orders to another), or names no game at
        all and is not a mail of HELP lines only.
    """
    tags = ([sub.game_tag] if sub.game_tag else []) + [t for t in game_tags(sub.subject) if t != sub.game_tag]
    named = list(dict.fromkeys(found for found in (find(t) for t in tags) if found))
    if len(named) > 1:
        raise Rejection(
            f"The Subject names {len(named)} games on this server ({', '.join(named)}). Send one "
            "mail per game, with only that game's tag in the Subject.", kind="unknown_game")
    if not named and not sub.game_tag and not is_general_help(sub.lines):
        raise Rejection("The Subject names no game. Put the game's tag in square brackets in the "
                        "Subject, e.g. [demo-1830].", kind="unknown_game")
    return named[0] if named else None


def no_such_game(tag: str) -> Rejection:
    """The refusal of a mail whose Subject tag names no game here."""
    return Rejection(f"There is no game {tag!r} on this server.", kind="unknown_game")


def damaged_log(game_id: str | None) -> Rejection:
    """The refusal of a mail for a game whose log failed its integrity check."""
    return Rejection("The game's log failed its integrity check; the GM has been told. Nothing was "
                     "applied: send your mail again when the GM says the game goes on.",
                     kind="damaged_log", game_id=game_id)
