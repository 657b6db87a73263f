"""A case file's bytes under the size limit, with as few system calls as reading it takes.

`validate` reads thousands of small files; for each, a `stat` of the path, a buffered `open`
and `readall`'s own `fstat` and `lseek` cost more than the read itself.
"""

from __future__ import annotations

import os
from pathlib import Path

from .limits import InputLimits, size_message

#: What `open(path, "rb")` asks of the system: binary on Windows, not inherited.
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def read_bytes(path: Path, limits: InputLimits) -> tuple[bytes | None, str | None]:
    """(the file's bytes, None), or (None, why it is too big to read): one open, whose
    `fstat` gives the size, then reads until one returns nothing (a `stat` of the path, a
    buffered `open` and `readall`'s own `fstat` and `lseek` cost more than reading a case
    file). A file that cannot be opened is stat-ed and read as before, so its error (or its
    size) is reported the same."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except OSError:
        too_big = size_message(path.stat().st_size, limits)
        return (None, too_big) if too_big is not None else (path.read_bytes(), None)
    try:
        size = os.fstat(fd).st_size
        too_big = size_message(size, limits)
        if too_big is not None:
            return None, too_big
        first = os.read(fd, size + 1)
        if not first:
            return first, None
        chunks = [first]
        while chunk := os.read(fd, max(size + 1 - len(first), _CHUNK)):
            chunks.append(chunk)
        return (first if len(chunks) == 1 else b"".join(chunks)), None
    finally:
        os.close(fd)


#: Bytes asked for by each read after the first (a file that grew after its `fstat`).
_CHUNK = 64 * 1024
