"""A flag a lookup computes and the task's tool `requires` ("exam_current and not
controlled"): the goal-reaching path takes the values that let the tool run, in the
planner's walk and the reference agent's fake backend alike, so the happy path reaches the
task's tool instead of stopping at the lookup."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.planning._mantle_walk import Setup, walk_skill
from evalcore.agents.reference._backend import FakeBackend
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import branch_values

REFILL = """\
---
name: Repeat prescription
description: Repeating a pet's prescription.
tool_constraints:
  - request_refill:
      requires: session.refill.exam_current and not session.refill.controlled
      on_success: utter_refill_requested
  - ask_vet:
      requires: session.refill.controlled
complete_when:
  condition: session.refill.refill_ref
---

Look up the prescription with @tool.find_prescription and ask for the pickup.

if: session.refill.controlled
Controlled drugs need a vet: ask one with @tool.ask_vet.

Then send the request with @tool.request_refill.
"""

TOOLS = '''\
from datetime import date

from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Find the pet's prescription.")
async def find_prescription(client_id: str, context: ToolContext = None):
    """The prescription on file."""
    row = {"last_exam": "2026-01-01", "controlled": False}
    context.memory.set("exam_current", row["last_exam"] >= date.today().isoformat())
    context.memory.set("controlled", row["controlled"])
    return row


@tool(description="Send the refill request.")
async def request_refill(pickup: str, context: ToolContext = None):
    """Queue it."""
    context.memory.set("refill_ref", "RF-1")
    return {"ref": "RF-1"}


@tool(description="Ask a vet to call back.")
async def ask_vet(context: ToolContext = None):
    """A call-back."""
    return {}
'''

FILES = {
    "agent.yml": "name: Vets\npersona: You help pet owners.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "client_id:\n  type: text\n  seed: true\n",
    "responses.yml": "responses:\n  utter_refill_requested:\n    - text: Requested.\n",
    "skills/refill/skill.md": REFILL,
    "skills/refill/tools.py": TOOLS,
    "skills/refill/memory.yml": (
        "schema:\n  public:\n"
        "    pickup: {type: categorical, enum_values: [clinic, post], llm_settable: true}\n"
        "    exam_current: {type: bool}\n    controlled: {type: bool}\n"
        "    refill_ref: {type: text}\n"
    ),
}


@pytest.fixture(scope="module")
def vets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("vets"), FILES)


def test_the_completing_tools_requires_decides_the_flags(vets: Path) -> None:
    # ask_vet wants `controlled` true, request_refill false: the tool that writes what
    # complete_when waits for decides
    flags = branch_values(load_project(vets), "refill")
    assert flags == {"refill.exam_current": True, "refill.controlled": False}


def test_the_walk_reaches_the_task_and_the_backend_agrees(vets: Path) -> None:
    project = load_project(vets)
    walk = walk_skill(project, "refill", Setup())
    assert [e.tool for e in walk.events if e.kind == "tool"] == [
        "find_prescription",
        "request_refill",
    ]
    assert walk.completed
    result = FakeBackend(project).call("refill", "find_prescription", {"client_id": "1"}, {})
    assert result.writes["refill.exam_current"] is True
    assert result.writes["refill.controlled"] is False
