"""Values derived from loaded definitions, computed once per definitions object.

A loaded project is read, never changed, by lint, planning, drafting and review, so what
they derive from it (every memory entry by qualified name, a field's choices, a skill's
asked fields) can be kept with the object instead of being rebuilt for every case. The
memo is keyed by the object's identity and dropped with it (a weak reference), so a
project loaded again gets fresh values.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

T = TypeVar("T")

_MEMOS: dict[int, tuple[weakref.ref[Any], dict[Hashable, Any]]] = {}


def memo_of(owner: object) -> dict[Hashable, Any]:
    """The memo dictionary of `owner` (created empty on first use)."""
    key = id(owner)
    entry = _MEMOS.get(key)
    if entry is None or entry[0]() is not owner:
        entry = (weakref.ref(owner, functools.partial(_drop, _MEMOS, key)), {})
        _MEMOS[key] = entry
    return entry[1]


def _drop(
    memos: dict[int, tuple[weakref.ref[Any], dict[Hashable, Any]]], key: int, ref: Any
) -> None:
    """Forget a dead owner's memo, unless its id already belongs to a newer owner's memo.
    The callback holds this function and the table itself: at interpreter exit the module's
    globals may be gone before the last callbacks run."""
    entry = memos.get(key)
    if entry is not None and entry[0] is ref:
        del memos[key]


def memoized(owner: object, key: Hashable, build: Callable[[], T]) -> T:
    """`build()` the first time `key` is asked of `owner`, the kept value afterwards."""
    entry = _MEMOS.get(id(owner))  # `memo_of`'s lookup inline: planning asks thousands of times
    memo = entry[1] if entry is not None and entry[0]() is owner else memo_of(owner)
    try:
        return memo[key]  # type: ignore[no-any-return]
    except KeyError:
        value = memo[key] = build()
        return value
