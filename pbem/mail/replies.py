"""The text of the replies to an order mail: what was accepted, why a mail was refused, and
the lines that were read as chatter. Replies quote the player's lines as written (UTF-8:
"Jürgen", not "Jurgen"; the mail goes out as UTF-8 quoted-printable, see
:func:`pbem.mail.compose.compose`) and never the secret (:func:`mask_secret`). Turn reports
stay ASCII; they are rendered by :func:`pbem.reports.render`, not here.

Pure functions over the jinja2 templates ``accepted.txt.j2`` and ``rejected.txt.j2``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pbem.mail.compose import mask_secret
from pbem.mail.types import BodyLine
from pbem.reports import environment

__all__ = ["NO_ORDERS", "Quoted", "accepted_text", "refusal_text", "render_reply"]

NO_ORDERS = (
    "No orders were found in your mail: no line starts with an order or command word "
    "(BUY, SELL, PASS, BID, LAY, RUN, HELP, ...; send HELP for the list). Nothing was applied; "
    "the lines below were read as chatter, not as orders."
)
"""The reason given for a mail with a valid secret but only chatter in it."""


@dataclass(frozen=True)
class Quoted:
    """A line of the player's mail as a reply quotes it: its number and text (masked)."""

    number: int
    text: str


def render_reply(template: str, context: dict[str, object]) -> str:
    """Render a reply template with ``context``, keeping every character as written (no
    folding to ASCII, unlike the turn reports)."""
    return str(environment().get_template(template).render(**context))


def _quoted(lines: Iterable[BodyLine], secret: str | None) -> list[Quoted]:
    return [Quoted(line.number, mask_secret(line.text, secret)) for line in lines]


def accepted_text(accepted: Sequence[str], notes: Sequence[str], chatter: Sequence[BodyLine],
                  secret: str | None = None) -> str:
    """The head of the sender's copy of the turn report: the orders as understood (canonical
    form), the reading notes, and the lines read as chatter under "Not read as orders:",
    each with its line number, so a typo is visible."""
    return render_reply("accepted.txt.j2", {
        "accepted": [mask_secret(line, secret) for line in accepted],
        "notes": [mask_secret(note, secret, keyword=False) for note in notes],
        "chatter": _quoted(chatter, secret),
    })


def refusal_text(*, game_id: str | None, reason: str, failed_line: str | None = None,
                 line_number: int | None = None, not_applied: Sequence[str] = (),
                 chatter: Sequence[BodyLine] = (), cut_at: int | None = None,
                 may: Sequence[str] = (), secret: str | None = None) -> str:
    """The reply to a refused mail: why, the line that failed with its line number in the
    mail, the lines not applied (and that the list stops at the line limit ``cut_at`` when
    the mail was cut there), and the chatter; every quoted text with the secret masked."""
    return render_reply("rejected.txt.j2", {
        "game_id": game_id,
        "reason": mask_secret(reason, secret, keyword=False),
        "failed_line": mask_secret(failed_line, secret) if failed_line is not None else None,
        "line_number": line_number,
        "not_applied": [mask_secret(line, secret) for line in not_applied],
        "chatter": _quoted(chatter, secret),
        "cut_at": cut_at,
        "may": list(may),
    })
