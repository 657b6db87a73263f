"""Records and numbers that keep a case on its path where the project's data decides.

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
from evalcore.definitions.skill_model import branch_values, code_facts, qualify
from evalcore.testdata import DataRecords

from ._mantle_facts import fed_parameters

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
    return {k: test for k, (test, _) in _gate_sides(project, skill_id, calls).items()}


def gate_reasons(project: Project, skill_id: str, calls: frozenset[str]) -> dict[str, str]:
    """Record field -> the gate behind its test in `gate_sides`, for a needs-review note."""
    return {k: why for k, (_, why) in _gate_sides(project, skill_id, calls).items()}


def _gate_sides(
    project: Project, skill_id: str, calls: frozenset[str]
) -> dict[str, tuple[Callable[[Any], bool], str]]:
    assert project.mantle is not None
    skill = project.mantle.skills.get(skill_id)
    if skill is None:
        return {}
    sources = record_sources(project, skill_id)
    out: dict[str, tuple[Callable[[Any], bool], str]] = {}
    for name, constraint in skill.tool_constraints.items():
        tool = constraint.tool or name
        for key, op, number in compared_numbers(constraint.requires):
            field = sources.get(key)
            if field is None or op not in COMPARE:
                continue
            played = tool in calls
            test = _side(COMPARE[op], number, played)
            why = f"{'the' if played else 'not the'} {tool} gate ({key} {op} {number:g})"
            earlier = out.get(field)
            if earlier is not None:
                test, why = _both(earlier[0], test), f"{earlier[1]} and {why}"
            out[field] = (test, why)
    return out


def _both(first: Callable[[Any], bool], second: Callable[[Any], bool]) -> Callable[[Any], bool]:
    return lambda value: first(value) and second(value)


def _rows(records: DataRecords, field: str, case_values: frozenset[str]) -> list[dict[str, Any]]:
    """The rows of the files holding `field` that are the case's (a row naming a value the
    case holds, the store it counts at), else all of them."""
    rows = [r for c in records.collections for r in c.records if _number(r.get(field)) is not None]
    mine = [r for r in rows if any(str(v) in case_values for v in r.values())]
    return mine or rows


def numbers_on_side(
    project: Project,
    skill_id: str,
    negative: dict[str, frozenset[str]],
    values: dict[str, Any],
    records: DataRecords,
    case_values: frozenset[str],
) -> dict[str, Any]:
    """`values` with each number a tool compares with a data file's rows on the side the
    case's path needs (see module doc): the flag holds on the goal's path unless the case
    plays the tool coming back negative (`negative`: tool -> keys it writes false)."""
    assert project.mantle is not None
    defs = project.mantle
    feeds = fed_parameters(defs)
    flags = branch_values(project, skill_id)
    out = dict(values)
    for name, tool in defs.tools_for(skill_id).items():
        for threshold in code_facts(project, tool).thresholds:
            key = qualify(threshold.key, skill_id, defs)
            holds = flags.get(key, True) and key not in negative.get(name, frozenset())
            rows = _rows(records, threshold.field, case_values)
            if not rows:
                continue
            labels = dict(threshold.labels)
            fed = [
                k
                for k in out
                if isinstance(out[k], int | float)
                and not isinstance(out[k], bool)
                and k.startswith(f"{skill_id}.")
                and (
                    k.rsplit(".", 1)[-1] in threshold.parameters
                    or set(feeds.get(k, ())) & set(threshold.parameters)
                )
            ]
            bounds = {}
            for k in fed:
                param = k.rsplit(".", 1)[-1]
                own = [r for r in rows if labels.get(param) in {str(v) for v in r.values()}]
                bounds[k] = [_number(r[threshold.field]) or 0.0 for r in own or rows]
            if not holds:  # no number on the flag's side of its row
                for k in fed:
                    out[k] = _moved(out[k], threshold.op, bounds[k], on=False)
            elif fed and not any(
                all(COMPARE[threshold.op](out[k], b) for b in bounds[k]) for k in fed
            ):  # one number on the flag's side of every row it may be compared with
                out[fed[0]] = _moved(out[fed[0]], threshold.op, bounds[fed[0]], on=True)
    return out


def _moved(value: Any, op: str, bounds: list[float], *, on: bool) -> Any:
    """`value`, or a number near it where `value op bound` holds for every bound (`on`) or
    for none (`op` `<`, not on: at or over the highest bound, a little over by the value)."""
    compare = COMPARE[op]
    if on and all(compare(value, b) for b in bounds):
        return value
    if not on and not any(compare(value, b) for b in bounds):
        return value
    low, high = min(bounds), max(bounds)
    spread = int(value) % 3
    if on:
        moved = low // 2 if op in ("<", "<=") else high + 1 + spread
        if not all(compare(moved, b) for b in bounds):
            return value  # no such number (a bound of 0 under `<`)
    elif op in ("<", "<="):
        moved = high + (1 if op == "<=" else 0) + spread
    else:
        moved = max(0.0, low - (1 if op == ">=" else 0) - spread)
    return int(moved) if isinstance(value, int) else float(moved)


__all__ = ["Holds", "gate_reasons", "gate_sides", "numbers_on_side", "record_sources"]
