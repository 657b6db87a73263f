"""Which `collect` step questions every correct agent asks with the step's own response.

A `collect` step runs without a model, so where its slot is still empty the runtime asks
with the step's `utterance`; but a slot the model may fill before the step is reached is
never asked, and an agent that fills it says nothing of the kind. A case asserts the
response only where nothing but the step fills the slot first:

- the user does not say the value before the step (the opening "Someone backed into my
  car." already holds what happened, and the agent keeps it);
- the skill's prose outside the block does not ask for or set the field (in any branch: "Ask
  which instrument and which day" has the agent ask it in its own words while it works out
  the request);
- the step's own description does not leave the question to the model ("Only ask when the
  claim type is auto", "Work it out from the city without asking", "Assume USD for US
  merchants");
- the path does not run, before the block, a lookup on a service outside the project (an
  MCP tool: "Look for the receipt in their inbox first … so they do not have to forward
  it"): what it returns no definition holds, and a receipt it finds may fill the slot.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from evalcore.definitions import MantleDefinitions, Skill
from evalcore.definitions.skill_model import prose_verb, recorded_early, sentences
from evalcore.lexicon.en.instruction_words import LEFT_TO_MODEL as _LEFT_TO_MODEL
from evalcore.lexicon.en.word_classes import CONDITION_OPENERS

from ._direction_values import words
from ._mantle_facts import spoken

#: Words that, together, say when only to ask ("Only ask when the claim type is auto").
_ONLY_WHEN = frozenset({"only", "ask"})


def framework_asks(
    defs: MantleDefinitions,
    skill: Skill,
    path: tuple[Collection[str], Collection[str], Mapping[str, Any]],
    said_first: str,
    looked_up: Collection[str] = (),
) -> list[str]:
    """The `utterance` of each `collect` step a path asked that every correct agent asks
    with it; `path` is what the walk went through, the responses it uttered and the values
    it recorded, `said_first` what the user says before any question (the opening), and
    `looked_up` the blocks the path enters after a lookup on an outside service."""
    elements, said, memory = path
    before = " ".join(said_first.lower().split())
    out: list[str] = []
    for block in skill.blocks.values():
        if block.id in looked_up:
            continue
        for step in block.steps:
            element = f"step:{skill.id}.{block.id}.{step.id}"
            name = step.fields.get("utterance")
            if step.kind != "collect" or element not in elements or name not in said:
                continue
            key = str(step.target)
            qualified = key if key.startswith("project.") else f"{skill.id}.{key}"
            if _said_before(defs, qualified, memory.get(qualified), before):
                continue
            if not before and _kept_once_told(defs, skill, qualified):
                continue  # an unscripted first message may already tell it: kept, not asked
            if _asked_in_prose(defs, skill, qualified):
                continue
            said_how = set(words(str(step.fields.get("description") or "")))
            if said_how & _LEFT_TO_MODEL or said_how >= _ONLY_WHEN:
                continue
            out.append(str(name))
    return list(dict.fromkeys(out))


def _kept_once_told(defs: MantleDefinitions, skill: Skill, qualified: str) -> bool:
    """Whether the prose keeps the field once the user told it ("If they already told you
    what happened, keep it and do not ask again"): with no first message pinned, the
    simulated user may open with it and the step's question never comes."""
    field = defs.memory_field(qualified)
    return field is not None and any(
        recorded_early(field, s.text) for s in sentences(skill.body or "")
    )


def _said_before(defs: MantleDefinitions, qualified: str, value: Any, before: str) -> bool:
    """Whether the user's first words hold the value (a sentence or more: a bare word or
    number may be said for something else)."""
    text = spoken(defs, qualified, value)
    if not text or len(text.split()) < 2:
        return False
    return " ".join(text.lower().split()).rstrip(".") in before


def _asked_in_prose(defs: MantleDefinitions, skill: Skill, qualified: str) -> bool:
    """Whether a sentence of the skill's prose asks for or sets the field."""
    field = defs.memory_field(qualified)
    if field is None:
        return False
    # not a sentence on a field whose name holds this one's ("extra hours" for `hours`)
    longer = [
        f.name.replace("_", " ")
        for f in skill.memory.values()
        if f.name != field.name and field.name in f.name
    ]
    return any(
        prose_verb(field, s.text) is not None
        and not any(name in s.text.replace("_", " ") for name in longer)
        for s in sentences(skill.body or "")
    )


def prose_asks_first(defs: MantleDefinitions, skill: Skill, block: str, qualified: str) -> bool:
    """Whether the agent may ask for `qualified` in its own words before `block`'s step
    does: the prose asks for or sets the field ("Ask which instrument and which day"), or,
    before the sentence that runs the block, sends some requests elsewhere on what the user
    says ("Anything that sounds like an emergency goes straight to @skill.emergency_line"),
    where an agent may ask what is wrong first. A question asked there is the skill's, at
    no step (`autonomous`)."""
    if _asked_in_prose(defs, skill, qualified):
        return True
    for sentence in sentences(skill.body or ""):
        if f"@block.{block}" in sentence.text:
            return False
        # a hand-off on what the request is, not one that waits on an outcome ("When no
        # attempts are left, hand over to …", "If @memory.project.… is not true, run …")
        first = sentence.text.split(None, 1)[0].strip(",").lower() if sentence.text else ""
        if "@skill." in sentence.text and first not in CONDITION_OPENERS:
            return True
    return False


__all__ = ["framework_asks", "prose_asks_first"]
