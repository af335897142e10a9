"""No line over the width in any reply (issue 22): a player who asked for WIDTH 80 gets no
line wider than 80 columns in any mail, whatever was refused or answered; a mail to one who
has no game (sign-up, a stranger) fits 80 too. The test mails use short lines, so a quote of
the sender's own words never explains a wide line."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from tests.test_mailroom import (ADDRESS, Table, body, build_mail, demo_lines_as_gm, queued)

WIDTH = 80


def too_wide(mail: EmailMessage) -> list[str]:
    """The lines over 80 columns; in a welcome, sent before the player chose WIDTH 80, the
    opening report is at the default 132 and only the lines before it count."""
    text = body(mail)
    if "Welcome to" in str(mail["Subject"]):
        head, report = text.split("The game as it stands (the opening report):")
        return [line for line in head.splitlines() if len(line) > WIDTH] + \
            [line for line in report.splitlines() if len(line) > 132]
    return [line for line in text.splitlines() if len(line) > WIDTH]


def every_mail(table: Table) -> list[EmailMessage]:
    return [m for _, m in queued(table.room)]


def narrow_table(tmp_path: Path) -> Table:
    table = Table(tmp_path / "data")
    for seat in ("Player 1", "Player 2", "Player 3", "GM"):
        assert table.order(seat, "WIDTH 80")[0] == "processed"
    return table


def test_replies_in_the_auction_and_the_stock_round_fit_80_columns(tmp_path: Path) -> None:
    table = narrow_table(tmp_path)
    battery = [
        ("Player 2", ["BID CA 165"]),             # out of turn
        ("Player 1", ["BID CA 5"]),               # too low
        ("Player 1", ["tokn V20.1"]),             # a slip of an order word
        ("Player 1", ["Hi all, good luck"]),      # chatter only
        ("Player 1", ["HELP"]), ("Player 1", ["REPORT"]), ("Player 1", ["HISTORY 1"]),
        ("Player 1", ["MAIL TURN"]), ("Player 1", ["PRESS ALL: hello"]),
        ("Player 1", ["BID CA UP TO 200"]), ("Player 2", ["NEXT PASS UNTIL END"]),
        ("Player 1", ["AWAY 2099-01-01 TO 2099-01-05"]),
        ("Player 1", ["BUY SV", "PASS"]),         # a redundant final PASS
        ("GM", ["ACT AS Player 9 PASS"]),
        ("GM", ["TIMING STOCK 48 PASS"]),
    ]
    for seat, lines in battery:
        table.order(seat, *lines)
    table.order("Player 1", "BID CA 165", secret="wrong-secret")
    table.send(build_mail(ADDRESS["Player 1"], "BID CA 165\n", subject="[nosuchgame] orders", mid=table.mid()))
    table.send(build_mail("new@club.example", "LIST\nJOIN g9\n", subject="sign-up", mid=table.mid()))
    table.send(build_mail("new@club.example", "HELP\n", subject="help", mid=table.mid()))
    assert_narrow(table)


def assert_narrow(table: Table) -> None:
    wide = {(str(m["To"]), str(m["Subject"])): too_wide(m) for m in every_mail(table) if too_wide(m)}
    assert not wide, "\n".join(f"{k}: {len(v)} lines, e.g. {v[0]!r}" for k, v in wide.items())


def test_replies_in_the_stock_round_and_history_fit_80_columns(tmp_path: Path) -> None:
    table = narrow_table(tmp_path)
    for line in demo_lines_as_gm(20):  # a report each, on into the first stock round
        assert table.order("GM", line)[0] == "processed"
    for seat, lines in [("Player 2", ["BUY 3 PRR"]), ("Player 1", ["PAR PRR 55"]), ("Player 1", ["SELL B&O"]),
                        ("Player 2", ["REPORT"])]:
        table.order(seat, *lines)
    _, [history] = table.order("Player 1", "HISTORY 2")
    assert "g1 -- 1830: Railways and Robber Barons   report 2\n" in body(history)
    assert "FOR PLAYER 1" in body(history), "drawn again for the sender, at 80 columns"
    assert_narrow(table)


def test_replies_in_an_operating_round_fit_80_columns(tmp_path: Path) -> None:
    table = narrow_table(tmp_path)
    assert table.order("GM", *demo_lines_as_gm(35))[0] == "processed"  # into OR 1.1
    state = table.state()
    [seat] = state.game.current_actors()
    for lines in (["LAY H10 57 0"], ["LAY I15 9 7"], ["TOKEN F20"], ["RUN 2: H10-I15"], ["BUY 4 TRAIN"],
                  ["PAYOUT"], ["PASS", "PASS", "RUN AUTO"], ["BUY TRAIN 2"], ["SELL 1 PRR"]):
        table.order(seat, *lines)
    wide = {(str(m["To"]), str(m["Subject"])): too_wide(m) for m in every_mail(table) if too_wide(m)}
    assert not wide, "\n".join(f"{k}: {len(v)} lines, e.g. {v[0]!r}" for k, v in wide.items())
    assert any("not applied" in body(m) for m in every_mail(table)), "refusals were made"
