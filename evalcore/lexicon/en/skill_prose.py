"""How a skill's prose tells the agent to keep what the user already said: the question it
names is one the agent skips when the opening answered it (read by the planner, which
never hangs a request for a person on such a question)."""

from __future__ import annotations

import re

from .. import phrase

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
