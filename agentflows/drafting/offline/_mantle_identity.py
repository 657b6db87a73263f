"""The identity details a case's caller gives to a check another skill runs first.

A skill's prose may send the caller through another skill before it helps ("Tell the
verified patient where their order is (run @skill.verify_patient first …)"), or read project
memory only another skill's tool writes ("the store from @memory.project.home_store_id",
which the verification fills), so a correct agent may well verify first: the walk of the
case's own skill does not ask what that check asks, so without these facts the user cannot
answer, the check fails and the case never reaches what it asserts. The details are the ones
the check's tool compares with the caller's record (`date_of_birth`, `last_name`), and they
are the record's own, or those of one of the caller's own records of another file (the
policy whose date of birth and ZIP a verification compares): the same person the seeded
phone names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from evalcore.definitions import MantleDefinitions, Project, Skill, memoized
from evalcore.definitions.skill_model import code_facts, prose_reads, qualify
from evalcore.definitions.skill_model.prose_patterns import SKILL
from evalcore.testdata import (
    Caller,
    DataRecords,
    checked_details,
    date_format,
    named_by,
    own_key,
)

from ._direction import value_words

#: A parameter description's first words name the detail where they are at most this many.
_NAME_WORDS = 3
#: A parameter name of at most this many letters and no word break is a code (`pnr`).
_CODE_LETTERS = 4
#: A tool that checks who is calling compares at least this many details with the record.
_CHECKED = 2


def _writers_of_read(project: Project, skill: Skill) -> list[str]:
    """The other skills whose tools write project memory `skill`'s prose reads and its own
    tools do not: the agent may run one of them first to get it."""
    defs = project.mantle
    read = prose_reads(skill)
    if defs is None or not read:
        return []
    writes = _skill_writes(project)
    read -= writes.get(skill.id, frozenset())
    return [other for other, written in writes.items() if other != skill.id and read & written]


def _skill_writes(project: Project) -> dict[str, frozenset[str]]:
    """Each skill (in the project's order) -> the memory keys its tools write: one map per
    project, which each case reads (built per case, it read every skill's tools again)."""
    defs = project.mantle
    assert defs is not None
    key = ("identity:skill_writes", id(defs), id(defs.skills), len(defs.skills))

    def build() -> dict[str, frozenset[str]]:
        return {
            skill: frozenset(
                qualify(w.key, skill, defs)
                for tool in defs.tools_for(skill).values()
                for w in code_facts(project, tool).writes
            )
            for skill in defs.skills
        }

    return memoized(project, key, build)


def tools_write(project: Project, skills: Iterable[str]) -> set[str]:
    """The memory keys the tools of `skills` write."""
    if project.mantle is None:
        return set()
    writes = _skill_writes(project)
    return {k for skill in skills for k in writes.get(skill, ())}


def read_facts(
    project: Project, skill: Skill, caller: Caller, records: DataRecords, memory: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """(label, value) for each project memory entry `skill`'s prose reads that only another
    skill's tool writes and the case's walk leaves unset (`memory`): "call
    @tool.transfer_to_pharmacist with the store from @memory.project.home_store_id", where
    nothing verified the caller. A correct agent may then ask for it, so the user knows
    their own: the value of `caller`'s record under the same thing (`home_store`), said by
    the name the project's records give it (`Meadow Pharmacy Lawrenceville`, not ST-022)."""
    defs = project.mantle
    if caller.record is None or defs is None:
        return []
    writes = _skill_writes(project)
    read = prose_reads(skill) - writes.get(skill.id, frozenset())
    written = {k for other, keys in writes.items() if other != skill.id for k in keys & read}
    out: list[tuple[str, str]] = []
    for key in sorted(read & written):
        field = defs.memory_field(key)
        if field is None or memory.get(key) is not None:
            continue
        thing = field.name.removesuffix("_id")
        collection = caller.collection or ""
        own = own_key(caller.record, field.name, collection) or own_key(
            caller.record, thing, collection
        )
        value = caller.record.get(own or "")
        if not isinstance(value, str) or not value.strip():
            continue
        said = named_by(records, thing.rsplit("_", 1)[-1], value) or value
        out.append((value_words(thing), said))
    return out


def identity_facts(
    project: Project,
    skill: Skill,
    walked: set[str],
    caller: Caller,
    records: DataRecords,
    held: Iterable[Mapping[str, Any]] = (),
    called: frozenset[str] = frozenset(),
) -> list[tuple[str, str]]:
    """(label, value) for each detail the identity check of a skill `skill` sends the caller
    to compares with `caller`'s record, where the case's walk asks nothing of that skill
    (`walked`: the skills it asks in): a tool of that skill with `_CHECKED` or more
    parameters that its blocks collect from the user and the caller's records hold
    (`checked_details`, the case's `held` records first; a seeded phone or id is the
    session's, never said). Where its blocks collect nothing (its prose asks for them),
    the ones no seed fills. Each is the record key the tool's code compares it
    with (`last_name` with a passenger's `last`), else the key of its own name."""
    defs = project.mantle
    if caller.record is None or defs is None:
        return []
    held = list(held)
    out: list[tuple[str, str]] = []
    # the skill itself counts where the case's path runs its check (`called`) and the walk
    # asks nothing for it (its prose asks for the details)
    targets = [skill.id, *SKILL.findall(skill.body or ""), *_writers_of_read(project, skill)]
    for target in dict.fromkeys(targets):
        if target in walked or target not in defs.skills:
            continue
        collected = _collected(defs.skills[target])
        for tool in defs.tools_for(target).values():
            if target == skill.id and tool.name not in called:
                continue
            names = [p.name for p in tool.parameters if p.name != "context"]
            asked = [n for n in names if n in collected]
            if not collected:  # a skill of prose only: it asks for what its tool takes
                asked = [n for n in names if n not in _seeded(defs)]
            keys = dict(code_facts(project, tool).compared)
            forms = _date_forms(defs, target, tool.parameters)
            said = checked_details(records, caller, asked, held, keys, forms)
            if len(said) < _CHECKED:
                continue
            described = {p.name: p.description for p in tool.parameters}
            for name, value in said.items():
                label = label_of(name, described.get(name))
                if (label, value) not in out:
                    out.append((label, value))
    return out


def label_of(name: str, description: str | None) -> str:
    """What the user calls a detail: for a name that is a short code (`pnr`), the first
    words of the parameter's description where they are a plain name (`Booking reference`
    of `Booking reference, six characters …`), else the name's words."""
    head = re.split(r"[,.;:(]", description or "", maxsplit=1)[0].strip()
    words = head.split()
    code = len(name) <= _CODE_LETTERS and name.isalpha()
    if code and 0 < len(words) <= _NAME_WORDS and all(w.isalpha() for w in words):
        return head[0].lower() + head[1:]
    return value_words(name)


def _date_forms(
    defs: MantleDefinitions, skill_id: str, parameters: Iterable[Any]
) -> dict[str, str]:
    """Parameter name -> the strftime form its day is said in, where the parameter's
    description or the skill's memory entry of that name states one (`MM/DD/YYYY`): the
    form the check's own parser reads, which a spoken day need not be."""
    fields = defs.memory_view()
    out: dict[str, str] = {}
    for param in parameters:
        entry = fields.get(f"{skill_id}.{param.name}")
        for text in (param.description, entry.description if entry is not None else None):
            form = date_format(text or "")
            if form is not None:
                out[param.name] = form
                break
    return out


def _seeded(defs: MantleDefinitions) -> frozenset[str]:
    """The names of the memory fields the channel seeds (`seed: true`): one set per
    definitions (built per case, it copied and read every skill's memory)."""
    key = ("identity:seeded", id(defs.memory), len(defs.memory), id(defs.skills), len(defs.skills))
    return memoized(
        defs, key, lambda: frozenset(f.name for f in defs.memory_names().values() if f.seed)
    )


def _collected(skill: Skill) -> set[str]:
    """The field names `skill`'s blocks collect from the user."""
    return {
        str(step.target).rsplit(".", 1)[-1]
        for block in skill.blocks.values()
        for step in block.steps
        if step.kind == "collect" and step.target
    }


__all__ = ["identity_facts", "label_of", "read_facts", "tools_write"]
