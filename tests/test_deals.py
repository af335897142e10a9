"""Consent and take-backs by mail (issue 21): a corporation buying a private from a player who
is not its president, or a train from a corporation another player presides, is an offer
that the other owner accepts or declines (1830 rules 6.9 and 6.10: "at a price agreed");
a player takes back their own last order while nobody has acted since.

The position is 1830_game_end_bank before the B&O (Player 3) buys the SV (action 74), with
the SV handed to Player 1 beforehand, so that the purchase is a deal between two owners.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime, timezone
from pathlib import Path

import pytest

from pbem.application.mail import AppConfig, Decision, handle_mail
from pbem.application.state import GameInfo, Replay, Seat, apply_record, open_deals, replay
from pbem.application.texts import TextSettings, turn_report
from pbem.commands import is_command_line
from pbem.engine import deals
from pbem.engine.actions import BuyPrivate, BuyTrain
from pbem.engine.values import Owner
from pbem.games import hash_secret
from pbem.log_records import DealRecord, LogRecord, OrderRecord, UndoRecord, parse_record, parse_records
from pbem.mail.types import BodyLine, Submission
from pbem.deadline_watch import watch
from pbem.importers.e18xx import load_record
from pbem.importers.log_import import create_imported_game
from tests.mail_table import Table
from tests.records import record_path, replayed_before
from tests.test_mailroom import T0, Clock, body, build_mail, log_records, make_room, only, queued

P1, P2, P3 = "Player 1", "Player 2", "Player 3"
GID = "deals"


def address(seat: str) -> str:
    return seat.lower().replace(" ", "") + "@example.org"


def secret(seat: str) -> str:
    return seat.lower().replace(" ", "") + "pw"


def position(sv_owner: str = P1) -> Replay:
    """B&O's turn in OR (phase 3), the SV owned by ``sv_owner``."""
    game = replayed_before("1830", "1830_game_end_bank.json", 74).game
    state = game.state
    holder = state.companies["SV"].owner
    assert holder == Owner.player(P3) and game.operating_corporation() == "B&O"
    if sv_owner != P3:
        state.players[P3].companies.remove("SV")
        state.players[sv_owner].companies.append("SV")
        state.companies["SV"].owner = Owner.player(sv_owner)
    seats = [Seat(name, address(name), hash_secret(GID, secret(name))) for name in state.seats]
    info = GameInfo(GID, "1830", (), seats, "gm@example.org", hash_secret(GID, "gmpw"))
    return Replay(info, game.title, game, last_seq=0)


CONFIG = AppConfig(new_secret=lambda: "fresh", hash_secret=hash_secret, route_budget=20_000)


def mail(state: Replay, seat: str, *lines: str) -> Decision:
    """``lines`` from ``seat`` (or the GM) handled against ``state``."""
    sender, word = ("gm@example.org", "gmpw") if seat == "GM" else (address(seat), secret(seat))
    body = tuple(BodyLine(n, text, is_command_line(text)) for n, text in enumerate(lines, start=1))
    sub = Submission(f"<m{state.last_seq}.{seat}@example.org>".replace(" ", ""), sender, seat,
                     f"[{GID}] orders", GID, word, body)
    return handle_mail(state, sub, CONFIG)


def accepted(state: Replay, seat: str, *lines: str) -> Replay:
    decision = mail(state, seat, *lines)
    assert decision.refusal is None, decision.refusal and decision.refusal.reason
    return decision.state


def refused(state: Replay, seat: str, *lines: str) -> str:
    decision = mail(state, seat, *lines)
    assert decision.refusal is not None and not decision.records
    return decision.refusal.reason


def report(state: Replay, seat: str | None) -> str:
    return turn_report(state, TextSettings("pbem@example.org"), since=0, number=1, recipient=seat, width=80)


def test_buying_another_players_private_waits_for_the_owners_acceptance() -> None:
    state = position()
    cash = state.game.state.players[P1].cash
    offered = mail(state, P3, "BUY SV 40")
    assert offered.refusal is None
    [deal] = offered.records
    assert isinstance(deal, DealRecord) and (deal.status, deal.buyer, deal.owner) == ("offered", P3, P1)
    state = offered.state
    assert state.game.state.companies["SV"].owner == Owner.player(P1), "nothing changes hands yet"
    assert [d.seq for d in open_deals(state)] == [deal.seq]
    mine = report(state, P1)
    assert f"DEAL {deal.seq}: {P3} offers you a deal: BUY SV 40. Send ACCEPT {deal.seq}" in mine
    assert f"DEAL {deal.seq}: {P3} offers {P1} a deal: BUY SV 40 (waiting for {P1})" in report(state, P2)
    assert f"offers {P1} a deal: BUY SV 40" in report(state, None), "the log of the report lists the offer"

    assert "no deal is offered to Player 2" in refused(state, P2, "ACCEPT")
    answer = mail(state, P1, "ACCEPT")
    assert answer.refusal is None
    yes, bought = answer.records
    assert isinstance(yes, DealRecord) and (yes.status, yes.deal) == ("accepted", deal.seq)
    assert isinstance(bought, OrderRecord) and bought.actor == P3 and bought.by == address(P1)
    after = answer.state
    assert after.game.state.companies["SV"].owner == Owner.corporation("B&O")
    assert after.game.state.players[P1].cash == cash + 40
    assert open_deals(after) == []
    # the log replays to the same game: the records applied to the position before them
    again = state.fork()
    for record in answer.records:
        apply_record(again, dataclasses.replace(record))
    assert again.game.state.companies["SV"].owner == Owner.corporation("B&O")


def test_a_declined_deal_changes_nothing_and_is_closed() -> None:
    state = accepted(position(), P3, "BUY SV 40")
    answer = mail(state, P1, "DECLINE")
    assert answer.refusal is None
    [no] = answer.records
    assert isinstance(no, DealRecord) and no.status == "declined"
    assert answer.state.game.state.companies["SV"].owner == Owner.player(P1)
    assert open_deals(answer.state) == []
    assert "no deal is offered to Player 1" in refused(answer.state, P1, "ACCEPT")


def test_an_offer_lapses_when_its_turn_ends_and_a_deal_no_longer_legal_is_refused() -> None:
    state = accepted(position(), P3, "BUY SV 40")
    [deal] = open_deals(state)
    moved = state.fork()
    moved.deals[deal.seq] = dataclasses.replace(deal, turn="OR 9.9 PRR")  # offered in another turn
    assert open_deals(moved) == []
    poor = state.fork()
    poor.game.state.corporations["B&O"].cash = 10
    assert f"deal {deal.seq} is no longer possible" in refused(poor, P1, f"ACCEPT {deal.seq}")
    assert f"no such deal is offered to {P1} now" in refused(state, P1, f"ACCEPT {deal.seq + 5}")


def test_no_consent_is_asked_of_oneself_nor_of_the_gms_ruling() -> None:
    own = mail(position(P3), P3, "BUY SV 40")
    assert [type(r) for r in own.records] == [OrderRecord]
    ruled = mail(position(), "GM", f"ACT AS {P3} BUY SV 40")
    assert [type(r) for r in ruled.records] == [OrderRecord]
    assert ruled.state.game.state.companies["SV"].owner == Owner.corporation("B&O")
    assert "the GM rules with ACT AS" in refused(accepted(position(), P3, "BUY SV 40"), "GM", "ACCEPT")


def test_whose_consent_a_deal_needs() -> None:
    game = position().game
    assert deals.counterparty(game, P3, BuyPrivate("SV", 40)) == P1
    assert deals.counterparty(game, P1, BuyPrivate("SV", 40)) is None, "the owner's own corporation"
    other = next(sym for sym, c in game.state.corporations.items() if c.president not in (None, P3))
    president = game.state.corporations[other].president
    assert deals.counterparty(game, P3, BuyTrain("2", source=other, price=1)) == president
    assert deals.counterparty(game, P3, BuyTrain("3")) is None, "the bank's trains need nobody"


def test_a_deal_record_reads_back_as_written() -> None:
    offer = DealRecord(seq=4, actor=P3, by="x@example.org", status="offered", buyer=P3, owner=P1,
                       turn="OR 2.1 B&O", action_data=BuyPrivate("SV", 40).to_dict())
    answer = DealRecord(seq=5, actor=P1, by="y@example.org", status="accepted", deal=4)
    for record in (offer, answer):
        assert parse_record(record.to_dict()) == record


def test_a_player_takes_back_their_own_last_order_until_someone_else_acts() -> None:
    table = Table("takeback", "1830", (), ["Ann", "Bob", "Cat"])
    first = table.state.game.current_actors()[0]
    table.send(first, "BUY SV")
    second = table.state.game.current_actors()[0]
    assert table.state.game.state.companies["SV"].owner == Owner.player(first)
    assert "only your own last order" in table.refused(second, "TAKEBACK")
    decision = handle_mail(table.state, table.submission(first, ("TAKEBACK",)), table.config)
    assert decision.refusal is None
    [undo] = decision.records
    assert isinstance(undo, UndoRecord) and undo.actor == first and undo.to_seq == table.records[-1].seq
    table.records += list(decision.records)
    table.state = decision.state
    assert table.state.game.state.companies["SV"].owner is None, "the SV is for sale again"
    assert table.state.game.current_actors() == [first]
    assert "TAKEBACK: took back" in report(table.state, None)
    assert replay(table.records).game.state.companies["SV"].owner is None, "the log replays to the same"
    assert "only your own last order" in table.refused(first, "TAKEBACK"), "nothing of the player's is left"
    table.send(first, "BUY SV")
    table.send(second, "BUY CS")
    assert "only your own last order" in table.refused(first, "TAKEBACK"), "someone else has acted since"


def test_the_gm_takes_back_with_undo() -> None:
    assert "the GM takes back with UNDO" in refused(position(), "GM", "TAKEBACK")


@pytest.mark.parametrize("line", ["ACCEPT 1 2", "DECLINE x", "TAKEBACK NOW"])
def test_malformed_answers_are_refused_with_the_form(line: str) -> None:
    assert "write" in refused(position(), P1, line)


# -- a deal's time, through the mailroom with a fake clock -------------------------------------


def imported_before(data: Path, action_id: float) -> dict[str, str]:
    """1830_game_end_bank up to ``action_id`` as game ``deals`` in ``data``: its secrets."""
    record = load_record(record_path("1830", "1830_game_end_bank.json"))
    record = {**record, "actions": [a for a in record["actions"] if float(a["id"]) < action_id]}
    secrets, _ = create_imported_game(data, GID, record)
    return secrets


def seat_mail(seat: str, secrets: dict[str, str], n: int, *lines: str) -> bytes:
    sender = "gm@import.invalid" if seat == "GM" else seat.lower().replace(" ", "-") + "@import.invalid"
    text = f"PASSWORD {secrets[seat]}\n" + "\n".join(lines) + "\n"
    return build_mail(sender, text, subject=f"[{GID}] orders", mid=f"<d{n}@players.example>")


def test_an_offer_unanswered_lapses_after_the_time_the_gm_allows(tmp_path: Path) -> None:
    secrets = imported_before(tmp_path / "data", 74)  # B&O's turn (Player 3); Player 1 holds the CS
    clock = Clock(T0)
    room = make_room(tmp_path / "data", clock)
    assert room.handle(seat_mail("GM", secrets, 1, "TIMING DEALS 24")) == "processed"
    before = set(room.outbox.pending())
    assert room.handle(seat_mail(P3, secrets, 2, "BUY CS 40")) == "processed"
    to_owner = [m for i, m in queued(room) if i not in before and "player-1@" in str(m["To"])]
    offered = body(only(to_owner))
    lapse = datetime.fromtimestamp(T0 + 24 * 3600, timezone.utc).strftime("%a %Y-%m-%d %H:%M UTC")
    assert "it stands until Player 3's turn ends or" in offered and lapse in offered.replace("\n    ", " ")
    clock.t = T0 + 23 * 3600
    seqs = len(load_log(tmp_path))
    assert watch(room) == 0 and len(load_log(tmp_path)) == seqs, "not yet"
    clock.t = T0 + 24 * 3600 + 1
    before = set(room.outbox.pending())
    watch(room)
    records = load_log(tmp_path)
    [lapsed] = records[seqs:]
    assert isinstance(lapsed, DealRecord) and (lapsed.status, lapsed.actor) == ("lapsed", P1)
    told = [m for i, m in queued(room) if i not in before]
    assert any("lapsed unanswered" in body(m) for m in told if "player-3@" in str(m["To"]))
    assert watch(room) == 0 and len(load_log(tmp_path)) == seqs + 1, "a deal lapses once"
    before = set(room.outbox.pending())
    assert room.handle(seat_mail(P1, secrets, 3, "ACCEPT")) == "rejected"
    assert "no deal is offered to Player 1 now" in body(only([m for i, m in queued(room) if i not in before]))
    assert replay(load_log(tmp_path)).game.state.companies["CS"].owner == Owner.player(P1)


def load_log(tmp_path: Path) -> list[LogRecord]:
    return parse_records(log_records(tmp_path / "data", GID))
