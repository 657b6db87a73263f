"""The prose that tells an agent what to ask ("ask which payment the customer means; the
merchant is enough"), read the way the reference agent turns it into its question: the
clause after the asking verb, without what the prose says to do next, and whether the ask
is a read-back the user confirms."""

from __future__ import annotations

import re

from .. import phrase

#: An asking verb and the clause it asks ("ask which payment they mean" → `which payment
#: they mean`), after an optional object and "in one (short) question".
ASK_CLAUSE = phrase(
    "en.asking_prose.ask_clause",
    r"\b(?:ask(?:s)?|find\s+out|work\s+out|check|confirm|establish|get|collect|"
    r"clarify|request)\b(?:\s+(?:the\s+\w+|them|him|her))?"
    r"(?:\s+(?:in|with)\s+one\s+(?:short\s+)?(?:question|message))?\s+"
    r"(?P<clause>(?:which|what|whether|if|how|for|who|when|where)\b[^.;:?!]*)",
    re.IGNORECASE,
    matches=(
        "Ask which payment the customer means.",
        "Find out whether they still have the receipt",
        "Ask them in one short question what the delivery address is",
    ),
    misses=("Ask the customer to wait.", "Tell them which payment failed."),
)
#: What an ask clause goes on to say the agent does next ("…, and record it", "before
#: calling", "then …"): cut off, it is no part of the question.
ASK_TAIL = phrase(
    "en.asking_prose.tail",
    r",?\s+(?:and\s+(?:record|set|save|store|write|check|verify|call|use)\b|in\s+one\s+message"
    r"|before\b|then\b).*$",
    re.IGNORECASE,
    matches=(
        "which payment they mean, and record it",
        "what the address is before calling the courier",
        "when they moved then look it up",
    ),
    misses=("which payment they mean", "whether the card and the account match"),
)
#: The agent repeats the details for the user to confirm: "read them back", "all correct",
#: "when they confirm" (what was shown), never "when they confirm success" (their report of
#: how something they did went).
READ_BACK = phrase(
    "en.asking_prose.read_back",
    r"\bread(?:s|ing)?\s+(?:it\s+|them\s+|everything\s+|the\s+[\w ]{1,40}?)?back\b|"
    r"\b(?:all\s+)?correct\b|"
    r"\bwhen\s+they\s+confirm(?:\s+(?:it|them|the\s+(?:details|summary|draft)))?(?![\s\w])",
    re.I,
    matches=(
        "Read the new address back to them.",
        "Ask whether it is all correct",
        "Set it when they confirm the summary.",
    ),
    misses=("Set it when they confirm success", "Ask for the new address."),
)
#: "for the booking reference" as an ask clause: the lead "for (the)" is no part of the
#: question ("Could you tell me booking reference…" reads it without it).
FOR_LEAD = phrase(
    "en.asking_prose.for_lead",
    r"^for\s+(?:the\s+)?",
    re.I,
    matches=("for the booking reference", "For their postcode"),
    misses=("which booking it is for", "forward address"),
)
