"""Date masks a field's description spells (`MM/DD/YYYY`, `DD.MM.YYYY`, `E.164`, `ISO 8601`):
the shape of a value, written in format letters, not words."""

from __future__ import annotations

import re

from .. import phrase

#: The masks a drawn date is written in, one each (case-insensitive, as descriptions vary).
MM_DD_YYYY = phrase(
    "notation.date_masks.mm_dd_yyyy",
    r"\bMM/DD/YYYY\b",
    re.I,
    matches=("Date of birth (MM/DD/YYYY)", "format mm/dd/yyyy"),
    misses=("Date of birth (DD/MM/YYYY)", "MM-DD-YYYY"),
)
DD_MM_YYYY = phrase(
    "notation.date_masks.dd_mm_yyyy",
    r"\bDD/MM/YYYY\b",
    re.I,
    matches=("Travel date (DD/MM/YYYY)",),
    misses=("Travel date (MM/DD/YYYY)", "DD.MM.YYYY"),
)
DD_DOT_MM_YYYY = phrase(
    "notation.date_masks.dd_dot_mm_yyyy",
    r"\bDD\.MM\.YYYY\b",
    re.I,
    matches=("Start date as DD.MM.YYYY",),
    misses=("Start date as DD/MM/YYYY", "DD-MM-YYYY"),
)
DD_DASH_MM_YYYY = phrase(
    "notation.date_masks.dd_dash_mm_yyyy",
    r"\bDD-MM-YYYY\b",
    re.I,
    matches=("Start date as DD-MM-YYYY",),
    misses=("Start date as MM-DD-YYYY", "DD.MM.YYYY"),
)
MM_DASH_DD_YYYY = phrase(
    "notation.date_masks.mm_dash_dd_yyyy",
    r"\bMM-DD-YYYY\b",
    re.I,
    matches=("End date (MM-DD-YYYY)",),
    misses=("End date (DD-MM-YYYY)", "MM/DD/YYYY"),
)
MM_YYYY = phrase(
    "notation.date_masks.mm_yyyy",
    r"\bMM/YYYY\b",
    re.I,
    matches=("Card expiry (MM/YYYY)",),
    misses=("Card expiry (MM/YY)", "MM-YYYY"),
)
#: Any mask a description gives a value's shape with: date and time letters joined by
#: separators, a phone number's E.164, or ISO 8601.
FORMAT_MASK = phrase(
    "notation.date_masks.format_mask",
    r"\b(?:MM|DD|YYYY|YY|HH)(?:[/.\-: ](?:MM|DD|YYYY|YY|HH|mm|ss)){1,4}\b"
    r"|\bE\.164\b|\bISO[ -]?8601\b",
    matches=("Date (YYYY-MM-DD)", "Time as HH:mm", "phone in E.164", "an ISO 8601 date"),
    misses=("Date of the visit", "a YYYY year", "mm/dd/yyyy"),
)
