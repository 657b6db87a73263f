"""What casegen reads in a person's direction for a suite ("an impatient customer with a
cracked chip; assert card_replace completes and the reason is never asked twice"): where a
requirement starts, the lead-in of a request for cases, who the persona is, which clause is
about the case rather than the person."""

from __future__ import annotations

import re

from .. import phrase

_REQUIREMENT_WORD = r"(?:assert|check|make\s+sure|ensure|verify|expect)"

#: A clause that states a requirement, and the words that open it (removed to leave its
#: body).
REQUIREMENT_START = phrase(
    "en.case_directions.requirement_start",
    r"^(?:and\s+|then\s+|but\s+|also\s+)*" + _REQUIREMENT_WORD + r"(?:s|ed|ing)?\b"
    r"(?:\s+that\b)?\s*",
    re.I,
    matches=("assert that the card is ordered", "and then make sure it asks once"),
    misses=("a customer who checks twice", "the agent verifies the id"),
)
#: Where a clause splits before a requirement word introduced by "and", "then", "but" or a
#: comma ("a calm customer, and assert it completes").
BEFORE_REQUIREMENT = phrase(
    "en.case_directions.before_requirement",
    r"(?:,\s*|\s+)(?:and|then|but)\s+(?=" + _REQUIREMENT_WORD + r"\b)"
    r"|,\s*(?=" + _REQUIREMENT_WORD + r"\b)",
    re.I,
    matches=("a calm customer and assert it completes", "a calm customer, ensure it ends"),
    misses=("a calm customer and a cracked chip", "assert it completes"),
)
#: The lead-in of a request for cases ("generate a case where ..."; `casegen mutate`'s "a
#: case that fails when ..."), removed so that what follows reads as the direction.
LEAD_IN = phrase(
    "en.case_directions.lead_in",
    r"^(?:please\s+)?(?:generate|write|create|draft|make|add)\s+(?:me\s+)?"
    r"(?:a|an|one|some|two|three|\d+)?\s*(?:new\s+)?(?:scenario|case|test|conversation)s?"
    r"(?:\s+(?:where|in\s+which|for|with|about|of|in))?\s*"
    # `casegen mutate`'s suggestion: "a case that fails when the agent ..." (the case's
    # failing is what it is for, not a failure the person asks to see)
    r"|^(?:a|an|one)\s+(?:scenario|case|test)\s+(?:that|which)\s+(?:fails|catches\s+it)"
    r"\s+(?:when|if)\s+",
    re.I,
    matches=("Please write two cases where the card is lost", "a case that fails when it skips"),
    misses=("a customer who lost the card", "the case is about refunds"),
)
#: The nouns a persona clause names its person with.
WHO = (
    r"customer|user|caller|client|person|member|patient|visitor|buyer|shopper|traveller|"
    r"traveler|student|parent|owner|tenant|guest|account\s+holder|cardholder"
)
#: A persona clause: an article, up to four describing words, the person noun, the rest.
PERSONA = phrase(
    "en.case_directions.persona",
    rf"^(?:(?P<article>a|an|the|one)\s+)?(?P<adjectives>(?:[\w'-]+\s+){{0,4}}?)"
    rf"(?P<noun>{WHO})\b(?P<rest>.*)$",
    re.I,
    matches=("an impatient customer with a cracked chip", "elderly account holder"),
    misses=("the card is cracked", "a customs officer"),
)
#: A persona clause's rest that already attaches to the noun ("with a cracked chip"), so no
#: "who" goes before it.
RELATIVE = phrase(
    "en.case_directions.relative",
    r"^(?:who|whose|with|without|that|from|in|on|at|whom|and|,|of|living|calling|writing)\b",
    re.I,
    matches=("with a cracked chip", "calling from abroad"),
    misses=("lost the card", "withdraws cash"),
)
#: Where a requirement splits at "and" ("it completes and that the reason is asked once").
AND_SPLIT = phrase(
    "en.case_directions.and_split",
    r"\s*,?\s+and\s+(?:that\s+)?",
    re.I,
    matches=("it completes and that the reason is asked once", "it ends, and it is polite"),
    misses=("it completes", "it lands on the island"),
)
#: A requirement piece that opens with "where"/"in which" left over from a lead-in.
WHERE_LEAD = phrase(
    "en.case_directions.where_lead",
    r"^(?:where|in\s+which)\s+",
    re.I,
    matches=("where the card is lost", "in which the agent refuses"),
    misses=("the card is lost where it fell", "whereas it is lost"),
)
#: A persona clause already in the second person (group 1: what follows "you are").
YOU_ARE = phrase(
    "en.case_directions.you_are",
    r"^(?:you\s+are|you're)\s+(.*)$",
    re.I,
    matches=("you are in a hurry", "You're a new customer"),
    misses=("an impatient customer", "if you are new"),
)
#: A clause about the case or the agent, not about the person (rule 4 of a direction).
ABOUT_THE_CASE = phrase(
    "en.case_directions.about_the_case",
    r"^(?:(?:an?|one|more|some|the|another)\s+)?(?:case|scenario|test|suite|conversation)s?\b"
    r"|\bthe agent\b",
    re.I,
    matches=("more cases about refunds", "the agent is slow to answer"),
    misses=("an impatient customer", "a cased watch"),
)
