"""Phrases of a skill's own prose that fix something in so many words: an argument a calling
sentence sets ("call @tool.page with urgent set to true" passes that value, whatever the model
would choose), where a value comes from, what a list marks, a question the agent skips when
the user already answered it (the planner never hangs a request for a person on one); and what
casegen reads to keep a criterion or an assertion to what the definitions fix: a sentence
about what the user already said, a quoted example, a thing the agent is told to state, what a
tool asks for itself, and a thing an option does not have."""

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

ALREADY = phrase(
    "en.prose.already",
    r"\balready\b",
    re.I,
    matches=("If the customer already told you why, record it in @memory.x.reason.",),
    misses=("Ask why they want a new card.",),
)
KEEP_SAID = phrase(
    "en.prose.keep_said",
    r"\bkeep\s+(?:it|them|that|those|their\s+\w+)\b(?:\s+and)?\s+(?:do\s+not|don't|never)\s+ask\b",
    re.I,
    matches=("If they already told you what happened, keep it and do not ask again.",),
    misses=("Keep it short.", "Keep the receipts."),
)
QUOTED_EXAMPLE = phrase(
    "en.prose.quoted_example",
    r"\s*\((?:e\.g\.,?\s*|for example,?\s*)?[\"“]([^\"”]*)[\"”]\)",
    matches=(
        'say the last scan in plain words ("it was loaded in Chicago at 14:10")',
        'give the date (e.g. "12/06")',
    ),
    misses=("say the last scan in plain words", "set the date (MM/DD/YYYY)"),
)
STATES_THE = phrase(
    "en.prose.states_the",
    r"\b(?:says?|states?|quotes?|gives?|names?)\s+the\s+(\w+)",
    re.I,
    matches=("the agent says the fee before they confirm", "gives the reservation number"),
    misses=("the agent asks which method", "say so once"),
)
#: A field's description that says what the user wants ("What the customer needs for
#: their parcel."): how the agent asks for it, where the field's name ("mode") is no word a
#: person hears (`wh`, `verb`: needs or wants, `rest`).
WHAT_THE_USER_WANTS = phrase(
    "en.prose.what_the_user_wants",
    r"^(?P<wh>what|which)\s+the\s+[a-z]+\s+(?P<verb>needs|wants)\b(?P<rest>[^.;]*)",
    re.I,
    matches=(
        "What the customer needs for their parcel.",
        "What the member wants to do with a booking.",
    ),
    misses=("Why the customer needs another train.", "Kind of repair."),
)
ASKS_FOR_THE = phrase(
    "en.prose.asks_for_the",
    r"\basks?\s+for\s+(the\s+[\w-]+)",
    re.I,
    matches=("The tool reads the summary back and asks for the go-ahead itself",),
    misses=("Ask which policy the loss is on",),
)
FREE_OR_NONE = phrase(
    "en.prose.free_or_none",
    r"\b(?:free|no\s+([a-z]+?))s?\b",
    re.I,
    matches=("bank (ACH) payments are free", "debit cards have no fee"),
    misses=("card payments have a 2.9% fee",),
)
#: "the address on file", "their email on file": a thing of the caller's record a step
#: confirms (`thing`, one to three words after the determiner).
ON_FILE = phrase(
    "en.prose.on_file",
    r"\b(?:the|their|your|his|her)\s+(?P<thing>[a-z]+(?:\s+[a-z]+){0,2}?)\s+on\s+file\b",
    re.I,
    matches=(
        "True when the patient confirmed the address on file for delivery.",
        "Read their email on file back",
    ),
    misses=("Confirm the address they give", "file a report"),
)

#: A question the prose asks only where the user has not answered it ("Ask for the
#: environment and the version tag if they did not say").
UNLESS_SAID = phrase(
    "en.prose.unless_said",
    r"\b(?:if|unless)\s+(?:they|the\s+\w+)\s+(?:did\s+not|didn't|have\s+not|haven't|has\s+not"
    r"|hasn't|already)\s+(?:say|said|give|given|gave|mention|mentioned|told|tell)\b",
    re.I,
    matches=(
        "Ask for the environment and the version tag if they did not say.",
        "Ask for the date unless they already gave it.",
    ),
    misses=("Ask which window suits them and set callback_window.",),
)

#: A sentence that opens on the circumstance it holds in ("During office hours …", "After
#: hours, …"): two of them side by side are alternatives, of which one applies at a time.
CIRCUMSTANCE_OPENER = phrase(
    "en.prose.circumstance_opener",
    r"^\s*(?:during|after|before|outside|within|on\s+weekends|at\s+night)\b",
    re.I,
    matches=(
        "During office hours (Mon-Sat 9-6) the leasing office can let them in with ID.",
        "After hours, the on-call lockout service costs $75.",
    ),
    misses=("Say you could not find that claim number and ask them to confirm it.",),
)

#: A hand-off the skill names for a caller who lacks something it asks ("If they do not
#: know the patient's date of birth, we cannot go on; offer @skill.pharmacist_consult"):
#: `thing`, what they do not know, which the case's escalation plays in the user's words.
NOT_KNOWN = phrase(
    "en.prose.not_known",
    r"\bif\s+(?:they|the\s+caller|the\s+user)\s+(?:do\s+not|don't|does\s+not|doesn't)\s+"
    r"(?:know|have|remember)\s+(?:the\s+|their\s+)?(?P<thing>[\w' ]+?)\s*[,;.]",
    re.I,
    matches=(
        "If they do not know the patient's date of birth, we cannot go on; offer @skill.x.",
        "If the caller doesn't have their policy number, offer @skill.agent_handoff.",
    ),
    misses=("If they know the date of birth, go on.", "Ask for the date of birth."),
)

#: Who the skill says may call for someone else ("A caregiver calling for a parent or a
#: child"): `whom`, the first kind of person named, whose details the caller gives.
CALLING_FOR = phrase(
    "en.prose.calling_for",
    r"\bcalling\s+(?:for|on\s+behalf\s+of)\s+(?:a|an|their)\s+(?P<whom>[a-z]+)",
    re.I,
    matches=(
        "A caregiver calling for a parent or a child must give the patient's details.",
        "Someone calling on behalf of a tenant",
    ),
    misses=("Callers must give their own details.",),
)

#: What the prose's other way in lists for the user to pick from ("otherwise list their
#: open orders with @tool.list_open_orders and ask which one"): `things`.
LISTED_OTHERWISE = phrase(
    "en.prose.listed_otherwise",
    r"\b(?:otherwise|else),?\s+list\s+(?:their|the|all|his|her)\s+(?P<things>[a-z][\w ]*?)\s+"
    r"(?:with|using|via|through|from)\b",
    re.I,
    matches=(
        "If they have an order number use @tool.a; otherwise list their open orders with "
        "@tool.list_open_orders and ask which one.",
        "otherwise, list the parcels using @tool.list_parcels",
    ),
    misses=("List their open orders with @tool.x.", "Otherwise hand over to @skill.y."),
)

#: How a prohibition criterion says a reply the project itself sends on the path is fine
#: (`agentflows.drafting.offline._mantle_own_reply`): the opening and the close of that
#: aside, which the justifier cuts off before it finds the sentence the rule restates.
OWN_REPLY_OPEN = ' (saying "'
OWN_REPLY_CLOSE = '", as the reply the project sends does, is fine)'
