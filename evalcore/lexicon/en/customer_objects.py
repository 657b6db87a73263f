"""What a customer's own line names where the definitions name a set: one thing of a listed
set ("their posters or flyers" → "my posters", "frames, canvas or photo albums" → "my photo
album"), whose thing a rule that keeps records private protects ("to anyone other than the
customer who placed it": someone else's), and what a question-answering
body answers outright (its opening hours, its prices).

A person asks for one thing; a line that pastes a definition's list reads as a template.
The lines these shape are in `agentflows.drafting.offline._anychat_script`."""

from __future__ import annotations

import re

from .. import phrase

_PREPOSITION = r"(?:for|to|at|in|on|from|with|by)\b"

#: Alternatives a hint lists as the person's ("their posters or flyers"): group
#: `first` is the one a person names; the rest runs up to a preposition or the end.
OWNED_ALTERNATIVES = phrase(
    "en.customer_objects.owned_alternatives",
    r"\b(?P<first>(?:my|their|his|her|our) [\w-]+(?: (?!or\b)[\w-]+)?) or "
    rf"(?!{_PREPOSITION})[\w-]+(?: (?!{_PREPOSITION})[\w-]+){{0,2}}",
    re.I,
    matches=(
        "print their posters or flyers for an event",
        "bring my bike or scooter in",
    ),
    misses=("bring my bike in for a repair or a service", "my bike is ready"),
)
#: A plural noun phrase of a list ("photo albums"): a countable thing a person owns one of.
PLURAL_ITEM = phrase(
    "en.customer_objects.plural_item",
    r"^(?:[a-z]+ )?[a-z]*[^siua\W]s$",
    re.I,
    matches=("photo albums", "frames"),
    misses=("vinyl", "a diagnosis", "glass", "canvas"),
)
#: The exception that names the owner of what a rule keeps private ("show a print job| to
#: anyone other than the customer who placed it"): the push comes from someone else, about
#: the owner's thing.
OWNER_EXCEPTION = phrase(
    "en.customer_objects.owner_exception",
    r"\s+(?:with|to)\s+(?:anyone|anybody|someone|people)\s+(?:but|other than|except)\b.*$",
    re.I,
    matches=(
        "show a print job to anyone other than the customer who placed it",
        "give an account to anybody other than its holder",
    ),
    misses=("share the proofs with me", "tell anyone what another renter has hired"),
)
#: The first thing a rule's object names with an indefinite article ("the proofs of |a job|"): the
#: owner's one, said as theirs.
INDEFINITE_THING = phrase(
    "en.customer_objects.indefinite_thing",
    r"\b(?:a|an)\s+(?P<noun>[a-z][\w-]*)",
    re.I,
    matches=("the proofs of a job", "a booking"),
    misses=("the proofs of the job", "another renter"),
)
#: An amount of money in a body ("$20", "£12", "15 EUR"): the body answers what things cost.
PRICE_AMOUNT = phrase(
    "en.customer_objects.price_amount",
    r"[$€£]\s?\d|\b\d+(?:[.,]\d{2})?\s?(?:USD|EUR|GBP|dollars|euros|pounds)\b",
    matches=("Business cards: $20 per hundred", "frames from £12", "costs 12 euros"),
    misses=("Open 7:00-19:00", "ticket A-2291", "2 bags of laundry"),
)
#: A phrase that follows the last thing of a list ("discounts| with customers"): not part of
#: the thing a person asks for.
TRAILING_PHRASE = phrase(
    "en.customer_objects.trailing_phrase",
    r"\s+(?:with|to|for|from|about|in|on|at|of|before|after)\s+.*$",
    re.I,
    matches=("discounts with customers", "refunds to anyone"),
    misses=("spa treatments", "a price quote"),
)
