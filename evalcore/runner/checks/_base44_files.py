"""The project a base44 agent left, as the checks see it: paths that cannot leave it, and a
listing for "did you mean" hints when a file is missing."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from ..._readbytes import read_limited
from ...agents import FinalRecord
from ...suggest import similarity

#: The most of one file a check reads from the project copy (an agent may leave anything).
MAX_READ_BYTES = 8 * 1024 * 1024


class ProjectFiles:
    """The project the agent left: the kept folder when there is one, else the recorded files."""

    def __init__(self, final: FinalRecord, pass_env: list[str] | None = None) -> None:
        self.root = Path(final.workdir) if final.workdir and Path(final.workdir).is_dir() else None
        self.recorded = final.files
        self.pass_env = pass_env or []
        """Secret-named variables a `command-passes` command may see (`pass_env` setting)."""

    def resolve(self, rel: str) -> tuple[Path | None, str | None]:
        """(absolute path, problem): a path must stay inside the project."""
        if not rel or os.path.isabs(rel) or rel.startswith(("~", "\\")):
            return None, f"filePath {rel!r} must be relative to the project"
        parts = Path(rel).parts
        if ".." in parts:
            return None, f"filePath {rel!r} leaves the project"
        if self.root is None:
            return None, None
        path = self.root / rel
        try:
            inside = path.resolve().is_relative_to(self.root.resolve())
        except OSError:
            inside = False
        return (path, None) if inside else (None, f"filePath {rel!r} leaves the project")

    def kind(self, rel: str) -> str:
        """`file`, `dir` or `missing`."""
        path, _ = self.resolve(rel)
        if path is not None:
            return "file" if path.is_file() else "dir" if path.is_dir() else "missing"
        norm = Path(rel).as_posix()
        if norm in self.recorded:
            return "file"
        return (
            "dir" if any(p.startswith(norm.rstrip("/") + "/") for p in self.recorded) else "missing"
        )

    def read(self, rel: str) -> str | None:
        path, _ = self.resolve(rel)
        if path is not None:
            try:
                return read_limited(path, MAX_READ_BYTES).decode("utf-8", "replace")
            except OSError:
                return None
        return self.recorded.get(Path(rel).as_posix())

    def listing(self) -> list[str]:
        if self.root is None:
            return sorted(self.recorded)
        out = []
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = [d for d in dirs if d not in (".git", "node_modules")]
            out += [(Path(folder) / f).relative_to(self.root).as_posix() for f in files]
        return sorted(out)

    def missing(self, rel: str) -> str:
        """ "does not exist", with the same file elsewhere or a near-miss in the same folder."""
        want = PurePosixPath(Path(rel).as_posix())
        listing = [PurePosixPath(p) for p in self.listing()]
        hint = [str(p) for p in listing if p.name == want.name][:2] or [
            str(p)
            for p in listing
            if p.parent == want.parent and similarity(p.name, want.name) >= 0.75
        ][:2]
        where = "" if self.root is not None else " (among the recorded text files)"
        return f"{rel} does not exist{where}" + (
            f"; did you mean {' or '.join(hint)}?" if hint else ""
        )
