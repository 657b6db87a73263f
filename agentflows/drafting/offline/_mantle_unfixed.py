"""Memory a case may not assert, because no definition makes a correct agent write it.

A skill's memory entry is written for certain where the runtime writes it (a `collect` or
`set_memory` step, a tool's code), where something waits on it (the skill's or a block's
`complete_when`, a step's own `complete_when`, an `execute_tool` step's `parameters`, the
`requires` of a tool the case runs), or where the skill's prose outside any block step
tells the model to set it ("set mode to one of …"). Two prose forms leave the write to chance:

- an entry the prose only asks about, and no `if:` or `next` forks on ("Ask for the
  environment … Then call start_deploy with the service, environment and version"): the
  answer can travel as the tool's argument and never reach memory;
- an entry an `instructions` step sets ("Ask whether another vehicle was involved and set
  other_party_involved") while the step's `complete_when` waits on another entry only: the
  runtime moves on once that one is set, whether or not the model asked (and it may hold
  already when the step starts). An entry a later `if:` or `next` forks on ("if:
  claim_type == auto") is one the model must write for the skill to go on at all.

Nor is an entry with an `initial_value` asserted unwritten: the runtime may record the
initial value as a write when the skill starts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from evalcore.definitions import MantleDefinitions, Project, Skill, memoized
from evalcore.definitions.conditions import condition_keys
from evalcore.definitions.skill_model import (
    code_facts,
    qualify,
    sentences,
    skill_branches,
    skill_model,
)
from evalcore.lexicon.en.instruction_words import KEEP_VERBS as _KEEP_VERBS
from evalcore.lexicon.en.instruction_words import SET_LIST_ENDS as _NOT_NAMES

Check = dict[str, Any]

#: Tokens between the entries one "set" names ("set policy_number and claim_type").
_JOINERS = frozenset({",", "and"})
#: Words that put one call before the rest of the skill's work ("Check trace_bag first").
_FIRST_WORDS = ("first", "before")
#: A block of a skill's body (`:::ordered_block … :::`): its steps are read as steps.
_BLOCK = re.compile(r"^:::\w.*?^:::\s*$", re.MULTILINE | re.DOTALL)


def unfixed_keys(project: Project, skill_id: str) -> frozenset[str]:
    """The skill's own entries no definition makes a correct agent write (see the module),
    before the `requires` of the tools a case runs (`fixed_by_tools`)."""
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return frozenset()
    return memoized(defs, ("unfixed_keys", skill_id), lambda: _unfixed(project, defs, skill_id))


def _unfixed(project: Project, defs: MantleDefinitions, skill_id: str) -> frozenset[str]:
    skill = defs.skills[skill_id]
    own = {f.qualified for f in defs.namespace_fields(skill_id)}
    fixed = _runtime_written(project, defs, skill) | _awaited(skill)
    prose = _BLOCK.sub("", skill.body or "")
    fixed |= _set_in((s.text for s in sentences(prose)), skill_id, defs)
    # what a path forks on (`if:` sections, `next` branches; not an `utter:` rule's `when`,
    # which only picks a message): the model writes it, or no section of its own applies
    forks = {k for branch in skill_branches(skill, "", 1) for k in branch.keys}
    fixed |= forks
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind != "instructions":
                continue
            waits = set(_keys(step.fields.get("complete_when")))
            named = _set_in((s.text for s in sentences(str(step.target or ""))), skill_id, defs)
            # a step that waits on nothing of its own runs until the model is done with it;
            # one that waits on an entry moves on once that is set: an entry a later branch
            # forks on ("if: claim_type == auto") is still one the model must write
            fixed |= waits | (named if not waits else named & forks)
    return frozenset(k for k in own if k not in fixed)


def _runtime_written(project: Project, defs: MantleDefinitions, skill: Skill) -> set[str]:
    """Entries a block step or one of the skill's tools writes."""
    out: set[str] = set()
    for block in skill.blocks.values():
        for step in block.steps:
            if step.kind == "collect":
                out.add(qualify(str(step.target), skill.id, defs))
            elif step.kind == "set_memory" and isinstance(step.target, dict):
                out |= {qualify(str(k), skill.id, defs) for k in step.target}
    for tool in defs.tools_for(skill.id).values():
        out |= {qualify(w.key, skill.id, defs) for w in code_facts(project, tool).writes}
    return out


def _awaited(skill: Skill) -> set[str]:
    """Entries the skill's or a block's `complete_when` reads, and those an `execute_tool`
    step passes to its tool (`parameters: {depart_date: session.travel.depart_date}`)."""
    out = set(_keys(skill.complete_when))
    for block in skill.blocks.values():
        out |= set(_keys(block.complete_when))
        for step in block.steps:
            params = step.fields.get("parameters") if step.kind == "execute_tool" else None
            for value in params.values() if isinstance(params, dict) else ():
                out |= set(_keys(value)) if isinstance(value, str) else set()
    return out


def fixed_by_tools(skill: Skill, tools: Iterable[str]) -> set[str]:
    """Entries the `requires` of `tools` (ones a case runs) reads: the runtime refuses the
    call until each is written."""
    out: set[str] = set()
    for name in tools:
        constraint = skill.tool_constraints.get(name)
        if constraint is not None and constraint.requires:
            out |= set(condition_keys(str(constraint.requires)))
    return out


def _keys(condition: Any) -> list[str]:
    if isinstance(condition, dict):
        condition = condition.get("condition")
    return condition_keys(condition) if isinstance(condition, str) else []


def _set_in(texts: Iterable[str], skill_id: str, defs: MantleDefinitions) -> set[str]:
    """Qualified entries the texts tell the model to set: "set X", "(set `X`", "set X and
    Y", "set X, Y and Z", "set @memory.x.y", "record the answer in @memory.x.y"."""
    out: set[str] = set()
    for text in texts:
        for mark in "(),;":
            text = text.replace(mark, f" {mark} ")
        words = text.split()
        for at, word in enumerate(words):
            if word.lower() == "set":
                out |= {_qualified(n, skill_id, defs) for n in _listed(words[at + 1 :])}
        if _KEEP_VERBS & {w.lower() for w in words}:
            named = [w.strip("`.:").removeprefix("@memory.") for w in words if "@memory." in w]
            out |= {_qualified(n, skill_id, defs) for n in named if n}
    return out


def _qualified(name: str, skill_id: str, defs: MantleDefinitions) -> str:
    """`name` qualified for the skill, unless it names its namespace already."""
    head = name.split(".", 1)[0]
    return (
        name
        if "." in name and (head == "project" or head in defs.skills)
        else (qualify(name, skill_id, defs))
    )


def _listed(words: list[str]) -> list[str]:
    """The entry names a "set" opens: names joined by "," and "and"."""
    names: list[str] = []
    expect_name = True
    for word in words:
        if word.lower() in _JOINERS and names:
            expect_name = True
            continue
        name = word.strip("`@.:").removeprefix("memory.")
        if not expect_name or name.lower() in _NOT_NAMES:
            break
        if not name.replace(".", "_").isidentifier():
            break
        names.append(name)
        expect_name = False
    return names


def without_unfixed(check: Check | None, unfixed: frozenset[str]) -> Check | None:
    """`check` less the `memory_was_set` items and `sequencing` steps of `unfixed` entries
    (a list or a sequencing left without enough goes)."""
    if not check or not unfixed:
        return check
    items = check.get("memory_was_set")
    if isinstance(items, list):
        kept = [i for i in items if not (isinstance(i, dict) and i.get("name") in unfixed)]
        return {"memory_was_set": kept} if kept else None
    steps = check.get("sequencing")
    if isinstance(steps, list):
        left = [c for c in steps if c.get("memory_was_set") not in unfixed]
        return {"sequencing": left} if len(left) > 1 else None
    return check


def without_initial(check: Check | None, defs: MantleDefinitions) -> Check | None:
    """`check` less the `memory_was_not_set` items on an entry with an `initial_value`
    (unless the item names another value than the initial one)."""
    items = check.get("memory_was_not_set") if check else None
    if not isinstance(items, list):
        return check
    names = defs.memory_names()

    def initial(item: Any) -> bool:
        field = names.get(item.get("name", "")) if isinstance(item, dict) else None
        if field is None or field.initial_value is None:
            return False
        return "value" not in item or item["value"] == field.initial_value

    kept = [i for i in items if not initial(i)]
    return {"memory_was_not_set": kept} if kept else None


def inferred_keys(project: Project, skill_id: str) -> frozenset[str]:
    """The skill's own entries only the model writes, from what it reads in the user's
    words (no step or tool writes them, and the prose does not have the agent set them on
    its own doing: "Set paged once the page goes out" fixes `paged` true): their value is
    fixed only where the case's user says it."""
    defs = project.mantle
    if defs is None or skill_id not in defs.skills:
        return frozenset()

    def build() -> frozenset[str]:
        skill = defs.skills[skill_id]
        own = {f.qualified for f in defs.namespace_fields(skill_id)}
        records = {r.qualified for r in skill_model(project, skill_id).records}
        return frozenset(own - _runtime_written(project, defs, skill) - records)

    return memoized(defs, ("inferred_keys", skill_id), build)


def without_values(check: Check | None, unsaid: frozenset[str]) -> Check | None:
    """`check` with the `memory_was_set` items of `unsaid` entries by name only: the entry
    is written, but which value the model reads into the user's words is not fixed."""
    items = check.get("memory_was_set") if check else None
    if not isinstance(items, list) or not unsaid:
        return check
    kept = [
        {"name": i["name"]} if isinstance(i, dict) and i.get("name") in unsaid else i for i in items
    ]
    return {"memory_was_set": kept}


def ordered_tools(defs: MantleDefinitions, skill: Skill) -> frozenset[str]:
    """The skill's tools whose place on a path the definitions fix: gated ones (the task's
    end waits on the confirmation), those a block's `execute_tool` step runs (block order),
    and those the skill's prose, outside its blocks, puts first ("Check the live status …
    with @tool.get_flight_status before anything else", "Before ordering, look up the
    address with @tool.get_mailing_address"): the one named nearest the word.
    Another prose call ("today's meetings (from @tool.list_events), emails (from
    @tool.search_inbox)") keeps no order against the rest."""
    return memoized(defs, ("ordered_tools", skill.id), lambda: frozenset(_ordered(defs, skill)))


def _ordered(defs: MantleDefinitions, skill: Skill) -> set[str]:
    out = {
        name
        for name, c in skill.tool_constraints.items()
        if c.requires_confirmation is not None and c.requires_confirmation.enabled
    }
    for block in skill.blocks.values():
        out |= {str(s.target) for s in block.steps if s.kind == "execute_tool"}
    names = list(defs.tools_for(skill.id))
    for sentence in sentences(_BLOCK.sub("", skill.body or "")):
        marks = _marks(sentence.text.lower())
        found = [
            (abs(m.start() - at), name)
            for name in names
            for m in re.finditer(rf"(?<![\w-]){re.escape(name)}(?![\w-])", sentence.text)
            for at in marks
        ]
        if found:
            out.add(min(found)[1])
    return out


def _marks(text: str) -> list[int]:
    """Where the words of `_FIRST_WORDS` stand in `text` (lower case), as whole words."""
    out: list[int] = []
    for words in _FIRST_WORDS:
        at = text.find(words)
        while at >= 0:
            end = at + len(words)
            if (at == 0 or not text[at - 1].isalnum()) and not text[end : end + 1].isalnum():
                out.append(at)
            at = text.find(words, end)
    return out


__all__ = [
    "fixed_by_tools",
    "inferred_keys",
    "ordered_tools",
    "unfixed_keys",
    "without_initial",
    "without_unfixed",
    "without_values",
]
