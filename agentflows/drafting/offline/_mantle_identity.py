"""The identity details a case's caller gives to a check another skill runs first.

A skill's prose may send the caller through another skill before it helps ("Tell the
verified patient where their order is (run @skill.verify_patient first …)"): the walk of the
case's own skill does not ask what that check asks, so without these facts the user cannot
answer, the check fails and the case never reaches what it asserts. The details are the ones
the check's tool compares with the caller's record (`date_of_birth`, `last_name`), and they
are the record's own, or those of one of the caller's own records of another file (the
policy whose date of birth and ZIP a verification compares): the same person the seeded
phone names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from evalcore.definitions import MantleDefinitions, Skill
from evalcore.definitions.skill_model.prose_patterns import SKILL
from evalcore.testdata import Caller, DataRecords, checked_details

from ._direction import value_words

#: A tool that checks who is calling compares at least this many details with the record.
_CHECKED = 2


def identity_facts(
    defs: MantleDefinitions,
    skill: Skill,
    walked: set[str],
    caller: Caller,
    records: DataRecords,
    held: Iterable[Mapping[str, Any]] = (),
) -> list[tuple[str, str]]:
    """(label, value) for each detail the identity check of a skill `skill` sends the caller
    to compares with `caller`'s record, where the case's walk asks nothing of that skill
    (`walked`: the skills it asks in): a tool of that skill with `_CHECKED` or more
    parameters that its blocks collect from the user and the caller's records hold
    (`checked_details`, the case's `held` records first; a seeded phone or id is the
    session's, never said)."""
    if caller.record is None:
        return []
    held = list(held)
    out: list[tuple[str, str]] = []
    for target in dict.fromkeys(SKILL.findall(skill.body or "")):
        if target == skill.id or target in walked or target not in defs.skills:
            continue
        asked = _collected(defs.skills[target])
        for tool in defs.tools_for(target).values():
            names = [p.name for p in tool.parameters if p.name != "context"]
            said = checked_details(records, caller, [n for n in names if n in asked], held)
            if len(said) < _CHECKED:
                continue
            for name, value in said.items():
                if (value_words(name), value) not in out:
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
