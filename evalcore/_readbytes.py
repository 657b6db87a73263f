"""Every file casegen reads goes through here: a regular file, under the size limit of the
settings nearest it (`limits`) or one the caller gives. How a file is read safely (links,
FIFOs, devices, files that grow) is `_regularfile`'s.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path

from ._regularfile import NotRegularFile, RefusedFile, not_regular, read_regular
from .limits import InputLimits, limits_for, size_message


def read_limited(
    path: Path | str,
    max_bytes: int | InputLimits | None = None,
    *,
    check: Callable[[Path, os.stat_result], bool] | None = None,
) -> bytes:
    """The bytes of the regular file at `path` (links followed), at most `max_bytes` (an
    int, an `InputLimits`, or None for the limits of the settings nearest the file).

    Raises:
        RefusedFile: not a regular file, over the limit, or refused by `check`.
        OSError: cannot be opened or read (absent, no permission, a path through a file).
    """
    path = Path(path)
    limits = limits_for(path) if max_bytes is None else max_bytes
    limit = limits.max_file_bytes if isinstance(limits, InputLimits) else limits
    return read_regular(path, limit, check=check, too_big=lambda size: _too_big(size, limits))


def _too_big(size: int, limits: int | InputLimits) -> str:
    if isinstance(limits, InputLimits):
        return str(size_message(size, limits))
    return f"file is over {limits} bytes, the most read for it"


def read_bytes(path: Path, limits: InputLimits) -> tuple[bytes | None, str | None]:
    """(the file's bytes, None), or (None, why it is not read): too big, or not a regular
    file. Other errors (absent, no permission) raise `OSError` as before."""
    try:
        return read_limited(path, limits), None
    except NotRegularFile as exc:
        return None, f"cannot read file: {exc}"
    except RefusedFile as exc:
        return None, str(exc)


def read_text(path: Path | str, max_bytes: int | InputLimits | None = None) -> str:
    """`read_limited` decoded as UTF-8 (a leading BOM kept; `UnicodeDecodeError` raised)."""
    return read_limited(path, max_bytes).decode("utf-8")


def describe(exc: OSError) -> str:
    """A short reason for a failed read: the refusal, or the system's error text."""
    if isinstance(exc, RefusedFile):
        return str(exc)
    if exc.errno == errno.ENOTDIR:
        return "a folder in its path is a file"
    return exc.strerror or str(exc)


__all__ = [
    "NotRegularFile",
    "RefusedFile",
    "describe",
    "not_regular",
    "read_bytes",
    "read_limited",
    "read_text",
]
