"""A month the caller has on record: the answer to "which month do you want to review?" when
the project's data files hold the caller's dated amounts (bills, statements, usage).

A month the backend has no record for makes a lookup come back empty, so the case takes one
of the caller's own months; where the user's request says how the amount looks ("my bill looks
high"), the month is one that fits it (above the caller's average for "high", below it for
"low"); else the month the skill's text names, when it is on record, or the latest.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from ..lexicon.en.user_line_words import AMOUNT_HIGH as HIGH
from ..lexicon.en.user_line_words import AMOUNT_LOW as LOW
from ._records import DataRecords

_FORMATS = ("%m/%d/%Y", "%Y-%m-%d", "%d.%m.%Y", "%Y-%m")


def _date(value: Any) -> date | None:
    if not isinstance(value, str):
        return None
    for shape in _FORMATS:
        try:
            return datetime.strptime(value.strip(), shape).date()
        except ValueError:
            continue
    return None


def _amount(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def dated_amounts(records: DataRecords, skill: str | None = None) -> list[tuple[date, float]]:
    """(date, amount) of the caller's records (`DataRecords.owned`) in the files open to
    `skill`: each record with one date and one number."""
    out: list[tuple[date, float]] = []
    for collection in records.collections:
        owners = records.readers.get(collection.name)
        if skill is not None and owners is not None and skill not in owners:
            continue
        for record in records.owned(collection.records):
            dates = [d for d in map(_date, record.values()) if d is not None]
            amounts = [a for a in map(_amount, record.values()) if a is not None]
            if len(dates) == 1 and len(amounts) == 1:
                out.append((dates[0], amounts[0]))
    return out


def month_on_record(
    records: DataRecords, request: str, named: str | None = None, skill: str | None = None
) -> str | None:
    """The month (`January`) the case asks about: see the module doc. `request`: the user's
    words for what they want; `named`: the month the skill's text gives as its example.
    None where the caller has no dated amounts on record."""
    rows = dated_amounts(records, skill)
    if not rows:
        return None
    words = f" {' '.join(request.lower().split())} "
    mean = sum(a for _, a in rows) / len(rows)
    if any(f" {w} " in words for w in HIGH):
        fits = [r for r in rows if r[1] > mean] or rows
        chosen = max(fits, key=lambda r: (r[1], r[0]))
    elif any(f" {w} " in words for w in LOW):
        fits = [r for r in rows if r[1] < mean] or rows
        chosen = min(fits, key=lambda r: (r[1], r[0]))
    else:
        months = {d.strftime("%B").lower(): (d, a) for d, a in rows}
        chosen = months.get((named or "").lower()) or max(rows)
    return chosen[0].strftime("%B")


__all__ = ["HIGH", "LOW", "dated_amounts", "month_on_record"]
