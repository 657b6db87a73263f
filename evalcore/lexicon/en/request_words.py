"""Words of what a user asks about and what they hold, as the drafter reads them to word a
user's request and a detail: a subject that states a situation ("the card is lost"), a month
phrase a request carries, a field that says what kind of person the user is, the words of a
detail that only say its shape ("the four-digit PIN")."""

from __future__ import annotations

import re

from .. import phrase

#: A subject that states a situation ("the card is lost"), not a thing to help with.
STATES = phrase(
    "en.request_words.states",
    r"\b(?:is|are|was|were|has|have)\b",
    matches=("the card is lost", "the parcels have not arrived"),
    misses=("a lost card", "this isle"),
)
#: A month a request names ("… for last March", "… in May 2026"): the drafter's date
#: replaces it.
MONTH = phrase(
    "en.request_words.month",
    r"\s+(?:for|in|from|of|since)\s+(?:last\s+|this\s+|next\s+)?(?:January|February|March|"
    r"April|May|June|July|August|September|October|November|December)(?:\s+\d{4})?\b",
    matches=("the statement for last March", "charges in May 2026"),
    misses=("the statement for march", "charges may apply"),
)
#: A seeded field that says what kind of person the user is (not a channel or a flag).
WHO_FIELD = phrase(
    "en.request_words.who_field",
    r"role|(?:account|user|caller|customer|member)_?type",
    re.I,
    matches=("role", "account_type", "memberType"),
    misses=("channel", "account_id"),
)
#: Words of an identity detail that say its shape, not what it is ("the four-digit PIN").
SHAPE_WORDS = phrase(
    "en.request_words.shape_words",
    r"^(?:the|a|an|their|your|his|her|its|\w+-digit|digits?|one|two|three|four|five|six|"
    r"seven|eight|nine|ten|\d+)$",
    matches=("four-digit", "the", "6"),
    misses=("PIN", "four-digit PIN"),
)
