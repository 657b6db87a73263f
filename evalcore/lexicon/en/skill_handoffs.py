"""Words by which a skill's name, description or tools say it hands the conversation to a
person ("transfer to a human agent", "escalate to a supervisor"), and the words that tell
an escalation to someone from an escalation to the next step of a fix."""

from __future__ import annotations

import re

from .. import phrase

#: Hand-off wording: handoff, human agent, live person, escalate, transfer to a human.
HANDOFF_WORDS = phrase(
    "en.skill_handoffs.words",
    r"hand[\s_-]?(?:off|over)|human[\s_-]?(?:agent|representative|operator|support)"
    r"|live[\s_-]?(?:agent|person|support)|escalat|transfer[\s_-]?to[\s_-]?(?:a[\s_-]?)?"
    r"(?:human|agent|person|representative)",
    re.IGNORECASE,
    matches=(
        "Transfer to a human agent when they ask for one.",
        "escalate_to_supervisor",
        "Hand off to live support.",
    ),
    misses=("Look up the order status.", "Transfer funds between accounts."),
)
#: "escalating to <what>" (read where the hand-off word starts): `<what>` is the one to
#: four words after it.
ESCALATED_TO = phrase(
    "en.skill_handoffs.escalated_to",
    r"escalat\w*\s+(?:to|into)\s+((?:\S+\s+){0,3}\S+)",
    re.IGNORECASE,
    matches=("escalating to a full device restart", "Escalate to the duty manager."),
    misses=("escalation", "Escalate it."),
)
#: The words that make the thing escalated to a person ("a supervisor", "the team").
SOMEONE = phrase(
    "en.skill_handoffs.someone",
    r"\b(?:human|person|people|someone|agent|specialist|team|supervisor|manager|staff|"
    r"representative|colleague|operator|officer|expert|advisor|adviser|lead)s?\b",
    re.IGNORECASE,
    matches=("the duty manager", "a billing specialist"),
    misses=("a full device restart", "the next agenda item"),
)
