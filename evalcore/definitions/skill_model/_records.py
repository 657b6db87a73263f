"""Flags a skill's prose has the agent set on its own doing, never asked of the user.

"Tell them their balance; set balance_told.", "Set paged once the page goes out.": a bool
the prose sets in a sentence that asks nothing and waits for no answer of the user's
(`_mentions._records_itself`), and that no path forks on (a flag a branch reads stays a field
asked, so a walk can take either side). The planner's walk and the reference agent set it
to true where its sentence stands (`prose_items` kind `record`), so a case asks no question
for it and its persona holds no fact for it.
"""

from __future__ import annotations

from .._model import Skill
from ._branches import branched_keys
from ._mentions import prose_verb
from ._text import sentences
from ._types import FieldSpec, Record, Where


def skill_records(skill: Skill, file: str, first: int, fields: list[FieldSpec]) -> list[Record]:
    """The skill's own flags the prose has the agent record, one per sentence that sets one."""
    asked = {f.qualified for f in fields}
    forks = branched_keys(skill)
    flags = [
        f
        for f in skill.memory.values()
        if f.type == "bool" and f.qualified not in asked and f.qualified not in forks
    ]
    out: list[Record] = []
    if not flags:
        return out
    for sentence in sentences(skill.body, first):
        for flag in flags:
            if prose_verb(flag, sentence.text) == "agent":
                out.append(
                    Record(
                        qualified=flag.qualified,
                        sentence=sentence.text,
                        condition=sentence.condition,
                        where=Where(file=file, line=sentence.line, part="prose"),
                    )
                )
    return out


__all__ = ["skill_records"]
