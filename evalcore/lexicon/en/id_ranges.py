"""How a project's own text states a range of ids (`evalcore.testdata._listed`):
"CLAIM1234 to CLAIM1238", "CLAIM1234–1238", "R-101 through R-120". The ids in the range
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
    matches=("Claims CLAIM1234 through CLAIM1238 exist", "Seats A10–20", "R-101 to R-120"),
    misses=("RTR-100 and RTR-120", "claims 1234 through 1238"),
)
