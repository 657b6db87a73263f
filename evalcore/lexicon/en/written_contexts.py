"""What casegen reads in a simulation context a model wrote in place of the planned one:
the persona sentence it opens with, kept when the rest of the written context is not."""

from __future__ import annotations

from .. import phrase

#: The opening persona sentence ("You are Ana, a night-shift nurse."; group 1: who).
PERSONA = phrase(
    "en.written_contexts.persona",
    r"You are ([^.\n]{3,160})\.",
    matches=("You are Ana, a night-shift nurse. You want a refund.",),
    misses=("You are here", "you are Ana."),
)
