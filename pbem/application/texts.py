"""The texts of the server's mail: turn reports, answers to HELP/REPORT/TILES/HISTORY/WIDTH,
welcomes. They read the report archive (the reports as they were sent) but write nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Callable

from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
from pbem.application.state import Replay
from pbem.commands import Info, full_help
from pbem import report_sections as sections
from pbem.report_archive import ReportArchive
from pbem.tile_manifest import manifest_text
from pbem.reports import render, report_context, wrap_text


@dataclass(frozen=True)
class TextSettings:
    """``server`` our address (named in welcomes); ``route_budget`` search steps for the
    best run a report shows; ``clock`` the time a report is written at."""

    server: str
    route_budget: int = DEFAULT_SEARCH_BUDGET
    clock: Callable[[], float] | None = None
    """The server's clock (epoch seconds): reports say how long is left before a deadline."""


def turn_report(state: Replay, settings: TextSettings, *, since: int, number: int,
                recipient: str | None, width: int) -> str:
    """Turn report ``number`` (the actions after log number ``since``) for seat
    ``recipient`` (None: the GM's copy, also the archived one) at ``width`` columns."""
    now = datetime.fromtimestamp(settings.clock(), timezone.utc) if settings.clock is not None else None
    return render("report.txt.j2", report_context(state, since_seq=since, number=number, recipient=recipient,
                                                  width=width, route_budget=settings.route_budget, now=now))


def welcome_text(state: Replay, settings: TextSettings, seat: str, secret: str) -> str:
    """The welcome mail for a seat: seat, secret, how to send orders, the HELP text, and
    the opening report (whose turn it is and what they may do)."""
    info = state.info
    opening = turn_report(state, settings, since=state.last_seq, number=0, recipient=seat,
                          width=info.width_for(seat))
    return render("welcome.txt.j2", {
        "game_id": info.game_id,
        "title": state.title.name,
        "variants": ", ".join(info.variants) or "none",
        "seat": seat,
        "secret": secret,
        "seats": [f"{s.name} <{s.email}>" for s in info.seats],
        "gm": info.gm_email,
        "server": settings.server,
        "help": full_help(is_gm=False, title=state.title),
        "report": opening,
    })


def gm_welcome_text(state: Replay, gm_secret: str) -> str:
    """The mail to a new game's GM: the GM secret and the HELP text with the GM commands."""
    game_id = state.info.game_id
    return (f"You are the game master of {game_id}.\nYour GM secret: {gm_secret}\n\n"
            + full_help(is_gm=True, title=state.title) + "\n")


def info_text(state: Replay, settings: TextSettings, archive: ReportArchive, item: Info, sender: str,
              past: Callable[[int], Replay] | None = None) -> str:
    """The answer to HELP, WIDTH, REPORT (the latest report, as sent), TILES (the tile
    manifest, :func:`pbem.tile_manifest.manifest_text`) or HISTORY n (as archived; drawn
    again at the sender's width from ``past``, the game as of a log position, when the
    archived one is wider)."""
    info = state.info
    is_gm = sender.lower() == info.gm_email.lower()
    if item.what == "help":
        return full_help(is_gm=is_gm, title=state.title) + _may_now(state, settings, sender) + "\n"
    if item.what == "tiles":
        return manifest_text(state.game)
    if item.what == "width":
        return f"Your reports will be at most {item.number} columns wide.\n"
    if item.what == "mail":
        seat = info.seat_for(sender)
        mine = info.mail_setting(seat.name if seat else None)
        when = {"every": "after every move", "turn": "when it is your turn and when a round ends",
                "round": "when a round ends"}[mine.value]
        shown = ("with the board's pictures (MAIL PICTURES OFF: text only)" if info.pictures_for(seat.name if seat else None)
                 else "as text only (MAIL PICTURES ON: with the board's pictures)")
        return wrap_text(f"You will be mailed the full report {when} (MAIL {mine.value.upper()}), {shown}; a reply "
                         f"to each of your mails always. The game's default: MAIL {info.mail_default.value.upper()}.",
                         hang=0) + "\n"
    if item.what == "report":
        seat = info.seat_for(sender)
        entries = archive.entries()
        latest = entries[-1] if entries else None
        # the report as it was sent: the actions since the report before it
        if latest is not None and latest.seq < state.last_seq:
            since = latest.seq
        else:
            since = entries[-2].seq if len(entries) > 1 else 0
        who = seat.name if seat else None
        return turn_report(state, settings, since=since, number=latest.number if latest else 0, recipient=who,
                           width=info.width_for(who))
    entry = archive.get(item.number or 0)
    if entry is None:
        numbers = [e.number for e in archive.entries()]
        have = f"reports 1 to {max(numbers)}" if numbers else "no reports yet"
        return f"There is no report {item.number}; the archive has {have}.\n"
    text = entry.path.read_text()
    seat = info.seat_for(sender)
    who = seat.name if seat else None
    width = info.width_for(who)
    if past is not None and max((len(line) for line in text.splitlines()), default=0) > width:
        earlier = [e.seq for e in archive.entries() if e.number < entry.number]
        text = turn_report(past(entry.seq), settings, since=earlier[-1] if earlier else 0, number=entry.number,
                           recipient=who, width=width)
    return text


def _may_now(state: Replay, settings: TextSettings, sender: str) -> str:
    """HELP's last part: what the sender's seat may do now (for the GM, the player to act),
    from the one legal-move API (:func:`pbem.report_sections.may_now`); empty when it is
    not their turn."""
    seat = state.info.seat_for(sender)
    actors = state.game.current_actors()
    who = seat.name if seat else next(iter(actors), None)
    lines = sections.may_now(state.game, who, settings.route_budget)
    if not lines:
        return ""
    head = "What you may do now:" if seat else f"What {who} may do now:"
    return "\n\n" + head + "\n" + "\n".join(f"  {line}" for line in lines)


def info_reply(state: Replay, settings: TextSettings, archive: ReportArchive, infos: tuple[Info, ...],
               sender: str, past: Callable[[int], Replay] | None = None) -> str:
    """One reply to every HELP, REPORT, TILES, HISTORY n and WIDTH of a mail (each asked once);
    ``past`` as :func:`info_text` takes it."""
    distinct: list[Info] = []
    for item in infos:
        if all((item.what, item.number) != (d.what, d.number) for d in distinct):
            distinct.append(item)
    if len(distinct) == 1:
        return info_text(state, settings, archive, distinct[0], sender, past)
    return "\n".join(f"--- {' '.join(i.line.split()).upper()} ---\n\n"
                     + info_text(state, settings, archive, i, sender, past) for i in distinct)


def general_help_text(sender: str, games: list[tuple[str, str]]) -> str:
    """HELP in a mail that names no game: the order reference and ``games``, the sender's
    ``(game id, role)`` on this server."""
    lines = [f"  [{game_id}] {role}" for game_id, role in games]
    where = ("Your games on this server (put the tag in the Subject):\n" + "\n".join(lines)
             if lines else f"{sender} has no seat in any game on this server.")
    signup = ("To find a game, send LIST (the games open for players and those running);\n"
              "JOIN <game> or JOIN <game> AS <your name> takes a seat in one.")
    return full_help(is_gm=False) + "\n\n" + where + "\n\n" + signup + "\n"
