"""The description example a case opens with names the caller's own record, not another's.

A refill skill's description quotes "refill prescription 6104428", "I'm almost out of my
inhaler" and "refill my mom's lisinopril": a case whose caller holds an albuterol inhaler
opens with the inhaler, never with another patient's prescription number or medicine,
which a correct agent would find the caller does not have. A word names a record where it
is one of the record's own (a drug's words, its number) and not one every record of the
file shares (`tablet`, `active`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from evalcore.testdata import DataRecords, record_name

#: A word of a record value that can name it: four letters or more, or a number of four
#: digits or more.
_WORD = re.compile(r"[a-z]{4,}|\d{4,}")


def _words(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {w for v in value.values() for w in _words(v)}
    if isinstance(value, list):
        return {w for v in value for w in _words(v)}
    if isinstance(value, bool) or value is None:
        return set()
    return set(_WORD.findall(str(value).lower()))


def named_records(
    records: DataRecords, held: dict[str, dict[str, Any]]
) -> tuple[set[str], set[str]]:
    """(the words that name the case's held records, the words that name the other records
    of the same files and none of the case's)."""
    own: set[str] = set()
    others: set[str] = set()
    for collection in records.collections:
        mine = held.get(collection.name)
        if mine is None or len(collection.records) < 2:
            continue
        each = [_words(r) for r in collection.records]
        shared = set.intersection(*each)
        own |= _words(mine) - shared
        others |= {
            w for r, ws in zip(collection.records, each, strict=True) if r is not mine for w in ws
        }
        others -= shared
    return own, others - own


def own_example(
    candidates: list[str],
    records: DataRecords,
    held: dict[str, dict[str, Any]],
    fits: Callable[[str], bool],
    current: str,
) -> str:
    """`current` (the case's opening phrase), or instead the first of `candidates` (the
    description's phrasings that route to the skill) that `fits` and names a record the
    case holds and none of another's, where `current` names none of the case's."""
    own, others = named_records(records, held)
    if not own:
        return current

    def says(line: str) -> tuple[bool, bool]:
        words = set(_WORD.findall(line.lower()))
        return bool(words & own), bool(words & others)

    if says(current)[0]:
        return current
    for line in candidates:
        if line != current and fits(line) and says(line) == (True, False):
            return line
    return current


def example_record(
    records: DataRecords, held: dict[str, dict[str, Any]], linked: dict[str, str], line: str
) -> tuple[str, dict[str, Any]] | None:
    """(file name, record) of the one record `line` (an example the case may open with:
    "page the ledger on-call") names by a word only that record of its file has
    (`ledger` of `ledger-worker`, the value that names it), in a file of things (not of
    people) the case holds no record of and among the
    records the case may hold (`owned`: never another person's claim); None where it names
    none, or more than one. The case then holds it, so its facts are that record's (the
    team that owns the service it pages for), the ones the opening names."""
    said = set(_WORD.findall(line.lower()))
    found: list[tuple[str, dict[str, Any]]] = []
    for collection in records.collections:
        if collection.name in held or len(collection.records) < 2:
            continue
        if any(record_name(r) for r in collection.records):
            continue  # a person the example names ("swap with Arjun") is not the case's record
        each = [_words(r) for r in collection.records]
        for index, record in enumerate(collection.records):
            rest = set().union(*(ws for i, ws in enumerate(each) if i != index))
            # by the word of what names it (its first value: `ledger-worker`), never by a
            # state it is in (`cancelled`)
            if said & (_words(next(iter(record.values()), None)) - rest):
                found.append((collection.name, record))
    if len(found) != 1:
        return None
    name, record = found[0]
    collection = next(c for c in records.collections if c.name == name)
    owned = records.owned(collection.records, linked)
    return found[0] if any(r is record for r in owned) else None


__all__ = ["example_record", "named_records", "own_example"]
