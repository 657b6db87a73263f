"""A detour waits where the skill still has work of its own, never at its closing question.

Before: a prose skill whose only question closes it ("Ask if they want to reserve one of them
or need anything else.") got its detour at that question: a correct agent takes the detour as
the answer, the skill completes, and nothing is interrupted or resumed, so the case was
dropped by verification. Now such a skill plans no detour and says why in `untestable`; a
skill with an earlier question after which it still has work gets its detour there, and the
reference agent no longer takes an aside that says neither yes nor no ("Before that, when are
you open?") as the answer to a yes/no question: it parks the skill and resumes it.
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, play_lines, write_project

from agentflows.planning import plan_source
from evalcore.definitions import load_project

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="The garden centre's plants in stock.")
async def list_plants(context: ToolContext = None):
    return {"plants": [{"name": "Lavender", "price": "6.50"}]}


@tool(description="Care tips for the plants in stock.")
async def plant_tips(context: ToolContext = None):
    return {"tips": ["Water weekly"]}


@tool(description="The opening hours.")
async def opening_hours(context: ToolContext = None):
    return {"hours": "9-17"}
"""

#: The only question is the closing one: its answer ends the skill.
CATALOGUE = """\
---
name: Plant catalogue
description: List the plants in stock. Activate when the customer asks which plants you sell.
import_tools:
  - list_plants
---

Call list_plants and read each plant out with its price.
Ask if they want to reserve one of them or need anything else.
"""

#: A question with work after it (the tips), then the closing one.
CARE = """\
---
name: Plant care
description: Explain how to look after the plants. Activate when the customer asks about plant care.
import_tools:
  - list_plants
  - plant_tips
---

Call list_plants and read each plant out.
Ask whether they want care tips for them. If yes, call plant_tips and read the tips out.
Ask if that answered their question.
"""

HOURS = """\
---
name: Opening hours
description: Activate when the customer asks when the garden centre is open.
import_tools:
  - opening_hours
---

Call opening_hours and read the hours out.
"""


def _root(tmp_path: Path) -> Path:
    return write_project(
        tmp_path / "garden",
        {
            "agent.yml": "name: Garden centre\npersona: You help gardeners.\n",
            "integrations.yml": INTEGRATIONS,
            "tools/plants.py": TOOLS,
            "skills/plant_catalogue/skill.md": CATALOGUE,
            "skills/plant_care/skill.md": CARE,
            "skills/opening_hours/skill.md": HOURS,
        },
    )


def _project(tmp_path: Path):
    return load_project(_root(tmp_path))


def test_a_skill_whose_only_question_closes_it_plans_no_detour_and_says_why(tmp_path) -> None:
    plan = plan_source(_project(tmp_path), "mantle", "plant_catalogue", None)
    kinds = {b.facts.get("kind") for b in plan.behaviors}
    assert "digression" not in kinds
    assert "answer ends the skill" in plan.untestable["digression"]


def test_a_detour_waits_at_the_question_after_which_the_skill_still_works(tmp_path) -> None:
    plan = plan_source(_project(tmp_path), "mantle", "plant_care", None)
    detour = next(
        b.facts["digression"] for b in plan.behaviors if b.facts.get("kind") == "digression"
    )
    assert detour["at"] == 0  # the care-tips question, not the closing one
    assert detour["skill"] == "opening_hours"
    assert "digression" not in plan.untestable


def test_an_aside_at_a_yes_no_question_parks_the_skill_and_resumes_it(tmp_path) -> None:
    events = play_lines(
        _root(tmp_path),
        ["How do I look after my plants?", "Before that, when is the garden centre open?", "no"],
    )
    kinds = [(e.get("event"), e.get("skill_id")) for e in events]
    assert ("skill_interrupted", "plant_care") in kinds
    assert ("skill_activated", "opening_hours") in kinds
    assert ("skill_resumed", "plant_care") in kinds
