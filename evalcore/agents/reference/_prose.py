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

from ...definitions import Skill
from ...definitions.skill_model import SkillModel
from ...definitions.skill_model import sentences as model_sentences
from ...definitions.skill_model.prose_items import ProseItem, classify
from ._shared import once


def prose_items(skill: Skill, model: SkillModel) -> list[ProseItem]:
    """The classified sentences of the skill's prose, in reading order (read once per skill
    model: every play of the skill reads the same prose; the caller gets its own list)."""
    return list(once("prose", model, (skill.id, skill.body), lambda: tuple(_read(skill, model))))


def _read(skill: Skill, model: SkillModel) -> list[ProseItem]:
    items: list[ProseItem] = []
    for sentence in model_sentences(skill.body):
        items += classify(sentence.text, sentence.condition, skill, model, sentence.line)
    return items


__all__ = ["ProseItem", "prose_items"]
