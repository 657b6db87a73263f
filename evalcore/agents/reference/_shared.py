"""What every play of one loaded project shares: built once per `Project` object.

Verification plays each draft against the reference agent and the mutants on its path, a
fresh engine per play. The parts of a play that depend on the definitions only (a skill's
classified prose, the project's data records) are the same for every play of that project,
so they are built on first use and kept per loaded object. A changed project is a new
`Project` object (`_target.load` reads it again), so it gets its own entries; the kept
values are never handed out to be changed (callers get copies where they could change them).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

_KEPT: dict[tuple[str, int, Hashable], tuple[object, Any]] = {}
#: Loaded projects kept at once; a long session that loads many drops the oldest.
_MAX_OWNERS = 32


def once(kind: str, owner: object, key: Hashable, build: Callable[[], T]) -> T:
    """`build()` once per (`kind`, `owner` object, `key`)."""
    slot = (kind, id(owner), key)
    kept = _KEPT.get(slot)
    if kept is None or kept[0] is not owner:
        owners = {k[1] for k in _KEPT}
        if len(owners) >= _MAX_OWNERS and id(owner) not in owners:
            _KEPT.clear()
        kept = _KEPT[slot] = (owner, build())
    return kept[1]


def clear() -> None:
    """Forget every kept value (tests)."""
    _KEPT.clear()


__all__ = ["clear", "once"]
