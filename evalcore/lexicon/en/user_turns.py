"""What a user's message says of the user: that they do not have a thing the prose waits for
("I don't have my order number"), which a reading by words alone takes for having it."""

from __future__ import annotations

import re

from .. import phrase

#: A user saying they lack a thing (`thing`: the words after it, to be compared with the
#: thing the prose names).
LACKS = phrase(
    "en.user.lacks",
    r"\b(?:(?:do\s+not|don't|dont|did\s+not|didn't|have\s+not|haven't|can\s*not|can't|"
    r"never)\s+(?:have|got|get|know|remember|find|keep|kept)|have\s+no|without)\s+"
    r"(?:(?:the|my|an?|any|their|our)\s+)?(?P<thing>[a-z][\w' -]*)",
    re.I,
    matches=(
        "I don't have my order number, sorry.",
        "I have no order number.",
        "I can't find the order number anywhere.",
    ),
    misses=("My order number is R-20461877.", "I have an order number: R-20461877."),
)

__all__ = ["LACKS"]
