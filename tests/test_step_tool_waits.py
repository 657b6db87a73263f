"""An instructions step whose `complete_when` a tool the step calls fills ("Ask what the
animal ate (set substance) and its weight (set weight_kg). Then check the toxin", with
`complete_when: urgency`, which check_toxin writes): the agent asks the tool's inputs,
not the result, and the tool fills it; the planner's walk and the reference agent agree."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, play_lines, write_project

from agentflows.planning._mantle_walk import Setup, walk_skill
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import build_skill_model

TRIAGE = """\
---
name: Poison line
description: A pet that ate something it should not have.
tool_constraints:
  - check_toxin:
      requires: session.poison.substance and session.poison.weight_kg
complete_when:
  condition: session.poison.urgency
---

Start with @block.triage.

:::ordered_block id=triage
steps:
  - id: what_eaten
    instructions: |
      Ask what the animal ate (set substance) and how much it weighs in kilograms (set
      weight_kg). Then check the toxin with the substance and the weight.
    complete_when: session.poison.urgency
:::
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Check whether an amount of a substance is toxic for a weight.")
async def check_toxin(substance: str, weight_kg: float, context: ToolContext = None):
    """The toxin table's verdict."""
    level = "severe" if weight_kg < 10 else "mild"
    context.memory.set("urgency", "now" if level == "severe" else "today")
    return {"level": level}
'''

FILES = {
    "agent.yml": "name: Poison line\npersona: You help pet owners.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": "responses:\n  utter_cannot_help:\n    - text: Sorry.\n",
    "skills/poison/skill.md": TRIAGE,
    "skills/poison/tools.py": TOOLS,
    "skills/poison/memory.yml": (
        "schema:\n  public:\n"
        "    substance: {type: text, description: What the animal ate., llm_settable: true}\n"
        "    weight_kg: {type: float, description: Its weight in kilograms., llm_settable: true}\n"
        "    urgency: {type: categorical, enum_values: [now, today], llm_settable: true}\n"
    ),
}


@pytest.fixture(scope="module")
def line(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("poison"), FILES)


def test_the_step_waits_for_the_tools_inputs(line: Path) -> None:
    model = build_skill_model(load_project(line), "poison")
    waits = model.step_waits("triage", "what_eaten", ["poison.urgency"])
    assert waits == ["poison.substance", "poison.weight_kg"]
    # a key no step tool writes stays what the step waits for
    assert model.step_waits("triage", "what_eaten", ["poison.other"]) == ["poison.other"]


def test_the_walk_asks_the_inputs_and_runs_the_tool(line: Path) -> None:
    walk = walk_skill(load_project(line), "poison", Setup())
    assert [a.field for a in walk.asks] == ["poison.substance", "poison.weight_kg"]
    assert [e.tool for e in walk.events if e.kind == "tool"] == ["check_toxin"]
    assert walk.completed


def test_the_reference_agent_asks_the_inputs_and_the_tool_sets_the_result(line: Path) -> None:
    events = play_lines(line, ["My dog ate something it should not have", "chocolate", "8.5"])
    asked = [e for e in events if e["event"] == "memory_set" and e["key"].startswith("poison.")]
    assert [(e["key"], e["value"]) for e in asked][:2] == [
        ("poison.substance", "chocolate"),
        ("poison.weight_kg", 8.5),
    ]
    calls = [e for e in events if e["event"] == "tool_executed"]
    assert [c["tool_name"] for c in calls] == ["check_toxin"]
    assert any(e["event"] == "skill_completed" for e in events)
