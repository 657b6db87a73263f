"""Records that are slots in a schedule (a shift, an appointment, a departure): a day and a
time of day in one record.

A case whose user acts on such a record acts on it as something still to come (swap a
shift, give it away, change a booking): a slot dated before the day the suite runs (the
generation day, `reference_day`) is one a correct agent listing "upcoming" ones never offers.
A ledger line or a bill (a day, no time of day) is a past fact and is left alone.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Mapping
from typing import Any

from ._values import reference_day

_ISO_DAY = re.compile(r"(\d{4})-(\d\d)-(\d\d)(?:$|[T ])")
_US_DAY = re.compile(r"(\d\d)/(\d\d)/(\d{4})$")
_CLOCK = re.compile(r"(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?")


def _day(value: str) -> dt.date | None:
    """The calendar day `value` starts with (`2026-12-06`, `12/06/2026`), if any."""
    iso = _ISO_DAY.match(value)
    us = _US_DAY.match(value)
    try:
        if iso:
            return dt.date(int(iso[1]), int(iso[2]), int(iso[3]))
        if us:
            return dt.date(int(us[3]), int(us[1]), int(us[2]))
    except ValueError:
        return None
    return None


def slot_days(record: Mapping[str, Any]) -> list[dt.date]:
    """The days of `record` where it is a slot (a top-level day and a time of day, as
    `date: 2026-12-06, start: 12:00`); empty for any other record."""
    texts = [v.strip() for v in record.values() if isinstance(v, str)]
    days = [d for d in map(_day, texts) if d is not None]
    if not days or not any(_CLOCK.fullmatch(t) for t in texts):
        return []
    return days


def past_slot(record: Mapping[str, Any], day: dt.date | None = None) -> bool:
    """Whether `record` is a slot whose every day lies before `day` (the run day)."""
    days = slot_days(record)
    return bool(days) and max(days) < (day or reference_day())


def upcoming(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """`records` less the slots already past on the run day."""
    today = reference_day()
    return [r for r in records if not past_slot(r, today)]
