"""Phrases of a skill's own prose that say where a value comes from or what a list marks."""

from __future__ import annotations

import re

from .. import phrase

#: "set coworker_id to its employee_id": the field takes a key of the record a lookup
#: returned (`field`, `key`).
RECORD_KEY = phrase(
    "en.prose.record_key",
    r"\bset\s+`?(?P<field>\w+)`?\s+to\s+its\s+`?(?P<key>[a-z]\w*)",
    re.I,
    matches=(
        "If find_coworker returned exactly one match, set coworker_id to its employee_id.",
        "set `ticket_id` to its `id`",
    ),
    misses=("Set coworker_id from the answer.", "set mode to track"),
)

#: "the tool marks which ones they can take": a list that holds items this user may not
#: pick (`verb`: what they do with one).
MARKED_PICKS = phrase(
    "en.prose.marked_picks",
    r"\bwhich\s+(?:ones?|of\s+them)\s+(?:they|the\s+(?:user|caller|customer))\s+can\s+"
    r"(?P<verb>[a-z]+)",
    re.I,
    matches=(
        "Opening shifts need a certification; the tool marks which ones they can take.",
        "it flags which of them the caller can book",
    ),
    misses=("Ask which one they want.", "show which ones are open"),
)
