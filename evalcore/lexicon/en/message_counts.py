"""How a personality or a Playbook body states how many messages the agent sends at once
("Answer ... in one or two short messages", "never more than two short messages in a row",
"tell them in one message"): the largest such count is what a correct agent may send for one
turn, so a case's `replyCount` never allows fewer (`agentflows.drafting.offline._anychat_checks`).
"""

from __future__ import annotations

import re

from .. import phrase
from .spelled_counts import NUMBER_WORDS

#: A count of messages (group `count`, a numeral or a number word; the larger of "one or
#: two"): "in one or two short messages", "up to 3 messages", "never more than two messages".
MESSAGE_COUNT = phrase(
    "en.message_counts.message_count",
    r"\b(?:(?:one|1)\s+or\s+|up\s+to\s+|(?:no|never|not)\s+more\s+than\s+)?"
    r"(?P<count>\d|" + "|".join(NUMBER_WORDS) + r")\s+(?:short\s+|brief\s+)?messages?\b",
    re.I,
    matches=(
        "Answer from what is written here in one or two short messages.",
        "no emoji, and never more than two short messages in a row",
        "tell them the status in one message",
    ),
    misses=("Answer in one or two short sentences.", "short messages, no emoji"),
)


def stated_count(match: re.Match[str]) -> int:
    """The number a `MESSAGE_COUNT` match states."""
    said = match.group("count").lower()
    return int(said) if said.isdigit() else NUMBER_WORDS[said]
