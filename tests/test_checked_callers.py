"""A case behind an identity check has a caller who passes it.

Found on a lab facility's assistant: a skill behind a precondition that only a sign-in
skill opens (its tool looks the badge up in the user list and turns an inactive account
away) seeded no badge where the skill's own tools take none, so the persona was an invented
name the user list does not hold, and where it did seed one it could be an inactive
account's: either way a correct agent stops at the check and nothing the case asserts
happens. And a skill whose precondition the channel seeds (`project.signed_in: true`)
seeded a signed-in session of nobody where its own tools take no id: the persona was no
one the directory holds. And a caller found by phone in one file whose verification
compares a date of birth and a postcode another file holds (their policy) was given none
of them, or was a holder whose only policy had lapsed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from evalcore.testdata import (
    Collection,
    DataRecords,
    callers_in,
    checked_details,
    in_good_standing,
    session_person,
)

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


HOLDERS = Collection(
    "holders",
    (
        {"holder_id": "H-1", "first_name": "Rosa", "last_name": "Vidal", "phone": "+15550101"},
        {"holder_id": "H-2", "first_name": "Emil", "last_name": "Sauer", "phone": "+15550102"},
    ),
)
PLANS = Collection(
    "plans",
    (
        {"plan_no": "PL-11", "holder_id": "H-1", "birth_date": "1980-05-04", "postcode": "30301",
         "state": "active"},
        {"plan_no": "PL-12", "holder_id": "H-1", "birth_date": "1980-05-04", "postcode": "30309",
         "state": "active"},
        {"plan_no": "PL-21", "holder_id": "H-2", "birth_date": "1969-12-01", "postcode": "80202",
         "state": "lapsed"},
    ),
)  # fmt: skip


def test_a_check_gets_the_details_the_callers_own_record_of_another_file_holds() -> None:
    records = DataRecords([HOLDERS, PLANS])
    rosa, emil = callers_in(records)
    names = ["plan_no", "birth_date", "postcode", "last_name"]
    said = checked_details(records, rosa, names)
    # all from one plan of hers (the check matches them on one row)
    assert said["plan_no"] in {"PL-11", "PL-12"}
    assert said["birth_date"] == "4 May 1980"
    assert said["postcode"] == {"PL-11": "30301", "PL-12": "30309"}[said["plan_no"]]
    assert said["last_name"] == "Vidal"
    # the plan the case already holds gives them
    held = checked_details(records, rosa, names, [PLANS.records[1]])
    assert (held["plan_no"], held["postcode"]) == ("PL-12", "30309")
    # never another holder's plan
    assert checked_details(records, emil, names)["plan_no"] == "PL-21"
    # a day said in the form the check states, where it states one
    formed = checked_details(records, rosa, names, forms={"birth_date": "%m/%d/%Y"})
    assert formed["birth_date"] == "05/04/1980"


def test_a_caller_whose_only_policy_lapsed_is_not_in_good_standing() -> None:
    records = DataRecords([HOLDERS, PLANS])
    rosa, emil = callers_in(records)
    assert in_good_standing(records, rosa)
    assert not in_good_standing(records, emil)


PLAN_AGENT = """\
name: Larch mutual
persona: >
  You are the phone line of Larch Mutual, a small pet insurer. Callers are plan holders.
"""

PLAN_MEMORY = """\
caller_phone:
  type: text
  # Number the holder is calling from, E.164 (+15550101).
  seed: true
verified:
  type: bool
  # True once the plan number, birth date and postcode matched one plan.
"""

VERIFY = """\
---
name: Verify the holder
description: >
  Identity check before anything that touches a plan: "check it's me on file".
import_tools:
  - verify_plan
---

If @memory.project.verified is true there is nothing to do. Otherwise run @block.check.

:::ordered_block id=check
steps:
  - id: ask_plan
    collect: plan_no
    description: The plan number, PL- followed by two digits.
  - id: ask_birth
    collect: birth_date
    description: The holder's date of birth, MM/DD/YYYY.
  - id: ask_postcode
    collect: postcode
    description: Five-digit postcode of the insured address.
  - id: run
    execute_tool: verify_plan
    parameters:
      plan_no: session.verify.plan_no
      birth_date: session.verify.birth_date
      postcode: session.verify.postcode
:::
"""

VERIFY_MEMORY = """\
schema:
  private:
    plan_no:
      type: text
      description: Plan number, PL- followed by two digits.
      llm_settable: true
    birth_date:
      type: text
      description: Date of birth, MM/DD/YYYY.
      llm_settable: true
    postcode:
      type: text
      description: Five-digit postcode.
      llm_settable: true
"""

VERIFY_TOOLS = '''\
import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool

DATA = Path(__file__).resolve().parents[2] / "data"


@tool(description="Match the caller with one plan's number, birth date and postcode.")
async def verify_plan(plan_no: str, birth_date: str, postcode: str, context: ToolContext = None):
    """Check three details against the plan.

    Args:
        plan_no: PL- followed by two digits.
        birth_date: MM/DD/YYYY.
        postcode: Five digits.
    """
    plans = json.loads((DATA / "plans.json").read_text())
    found = any(p["plan_no"] == plan_no and p["postcode"] == postcode for p in plans)
    if found and context is not None:
        context.memory.set("project.verified", True)
    return {"verified": found}
'''

VET = """\
---
name: Vet bill
description: >
  Sending in a vet bill: "I have a vet bill", "claim for my dog's surgery".
tool_constraints:
  - send_bill:
      requires: session.vet.amount
      on_success: utter_sent
---

If @memory.project.verified is not true yet, run @skill.verify first.
Then run @block.bill, and call send_bill with the amount.

:::ordered_block id=bill
steps:
  - id: ask_amount
    collect: amount
    description: The bill's total in dollars.
:::
"""

VET_MEMORY = """\
schema:
  public:
    amount:
      type: float
      description: The bill's total in dollars.
      llm_settable: true
"""

VET_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Send a vet bill in for payment.")
async def send_bill(amount: float, context: ToolContext = None):
    """Send it.

    Args:
        amount: Total in dollars.
    """
    return {"sent": True}
'''

PLAN_FILES = {
    "agent.yml": PLAN_AGENT,
    "integrations.yml": INTEGRATIONS,
    "memory.yml": PLAN_MEMORY,
    "responses.yml": "responses:\n  utter_sent:\n    - text: Sent.\n",
    "skills/verify/skill.md": VERIFY,
    "skills/verify/memory.yml": VERIFY_MEMORY,
    "skills/verify/tools.py": VERIFY_TOOLS,
    "skills/vet/skill.md": VET,
    "skills/vet/memory.yml": VET_MEMORY,
    "skills/vet/tools.py": VET_TOOLS,
    "data/holders.json": json.dumps(HOLDERS.records),
    "data/plans.json": json.dumps(PLANS.records),
}


def test_a_case_sent_through_a_verification_knows_what_it_compares(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    root = write_project(tmp_path_factory.mktemp("larch"), PLAN_FILES)
    report = generate_offline(root, ["vet"], tmp_path_factory.mktemp("out"))
    rows = [r for r in report["cases"] if str(r.get("path", "")).endswith("happy_path.yml")]
    assert rows
    for row in rows:
        scenario = yaml.safe_load(Path(row["path"]).read_text("utf-8"))["scenario"]
        context = scenario["simulation_context"]
        # Rosa (H-1): Emil's only plan has lapsed, and the check compares her plan's details
        assert scenario["setup"]["initial_slots"]["project.caller_phone"] == "+15550101"
        # in the form the check states (MM/DD/YYYY), which its parser reads; a spoken
        # "4 May 1980" may not parse
        assert "05/04/1980" in context and "May 1980" not in context, context
        assert ("PL-11" in context and "30301" in context) or (
            "PL-12" in context and "30309" in context
        ), context


def test_the_signed_in_person_lists_the_choice_the_case_books() -> None:
    people = (
        {"badge": "B1", "name": "Ada Park", "trained_on": ["lathe"]},
        {"badge": "B2", "name": "Bo Lind", "trained_on": ["lathe", "kiln"]},
        {"badge": "B3", "name": "Cy Ruiz", "trained_on": []},
    )
    file = Collection("people", people)
    records = DataRecords([file])

    def drawn(prefer: frozenset[str]) -> set[str]:
        return {
            session_person(records, file, {}, f"k{slot}", slot, prefer=prefer)["badge"]
            for slot in range(6)
        }

    # a training gate checks the list: a kiln booking's person is trained on the kiln
    assert drawn(frozenset({"kiln"})) == {"B2"}
    assert drawn(frozenset({"lathe"})) == {"B1", "B2"}
    # a choice nobody lists leaves everyone
    assert drawn(frozenset({"loom"})) == {"B1", "B2", "B3"}
