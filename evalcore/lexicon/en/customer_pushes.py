"""What the offline Anychat drafter reads to write a customer's own words: the one question a
hint that asks two makes ("whether my bike is ready or how the repair is going" → "is my bike
ready?"), the thing a person calls theirs ("my bike"), and what a guardrail's push names
concretely — a day for a rule about promising one, a price for a rule about quoting one,
a named person for a rule about telling what another member has.

These read definitions written in English (activation hints, guardrails); the person's lines
they shape are in `agentflows.drafting.offline._anychat_script`."""

from __future__ import annotations

import re

from .. import phrase

#: Where a hint's question offers a second question ("whether it is ready| or how it goes"):
#: a person texts one.
ALTERNATIVE_QUESTION = phrase(
    "en.customer_pushes.alternative_question",
    r"\s+or\s+(?=(?:how|what|when|where|whether|if|why|which)\b)",
    re.I,
    matches=("whether my bike is ready or how the repair is going", "if it is open or when"),
    misses=("whether my bike or my scooter is ready", "how the repair is going"),
)
#: A clause after "whether" or "how" (subject, verb, rest): said as the question itself
#: ("my bike is ready" → "is my bike ready?", "my repair is going" → "how is my repair going?").
YES_NO_CLAUSE = phrase(
    "en.customer_pushes.yes_no_clause",
    r"^(?P<subject>(?:my|our|the) [\w' -]+?) (?P<verb>is|are|has|have|was|were|can|will)"
    r" (?P<rest>.+)$",
    re.I,
    matches=("my bike is ready", "my returned tool has been checked in"),
    misses=("the repair goes well", "is my bike ready"),
)
#: What a person calls theirs in a line ("my bike", group 1: the noun).
POSSESSED = phrase(
    "en.customer_pushes.possessed",
    r"\bmy ((?!own\b|other\b)[a-z][\w-]*)",
    re.I,
    matches=("Hi, is my bike ready?", "move my appointment to another day"),
    misses=("Can I bring it in?", "my own"),
)
#: The whole thing a person calls theirs at the end of a line ("can you promise it will come
#: out of my silk dress?" → "silk dress"): what a push about the same rule names.
OWNED_THING = phrase(
    "en.customer_pushes.owned_thing",
    r"\b(?:of|on|for|to|with|from|in) my ((?!own\b|other\b)(?:[a-z][\w-]* ){0,2}[a-z][\w-]*)"
    r"(?=[?.!,]|$)",
    re.I,
    matches=("Can you promise it will come out of my silk dress?", "a price for my bike?"),
    misses=("Is my bike ready?", "Can I bring it in?", "a price for my own bike and a helmet"),
)
#: Someone other than the person a rule protects ("what another member has borrowed").
OTHER_PERSON = phrase(
    "en.customer_pushes.other_person",
    r"\banother [a-z]+(?='s\b| (?:has|had|is|was|did|owes)\b)|\bother [a-z]+s'|"
    r"\bsomeone else(?:'s)?\b",
    re.I,
    matches=("what another member has borrowed", "other customers' orders", "someone else's"),
    misses=("another day", "the member's own loans", "book another time"),
)
#: A rule about what something costs ("quote a repair price"): the push names the thing.
PRICE_WORD = phrase(
    "en.customer_pushes.price_word",
    r"\b(?:prices?|quotes?|costs?|estimates?)\b",
    re.I,
    matches=("quote a repair price", "give a cost estimate"),
    misses=("waive a fine", "waive a late fee", "promise a pick-up day"),
)
#: A forbidden thing that is a day or a time ("a pick-up day that ...", group `noun`): the
#: push names a day of its own.
DAY_OBJECT = phrase(
    "en.customer_pushes.day_object",
    r"^(?:an?|the|any)\s+(?P<noun>(?:[\w-]+ )?(?:day|date|time|deadline))\b",
    re.I,
    matches=("a pick-up day that the tool did not return", "a date"),
    misses=("a refund", "the daytime menu"),
)
#: A relative clause after the forbidden thing ("a day| that the tool did not return").
RELATIVE_TAIL = phrase(
    "en.customer_pushes.relative_tail",
    r"\s+(?:that|which)\b.*$",
    re.I,
    matches=("a pick-up day that the tool did not return",),
    misses=("a pick-up day", "that day"),
)
#: A verb whose person comes after "with" ("share X with me", not "share me X").
WITH_ME_VERB = phrase(
    "en.customer_pushes.with_me_verb",
    r"^(?:share|discuss)$",
    re.I,
    matches=("share", "Discuss"),
    misses=("give", "shared"),
)
