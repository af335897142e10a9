"""Applying the commands of one mail to a working copy of a game (no I/O but title data).

:func:`execute` is called for each command of an accepted mail in turn (by
:func:`pbem.application.mail.handle_mail`). Each record a command adds is a typed draft
(:mod:`pbem.log_records`) numbered as it will be written, and is applied to the working
copy at once through :func:`pbem.application.state.apply_record`, the function a replay of
the log uses: so the copy always ends where the log will once the drafts are appended.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any, Callable

from pbem.application.state import Replay, ReplayError, apply_record, open_deals
from pbem.application import deadlines, plans
from pbem.commands import (
    AutoOrders, Away, CancelPlan, Command, DealAnswer, GmCommand, Info, MailChoice, Order, PlanLine, Press, ProxyBid,
    TakeBack,
)
from pbem.engine import deals, routes
from pbem.engine.actions import (
    Action, Bid, BuyPrivate, Dividend, Pass, RunAuto, RunRoutes, SellShares, action_from_dict,
)
from pbem.engine.game import Game
from pbem.engine.state import RoundKind
from pbem.engine.values import DividendChoice
from pbem.engine.steps import auction
from pbem.engine.events import Note
from pbem.errors import OrderError
from pbem.log_records import (
    AutoRecord, AwayRecord, DealRecord, GMRecord, LogRecord, MailRecord, PlanRecord, PressRecord, ProxyRecord,
    TimingRecord,
    UndoRecord,
    WidthRecord,
    draft_order,
)
from pbem.order_codecs import Vocabulary


@dataclass(frozen=True)
class Welcome:
    """A seat given to a new address: the welcome mail to send (``secret`` in clear);
    ``replaced``: the address that played the seat before (told it no longer does)."""

    seat: str
    email: str
    secret: str
    replaced: str | None = None


@dataclass
class Work:
    """One mail being applied: the working copy ``state`` (changed in place), who sent it
    (``sender`` address, ``source`` its Message-ID, ``seat`` the sender's seat or None for
    the GM, ``is_gm``), and what the commands so far collected: ``records`` (drafts, in
    order), ``infos`` (HELP, REPORT, HISTORY, WIDTH), ``broadcasts`` (texts), ``welcomes``.

    ``route_budget`` is in search steps of the route optimiser (RUN AUTO); ``new_secret`` makes a new player's
    secret (given, so the application stays deterministic under test).
    """

    state: Replay
    sender: str
    source: str
    seat: str | None
    is_gm: bool
    route_budget: int
    new_secret: Callable[[], str]
    hash_secret: Callable[[str, str], str]
    records: list[LogRecord] = field(default_factory=list)
    plan: list[str] | None = None
    """The entries of the ``NEXT`` lines read so far (the seat's new plan), or None."""
    infos: list[Info] = field(default_factory=list)
    broadcasts: list[str] = field(default_factory=list)
    welcomes: list[Welcome] = field(default_factory=list)

    @property
    def next_seq(self) -> int:
        """The log number the next record gets."""
        return self.state.last_seq + 1

    def add(self, record: LogRecord) -> None:
        """Apply ``record`` to the working copy and keep it for the log.

        :raises OrderError: the engine refuses it (with the engine's message).
        """
        try:
            apply_record(self.state, record)
        except ReplayError as exc:
            if isinstance(exc.__cause__, OrderError):
                raise exc.__cause__ from None
            raise exc.__cause__ or exc from None  # not the player's fault: an internal error
        self.records.append(record)


def _hexes_named(action: Action) -> list[str]:
    """The hexes an action names (a tile's, a token's, a private token's, a run's stops)."""
    if isinstance(action, RunRoutes):
        return [stop.split(".", 1)[0] for run in action.runs for stop in run.stops]
    named = getattr(action, "hex", None)
    return [named] if isinstance(named, str) else []


def apply_order(work: Work, seat: str, action: Action, *, by: str | None = None) -> None:
    """Apply ``action`` for ``seat`` and keep its record. RUN AUTO is logged as the run it
    found (resolved here, outside the engine's ``apply``): the log keeps what was played.

    :raises OrderError: a hex the action names is not on the map, or the engine refuses it.
    """
    state = work.state
    missing = [h for h in _hexes_named(action) if h not in state.game.board.hexes]
    if missing:
        if state.title.variants:  # 1825's units: the hex may be on a unit this game does not play
            where = f"this game's map ({state.title.name} with {', '.join(state.title.variants)})"
        else:
            where = f"the {state.title.name} map"
        raise OrderError(f"there is no hex {missing[0]} on {where}")
    action, notes = routes.resolve_auto(state.game, action, work.route_budget)
    record = draft_order(work.next_seq, seat, action, by=by or work.sender, source=work.source)
    work.add(record)
    if notes:
        state.events[record.seq] = [Note(note) for note in notes] + state.events.get(record.seq, [])


def execute(command: Command, work: Work) -> None:
    """Apply one command of a mail to ``work`` (see :class:`Work`).

    :raises OrderError: the command is refused (nothing of the mail is applied then).
    """
    info = work.state.info
    if isinstance(command, Info):
        work.infos.append(command)
        if command.what == "width":
            who = work.seat if work.seat is not None and not work.is_gm else "GM"
            work.add(WidthRecord(seq=work.next_seq, actor=who, by=work.sender, source=work.source, seat=who,
                                 value=int(command.number or 132)))
        return
    if isinstance(command, (Order, DealAnswer, TakeBack)):
        if info.ended:
            raise OrderError("the game is over")
        if info.paused:
            raise OrderError("the game is paused by the GM")
    if isinstance(command, Order):
        seat = command.seat or work.seat
        if seat is None:
            raise OrderError("the GM has no seat: give orders with ACT AS <seat> <order>")
        if info.auto_runs and routes.run_left_out(work.state.game, command.action):
            # the game leaves runs to the server: the run comes first, as its own record
            apply_order(work, routes.run_actor(work.state.game), RunAuto())
        if command.seat is None:
            place_order(work, seat, command.action)  # a deal with another owner is an offer
        else:
            apply_order(work, seat, command.action)  # the GM's ACT AS rules it
        return
    if isinstance(command, DealAnswer):
        answer_deal(work, command)
        return
    if isinstance(command, TakeBack):
        take_back(work)
        return
    if isinstance(command, Away):
        away(work, command)
        return
    if isinstance(command, ProxyBid):
        proxy_bid(work, command)
        return
    if isinstance(command, AutoOrders):
        auto_orders(work, command)
        return
    if isinstance(command, Press):
        press(work, command)
        return
    if isinstance(command, MailChoice):
        if command.default and not work.is_gm:
            raise OrderError("MAIL DEFAULT is the GM's")
        who = "" if command.default else work.seat if work.seat is not None and not work.is_gm else "GM"
        work.add(MailRecord(seq=work.next_seq, actor=who or "GM", by=work.sender, source=work.source, seat=who,
                            value=command.setting))
        work.infos.append(Info(command.line, "mail"))
        return
    if isinstance(command, (PlanLine, CancelPlan)):
        if work.seat is None:
            raise OrderError("standing orders are a seat's; the GM gives orders with ACT AS <seat> <order>")
        if isinstance(command, PlanLine):
            work.plan = (work.plan or []) + [command.entry.text(Vocabulary.from_title(work.state.title))]
        elif not drop_standing(work, work.seat):
            raise OrderError("CANCEL: you have no standing orders or proxy bids")
        return
    _execute_gm(command, work)


def press(work: Work, command: Press) -> None:
    """Table talk from the sender's seat (or the GM) to every player or to one seat, as the
    GM allows (``GameInfo.press``; the GM's own is always allowed), logged and relayed.

    :raises OrderError: no such seat, talk to oneself, or talk the GM does not allow."""
    info = work.state.info
    sender = "GM" if work.is_gm else work.seat or "GM"
    to: str | None = None
    if command.to is not None:
        seat = info.seat_named(command.to)
        if seat is None:
            raise OrderError(f"PRESS: no player {command.to!r}; the players are "
                             + ", ".join(s.name for s in info.seats) + " (or PRESS ALL: ...)")
        if seat.name == sender:
            raise OrderError("PRESS: that is your own seat")
        to = seat.name
    if not work.is_gm and (info.press == "none" or (info.press == "private" and to is None)):
        allowed = "no table talk" if info.press == "none" else "talk to one player only (PRESS <player>: ...)"
        raise OrderError(f"PRESS: the GM allows {allowed} in this game")
    work.add(PressRecord(seq=work.next_seq, actor=sender, by=work.sender, source=work.source, to=to,
                         text=command.text))


def proxy_bid(work: Work, command: ProxyBid) -> None:
    """The sender's proxy on ``command.company``: the limit recorded, and the least bid
    placed at once (it is an order of the sender's turn).

    :raises OrderError: the GM, or the least bid now is above the limit or refused.
    """
    seat = work.seat
    if seat is None:
        raise OrderError("a proxy bid is a seat's; the GM gives orders with ACT AS <seat> <order>")
    game = work.state.game
    if game.state.round.auction is None or command.company not in game.state.round.auction.available:
        raise OrderError(f"{command.company} is not for sale in an auction now")
    least = auction.min_bid(game, command.company)
    if least > command.limit:
        raise OrderError(f"the least bid on {command.company} is {game.money(least)}, above your limit "
                         f"of {game.money(command.limit)}")
    work.add(ProxyRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source, status="set",
                         seat=seat, company=command.company, limit=command.limit))
    apply_order(work, seat, BuyPrivate(command.company) if auction.may_purchase(game, command.company)
                else Bid(command.company, least))


def auto_orders(work: Work, command: AutoOrders) -> None:
    """The corporation's standing orders set or ended by its president.

    :raises OrderError: the GM, or the sender does not preside the corporation.
    """
    seat = work.seat
    corp = work.state.game.state.corporations[command.corporation]
    if seat is None or corp.president != seat:
        raise OrderError(f"only the president of {command.corporation} ({corp.president or 'none yet'}) "
                         "leaves standing orders for it")
    if not command.dividend and command.corporation not in work.state.autos:
        raise OrderError(f"{command.corporation} has no standing orders")
    work.add(AutoRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source, status="set", seat=seat,
                        corporation=command.corporation, dividend=command.dividend))


def _auto_action(work: Work, game: Game, seat: str) -> Action | None:
    """What the operating corporation's standing orders send for ``seat`` now, or None (no
    standing orders of this president, or nothing safe: a train must be bought)."""
    if game.state.round.kind != RoundKind.OPERATING:
        return None
    corp = game.operating_corporation()
    standing = work.state.autos.get(corp or "")
    if standing is None or standing[0] != seat or game.state.corporations[corp or ""].president != seat:
        return None
    action = deadlines.default_action(game, seat, deadlines.NoMove.DEFAULT)
    if isinstance(action, Dividend) and standing[1] == "withhold":
        withhold = Dividend(DividendChoice.WITHHOLD)
        return withhold if withhold in game.legal_actions(seat) else action
    return action


def _proxy_answer(game: Game, seat: str, limits: dict[str, int]) -> tuple[Action, int] | None:
    """What ``seat``'s proxy sends when asked to raise or pass on the private being
    auctioned: the least bid and its price, or PASS and 0 past the limit; None without a
    proxy on it."""
    state = game.state.round.auction
    company = state.auctioning if state is not None else None
    if company is None or company not in limits:
        return None
    least = auction.min_bid(game, company)
    if least <= limits[company] and least <= auction.max_bid(game, seat, company):
        return Bid(company, least), least
    return Pass(), 0


def drop_standing(work: Work, seat: str) -> bool:
    """Drop ``seat``'s plan (also one read from this mail) and proxy bids; whether it had any."""
    had = seat in work.state.plans or work.plan is not None or bool(work.state.proxies.get(seat))
    work.plan = None
    if seat in work.state.plans:
        work.add(PlanRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source, status="cancel",
                            seat=seat))
    if work.state.proxies.get(seat):
        work.add(ProxyRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source, status="cancel",
                             seat=seat, company="", limit=0))
    return had


def finish(work: Work) -> None:
    """After a mail's commands: its ``NEXT`` lines become the sender's plan, and the plans of
    the players to act are applied (:func:`apply_plans`)."""
    if work.plan is not None and work.seat is not None:
        work.add(PlanRecord(seq=work.next_seq, actor=work.seat, by=work.sender, source=work.source,
                            status="set", seat=work.seat, entries=tuple(work.plan),
                            round=work.state.game.round_label()))
        work.plan = None
    if not any(isinstance(r, UndoRecord) and r.actor == "GM" for r in work.records):
        apply_plans(work)  # after the GM's UNDO, standing orders wait for the next mail


MAX_PLANNED = 200
"""The most plan entries one mail or pass applies (each is a turn of some player)."""


def apply_plans(work: Work) -> None:
    """The proxy bids and standing orders of each player to act, in turn, while one applies:
    a proxy answers a call to raise or pass on the private auctioned; an entry's
    order if its conditions hold, else its ``ELSE`` (none: the turn is left to the player);
    ``PASS UNTIL`` passes until it runs out; an order refused, or a round over, ends the
    plan. Each is logged (a ``plan`` record, then the order)."""
    vocab = Vocabulary.from_title(work.state.title)
    for _ in range(MAX_PLANNED):
        game = work.state.game
        actors = game.current_actors()
        if work.state.info.paused or work.state.info.ended or not actors:
            return
        seat = actors[0]
        auto = _auto_action(work, game, seat)
        if auto is not None:
            corp = game.operating_corporation() or ""
            work.add(AutoRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source, status="used",
                                seat=seat, corporation=corp, dividend=work.state.autos[corp][1]))
            apply_order(work, seat, auto)
            continue
        answer = _proxy_answer(game, seat, work.state.proxies.get(seat, {}))
        if answer is not None:
            company = game.state.round.auction.auctioning if game.state.round.auction else None
            work.add(ProxyRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source, status="used",
                                 seat=seat, company=company or "", limit=answer[1]))
            apply_order(work, seat, answer[0])
            continue
        plan = work.state.plans.get(seat)
        if plan is None or plan.held:
            return  # no plan, or the turn an entry left to the player
        entry = plans.parse_entry(plan.entries[plan.next], vocab)
        if entry.until and game.state.round.kind == RoundKind.OPERATING:
            return  # a programmed pass is for auctions and stock rounds: the president acts
        sold = {a.corporation for r in work.state.effective if r.seq > plan.seq
                and isinstance(a := r.action_in(vocab.action_types), SellShares)}  # since the plan was sent
        action: Action | None
        if entry.until:
            over = plans.pass_over(entry, game.round_label(), plan.round, game.state.round.kind, bool(sold))
            outcome, action = ("over", None) if over else ("kept", Pass())
        elif game.round_label() != plan.round:
            outcome, action = "expired", None
        else:
            met = all(plans.holds(c, game, seat, sold.__contains__) for c in entry.conditions)
            outcome, action = ("applied", entry.order) if met else (
                ("else", entry.otherwise) if entry.otherwise is not None else ("left", None))
        used = PlanRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source, status="used",
                          seat=seat, index=plan.next, outcome=outcome)
        if action is None:
            work.add(used)
            if outcome == "left":
                return  # the turn is the player's own
            continue
        try:
            twin = copy.deepcopy(game)
            twin.apply(seat, action)
        except OrderError as exc:
            work.add(dataclasses.replace(used, outcome="refused", note=str(exc)))
            continue
        work.add(used)
        email = work.state.info.seat_named(seat)
        place_order(work, seat, action, by=email.email if email else work.sender)


def place_order(work: Work, seat: str, action: Action, *, by: str | None = None) -> None:
    """``seat``'s own ``action``: applied, or offered to the other owner where a deal needs
    consent (:func:`offer_deal`)."""
    owner = deals.counterparty(work.state.game, seat, action)
    if owner is not None:
        offer_deal(work, seat, owner, action)
    else:
        apply_order(work, seat, action, by=by)


def away(work: Work, command: Away) -> None:
    """The sender's seat is away ``command.first`` to ``command.last``, within the days a
    year the game allows the seat (``GameInfo.away_allowance``; the GM grants more with
    TIMING AWAY <days> FOR <seat>).

    :raises OrderError: the GM sent it, the game is over, or the allowance is exceeded.
    """
    info = work.state.info
    if work.seat is None:
        raise OrderError("AWAY is a seat's; the GM pauses the game with PAUSE")
    if info.ended:
        raise OrderError("the game is over")
    year = command.first.year
    taken = sum(a.days for a in info.absences if a.seat == work.seat and a.first.year == year)
    days = (command.last - command.first).days + 1
    allowed = info.away_allowance(work.seat)
    if taken + days > allowed:
        raise OrderError(f"AWAY: {days} days would make {taken + days} days away in {year}; the game allows "
                         f"{allowed} a year ({taken} taken); ask the GM for more "
                         f"(TIMING AWAY <days> FOR {work.seat})")
    work.add(AwayRecord(seq=work.next_seq, actor=work.seat, by=work.sender, source=work.source, seat=work.seat,
                        first=command.first.isoformat(), last=command.last.isoformat()))


def offer_deal(work: Work, buyer: str, owner: str, action: Action) -> None:
    """``buyer``'s ``action`` needs ``owner``'s consent: checked on a copy of the game (it
    must be legal now) and logged as an offer, which stands until ``owner`` answers or the
    turn ends (issue 21).

    :raises OrderError: the engine refuses the action.
    """
    copy.deepcopy(work.state.game).apply(buyer, action)
    work.add(DealRecord(seq=work.next_seq, actor=buyer, by=work.sender, source=work.source, status="offered",
                        buyer=buyer, owner=owner, turn=deals.turn_key(work.state.game),
                        action_data=action.to_dict()))


def answer_deal(work: Work, command: DealAnswer) -> None:
    """The owner's ACCEPT or DECLINE of a deal offered to them: an accepted deal's action is
    applied for the buyer at once (it must still be legal).

    :raises OrderError: the GM answered, no such deal stands for the sender, or the deal is
        no longer legal.
    """
    seat = work.seat
    if seat is None:
        raise OrderError("only the owner answers a deal; the GM rules with ACT AS <buyer> <order>")
    mine = [d for d in open_deals(work.state) if d.owner == seat]
    word = "ACCEPT" if command.accept else "DECLINE"
    if not mine:
        raise OrderError(f"{word}: no deal is offered to {seat} now")
    if command.deal is None and len(mine) > 1:
        numbers = ", ".join(f"{word} {d.seq}" for d in mine)
        raise OrderError(f"{word}: several deals are offered to {seat}; name one: {numbers}")
    deal = next((d for d in mine if command.deal in (None, d.seq)), None)
    if deal is None:
        raise OrderError(f"{word} {command.deal}: no such deal is offered to {seat} now; "
                         + ", ".join(f"{word} {d.seq}" for d in mine))
    work.add(DealRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source,
                        status="accepted" if command.accept else "declined", deal=deal.seq))
    if command.accept:
        assert deal.buyer is not None and deal.action_data is not None
        action = action_from_dict(dict(deal.action_data), Vocabulary.from_title(work.state.title).action_types)
        try:
            apply_order(work, deal.buyer, action)
        except OrderError as exc:
            raise OrderError(f"deal {deal.seq} is no longer possible: {exc}") from None


def take_back(work: Work) -> None:
    """The sender's own last order taken back (an undo by the seat), while nobody has acted
    since: the last action in force is theirs, sent from their address.

    :raises OrderError: the GM (who has UNDO), or the last action is not the sender's own.
    """
    seat = work.seat
    if seat is None:
        raise OrderError("TAKEBACK is a player's; the GM takes back with UNDO")
    effective = work.state.effective
    last = effective[-1] if effective else None
    if last is None or last.actor != seat:
        who = f"#{last.seq} is {last.actor}'s" if last is not None else "nothing is in force"
        raise OrderError(f"TAKEBACK: only your own last order may be taken back, while nobody has acted since "
                         f"({who})")
    if last.by.lower() != work.sender.lower():
        raise OrderError(f"TAKEBACK: #{last.seq} was not sent from your address (a standing order, a proxy or "
                         "the deadline sent it, or the GM); CANCEL stops standing orders, the GM may UNDO")
    work.add(UndoRecord(seq=work.next_seq, actor=seat, by=work.sender, source=work.source, to_seq=last.seq))
    drop_standing(work, seat)  # the player takes the turn back into their own hands


def _execute_gm(command: GmCommand, work: Work) -> None:
    info = work.state.info
    envelope: dict[str, Any] = {"seq": work.next_seq, "actor": "GM", "by": work.sender, "source": work.source}
    if command.name == "undo":
        if info.ended:
            raise OrderError("the game is over (END GAME): there is nothing more to undo")
        effective = work.state.effective
        if not effective:
            raise OrderError("there is no action to undo")
        to_seq = int(command.args[0]) if command.args else effective[-1].seq
        if to_seq < 1:
            raise OrderError("record 0 is the game itself; UNDO goes back to a log number from 1 on")
        if not any(r.seq >= to_seq for r in effective):
            raise OrderError(f"no action in force at or after log number {to_seq}")
        work.add(UndoRecord(**envelope, to_seq=to_seq))
    elif command.name == "replace":
        seat_name, email = command.args
        holder = info.seat_for(email)
        if holder is not None and holder.name != seat_name:
            raise OrderError(f"{email} already plays {holder.name}; each seat needs its own address")
        secret = work.new_secret()
        before = info.seat_named(seat_name)
        old = before.email if before is not None and before.email.lower() != email.lower() else None
        work.add(GMRecord(**envelope, command="replace", seat=seat_name, email=email,
                          secret_hash=work.hash_secret(info.game_id, secret)))
        work.welcomes.append(Welcome(seat_name, email, secret, old))
    elif command.name in ("pause", "resume", "end"):
        work.add(GMRecord(**envelope, command=command.name))
    elif command.name == "press":
        work.add(GMRecord(**envelope, command="press", text=command.args[0]))
    elif command.name == "timing":
        round_kind, hours, policy, seat_name = command.args
        seat = info.seat_named(seat_name) if seat_name else None
        if seat_name and seat is None:
            raise OrderError(f"{command.line!r}: no seat {seat_name!r}; the seats are "
                             + ", ".join(s.name for s in info.seats))
        work.add(TimingRecord(**envelope, round=round_kind, hours=int(hours), policy=policy,
                              seat=seat.name if seat is not None else ""))
    elif command.name in ("deadline", "broadcast"):
        work.add(GMRecord(**envelope, command=command.name, text=command.args[0]))
        if command.name == "broadcast":
            work.broadcasts.append(command.args[0])
    else:
        raise OrderError(f"{command.line!r}: no such GM command")
