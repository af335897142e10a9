"""A derived snapshot of a replayed game, kept beside its log: a cache, never the truth.

``<game dir>/snapshot.pickle`` holds a game as :func:`pbem.application.state.replay` made it
from the log, so that ``pbem report`` (and the server after a restart) need not replay the
whole log again (the issue's performance goal: a cold ``pbem report`` on a late game under
half a second). The log stays the truth:

- the snapshot is keyed by the log's hash-chain head (the last record's ``seq`` and
  ``hash``), the game's id, and the code version (:func:`code_version`: a hash of the
  package's source and title data, and the Python version): any change of these makes it
  stale, and a stale snapshot is never used;
- it refers to the log's records by their ``seq`` and is re-linked to the records just read
  (and chain-checked) from the log, so it cannot carry records of its own;
- it is read with an unpickler that builds only classes of this package and a few plain
  containers (no function of any module is called), and any doubt while reading it (a
  missing or unreadable file, a wrong key, a fault while unpickling) means it is ignored and
  the log is replayed;
- it is written atomically (:func:`pbem.durable.write_atomic`), and a failed write is only
  logged;
- ``pbem verify`` never reads it: it replays the log from scratch.
"""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import os
import pickle
import sys
from pathlib import Path
from types import MappingProxyType
from typing import Any, Sequence

from pbem.durable import write_atomic
from pbem.log_records import LogRecord

log = logging.getLogger(__name__)

SNAPSHOT_NAME = "snapshot.pickle"
"""The snapshot's file name in the game's folder (beside ``log.jsonl``)."""

FORMAT = 1
"""The layout of the snapshot file; raised when it changes."""

_PACKAGE_DIR = Path(__file__).resolve().parent
_CODE_SUFFIXES = (".py", ".yaml", ".yml", ".json")

_ALLOWED_GLOBALS = frozenset({
    ("builtins", "set"), ("builtins", "frozenset"), ("builtins", "dict"), ("builtins", "list"),
    ("builtins", "tuple"), ("builtins", "bytearray"),
    ("collections", "OrderedDict"), ("collections", "defaultdict"), ("collections", "deque"),
    ("pbem.snapshot", "_mapping_proxy"),
})
"""Globals other than this package's classes a snapshot may name (plain containers)."""


@functools.lru_cache(maxsize=4)
def code_version(package_dir: Path = _PACKAGE_DIR) -> str:
    """sha256 hex over every source and data file of the package (``.py``, ``.yaml``,
    ``.yml``, ``.json``, by relative path and content; the title data folder ``rules`` is
    inside the package), the Python version and :data:`FORMAT`: a snapshot made by other
    code, other title data or another Python is stale."""
    digest = hashlib.sha256(f"{FORMAT}\0{sys.version}\0".encode())
    files: list[tuple[str, Path]] = []
    for root, dirs, names in os.walk(package_dir, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in names:
            if name.endswith(_CODE_SUFFIXES):
                path = Path(root, name)
                files.append((path.relative_to(package_dir).as_posix(), path))
    for rel, path in sorted(files):
        digest.update(rel.encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def snapshot_key(game_id: str, records: Sequence[LogRecord]) -> tuple[object, ...]:
    """What a snapshot of ``records`` must be stored under: the format, the code version, the
    game's id and the log's hash-chain head (last ``seq`` and ``hash``).

    :raises IndexError: no records.
    """
    head = records[-1]
    return (FORMAT, code_version(), game_id, head.seq, head.hash)


def _mapping_proxy(items: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    """A read-only view of ``items`` (how a snapshot stores a mapping proxy)."""
    return MappingProxyType(items)


class _Pickler(pickle.Pickler):
    """Writes log records as references by ``seq`` and mapping proxies as their dicts."""

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, LogRecord):
            return obj.seq
        return None

    def reducer_override(self, obj: Any) -> Any:
        if type(obj) is MappingProxyType:
            return _mapping_proxy, (dict(obj),)
        return NotImplemented


class _Unpickler(pickle.Unpickler):
    """Builds only this package's classes and plain containers; re-links record references
    to the log's records."""

    def __init__(self, stream: io.BytesIO, records: Sequence[LogRecord]) -> None:
        super().__init__(stream)
        self._records = records

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        if module == "pbem" or module.startswith("pbem."):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not name {module}.{name}")

    def persistent_load(self, pid: Any) -> Any:
        if type(pid) is not int or not 0 <= pid < len(self._records) or self._records[pid].seq != pid:
            raise pickle.UnpicklingError(f"a snapshot names record {pid!r}, which the log does not have")
        return self._records[pid]


def snapshot_path(game_dir: Path) -> Path:
    """``<game dir>/snapshot.pickle``."""
    return game_dir / SNAPSHOT_NAME


def dumps(game_id: str, records: Sequence[LogRecord], replayed: object) -> bytes:
    """The snapshot file's bytes for ``replayed`` (a :class:`~pbem.application.state.Replay`
    of exactly ``records``): the key (:func:`snapshot_key`), then the pickled game.

    :raises pickle.PicklingError: something in the game cannot be pickled.
    """
    out = io.BytesIO()
    pickle.dump(snapshot_key(game_id, records), out, protocol=pickle.HIGHEST_PROTOCOL)
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(replayed)
    return out.getvalue()


def loads(data: bytes, game_id: str, records: Sequence[LogRecord]) -> Any | None:
    """The game a snapshot's bytes hold if it was made from exactly ``records`` of game
    ``game_id`` by this code (see :func:`snapshot_key`), else None. Never raises for a bad
    snapshot: every fault reading it is a None (and logged)."""
    try:
        stream = io.BytesIO(data)
        key = _Unpickler(stream, ()).load()
    except Exception as exc:  # any doubt: the snapshot is not used
        log.info("snapshot of %s ignored: its key cannot be read (%s)", game_id, exc)
        return None
    if not records or key != snapshot_key(game_id, records):
        log.info("snapshot of %s is stale", game_id)
        return None
    try:
        return _Unpickler(stream, records).load()
    except Exception as exc:
        log.info("snapshot of %s ignored: %s", game_id, exc)
        return None


def load(game_dir: Path, game_id: str, records: Sequence[LogRecord]) -> Any | None:
    """The game in ``game_dir``'s snapshot if it is current for ``records`` (see
    :func:`loads`), else None (also when there is none or it cannot be read)."""
    try:
        data = snapshot_path(game_dir).read_bytes()
    except OSError:
        return None
    return loads(data, game_id, records)


def save(game_dir: Path, game_id: str, records: Sequence[LogRecord], replayed: object) -> bool:
    """Write the snapshot of ``replayed`` (made from exactly ``records``) atomically into
    ``game_dir``. Returns whether it was written; a fault is logged, never raised (a missing
    snapshot only costs a replay)."""
    try:
        write_atomic(snapshot_path(game_dir), dumps(game_id, records, replayed))
    except Exception as exc:
        log.info("snapshot of %s not written: %s", game_id, exc)
        return False
    return True
