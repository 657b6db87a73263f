"""Paths built from case content stay inside the folder they are meant for.

Case files come from pull requests: a base44 prompt `name` of `/../../tmp/x`, a playbook
file `...yml` (id `..`) or a Mantle skill folder named oddly must never place a file outside
`--results` or `--out`. Every path part that comes from content goes through `safe_slug`,
and every finished path through `contained` before anything is written.
"""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

from ..errors import UserError

#: Characters kept in a path part; everything else becomes `_`.
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")
MAX_PART = 120


def safe_slug(text: str, *, fallback: str = "case") -> str:
    """One file-name part from untrusted text: no separators, no `..`, no leading dot.

    Readable names pass unchanged (`card_replace_lost`, `todo-entities-add`), so existing
    results keep their folders; anything else is folded to `[A-Za-z0-9._-]`.
    """
    ascii_text = unicodedata.normalize("NFKC", str(text))
    part = _UNSAFE.sub("_", ascii_text).strip("._ ")
    part = re.sub(r"\.{2,}", ".", part)[:MAX_PART].strip("._ ")
    return part or fallback


class PathEscapeError(UserError):
    """A path built from case content would leave its folder."""


def contained(base: Path, path: Path) -> Path:
    """`path` (as given) when it lies inside `base`; else PathEscapeError.

    Resolving follows symlinks that already exist, so a link inside the folder that points
    out of it is refused too.
    """
    root = Path(base).resolve()
    target = Path(path).resolve()
    try:
        target.relative_to(root)
    except ValueError:
        raise PathEscapeError(
            f"refusing to write {path}: it is outside {base}",
            hint="a case name or id contains path parts (`..`, `/`) or a symlink points out "
            "of the folder; rename it",
        ) from None
    return path


def contained_child(base: Path, root: Path, name: str) -> tuple[Path, Path]:
    """`contained(base, base / name)` for a `name` that is one `safe_slug` part, with
    `root` = `base.resolve()` worked out once by the caller: `(path, resolved path)`.

    Such a name has no separator and is neither `.` nor `..`, so the resolved path is
    `root / name` unless the file is a symlink, which is resolved (and refused when it
    points out of the folder) exactly as `contained` does."""
    path = base / name
    if "/" in name or name in ("", ".", "..") or path.is_symlink():
        return contained(base, path), path.resolve()
    return path, root / name


__all__ = ["PathEscapeError", "contained", "contained_child", "safe_slug"]
