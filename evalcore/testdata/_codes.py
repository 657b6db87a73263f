"""An id that embeds a code of the project's data embeds the case's own.

A baggage report reference is "airport code + SK + five digits (BOSSK12345)": drawn from
that example, a case about a passenger who flew to Lisbon would name a Boston report,
which no correct agent finds on her trip. Where an id's first three letters are a value
the project's data holds under some key (`BOS` as a segment's `to`) and the case's own
records hold other values under that key, the id embeds the last of the case's (`LIS`,
where her trip ends): `LISSK12345`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from ._records import DataRecords

_HEAD = re.compile(r"(?P<code>[A-Z]{3})(?P<rest>[A-Z]{0,3}\d{3,})")


def _leaves(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """(key, text) of every scalar text of a record, nested lists and objects included."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield from _leaves(v, str(k))
    elif isinstance(value, list):
        for item in value:
            yield from _leaves(item, key)
    elif isinstance(value, str):
        yield key, value.strip()


def own_code(value: Any, records: DataRecords, held: list[Mapping[str, Any]]) -> Any:
    """`value` (an id) with the code it opens with replaced by the case's own under the
    same key (see module doc); as it is where the code is no data value, the case's
    records already hold it, or they hold nothing under its key."""
    found = _HEAD.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        return value
    code = found["code"]
    keys = {k for c in records.collections for r in c.records for k, v in _leaves(r) if v == code}
    if not keys:
        return value
    mine = [v for r in held for k, v in _leaves(r) if k in keys and re.fullmatch(r"[A-Z]{3}", v)]
    if not mine or code in mine:
        return value
    return mine[-1] + found["rest"]


__all__ = ["own_code"]
