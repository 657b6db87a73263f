"""How a sentence of a skill's prose speaks of a memory field: the verbs that ask for it or
set it, where its value comes from (the user's request, a tool's answer, what the user
gives or picks), the words that make the sentence conditional, and how a field's
description names it; and what a description says of a field's values (a format, a quoted
example, what one value means)."""

from __future__ import annotations

import re

from .. import phrase

#: A verb by which the prose asks something of the user (a value or a yes/no).
ASK = phrase(
    "en.field_mentions.ask",
    r"\b(ask|asks|request|collect|confirm|find out|get)\b",
    re.I,
    matches=("Ask for their postcode.", "Find out when it happened."),
    misses=("Tell them the balance.", "Set paid once it clears."),
)
#: A verb by which the prose has a field set or recorded.
SET = phrase(
    "en.field_mentions.set",
    r"\b(set|sets|record|records|store|stores|save|saves|note|capture|fill)\b",
    re.I,
    matches=("Set visit_date to the day they pick.", "Record the reason they give."),
    misses=("Ask for their postcode.", "Reset the router first."),
)
#: The value is taken from the user's request ("from their first message", "from what
#: they said").
FROM_REQUEST = phrase(
    "en.field_mentions.from_request",
    r"\bfrom\s+(?:the|their|the\s+customer's|the\s+user's)\s+(?:first\s+)?"
    r"(?:request|message|question|words)\b|\bfrom\s+what\s+(?:they|the\s+\w+)\s+(?:say|said|ask)",
    re.I,
    matches=("Set topic from their first message.", "Take the reason from what they said."),
    misses=("Set topic from the lookup's result.", "Ask for the topic."),
)
#: "set x from the lookup's result", "from @tool.y", "from get_status": a tool's answer;
#: "from its `status` field", "from it": the thing "it" names is the tool the sentence
#: calls (the user is "they"), so the value is its answer too (read right after the
#: field's name).
FROM_RESULT = phrase(
    "en.field_mentions.from_result",
    r"`?\s+(?:from|with|using|to)\s+(?:its|the|that|their|this)\s+(?:\w+\s+)?"
    r"(?:result|response|output|lookup|answer\s+of\s+the\s+tool)\b|`?\s+from\s+@tool\."
    r"|`?\s+from\s+(?:its\b|it\b(?!\s+(?:is|was|has)\b)|`?[a-z][a-z0-9]*(?:_[a-z0-9]+)+`?"
    r"(?:[\s.,;)]|$))",
    re.I,
    matches=(
        " from the lookup's result.",
        "` from its `status` field.",
        " from get_invoice_state.",
        " from @tool.get_status.",
    ),
    misses=(" from their first message.", " from it is fine", " to the day they pick."),
)
#: Where the clause that holds a field's name starts (a split).
CLAUSE_CUT = phrase(
    "en.field_mentions.clause_cut",
    r"[,;:]\s|\bthen\b",
    matches=("Ask for the date, then set it.", "Check it; set paid."),
    misses=("Ask for the date and set it.", "Go there."),
)
#: The verbs by which the clause asks for the field it names.
ASKS = phrase(
    "en.field_mentions.asks",
    r"\b(ask|asks|find\s+out|request|collect)\b",
    re.I,
    matches=("Ask for the date", "collect their email"),
    misses=("Confirm the date", "set their email"),
)
#: A clause that ends inside a condition ("… if they give one"): read on the text before
#: the field's name.
CONDITION_OPEN = phrase(
    "en.field_mentions.condition_open",
    r"\b(if|unless|when|whether)\b[^,]*$",
    re.I,
    matches=("Use another if they give one and set ", "When it arrives set "),
    misses=("If it arrives, set ", "Set "),
)
#: An ask in a sentence (after its first comma).
ASKED = phrase(
    "en.field_mentions.asked",
    r"\b(?:ask|find\s+out|collect)\b",
    re.I,
    matches=("Ask for the date", "then find out why"),
    misses=("request a refund", "set the date"),
)
#: A sentence that opens with a condition ("If someone asks for X, set y").
CONDITIONAL = phrase(
    "en.field_mentions.conditional",
    r"\s*(?:if|when|whenever|unless|once)\b",
    re.I,
    matches=("If someone asks for a refund, set ", " Once it clears, set "),
    misses=("Ask for the date", "Verify it"),
)
#: Who the user is, as prose names them ("they", "the caller", "the patients").
_USER = (
    r"(?:they|he|she|the\s+(?:user|caller|customer|member|client|patient|rider|driver|owner|"
    r"person)s?)"
)
#: "use another if they give one", "When they pick a valid mode", "When they confirm, set
#: ...": the value set is what the user gives, picks or approves.
USER_GIVES = phrase(
    "en.field_mentions.user_gives",
    rf"\b(?:if|when|unless|once)\s+{_USER}\s+(?:(?:give|gives|provide|provides|name|names|"
    r"prefer|prefers|offer|offers|say|says|tell|tells|pick|picks|choose|chooses|select|selects)"
    r"\s+(?:one|another|a|an|us|you|it|other)\b|(?:confirm|confirms|approve|approves)\s*,)",
    re.I,
    matches=("Use the default, or another if they give one.", "When the caller confirms, set "),
    misses=("If the order is late, set ", "When they arrive, greet them."),
)
#: "… when they agree", "once the caller has": the value is the user's answer.
USER_REPLY = phrase(
    "en.field_mentions.user_reply",
    rf"\b(?:when|once|after|if|as\s+soon\s+as)\s+(?:you|{_USER})\b"
    r"|\b(?:they|the\s+(?:user|caller|customer))\s+(?:agree|confirm|say|accept|answer)",
    re.I,
    matches=(" once the caller has answered.", " and record it when they agree."),
    misses=("; set paged.", " once the page goes out."),
)
#: "(set reason)" between an ask and a flag: that ask's answer is another field.
SET_ANOTHER = phrase(
    "en.field_mentions.set_another",
    r"\bset\s+\w+",
    re.I,
    matches=("Ask what is wrong (set reason), then page the vet.",),
    misses=("Ask what is wrong, then page the vet.",),
)
#: Where the leading noun phrase of a field's description ends ("PIN code| of the card").
HEAD_END = phrase(
    "en.field_mentions.head_end",
    r"[,.;:(]|\s(?:of|for|on|in|at|from|that|which|who|when|where|to|the)\s",
    re.I,
    matches=("Four-digit PIN code of the card", "Chosen date (local)"),
    misses=("Preferred delivery date", "Offer code"),
)
#: A measure in a description's noun phrase ("Five-digit", "4-digit"), dropped from the name.
MEASURE = phrase(
    "en.field_mentions.measure",
    r"\d|^(?:one|two|three|four|five|six|seven|eight|nine|ten)-",
    re.I,
    matches=("Five-digit", "4-digit"),
    misses=("PIN", "none-such"),
)
#: A format a description states in words: "formatted as "XX-99"".
FORMAT_WORDS = phrase(
    "en.field_mentions.format_words",
    r"\bformat(?:ted)?\s+(?:as|like|is)?\s*[\"“`']([^\"”`']{2,30})[\"”`']",
    re.I,
    matches=('The code, formatted as "XX-99".', "Format like `AB-1234`."),
    misses=("The time they prefer.", "Use the same format."),
)
#: A quoted example value: for example "…", e.g. "…", such as "…".
EXAMPLE = phrase(
    "en.field_mentions.example",
    r"(?:for\s+example|e\.g\.|such\s+as|like)\s*,?\s*[\"“`']([^\"”`']{1,60})[\"”`']",
    re.I,
    matches=('An order id, e.g. "A-1042".', "A colour such as 'red'."),
    misses=("An order id from the receipt.", "Any colour they like."),
)
#: What one value means, written right after it: `value (why)`, `value: why`,
#: `value - why`, `value means why`, `value = why` (the caller puts the value in front).
VALUE_GLOSS = phrase(
    "en.field_mentions.value_gloss",
    r"(?:\((?P<paren>[^)]+)\)|(?::|—|–| - |\bmeans\b|=)\s*(?P<tail>[^;.\n]+))",
    re.I,
    matches=("damaged (also a cracked chip)", "standard means three to five days"),
    misses=("standard shipping", "damaged."),
)
