"""How a project's own text states a range of ids (`evalcore.testdata._listed`):
"ORD100 to ORD120", "ORD100–120", "T-101 through T-120". The ids in the range
are the ones the project's backend knows, so a case draws from them, never invents one."""

from __future__ import annotations

from .. import phrase

#: A range of ids: a prefix and digits, a word or dash between, and the end's digits (its
#: prefix again or not).
ID_RANGE = phrase(
    "en.id_ranges.range",
    r"\b(?P<prefix>[A-Z][A-Z_-]*?)(?P<start>\d{2,})\s*"
    r"(?:to|through|thru|until|–|—|-|\.\.)\s*"
    r"(?:(?P<again>[A-Z][A-Z_-]*?)(?=\d))?(?P<end>\d{2,})\b",
    matches=("Orders ORD100 through ORD120 exist", "Seats B10–20", "T-101 to T-120"),
    misses=("ORD-100 and ORD-120", "orders 100 through 120"),
)
