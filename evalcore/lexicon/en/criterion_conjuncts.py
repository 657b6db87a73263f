"""How a criterion joins its parts: a second clause is a second check, but a conjunct with
no verb of its own ("… to the car policy and never to the home policy") is the same check
with another object, and cutting it off leaves a fragment ("The agent never to the home
policy")."""

from __future__ import annotations

import re

from .. import phrase

#: A joined part that reuses the verb before it: an adverb, then a preposition or an
#: article where a verb would be ("and never to the home policy", "but not for the fee").
ELLIPTICAL = phrase(
    "en.criterion_conjuncts.elliptical",
    r"^(?:and|but|or)\s+(?:then\s+|also\s+)?(?:never|always|only|not)\s+"
    r"(?:to|for|with|on|in|at|about|from|into|by|of|the|a|an|any|its|their|this|that)\b",
    re.IGNORECASE,
    matches=("and never to the home policy for this claim", "but not for the delivery fee"),
    misses=("and never guesses it", "and then asks for the name", "but never offers a refund"),
)

__all__ = ["ELLIPTICAL"]
