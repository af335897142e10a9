"""Refusals write money as the reports do (issue 22): 1825's pounds are ``L165`` in both, the
report being ASCII; the sender's own lines are quoted as written."""

from __future__ import annotations

from pathlib import Path

from tests.test_mailroom import ADDRESS, GM, SEATS, body, build_mail, make_room, queued


def test_an_1825_refusal_writes_pounds_as_the_report_does(tmp_path: Path) -> None:
    room = make_room(tmp_path / "data")
    secrets = room.new_game("g25", "1825", ("lorenz",), SEATS, GM, mail="every")
    _, state = room.load("g25")
    seat = state.game.current_actors()[0]
    raw = build_mail(ADDRESS[seat], f"PASSWORD {secrets[seat]}\nBID S&D £163\n", subject="[g25] orders",
                     mid="<money1@players.example>")
    [welcome] = [m for _, m in queued(room) if str(m["To"]) == ADDRESS[seat] and "Welcome" in str(m["Subject"])]
    assert "L800" in body(welcome) and "£" not in body(welcome), "the opening report writes pounds as L"
    before = set(room.outbox.pending())
    assert room.handle(raw) == "rejected"
    [reply] = [m for mid, m in queued(room) if mid not in before]
    text = body(reply)
    assert "the minimum bid for S&D is L165" in text
    assert "BID S&D 165" in text, "a line that would be accepted, in the report's spelling"
    assert "  BID S&D £163" in text, "the sender's line quoted as written"
    ours = text.replace("BID S&D £163", "")
    assert "£" not in ours, "our own words never write the pound sign the report does not"
