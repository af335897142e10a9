"""Fewer and clearer mails (issue 22): MAIL EVERY | TURN | ROUND per player, the GM's default
(TURN for a new game), subjects that say what matters, a short acceptance reply, and a
digest covering what happened since the player's last report."""

from __future__ import annotations

from pathlib import Path

from pbem.application.mailing import Copy, MailSetting, copies
from tests.test_mailroom import GID, GM, P1, P2, P3, Table, body, flat

EVERY, TURN, ROUND = MailSetting.EVERY, MailSetting.TURN, MailSetting.ROUND


def plan(settings: dict[str, MailSetting], *, actors: list[str], sender: str = "a@x", round_done: str | None = None,
         asked: tuple[str, ...] = ()) -> dict[str, Copy]:
    seats = {"a@x": "Ann", "b@x": "Bob", "c@x": "Cat"}
    recipients = [(to, seat, settings[seat]) for to, seat in seats.items()] + [("gm@x", None, EVERY)]
    found = copies(recipients, game_id="g", label="SR 2", number=7, actors=actors, sender=sender, orders=2,
                   round_done=round_done, asked=asked)
    return {c.to: c for c in found}


def test_turn_mails_the_player_to_act_the_sender_a_short_reply_and_nobody_else() -> None:
    mailed = plan({"Ann": TURN, "Bob": TURN, "Cat": TURN}, actors=["Bob"])
    assert set(mailed) == {"a@x", "b@x", "gm@x"}
    assert mailed["a@x"] == Copy("a@x", "Ann", False, "[g] accepted: 2 orders")
    assert mailed["b@x"] == Copy("b@x", "Bob", True, "[g] YOUR TURN — SR 2 (Bob)")
    assert mailed["gm@x"] == Copy("gm@x", None, True, "[g] Turn report 7: SR 2")


def test_every_mails_everyone_the_numbered_report_and_marks_the_player_to_act() -> None:
    mailed = plan({"Ann": EVERY, "Bob": EVERY, "Cat": EVERY}, actors=["Bob"])
    assert all(c.whole for c in mailed.values()) and len(mailed) == 4
    assert mailed["b@x"].subject == "[g] Turn report 7: SR 2 — YOUR TURN"
    assert mailed["c@x"].subject == "[g] Turn report 7: SR 2"


def test_a_round_ending_mails_every_player_the_digest_and_round_waits_for_it() -> None:
    mailed = plan({"Ann": ROUND, "Bob": TURN, "Cat": ROUND}, actors=["Bob"], sender="server@x")
    assert set(mailed) == {"b@x", "gm@x"}, "ROUND: not on a turn"
    ended = plan({"Ann": ROUND, "Bob": TURN, "Cat": ROUND}, actors=["Bob"], sender="server@x", round_done="OR 1.1")
    assert ended["a@x"] == Copy("a@x", "Ann", True, "[g] OR 1.1 done")
    assert ended["b@x"].subject == "[g] YOUR TURN — SR 2 (Bob)"
    asked = plan({"Ann": TURN, "Bob": TURN, "Cat": ROUND}, actors=["Bob"], asked=("Cat",))
    assert asked["c@x"] == Copy("c@x", "Cat", True, "[g] A DEAL FOR YOU — SR 2 (Cat)")


def test_by_mail_turn_mails_the_player_to_act_and_the_digest_covers_what_they_missed(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", mail="turn")
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "processed"
    sent = {str(m["To"]): m for m in mails}
    assert set(sent) == {P1, P2, GM}
    assert str(sent[P1]["Subject"]) == f"[{GID}] accepted: 1 order"
    short = body(sent[P1])
    assert short.startswith("Your orders were accepted:\n  BID CA 165\n") and "Next to act: Player 2" in short
    assert "MAP" not in short, "the short reply carries no report"
    assert str(sent[P2]["Subject"]) == f"[{GID}] YOUR TURN — Private auction (Player 2)"
    outcome, mails = table.order("Player 2", "BUY SV")
    sent = {str(m["To"]): m for m in mails}
    assert str(sent[P3]["Subject"]) == f"[{GID}] YOUR TURN — Private auction (Player 3)"
    digest = body(sent[P3])
    assert "Player 1: BID CA 165" in digest and "Player 2: BUY SV" in digest, "since Player 3's last report"


def test_a_player_chooses_every_and_the_gm_sets_the_default(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", mail="turn")
    outcome, mails = table.order("Player 3", "MAIL EVERY")
    assert outcome == "processed" and "after every move (MAIL EVERY)" in body(mails[0])
    _, mails = table.order("Player 1", "BID CA 165")
    assert P3 in {str(m["To"]) for m in mails}
    assert table.order("GM", "MAIL DEFAULT ROUND")[0] == "processed"
    _, mails = table.order("Player 2", "BUY SV")
    assert {str(m["To"]) for m in mails} == {P2, P3, GM}, "Player 1 (ROUND now) waits for the round's end"
    outcome, mails = table.order("Player 1", "MAIL DEFAULT TURN")
    assert outcome == "rejected" and "MAIL EVERY, MAIL TURN, MAIL ROUND or MAIL PICTURES OFF" in flat(mails[0])


def test_the_auction_ending_mails_every_player_its_digest(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", mail="round")
    for seat, line in [("Player 1", "BUY SV"), ("Player 2", "BUY CS"), ("Player 3", "BUY DH"),
                       ("Player 1", "BUY MH"), ("Player 2", "BUY CA")]:
        outcome, mails = table.order(seat, line)
        assert outcome == "processed" and {str(m["To"]) for m in mails} <= {P1, P2, P3, GM}
    outcome, mails = table.order("Player 3", "BUY BO", "PAR B&O 100")
    assert outcome == "processed"
    subjects = {str(m["To"]): str(m["Subject"]) for m in mails}
    assert set(subjects) == {P1, P2, P3, GM}
    done = [to for to, subject in subjects.items() if subject == f"[{GID}] Private auction done"]
    assert done, subjects


def test_report_and_help_answers_are_rate_limited_like_error_replies(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", error_replies_per_hour_authenticated=3)
    answered = [len(table.order("Player 1", line)[1]) for line in ("REPORT", "HELP", "REPORT", "HISTORY 1")]
    assert answered == [1, 1, 1, 0], "the fourth answer of the hour is not sent"
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "processed" and mails, "orders are always answered"
    table.clock.t += 3601
    assert len(table.order("Player 1", "REPORT")[1]) == 1, "a new hour, a new allowance"


def test_the_gms_ruling_is_marked_as_the_gms_in_every_report(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("GM", "ACT AS 1 BID CA 165")
    assert outcome == "processed"
    for m in mails:
        assert "#1    GM for Player 1: BID CA 165" in body(m), str(m["To"])
    _, mails = table.order("Player 2", "BUY SV")
    assert all("Player 2: BUY SV" in body(m) and "GM for Player 2" not in body(m) for m in mails)


def test_the_first_screen_shows_the_players_own_position_and_whom_the_game_waits_for(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    _, mails = table.order("Player 1", "BID CA 165")
    sent = {str(m["To"]): " ".join(body(m).split()) for m in mails}
    assert ("FOR PLAYER 1 Nothing is asked of you now. The game waits for Player 2. Yours: cash $800; no shares; "
            "0/20 certificates; your bids CA $165.") in sent[P1]
    assert "FOR PLAYER 2 It is your turn." in sent[P2] and "Yours: cash $800; no shares; 0/20 certificates." in sent[P2]
    assert "Yours:" not in sent[GM], "the GM's copy has no seat of its own"


def test_end_game_shows_the_final_standings_and_a_replaced_player_is_told(tmp_path: Path) -> None:
    table = Table(tmp_path / "data")
    outcome, mails = table.order("GM", "REPLACE 3 cleo@else.example")
    assert outcome == "processed"
    [told] = [m for m in mails if str(m["To"]) == P3]
    assert str(told["Subject"]) == f"[{GID}] You no longer play Player 3" and "your secret no longer works" in body(told)
    assert any(str(m["To"]) == "cleo@else.example" and "Welcome" in str(m["Subject"]) for m in mails)
    outcome, mails = table.order("GM", "END GAME")
    assert outcome == "processed"
    assert all("Final scores: Player 1 $800, Player 2 $800, Player 3 $800" in " ".join(body(m).split())
               for m in mails if "Turn report" in str(m["Subject"]))
