"""What Rasa allows inside a Mantle `sequencing` assertion, and what to say about the rest.

Rasa's packaged scenario schema and its assertion engine agree on one list (reference §2.1):
skill and ordered-block lifecycle checks and `tool_executed` as maps, `memory_was_set` and
`memory_was_cleared` as a plain memory name. Everything else is rejected ("unsupported
sequencing step"). The schema (`schema.json`), the assertion engine, lint and repair all read
this module, so the message a person sees is the same wherever the step is caught.
"""

from __future__ import annotations

#: Steps written as a map (the same body as the top-level check).
SEQUENCING_MAP_STEPS: tuple[str, ...] = (
    "skill_activated",
    "skill_completed",
    "skill_cancelled",
    "skill_interrupted",
    "skill_resumed",
    "ordered_block_entered",
    "ordered_block_completed",
    "ordered_block_cancelled",
    "ordered_block_interrupted",
    "ordered_block_resumed",
    "tool_executed",
)
#: Steps written as one plain memory name (`memory_was_set: card_replace.reason`).
SEQUENCING_NAME_STEPS: tuple[str, ...] = ("memory_was_set", "memory_was_cleared")
SEQUENCING_STEPS: tuple[str, ...] = SEQUENCING_MAP_STEPS + SEQUENCING_NAME_STEPS

ALLOWED_TEXT = (
    "Rasa allows only skill_activated/_completed/_cancelled/_interrupted/_resumed, "
    "ordered_block_entered/_completed/_cancelled/_interrupted/_resumed and tool_executed "
    "as maps, and memory_was_set/memory_was_cleared as a plain memory name"
)

#: How to rewrite each step Rasa rejects inside sequencing.
_REWRITE: dict[str, str] = {
    "bot_uttered": "assert bot_uttered on its own and order the events around it",
    "bot_did_not_utter": "make it its own assertion (an absence has no position)",
    "memory_was_not_set": "make it its own assertion (an absence has no position)",
    "tools_within_one_turn": (
        "make it its own assertion, or order its tool_executed calls in the sequence"
    ),
    "sequencing": "list the checks in one sequencing",
}


def sequencing_step_problem(kind: str) -> str | None:
    """Why `kind` may not be a sequencing step and how to rewrite it; None when allowed."""
    if kind in SEQUENCING_STEPS:
        return None
    rewrite = _REWRITE.get(kind, "use one of those steps")
    return f"{kind} is not allowed inside sequencing: {ALLOWED_TEXT}; {rewrite}"
