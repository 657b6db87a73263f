"""A field the user fills by picking one of the options a tool's answer lists.

"Offer at most three options … Set new_flight to the flight number they pick", after a step
that runs search_alternatives: which flights come back is the tool's answer, which no case
fixes, so the case never names one (not from the project's flight file, least of all
another passenger's flight) and never asserts the value. The user picks from what the agent
offers instead.
"""

from __future__ import annotations

import re

from evalcore.definitions import MantleDefinitions, MemoryField, Skill

#: "set new_flight to the flight number they pick", "… the slot the caller chooses".
_PICKS = (
    r"(?:they|the\s+(?:user|caller|customer|passenger|patient|resident))"
    r"\s+(?:pick|choose|select)s?\b"
)
#: Words of a text that offers the user a list to pick from.
_OFFERS = frozenset({"offer", "option", "options", "alternative", "alternatives", "list"})
#: The note a case whose user picks from the agent's offer carries.
PICK_NOTE = "When the agent offers you options, pick the first one it offers."


def _texts(skill: Skill) -> list[tuple[str, bool]]:
    """(text, whether a tool ran before it): each instructions step of a block (after an
    `execute_tool` step of that block, or in a block with `tools:`) and each paragraph of
    the prose (naming a `@tool.`)."""
    out: list[tuple[str, bool]] = []
    for block in skill.blocks.values():
        ran = bool(block.tools)
        for step in block.steps:
            if step.kind == "execute_tool":
                ran = True
            elif step.kind == "instructions" and isinstance(step.target, str):
                out.append((step.target, ran))
    for paragraph in re.split(r"\n\s*\n", skill.body or ""):
        out.append((paragraph, "@tool." in paragraph))
    return out


def picked_from_offer(defs: MantleDefinitions, field: MemoryField) -> bool:
    """Whether the skill sets `field` to what the user picks among options it offers from a
    tool's answer (see module doc)."""
    skill = defs.skills.get(field.namespace)
    if skill is None:
        return False
    sets = re.compile(
        rf"\bset\s+(?:@memory\.\w+\.)?{re.escape(field.name)}\s+to\s+[^.;]*?{_PICKS}", re.I
    )
    for text, ran in _texts(skill):
        flat = " ".join(text.split())
        words = set(re.findall(r"\w+", flat.lower()))
        if ran and sets.search(flat) and _OFFERS & words:
            return True
    return False


__all__ = ["PICK_NOTE", "picked_from_offer"]
