"""Words in skill prose that permit rather than instruct ("you may ask", "optionally", "if
useful"): what follows is a freedom the definitions leave to the model, so a correct agent
may take it either way."""

from __future__ import annotations

import re

from .. import phrase

#: A permission, not an instruction.
PERMISSIVE = phrase(
    "en.permissive_words.permits",
    r"\b(?:may|might|optionally|optional|if\s+(?:useful|helpful|relevant|appropriate|needed|"
    r"you\s+like)|feel\s+free|if\s+it\s+helps|when\s+useful)\b",
    re.I,
    matches=("You may ask for their email.", "Optionally confirm the date", "if helpful, ask"),
    misses=("Always ask for their email.", "Ask if it is needed by Friday"),
)
