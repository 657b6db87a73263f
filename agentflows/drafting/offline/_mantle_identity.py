"""The identity details a case's caller gives to a check another skill runs first.

A skill's prose may send the caller through another skill before it helps ("Tell the
verified patient where their order is (run @skill.verify_patient first …)"): the walk of the
case's own skill does not ask what that check asks, so without these facts the user cannot
answer, the check fails and the case never reaches what it asserts. The details are the ones
the check's tool compares with the caller's record (`date_of_birth`, `last_name`), and they
are the record's own: the same person the seeded phone names.
"""

from __future__ import annotations

from evalcore.definitions import MantleDefinitions, Skill
from evalcore.definitions.skill_model.prose_patterns import SKILL
from evalcore.testdata import Caller, own_key

from ._direction import value_words

#: A tool that checks who is calling compares at least this many details with the record.
_CHECKED = 2


def identity_facts(
    defs: MantleDefinitions, skill: Skill, walked: set[str], caller: Caller
) -> list[tuple[str, str]]:
    """(label, value) for each detail the identity check of a skill `skill` sends the caller
    to compares with `caller`'s record, where the case's walk asks nothing of that skill
    (`walked`: the skills it asks in): a tool of that skill with `_CHECKED` or more
    parameters that its blocks collect from the user and the record holds (a seeded phone or
    id is the session's, never said)."""
    record = caller.record
    if record is None:
        return []
    out: list[tuple[str, str]] = []
    for target in dict.fromkeys(SKILL.findall(skill.body or "")):
        if target == skill.id or target in walked or target not in defs.skills:
            continue
        asked = _collected(defs.skills[target])
        for tool in defs.tools_for(target).values():
            names = [p.name for p in tool.parameters if p.name != "context"]
            held = [n for n in names if n in asked and own_key(record, n)]
            if len(held) < _CHECKED:
                continue
            for name in held:
                value = caller.detail(value_words(name))
                if value is not None and (value_words(name), value) not in out:
                    out.append((value_words(name), value))
    return out


def _collected(skill: Skill) -> set[str]:
    """The field names `skill`'s blocks collect from the user."""
    return {
        str(step.target).rsplit(".", 1)[-1]
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "collect" and step.target
    }


__all__ = ["identity_facts"]
