"""Sign-up by mail (issue 22): the GM opens a game with its seats (``pbem open-game``); players
find it with ``LIST`` and take a seat with ``JOIN <game> [AS <name>]`` in a mail that names
no running game; when the last seat is taken the game starts (seating as listed, or drawn at
random where the game says so) and everyone gets their welcome and secret.

An open game is a small JSON file, ``open/<game>.json`` in the data directory, written
atomically; it goes when its game starts.
"""

from __future__ import annotations

import hmac
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


OPEN = re.compile(r"\s*OPEN\s+(?P<game>[A-Za-z0-9_.-]{1,64})\s+(?P<title>\S+)\s+FOR\s+(?P<players>\d{1,2})"
                  r"(?P<rest>(?:\s+\S.*)?)", re.IGNORECASE)
"""``OPEN <game> <title> FOR <seats> [WITH <variant>, ...] [SEATING RANDOM|LISTED] [MAIL EVERY|TURN|ROUND]``."""

WITHDRAW = re.compile(r"\s*WITHDRAW\s+(?P<game>[A-Za-z0-9_.-]{1,64})\s*", re.IGNORECASE)
"""``WITHDRAW <game>``: an open game its organiser takes back before it starts."""

OPEN_EXAMPLE = "OPEN g8 1830 FOR 4 WITH no_private_trades SEATING RANDOM MAIL TURN"


def _asks(line: str) -> bool:
    return (" ".join(line.split()).upper() == "LIST" or any(p.fullmatch(line) for p in (JOIN, OPEN, WITHDRAW)))


def signup_lines(body: list[str], orders: list[str]) -> list[str]:
    """The sign-up lines of a mail (LIST, JOIN, OPEN, WITHDRAW and HELP, in order), or none
    when it is no sign-up mail: one such line at least among ``body`` (every line read), and
    no order line (``orders``) but HELP. Other lines are chatter ("Hi, may I join?")."""
    if not any(_asks(line) for line in body) or any(" ".join(o.split()).upper() != "HELP" for o in orders):
        return []
    return [line for line in body if _asks(line) or " ".join(line.split()).upper() == "HELP"]


def parse_open(line: str, gm_email: str) -> OpenGame:
    """The game an ``OPEN`` line asks for, its GM ``gm_email``.

    :raises ConfigError: a word after the seats that is not WITH, SEATING or MAIL as
        :data:`OPEN` shows, naming a line that would be accepted."""
    found = OPEN.fullmatch(line)
    assert found is not None
    game = OpenGame(found.group("game"), found.group("title"), (), int(found.group("players")), gm_email)
    words = found.group("rest").replace(",", " ").split()
    variants: list[str] = []
    i = 0
    while i < len(words):
        word = words[i].upper()
        following = words[i + 1].upper() if i + 1 < len(words) else ""
        if word == "SEATING" and following in ("RANDOM", "LISTED"):
            game.random_seating = following == "RANDOM"
            i += 2
        elif word == "MAIL" and following in ("EVERY", "TURN", "ROUND"):
            game.mail = following.lower()
            i += 2
        elif word == "WITH" and following:
            i += 1
            while i < len(words) and words[i].upper() not in ("SEATING", "MAIL"):
                variants.append(words[i].lower())
                i += 1
        else:
            raise ConfigError(f"{line.strip()!r}: {words[i]!r} is not read here; a line that would be "
                              f"accepted:\n  {OPEN_EXAMPLE}\n(WITH, SEATING and MAIL are optional)")
    game.variants = tuple(variants)
    return game


@dataclass(frozen=True)
class Desk:
    """What answering a sign-up mail from ``sender`` needs from the mailroom: ``running``
    (one line per running game), ``seated`` (the ids of the games the sender has a seat in),
    ``help_text``, ``address`` (ours), ``start``, ``open_game`` and ``withdraw`` (a game: the
    last tells those who had joined), and ``organiser_refusal``: why the sender may not OPEN
    or WITHDRAW, None when they may."""

    data: Path
    sender: str
    running: list[str]
    seated: list[str]
    help_text: str
    address: str
    start: Callable[[OpenGame], None]
    open_game: Callable[[OpenGame], None]
    withdraw: Callable[[OpenGame], None]
    organiser_refusal: str | None


def settle(data: Path, started: Callable[[str], bool], start: Callable[[OpenGame], None]) -> None:
    """Finish what a crash cut short: an open game with every seat taken is started (unless
    ``started`` says its log exists) and closed."""
    for game in open_games(data):
        if game.full:
            if not started(game.game_id):
                start(game)
            close(data, game)


def _join(desk: Desk, line: str) -> str:
    found = JOIN.fullmatch(line)
    assert found is not None
    game_id = found.group("game")
    game = find_open(desk.data, game_id)
    if game is None:
        if any(g.lower() == game_id.lower() for g in desk.seated):
            return f"You have a seat in {game_id}, which has started; your welcome with your secret was sent."
        started = any(r.lower().startswith(f"[{game_id.lower()}]") for r in desk.running)
        raise ConfigError(f"{game_id}: " + ("the game has started; its seats are taken"
                          if started else "no game of that name is open for players (send LIST)"))
    name = (found.group("name") or seat_name_for(desk.sender)).strip()
    take_seat(game, name, desk.sender)
    save(desk.data, game)
    if not game.full:
        return (f"You have a seat in {game.game_id}, as {name}: {len(game.joined)} of {game.players} "
                "taken. The game starts when every seat is taken; your welcome with your secret comes then.")
    desk.start(game)
    close(desk.data, game)
    return (f"You have the last seat of {game.game_id}, as {name}: the game starts now. Your welcome, with "
            "your secret and the opening report, follows.")


def _organise(desk: Desk, line: str) -> str:
    if desk.organiser_refusal is not None:
        raise ConfigError(desk.organiser_refusal)
    withdrawn = WITHDRAW.fullmatch(line)
    if withdrawn is None:
        game = parse_open(line, desk.sender)
        try:
            desk.open_game(game)
        except FileExistsError as exc:
            raise ConfigError(str(exc)) from None
        return (f"{game.game_id} is open for {game.players} players ({game.title}, "
                f"{', '.join(game.variants) or 'no variants'}): they send JOIN {game.game_id} to {desk.address}. "
                f"It starts when every seat is taken, with you as its GM.")
    found = find_open(desk.data, withdrawn.group("game"))
    if found is None:
        raise ConfigError(f"{withdrawn.group('game')}: no game of that name is open for players (send LIST)")
    desk.withdraw(found)
    close(desk.data, found)
    return f"{found.game_id} is withdrawn; the {len(found.joined)} who had joined are told."


def answer(desk: Desk, lines: list[str]) -> str:
    """The reply to a sign-up mail: each line answered in turn (HELP with the help text; LIST
    with the open and running games; JOIN takes a seat and starts a game its last seat
    filled; OPEN and WITHDRAW for organisers).

    :raises ConfigError: a line refused (no such open game, full, already joined, not an
        organiser); the lines before it stand."""
    out: list[str] = []
    for line in lines:
        word = " ".join(line.split()).upper()
        if word == "HELP":
            out.append(desk.help_text)
        elif word == "LIST":
            waiting = open_games(desk.data)
            out.append("Games open for players (JOIN <game>, or JOIN <game> AS <your name>):\n"
                       + ("\n".join(f"  {g.line()}" for g in waiting) if waiting else "  none")
                       + "\n\nGames running:\n" + ("\n".join(f"  {r}" for r in desk.running)
                                                     if desk.running else "  none"))
        elif JOIN.fullmatch(line):
            out.append(_join(desk, line))
        else:
            out.append(_organise(desk, line))
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


def organiser_refusal(room: Mailroom, sender: str, secret: str | None) -> str | None:
    """Why ``sender`` may not open games by mail in ``room``, or None: a listed organiser
    (config ``signup.organisers``) whose mail carried the organisers' password."""
    organisers, password = room.settings.organisers, room.settings.organiser_password
    if not organisers or password is None:
        return "games are opened by this server's keeper here (opening by mail is not switched on)"
    if sender.lower() not in {a.lower() for a in organisers}:
        return f"{sender} is not among this server's organisers, who may open games by mail"
    if not hmac.compare_digest((secret or "").strip().encode(), password.encode()):
        return "an organiser's mail carries the organisers' password: PASSWORD <password> on a line of its own"
    return None


def desk_for(room: Mailroom, sender: str, secret: str | None, message_id: str) -> Desk:
    """The :class:`Desk` answering a sign-up mail (``message_id``) from ``sender`` in
    ``room``, after settling what a crash left (:func:`settle`)."""
    from pbem.application.texts import general_help_text
    from pbem.games import game_exists, seats_of

    def start(game: OpenGame) -> None:
        room.new_game(game.game_id, game.title, game.variants, list(game.joined), game.gm_email,
                      random_seating=game.random_seating, mail=game.mail)

    def withdraw(game: OpenGame) -> None:
        for _, address in game.joined:
            room.queue(to=address, subject=f"[{game.game_id}] withdrawn", kind="reply",
                       key=(message_id, "withdrawn", address),
                       body=f"{game.game_id} ({game.title}) will not start: its GM has withdrawn it.\n")

    with room.locked():
        settle(room.data, lambda game_id: game_exists(room.data, game_id), start)
    seated = seats_of(room.data, sender)
    return Desk(room.data, sender, running_games(room), [g for g, _ in seated], general_help_text(sender, seated),
                room.settings.address, start, lambda game: open_game(room, game), withdraw,
                organiser_refusal(room, sender, secret))


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
