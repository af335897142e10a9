"""Sign-up by mail (issue 22): the GM opens a game with its seats (``pbem open-game``); players
find it with ``LIST`` and take a seat with ``JOIN <game> [AS <name>]`` in a mail that names
no running game; when the last seat is taken the game starts (seating as listed, or drawn at
random where the game says so) and everyone gets their welcome and secret.

An open game is a small JSON file, ``open/<game>.json`` in the data directory, written
atomically; it goes when its game starts.
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from pbem.durable import write_atomic
from pbem.errors import ConfigError

if TYPE_CHECKING:
    from pbem.server import Mailroom

JOIN = re.compile(r"\s*JOIN\s+(?P<game>[A-Za-z0-9_.-]{1,64})(?:\s+AS\s+(?P<name>\S.{0,39}?))?\s*", re.IGNORECASE)
"""``JOIN <game> [AS <seat name>]``."""


@dataclass
class OpenGame:
    """A game waiting for players: ``players`` seats of ``title`` with ``variants``, its GM,
    its seating (``random_seating``: None as the title says) and MAIL default; ``joined``:
    ``[(seat name, address)]`` in the order they joined."""

    game_id: str
    title: str
    variants: tuple[str, ...]
    players: int
    gm_email: str
    random_seating: bool | None = None
    mail: str = "turn"
    joined: list[tuple[str, str]] = field(default_factory=list)

    @property
    def full(self) -> bool:
        return len(self.joined) >= self.players

    def line(self) -> str:
        """One line for LIST: ``g7  1830 (no variants)  2 of 4 seats taken  GM gm@x``."""
        variants = ", ".join(self.variants) or "no variants"
        return (f"[{self.game_id}]  {self.title} ({variants})  {len(self.joined)} of {self.players} seats "
                f"taken  GM {self.gm_email}")


def _path(data: Path, game_id: str) -> Path:
    return data / "open" / f"{game_id}.json"


def save(data: Path, game: OpenGame) -> None:
    """Write ``game`` (atomically)."""
    path = _path(data, game.game_id)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(asdict(game), indent=1).encode())


def open_games(data: Path) -> list[OpenGame]:
    """The games waiting for players, by id."""
    found = []
    for path in sorted((data / "open").glob("*.json")):
        d = json.loads(path.read_text())
        found.append(OpenGame(d["game_id"], d["title"], tuple(d["variants"]), d["players"], d["gm_email"],
                              d.get("random_seating"), d.get("mail", "turn"),
                              [(str(n), str(e)) for n, e in d.get("joined", [])]))
    return found


def find_open(data: Path, game_id: str) -> OpenGame | None:
    """The open game ``game_id`` (any case), or None."""
    return next((g for g in open_games(data) if g.game_id.lower() == game_id.lower()), None)


def close(data: Path, game: OpenGame) -> None:
    """Remove ``game`` from the open games (it has started)."""
    _path(data, game.game_id).unlink(missing_ok=True)


def take_seat(game: OpenGame, name: str, email: str) -> None:
    """``email`` joins ``game`` as ``name``.

    :raises ConfigError: the game is full, the address or the name has a seat already."""
    if game.full:
        raise ConfigError(f"{game.game_id} has no seat left")
    if any(e.lower() == email.lower() for _, e in game.joined):
        raise ConfigError(f"{email} has a seat in {game.game_id} already")
    if any(" ".join(n.lower().split()) == " ".join(name.lower().split()) for n, _ in game.joined):
        raise ConfigError(f"a player called {name!r} has joined {game.game_id}; JOIN {game.game_id} AS <another name>")
    game.joined.append((name, email))


def seat_name_for(email: str) -> str:
    """A seat name from an address when the player gives none: its local part, capitalised."""
    local = email.split("@", 1)[0]
    return re.sub(r"[^A-Za-z0-9 ._-]+", " ", local).strip().title() or "Player"


def signup_lines(body: list[str], orders: list[str]) -> list[str]:
    """The sign-up lines of a mail (LIST, JOIN and HELP, in order), or none when it is no
    sign-up mail: one LIST or JOIN at least among ``body`` (every line read), and no order
    line (``orders``) but HELP. Other lines are chatter ("Hi, may I join?")."""
    def asks(line: str) -> bool:
        return " ".join(line.split()).upper() == "LIST" or JOIN.fullmatch(line) is not None

    if not any(asks(line) for line in body) or any(" ".join(o.split()).upper() != "HELP" for o in orders):
        return []
    return [line for line in body if asks(line) or " ".join(line.split()).upper() == "HELP"]


def answer(data: Path, sender: str, lines: list[str], running: list[str], help_text: str,
           start: Callable[[OpenGame], None]) -> str:
    """The reply to a sign-up mail from ``sender``: each line answered in turn (HELP with
    ``help_text``; LIST with the open games and ``running``, one line per running game;
    JOIN takes a seat, and ``start`` starts a game its last seat filled).

    :raises ConfigError: a JOIN refused (no such open game, full, already joined); the
        lines before it stand."""
    out: list[str] = []
    for line in lines:
        word = " ".join(line.split()).upper()
        if word == "HELP":
            out.append(help_text)
        elif word == "LIST":
            waiting = open_games(data)
            out.append("Games open for players (JOIN <game>, or JOIN <game> AS <your name>):\n"
                       + ("\n".join(f"  {g.line()}" for g in waiting) if waiting else "  none")
                       + "\n\nGames running:\n" + ("\n".join(f"  {r}" for r in running) if running else "  none"))
        else:
            found = JOIN.fullmatch(line)
            assert found is not None
            game = find_open(data, found.group("game"))
            if game is None:
                started = any(r.lower().startswith(f"[{found.group('game').lower()}]") for r in running)
                raise ConfigError(f"{found.group('game')}: " + ("the game has started; its seats are taken"
                                  if started else "no game of that name is open for players (send LIST)"))
            name = (found.group("name") or seat_name_for(sender)).strip()
            take_seat(game, name, sender)
            save(data, game)
            if game.full:
                start(game)
                close(data, game)
                out.append(f"You have the last seat of {game.game_id}, as {name}: the game starts now. Your "
                           "welcome, with your secret and the opening report, follows.")
            else:
                out.append(f"You have a seat in {game.game_id}, as {name}: {len(game.joined)} of {game.players} "
                           "taken. The game starts when every seat is taken; your welcome with your secret "
                           "comes then.")
    return "\n\n".join(out) + "\n"


def open_game(room: Mailroom, game: OpenGame) -> None:
    """Open ``game`` for players to JOIN by mail in ``room``'s data directory, checked as a
    new game of its title, variants and seats would be.

    :raises ConfigError: see :func:`pbem.games.genesis_data`; :raises FileExistsError: a
        game of that id runs or is open already."""
    from pbem.games import game_exists, genesis_data

    if game_exists(room.data, game.game_id) or find_open(room.data, game.game_id):
        raise FileExistsError(f"game {game.game_id} already exists")
    seats = [(f"Seat {n}", f"seat{n}@pbem.invalid") for n in range(1, game.players + 1)]
    genesis_data(game.game_id, game.title, game.variants, seats, game.gm_email, {s: "x" for s, _ in seats}, "x",
                 mail=game.mail)
    with room.locked():
        save(room.data, game)


def running_games(room: Mailroom) -> list[str]:
    """One line per game running in ``room``: ``[g1]  1830, 3 players, SR 2`` (a game whose
    log cannot be read is left out)."""
    from pbem.games import list_games

    lines = []
    for game_id in list_games(room.data):
        try:
            _, state = room.load(game_id)
        except Exception:  # a damaged log: not listed (its mail tells the GM)
            continue
        where = "over" if state.info.ended or state.game.state.finished else state.game.round_label()
        lines.append(f"[{game_id}]  {state.info.title}, {len(state.info.seats)} players, {where}")
    return lines
