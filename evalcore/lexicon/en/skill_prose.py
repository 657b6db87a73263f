"""What a skill's prose says to the agent, read where casegen keeps a criterion or an
assertion to what the definitions fix: a sentence about what the user already said, a
quoted example, a thing the agent is told to state, what a tool asks for itself, and a
thing an option does not have."""

from __future__ import annotations

import re

from .. import phrase

ALREADY = phrase(
    "en.prose.already",
    r"\balready\b",
    re.I,
    matches=("If the customer already told you why, record it in @memory.x.reason.",),
    misses=("Ask why they want a new card.",),
)
QUOTED_EXAMPLE = phrase(
    "en.prose.quoted_example",
    r"\s*\((?:e\.g\.,?\s*|for example,?\s*)?[\"“]([^\"”]*)[\"”]\)",
    matches=(
        'say the last scan in plain words ("it was loaded in Chicago at 14:10")',
        'give the date (e.g. "12/06")',
    ),
    misses=("say the last scan in plain words", "set the date (MM/DD/YYYY)"),
)
STATES_THE = phrase(
    "en.prose.states_the",
    r"\b(?:says?|states?|quotes?|gives?|names?)\s+the\s+(\w+)",
    re.I,
    matches=("the agent says the fee before they confirm", "gives the reservation number"),
    misses=("the agent asks which method", "say so once"),
)
ASKS_FOR_THE = phrase(
    "en.prose.asks_for_the",
    r"\basks?\s+for\s+(the\s+[\w-]+)",
    re.I,
    matches=("The tool reads the summary back and asks for the go-ahead itself",),
    misses=("Ask which policy the loss is on",),
)
FREE_OR_NONE = phrase(
    "en.prose.free_or_none",
    r"\b(?:free|no\s+([a-z]+?))s?\b",
    re.I,
    matches=("bank (ACH) payments are free", "debit cards have no fee"),
    misses=("card payments have a 2.9% fee",),
)
