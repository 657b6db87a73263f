"""The signed-in person a case's session seeds: one record of the project's people, whose own
fields give every seeded fact about them.

A channel that knows who is talking seeds several fields about that one person
(`employee_id`, `store_id`, `role`; `resident_id`, `unit`, `lease_holder`). Drawn one by one,
each from whichever file its name matches best, they describe nobody: a partner number of
one employee with another's store, a barista seeded as a shift lead. So the case takes one
record of the people file the first seeded id names, among those that agree with what the
case's seeds already fix (a precondition's `role: shift_lead`), and every other seeded field
that record holds (`store_id` from its `home_store`) comes from it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .._sha256 import sha256
from ..lexicon.en.field_name_words import SHAPE_WORDS as _SHAPE
from ._records import ROLE_PREFIXES, Collection, DataRecords, in_standing, record_name
from ._rng import case_rng


def _words(name: str) -> list[str]:
    return [w for w in re.split(r"[_\W]+", name.lower()) if w]


def _core(name: str, drop: frozenset[str]) -> tuple[str, ...]:
    words = _words(name)
    return tuple(w for w in words if w not in drop) or tuple(words)


def own_key(record: Mapping[str, Any], field_name: str, collection: str = "") -> str | None:
    """The key of `record` that holds `field_name`: the same name (`unit`), the field less
    the file's noun (`engineer_handle` of an engineer's `handle`), or the same thing once
    shape words and a role prefix are set aside (`store_id` and `home_store`, `is_sre` and
    `sre`); None where the record holds no such key."""
    if field_name in record:
        return field_name
    noun = collection.lower().removesuffix("s")
    wanted = _core(field_name, _SHAPE | {noun})
    for key in record:
        if _core(key, _SHAPE | ROLE_PREFIXES | {noun}) == wanted:
            return key
    return None


def people_of(records: DataRecords, field_names: Iterable[str]) -> Collection | None:
    """The people file a session's seeded ids name: the first field matching a collection
    whose records are people (they carry a person's name)."""
    for name in field_names:
        found = records.match(name)
        if found is None:
            continue
        collection = found[0]
        if collection.records and record_name(collection.records[0]):
            return collection
    return None


def _agrees(record: Mapping[str, Any], fixed: Mapping[str, Any]) -> bool:
    """Whether every value `fixed` (field name -> seeded value) that the record also holds
    is the record's own."""
    for name, value in fixed.items():
        key = own_key(record, name)
        if key is None:
            continue
        held = record[key]
        if isinstance(held, list | dict) or held is None:
            continue
        if str(held).strip().lower() != str(value).strip().lower():
            return False
    return True


def _lists(record: Mapping[str, Any], values: frozenset[str]) -> bool:
    """Whether one of the record's lists holds one of `values`."""
    return any(
        isinstance(v, list) and any(str(item) in values for item in v) for v in record.values()
    )


def session_person(
    records: DataRecords,
    collection: Collection,
    fixed: Mapping[str, Any],
    key: str,
    slot: int | None = None,
    skill: str | None = None,
    prefer: frozenset[str] = frozenset(),
    fits: Callable[[dict[str, Any]], int] | None = None,
) -> dict[str, Any]:
    """The case's signed-in person of `collection`: one of the caller's own records
    (`DataRecords.owned`) that agrees with the `fixed` seeds where any does, in good
    standing where any is (`in_standing`: the sign-in turns an inactive account away, and
    the case never gets past it), whose record lists one of the case's fixed choices
    (`prefer`: `trained_on: [confocal]` for a case that books the confocal, where a gate
    checks the list) where any does, and, with
    `skill`, who holds their own record in each file the skill's tools read by their id
    (`DataRecords.owns_all`) where anyone does; dealt in turn by `slot` (the case's place
    among its skill's cases), else chosen stably by `key`. With `fits` (a record's score for
    the case's branch: whose records hold the branch's value), those that score best."""
    own = records.owned(collection.records)
    pool = [r for r in own if _agrees(r, fixed)] or own
    pool = [r for r in pool if in_standing(r)] or pool
    if fits is not None and pool:
        scores = [fits(r) for r in pool]
        pool = [r for r, score in zip(pool, scores, strict=True) if score == max(scores)]
    pool = [r for r in pool if _lists(r, prefer)] or pool
    if skill is not None:
        pool = [r for r in pool if records.owns_all(r, skill)] or pool
    if slot is None:
        return pool[case_rng(key, "person").randrange(len(pool))]
    start = int(sha256(collection.name.encode()).hexdigest()[:8], 16)
    return pool[(start + slot) % len(pool)]


__all__ = ["own_key", "people_of", "session_person"]
