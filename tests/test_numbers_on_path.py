"""A number or a date the simulated user gives keeps the case on its path: within the values
the field's description allows ("2 or 3", "1 to 96"), on the skill's side of a line the
prose leaves the skill across ("Under 55°F is an emergency: go to @skill.emergency_line"),
and the end of a span (`override_end`, `return_date`) after its start, in the future.

Before, every int was drawn from 1 to 8 whatever the description said: a payment plan of 8
installments where plans are 2 or 3, and a thermostat reading of 4°F in a routine repair
case, which a correct agent hands to the emergency line instead of filing the repair; an
on-call override ending a month before it starts, a trip returning weeks ago.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from agentflows.drafting.offline._mantle_facts import on_the_path
from evalcore.definitions import load_project
from evalcore.testdata import FieldSpec, SheetBuilder, case_rng
from evalcore.testdata._values import reference_day, typed_value


def _draws(spec: FieldSpec) -> set[object]:
    return {typed_value(spec, case_rng(f"case{n}", "value")) for n in range(40)}


def test_a_number_is_drawn_among_the_values_its_description_allows() -> None:
    plan = FieldSpec("plan_installments", "int", "Number of installments for a plan, 2 or 3.")
    assert _draws(plan) == {2, 3}
    tubes = _draws(FieldSpec("sample_count", "int", "Number of tubes or wells, 1 to 96."))
    assert all(1 <= n <= 96 for n in tubes) and max(tubes) > 8
    rating = _draws(FieldSpec("score", "float", "Rating between 1 and 5."))
    assert all(1 <= n <= 5 for n in rating)
    # a description stating no values keeps the type's draw
    assert _draws(FieldSpec("boxes", "int", "Boxes counted.")) <= set(range(1, 9))


HEATING = """\
---
name: Repair request
description: Residents report a repair in their unit, "my heating is broken".
tool_constraints:
  - submit_repair:
      requires: session.repair.indoor_temp_f
---

Run @block.details. Then call submit_repair with the reading.

:::ordered_block id=details
steps:
  - id: reading
    instructions: |
      Ask what the thermostat reads inside (set indoor_temp_f). Under 55°F is an
      emergency: go to @skill.emergency_line.
    complete_when: session.repair.indoor_temp_f
:::
"""

EMERGENCY = """\
---
name: Emergency line
description: Emergencies in the building, "there is a gas smell".
---

Tell them to leave the building and page the on-call technician.
"""

FILES = {
    "agent.yml": "name: Building desk\npersona: You help residents with repairs.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "{}\n",
    "skills/repair/skill.md": HEATING,
    "skills/repair/memory.yml": (
        "schema:\n  public:\n    indoor_temp_f:\n      type: int\n"
        "      description: Thermostat reading inside the unit in °F.\n"
        "      llm_settable: true\n"
    ),
    "skills/repair/tools.py": (
        "from rasa.mantle.tools.decorator import ToolContext, tool\n\n\n"
        '@tool(description="File the repair.")\n'
        "async def submit_repair(indoor_temp_f: int, context: ToolContext = None):\n"
        '    """File it.\n\n    Args:\n        indoor_temp_f: The reading.\n    """\n'
        '    return {"ok": True}\n'
    ),
    "skills/emergency_line/skill.md": EMERGENCY,
}


def test_a_reading_stays_on_the_side_that_keeps_the_case_in_its_skill(tmp_path: Path) -> None:
    root = write_project(tmp_path / "project", FILES)
    defs = load_project(root).mantle
    assert defs is not None
    field = defs.memory_names()["repair.indoor_temp_f"]
    assert 55 <= on_the_path(defs, field, 4) <= 60  # near the line, on its own scale
    assert on_the_path(defs, field, 71) == 71  # already on the skill's side: kept
    generate_offline(root, ["repair"], tmp_path / "out")
    readings = []
    for path in sorted((tmp_path / "out" / "cases").rglob("*.yml")):
        scenario = yaml.safe_load(path.read_text("utf-8"))["scenario"]
        for line in scenario["simulation_context"].splitlines():
            fact = line.strip()
            if fact.startswith("- ") and "thermostat" in fact:
                readings.append(int(fact.rsplit(":", 1)[1].strip().removesuffix("°F")))
    assert readings and all(r >= 55 for r in readings), readings


def test_the_end_of_a_span_comes_after_its_start() -> None:
    start = FieldSpec("override_start", "text", "Override start, ISO 8601 (2026-12-05).")
    end = FieldSpec("override_end", "text", "Override end, ISO 8601.")
    back = FieldSpec("return_date", "text", "Return date, MM/DD/YYYY.")
    for n in range(30):
        sheet = SheetBuilder(f"case{n}", "")
        first, last = sheet.value(start), sheet.value(end)
        assert first < last, (first, last)  # ISO days compare as text
        # an end with no start in the case is still a coming day, never a past one
        came = dt.datetime.strptime(SheetBuilder(f"c{n}", "").value(back), "%m/%d/%Y").date()
        assert came > reference_day(), came
