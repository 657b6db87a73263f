"""What a written case says in words: a criterion's negation, vague praise, a second check
joined by "and", an event named in prose ("calls lookup_order"); a persona that tells the
user what the agent should do; a fact sheet's word on refusing; a task that writes files."""

from __future__ import annotations

import re

from .. import phrase

#: A negation in a criterion's clause ("does not call", "never offers").
NEGATION = phrase(
    "en.case_wording.negation",
    r"\b(?:not|never|no|without|nor|neither|doesn't|don't|didn't|isn't|aren't|won't|cannot|"
    r"can't|avoids?)\b",
    re.IGNORECASE,
    matches=("The agent does not call refund.", "It never offers a discount."),
    misses=("The agent calls refund.", "Notes the order number."),
)
#: A tool named as called in prose ("calls `lookup_order`"): the tool id.
CALLS_TOOL = phrase(
    "en.case_wording.calls_tool",
    r"\b(?:calls?|called|invokes?|invoked|executes?|executed|runs?)\s+(?:the\s+)?"
    r"`?([a-z][a-z0-9]*_[a-z0-9_]+)`?",
    matches=("The agent calls `lookup_order`.", "runs the check_stock tool"),
    misses=("The agent calls the customer.", "Calls lookup_order"),
)
#: A memory key named as set in prose ("sets order.status"): the key.
SETS_KEY = phrase(
    "en.case_wording.sets_key",
    r"\bsets?\s+(?:the\s+)?`?([a-z][a-z0-9_]*\.[a-z0-9_.]+)`?",
    matches=("The agent sets `order.status`.", "set the claim.amount"),
    misses=("The agent sets the status.", "settles order.status"),
)
#: A skill named as activated in prose ("activates the refund skill").
ACTIVATES_SKILL = phrase(
    "en.case_wording.activates_skill",
    r"\bactivat(?:e|es|ed)\b[^.;]*\bskill\b",
    re.IGNORECASE,
    matches=("The agent activates the refund skill.",),
    misses=("The agent activates the card.", "The skill is activated."),
)
#: Praise a judge cannot check ("responds appropriately", "is helpful"); not "as well", not
#: a compound ("good-faith").
VAGUE = phrase(
    "en.case_wording.vague",
    r"\b(appropriate(?:ly)?|proper(?:ly)?|good|helpful(?:ly)?|correct(?:ly)?|(?<!as )well"
    r"|nice(?:ly)?|adequate(?:ly)?|reasonabl[ey]|satisfactor(?:y|ily)|suitabl[ey]"
    r"|sensibl[ey]|effective(?:ly)?)\b(?![-])",
    re.IGNORECASE,
    matches=("The agent responds appropriately.", "The answer is helpful."),
    misses=("The agent names the refund amount as well.", "It acts in good-faith."),
)
_SUBJECT = r"(?:it|they|he|she|the\s+(?:agent|bot|assistant))"
_VERB = (
    r"asks|tells|says|offers|confirms|calls|sends|gives|names|mentions|explains|hands|moves"
    r"|books|records|saves|stops|ends|refuses|declines|apologi[sz]es|escalates|keeps|addresses"
    r"|uses|avoids|reads|lists|shows|repeats|cancels|reschedules|blocks|orders|places|checks"
    r"|verifies|greets|thanks|transfers|answers|responds|replies|provides|informs|suggests"
    r"|requests|collects|waits|invents|claims|promises|pushes|treats|stays|does|doesn't|never"
    r"|always|only|also|then"
)
#: Who a criterion's check is about ("the agent", "it").
SUBJECT = phrase(
    "en.case_wording.subject",
    _SUBJECT,
    re.IGNORECASE,
    matches=("The agent asks for the date.", "it confirms"),
    misses=("A customer asks for a card.",),
)
#: A second check joined on ("... and then confirms ...", "... but never offers ...").
AND_CLAUSE = phrase(
    "en.case_wording.and_clause",
    rf"\s(?:and|but)\s+(?:then\s+|also\s+)?(?:{_SUBJECT}\s+)?(?:{_VERB})\b",
    re.IGNORECASE,
    matches=("The agent asks for the date and then confirms it.", "It books but never charges."),
    misses=("The agent asks for the date and time.",),
)
#: The joining word a split-off check starts with ("and then confirms it").
AND_LEAD = phrase(
    "en.case_wording.and_lead",
    r"^(?:and|but)\s+(?:then\s+|also\s+)?",
    re.I,
    matches=("and then confirms it", "But also names the fee"),
    misses=("android app", "then confirms it"),
)
#: A persona that says what the agent should do or what the case checks.
OUTCOME = phrase(
    "en.case_wording.outcome",
    r"\bthe\s+(?:agent|bot|assistant)\s+(?:should|must|has\s+to|needs\s+to|is\s+expected\s+to)\b"
    r"|\bexpected(?:\s+(?:outcome|result|behaviou?r))?\b|\bexpects?\s+the\s+(?:agent|bot)\b"
    r"|\bassert(?:s|ion|ions)?\b|\bthis\s+(?:scenario|case|test)\s+(?:tests|checks|verifies)\b"
    r"|\b(?:passes|fails)\s+(?:if|when)\b",
    re.IGNORECASE,
    matches=("The agent should offer a refund.", "This case checks the refusal."),
    misses=("You want a refund for the broken kettle.", "You expect a call back."),
)
#: A fact sheet's word on the read-back ("asks you to confirm, decline"): the answer.
CONFIRM_ANSWER = phrase(
    "en.case_wording.confirm_answer",
    r"asks you to confirm,\s*(?P<answer>agree|decline)",
    re.I,
    matches=("When the agent asks you to confirm, decline.",),
    misses=("When the agent asks you to confirm the date, say it.",),
)
#: A persona or title that refuses or changes its mind.
REFUSAL = phrase(
    "en.case_wording.refusal",
    r"declin|refus|reject|\bdenie|\bdeny|says?\s+no\b|chang\w*\s+(?:\w+\s+)?mind|don't\s+order"
    r"|no[_-]confirm",
    re.IGNORECASE,
    matches=("user declines the order", "changes their mind", "no_confirm"),
    misses=("user confirms the order", "says nothing new"),
)
#: A task that writes something to the workspace ("create", "set up", "fix").
WRITES = phrase(
    "en.case_wording.writes",
    r"\b(?:create|add|write|make|generate|update|edit|modify|implement|build|scaffold|set\s+up"
    r"|rename|refactor|fix)\b",
    re.IGNORECASE,
    matches=("Create a login page.", "Set up the deploy script."),
    misses=("Explain how login works.", "Which files are built?"),
)
#: A case about booking (its title or tags).
BOOKING = phrase(
    "en.case_wording.booking",
    r"\bbook(?:s|ing|ed)?\b",
    re.IGNORECASE,
    matches=("Booking a cleaning", "books a slot"),
    misses=("Cancel a visit", "bookkeeping question"),
)


def _event_verbs(
    kind: str, verbs: str, matches: tuple[str, ...], misses: tuple[str, ...]
) -> re.Pattern[str]:
    return phrase(
        f"en.case_wording.event_verbs.{kind}",
        rf"\b(?:{verbs})\b",
        re.IGNORECASE,
        matches=matches,
        misses=misses,
    )


#: Verbs that make a named id of each kind (tool, skill, memory key, ...) an event lookup
#: in a criterion ("calls lookup_order", "sets order.status", "hands off to billing").
EVENT_VERBS = {
    "tool": _event_verbs(
        "tool",
        r"call(?:s|ed|ing)?|runs?|ran|running|execut(?:e|es|ed|ing)|invok(?:e|es|ed|ing)"
        r"|trigger(?:s|ed)?|fir(?:e|es|ed)|us(?:e|es|ed|ing)|look(?:s|ed)?\s+up|quer(?:y|ies|ied)",
        ("The agent calls lookup_order.", "It looks up the order."),
        ("The agent names lookup_order.",),
    ),
    "skill": _event_verbs(
        "skill",
        r"activat(?:e|es|ed|ing)|start(?:s|ed)?|complet(?:e|es|ed)|finish(?:es|ed)?"
        r"|hands?\s+(?:off|over)|rout(?:e|es|ed)|enter(?:s|ed)?|cancel(?:s|led|ed)?",
        ("The agent activates the refund skill.", "It hands off to billing."),
        ("The agent names the refund skill.",),
    ),
    "block": _event_verbs(
        "block",
        r"enter(?:s|ed)?|complet(?:e|es|ed)|finish(?:es|ed)?|run(?:s)?|ran",
        ("The agent enters the checkout block.",),
        ("The agent names the checkout block.",),
    ),
    "memory": _event_verbs(
        "memory",
        r"set(?:s)?|record(?:s|ed)?|sav(?:e|es|ed)|stor(?:e|es|ed)|writ(?:e|es|ten)"
        r"|fill(?:s|ed)?|updat(?:e|es|ed)|clear(?:s|ed)?",
        ("The agent sets order.status.", "It records the address."),
        ("The agent reads order.status.",),
    ),
    "field": _event_verbs(
        "field",
        r"set(?:s)?|record(?:s|ed)?|sav(?:e|es|ed)|stor(?:e|es|ed)|writ(?:e|es|ten)"
        r"|fill(?:s|ed)?|updat(?:e|es|ed)",
        ("The agent updates the email field.",),
        ("The agent clears the email field.",),
    ),
    "playbook": _event_verbs(
        "playbook",
        r"hands?\s+off|switch(?:es|ed)?|ends?\s+(?:up\s+)?in|stays?\s+in|activ(?:e|ates)"
        r"|mov(?:e|es|ed)\s+to",
        ("The chat hands off to billing.", "It moves to the reschedule playbook."),
        ("The chat mentions billing.",),
    ),
    "outcome": _event_verbs(
        "outcome",
        r"record(?:s|ed)?|reach(?:es|ed)?|set(?:s)?",
        ("The chat reaches booked.",),
        ("The chat mentions booked.",),
    ),
}
