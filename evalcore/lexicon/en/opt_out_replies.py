"""What an Outreach opener offers as its opt-out reply ("Reply STOP to opt out"): a person who
types that keyword opts out like the platform's opt-out event, so the offline Anychat planner
writes that reply as an opt-out case, not as a reply that "changes nothing"."""

from __future__ import annotations

import re

from .. import phrase

#: The meaning an opener gives a reply that opts out ("to opt out", "to unsubscribe").
OPTS_OUT = phrase(
    "en.opt_out_replies.opts_out",
    r"\bopt(?:s|ed)?[\s_-]?out\b|\bunsubscribe\b|\bstop (?:all |these |our )?(?:messages|texts)\b",
    re.I,
    matches=("opt out", "unsubscribe", "stop these messages", "opt-out"),
    misses=("choose a time", "opt for delivery", "stop by the shop"),
)
#: The keyword itself, whatever meaning the opener gives it.
OPT_OUT_KEYWORD = phrase(
    "en.opt_out_replies.opt_out_keyword",
    r"^(?:stop|stopall|unsubscribe)$",
    re.I,
    matches=("STOP", "Unsubscribe"),
    misses=("C", "CANCEL", "stop by"),
)

__all__ = ["OPTS_OUT", "OPT_OUT_KEYWORD"]
