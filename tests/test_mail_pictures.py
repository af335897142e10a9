"""The board and the tiles left as pictures in the mails that carry a full report (issue 23):
inline PNGs after the text, drawn once per archived report and kept beside it; the short
replies carry none; a picture that cannot be drawn never holds up a mail."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.mail.compose import InlineImage, compose
from tests.test_mailroom import Table, body, queued

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def pictures(mail: EmailMessage) -> list[EmailMessage]:
    return [part for part in mail.iter_attachments() if part.get_content_type() == "image/png"]


def test_compose_puts_the_text_first_and_each_png_inline() -> None:
    msg = compose(sender="pbem@x.example", to=["ann@x.example"], subject="s", body="the report\n",
                  kind="report", message_id="<m@x.example>", server_id="pbem",
                  images=[InlineImage("map-3.png", PNG_SIGNATURE + b"rest")])
    assert msg.get_content_type() == "multipart/mixed"
    parts = list(msg.iter_parts())
    assert parts[0].get_content_type() == "text/plain" and parts[0].get_content() == "the report\n"
    [image] = pictures(msg)
    assert image.get_content_disposition() == "inline" and image.get_filename() == "map-3.png"
    assert image.get_content() == PNG_SIGNATURE + b"rest"
    plain = compose(sender="pbem@x.example", to=["ann@x.example"], subject="s", body="text\n", kind="reply",
                    message_id="<n@x.example>", server_id="pbem")
    assert plain.get_content_type() == "text/plain", "no picture: a plain mail as before"


def test_reports_and_welcomes_show_the_board_and_replies_do_not(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", mail="turn", pictures=True)
    welcomes = [m for _, m in queued(table.room) if "Welcome to g1" in str(m["Subject"])]
    assert welcomes and all([p.get_filename() for p in pictures(m)] == ["map-opening.png", "tiles-opening.png"]
                            for m in welcomes)
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "processed"
    whole = [m for m in mails if "YOUR TURN" in str(m["Subject"]) or "Turn report" in str(m["Subject"])]
    short = [m for m in mails if "accepted:" in str(m["Subject"])]
    assert whole and short
    for mail in whole:
        board, tiles = pictures(mail)
        assert (board.get_filename(), tiles.get_filename()) == ("map-1.png", "tiles-1.png")
        for png in (board.get_content(), tiles.get_content()):
            assert png.startswith(PNG_SIGNATURE) and len(png) <= 200_000
        assert "Next to act: Player 2" in body(mail), "the text part is the whole report"
    assert all(pictures(m) == [] for m in short), "the short acceptance carries no picture"
    kept = sorted((table.data / "games" / "g1" / "reports").glob("*.png"))
    assert [p.name for p in kept] == ["report-0001-tiles.png", "report-0001.png"], "drawn once, kept beside it"


def test_a_picture_that_cannot_be_drawn_never_holds_up_the_report(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import pbem.report_pictures as report_pictures

    def broken(state: object) -> bytes:
        raise RuntimeError("no drawing today")

    monkeypatch.setattr(report_pictures, "_draw", broken)
    monkeypatch.setattr(report_pictures, "_draw_tiles", broken)
    table = Table(tmp_path / "data", mail="every", pictures=True)
    outcome, mails = table.order("Player 1", "BID CA 165")
    assert outcome == "processed" and mails
    assert all(pictures(m) == [] for m in mails)
    assert not list((table.data / "games" / "g1" / "reports").glob("*.png"))


def test_report_and_history_answers_carry_their_reports_pictures(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", mail="every", pictures=True)
    table.order("Player 1", "BID CA 165")
    table.order("Player 2", "PASS")
    first = table.data / "games" / "g1" / "reports" / "report-0001.png"
    assert first.exists() and len(list(first.parent.glob("*.png"))) == 4
    first.unlink()  # a picture never drawn (an archive from before pictures) is drawn on request
    _, [answer] = table.order("Player 3", "HISTORY 1", "REPORT")
    assert [p.get_filename() for p in pictures(answer)] == ["map-1.png", "tiles-1.png", "map-2.png", "tiles-2.png"]
    assert first.exists()


def test_a_player_may_have_the_reports_as_text_only(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", mail="every", pictures=True)
    outcome, [answer] = table.order("Player 2", "MAIL PICTURES OFF")
    assert outcome == "processed" and "as text only (MAIL PICTURES ON: with the board's pictures)" in \
        " ".join(body(answer).split())
    _, mails = table.order("Player 1", "BID CA 165")
    by_to = {str(m["To"]): m for m in mails}
    assert pictures(by_to["p2@players.example"]) == [], "text only for the player who chose it"
    assert len(pictures(by_to["p3@players.example"])) == 2 and len(pictures(by_to["p1@players.example"])) == 2
    assert table.state().info.no_pictures == {"Player 2"}, "the choice is in the log: a replay keeps it"
    table.order("Player 2", "MAIL PICTURES ON")
    _, mails = table.order("Player 2", "PASS")
    assert len(pictures({str(m["To"]): m for m in mails}["p2@players.example"])) == 2


def test_no_picture_is_drawn_when_nobody_mailed_whole_wants_one(tmp_path: Path) -> None:
    table = Table(tmp_path / "data", mail="every", pictures=True)
    for seat in ("Player 1", "Player 2", "Player 3", "GM"):
        table.order(seat, "MAIL PICTURES OFF")
    _, mails = table.order("Player 1", "BID CA 165")
    assert mails and all(pictures(m) == [] for m in mails)
    assert not list((table.data / "games" / "g1" / "reports").glob("*.png")), "nothing drawn for nobody"
