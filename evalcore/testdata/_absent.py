"""Whether the case's records say the caller has none of a thing.

A passenger whose booking lists no loyalty number (`"skymiles": null`) holds no loyalty
tier, and a bag whose row says `"report": null` has no report reference: a case that
seeds such a caller as `gold`, or gives them a report reference drawn to the field's shape,
plays a caller the project's own data contradicts, and a correct agent that reads the record
follows the record. The case's records are those it holds (the caller's booking), the caller's
own entry nested in them (their passenger row, by their name; other people's rows are not
theirs), and the rows of other files that carry an id those hold (the booking's bag in the
bag file). A file that has the key in some rows says "none" by a null or by leaving it out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from ..lexicon.en.field_name_words import ID_TAILS as _ID_TAILS
from ._records import DataRecords

#: Values of a choice that say the person has none of it (`loyalty_tier: none`).
NONE_VALUES = frozenset({"none", "no", "null", "unknown", "n/a", "not_applicable"})
_WORD = re.compile(r"[a-z0-9]+")


@dataclass(frozen=True)
class Absence:
    """What the records say of the thing: `held` is False where each row that could hold it
    holds none (`where` names one such row), True where one holds a value."""

    held: bool
    where: str


def _empty(value: Any) -> bool:
    return value is None or (isinstance(value, str | list | dict) and not value)


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float) and not isinstance(value, bool)


def _id_like(value: Any) -> bool:
    text = str(value).strip()
    return (
        _scalar(value)
        and any(c.isdigit() for c in text)
        and any(c.isalpha() for c in text)
        and len(text) >= 4
    )


def thing_keys(field_name: str, description: str = "") -> frozenset[str]:
    """The record keys that hold the field's thing: its name, its name without an id's
    last word (`report` for `report_id`), and, with a description, each word of it the
    description names as a proper noun or a compound (`SkyMiles` for a loyalty tier)."""
    name = field_name.lower()
    keys = {name}
    head, _, tail = name.rpartition("_")
    if head and tail in _ID_TAILS:
        keys.add(head)
    for word in re.findall(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b", description):
        keys.add(word.lower())  # `SkyMiles`: a programme, not a common word
    return frozenset(keys)


def _names_person(record: Mapping[str, Any], person: str) -> bool:
    words = set(_WORD.findall(person.lower()))
    said = {w for v in record.values() if isinstance(v, str) for w in _WORD.findall(v.lower())}
    return len(words) >= 2 and words <= said


def _people_rows(items: list[Any]) -> bool:
    """Rows of people (a booking's passengers): each has a first or last name."""
    return all(
        isinstance(item, Mapping) and any("first" in k or "last" in k for k in item)
        for item in items
    )


def case_rows(
    records: DataRecords, held: Iterable[Mapping[str, Any]], person: str
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """(file, row) for each row the case's records are made of (see module doc)."""
    held = list(held)
    ids: set[str] = set()
    for record in held:
        name = next(
            (c.name for c in records.collections if any(r is record for r in c.records)), ""
        )
        yield name, record
        for key, value in record.items():
            items = value if isinstance(value, list) else [value]
            if _id_like(value):
                ids.add(str(value).strip().lower())
            people = bool(items) and _people_rows(items)
            for item in items:
                if isinstance(item, Mapping) and (not people or _names_person(item, person)):
                    yield f"{name}.{key}", item
                elif _id_like(item):
                    ids.add(str(item).strip().lower())
    for collection in records.collections:
        for record in collection.records:
            if any(record is h for h in held):
                continue
            values = {str(v).strip().lower() for v in record.values() if _scalar(v)}
            if values & ids:
                yield collection.name, record


def recorded(
    records: DataRecords,
    held: Iterable[Mapping[str, Any]],
    person: str,
    field_name: str,
    description: str = "",
) -> Absence | None:
    """What the case's rows say of the field's thing (see `Absence`), or None where no row
    of theirs is of a file that has it."""
    keys = thing_keys(field_name, description)
    known = {
        c.name: {k for r in c.records for k in r if k.lower() in keys} for c in records.collections
    }
    empty: str | None = None
    for where, row in case_rows(records, held, person):
        own = {k for k in row if k.lower() in keys}
        top = where.split(".", 1)[0]
        if not own and not known.get(top):
            continue
        if not own and "." in where:
            continue  # a nested row without the key: not one of the file's rows
        values = [row.get(k) for k in own] or [None]
        if any(isinstance(v, bool) for v in values):
            return None  # a flag (`has_pets: false`) says yes or no, not what is held
        if any(not _empty(v) for v in values):
            return Absence(True, where)
        if empty is None:
            label = next(iter(sorted(own)), next(iter(sorted(known.get(top) or keys))))
            empty = f"{where}: {label} none"
    return Absence(False, empty) if empty is not None else None


__all__ = ["NONE_VALUES", "Absence", "case_rows", "recorded", "thing_keys"]
