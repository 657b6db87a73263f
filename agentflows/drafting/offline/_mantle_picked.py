"""A field the user fills by picking one of the options a tool's answer lists.

"Offer at most three options … Set new_flight to the flight number they pick", after a step
that runs search_alternatives: which flights come back is the tool's answer, which no case
fixes, so the case never names one (not from the project's flight file, least of all
another passenger's flight) and never asserts the value. The user picks from what the agent
offers instead. So too where the agent proposes the options from what a tool found
("propose the first two slots that work for everyone … Set proposed_start from the slot
they pick"): a start time the user dictated would cut across the proposal, and fixed on the
day the case was written it falls on a weekend or a past day on the day it runs. Only on
the path that reads that paragraph: the same field set from the user's own block in
another mode ("Create a private Focus event … for the block they asked for") is theirs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, Skill, memoized
from evalcore.definitions.conditions import evaluate
from evalcore.lexicon.en.instruction_words import OFFERS as _OFFERS
from evalcore.lexicon.en.prose_acts import set_to_pick
from evalcore.lexicon.en.skill_prose import MARKED_PICKS

#: The note a case whose user picks from the agent's offer carries.
PICK_NOTE = "When the agent offers you options, pick the first one it offers."


def _texts(skill: Skill, tools: frozenset[str]) -> list[tuple[str, bool, str | None]]:
    """(text, whether a tool ran before it, the `if:` of a paragraph that has one): each
    instructions step of a block (after an `execute_tool` step of that block, or in a block
    with `tools:`) and each paragraph of the prose (naming a `@tool.`, or one of the
    skill's `tools` by its name)."""
    out: list[tuple[str, bool, str | None]] = []
    for block in skill.blocks.values():
        ran = bool(block.tools)
        for step in block.steps:
            if step.kind == "execute_tool":
                ran = True
            elif step.kind == "instructions" and isinstance(step.target, str):
                out.append((step.target, ran, None))
    for paragraph in re.split(r"\n\s*\n", skill.body or ""):
        head = paragraph.strip().split("\n", 1)[0]
        named = "@tool." in paragraph or bool(tools & set(re.findall(r"\w+", paragraph)))
        out.append((paragraph, named, head[3:] if head.startswith("if:") else None))
    return out


def _offer_sets(
    defs: MantleDefinitions, skill: Skill, field: MemoryField
) -> tuple[tuple[bool, str | None], ...]:
    """For each of the skill's texts (`_texts`), whether it sets `field` to a pick among a
    tool's options, with its paragraph's `if:`: read once per loaded project and field, as
    the drafter asks of every field of every case."""
    # "set x to the one they pick", "set x from the slot they pick"
    sets = set_to_pick(field.name)
    tools = frozenset(defs.tools_for(skill.id))
    out = []
    for text, ran, condition in _texts(skill, tools):
        flat = " ".join(text.split())
        words = set(re.findall(r"\w+", flat.lower()))
        out.append((bool(ran and sets.search(flat) and _OFFERS & words), condition))
    return tuple(out)


def picked_from_offer(
    defs: MantleDefinitions, field: MemoryField, memory: Mapping[str, Any] | None = None
) -> bool:
    """Whether the skill sets `field` to what the user picks among options it offers from a
    tool's answer (see module doc); with `memory` (the path's), only in a paragraph that
    path reads."""
    skill = defs.skills.get(field.namespace)
    if skill is None:
        return False
    read = memoized(
        defs,
        ("picked_from_offer", skill.id, field.name),
        lambda: _offer_sets(defs, skill, field),
    )
    # a paragraph's `if:` is weighed only where the paragraph sets the pick (a condition
    # never raises: an unknown or mistyped side compares as false)
    return any(
        picked and (memory is None or condition is None or evaluate(condition, memory))
        for picked, condition in read
    )


def list_pick_note(things: str, prose: list[str]) -> str:
    """The note for a pick from what the agent reads out of a listing tool's answer. Where
    the branch's prose says the list marks which ones the user can take ("Opening and
    closing shifts need the matching certification; the tool marks which ones they can
    take"), the first item may be one the agent steers them away from: the user picks the
    first one the agent says they can take, and with none, says so and ends there."""
    for text in prose:
        found = MARKED_PICKS.search(" ".join(text.split()))
        if found is not None:
            verb = found["verb"].lower()
            return (
                f"When the agent reads out the {things}, pick the first one it says you can "
                f"{verb}; if it says there is none you can {verb}, say that is fine and stop."
            )
    return f"When the agent reads out the {things}, pick the first one."


__all__ = ["PICK_NOTE", "list_pick_note", "picked_from_offer"]
