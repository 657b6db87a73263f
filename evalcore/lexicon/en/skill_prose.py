"""What a skill's prose fixes about a tool call in so many words: "call @tool.page with
urgent set to true" passes that argument that value, whatever the model would choose."""

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
