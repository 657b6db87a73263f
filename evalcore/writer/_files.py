"""Safe file writes: atomic, idempotent, and never clobbering a person's edits silently."""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .._readbytes import read_limited
from ..errors import UserError

WriteStatus = Literal["created", "unchanged", "overwritten", "conflict"]


@dataclass(frozen=True)
class WriteResult:
    path: Path
    status: WriteStatus

    @property
    def written(self) -> bool:
        return self.status in ("created", "overwritten")


class WriteError(UserError, OSError):
    """A file could not be written (read-only folder, full disk...); exit 1, no traceback."""

    exit_code = 1


_HINTS = {
    errno.EACCES: "the folder is not writable; fix its permissions or choose another folder",
    errno.EPERM: "the folder is not writable; fix its permissions or choose another folder",
    errno.EROFS: "the file system is read-only; choose another folder",
    errno.ENOSPC: "the disk is full; free some space and run the command again",
    errno.EDQUOT: "the disk quota is used up; free some space and run the command again",
}

#: A temp file older than this next to the file being written is a leftover of a killed
#: process (kill -9, power loss), not another writer's work in progress.
STALE_TEMP_S = 60.0

_umask_lock = threading.Lock()


def _umask() -> int:
    """The process umask (read by setting and restoring it; `os` has no getter)."""
    with _umask_lock:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def _clean_stale_temps(path: Path) -> None:
    """Remove `.<name>.*.tmp` files a killed earlier write left next to `path`."""
    now = time.time()
    prefix, suffix = f".{path.name}.", ".tmp"
    try:  # what the glob `.<name>.*.tmp` matches, without compiling a pattern per file
        names = [
            entry.name
            for entry in os.scandir(path.parent)
            if entry.name.startswith(prefix)
            and entry.name.endswith(suffix)
            and len(entry.name) >= len(prefix) + len(suffix)
        ]
    except OSError:
        return
    for name in names:
        leftover = path.parent / name
        with contextlib.suppress(OSError):
            if now - leftover.stat().st_mtime > STALE_TEMP_S:
                leftover.unlink()


def atomic_write_text(path: Path, text: str) -> None:
    """Write via a temp file in the same folder and rename, so readers never see half a file.

    The file gets the mode a plain `open()` would give (0666 minus the umask; an existing
    file keeps its mode): `mkstemp` alone would leave every case file 0600.

    Raises:
        WriteError: the folder is not writable or the disk is full (the target is untouched).
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _clean_stale_temps(path)
        try:
            mode = path.stat().st_mode & 0o7777
        except FileNotFoundError:
            mode = 0o666 & ~_umask()
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise _write_error(path, exc) from None
    try:
        os.fchmod(fd, mode)
        # backslashreplace: a lone surrogate from a JSON `\ud800` escape is written back as
        # that escape instead of failing the whole write.
        with os.fdopen(
            fd, "w", encoding="utf-8", errors="backslashreplace", newline="\n"
        ) as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise _write_error(path, exc) from None
        raise


def _write_error(path: Path, exc: OSError) -> WriteError:
    reason = exc.strerror or str(exc)
    return WriteError(
        f"cannot write {path}: {reason}",
        hint=_HINTS.get(exc.errno or 0, "check the folder and run the command again"),
    )


def write_case_file(path: Path, text: str, *, force: bool = False) -> WriteResult:
    """Write `text` unless a different file is already there (then `conflict`, untouched).

    Same content is `unchanged` (no write, mtime kept), so re-running generation is a no-op.
    """
    if path.exists():
        try:
            current = read_limited(path).decode("utf-8", errors="replace")
        except OSError:  # not a regular file, or over the limit: never overwritten silently
            return WriteResult(path, "conflict")
        if current == text:
            return WriteResult(path, "unchanged")
        if not force:
            return WriteResult(path, "conflict")
        atomic_write_text(path, text)
        return WriteResult(path, "overwritten")
    atomic_write_text(path, text)
    return WriteResult(path, "created")
