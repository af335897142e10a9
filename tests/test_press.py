"""Table talk (issue 22): PRESS ALL: and PRESS <player>: relay a message from the sender's seat
to every player and the GM, or to one player, as the GM allows (PRESS ALLOW ALL|PRIVATE|NONE);
the log keeps it; it never changes the game."""

from __future__ import annotations

from pathlib import Path

from pbem.log_records import PressRecord, parse_record, parse_records
from tests.test_mailroom import GM, GID, P1, P2, P3, Table, body, log_records


def by_to(mails: list) -> dict[str, list]:  # type: ignore[type-arg]
    out: dict[str, list] = {}  # type: ignore[type-arg]
    for m in mails:
        out.setdefault(str(m["To"]), []).append(m)
    return out


def test_press_to_all_reaches_every_player_and_the_gm_and_changes_nothing(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    before = table.state().game.current_actors()
    outcome, mails = table.order("Player 1", "PRESS ALL: Hello, all. Good luck!")
    assert outcome == "processed"
    sent = by_to(mails)
    for to in (P2, P3, GM):
        [relayed] = sent[to]
        assert str(relayed["Subject"]) == f"[{GID}] Press from Player 1 to all"
        assert "Player 1 to all:\n\nHello, all. Good luck!" in body(relayed)
    [ack] = sent[P1]
    assert "Your press to all was sent" in body(ack)
    assert not any("Turn report" in str(m["Subject"]) for m in mails), "press is no move: no reports"
    [record] = [r for r in parse_records(log_records(table.data)) if isinstance(r, PressRecord)]
    assert (record.actor, record.to, record.text) == ("Player 1", None, "Hello, all. Good luck!")
    assert parse_record(record.to_dict()) == record
    assert table.state().game.current_actors() == before


def test_press_to_one_player_reaches_that_player_only(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("Player 1", "press player 3: shall we share the B&O?")
    assert outcome == "processed"
    sent = by_to(mails)
    assert set(sent) == {P3, P1}
    assert str(sent[P3][0]["Subject"]) == f"[{GID}] Press from Player 1 to Player 3"


def test_press_with_orders_goes_with_the_reports(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("Player 1", "BID CA 165", "PRESS 2: your move")
    assert outcome == "processed"
    sent = by_to(mails)
    assert len(sent[P2]) == 2 and any("Press from Player 1 to Player 2" in str(m["Subject"]) for m in sent[P2])
    assert not any("Your press" in body(m) for m in sent[P1]), "the report's echo lists it"


def test_the_gm_allows_private_talk_only_or_none(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    assert table.order("GM", "PRESS ALLOW PRIVATE")[0] == "processed"
    outcome, mails = table.order("Player 1", "PRESS ALL: hi")
    assert outcome == "rejected" and "the GM allows talk to one player only" in body(mails[0])
    assert table.order("Player 1", "PRESS Player 2: hi")[0] == "processed"
    assert table.order("GM", "PRESS ALLOW NONE")[0] == "processed"
    outcome, mails = table.order("Player 1", "PRESS Player 2: hi")
    assert outcome == "rejected" and "the GM allows no table talk" in body(mails[0])
    assert table.order("GM", "PRESS ALL: the GM may always talk")[0] == "processed"


def test_press_to_nobody_or_without_a_colon_is_refused_with_the_form(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("Player 1", "PRESS Zed: hi")
    assert outcome == "rejected" and "no player 'Zed'" in body(mails[0])
    outcome, mails = table.order("Player 1", "PRESS hello everyone")
    assert outcome == "rejected" and "PRESS ALL: <message>" in body(mails[0])
    outcome, mails = table.order("Player 1", "PRESS 1: talking to myself")
    assert outcome == "rejected" and "your own seat" in body(mails[0])
