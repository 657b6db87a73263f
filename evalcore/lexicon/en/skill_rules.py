"""The sentences of a skill's prose that forbid the agent to say something ("Never read out
the full card number", "Do not promise a refund date"): a rule every correct agent keeps in
every conversation, as opposed to how it works (a tool to call, a confirmation in its own
words)."""

from __future__ import annotations

import re

from .. import phrase

#: A prohibition: never, do not, must not, under no circumstances, not allowed.
RULE = phrase(
    "en.skill_rules.prohibition",
    r"\b(never|do\s+not|don't|must\s+not|under\s+no\s+circumstances|not\s+allowed)\b",
    re.I,
    matches=("Never read out the full card number.", "You must not promise a date."),
    misses=("Read the total back to them.", "Confirm the address."),
)
#: A prohibition of saying or promising something (a verb of telling within three words).
DISCLOSE = phrase(
    "en.skill_rules.disclose",
    r"\b(?:never|not|under\s+no\s+circumstances)\s+(?:\w+\s+){0,3}?"
    r"(disclose|reveal|share|read\s+out|say|tell|give|show|expose|mention|repeat|spell|"
    r"confirm\s+which|promise|guarantee|invent|make\s+up|advise|recommend|diagnos)\w*",
    re.I,
    matches=("Never read out the full card number.", "Do not promise a refund date."),
    misses=("Never call the refund tool twice.", "Tell them the total."),
)
#: How the agent works rather than what it may say: a tool, a confirmation in its own
#: words, an order taken again.
MECHANICS = phrase(
    "en.skill_rules.mechanics",
    r"@tool\.|\bconfirm(ation)?\b.*\bown\s+words\b|\border\s+again\b",
    re.I,
    matches=(
        "Never repeat the summary; confirm it in your own words.",
        "Never call @tool.refund twice.",
        "Do not read the order again.",
    ),
    misses=("Never read out the full card number.", "Do not promise a refund date."),
)
