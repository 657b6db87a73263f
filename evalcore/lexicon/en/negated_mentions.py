"""A mention of a value that the word just before it negates ("not lost", "never
delivered", "isn't broken"): a reading that looks for a value's words in a message must not
take such a mention for the value."""

from __future__ import annotations

import re

from .. import phrase

#: The few characters before a mention end in a negation (searched on that stretch alone).
WORD_BEFORE = phrase(
    "en.negated_mentions.word_before",
    r"(?:\bnot|\bno|n't|\bnever)\s+$",
    re.I,
    matches=("it was not ", "it's no ", "it isn't ", "I never "),
    misses=("the note ", "it was ", "not yet"),
)
