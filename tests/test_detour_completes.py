"""A detour has to complete for the interrupted skill to resume: the planner takes the other
skill's phrasing whose walk meets its `complete_when`, never an answer-only mode of it that
the reference agent (like the runtime) never marks completed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.runner import collect_cases

BOOK = """\
---
name: Book a workshop slot
description: >
  A slot at the workshop for a service: "book my truck in for a service".
tool_constraints:
  - book_slot:
      requires: session.book_slot.depot
      on_success: utter_slot_booked
complete_when:
  condition: session.book_slot.booking_id
---

Ask which depot suits them (set depot), then call @tool.book_slot with it.
"""

TRUCK = """\
---
name: Truck problem
description: >
  Anything wrong with the truck: "a warning light came on on the dash", "log a defect
  from my pre-trip".
tool_constraints:
  - log_defect:
      requires: session.truck_problem.component
      on_success: utter_defect_logged
complete_when:
  condition: session.truck_problem.defect_id
---

Find out what kind of problem it is and set issue_type.

if: session.truck_problem.issue_type == "warning_light"
Call @tool.read_fault_codes and tell them whether to stop at the next safe place.

if: session.truck_problem.issue_type == "defect"
Ask which part the defect is on (set component), then call @tool.log_defect with it.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Book a workshop slot at a depot.")
async def book_slot(depot: str, context: ToolContext = None):
    """Book the slot."""
    context.memory.set("booking_id", "BK-204417")
    return {"booked": True}
'''

DEFECT_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Log a defect on the truck.")
async def log_defect(component: str, context: ToolContext = None):
    """Log it."""
    context.memory.set("defect_id", "DEF-204417")
    return {"logged": True}


@tool(description="Read the truck's fault codes.")
async def read_fault_codes(context: ToolContext = None):
    """The codes."""
    return {"codes": []}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Fleet\npersona: You help truck drivers.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/book_slot/skill.md": BOOK,
    "skills/book_slot/tools.py": TOOLS,
    "skills/book_slot/memory.yml": (
        "schema:\n  public:\n    depot:\n      type: categorical\n"
        "      enum_values: [north, south]\n      description: The depot.\n"
        "    booking_id:\n      type: text\n      description: Booking number.\n"
    ),
    "skills/book_slot/responses.yml": (
        "responses:\n  utter_slot_booked:\n    - text: Your slot is booked.\n"
    ),
    "skills/truck_problem/skill.md": TRUCK,
    "skills/truck_problem/tools.py": DEFECT_TOOLS,
    "skills/truck_problem/memory.yml": (
        "schema:\n  public:\n    issue_type:\n      type: categorical\n"
        "      enum_values: [warning_light, defect]\n      description: >-\n"
        "        warning_light (a dashboard light came on) or defect (found on the pre-trip"
        " inspection).\n"
        "      llm_settable: true\n"
        "    component:\n      type: categorical\n      enum_values: [brakes, lights]\n"
        "      description: The part the defect is on.\n"
        "    defect_id:\n      type: text\n      description: Defect report number.\n"
    ),
    "skills/truck_problem/responses.yml": (
        "responses:\n  utter_defect_logged:\n    - text: The defect is logged.\n"
    ),
}


def test_the_detour_is_a_phrasing_that_completes(tmp_path: Path) -> None:
    root = write_project(tmp_path / "fleet", FILES)
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "book_slot", None).behaviors
    detour = next(b for b in behaviors if b.facts.get("kind") == "digression")
    spec = detour.facts["digression"]
    assert spec["skill"] == "truck_problem"
    # the first phrasing is a warning light (an answer that never meets complete_when)
    assert spec["given"] == {"truck_problem.issue_type": "defect"}, spec
    assert spec["line"] == "Before that, log a defect from my pre-trip."
    data = draft_mantle(DraftContext(project, "mantle", detour))
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "detour.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    cases = collect_cases([folder], project=root)
    report = asyncio.run(mutate(cases, root, concurrency=1, only=[]))
    assert set(report.reference.values()) == {"passed"}, report.reference
    kinds = [next(iter(a)) for a in data["scenario"]["goals"]["assertions"]]
    assert "skill_resumed" in kinds


def test_a_detour_line_lowers_an_article_but_keeps_an_acronym() -> None:
    from agentflows.planning._mantle_detours import _lower_first

    assert _lower_first("A red light came on on the dash.") == "a red light came on on the dash."
    assert _lower_first("SSO keeps logging me out.") == "SSO keeps logging me out."
    assert _lower_first("I broke down.") == "I broke down."


def test_a_detour_case_tells_the_user_to_take_the_offer_to_go_back(tmp_path: Path) -> None:
    from evalcore.simulator import parse_fact_context

    root = write_project(tmp_path / "fleet", FILES)
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "book_slot", None).behaviors
    detour = next(b for b in behaviors if b.facts.get("kind") == "digression")
    data = draft_mantle(DraftContext(project, "mantle", detour))
    context = data["scenario"]["simulation_context"]
    assert "skill_resumed" in [next(iter(a)) for a in data["scenario"]["goals"]["assertions"]]
    line = next(x for x in context.splitlines() if x.startswith("When the agent offers"))
    task = "your request to book a workshop slot"
    assert line == (
        f"When the agent offers to go back to {task}, say yes; if it asks whether there is "
        "anything else before that, or stops without a word about it, say no and ask to go "
        "back to it."
    )
    assert parse_fact_context(context).resume == "your request to book a workshop slot"
