"""What a skill's description says a person asks for ("Activate when the customer asks
about claim status"), and the words that turn its third person into the user's own."""

from __future__ import annotations

import re

from .. import phrase

#: "Activate when ...", not "Do NOT activate for ..." (a skill it is not for).
ACTIVATE = phrase(
    "en.skill_requests.activate",
    r"(?<!not\s)(?<!n't\s)(?<!never\s)\bactivate\s+(?:only\s+)?(?P<how>when|if|for)\s+"
    r"(?P<rest>[^.;]+)",
    re.I,
    matches=("Activate when the customer asks about claim status.", "Activate for slow wifi."),
    misses=("Do not activate for billing questions.", "Activated cards work at once."),
)
#: The person a request clause starts with ("the customer wants ...", "they ask ...").
WHO = phrase(
    "en.skill_requests.who",
    r"^(?:the\s+)?(?:customer|user|caller|member|patient|employee|person|client|they|someone|"
    r"people|he|she)s?\s+",
    re.I,
    matches=("the customer wants a refund", "they ask about fees"),
    misses=("a refund for the customer", "theyre late"),
)
#: Where a first sentence's request ends ("... by claim number", ", compare it ...").
CUT = phrase(
    "en.skill_requests.cut",
    r"[,:;]|\s+(?:by|when|using|after|if|via|so that|-|–|—)\s+|\s+\(",
    matches=("Look up a claim by claim number", "Book a table, then confirm"),
    misses=("Look up the status of an existing claim",),
)
#: Other people in the plural or possessive, read as the one user ("customers", "a
#: customer's").
OTHERS = phrase(
    "en.skill_requests.others",
    r"\bcustomers\b|\busers\b|\bcallers\b|\bpeople\b|\ba customer's\b|\bthe user's\b|\bthe user\b",
    re.I,
    matches=("help customers reset a PIN", "check the user's order"),
    misses=("help the customer reset a PIN", "user-provided text"),
)
#: The customer as a subject with the verb after it ("they have seen").
SUBJECT_VERB = phrase(
    "en.skill_requests.subject_verb",
    r"\b(?P<who>the customer|they|he|she)\s+(?P<verb>[a-z']+)",
    re.I,
    matches=("payments the customer disagrees with", "they don't recognise"),
    misses=("payments I disagree with", "their payments"),
)
#: The customer's possessive ("the customer's card", "their card").
CUSTOMER_POSSESSIVE = phrase(
    "en.skill_requests.customer_possessive",
    r"\bthe customer's\b|\btheir\b",
    re.I,
    matches=("the customer's card", "their order"),
    misses=("the customer card", "theirs"),
)
#: The customer as an object ("connect the customer", "call them").
CUSTOMER_OBJECT = phrase(
    "en.skill_requests.customer_object",
    r"\bthe customer\b|\bthem\b|\bthey\b",
    re.I,
    matches=("connect the customer to sales", "call them back"),
    misses=("the customers", "themselves"),
)
#: An `or` that starts another condition ("leave feedback or after goodbye").
OR_CONDITION = phrase(
    "en.skill_requests.or_condition",
    r"\s+or\s+(?=(?:after|before|when|if|while|once)\b)",
    matches=("leave feedback or after goodbye",),
    misses=("leave feedback or a rating",),
)
#: Any possessive of the customer or the listener, said by the customer as "my".
ANY_POSSESSIVE = phrase(
    "en.skill_requests.any_possessive",
    r"\bthe customer's\b|\btheir\b|\byour\b",
    re.I,
    matches=("reset your PIN", "the customer's address"),
    misses=("reset yours", "the customer address"),
)
#: The customer or the listener as an object, said by the customer as "me".
ANY_OBJECT = phrase(
    "en.skill_requests.any_object",
    r"\bthe customer\b|\bthem\b|\bthey\b|\byou\b",
    re.I,
    matches=("connect you to an agent", "call the customer back"),
    misses=("your order", "the customers"),
)
#: A lead-in before listed example requests ("phrases like ...").
LIKE_LEAD = phrase(
    "en.skill_requests.like_lead",
    r"^(?:phrases|requests|things)\s+like\s+",
    matches=("phrases like 'where is my card'", "requests like a refund"),
    misses=("lost card phrases like these", "Phrases like these"),
)
#: A first word inflected as a description ("Reporting", "Books"), not an instruction.
INFLECTED = phrase(
    "en.skill_requests.inflected",
    r"(?:ing|ed|s)$",
    matches=("reporting", "books", "handled"),
    misses=("book", "connect"),
)
#: A cue in the first person that asks about something ("I only ask about ...").
ASKS_ABOUT = phrase(
    "en.skill_requests.asks_about",
    r"^I (only |just )?ask about\b",
    re.I,
    matches=("I ask about an existing request", "I only ask about fees"),
    misses=("I asked about fees", "They ask about fees"),
)
#: A cue in the first person that asks a question ("I ask whether ...").
ASKS_WHEN = phrase(
    "en.skill_requests.asks_when",
    r"^I (only |just )?ask (when|whether|if|what|how|why|who|where)\b",
    re.I,
    matches=("I ask whether my card shipped", "I just ask how long it takes"),
    misses=("I ask about fees", "I asked when it ships"),
)
