"""Whether a case fixes the `when:` of a skill's `utter:` rule, so asserting its response is fair.

The runtime sends a `when:` rule's response as its condition comes true. The walk fills the
memory a tool writes from a record with a stand-in (`is_controlled: true`), so the walk firing
the rule says nothing about a real run: a prescription with no DEA schedule makes the tool
write false and the notice never comes. A case asserts the response only where each key the
condition reads is fixed by the case itself: a value the user gives or the case seeds (the
instrument chosen), a literal a block step on the path sets, a literal the tool writes on
success (`balance_reported: True`), or a field the tool copies from the case's own record in
the project's data whose value makes the condition true.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from evalcore.definitions import MantleDefinitions, Project
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.definitions.skill_model import UNKNOWN, code_facts, qualify
from evalcore.testdata import DataRecords


def _bare(key: str) -> str:
    return key.removeprefix("session.")


def block_literals(defs: MantleDefinitions, skill_id: str, elements: Iterable[str]) -> set[str]:
    """Keys a `set_memory` step on the path (the walk's covered `elements`) sets to a literal."""
    skill = defs.skills[skill_id]
    covered = set(elements)
    out: set[str] = set()
    for block in skill.blocks.values():
        for step in block.steps:
            on_path = f"step:{skill.id}.{block.id}.{step.id}" in covered
            if on_path and step.kind == "set_memory" and isinstance(step.target, dict):
                out |= {qualify(str(k), skill.id, defs) for k in step.target}
    return out


def tool_values(
    project: Project, runs: Iterable[tuple[str, str]]
) -> tuple[dict[str, Any], dict[str, str]]:
    """What the path's successful runs of the project's own tools (`runs`: skill, tool)
    write: key -> the literal written on success, and key -> the record field a value is
    copied from."""
    defs = project.mantle
    assert defs is not None
    literals: dict[str, Any] = {}
    copied: dict[str, str] = {}
    for skill_id, name in runs:
        tool = defs.tools_for(skill_id).get(name)
        if tool is None:
            continue
        for write in code_facts(project, tool).writes:
            if write.failure or write.guarded:
                continue
            key = qualify(write.key, skill_id, defs)
            if write.value is not UNKNOWN:
                literals[key] = write.value
            elif write.source:
                copied[key] = write.source
    return literals, copied


def _own_rows(records: DataRecords, field: str, named: set[str]) -> list[Mapping[str, Any]]:
    """The rows holding `field` that name a value the case names (its Rx number)."""
    return [
        r
        for c in records.collections
        for r in c.records
        if field in r and any(str(v) in named for v in r.values() if v not in (None, ""))
    ]


def case_fixes(
    condition: str,
    *,
    given: Mapping[str, Any],
    set_on_path: set[str],
    literals: Mapping[str, Any],
    copied: Mapping[str, str],
    records: DataRecords,
    named: Iterable[Any],
) -> bool:
    """Whether the case fixes `condition` true (module doc): every key it reads is given by
    the case (`given`: told or seeded values), set by a block step on the path, written as a
    literal, or copied from a record of the case's own; and the condition holds on those
    values, each of the case's records included."""
    memory: dict[str, Any] = {}
    from_rows: dict[str, str] = {}
    for key in map(_bare, condition_keys(condition)):
        if key in given:
            memory[key] = given[key]
        elif key in literals:
            memory[key] = literals[key]
        elif key in set_on_path:
            continue  # the walk's memory holds what the step set
        elif key in copied:
            from_rows[key] = copied[key]
        else:
            return False
    if not from_rows:
        return True
    names = {str(v) for v in named if v not in (None, "")}
    picks: list[dict[str, Any]] = [{}]
    for key, field in from_rows.items():
        rows = _own_rows(records, field, names)
        if not rows:
            return False
        picks = [{**p, key: r[field]} for p in picks for r in rows]
    return all(evaluate(condition, {**memory, **p}) for p in picks)


__all__ = ["block_literals", "case_fixes", "tool_values"]
