"""A case behind an identity check has a caller who passes it.

Found on a lab facility's assistant: a skill behind a precondition that only a sign-in
skill opens (its tool looks the badge up in the user list and turns an inactive account
away) seeded no badge where the skill's own tools take none, so the persona was an invented
name the user list does not hold, and where it did seed one it could be an inactive
account's: either way a correct agent stops at the check and nothing the case asserts
happens. And a skill whose precondition the channel seeds (`project.signed_in: true`)
seeded a signed-in session of nobody where its own tools take no id: the persona was no
one the directory holds.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from evalcore.testdata import Collection, DataRecords, session_person

AGENT = """\
name: Kestrel makerspace
persona: >
  You are the front desk of the Kestrel makerspace. Members book the shared machines.
orchestrator:
  model_group: main
  preconditions:
    member_checked:
      satisfied_when: session.project.checked
      resolve_with: check_member
"""

MEMORY = """\
member_no:
  type: text
  description: Membership number, KM followed by five digits. The portal sign-in fills it.
  seed: true
checked:
  type: bool
  description: True once the membership number was found and the membership is active.
"""

CHECK = """\
---
name: Check the member
description: >
  Signing in with a membership number: "I need to sign in", "here's my member number".
import_tools:
  - lookup_member
---

If @memory.project.member_no is known, use it; otherwise ask for the membership number.
Call @tool.lookup_member with it. If it is not found or not active, say so and stop.
"""

CHECK_TOOLS = '''\
import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool

DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="Look a member up by membership number.")
async def lookup_member(member_no: str, context: ToolContext = None):
    """Find the member and whether the membership is active.

    Args:
        member_no: KM followed by five digits.
    """
    people = json.loads((DATA / "members.json").read_text())
    person = next((p for p in people if p["member_no"] == member_no), None)
    if person is None or not person["active"]:
        return {"found": person is not None, "active": False}
    if context is not None:
        context.memory.set("project.checked", True)
    return {"found": True, "first_name": person["name"].split()[0]}
'''

BOOK = """\
---
name: Machine time
description: >
  Booking a machine: "book the laser cutter", "I need the 3D printer on Friday".
precondition: member_checked
tool_constraints:
  - book_machine:
      requires: session.book.machine
      on_success: utter_booked
---

Ask which machine they want and set machine, then call book_machine with the machine.
"""

BOOK_MEMORY = """\
schema:
  public:
    machine:
      type: categorical
      enum_values: [laser_cutter, printer_3d]
      description: Which machine.
      llm_settable: true
"""

BOOK_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Book a machine for the member.")
async def book_machine(machine: str, context: ToolContext = None):
    """Book it.

    Args:
        machine: laser_cutter or printer_3d.
    """
    return {"booked": True}
'''

MEMBERS = [
    {"member_no": "KM10231", "name": "Ines Haddad", "active": False},
    {"member_no": "KM10577", "name": "Oskar Brandt", "active": True},
    {"member_no": "KM10902", "name": "Wen Liang", "active": False},
]

FILES = {
    "agent.yml": AGENT,
    "integrations.yml": INTEGRATIONS,
    "memory.yml": MEMORY,
    "responses.yml": "responses:\n  utter_booked:\n    - text: Booked.\n",
    "skills/check_member/skill.md": CHECK,
    "skills/check_member/tools.py": CHECK_TOOLS,
    "skills/book/skill.md": BOOK,
    "skills/book/memory.yml": BOOK_MEMORY,
    "skills/book/tools.py": BOOK_TOOLS,
    "data/members.json": json.dumps(MEMBERS),
}


#: The same desk where the portal signs the member in (a seeded flag) before the chat.
SEEDED = {
    **FILES,
    "agent.yml": AGENT.replace("session.project.checked", "session.project.signed_in"),
    "memory.yml": MEMORY
    + "signed_in:\n  type: bool\n  description: True when the portal signed the member in.\n"
    + "  seed: true\n",
}


@pytest.fixture(scope="module", params=["sign-in skill", "seeded sign-in"])
def generated(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, Any]:
    files = FILES if request.param == "sign-in skill" else SEEDED
    root = write_project(tmp_path_factory.mktemp("makerspace"), files)
    return generate_offline(root, ["book"], tmp_path_factory.mktemp("out"))


def test_a_case_behind_a_sign_in_seeds_an_active_member_and_is_that_person(
    generated: dict[str, Any],
) -> None:
    rows = [r for r in generated["cases"] if str(r.get("path", "")).endswith(".yml")]
    assert rows
    for row in rows:
        scenario = yaml.safe_load(Path(row["path"]).read_text("utf-8"))["scenario"]
        seeded = (scenario.get("setup") or {}).get("initial_slots") or {}
        # the sign-in looks the member up by the seeded number: the only active one
        assert seeded.get("project.member_no") == "KM10577", (row["path"], seeded)
        assert "You are Oskar Brandt" in scenario["simulation_context"], row["path"]


def test_the_signed_in_person_is_one_in_good_standing_where_any_is() -> None:
    people = (
        {"badge": "B1", "name": "Ada Park", "active": False},
        {"badge": "B2", "name": "Bo Lind", "status": "lapsed"},
        {"badge": "B3", "name": "Cy Ruiz", "active": True, "status": "current"},
    )
    file = Collection("people", people)
    drawn = {
        session_person(DataRecords([file]), file, {}, f"k{slot}", slot)["badge"]
        for slot in range(6)
    }
    assert drawn == {"B3"}
    # a file where nobody is in standing still gives a person (the case says why elsewhere)
    lapsed = Collection("people", people[:2])
    assert session_person(DataRecords([lapsed]), lapsed, {}, "k", 0)["badge"] in {"B1", "B2"}
