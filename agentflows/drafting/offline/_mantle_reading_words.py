"""The words of a story agree with the reading the case gives for the same measure.

"What's it doing: The reach-in fridge feels warm" beside "thermometer reading inside:
40°F", where the skill sends a reading over 41 to food safety: the case stays on the
in-range side on purpose (its path opens a repair ticket), yet its story says the fridge
runs warm, which its own reading denies, and a careful agent may well find nothing to
repair. So where a case fixes a temperature on one side of a line its skill's conditions
draw (`session.x > 41`), a told line that says the thing runs warm (on the side the case
is not) says a fault no reading explains instead (`UNEXPLAINED_FAULT`); so too for cold
below a `<` line. A case over the line (the food-safety one) keeps "feels warm".
"""

from __future__ import annotations

from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField
from evalcore.definitions.conditions import compared_numbers
from evalcore.lexicon.en.prose_values import RUNS_COLD, RUNS_WARM, UNEXPLAINED_FAULT
from evalcore.testdata import FieldSpec, stated_unit


def fits_the_reading(
    defs: MantleDefinitions, field: MemoryField, value: str, fixed: dict[str, Any]
) -> str:
    """`value` (a text the user tells) with a "runs warm" or "runs cold" predicate the
    case's own temperature denies put as a fault no reading explains (see the module)."""
    skill = defs.skills.get(field.namespace)
    if skill is None:
        return value
    lines: dict[str, list[tuple[str, float]]] = {}
    for condition in _conditions(defs, field.namespace):
        for key, op, number in compared_numbers(condition):
            lines.setdefault(key.removeprefix("session."), []).append((op, number))
    for key, number in fixed.items():
        other = defs.memory_field(key)
        if other is None or isinstance(number, bool) or not isinstance(number, int | float):
            continue
        spec = FieldSpec(other.name, other.type, other.description or "")
        if not (stated_unit(spec) or "").startswith("°"):
            continue  # a temperature only: its words say which side it is on
        for op, line in lines.get(key, []):
            said = None
            if op in (">", ">=") and not (number > line if op == ">" else number >= line):
                said = RUNS_WARM.search(value)  # in range, yet "feels warm"
            elif op in ("<", "<=") and not (number < line if op == "<" else number <= line):
                said = RUNS_COLD.search(value)
            if said is not None:
                return value[: said.start()] + UNEXPLAINED_FAULT + value[said.end() :]
    return value


def _conditions(defs: MantleDefinitions, skill_id: str) -> list[str]:
    """The skill's block branch conditions, prose `if:` conditions and tools' `requires`."""
    skill = defs.skills[skill_id]
    out = [
        branch.condition
        for block in skill.blocks.values()
        for step in block.steps
        if isinstance(step.next, list)
        for branch in step.next
        if branch.condition
    ]
    out += [c.condition for c in skill.prose_conditions]
    return out + [c.requires for c in skill.tool_constraints.values() if c.requires]


__all__ = ["fits_the_reading"]
