"""Mails needed for a scripted 1830 opening (the private auction and the first stock round, four
players), through the mailroom on a fresh data directory: played turn by turn (a mail per
order, as before standing orders) and as postal players play it with standing orders (each
player's plan for the round sent up front, NEXT lines), under each MAIL setting of the
players (EVERY, TURN, ROUND; the GM: EVERY). Prints, per way and setting, the order mails the
players send, the mails the server sends, and the mails and bytes each player receives
(welcome included), with the board's pictures in the mails (the default) and without them
(``reports: pictures: false``).

    python benchmarks/opening_mails.py
"""

from __future__ import annotations

import email
import tempfile
from email.message import EmailMessage
from pathlib import Path

from pbem.server import Mailroom, MailroomSettings

SEATS = ["Ann", "Bob", "Cat", "Dan"]
GAME = "op"

TURN_BY_TURN: list[tuple[str, tuple[str, ...]]] = [
    ("Ann", ("BUY SV",)), ("Bob", ("BUY CS",)), ("Cat", ("BUY DH",)), ("Dan", ("BUY MH",)),
    ("Ann", ("BUY CA",)), ("Bob", ("BUY BO",)), ("Bob", ("PAR B&O 100",)),
    ("Cat", ("PAR PRR 67",)), ("Dan", ("PAR NYC 100",)), ("Ann", ("BUY PRR",)), ("Bob", ("BUY B&O",)),
    ("Cat", ("BUY PRR",)), ("Dan", ("BUY NYC",)), ("Ann", ("BUY B&O",)),
    ("Bob", ("PASS",)), ("Cat", ("PASS",)), ("Dan", ("PASS",)), ("Ann", ("PASS",)),
]
"""Each order in its own mail, in the order the turns come."""

WITH_PLANS: list[tuple[str, tuple[str, ...]]] = [
    ("Bob", ("NEXT BUY CS", "NEXT BUY BO", "NEXT PAR B&O 100")),
    ("Cat", ("NEXT BUY DH",)),
    ("Dan", ("NEXT BUY MH",)),
    ("Ann", ("BUY SV", "NEXT BUY CA")),
    ("Ann", ("NEXT BUY PRR IF PRR STARTED ELSE PASS", "NEXT BUY B&O IF UNSOLD B&O", "NEXT PASS UNTIL END")),
    ("Bob", ("NEXT BUY B&O", "NEXT PASS UNTIL END")),
    ("Dan", ("NEXT PAR NYC 100", "NEXT BUY NYC IF CASH >= 100 ELSE PASS", "NEXT PASS UNTIL END")),
    ("Cat", ("PAR PRR 67", "NEXT BUY PRR IF PRICE PRR <= 70 ELSE PASS", "NEXT PASS UNTIL END")),
]
"""The same opening with standing orders: the auction's plans, then the first stock round's."""


def address(seat: str) -> str:
    return f"{seat.lower()}@players.example"


def play(mails: list[tuple[str, tuple[str, ...]]], data: Path, setting: str,
         pictures: bool) -> tuple[int, dict[str, list[int]], str]:
    """Order mails sent; per recipient the sizes of the mails the server queued (bytes); the
    round the game is in after them."""
    room = Mailroom(MailroomSettings(data_dir=data, address="pbem@pbem.example", server_id="bench",
                                     pictures=pictures), clock=lambda: 1_800_000_000.0)
    secrets = room.new_game(GAME, "1830", (), [(s, address(s)) for s in SEATS], "gm@players.example",
                            mail=setting)
    for n, (seat, lines) in enumerate(mails, 1):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = address(seat), "pbem@pbem.example", f"[{GAME}] orders"
        msg["Message-ID"] = f"<o{n}@players.example>"
        msg.set_content(f"PASSWORD {secrets[seat]}\n" + "\n".join(lines) + "\n")
        outcome = room.handle(bytes(msg))
        assert outcome == "processed", (seat, lines, outcome)
    _, state = room.load(GAME)
    sizes: dict[str, list[int]] = {}
    for path in sorted(room.outbox.queue_dir.glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes())
        sizes.setdefault(str(message["To"]), []).append(path.stat().st_size)
    return len(mails), sizes, state.game.round_label()


def main() -> None:
    for pictures in (False, True):
        print("with the board's pictures" if pictures else "text only (reports: pictures: false)")
        for name, mails in (("turn by turn", TURN_BY_TURN), ("with standing orders", WITH_PLANS)):
            for setting in ("every", "turn", "round"):
                report(name, mails, setting, pictures)


def report(name: str, mails: list[tuple[str, tuple[str, ...]]], setting: str, pictures: bool) -> None:
    """Play ``mails`` under ``setting`` and print its line."""
    with tempfile.TemporaryDirectory() as tmp:
        sent, sizes, where = play(mails, Path(tmp), setting, pictures)
    total = sum(len(v) for v in sizes.values())
    per = "  ".join(f"{seat} {len(sizes.get(address(seat), []))} ({sum(sizes.get(address(seat), [])) // 1024} KB)"
                    for seat in SEATS)
    print(f"{name:<21} MAIL {setting.upper():<5} order mails {sent:>2}  from the server {total:>3}  "
          f"per player: {per}  then: {where}")


if __name__ == "__main__":
    main()
