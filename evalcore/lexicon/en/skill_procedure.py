"""The phrases of a skill's prose procedure that name what the agent does: a lookup it runs
when a value is missing, the details it asks for in one message, a block it enters, a yes/no
question it asks, a skill it hands the conversation to, and a call the prose forbids. The
planner's walk and the reference agent read a skill's prose with these same patterns."""

from __future__ import annotations

import re

from .. import phrase

#: "If @memory.x is empty, … @tool.y", "If username is missing in project memory, call
#: @tool.y": a lookup the agent runs when it lacks a value (a bare name counts only where it
#: is a memory field; `scope` says whose).
LOOKUP = phrase(
    "en.skill_procedure.lookup",
    r"\bif\s+(?P<token>@memory\.)?(?P<key>[\w.]+)\s+is\s+"
    r"(?:empty|missing|not\s+set|unknown|not\s+known|blank)\b"
    r"(?:\s+(?:in|from)\s+(?:the\s+)?(?P<scope>project|skill)\s+memory)?.*?@tool\.(?P<tool>\w+)",
    re.I,
    matches=(
        "If @memory.skill.account_id is empty, call @tool.find_account.",
        "If username is missing in project memory, call @tool.lookup_user.",
    ),
    misses=(
        "If the account is closed, call @tool.reopen_account.",
        "If @memory.skill.account_id is empty, apologise.",
    ),
)
#: "Ask for their date of birth and postcode", "Ask for the four-digit PIN, then call
#: @tool.x with both": the details asked in one message (the sentence names the tool).
ASK_DETAILS = phrase(
    "en.skill_procedure.ask_details",
    r"\bask\s+(?:them\s+)?for\s+(?:their|the\s+customer's|your|his|her|the)\s+"
    r"(?P<details>.+?)"
    r"(?=\s+in\s+one\s+message|\s+and\s+(?:check|verify|confirm)|[,.;]|$)",
    re.I,
    matches=(
        "Ask for their date of birth and postcode in one message.",
        "Ask them for the four-digit PIN, then call @tool.verify_pin with it.",
    ),
    misses=("Ask whether they want a receipt.", "Tell them their balance."),
)
#: "… unless @memory.x is already true": a step skipped once a flag is set.
UNLESS = phrase(
    "en.skill_procedure.unless",
    r"\bunless\s+@memory\.(?P<key>[\w.]+)\s+is\s+(?:already\s+)?true\b",
    re.I,
    matches=("Verify them unless @memory.skill.verified is already true.",),
    misses=("Verify them unless @memory.skill.verified is false.", "Verify them first."),
)
#: "Run @block.x", "Start with @block.opening", "go through the @block.x": the prose enters it.
RUN_BLOCK = phrase(
    "en.skill_procedure.run_block",
    r"\b(?:run|runs|start|starts|begin|begins|enter|enters|use|uses|go\s+through|follow|"
    r"follows|continue|proceed)\s+(?:(?:with|into|through|to|in)\s+)?(?:the\s+)?@block\.(\w+)",
    re.I,
    matches=("Start with @block.opening.", "Then go through the @block.checks."),
    misses=("See @block.opening for the questions.", "Start with a greeting."),
)
#: "Ask for their email and keep it in @memory.skill.email": a memory field asked in prose.
ASK_FIELD = phrase(
    "en.skill_procedure.ask_field",
    r"\bask\b.*?@memory\.(?P<ns>\w+)\.(?P<key>\w+)",
    re.I,
    matches=("Ask for their email and keep it in @memory.skill.email.",),
    misses=("Set @memory.skill.email from the lookup.", "Ask for their email."),
)
#: "Ask whether …": a yes/no question of the agent's.
QUESTION = phrase(
    "en.skill_procedure.question",
    r"\bask\s+(?:them\s+|the\s+customer\s+)?(?:whether|if)\s+(?P<q>[^.;]+)",
    re.I,
    matches=("Ask whether they want a receipt.", "Ask the customer if the card is still lost."),
    misses=("Ask for their name.", "If they ask, explain the fee."),
)
#: "If they ask whether …": the user asks, so it is a rule for the agent, not its question
#: (read on the text before "ask").
USER_ASKS = phrase(
    "en.skill_procedure.user_asks",
    r"\b(?:they|he|she|the\s+(?:customer|caller|user|patient|guest|member|tenant))\s+$",
    re.I,
    matches=("If they ", "When the customer "),
    misses=("Then ", "First, "),
)
#: "Then invoke @skill.x", "hand over to @skill.x", "start @skill.x": the agent hands the
#: conversation to another skill where the sentence stands (the parent resumes after it).
HAND_OVER = phrase(
    "en.skill_procedure.hand_over",
    r"\b(?:invoke|start|launch|trigger|hands?\s+(?:it\s+|the\s+\w+\s+)?over\s+to|"
    r"(?:transfer|pass|hand)\s+(?:it\s+|them\s+|the\s+\w+\s+)?to)\s+`?@skill\.",
    re.I,
    matches=("Then invoke @skill.refund.", "Hand the conversation over to @skill.billing."),
    misses=("This skill is like @skill.refund.", "Invoke the refund tool."),
)
#: Words that make a hand-over depend on something or leave it to the agent: "If yes,
#: invoke …", "offer @skill.x", "run @skill.x first if …" (anywhere in the sentence).
HAND_OVER_UNLESS = phrase(
    "en.skill_procedure.hand_over_unless",
    r"\b(?:if|when|whenever|unless|whether|offer|suggest|only|otherwise|once|after)\b",
    re.I,
    matches=("If yes, invoke @skill.refund.", "Offer @skill.survey at the end."),
    misses=("Invoke @skill.refund.", "Then hand over to @skill.billing."),
)
#: Permission before the hand-over: "you may invoke @skill.x".
HAND_OVER_MAY = phrase(
    "en.skill_procedure.hand_over_may",
    r"\b(?:may|might|can|could)\b",
    re.I,
    matches=("You may invoke @skill.survey.", "You can hand over to @skill.billing."),
    misses=("Invoke @skill.survey.", "Then start @skill.billing."),
)
#: "do not / never / without" before a tool: the prose forbids the call (read on the text
#: before the tool's name, up to the sentence's end).
NEGATED_CALL = phrase(
    "en.skill_procedure.negated_call",
    r"\b(?:do\s+not|don't|never|without)\b[^.;@]*$",
    re.I,
    matches=("Do not call ", "Refund the fee without using "),
    misses=("Call ", "Do not wait. Then call "),
)
#: "Ask for the <x>" (not "their <x>"): the sentence names a thing, perhaps a memory field,
#: by its words (read at the start of an ask).
ASKS_FOR_THE = phrase(
    "en.skill_procedure.asks_for_the",
    r"\S+\s+(?:them\s+)?for\s+the\s",
    re.I,
    matches=("Ask for the parcel code", "Ask them for the order number"),
    misses=("Ask for their name", "Ask them for a code"),
)
#: The separators of the details an ask lists: "date of birth, postcode and PIN".
DETAIL_SEPARATOR = phrase(
    "en.skill_procedure.detail_separator",
    r"\s*,\s*|\s+and\s+|\s+or\s+",
    matches=("date of birth and postcode", "postcode, PIN", "email or phone"),
    misses=("postcode", "brandon"),
)
