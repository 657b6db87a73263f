"""How skill prose names its user in the third person ("the customer", "their", "they"),
read so that the agent can say it to the user in the second person ("which payment the
customer means" → "which payment you mean")."""

from __future__ import annotations

import re

from .. import phrase

_PEOPLE = (
    r"the\s+(?:customer|caller|user|patient|guest|member|tenant|employee|requester|"
    r"policyholder|traveller|traveler|exec|executive|engineer|client|resident|staff\s+member)"
)

#: The user's, in the third person: "the customer's", "their", "his or her" (→ "your").
POSSESSIVE = phrase(
    "en.user_mentions.possessive",
    rf"\b{_PEOPLE}'s\b|\btheir\b|\bhis or her\b",
    re.I,
    matches=("the customer's order", "their card", "his or her account"),
    misses=("the order", "theirs", "the store's hours"),
)
#: The user, in the third person: "the caller", "they", "them" (→ "you").
PERSON = phrase(
    "en.user_mentions.person",
    rf"\b{_PEOPLE}\b|\bthey\b|\bthem\b",
    re.I,
    matches=("which payment the customer means", "what they need", "ask them"),
    misses=("which payment you mean", "the theme", "the store"),
)
#: "you" before a third-person verb, once the person became "you" ("you means" → "you
#: mean"); case-sensitive, as the replaced words are written lower-case.
THIRD_PERSON_VERB = phrase(
    "en.user_mentions.third_person_verb",
    r"\byou (is|has|does|wants|needs|means)\b",
    matches=("which payment you means", "what you needs for it", "whether you is the owner"),
    misses=("which payment you mean", "you issued it", "You means"),
)
