"""Sign-up by mail (issue 22): the GM opens a game with its seats; LIST answers with the games
open for players and those running; JOIN <game> [AS <name>] takes a seat; the game starts
when its seats are full, everyone receiving their welcome and secret."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import ConfigError
from pbem.signup import OpenGame, find_open, open_game
from tests.test_mailroom import Table, body, build_mail, flat, log_records

GM7 = "gm7@club.example"


def stranger_mail(table: Table, sender: str, *lines: str) -> tuple[str, list]:  # type: ignore[type-arg]
    return table.send(build_mail(sender, "\n".join(lines) + "\n", subject="sign-up", mid=table.mid()))


def opened(tmp_path: Path) -> Table:
    table = Table(tmp_path / "data")
    open_game(table.room, OpenGame("g7", "1830", (), 3, GM7))
    return table


def test_list_answers_with_the_open_games_and_those_running(tmp_path: Path) -> None:
    table = opened(tmp_path)
    outcome, mails = stranger_mail(table, "ann@club.example", "LIST")
    assert outcome == "processed"
    text = body(mails[0])
    assert "[g7]  1830 (no variants)  0 of 3 seats taken  GM gm7@club.example" in text
    assert "Games running:\n  [g1]  1830, 3 players, Private auction" in text


def test_the_game_starts_when_the_last_seat_is_taken(tmp_path: Path) -> None:
    table = opened(tmp_path)
    outcome, mails = stranger_mail(table, "ann@club.example", "JOIN g7")
    assert outcome == "processed" and "You have a seat in g7, as Ann: 1 of 3 taken" in body(mails[0])
    stranger_mail(table, "bob.smith@club.example", "join G7 as Bob")
    outcome, mails = stranger_mail(table, "cat@club.example", "JOIN g7 AS Cat")
    assert outcome == "processed"
    [reply] = [m for m in mails if str(m["To"]) == "cat@club.example" and "Welcome" not in str(m["Subject"])]
    assert "You have the last seat of g7, as Cat: the game starts now" in body(reply)
    welcomes = [m for m in mails if str(m["Subject"]) == "[g7] Welcome to g7"]
    assert {str(m["To"]) for m in welcomes} == {"ann@club.example", "bob.smith@club.example", "cat@club.example"}
    assert any(str(m["To"]) == GM7 and "You are the GM of g7" in str(m["Subject"]) for m in mails)
    [genesis] = log_records(table.data, "g7")
    assert [s["name"] for s in genesis["data"]["seats"]] == ["Ann", "Bob", "Cat"], "seated as they joined"
    assert find_open(table.data, "g7") is None


def test_a_join_refused_says_why(tmp_path: Path) -> None:
    table = opened(tmp_path)
    stranger_mail(table, "ann@club.example", "JOIN g7")
    outcome, mails = stranger_mail(table, "ann@club.example", "JOIN g7 AS Annie")
    assert outcome == "rejected" and "ann@club.example has a seat in g7 already" in body(mails[0])
    outcome, mails = stranger_mail(table, "dan@club.example", "JOIN g7 AS ann")
    assert outcome == "rejected" and "a player called 'ann' has joined g7" in body(mails[0])
    outcome, mails = stranger_mail(table, "dan@club.example", "JOIN g9")
    assert outcome == "rejected" and "no game of that name is open for players" in body(mails[0])
    outcome, mails = stranger_mail(table, "dan@club.example", "JOIN g1")
    assert outcome == "rejected" and "the game has started" in body(mails[0])


def test_a_game_opened_is_checked_as_a_new_game(tmp_path: Path) -> None:
    table = opened(tmp_path)
    with pytest.raises(ConfigError):
        open_game(table.room, OpenGame("g8", "1999", (), 3, GM7))
    with pytest.raises(ConfigError, match="1830 takes"):
        open_game(table.room, OpenGame("g8", "1830", (), 9, GM7))
    with pytest.raises(FileExistsError):
        open_game(table.room, OpenGame("g7", "1830", (), 3, GM7))
    with pytest.raises(FileExistsError):
        open_game(table.room, OpenGame("g1", "1830", (), 3, GM7))


ORGANISER = "org@club.example"


def organised(tmp_path: Path) -> Table:
    return Table(tmp_path / "data", organisers=(ORGANISER,), organiser_password="rail-baron")


def organiser_mail(table: Table, *lines: str, password: str = "rail-baron", sender: str = ORGANISER
                   ) -> tuple[str, list]:  # type: ignore[type-arg]
    return stranger_mail(table, sender, f"PASSWORD {password}", *lines)


def test_an_organiser_opens_a_game_by_mail_and_is_its_gm(tmp_path: Path) -> None:
    table = organised(tmp_path)
    outcome, [reply] = organiser_mail(table, "OPEN g8 1870 FOR 3 WITH dixon SEATING LISTED MAIL ROUND")
    assert outcome == "processed"
    assert "g8 is open for 3 players (1870, dixon): they send JOIN g8 to" in body(reply)
    game = find_open(table.data, "g8")
    assert game is not None and (game.title, game.variants, game.players) == ("1870", ("dixon",), 3)
    assert (game.gm_email, game.random_seating, game.mail) == (ORGANISER, False, "round")
    for sender in ("ann@club.example", "bob@club.example"):
        stranger_mail(table, sender, "JOIN g8")
    _, mails = stranger_mail(table, "cat@club.example", "JOIN g8")
    assert any(str(m["To"]) == ORGANISER and "You are the GM of g8" in str(m["Subject"]) for m in mails)
    [genesis] = log_records(table.data, "g8")
    assert genesis["data"]["variants"] == ["dixon"]


def test_opening_by_mail_needs_a_listed_organiser_and_the_password(tmp_path: Path) -> None:
    table = organised(tmp_path)
    outcome, [reply] = organiser_mail(table, "OPEN g8 1830 FOR 4", password="wrong")
    assert outcome == "rejected" and "the organisers' password" in body(reply)
    outcome, [reply] = organiser_mail(table, "OPEN g8 1830 FOR 4", sender="mallory@club.example")
    assert outcome == "rejected" and "not among this server's organisers" in body(reply)
    plain = Table(tmp_path / "plain")
    outcome, [reply] = stranger_mail(plain, ORGANISER, "PASSWORD rail-baron", "OPEN g8 1830 FOR 4")
    assert outcome == "rejected" and "opening by mail is not switched on" in flat(reply)
    assert find_open(table.data, "g8") is None and find_open(plain.data, "g8") is None


def test_an_open_line_refused_gives_one_that_would_be_accepted(tmp_path: Path) -> None:
    table = organised(tmp_path)
    outcome, [reply] = organiser_mail(table, "OPEN g8 1830 FOR 4 SEATING SIDEWAYS")
    assert outcome == "rejected"
    assert "'SEATING' is not read here; a line that would be accepted:" in flat(reply)
    assert "\n  OPEN g8 1830 FOR 4 WITH no_private_trades SEATING RANDOM MAIL TURN\n" in body(reply), "whole"
    outcome, [reply] = organiser_mail(table, "OPEN g8 1830 FOR 9")
    assert outcome == "rejected" and "1830 takes" in body(reply)
    outcome, [reply] = organiser_mail(table, "OPEN g1 1830 FOR 3")
    assert outcome == "rejected" and "game g1 already exists" in body(reply)


def test_a_game_withdrawn_tells_those_who_had_joined(tmp_path: Path) -> None:
    table = organised(tmp_path)
    organiser_mail(table, "OPEN g8 1830 FOR 4")
    stranger_mail(table, "ann@club.example", "JOIN g8")
    outcome, mails = organiser_mail(table, "WITHDRAW g8")
    assert outcome == "processed" and find_open(table.data, "g8") is None
    told = [m for m in mails if str(m["To"]) == "ann@club.example"]
    assert len(told) == 1 and "will not start: its GM has withdrawn it" in body(told[0])
    outcome, [reply] = stranger_mail(table, "ann@club.example", "JOIN g8")
    assert outcome == "rejected" and "no game of that name is open" in body(reply)


def test_a_join_redelivered_after_a_crash_mid_start_is_recognised(tmp_path: Path) -> None:
    from pbem import signup

    table = opened(tmp_path)
    stranger_mail(table, "ann@club.example", "JOIN g7")
    stranger_mail(table, "bob@club.example", "JOIN g7")
    last = build_mail("cat@club.example", "JOIN g7\n", subject="sign-up", mid=table.mid())
    real_close = signup.close

    def crash(data: Path, game: OpenGame) -> None:
        raise OSError("power cut")

    signup.close = crash  # the game starts, the open file stays: the crash
    try:
        with pytest.raises(OSError):
            table.room.handle(last)
    finally:
        signup.close = real_close
    assert find_open(table.data, "g7") is not None
    outcome, mails = table.send(last)  # the same mail, delivered again
    assert outcome == "processed"
    assert "You have a seat in g7, which has started" in body(mails[-1])
    assert find_open(table.data, "g7") is None
    assert len(log_records(table.data, "g7")) == 1, "started once"


def test_a_full_game_whose_start_was_cut_short_starts_on_the_next_signup_mail(tmp_path: Path) -> None:
    from pbem import signup

    table = opened(tmp_path)
    game = find_open(table.data, "g7")
    assert game is not None
    for name in ("Ann", "Bob", "Cat"):
        signup.take_seat(game, name, f"{name.lower()}@club.example")
    signup.save(table.data, game)  # the crash came before the start
    outcome, mails = stranger_mail(table, "dan@club.example", "LIST")
    [reply] = [m for m in mails if str(m["To"]) == "dan@club.example"]
    assert outcome == "processed" and "[g7]  1830, 3 players" in body(reply)
    assert sum("Welcome to g7" in str(m["Subject"]) for m in mails) == 3, "each player welcomed"
    assert find_open(table.data, "g7") is None
    [genesis] = log_records(table.data, "g7")
    assert [s["name"] for s in genesis["data"]["seats"]] == ["Ann", "Bob", "Cat"]


def test_help_naming_no_game_tells_a_newcomer_how_to_find_one(tmp_path: Path) -> None:
    table = opened(tmp_path)
    outcome, [reply] = stranger_mail(table, "new@club.example", "HELP")
    assert outcome == "processed"
    assert "To find a game, send LIST" in body(reply) and "JOIN <game> AS <your name>" in body(reply)
