"""Games on disk: creating one, and rebuilding its state by replaying its action log.

A game lives in ``<data>/games/<game id>/``: ``log.jsonl`` (the truth, see
:mod:`pbem.actionlog`), ``head.json``, ``reports/`` (the archive) and ``snapshot.pickle``
(a cache of the replayed game, :mod:`pbem.snapshot`; safe to delete). Seats, addresses and
the hashes of the secrets are in the log's record 0; a GM ``replace`` record changes an
address. The state is always :func:`replay` of the log (:mod:`pbem.application.state`,
whose names are also given here); :func:`replay_log` gives the same from the snapshot when
it is current for the log.

Seat names are compared case-insensitively and word by word (:func:`same_name`): runs of
blanks inside a name do not matter.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping

from pbem.actionlog import ActionLog, LogIntegrityError
from pbem.addresses import valid_address
from pbem.application.state import (GameInfo, GmEntry, Replay, ReplayError, Seat, Undone, info_from_genesis,
                                    info_from_records, replay, same_name)
from pbem.errors import ConfigError
from pbem.log_records import GameRecord, GMRecord, LogRecord, OrderRecord, UndoRecord, WidthRecord

if TYPE_CHECKING:
    from pbem.orders import Vocabulary

GAME_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
SECRET_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def new_secret(length: int = 8) -> str:
    """A secret players can type: lower-case letters and digits without look-alikes."""
    return "".join(secrets.choice(SECRET_ALPHABET) for _ in range(length))


def hash_secret(game_id: str, secret: str) -> str:
    """The stored form of a secret (sha256 of ``game_id:secret``; secrets are case-insensitive)."""
    return hashlib.sha256(f"{game_id}:{secret.strip().lower()}".encode()).hexdigest()


def genesis_data(
    game_id: str,
    title: str,
    variants: tuple[str, ...],
    seats: list[tuple[str, str]],
    gm_email: str,
    secrets_by_seat: dict[str, str],
    gm_secret: str,
    auto_runs: bool = False,
    random_seating: bool | None = False,
    shuffle: Callable[[list[tuple[str, str]]], None] | None = None,
    timing: Mapping[str, tuple[int, str]] | None = None,
    mail: str = "turn",
) -> dict[str, Any]:
    """The data of a new game's record 0. ``auto_runs``: the game setting that a run left out
    of the orders is made by the server (RUN AUTO).

    Seating is the GM's: the seats sit in the order given. With ``random_seating`` (None:
    as the title's game data say, its ``random_seating``; Lorenz's 1825: "randomly determine
    the player seating order") they are drawn at random instead, once, here: record 0 keeps
    the order drawn (and the setting), so every replay seats them alike. ``shuffle`` shuffles
    a list in place (default: :class:`secrets.SystemRandom`'s; a test passes its own).

    ``mail``: the players' default MAIL setting (``every``, ``turn``, ``round``; issue 22).

    :param seats: ``[(seat name, email)]`` in seating order.
    :raises ConfigError: bad game id, unknown title/variant, a combination of variants the
        title refuses (its composer's ``resolve_variants``, which also fills in its defaults),
        wrong player count, an empty seat
        name, an address that is not one mail address (:func:`pbem.addresses.valid_address`),
        duplicates.
    """
    if not GAME_ID.match(game_id):
        raise ConfigError(f"game id {game_id!r}: use letters, digits, '-', '_' or '.' (at most 64)")
    if len(set(variants)) != len(variants):
        raise ConfigError(f"a variant is named twice: {', '.join(variants)}")
    from pbem.ruleset import load_title
    from pbem.ruleset.files import known_titles
    from pbem.titles import composer_class

    if title in known_titles():  # an unknown title is refused by the loader, with the known ones
        variants = composer_class(title).resolve_variants(tuple(variants), len(seats))
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
    if random_seating is None:
        random_seating = data.settings.random_seating
    if random_seating:
        seats = list(seats)
        (shuffle or secrets.SystemRandom().shuffle)(seats)
    from pbem.application.deadlines import TIMED_ROUNDS, NoMove

    for kind, (hours, policy) in (timing or {}).items():
        if kind not in TIMED_ROUNDS or not 0 <= hours <= 8760 or policy not in {p.value for p in NoMove}:
            raise ConfigError(f"timing {kind}={hours}:{policy}: write a round ({', '.join(TIMED_ROUNDS)}), "
                              "hours from 0 to 8760, and wait, pass or default")
    if mail not in ("every", "turn", "round"):
        raise ConfigError(f"mail {mail!r}: write every, turn or round")
    settings = {"mail": mail, **({"auto_runs": True} if auto_runs else {}),
                **({"random_seating": True} if random_seating else {}),
                **({"timing": {k: {"hours": h, "policy": p} for k, (h, p) in timing.items()}} if timing else {})}
    return {
        "game_id": game_id,
        "title": title,
        "variants": list(variants),
        "seats": [
            {"name": n, "email": e, "secret_hash": hash_secret(game_id, secrets_by_seat[n])} for n, e in seats
        ],
        "gm": {"email": gm_email, "secret_hash": hash_secret(game_id, gm_secret)},
        **({"settings": settings} if settings else {}),
    }


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


def describe_record(record: LogRecord, vocab: Vocabulary | None = None) -> str:
    """One log record in words, for ``pbem log`` (every kind, also ones this version does
    not know, which are shown as their data); orders in the title's vocabulary ``vocab``
    when given, so a name a private and a corporation share reads back as written.

    :raises ValueError: an action record this version cannot read.
    """
    from pbem.orders import format_order

    if isinstance(record, OrderRecord):
        return format_order(record.action_in(vocab.action_types if vocab else {}), vocab)
    if isinstance(record, UndoRecord):
        return f"UNDO back to #{record.to_seq}"
    data = record.data()
    if isinstance(record, GMRecord):
        return "GM " + " ".join(str(v) for k, v in data.items() if k != "secret_hash")
    if isinstance(record, WidthRecord):
        return f"WIDTH {record.value} for {record.seat}"
    if isinstance(record, GameRecord):
        return f"new game {data.get('title')} with {', '.join(s.get('name', '?') for s in data.get('seats', []))}"
    return f"{record.kind_name}: {' '.join(f'{k}={v}' for k, v in data.items() if k != 'secret_hash')}"


def replay_log(action_log: ActionLog, *, keep_snapshot: bool = True) -> Replay:
    """The game ``action_log`` makes: :func:`replay` of its records, or the snapshot beside
    the log when it is current for exactly these records (:mod:`pbem.snapshot`: a cache keyed
    by the log's hash-chain head and the code version; the log stays the truth). A missing,
    stale or doubtful snapshot is replaced by a new one when ``keep_snapshot`` (a failed
    write is only logged).

    :raises ReplayError: the log no longer replays (see :func:`replay`); a snapshot is never
        written then.
    """
    from pbem import snapshot

    records = action_log.records
    game_id = str(records[0].genesis.get("game_id", "")) if isinstance(records[0], GameRecord) else ""
    where = action_log.path.parent
    cached = snapshot.load(where, game_id, records)
    if isinstance(cached, Replay) and cached.last_seq == records[-1].seq and cached.info.game_id == game_id:
        return cached
    rebuilt = replay(records)
    if keep_snapshot:
        snapshot.save(where, game_id, records, rebuilt)
    return rebuilt


def save_snapshot(action_log: ActionLog, state: Replay) -> bool:
    """Keep ``state`` (the game after every record of ``action_log``) as the log's snapshot
    (:mod:`pbem.snapshot`); returns whether it was written (a fault is only logged)."""
    from pbem import snapshot

    records = action_log.records
    if state.last_seq != records[-1].seq:
        return False
    return snapshot.save(action_log.path.parent, state.info.game_id, records, state)


def open_log(data_dir: Path, game_id: str, *, repair: bool = False,
             clock: Callable[[], float] = time.time) -> ActionLog:
    """Open a game's log (see :meth:`ActionLog.open`; ``repair`` only before appending;
    ``clock`` stamps what is appended).

    :raises KeyError: no such game.
    :raises LogIntegrityError: the log or its ``head.json`` is damaged.
    """
    if not game_exists(data_dir, game_id):
        raise KeyError(game_id)
    return ActionLog.open(game_dir(data_dir, game_id) / "log.jsonl", repair=repair, clock=clock)


__all__ = ["GameInfo", "GmEntry", "Replay", "ReplayError", "Seat", "Undone", "describe_record", "find_game", "game_dir",
           "game_exists", "genesis_data", "gm_address", "gm_addresses", "hash_secret", "info_from_genesis",
           "info_from_records", "list_games", "new_secret", "open_log", "replay", "replay_log", "same_name", "save_snapshot", "seats_of"]
