"""Records that keep a case on its path where a gate decides by the project's data.

A gate's `requires` may compare a field a tool copies from a record with a number
(`request_prescriber_renewal: requires: … refills_left == 0`, and the tool that looks the
prescription up does `memory.set("refills_left", rx["refills_left"])`). Which record the
case names then decides which gated tool a correct agent may run: a prescription with no
refills left goes to the renewal, not to the refill the case submits. So a case that runs
the gated tool draws a record on the gate's side, and one that does not, a record off it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from evalcore.definitions import Project
from evalcore.definitions.conditions import COMPARE, compared_numbers
from evalcore.definitions.skill_model import code_facts, qualify

#: Record field -> a test its value passes on the case's path.
Holds = dict[str, Callable[[Any], bool]]


def _number(value: Any) -> float | None:
    """A record's value as a number (`3`, `"3"`), else None."""
    if isinstance(value, bool):
        return None
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _side(
    compare: Callable[[Any, Any], bool], number: float, played: bool
) -> Callable[[Any], bool]:
    def test(value: Any) -> bool:
        found = _number(value)
        return found is not None and compare(found, number) == played

    return test


def record_sources(project: Project, skill_id: str) -> dict[str, str]:
    """Qualified memory key -> the record field a tool of the skill copies into it
    (`refill_prescription.refills_left` <- `refills_left`), read from the tools' code."""
    assert project.mantle is not None
    defs = project.mantle
    out: dict[str, str] = {}
    for tool in defs.tools_for(skill_id).values():
        for write in code_facts(project, tool).writes:
            if write.source and not write.failure:
                out.setdefault(qualify(write.key, skill_id, defs), write.source)
    return out


def gate_sides(project: Project, skill_id: str, calls: frozenset[str]) -> Holds:
    """Record field -> the test a record the case names passes: for each gate of the skill
    whose `requires` compares a record-copied field with a number, the gate's side where
    the case runs the tool (`calls`), the other side where it does not (see module doc)."""
    assert project.mantle is not None
    skill = project.mantle.skills.get(skill_id)
    if skill is None:
        return {}
    sources = record_sources(project, skill_id)
    out: Holds = {}
    for name, constraint in skill.tool_constraints.items():
        tool = constraint.tool or name
        for key, op, number in compared_numbers(constraint.requires):
            field = sources.get(key)
            if field is None or op not in COMPARE:
                continue
            test = _side(COMPARE[op], number, tool in calls)
            earlier = out.get(field)
            out[field] = test if earlier is None else _both(earlier, test)
    return out


def _both(first: Callable[[Any], bool], second: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: first(value) and second(value)


__all__ = ["Holds", "gate_sides", "record_sources"]
