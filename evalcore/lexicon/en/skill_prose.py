"""Phrases of a skill's own prose that fix something in so many words: an argument a calling
sentence sets ("call @tool.page with urgent set to true" passes that value, whatever the model
would choose), where a value comes from, what a list marks, and a question the agent skips
when the user already answered it (the planner never hangs a request for a person on one)."""

from __future__ import annotations

import re

from .. import phrase

#: One argument a calling sentence sets to a literal (`param`, `value`: true, false, a
#: number or a quoted text).
ARGUMENT_SET = phrase(
    "en.skill.argument_set",
    r"\bwith\s+`?(?P<param>[a-z_][a-z0-9_]*)`?\s+(?:set\s+to|=)\s+"
    r"`?(?P<value>true|false|-?\d+(?:\.\d+)?|\"[^\"]*\")`?",
    re.I,
    matches=(
        "then call @tool.page_safety_officer with urgent set to true.",
        "Call @tool.open_ticket with `priority` = 2.",
        'call @tool.route with queue set to "billing"',
    ),
    misses=(
        "Call @tool.page_safety_officer with a one-line summary for the officer.",
        "Set urgent to true.",
    ),
)

#: "set coworker_id to its employee_id": the field takes a key of the record a lookup
#: returned (`field`, `key`).
RECORD_KEY = phrase(
    "en.prose.record_key",
    r"\bset\s+`?(?P<field>\w+)`?\s+to\s+its\s+`?(?P<key>[a-z]\w*)",
    re.I,
    matches=(
        "If find_coworker returned exactly one match, set coworker_id to its employee_id.",
        "set `ticket_id` to its `id`",
    ),
    misses=("Set coworker_id from the answer.", "set mode to track"),
)

#: "the tool marks which ones they can take": a list that holds items this user may not
#: pick (`verb`: what they do with one).
MARKED_PICKS = phrase(
    "en.prose.marked_picks",
    r"\bwhich\s+(?:ones?|of\s+them)\s+(?:they|the\s+(?:user|caller|customer))\s+can\s+"
    r"(?P<verb>[a-z]+)",
    re.I,
    matches=(
        "Opening shifts need a certification; the tool marks which ones they can take.",
        "it flags which of them the caller can book",
    ),
    misses=("Ask which one they want.", "show which ones are open"),
)

#: "If they already told you what happened, keep it and do not ask again": `what` names
#: the question.
KEPT_IF_TOLD = phrase(
    "en.skill_prose.kept_if_told",
    r"\balready\s+(?:told|said|gave|described)\s+(?:you\s+)?(?P<what>[^,.;]+?)\s*,"
    r"[^.]*\b(?:do not|don't|never)\s+ask\b[^.]*\bagain\b",
    re.I,
    matches=(
        "If they already told you what happened, keep it and do not ask again.",
        "If the caller already gave the address, never ask for it again.",
    ),
    misses=(
        "Ask what happened.",
        "If they already told you what happened, read it back.",
    ),
)

__all__ = ["KEPT_IF_TOLD"]
