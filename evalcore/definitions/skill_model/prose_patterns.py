"""The phrases of a prose procedure that name what the agent does: shared by the planner's
walk (which paths a skill has) and the reference agent (how it plays them), so both read
a skill's prose the same way. The English ones live in the lexicon's `en`, the references to
a tool or a skill (Mantle syntax) in its `notation`."""

from __future__ import annotations

from ...lexicon.en.skill_procedure import (
    ASK_DETAILS,
    ASK_FIELD,
    HAND_OVER,
    HAND_OVER_MAY,
    HAND_OVER_UNLESS,
    LOOKUP,
    QUESTION,
    RUN_BLOCK,
    UNLESS,
    USER_ASKS,
)
from ...lexicon.notation.mantle_references import SKILL_NAME as SKILL
from ...lexicon.notation.mantle_references import TOOL_NAME as TOOL

__all__ = [
    "ASK_DETAILS",
    "ASK_FIELD",
    "HAND_OVER",
    "HAND_OVER_MAY",
    "HAND_OVER_UNLESS",
    "LOOKUP",
    "QUESTION",
    "RUN_BLOCK",
    "SKILL",
    "TOOL",
    "UNLESS",
    "USER_ASKS",
]
