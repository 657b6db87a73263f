"""One regular file's bytes, read under a byte limit without blocking.

Case files, definitions, results folders and caches may come from a pull request or a CI
artifact, so a path may be a link to `/dev/zero` (endless bytes), a FIFO (a read that never
returns), a folder, or a huge file. A file is opened without blocking (a FIFO opens at
once), checked with `fstat` on the open descriptor (after links are resolved, so a link is
judged by what it points to, with no gap between check and read), refused unless it is a
regular file, and read up to the limit only: a file that grows while it is read is refused
too. A refusal is a `RefusedFile`, an `OSError`, so every caller's "cannot read" path
reports it with the reason.

`validate` reads thousands of small files, so this costs one `open`, one `fstat` and the
reads (a `stat` of the path, a buffered `open` and `readall`'s own `fstat` and `lseek` cost
more than reading a case file).

The limit here is a number of bytes: `_readbytes` (what every other reader calls) finds the
limit of a file's settings; the settings reader (`limits`) and the values cache read their
own files with this directly, as `_readbytes` depends on them.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

#: What `open(path, "rb")` asks of the system, without waiting for a FIFO's writer.
_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_BINARY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NONBLOCK", 0)
)
#: Bytes asked for by each read after the first (a file that grew after its `fstat`).
_CHUNK = 64 * 1024


class RefusedFile(OSError):
    """A path that is not a regular file, or a file over the size limit; the message says
    which (`strerror` is None, so callers that print `exc.strerror or exc` show it)."""


class NotRegularFile(RefusedFile):
    """A FIFO, a device, a socket or a folder where a file was expected."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def not_regular(mode: int) -> str:
    """The reason a file of `mode` is not read (the text of a `RefusedFile`)."""
    return f"it is {_kind(mode)}, not a regular file; only regular files are read"


def read_regular(
    path: Path,
    limit: int,
    *,
    check: Callable[[Path, os.stat_result], bool] | None = None,
    too_big: Callable[[int], str] | None = None,
) -> bytes:
    """The bytes of the regular file at `path` (links followed), at most `limit` bytes;
    `too_big(size)` says why a larger file is refused (default: the byte count).

    Raises:
        RefusedFile: not a regular file, over the limit, or refused by `check`.
        OSError: cannot be opened or read (absent, no permission, a path through a file).
    """
    fd = os.open(path, _READ_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise NotRegularFile(not_regular(info.st_mode))
        if check is not None and not check(path, info):
            raise RefusedFile("refused")
        if info.st_size > limit:
            raise RefusedFile(_over(info.st_size, limit, too_big))
        first = os.read(fd, min(info.st_size, limit) + 1)
        chunks = [first]
        total = len(first)
        while first and total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise RefusedFile(_over(total, limit, too_big))
        return first if len(chunks) == 1 else b"".join(chunks)
    except BlockingIOError:  # O_NONBLOCK on something that is not a plain file
        raise NotRegularFile("it would block; only regular files are read") from None
    finally:
        os.close(fd)


def _over(size: int, limit: int, too_big: Callable[[int], str] | None) -> str:
    if too_big is not None:
        return too_big(size)
    return f"file is over {limit} bytes, the most read for it"


__all__ = ["NotRegularFile", "RefusedFile", "not_regular", "read_regular"]
