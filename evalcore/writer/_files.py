"""Safe file writes: atomic, idempotent, and never clobbering a person's edits silently."""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

WriteStatus = Literal["created", "unchanged", "overwritten", "conflict"]


@dataclass(frozen=True)
class WriteResult:
    path: Path
    status: WriteStatus

    @property
    def written(self) -> bool:
        return self.status in ("created", "overwritten")


def atomic_write_text(path: Path, text: str) -> None:
    """Write via a temp file in the same folder and rename, so readers never see half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        # backslashreplace: a lone surrogate from a JSON `\ud800` escape is written back as
        # that escape instead of failing the whole write.
        with os.fdopen(
            fd, "w", encoding="utf-8", errors="backslashreplace", newline="\n"
        ) as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_case_file(path: Path, text: str, *, force: bool = False) -> WriteResult:
    """Write `text` unless a different file is already there (then `conflict`, untouched).

    Same content is `unchanged` (no write, mtime kept), so re-running generation is a no-op.
    """
    if path.exists():
        current = path.read_text(encoding="utf-8", errors="replace")
        if current == text:
            return WriteResult(path, "unchanged")
        if not force:
            return WriteResult(path, "conflict")
        atomic_write_text(path, text)
        return WriteResult(path, "overwritten")
    atomic_write_text(path, text)
    return WriteResult(path, "created")
