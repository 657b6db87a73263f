"""What the Mantle demo agent reads in a skill's definitions to route a message: the
sentences of a description that say what the skill is *not* for, and the choice of a field
that catches whatever the other choices do not."""

from __future__ import annotations

import re

from .. import phrase

#: A description's sentence that names what the skill is not for ("Do NOT activate for
#: leave balances - that is leave_check.", "Don't use it for refunds."): its words point
#: away from the skill, so routing leaves them out.
NOT_FOR = phrase(
    "en.skill_routing.not_for",
    r"[^.;!?\n]*\b(?:do\s+not|don't|never|not)\s+(?:activate|use|trigger|route|invoke|select|"
    r"pick|choose)\b[^.;!?]*[.;!?]?",
    re.I,
    matches=("Do NOT activate for leave balances.", "Don't use it for refunds."),
    misses=("Use it to order a new card.", "The card is not active yet."),
)
#: A choice (its value or the phrases that describe it) that takes everything else
#: ("other", "general enquiry", "anything else").
CATCH_ALL = phrase(
    "en.skill_routing.catch_all",
    r"\b(?:anything\s+else|other|general)",
    re.I,
    matches=("other", "General enquiry", "anything else"),
    misses=("lost card", "another card"),
)
