"""What every play of one loaded project shares: built once per `Project` object.

Verification plays each draft against the reference agent and the mutants on its path, a
fresh engine per play. The parts of a play that depend on the definitions only (a skill's
classified prose, the project's data records) are the same for every play of that project,
so they are built on first use and kept per loaded object. A changed project is a new
`Project` object (`_target.load` reads it again), so it gets its own entries; the kept
values are never handed out to be changed (callers get copies where they could change them).

A value is dropped with its owner (`definitions._memo`, a weak reference), so any number of
owners can be kept at once: a skill model per skill is an owner, and a cap on the owners
(emptying the table when one more came) rebuilt every skill's prose on every play of a
project with more skills than the cap. A value that holds its owner (the brain holds its
project) would keep the owner alive through the weak table, so those are kept in a small
table of the most recently used owners instead (`holds_owner=True`).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from ...definitions import memoized

T = TypeVar("T")

#: The first part of every memo key `once` uses (apart from other memos of the owner).
_SLOT = "reference-shared"
#: Owners whose values hold them, most recently used last; the oldest is dropped past the cap.
_HELD: OrderedDict[int, tuple[object, dict[tuple[str, Hashable], Any]]] = OrderedDict()
_MAX_HELD = 32
#: Incremented by `clear`, part of every weak key: values kept before a clear are not found.
_generation = 0


def once(
    kind: str, owner: object, key: Hashable, build: Callable[[], T], *, holds_owner: bool = False
) -> T:
    """`build()` once per (`kind`, `owner` object, `key`), kept while `owner` lives;
    `holds_owner`: the value refers to `owner` (kept for the last `_MAX_HELD` owners)."""
    if not holds_owner:
        return memoized(owner, (_SLOT, _generation, kind, key), build)
    held = _HELD.get(id(owner))
    if held is None or held[0] is not owner:
        held = _HELD[id(owner)] = (owner, {})
        while len(_HELD) > _MAX_HELD:
            _HELD.popitem(last=False)
    else:
        _HELD.move_to_end(id(owner))
    values = held[1]
    slot = (kind, key)
    if slot not in values:
        values[slot] = build()
    return values[slot]  # type: ignore[no-any-return]


def clear() -> None:
    """Forget every kept value (tests)."""
    global _generation
    _generation += 1
    _HELD.clear()


__all__ = ["clear", "once"]
