"""Sign-up by mail (issue 22): the GM opens a game with its seats; LIST answers with the games
open for players and those running; JOIN <game> [AS <name>] takes a seat; the game starts
when its seats are full, everyone receiving their welcome and secret."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.errors import ConfigError
from pbem.signup import OpenGame, find_open, open_game
from tests.test_mailroom import Table, body, build_mail, log_records

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
