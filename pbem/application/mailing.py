"""Who is mailed what after a move (issue 22: fewer and clearer mails). Each player chooses
with ``MAIL EVERY | TURN | ROUND`` and the GM sets the game's default (``MAIL DEFAULT ...``;
new games: TURN):

* EVERY: the full report after every move;
* TURN: the full report when it is your turn, and when a round ends (a digest: what happened
  since your last report, then the report);
* ROUND: the full report when a round ends only.

The sender of a mail always gets a reply: what was applied and what was not read, with the
full report where their setting asks for it. The GM is mailed every report unless the GM
chooses otherwise. Subjects say what matters: ``[g1] YOUR TURN — SR 2 (Ann)``,
``[g1] OR 3.1 done``, ``[g1] accepted: 3 orders``; with EVERY the numbered ``[g1] Turn report
12: SR 2``, marked ``— YOUR TURN`` on the player to act's copy. Pure functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class MailSetting(StrEnum):
    """How often a player is mailed the full report (see the module's text)."""

    EVERY = "every"
    TURN = "turn"
    ROUND = "round"


NEW_GAME_DEFAULT = MailSetting.TURN
"""The default of a game created now (a game created before the setting mails every report)."""


@dataclass(frozen=True)
class Copy:
    """One recipient's mail after a move: ``to`` (address), ``seat`` (None for the GM),
    ``whole`` (the full report, else the sender's short reply) and its ``subject``."""

    to: str
    seat: str | None
    whole: bool
    subject: str


def copies(recipients: list[tuple[str, str | None, MailSetting]], *, game_id: str, label: str, number: int,
           actors: list[str], sender: str, orders: int, round_done: str | None,
           asked: tuple[str, ...] = ()) -> list[Copy]:
    """The mails after a move: for each ``(address, seat, setting)`` (seat None: the GM) the
    copy its setting asks for, or none; ``label`` the round now, ``number`` the report's,
    ``actors`` the seats to act now, ``sender`` the mail's address (the server's own for a
    deadline), ``orders`` how many lines it applied, ``round_done`` the round that ended
    with this move (None: none did); ``asked``: seats a deal offered waits for (mailed as
    the player to act is)."""
    tag = f"[{game_id}]"
    out: list[Copy] = []
    for to, seat, setting in recipients:
        to_act = seat is not None and seat in actors
        is_asked = seat is not None and seat in asked and not to_act
        is_sender = to.lower() == sender.lower()
        whole = (setting == MailSetting.EVERY or (setting == MailSetting.TURN and to_act)
                 or round_done is not None or is_asked)
        if not whole and not is_sender:
            continue
        if setting == MailSetting.EVERY:  # every report, numbered, as before the setting
            subject = f"{tag} Turn report {number}: {label}" + (" — YOUR TURN" if to_act else "")
        elif to_act:
            subject = f"{tag} YOUR TURN — {label} ({seat})"
        elif is_asked:
            subject = f"{tag} A DEAL FOR YOU — {label} ({seat})"
        elif is_sender:
            subject = f"{tag} accepted: {orders} order{'s' * (orders != 1)}"
        elif round_done is not None:
            subject = f"{tag} {round_done} done"
        else:
            subject = f"{tag} Turn report {number}: {label}"
        out.append(Copy(to, seat, whole, subject))
    return out
