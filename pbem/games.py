"""Games on disk: creating one, and rebuilding its state by replaying its action log.

A game lives in ``<data>/games/<game id>/``: ``log.jsonl`` (the truth, see
:mod:`pbem.actionlog`), ``head.json`` and ``reports/`` (the archive). Seats, addresses and
the hashes of the secrets are in the log's record 0; a GM ``replace`` record changes an
address. The state is always :func:`replay` of the log.

Seat names are compared case-insensitively and word by word (:func:`same_name`): runs of
blanks inside a name do not matter.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pbem.actionlog import ActionLog, LogIntegrityError
from pbem.addresses import valid_address
from pbem.engine.actions import action_from_dict
from pbem.engine.events import Event
from pbem.engine.game import Game
from pbem.engine.title import TitleData
from pbem.errors import ConfigError

if TYPE_CHECKING:
    from pbem.orders import Vocabulary

GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
SECRET_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_secret(length: int = 8) -> str:
    """A secret players can type: lower-case letters and digits without look-alikes."""
    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(length))


def same_name(a: str, b: str) -> bool:
    """Whether two seat names are the same: case-insensitive, blanks runs count as one."""
    return a.split() != [] and [w.lower() for w in a.split()] == [w.lower() for w in b.split()]


def hash_secret(game_id: str, secret: str) -> str:
    """The stored form of a secret (sha256 of ``game_id:secret``; secrets are case-insensitive)."""
    return hashlib.sha256(f"{game_id}:{secret.strip().lower()}".encode()).hexdigest()


@dataclass
class Seat:
    """A seat: its name in the game (``"Player 1"``), the player's address, the secret's hash."""

    name: str
    email: str
    secret_hash: str


@dataclass
class GameInfo:
    """Who plays a game and how it is set up, as the log says now."""

    game_id: str
    title: str
    variants: tuple[str, ...]
    seats: list[Seat]
    gm_email: str
    gm_secret_hash: str
    paused: bool = False
    ended: bool = False
    deadline: str | None = None
    widths: dict[str, int] = field(default_factory=dict)
    """Report width chosen by each seat (and ``"GM"``) with WIDTH; 132 when not chosen."""
    auto_runs: bool = False
    """Game setting: a run left out of the orders is made by the server (RUN AUTO)."""

    def width_for(self, who: str | None) -> int:
        """The report width for seat ``who`` (None or ``"GM"`` for the GM's copy)."""
        return self.widths.get(who or "GM", 132)

    def seat_for(self, email: str) -> Seat | None:
        """The seat whose address is ``email`` (case-insensitive), or None."""
        email = email.lower()
        return next((s for s in self.seats if s.email.lower() == email), None)

    def seat_named(self, name: str) -> Seat | None:
        """The seat called ``name`` (see :func:`same_name`), else the seat with that number
        (``"2"``, ASCII digits), or None. A seat's name wins over another seat's number."""
        named = next((s for s in self.seats if same_name(s.name, name)), None)
        if named is not None:
            return named
        if re.fullmatch(r"[0-9]{1,9}", name.strip()) and 1 <= int(name) <= len(self.seats):
            return self.seats[int(name) - 1]
        return None

    def recipients(self) -> list[str]:
        """Every player's address, then the GM's (no duplicates)."""
        out: list[str] = []
        for email in [s.email for s in self.seats] + [self.gm_email]:
            if email and email.lower() not in (e.lower() for e in out):
                out.append(email)
        return out


@dataclass
class Replay:
    """A game rebuilt from its log.

    ``events`` maps each action record's ``seq`` to the events it produced (the report
    renders them); ``effective`` lists
    the action records in force (undone ones removed), in order; ``gm`` lists the ``undo``
    and ``gm`` records, each an ``undo`` record with ``"undone"``: the log numbers it took
    back, and ``"taken_back"``: those action records.
    """

    info: GameInfo
    title: TitleData
    game: Game
    events: dict[int, list[Event]] = field(default_factory=dict)
    effective: list[dict[str, Any]] = field(default_factory=list)
    last_seq: int = 0
    gm: list[dict[str, Any]] = field(default_factory=list)


def genesis_data(
    game_id: str,
    title: str,
    variants: tuple[str, ...],
    seats: list[tuple[str, str]],
    gm_email: str,
    secrets_by_seat: dict[str, str],
    gm_secret: str,
    auto_runs: bool = False,
) -> dict[str, Any]:
    """The data of a new game's record 0. ``auto_runs``: the game setting that a run left out
    of the orders is made by the server (RUN AUTO).

    :param seats: ``[(seat name, email)]`` in seating order.
    :raises ConfigError: bad game id, unknown title/variant, wrong player count, an empty seat
        name, an address that is not one mail address (:func:`pbem.addresses.valid_address`),
        duplicates.
    """
    if not GAME_ID.match(game_id):
        raise ConfigError(f"game id {game_id!r}: use letters, digits, '-', '_' or '.' (at most 64)")
    if len(set(variants)) != len(variants):
        raise ConfigError(f"a variant is named twice: {', '.join(variants)}")
    from pbem.ruleset import load_title
    data = load_title(title, variants)
    if not data.min_players <= len(seats) <= data.max_players:
        raise ConfigError(f"{title} takes {data.min_players}-{data.max_players} players, not {len(seats)}")
    for name, email in seats:
        if not name.strip():
            raise ConfigError(f"seat {email!r}: the seat name is empty")
        if not valid_address(email):
            raise ConfigError(f"seat {name!r}: {email!r} is not a mail address (name@example.org)")
    if not valid_address(gm_email):
        raise ConfigError(f"GM: {gm_email!r} is not a mail address (name@example.org)")
    names = [" ".join(n.lower().split()) for n, _ in seats]
    if len(set(names)) != len(names):
        raise ConfigError("seat names must be distinct")
    emails = [e.lower() for _, e in seats]
    if len(set(emails)) != len(emails):
        raise ConfigError("each seat needs its own email address")
    return {
        "game_id": game_id,
        "title": title,
        "variants": list(variants),
        "seats": [
            {"name": n, "email": e, "secret_hash": hash_secret(game_id, secrets_by_seat[n])} for n, e in seats
        ],
        "gm": {"email": gm_email, "secret_hash": hash_secret(game_id, gm_secret)},
        **({"settings": {"auto_runs": True}} if auto_runs else {}),
    }


def info_from_genesis(data: dict[str, Any]) -> GameInfo:
    """The :class:`GameInfo` in record 0's data."""
    return GameInfo(
        game_id=data["game_id"],
        title=data["title"],
        variants=tuple(data.get("variants", ())),
        seats=[Seat(s["name"], s["email"], s["secret_hash"]) for s in data["seats"]],
        gm_email=data["gm"]["email"],
        gm_secret_hash=data["gm"]["secret_hash"],
        auto_runs=bool((data.get("settings") or {}).get("auto_runs", False)),
    )


def info_from_records(records: list[dict[str, Any]]) -> GameInfo:
    """Who plays the game and how, after every record (no engine: game actions are skipped).

    :raises LogIntegrityError: the first record is not a game record.
    """
    if not records or records[0].get("kind") != "game":
        raise LogIntegrityError("record 0 is not a game record")
    info = info_from_genesis(records[0]["data"])
    for record in records[1:]:
        if record["kind"] == "gm":
            _apply_gm(info, record["data"])
        elif record["kind"] == "setting" and record["data"].get("setting") == "width":
            info.widths[str(record["data"]["seat"])] = int(record["data"]["value"])
    return info


def replay(records: list[dict[str, Any]]) -> Replay:
    """Rebuild a game from its log records (record 0 first).

    :raises LogIntegrityError: the first record is not a game record, or a recorded action
        is refused by the engine (the log and the rules disagree).
    """
    info = info_from_records(records)
    effective: list[dict[str, Any]] = []
    gm: list[dict[str, Any]] = []
    for record in records[1:]:
        kind = record["kind"]
        if kind == "action":
            effective.append(record)
        elif kind == "undo":
            to_seq = int(record["data"]["to_seq"])
            taken = []
            while effective and effective[-1]["seq"] >= to_seq:
                taken.append(effective.pop())
            taken.reverse()
            gm.append({**record, "undone": [r["seq"] for r in taken], "taken_back": taken})
        elif kind == "gm":
            gm.append(record)
    from pbem.ruleset import load_title
    title = load_title(info.title, info.variants)
    game = Game(title, [s.name for s in info.seats])
    events: dict[int, list[Event]] = {}
    for record in effective:
        try:
            events[record["seq"]] = game.apply(record["actor"], action_from_dict(record["data"]))
        except ValueError as exc:
            raise LogIntegrityError(f"record {record['seq']} no longer applies: {exc}") from exc
    return Replay(info, title, game, events, effective, records[-1]["seq"], gm)


def _apply_gm(info: GameInfo, data: dict[str, Any]) -> None:
    command = data.get("command")
    if command == "replace":
        seat = info.seat_named(data["seat"])
        if seat is not None:
            seat.email = data["email"]
            # the new player's secret replaces the old one (else the old secret would still
            # work and the one mailed to the new player would not)
            seat.secret_hash = data.get("secret_hash", seat.secret_hash)
    elif command == "pause":
        info.paused = True
    elif command == "resume":
        info.paused = False
    elif command == "end":
        info.ended = True
    elif command == "deadline":
        info.deadline = str(data.get("text") or "") or None


def game_dir(data_dir: Path, game_id: str) -> Path:
    """``<data>/games/<game id>``."""
    return data_dir / "games" / game_id


def list_games(data_dir: Path) -> list[str]:
    """Ids of the games under ``data_dir``."""
    root = data_dir / "games"
    return sorted(p.name for p in root.iterdir() if (p / "log.jsonl").exists()) if root.is_dir() else []


def game_exists(data_dir: Path, game_id: str) -> bool:
    """Whether ``game_id`` is a game under ``data_dir`` (false for anything not a game id)."""
    # a Subject tag is untrusted: never a path outside games/
    return bool(GAME_ID.match(game_id)) and (game_dir(data_dir, game_id) / "log.jsonl").exists()


def gm_address(log_path: Path) -> str | None:
    """The GM's address from record 0 of a (possibly damaged) log, or None."""
    try:
        with log_path.open("rb") as fh:
            first = json.loads(fh.readline())
        email = first["data"]["gm"]["email"]
    except Exception:
        return None
    return email if isinstance(email, str) and valid_address(email) else None


def gm_addresses(data_dir: Path) -> list[str]:
    """The GM address of every game under ``data_dir``, each once (from record 0)."""
    found: list[str] = []
    for game_id in list_games(data_dir):
        gm = gm_address(game_dir(data_dir, game_id) / "log.jsonl")
        if gm is not None and gm.lower() not in (f.lower() for f in found):
            found.append(gm)
    return found


def find_game(data_dir: Path, tag: str) -> str | None:
    """The id of the game ``tag`` names, in any case (``DEMO-1830`` finds ``demo-1830``;
    the exact id first), or None."""
    if game_exists(data_dir, tag):
        return tag
    if not GAME_ID.match(tag):
        return None
    return next((g for g in list_games(data_dir) if g.lower() == tag.lower()), None)


def seats_of(data_dir: Path, email: str) -> list[tuple[str, str]]:
    """``[(game id, role)]`` for every game under ``data_dir`` where ``email`` has a seat
    (role: the seat's name) or is the GM (role ``"GM"``); games whose log cannot be read are
    left out."""
    found: list[tuple[str, str]] = []
    for game_id in list_games(data_dir):
        try:
            info = info_from_records(open_log(data_dir, game_id).records)
        except (LogIntegrityError, KeyError, OSError, ValueError):
            continue
        seat = info.seat_for(email)
        if seat is not None:
            found.append((game_id, seat.name))
        if info.gm_email.lower() == email.lower():
            found.append((game_id, "GM"))
    return found


def describe_record(record: dict[str, Any], vocab: Vocabulary | None = None) -> str:
    """One log record in words, for ``pbem log`` (every kind, also ones this version does
    not know, which are shown as their data); orders in the title's vocabulary ``vocab``
    when given, so a name a private and a corporation share reads back as written."""
    from pbem.engine.actions import action_from_dict
    from pbem.orders import format_order

    data = record.get("data") or {}
    kind = record.get("kind")
    if kind == "action":
        return format_order(action_from_dict(data), vocab)
    if kind == "undo":
        return f"UNDO back to #{data.get('to_seq')}"
    if kind == "gm":
        return "GM " + " ".join(str(v) for k, v in data.items() if k != "secret_hash")
    if kind == "setting" and data.get("setting") == "width":
        return f"WIDTH {data.get('value')} for {data.get('seat')}"
    if kind == "game":
        return f"new game {data.get('title')} with {', '.join(s.get('name', '?') for s in data.get('seats', []))}"
    return f"{kind}: {' '.join(f'{k}={v}' for k, v in data.items() if k != 'secret_hash')}"


def open_log(data_dir: Path, game_id: str, *, repair: bool = False) -> ActionLog:
    """Open a game's log (see :meth:`ActionLog.open`; ``repair`` only before appending).

    :raises KeyError: no such game.
    :raises LogIntegrityError: the log or its ``head.json`` is damaged.
    """
    if not game_exists(data_dir, game_id):
        raise KeyError(game_id)
    return ActionLog.open(game_dir(data_dir, game_id) / "log.jsonl", repair=repair)
