"""A signed-in session's seeds describe one person: the project's people file holds who signs
in (`data/staff.json` with each one's role and home branch), so a case seeds one record's id,
branch and role together, the one whose role the skill's precondition needs, and its persona
is that person in that job.

Before, each seeded field was drawn on its own from whichever file its name matched: a staff
id of a clerk with a branch id of the loans file and a role the precondition fixed, so the
case played a person the project's tools do not know; and a failure case turned the staff id
into the failing test account's (`S-40150`), a person the project's set does not hold.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

AGENT = """\
name: Branch desk
persona: You are the back-office helper of a lending library. Clerks and supervisors use you.
orchestrator:
  model_group: main
  preconditions:
    supervisors:
      satisfied_when: session.project.signed_in and session.project.role == "supervisor"
      resolve_with: sign_in
"""

MEMORY = """\
staff_id:
  type: text
  description: Staff number of the person signed in, S- and five digits.
  seed: true
branch_id:
  type: text
  description: The branch of the tablet, BR- and four digits.
  seed: true
role:
  type: categorical
  enum_values: [clerk, supervisor]
  description: Job of the person signed in.
  seed: true
signed_in:
  type: bool
  description: True once the tablet is signed in.
  seed: true
"""

COUNT = """\
---
name: Stock count
description: Recording the weekly count of returned boxes, "log the box count".
precondition: supervisors
tool_constraints:
  - record_count:
      requires: session.stock_count.boxes
      on_success: utter_count_saved
      on_failure: utter_count_failed
---

Ask how many boxes were counted and set boxes, then call record_count with the boxes.
"""

COUNT_MEMORY = """\
schema:
  public:
    boxes:
      type: int
      description: Boxes counted, 0 to 200.
      llm_settable: true
"""

COUNT_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Record the box count.")
async def record_count(staff_id: str, branch_id: str, boxes: int, context: ToolContext = None):
    """Save it.

    Args:
        staff_id: Who counted.
        branch_id: Where.
        boxes: How many.
    """
    return {"saved": True}
'''

STAFF = [
    {"staff_id": "S-40011", "first_name": "Ada", "last_name": "Moreno", "role": "clerk",
     "home_branch": "BR-0101"},
    {"staff_id": "S-40012", "first_name": "Ben", "last_name": "Ortiz", "role": "supervisor",
     "home_branch": "BR-0102"},
    {"staff_id": "S-40013", "first_name": "Cleo", "last_name": "Park", "role": "clerk",
     "home_branch": "BR-0103"},
    {"staff_id": "S-40014", "first_name": "Dev", "last_name": "Rao", "role": "supervisor",
     "home_branch": "BR-0104"},
]  # fmt: skip
LOANS = [{"loan_id": "L-77", "branch_id": "BR-0909", "title": "Dune"}]

FILES = {
    "agent.yml": AGENT,
    "integrations.yml": INTEGRATIONS,
    "memory.yml": MEMORY,
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "skills/stock_count/skill.md": COUNT,
    "skills/stock_count/memory.yml": COUNT_MEMORY,
    "skills/stock_count/tools.py": COUNT_TOOLS,
    "skills/stock_count/responses.yml": (
        "responses:\n  utter_count_saved:\n    - text: Count saved.\n"
        "  utter_count_failed:\n    - text: The count did not save.\n"
    ),
    "data/staff.json": json.dumps(STAFF),
    "data/loans.json": json.dumps(LOANS),
}


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    root = write_project(tmp_path_factory.mktemp("branch"), FILES)
    out = tmp_path_factory.mktemp("out")
    generate_offline(root, ["stock_count"], out)
    paths = sorted((out / "cases").rglob("*.yml"))
    return [yaml.safe_load(p.read_text("utf-8"))["scenario"] for p in paths]


def test_the_seeds_of_a_case_are_one_persons_record(scenarios: list[dict[str, Any]]) -> None:
    by_id = {s["staff_id"]: s for s in STAFF}
    seeded = 0
    for scenario in scenarios:
        slots = scenario.get("setup", {}).get("initial_slots", {})
        if "project.staff_id" not in slots:
            continue
        seeded += 1
        person = by_id.get(slots["project.staff_id"])
        assert person is not None, (scenario["name"], slots)
        # the precondition's role, so the person is one whose record holds it
        assert person["role"] == slots["project.role"] == "supervisor", (scenario["name"], slots)
        assert slots.get("project.branch_id") == person["home_branch"], (scenario["name"], slots)
        persona = scenario["simulation_context"].splitlines()[0]
        name = f"{person['first_name']} {person['last_name']}"
        assert persona.startswith(f"You are {name}, a supervisor"), (scenario["name"], persona)
    assert seeded >= 2
