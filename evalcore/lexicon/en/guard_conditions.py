"""How a skill's prose makes a step conditional, as the Mantle justifier reads it to decide
whether a case's run must take the step: a permission ("may", "if needed"), a guard clause
("if ...", "unless ..."), a guard on what the user has not said yet, the field a guard clause
tests by name; and the case context line that makes such a guard hold (the user shares
facts only when asked)."""

from __future__ import annotations

import re

from .. import phrase

#: A word that leaves a step to the agent's judgement.
PERMISSIVE = phrase(
    "en.guard_conditions.permissive",
    r"\b(may|might|optionally|optional|if needed|if necessary|if appropriate|"
    r"if relevant|feel free)\b",
    re.I,
    matches=("You may offer a discount.", "Ask for the reference if needed."),
    misses=("Always ask for the reference.", "Call the tool maybe twice."),
)
#: A guard word and the clause it opens (`clause`: up to the next `,`, `;`, `:` or sentence
#: end; a dot inside a dotted name stays in). "even if" is no guard.
GUARD = phrase(
    "en.guard_conditions.guard",
    r"(?<!even )\b(if|when|whenever|unless|only if|in case)\b"
    r"(?P<clause>(?:[^,.;:]|\.(?=\w))*)",
    re.I,
    matches=("If the card is lost, block it.", "Unless session.card.kind is set, ask."),
    misses=("Block the card even if it is found.", "Then block the card."),
)
#: A guard on what the user has not said yet ("If the customer did not say which account").
NOT_SAID = phrase(
    "en.guard_conditions.not_said",
    r"\b(?:did not|didn't|has not|hasn't|have not|haven't|does not|doesn't)\s+"
    r"(?:yet\s+)?(?:say|said|tell|told|give|given|mention|mentioned|provide|provided|share|shared)\b",
    re.I,
    matches=("if the customer did not say which account", "if they haven't yet given it"),
    misses=("if the customer said which account", "if the card did not arrive"),
)
#: A case context whose user shares facts only when asked (so a "not said yet" guard holds).
ONLY_WHEN_ASKED = phrase(
    "en.guard_conditions.only_when_asked",
    r"only when (?:the agent|they|it|someone) asks?\b",
    re.I,
    matches=("Share these facts only when the agent asks.", "only when they ask for it"),
    misses=("Share these facts when asked.", "only when the agent answers"),
)
#: The bare subject of a guard clause ("when checked is True"; group 1: the word), read on
#: the clause after its guard word.
CLAUSE_SUBJECT = phrase(
    "en.guard_conditions.clause_subject",
    r"^\s*(?:the\s+)?([a-z][a-z0-9]*)\s+(?:is|are|was|==)\b",
    matches=(" checked is True", " the order was shipped"),
    misses=(" a new card arrives", " Checked is True"),
)
