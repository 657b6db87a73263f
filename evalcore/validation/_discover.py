"""Which files under a folder are cases, and which project each belongs to."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import UserError

CASE_SUFFIXES = {".yml", ".yaml", ".json"}
#: Folders never searched for cases: tooling, virtualenvs, and base44 fixtures' agent workspace.
SKIP_DIRS = {"node_modules", "__pycache__", "project", "results"}


def iter_candidate_files(paths: Iterable[Path]) -> Iterator[tuple[Path, bool]]:
    """Yield `(file, explicit)`; folders are searched recursively in sorted order."""
    for path in paths:
        if not path.exists():
            raise UserError(f"no such file or folder: {path}")
        if path.is_file():
            yield path, True
            continue
        depth = len(path.parts)
        for file in sorted(path.rglob("*")):
            # the name and folder tests first: they cost no system call, `is_file` does
            if file.suffix.lower() not in CASE_SUFFIXES:
                continue
            if any(p.startswith(".") or p in SKIP_DIRS for p in file.parts[depth:-1]):
                continue
            if file.is_file():
                yield file, False
