"""Limits a number keeps that the project's data records: the chosen record's `min_`/`max_`
columns for the field (an instrument's `min_hours` and `max_hours` row of instruments.csv).

A case that books 11 hours on an instrument whose row says 8 at most asks a correct agent to
refuse; a case that means the happy path gives a number within the row's limits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ._records import DataRecords


def _limit_keys(name: str, side: str) -> tuple[str, ...]:
    """The column names of one side of a field's limit (`max_hours`, `hours_max`)."""
    word = {"min": ("min", "minimum"), "max": ("max", "maximum")}[side]
    return tuple(k for w in word for k in (f"{w}_{name}", f"{name}_{w}"))


def _number(value: Any) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def record_limits(
    records: DataRecords, name: str, said: Iterable[Any]
) -> tuple[float | None, float | None]:
    """(lowest, highest) the records a case names allow for the number field `name`: the
    `min_<name>`/`max_<name>` columns of each record one of whose values the case `said`
    (the instrument `confocal`), narrowed over all such records; (None, None) where none."""
    words = {str(v).strip().lower() for v in said if isinstance(v, str | int) and str(v).strip()}
    low: float | None = None
    high: float | None = None
    for collection in records.collections:
        for record in collection.records:
            lows = [_number(record[k]) for k in _limit_keys(name, "min") if k in record]
            highs = [_number(record[k]) for k in _limit_keys(name, "max") if k in record]
            if not (lows or highs):
                continue
            values = {str(v).strip().lower() for v in record.values() if isinstance(v, str)}
            if not values & words:
                continue
            for found in (n for n in lows if n is not None):
                low = found if low is None else max(low, found)
            for found in (n for n in highs if n is not None):
                high = found if high is None else min(high, found)
    return low, high


def within(value: float, low: float | None, high: float | None) -> float:
    """`value`, or one inside [low, high] it maps to where it falls outside (a draw of 11
    hours where the row allows 1 to 8 becomes 3): the same draw always gives the same
    number, and one already inside is kept."""
    if low is not None and high is not None and high < low:
        return value  # the records disagree: no number fits them all
    if (low is None or value >= low) and (high is None or value <= high):
        return value
    if low is None or high is None:
        return low if high is None and low is not None else high if high is not None else value
    span = high - low + 1
    return low + (value - low) % span if span > 1 else low


__all__ = ["record_limits", "within"]
