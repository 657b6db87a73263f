"""A detail one character off the record: how a case makes a check find no match.

A check tool compares the user's details with a data file's record (`p["zip"] ==
zip_code[:5]`, read with `ast` as `CodeFacts.compared`). A case whose path needs the check
to come back negative gives the caller's own details with one of them changed
(`changed_detail`: the last digit, so a date stays a date), and the check's code finds no
record. The reference agent's backend reads the same signature back (`one_detail_off`): the
details name one record and the changed one is a character away from that record's value,
so it answers as the code would (no match), where a detail said in another form (a date
spoken as `03/17/1984` for `1984-03-17`) still matches.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Mapping
from datetime import date, datetime
from typing import Any

from ._accounts import is_date
from ._records import DataRecords

_DIGIT = re.compile(r"\d")
#: Told details it takes to name a record (one alone is no record's to be a character off).
_NAMING = 2
_DATE_FORMS = ("%m/%d/%Y", "%d/%m/%Y", "%Y-%m-%d", "%m-%d-%Y", "%d.%m.%Y", "%Y/%m/%d")


def changed_detail(value: str) -> str | None:
    """`value` with its last digit changed (`02139` -> `02138`, `03/17/1984` ->
    `03/17/1983`), still a date where it was one; None for a value without digits (a name
    changed by a letter reads as a typo the agent may correct)."""
    digits = list(_DIGIT.finditer(value))
    if not digits:
        return None
    last = digits[-1]
    for step in (-1, 1):
        digit = str((int(last.group()) + step) % 10)
        changed = value[: last.start()] + digit + value[last.end() :]
        if not is_date(value) or is_date(changed):
            return changed
    return None


@functools.lru_cache(maxsize=4096)
def _dated(value: str) -> tuple[date, str] | None:
    """The day a numeric date names and the form it is written in. Kept per value: the
    reference agent's backend asks it of every record's values on each check call."""
    for form in _DATE_FORMS:
        try:
            return datetime.strptime(value.strip(), form).date(), form
        except ValueError:
            continue
    return None


def _day(value: str) -> date | None:
    dated = _dated(value)
    return dated[0] if dated else None


def _plain(value: Any) -> str:
    return re.sub(r"[^0-9a-z]", "", str(value).lower())


def _same(told: Any, held: Any) -> bool:
    """Whether a told detail is the record's value: equal but for case and punctuation, or
    the same day in another numeric form."""
    if _plain(told) == _plain(held):
        return True
    told_day, held_day = _day(str(told)), _day(str(held))
    return told_day is not None and told_day == held_day


def _one_off(told: Any, held: Any) -> bool:
    """Whether `told` differs from `held` in exactly one character (case and punctuation
    aside, the same length); two dates are compared in the form the told one is written in
    (`02/03/1978` is a character off `1979-02-03`)."""
    told_date, held_day = _dated(str(told)), _day(str(held))
    if told_date is not None and held_day is not None:
        held = held_day.strftime(told_date[1])
    a, b = _plain(told), _plain(held)
    return len(a) == len(b) and sum(x != y for x, y in zip(a, b, strict=True)) == 1


def one_detail_off(
    arguments: Mapping[str, Any],
    compared: Iterable[tuple[str, str]],
    records: DataRecords,
) -> bool:
    """Whether the told `arguments` are one record's details with exactly one of them a
    character off (`changed_detail`): `compared` pairs each argument the tool's code
    compares with the record key it compares it with; at least two of them must be told."""
    pairs = [(p, k) for p, k in compared if arguments.get(p) not in (None, "")]
    if len(pairs) < _NAMING:
        return False
    near = False
    for collection in records.collections:
        for record in collection.records:
            if not all(k in record for _, k in pairs):
                continue
            off = [(p, k) for p, k in pairs if not _same(arguments[p], record[k])]
            if not off:  # a record the details match: the check finds it
                return False
            near = near or (len(off) == 1 and _one_off(arguments[off[0][0]], record[off[0][1]]))
    return near


__all__ = ["changed_detail", "one_detail_off"]
