"""A skill's prose as the steps a model takes, in reading order (the reference agent's plan).

Each sentence of the prose (ordered blocks and code skipped; a paragraph after `if:` keeps
that condition) is classified by the first rule that fits, the same reading the planner's
walk of a skill uses, so that what a drafted case expects and what the reference agent does
come from one reading:

- `lookup`: "If @memory.<key> is empty, ... @tool.<t>" (the tool fills the key);
- `identity`: "@tool.<t>" with "ask for their <details>" (details split at commas, "and",
  "or"), optionally "Unless @memory.<key> is already true";
- `block`: "run / start / enter / use @block.<id>";
- `ask_field`: "ask" before "@memory.<skill>.<key>" of the skill's own memory when no block
  step collects it, or a sentence the skill model reads as asking a field;
- `question`: "ask whether/if <something>" (a yes/no question);
- `tool`: a prose call site of the skill model (with its trigger);
- `delegate`: "@skill.<id>" (offered or handed over to: not followed by itself).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...definitions import Skill
from ...definitions.skill_model import SkillModel
from ...definitions.skill_model import prose_patterns as pp
from ...definitions.skill_model import sentences as model_sentences


@dataclass(frozen=True)
class ProseItem:
    kind: str
    """lookup | identity | block | ask_field | question | tool | delegate"""
    condition: str | None
    sentence: str
    name: str | None = None
    key: str | None = None
    """lookup: the memory key the tool fills; identity: the `unless` key."""
    details: tuple[str, ...] = field(default_factory=tuple)
    when: str | None = None
    """tool: the prose's own trigger as a condition (the call waits for it)."""
    line: int = 0


def _classify(
    text: str, condition: str | None, skill: Skill, model: SkillModel, line: int
) -> list[ProseItem]:
    lookup = pp.LOOKUP.search(text)
    if lookup:
        return [ProseItem("lookup", condition, text, lookup["tool"], lookup["key"], line=line)]
    tools = pp.TOOL.findall(text)
    details = pp.ASK_DETAILS.search(text)
    if tools and details:
        parts = re.split(r"\s*,\s*|\s+and\s+|\s+or\s+", details["details"])
        unless = pp.UNLESS.search(text)
        found = tuple(p.strip() for p in parts if p.strip())
        key = unless["key"] if unless else None
        return [ProseItem("identity", condition, text, tools[-1], key, found, line=line)]
    items: list[ProseItem] = []
    for block in pp.RUN_BLOCK.findall(text):
        items.append(ProseItem("block", condition, text, block, line=line))
    asked = pp.ASK_FIELD.search(text)
    collected = {s.target for b in skill.blocks.values() for s in b.steps if s.kind == "collect"}
    prose_fields = [
        f.qualified
        for f in model.fields
        if f.asked_by == "prose" and text in (f.sentences or [f.question])
    ]
    if asked and asked["ns"] == skill.id and asked["key"] not in collected:
        name = f"{asked['ns']}.{asked['key']}"
        items.append(ProseItem("ask_field", condition, text, name, line=line))
    elif prose_fields:
        items += [ProseItem("ask_field", condition, text, q, line=line) for q in prose_fields]
    elif (question := pp.QUESTION.search(text)) is not None and not pp.USER_ASKS.search(
        text[: question.start()]
    ):
        said = question["q"].strip().rstrip(",")
        items.append(ProseItem("question", condition, text, details=(said,), line=line))
    for use in model.tools:
        for call in use.calls:
            if call.kind == "prose" and call.sentence == text and not call.optional:
                items.append(
                    ProseItem("tool", condition, text, use.name, when=call.when, line=line)
                )
                break
    for target in pp.SKILL.findall(text):
        items.append(ProseItem("delegate", condition, text, target, line=line))
    return items


def prose_items(skill: Skill, model: SkillModel) -> list[ProseItem]:
    """The classified sentences of the skill's prose, in reading order."""
    items: list[ProseItem] = []
    for sentence in model_sentences(skill.body):
        items += _classify(sentence.text, sentence.condition, skill, model, sentence.line)
    return items


__all__ = ["ProseItem", "prose_items"]
