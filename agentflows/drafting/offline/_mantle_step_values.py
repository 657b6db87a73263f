"""A free-text value a step's own words give for a field the path asks, fitting the case.

"Ask for the merchant and the date (set merchant and expense_date) … if: category ==
"ground_transport" / Ask where from and to in a few words (set business_purpose, e.g. "JFK
to office")." A correct agent asks each of these, so a user without an answer makes one
up. A value drawn from the field's description at random may belong to another branch
("Merchant as on the receipt, e.g. Balthazar or Uber" for an airfare), so only two values
are taken, each one the definitions tie to the case's branch:

- the example the sentence that sets the field gives ("e.g. "JFK to office""), where that
  sentence holds on the path (no `if:`, or one the path's memory meets);
- the one example of the field's description that the description of the choice the case
  made names ("ground_transport (taxi, Uber, train, parking)" for the merchant `Uber`), and
  no other choice's does.

Nothing fits: None, and the field is left as before.
"""

from __future__ import annotations

import re
from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField, Skill
from evalcore.definitions.skill_model import sentences, set_at
from evalcore.testdata import examples_of

from ._mantle_facts import field_choices, holds
from ._mantle_script_state import Walk


def _holds(condition: str | None, memory: dict[str, Any]) -> bool:
    return not condition or holds(condition, memory)


def step_text(skill: Skill, block: str | None, step: str | None) -> str | None:
    """The whole instructions of a block's step, its `if:` parts included (a walk's ask
    holds only the part its memory reached)."""
    found = skill.blocks.get(block or "")
    for each in found.steps if found is not None else ():
        if each.id == step and each.kind == "instructions" and isinstance(each.target, str):
            return each.target
    return None


def setting_sentences(prompt: str, field: MemoryField, memory: dict[str, Any]) -> list[str]:
    """The sentences of `prompt` on the path (see the module's doc) that set `field`."""
    return [
        part.text
        for part in sentences(prompt)
        if set_at(field, part.text) is not None and _holds(part.condition, memory)
    ]


def on_the_path(prompt: str, field: MemoryField, memory: dict[str, Any]) -> bool:
    """Whether a sentence of the step that sets `field` holds on the path: a field only
    another branch sets (`attendees` under client entertainment) is no question of it."""
    return bool(setting_sentences(prompt, field, memory))


def sentence_example(prompt: str, field: MemoryField, memory: dict[str, Any]) -> str | None:
    """The example a sentence on the path gives right where it sets `field` ("(set
    business_purpose, e.g. "JFK to office")")."""
    for text in setting_sentences(prompt, field, memory):
        at = text.find(f"set {field.name}")
        end = text.find(")", at) if at >= 0 else -1
        shown = text[at:end] if end > at else ""
        start = shown.find("e.g.")
        quoted = shown[start:].replace("“", '"').replace("”", '"').split('"') if start >= 0 else []
        if len(quoted) >= 3 and quoted[1].strip():
            return quoted[1].strip()
    return None


def chosen_example(
    defs: MantleDefinitions, field: MemoryField, memory: dict[str, Any]
) -> str | None:
    """The example of `field`'s description that only the case's own choice names (see the
    module's doc)."""
    examples = examples_of(field.description or "")
    if not examples:
        return None
    owner = defs.skills.get(field.namespace)
    for other in owner.memory.values() if owner is not None else ():
        value = memory.get(other.qualified)
        if other.type != "categorical" or not isinstance(value, str):
            continue
        named: dict[str, set[str]] = {}
        for choice in field_choices(defs, other.qualified):
            text = " ".join(choice.phrases).lower()
            for example in examples:
                if re.search(rf"\b{re.escape(example.lower())}\b", text):
                    named.setdefault(example, set()).add(str(choice.value))
        fitting = [e for e, by in named.items() if by == {value}]
        if len(fitting) == 1:
            return fitting[0]
    return None


def step_value(
    defs: MantleDefinitions, prompt: str, field: MemoryField, memory: dict[str, Any]
) -> str | None:
    """The case's value for a free-text `field` the step `prompt` asks (None: nothing ties
    one to the case's branch)."""
    return sentence_example(prompt, field, memory) or chosen_example(defs, field, memory)


def step_values(defs: MantleDefinitions, walk: Walk, values: dict[str, Any]) -> dict[str, Any]:
    """`values` plus, for each free-text field an instructions ask of `walk` fills that they
    lack, the value the step's words give it on the case's branch (`step_value`): never one
    left for the simulator to invent."""
    out = dict(values)
    memory = {**walk.memory, **values}
    for ask in walk.asks:
        field = defs.memory_field(ask.field or "")
        if ask.kind != "instructions" or field is None or field.type != "text":
            continue
        if field.qualified in out:
            continue
        value = step_value(defs, ask.prompt or "", field, memory)
        if value is not None:
            out[field.qualified] = value
    return out


__all__ = [
    "chosen_example",
    "on_the_path",
    "sentence_example",
    "setting_sentences",
    "step_text",
    "step_value",
    "step_values",
]
