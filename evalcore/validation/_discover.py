"""Which files under a folder are cases, and which project each belongs to."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from ..errors import UserError

CASE_SUFFIXES = {".yml", ".yaml", ".json"}
#: Folders never searched for cases: tooling, virtualenvs, and base44 fixtures' agent workspace.
SKIP_DIRS = {"node_modules", "__pycache__", "project", "results"}


def iter_candidate_files(paths: Iterable[Path]) -> Iterator[tuple[Path, bool]]:
    """Yield `(file, explicit)`; folders are searched recursively in sorted order."""
    for file, explicit, _ in iter_listed_files(paths):
        yield file, explicit


def iter_listed_files(paths: Iterable[Path]) -> Iterator[tuple[Path, bool, bool | None]]:
    """`iter_candidate_files`, with whether each file is a link where the folder's listing
    could tell without a system call (None for a named file, or when it could not)."""
    for path in paths:
        if not path.exists():
            raise UserError(f"no such file or folder: {path}")
        if path.is_file() or not path.is_dir():
            # a named FIFO or device is read as a file, which refuses it with a finding
            yield path, True, None
            continue
        # A folder's Path and whether it is skipped, once per folder, not once per file.
        folders: dict[tuple[str, ...], Path | None] = {}
        for parts, entry in _entries_under(path):
            # the name and folder tests first: they cost no system call, `is_file` may
            name = parts[-1]
            if _suffix(name) not in CASE_SUFFIXES:
                continue
            above = parts[:-1]
            folder = folders.get(above, _UNSEEN)
            if folder is _UNSEEN:
                skipped = any(p.startswith(".") or p in SKIP_DIRS for p in above)
                folder = folders[above] = None if skipped else path.joinpath(*above)
            if folder is None:
                continue
            file = _child(folder, name)
            if _is_file(entry, file):
                yield file, False, _is_link(entry)


_UNSEEN: Any = object()

#: `Path._make_child_relpath(name)`: `folder / name` for a name from a folder listing (one
#: component, no separator) without parsing it again; `/` where an interpreter lacks it.
_make_child = getattr(Path, "_make_child_relpath", None)


def _child(folder: Path, name: str) -> Path:
    if _make_child is not None:
        return _make_child(folder, name)  # type: ignore[no-any-return]
    return folder / name


def _entries_under(root: Path) -> list[tuple[tuple[str, ...], os.DirEntry[str]]]:
    """Every entry under `root` with its path parts below it, in the order of
    `sorted(root.rglob("*"))`: folders are descended unless they are links, and a folder
    that cannot be listed is skipped. One `scandir` per folder, and no `Path` per entry
    (a folder of thousands of cases paid more for its listing than for reading a file)."""
    found: list[tuple[tuple[str, ...], os.DirEntry[str]]] = []
    stack: list[tuple[str, tuple[str, ...]]] = [(str(root), ())]
    while stack:
        folder, above = stack.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except PermissionError:
            continue
        for entry in entries:
            parts = (*above, entry.name)
            found.append((parts, entry))
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir and not entry.is_symlink():
                stack.append((entry.path, parts))
    found.sort(key=lambda item: item[0])
    return found


def _suffix(name: str) -> str:
    """`PurePath(name).suffix.lower()`."""
    i = name.rfind(".")
    return name[i:].lower() if 0 < i < len(name) - 1 else ""


def _is_link(entry: os.DirEntry[str]) -> bool | None:
    """`entry.is_symlink()` (from the listing's file type), None where it fails."""
    try:
        return entry.is_symlink()
    except OSError:
        return None


def _is_file(entry: os.DirEntry[str], path: Path) -> bool:
    """`path.is_file()`, from the listing where it can tell without a system call."""
    try:
        return entry.is_file()
    except OSError:
        return path.is_file()  # its own rules for errors
