"""A case plays only a story the caller's data bear out.

Found on an airline's assistant: a rebooking's detour had the passenger say "the handle on
my bag is broken" of a bag still checked in at the departure airport, cued on a question
the live status lookup may answer first; and a change-of-delivery case gave the passenger
a report reference although every bag row of the data says it has no report.
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.planning import NOT_WRITTEN, plan_source
from evalcore.definitions import MemoryField, load_project
from evalcore.definitions.skill_model import set_from_answer
from evalcore.testdata import Collection, DataRecords, callers_in, story_fit

BOOKINGS = Collection(
    "bookings",
    (
        {"ref": "KT4QZ", "lead": "T1", "parcels": ["PC-100001"],
         "travellers": [{"id": "T1", "first": "Ines", "last": "Marchetti"}]},
        {"ref": "WB7RN", "lead": "T1", "parcels": ["PC-100002"],
         "travellers": [{"id": "T1", "first": "Oskar", "last": "Lindahl"}]},
    ),
)  # fmt: skip
PARCELS = Collection(
    "parcel_items",
    (
        {"parcel": "PC-100001", "status": "checked", "last_scan": "depot 06:58"},
        {"parcel": "PC-100002", "status": "delivered", "last_scan": "door 10:58"},
    ),
)
RECORDS = DataRecords([BOOKINGS, PARCELS])


def _caller(first: str):
    return next(c for c in callers_in(RECORDS) if c.name == first)


def test_a_damage_story_fits_only_a_thing_that_reached_the_caller() -> None:
    ines, oskar = _caller("Ines"), _caller("Oskar")
    broken = ["The handle on my parcel is broken."]
    # Ines's parcel is still checked in: nothing can have broken in her hands
    assert story_fit(RECORDS, ines, broken, {"parcel"}) < 0
    assert story_fit(RECORDS, oskar, broken, {"parcel"}) > 0
    # a question about the thing presupposes no state of it
    assert story_fit(RECORDS, ines, ["Where is my parcel?"], {"parcel"}) == 0
    # records of a file the skill does not act on say nothing of the story
    assert story_fit(RECORDS, ines, broken, {"invoice"}) == 0


def test_a_bracketed_clause_that_sets_a_field_from_a_tool_is_read_as_such() -> None:
    field = MemoryField(name="delay_minutes", namespace="rebook", type="int")
    said = "Ask how late the flight is now (set delay_minutes from get_flight_status)."
    assert set_from_answer(field, said)
    assert not set_from_answer(field, "Ask how late the flight is now and set delay_minutes.")


_SKILL = """---
name: Parcels
description: >
  A customer's parcel: "where is my parcel", "send my parcel to my office instead".
---

Set mode from what they need: track or redirect.

if: session.parcels.mode == "track"
Ask for the parcel number (set parcel_number), then call @tool.track_parcel.

if: session.parcels.mode == "redirect"
Ask for the claim reference (set claim_id, e.g. CL-12345) and the new address (set
address), then call @tool.redirect_parcel.
"""

_MEMORY = """schema:
  public:
    mode:
      type: categorical
      enum_values: [track, redirect]
      description: What the customer needs.
      llm_settable: true
    parcel_number:
      type: text
      description: Parcel number, PC- and six digits.
      llm_settable: true
    claim_id:
      type: text
      description: Claim reference like CL-12345.
      llm_settable: true
    address:
      type: text
      description: New delivery address with postcode.
      llm_settable: true
"""

_TOOLS = """from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Where a parcel is.")
async def track_parcel(parcel_number: str, context: ToolContext = None) -> ToolResult:
    return ToolResult(llm_response={"scan": "depot"})


@tool(description="Send a parcel with an open claim to another address.")
async def redirect_parcel(
    claim_id: str, address: str, context: ToolContext = None
) -> ToolResult:
    return ToolResult(llm_response={"updated": True})
"""

_CUSTOMERS = """[
  {"customer_id": "C1", "first_name": "Ines", "last_name": "Marchetti",
   "phone": "+15550101", "parcels": [{"parcel": "PC-100001", "claim": null}]},
  {"customer_id": "C2", "first_name": "Oskar", "last_name": "Lindahl",
   "phone": "+15550102", "parcels": [{"parcel": "PC-100002", "claim": null}]}
]
"""


def test_a_branch_that_asks_for_an_id_no_caller_holds_is_not_written(tmp_path: Path) -> None:
    root = write_project(
        tmp_path,
        {
            "agent.yml": "name: Parcel desk\npersona: You help customers with parcels.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
            "skills/parcels/skill.md": _SKILL,
            "skills/parcels/memory.yml": _MEMORY,
            "skills/parcels/tools.py": _TOOLS,
            "data/customers.json": _CUSTOMERS,
        },
    )
    plan = plan_source(load_project(root), "mantle", "parcels", None)
    happy = {b.case: b for b in plan.behaviors if b.facts.get("kind") == "happy"}
    # every parcel row says `claim: null`: a redirect case would invent the claim
    assert "claim_id" in str(happy["redirect"].facts.get(NOT_WRITTEN))
    assert NOT_WRITTEN not in happy["track"].facts
