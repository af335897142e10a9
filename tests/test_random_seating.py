"""Seating a new game: the GM's order, or drawn at random once when the game is created
(issue 12: Lorenz's 1825 seats the players at random; a setting any title may use). Record 0
keeps the order drawn, so every replay seats the players alike."""

from __future__ import annotations

from pbem.application.state import replay
from pbem.games import genesis_data
from pbem.log_records import GameRecord

SEATS = [("Alice", "alice@example.org"), ("Bob", "bob@example.org"), ("Cleo", "cleo@example.org")]
SECRETS = {"Alice": "a", "Bob": "b", "Cleo": "c"}


def names(data: dict[str, object]) -> list[str]:
    seats = data["seats"]
    assert isinstance(seats, list)
    return [seat["name"] for seat in seats]


def test_the_seats_sit_as_the_gm_lists_them_by_default() -> None:
    data = genesis_data("g", "1830", (), SEATS, "gm@example.org", SECRETS, "gm")
    assert names(data) == ["Alice", "Bob", "Cleo"] and "random_seating" not in data["settings"]
    assert genesis_data("g", "1830", (), SEATS, "gm@example.org", SECRETS, "gm", random_seating=None) == data, (
        "1830's data do not ask for random seating")


def test_random_seating_draws_the_order_once_and_record_0_keeps_it() -> None:
    data = genesis_data("g", "1830", (), SEATS, "gm@example.org", SECRETS, "gm", random_seating=True,
                        shuffle=lambda seats: seats.reverse())
    assert names(data) == ["Cleo", "Bob", "Alice"]
    assert data["settings"] == {"mail": "turn", "random_seating": True}
    assert SEATS[0][0] == "Alice", "the caller's list is left alone"
    game = replay([GameRecord(seq=0, genesis=data)]).game
    assert game.state.seats == ["Cleo", "Bob", "Alice"]
    drawn = genesis_data("g", "1830", (), SEATS, "gm@example.org", SECRETS, "gm", random_seating=True)
    assert sorted(names(drawn)) == ["Alice", "Bob", "Cleo"], "the system's shuffle: the same seats"
