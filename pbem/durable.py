"""Durable file writes: what is written here survives a crash once the call returns.

Every write of the data directory goes through :func:`write_atomic` or
:func:`append_durably`, and both put their bytes down with :func:`_put`, the one place a full
disk (``ENOSPC``) or a read-only file system (``EROFS``) shows up as :class:`OSError` (tests
put a fault there). :func:`is_storage_error` tells such faults from our own bugs.

An atomic write goes through a temporary file ``.<name>.<pid>.tmp`` beside its target; a
crash can leave one behind, which :func:`clean_temporary_files` removes when the server
starts.
"""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path
from typing import BinaryIO

STORAGE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM,
                            errno.EIO, errno.EFBIG})
"""``errno`` values of a data directory that cannot be written now (full, read-only, no
permission, failing disk): the server waits and tries again, it does not give up the mail."""

_TEMPORARY = re.compile(r"^\..+\.([0-9]+)\.tmp$")


def is_storage_error(exc: BaseException) -> bool:
    """Whether ``exc`` is an :class:`OSError` of :data:`STORAGE_ERRNOS`."""
    return isinstance(exc, OSError) and exc.errno in STORAGE_ERRNOS


def fsync_dir(path: Path) -> None:
    """Flush a directory's entries (a new, renamed or removed file) to disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _put(fh: BinaryIO, data: bytes) -> None:
    """Write ``data`` to ``fh`` and force it to disk (write, flush, fsync).

    :raises OSError: e.g. ``ENOSPC`` (disk full) or ``EIO``.
    """
    fh.write(data)
    fh.flush()
    os.fsync(fh.fileno())


def temporary_name(path: Path) -> Path:
    """The temporary file :func:`write_atomic` writes before renaming it to ``path``."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the new one
    (temporary file, fsync, rename, fsync of the folder). A failed write removes its
    temporary file.

    :raises OSError: the file cannot be written (see :func:`is_storage_error`).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = temporary_name(path)
    try:
        with open(tmp, "wb") as fh:
            _put(fh, data)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def append_durably(path: Path, data: bytes) -> None:
    """Append ``data`` to ``path`` (created if missing) and fsync before returning.

    :raises OSError: the file cannot be written; part of ``data`` may be on disk then (the
        readers of appended files ignore a torn last line).
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    new = not path.exists()
    with path.open("ab") as fh:
        _put(fh, data)
    if new:
        fsync_dir(path.parent)


def _alive(pid: int) -> bool:
    """Whether another process ``pid`` runs (this process writes nothing while it cleans)."""
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    return True


def clean_temporary_files(root: Path) -> list[Path]:
    """Remove the temporary files of :func:`write_atomic` under ``root`` (every folder) that
    no other living process is writing (the pid in the name is gone, or is this process's own:
    a process that restarted with the pid of the one that crashed). Call it before this
    process writes anything, under the data directory's lock. Returns what was removed.

    Files that cannot be removed (a read-only disk) are left; the call never raises for them.
    """
    removed: list[Path] = []
    if not root.is_dir():
        return removed
    for folder, _dirs, files in os.walk(root):
        for name in files:
            match = _TEMPORARY.match(name)
            if match is None or _alive(int(match.group(1))):
                continue
            path = Path(folder) / name
            try:
                path.unlink()
            except OSError:
                continue
            removed.append(path)
    return removed
