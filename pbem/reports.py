"""Turn reports and replies: engine state -> a plain context -> jinja2 text.

The context builders are pure functions of a :class:`~pbem.games.Replay`; the templates in
``templates/`` decide the layout. Every report is plain ASCII text, in the tradition of the
postal games: one report a turn that says everything (accented letters lose their accents,
anything else outside ASCII becomes ``?``).
"""

from __future__ import annotations

import functools
import re
import textwrap
import unicodedata
from datetime import datetime, timedelta
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import jinja2

from pbem import report_sections as sections
from pbem.engine import shares
from pbem.engine.events import render_all
from pbem.engine.actions import action_from_dict
from pbem.engine.routes import DEFAULT_SEARCH_BUDGET
from pbem.engine.state import IPO, POOL, Owner
from pbem.application.deadlines import parse_time, time_left, when
from pbem.application.state import deadline_of, open_deals
from pbem.games import GmEntry, Replay, Undone
from pbem.log_records import DealRecord, PlanRecord
from pbem.orders import Vocabulary, format_order

TEMPLATES_DIR = Path(str(resources.files("pbem.templates")))
"""The jinja2 templates: the repository's top-level ``templates/`` folder, which the build
ships inside the package as ``pbem.templates`` (found with :mod:`importlib.resources`)."""


@functools.lru_cache(maxsize=8)
def environment(templates_dir: Path = TEMPLATES_DIR) -> jinja2.Environment:
    """The jinja2 environment for the plain-text templates (no autoescape, strict undefined);
    one per folder, so each template is compiled once. The compiled templates are also kept
    in jinja2's own bytecode cache (a folder of the user's in the temporary directory, checked
    against each template's source), so a new process need not compile them again (the
    issue's cold start of ``pbem report``); without such a folder they are compiled."""
    try:
        bytecode: jinja2.BytecodeCache | None = jinja2.FileSystemBytecodeCache()
    except (OSError, RuntimeError):  # no private temporary folder to be had: compile each time
        bytecode = None
    env = jinja2.Environment(
        bytecode_cache=bytecode,
        loader=jinja2.FileSystemLoader(str(templates_dir)),
        autoescape=False,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["wrap"] = wrap_text
    env.filters["wrap_each"] = wrap_each
    return env


def wrap_text(text: str, indent: int = 0, hang: int = 2, width: int = 78) -> str:
    """``text`` wrapped at ``width`` columns, starting at ``indent`` spaces, continuation
    lines ``hang`` spaces deeper (the report's prose lines; tables are laid out by hand)."""
    lines = textwrap.wrap(str(text), width=width, initial_indent=" " * indent,
                          subsequent_indent=" " * (indent + hang), break_long_words=True,
                          break_on_hyphens=False)
    return "\n".join(lines) if lines else " " * indent


_QUOTED = re.compile(r"(?<!\w)'[^'\n]+'(?!\w)")
"""A line quoted in a reply's prose (``'BID CA 5'``): never broken."""
_ORDER_RUN = re.compile(r"\b[A-Z][A-Z&]+(?: [A-Z0-9][A-Z0-9&.:+\-]*)+")
"""A run of order words and numbers (``TIMING STOCK 48 PASS``): never broken."""
_KEEP = "\x00"


def wrap_each(text: str, indent: int = 0, hang: int = 2, width: int = 78) -> str:
    """Each line of ``text`` wrapped as :func:`wrap_text` does, under its own indent (the
    first line's ``indent`` deeper, as a template places it), continuations ``hang`` deeper;
    a quoted line or a run of order words is kept on one line, so it can be copied."""
    def kept(found: re.Match[str]) -> str:
        return found.group(0).replace(" ", _KEEP)

    out = []
    for n, line in enumerate(str(text).splitlines() or [""]):
        own = len(line) - len(line.lstrip(" ")) + (indent if n == 0 else 0)
        words = _ORDER_RUN.sub(kept, _QUOTED.sub(kept, line.strip()))
        wrapped = textwrap.wrap(words, width=width, initial_indent=" " * own, subsequent_indent=" " * (own + hang),
                                break_long_words=False, break_on_hyphens=False)
        out.append("\n".join(wrapped).replace(_KEEP, " "))
    return "\n".join(out)


def _ascii(text: str, form: Literal["NFKD", "NFD"] = "NFKD") -> str:
    """``text`` in ASCII: decomposed (NFKD) without its combining marks ("Zoë" -> "Zoe"),
    then anything still outside ASCII as ``?``."""
    decomposed = unicodedata.normalize(form, text)
    stripped = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return stripped.encode("ascii", "replace").decode("ascii")


def quoted_ascii(text: str) -> str:
    """What a player wrote, in ASCII for a reply that quotes it: accents dropped ("Zoë" ->
    "Zoe"), every other non-ASCII character ``?`` -- never a look-alike, so ``"HISTORY ²"``
    is quoted as ``"HISTORY ?"``, not as a valid ``"HISTORY 2"`` (canonical decomposition,
    NFD, where the report text uses NFKD)."""
    return _ascii(text, "NFD")


def report_context(replay: Replay, *, since_seq: int, number: int, recipient: str | None = None,
                   width: int = 132, route_budget: int = DEFAULT_SEARCH_BUDGET,
                   now: datetime | None = None) -> dict[str, Any]:
    """Everything a turn report shows, as plain data.

    :param since_seq: the log seq the previous report covered; actions and GM records
        (undo, pause, resume, end, replace, broadcast) after it are listed.
    :param number: this report's number in the archive.
    :param recipient: a seat name for the per-player section, or None (the GM's copy).
    :param width: the widest line the map may use (132, or 80 for small screens: the map
        is then split into parts).
    :param route_budget: search steps for finding the best run shown to a corporation
        about to run its trains (:data:`pbem.engine.routes.DEFAULT_SEARCH_BUDGET`).
    """
    game, title, info, state = replay.game, replay.title, replay.info, replay.game.state
    money = title.format_money
    limit = shares.certificate_limit(state, title)
    bids = sections.open_bids(game)
    words = terms(title)
    mark = words["president"][:1].upper()
    players = []
    for name in state.seats:
        p = state.players[name]
        holdings = []
        for corp in title.corporations:
            pct = state.percent_of(Owner.player(name), corp.sym)
            if pct:
                pres = state.corporations[corp.sym].president == name
                holdings.append(f"{corp.sym} {pct}%{mark if pres else ''}")
        committed = sum(price for offers in bids.values() for bidder, price in offers if bidder == name)
        players.append(
            {
                "name": name,
                "cash": money(p.cash),
                "bid": money(committed) if committed else "",
                "certs": shares.certificate_count(state, title, name),
                "limit": limit,
                "holdings": "; ".join(part for part in (", ".join(holdings), ", ".join(p.companies)) if part) or "-",
                "worth": money(game.player_value(name)),
                "priority": state.order[0] == name,
            }
        )
    from pbem.engine.receivership import in_receivership

    corporations = []
    for corp in title.corporations:
        c = state.corporations[corp.sym]
        price = game.share_price(corp.sym)
        corporations.append(
            {
                **sections.corporation_extras(game, corp.sym),
                "sym": corp.sym,
                "name": corp.name,
                "president": c.president or ("receiver" if in_receivership(game, corp.sym) else "-"),
                "par": money(shares.par_price(state, title, corp.sym)) if c.par else "-",
                "price": money(price) if price is not None else "-",
                "treasury": money(c.cash) if c.ipoed else "-",
                "ipo": f"{state.percent_of(IPO, corp.sym)}%",
                "pool": f"{state.percent_of(POOL, corp.sym)}%",
                "floated": "closed" if c.closed else "yes" if c.floated else ("no" if c.ipoed else "-"),
            }
        )
    privates = []
    for company in title.companies:
        cs = state.companies[company.sym]
        privates.append(
            {
                "sym": company.sym,
                "name": company.name,
                "value": money(company.value),
                "revenue": money(company.revenue),
                "owner": "closed" if cs.closed else cs.owner.name if cs.owner else "for sale",
                "bids": ", ".join(f"{bidder} {money(price)}" for bidder, price in bids.get(company.sym, [])),
            }
        )
    private_widths = (max([3] + [len(c.sym) for c in title.companies]),
                      max([26] + [len(c.name) for c in title.companies]))
    vocab = Vocabulary.from_title(title)
    since: list[dict[str, Any]] = []
    for plan_record in replay.plan_records:
        text = plan_text(plan_record)
        if plan_record.seq > since_seq and text:
            since.append({"seq": plan_record.seq, "actor": plan_record.seat, "order": text, "events": []})
    gm_address = replay.info.gm_email.lower()
    for record in replay.effective:
        if record.seq > since_seq:
            ruled = record.by.lower() == gm_address and record.seq not in replay.given_by
            since.append(
                {
                    "seq": record.seq,
                    "actor": f"GM for {record.actor}" if ruled else record.actor,
                    "order": format_order(record.action_in(vocab.action_types), vocab)
                    + (f" ({replay.given_by[record.seq]})" if record.seq in replay.given_by
                       else " (sent by the deadline)" if (record.source or "").startswith("<deadline.") else ""),
                    "events": [in_terms(line, words["president"])
                               for line in render_all(replay.events.get(record.seq, []), money)],
                }
            )
    for entry in replay.gm:
        if entry.seq > since_seq:
            since.append({"seq": entry.seq, "actor": entry.actor or "GM", "order": gm_text(entry, vocab),
                          "events": []})
    for deal in replay.deal_records:
        if deal.seq > since_seq:
            since.append({"seq": deal.seq, "actor": deal.actor, "order": deal_text(deal, vocab), "events": []})
    since.sort(key=lambda item: int(item["seq"]))
    ended = info.ended or state.finished
    actors = [] if ended or info.paused else game.current_actors()
    acting = actors[0] if actors else None
    found = sections.offer(game, acting, route_budget, position=replay.last_seq) if acting else None
    header = _header_lines(replay, info, ended)
    own = sections.holdings_line(game, recipient) if recipient in state.players else ""
    first = first_section(found, recipient=recipient, actors=actors, ended=ended, paused=info.paused,
                          room=max(6, FIRST_SCREEN - len(header) - 1), width=min(width, 80), own=own)
    first += deal_lines(replay, vocab, recipient, min(width, 80))
    first += plan_lines(replay, recipient, min(width, 80))
    truncated = any(line.endswith(TRUNCATED) for line in first)
    lay_lines = all_lays(found, width) if found is not None and found.lays and truncated else []
    return {
        "game_id": info.game_id,
        "number": number,
        "title": title.name,
        "variants": ", ".join(info.variants) or "none",
        "auto_runs": info.auto_runs,
        "round": game.round_label(),
        "bank": money(game.hooks.sequence.bank_cash(game)),
        "waiting_for": game.waiting_for(),
        "paused": info.paused,
        "ended": ended,
        "since": since,
        "players": players,
        "bidding": bool(bids),
        "table_width": max(78, min(width, 132) - 2),
        "corporations": corporations,
        "privates": privates,
        "title_sections": [{"heading": heading, "lines": list(lines)}
                           for heading, lines in game.title.presentation.report_sections(game)],
        "private_widths": private_widths,
        "recipient": recipient,
        "first": first,
        "lay_lines": lay_lines,
        "lay_corp": found.lay_corp if found is not None else "",
        "president_word": words["president"].capitalize(),
        "president_mark": mark,
        "president_term": words["president"].lower(),
        "kinds": corporation_kinds(title),
        "ascii_spelling": words["ascii"],
        "map_codes": ", ".join(f"{c.sym} is {c.short}" for c in title.corporations if c.short and c.short != c.sym),
        "log_seq": replay.last_seq,
        "phase": game.state.phase,
        "deadline": info.deadline,
        "timed": deadline_lines(replay, now),
        "market": sections.market_lines(game, width),
        "market_markers": sections.stock_market(game)["markers"],
        "market_zones": sections.stock_market(game)["zones"],
        "trains": sections.trains_and_phase(game),
        "map": _map(game, width),
        "track": _track(game, width),
        "tiles_left": _tiles_left(game, width),
        "scores": ({p: money(v) for p, v in game.result().items()} if ended else {}),
    }


def in_terms(line: str, president: str) -> str:
    """An event's ``line`` in the title's own word for a president (``"Director"``: 1825's
    "LNWR has no Director", "the Director's certificate"); unchanged for "president"."""
    if president.lower() == "president":
        return line
    return re.sub(r"\b[Pp]resident\b", president, line)


def terms(title: Any) -> dict[str, Any]:
    """The title's own words for the report (game.yaml ``terms``): ``president`` (1830's
    "president", 1825's "Director") and ``ascii``, how the ASCII report spells characters of
    the title's text that have none (``{"£": "L"}``; by default none)."""
    found = title.settings.terms
    return {"president": found.president, "ascii": dict(found.ascii)}


def corporation_kinds(title: Any) -> list[str]:
    """One line a kind of corporation (``"minor: M1, M2"``), where the title has more than one
    kind (corporations.yaml ``kind``; 1825's majors and minors); else none."""
    by_kind: dict[str, list[str]] = {}
    for corp in title.corporations:
        by_kind.setdefault(corp.kind, []).append(corp.sym)
    return [f"{kind}: {', '.join(syms)}" for kind, syms in by_kind.items()] if len(by_kind) > 1 else []


def _map(game: Any, width: int) -> str:
    from pbem.asciimap import render_map

    return render_map(game, width=width)


def _track(game: Any, width: int) -> list[str]:
    from pbem.track_words import track_summary

    return track_summary(game, width=width)


def _tiles_left(game: Any, width: int) -> list[str]:
    from pbem.tile_manifest import report_lines

    return report_lines(game, width)


TRUNCATED = ": all in TILE LAYS below"
"""How the first section ends a list of tile lays cut short."""

FIRST_SCREEN = 24
"""Lines of the first screen of a phone (the issue: at 80 columns, the first 24 lines say
everything a player needs to answer)."""


def _header_lines(replay: Replay, info: Any, ended: bool) -> list[str]:
    """The header's lines as the template writes them (only their count matters here: the
    first section fits the rest of the first screen)."""
    lines = ["=", "title", "variants", "round"]
    lines += ["setting"] if info.auto_runs else []
    lines += ["deadline"] if info.deadline else []
    lines += deadline_lines(replay, None)
    if ended:
        lines += ["over", "scores", ""]
    else:
        lines += wrap_text("Next to act: " + replay.game.waiting_for(), 0).splitlines()
    return lines + ["="]


def first_section(found: sections.Offer | None, *, recipient: str | None, actors: list[str], ended: bool,
                  paused: bool, room: int = 16, width: int = 80, own: str = "") -> list[str]:
    """The report's first section (issue: "own section first"): for a player ``FOR <NAME>``,
    whether it is their turn and the exact lines they may send; for the GM's and the
    archived copy, whose turn it is and what they may send; ``own``: the player's own
    position (:func:`pbem.report_sections.holdings_line`). At most ``room`` lines (the rest
    of the first screen): legal tile lays beyond that are counted, and listed in full in
    the TILE LAYS section. Lines are at most ``width`` (<= 80) columns."""
    text = width - 2
    out: list[str] = []
    if recipient is not None:
        out.append(f"FOR {recipient.upper()}")
        if ended:
            return out + ["  The game is over."]
        if paused:
            return out + ["  The game is paused by the GM; nothing is asked of you until it resumes."]
        if recipient not in actors or found is None:
            waiting = f" The game waits for {', '.join(actors)}." if actors else ""
            return out + wrap_text(f"Nothing is asked of you now.{waiting} {own}".rstrip(), 2, 2, text).splitlines()
        out += wrap_text(f"It is your turn. {found.task}.", 2, 2, text).splitlines()
        out += wrap_text(own, 2, 2, text).splitlines() if own else []
        out.append("  You may send any of these lines (one order a line):")
    else:
        if ended or paused or found is None:
            return []
        out.append(f"TO ACT: {found.player.upper()}")
        out += wrap_text(f"It is {found.player}'s turn. {found.task}.", 2, 2, text).splitlines()
        out.append(f"  {found.player} may send any of these lines (one order a line):")
    for choice in found.choices:
        out += _choice_lines(choice, text)
    if found.lays:
        out.append(f"  {found.lay_corp} may lay (hex: tile and rotations; HELP shows the edges):")
        packed = _pack_lays(found, text, indent=4)
        left = room - len(out)
        if len(packed) > left:
            shown = packed[: max(1, left - 1)]
            hidden = sum(line.count(": ") for line in packed[len(shown):])
            out += shown + [f"    ... and {hidden} more hexes{TRUNCATED}"]
        else:
            out += packed
    return out


def _choice_lines(choice: sections.Choice, width: int) -> list[str]:
    """One choice: its orders joined by ``or`` (an order is never split over two lines),
    then its note, wrapped at ``width`` columns, indented four spaces."""
    words = [f"{order}" for order in choice.orders]
    lines: list[str] = []
    current = "   "
    for i, order in enumerate(words):
        piece = order if i == 0 else f"or  {order}"
        if len(current) + 2 + len(piece) > width and current.strip():
            lines.append(current.rstrip())
            current = "      " + piece
        else:
            current += ("  " if current.strip() else " ") + piece
    note = f"-- {choice.note}" if choice.note and choice.orders else choice.note
    if note:
        if not current.strip():
            current = "    " + note
        elif len(current) + 2 + len(note) <= width:
            current += "  " + note
        else:
            lines.append(current.rstrip())
            current = "      " + note
    if current.strip():
        lines.append(current.rstrip())
    return [line for part in lines for line in (wrap_text(part.strip(), 4, 4, width).splitlines()
                                                 if len(part) > width else [part])]


def _pack_lays(found: sections.Offer, width: int, indent: int) -> list[str]:
    """The legal lays, hex by hex (``H10: 57 r0 r3; 7 r1``, ``F16 ($120): ...`` with a
    terrain cost), several hexes a line with ``|`` between them, at most ``width`` columns;
    a hex too long for a line is wrapped."""
    lines: list[str] = []
    current = ""
    for coord, text in found.lays.items():
        cost = found.lay_costs.get(coord)
        entry = f"{coord}{f' ({cost})' if cost else ''}: {text}"
        if len(entry) + indent > width:
            if current:
                lines.append(" " * indent + current)
                current = ""
            # a tile and its rotations stay on one line; the hex goes on, four deeper
            head, _, rest = entry.partition(": ")
            line = " " * indent + head + ":"
            for part in rest.split("; "):
                if len(line) + 1 + len(part) + 1 > width and line.strip().endswith(";"):
                    lines.append(line)
                    line = " " * (indent + 4) + part + ";"
                else:
                    line += f" {part};"
            lines.append(line.rstrip(";"))
            continue
        if current and indent + len(current) + 3 + len(entry) <= width:
            current += " | " + entry
        else:
            if current:
                lines.append(" " * indent + current)
            current = entry
    if current:
        lines.append(" " * indent + current)
    return lines


def all_lays(found: sections.Offer, width: int) -> list[str]:
    """Every legal tile lay of the corporation about to lay track, packed at ``width``."""
    return _pack_lays(found, min(width, 132) - 2, indent=2)


def deadline_lines(replay: Replay, now: datetime | None) -> list[str]:
    """The header's lines on the deadline that acts (issue 21), or none: when it falls, the
    time left at ``now`` (the moment the report is written; unknown: not shown), what happens
    then, and since when the player has been awaited."""
    deadline = deadline_of(replay)
    if deadline is None:
        return []
    left = f" ({time_left(deadline, now)})" if now is not None else ""
    then = {"wait": "the GM is told", "pass": "PASS is sent", "default": "the safe default is sent"}
    return [f"Deadline: {deadline.seat} by {when(deadline.at)}{left}",
            f"Waiting for {deadline.seat} since {when(deadline.since)}; then {then[deadline.policy.value]}"]


def plan_text(record: PlanRecord) -> str:
    """A plan record as the report lists it for everyone (its entries are the seat's own):
    set, cancelled, or an entry refused or run out; nothing for an entry used as planned."""
    if record.status == "set":
        return f"sends standing orders for {len(record.entries)} turn{'s' * (len(record.entries) != 1)}"
    if record.status == "cancel":
        return "cancels the standing orders"
    if record.outcome == "refused":
        return f"standing order {record.index + 1} refused ({record.note}); the rest is cancelled"
    if record.outcome == "expired":
        return "standing orders end with the round"
    if record.outcome == "left":
        return f"standing order {record.index + 1}: its conditions fail and it has no ELSE; the turn is the player's"
    return ""


def plan_lines(replay: Replay, recipient: str | None, width: int = 80) -> list[str]:
    """To a seat with proxy bids or standing orders, its limits on the privates still for
    sale and the entries still to come (its own, shown to nobody else)."""
    out: list[str] = []
    auction = replay.game.state.round.auction
    limits = replay.proxies.get(recipient or "", {})
    open_limits = [f"{c} up to {replay.title.format_money(v)}" for c, v in limits.items()
                   if auction is not None and c in auction.available]
    if open_limits:
        out += wrap_text(f"Your proxy bids (yours alone to see): {', '.join(open_limits)}", 2, 4, width - 2).splitlines()
    autos = [f"{corp} (AUTO, {dividend})" for corp, (seat, dividend) in replay.autos.items() if seat == recipient]
    if autos:
        out += wrap_text(f"Your corporations' standing orders (AUTO <corp> OFF ends them): {', '.join(autos)}",
                         2, 4, width - 2).splitlines()
    plan = replay.plans.get(recipient) if recipient is not None else None
    if plan is not None:
        entries = "; ".join(f"{n}. {text}" for n, text in enumerate(plan.entries[plan.next:], start=1))
        out += wrap_text(f"Your standing orders (CANCEL drops them): {entries}", 2, 4, width - 2).splitlines()
    return [""] + out if out else []


def deal_text(record: DealRecord, vocab: Vocabulary) -> str:
    """A deal record as the report lists it: the offer (``offers Ann: BUY MH 40``) or the
    answer (``ACCEPT 12``, ``DECLINE 12``)."""
    if record.status == "offered" and record.action_data is not None:
        action = action_from_dict(dict(record.action_data), vocab.action_types)
        return f"offers {record.owner} a deal: {format_order(action, vocab)} (needs {record.owner}'s consent)"
    if record.status == "lapsed":
        return f"deal {record.deal} lapsed unanswered"
    return f"{'ACCEPT' if record.status == 'accepted' else 'DECLINE'} {record.deal}"


def lapse_time(replay: Replay, deal: DealRecord) -> str:
    """`` or Tue 2026-12-01 14:00 UTC`` when the game's TIMING DEALS ends ``deal`` sooner."""
    offered = parse_time(deal.time)
    hours = replay.info.deal_hours
    return f" or {when(offered + timedelta(hours=hours))}" if hours > 0 and offered is not None else ""


def deal_lines(replay: Replay, vocab: Vocabulary, recipient: str | None, width: int = 80) -> list[str]:
    """The deals standing (:func:`pbem.application.state.open_deals`), after the first
    section: to their owner what to answer, to the others whom they wait for."""
    out: list[str] = []
    for deal in open_deals(replay):
        assert deal.action_data is not None
        order = format_order(action_from_dict(dict(deal.action_data), vocab.action_types), vocab)
        if recipient is not None and recipient == deal.owner:
            text = (f"DEAL {deal.seq}: {deal.buyer} offers you a deal: {order}. Send ACCEPT {deal.seq} "
                    f"or DECLINE {deal.seq}; it stands until {deal.buyer}'s turn ends{lapse_time(replay, deal)}.")
        else:
            text = f"DEAL {deal.seq}: {deal.buyer} offers {deal.owner} a deal: {order} (waiting for {deal.owner})."
        out += wrap_text(text, 2, 4, width - 2).splitlines()
    return ([""] + out) if out else []


def gm_text(record: GmEntry, vocab: Vocabulary | None = None) -> str:
    """A GM record (an undo as the game saw it, or a ``gm`` record) as one line for a
    report; never the new secret. An undo names what it took back:
    ``UNDO 8: took back #8 Bob: BID CA 170`` (issue)."""
    if isinstance(record, Undone):
        if record.taken_back:
            taken = ", ".join(f"#{r.seq} {r.actor}: {format_order(r.action_in(vocab.action_types if vocab else {}), vocab)}" for r in record.taken_back)
        else:
            taken = "nothing in force"
        if record.actor != "GM":
            return f"TAKEBACK: took back {taken}"
        return f"UNDO {record.record.to_seq}: took back {taken}"
    command = record.command
    if command == "replace":
        return f"REPLACE {record.seat}: now played by {record.email}"
    if command == "broadcast":
        return f"BROADCAST {record.text}"
    if command == "deadline":
        return f"DEADLINE {record.text or 'none'}"
    return {"pause": "PAUSE: the game is paused", "resume": "RESUME: the game goes on",
            "end": "END GAME: the game is over"}.get(str(command), f"GM {command}")


def render(template: str, context: dict[str, Any], templates_dir: Path = TEMPLATES_DIR) -> str:
    """Render ``template`` with ``context``; the result is ASCII: a character the context's
    ``ascii_spelling`` names (the title's ``terms.ascii``, ``{"£": "L"}``) is spelt so first."""
    text = environment(templates_dir).get_template(template).render(**context)
    spelling = context.get("ascii_spelling") or {}
    for written, spelt in spelling.items():
        text = text.replace(written, spelt)
    return _ascii(text)


