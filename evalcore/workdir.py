"""casegen's own working folder, `.casegen/` (checkpoints, response cache, reviews, PR notes),
and paths as a person in the working folder reads them (`shown_path`).

It is machine state, never something to commit, so the folder ignores itself: the first time
casegen creates it, it writes `.casegen/.gitignore` with `*`, and a person's `git status`
stays clean without them editing their own ignore rules.
"""

from __future__ import annotations

from pathlib import Path

WORKDIR_NAME = ".casegen"


def ensure_dir(path: Path) -> Path:
    """Create `path`; if it lies inside a `.casegen` folder, make that folder ignore itself."""
    path.mkdir(parents=True, exist_ok=True)
    for folder in (path, *path.parents):
        if folder.name == WORKDIR_NAME:
            marker = folder / ".gitignore"
            if not marker.exists():
                marker.write_text("*\n", encoding="utf-8")
            break
    return path


def shown_path(path: str | Path) -> str:
    """`path` relative to the working folder when it lies inside it (as the person would type
    it), else as given: output that prints `/home/…/eval/results/…` is hard to read and
    leaks the layout of the machine into logs and pages."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)
