"""Words of an agent's line as the simulated user reads it: an offer to go back to the task a
digression left ("Shall we continue with it?"), which the user answers by resuming."""

from __future__ import annotations

from .. import words

#: Words of an offer to go back to the task a digression left ("Shall we continue with it?"),
#: in order, read as whole words.
GO_BACK = words(
    "en.agent_line_words.go_back",
    (
        "go back to",
        "get back to",
        "come back to",
        "continue with",
        "return to",
        "resume",
        "pick up where",
        "carry on with",
    ),
    members=("continue with", "resume"),
    non_members=("go on", "continue"),
)
