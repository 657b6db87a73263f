"""What a branch's prose rules out and what a user's request asks to switch
(`evalcore.testdata._branch_fit`): "sale items cannot be returned" names the value a rule
forbids; "turn on reminders" names a flag and the state asked for. A caller whose own record
already holds that value or state would make the branch's case moot or wrong."""

from __future__ import annotations

import re

from .. import phrase

#: "sale items cannot be returned", "gift cards may not be refunded": the words before it.
RULED_OUT = phrase(
    "en.branch_rules.ruled_out",
    r"(?P<what>(?:\b[\w-]+\s+){1,3}?)(?:cannot|can't|can\s+not|may\s+not|must\s+not)\s+be\b",
    re.I,
    matches=("Sale items cannot be returned.", "Gift cards may not be refunded"),
    misses=("Sale items can be returned.", "You cannot miss it"),
)
#: "turn on reminders", "switch off text alerts": the request's verb and the state it asks for.
SWITCH = phrase(
    "en.branch_rules.switch",
    r"\b(?:(?P<on>turn\s+on|switch\s+on|enable|activate|set\s+up|start)"
    r"|(?P<off>turn\s+off|switch\s+off|disable|deactivate|cancel|stop))\s+(?:my\s+|the\s+)?"
    r"(?P<what>[\w-]+)",
    re.I,
    matches=("Please turn on reminders", "Disable text alerts", "cancel my order"),
    misses=("What are reminders?", "Are text alerts on?"),
)
