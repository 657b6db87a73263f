"""A detour whose tool reads a number from the project's data and stores it as text lands
on a branch of the detour skill that asks a follow-up ("do you want a person to explain
why?"): the user has an answer for it (no, and back to the task), so a correct agent that
asks it never leaves the user making one up."""

from __future__ import annotations

import json
from pathlib import Path

from skill_model_fixtures import write_project
from test_detour_completes import FILES

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context

TRACK = """\
---
name: Track Parcel
description: >
  Look up where a parcel is by its parcel number: "where is my parcel".
tool_constraints:
  - track_parcel:
      requires: session.track_parcel.parcel_number
---

Help the customer track a parcel. Do not invent parcel numbers.

if: not session.track_parcel.parcel_number
Ask for the parcel number. When they give it, set `parcel_number` via `set_fields`.

if: session.track_parcel.parcel_number
Call track_parcel with that parcel number.

if: session.track_parcel.parcel_status == "1"
Say the parcel is on its way.

if: session.track_parcel.parcel_status == "4"
Say the parcel went back to the sender.
Ask if they want a person to explain why.
"""

TRACK_TOOLS = '''\
import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool

PARCELS = Path(__file__).resolve().parents[2] / "data" / "parcels.json"


@tool(description="Look up a parcel by its number.")
async def track_parcel(parcel_number: str, context: ToolContext = None):
    """Where the parcel is."""
    rows = json.loads(PARCELS.read_text())
    row = next((r for r in rows if r["parcel_number"] == parcel_number), None)
    if row is None:
        context.memory.set("parcel_status", "9")
        return {"error": "not_found"}
    status = int(row["parcel_status"])
    context.memory.set("parcel_status", str(status))
    return {"parcel_status": status}
'''

PARCEL_FILES = {
    # without the truck skill, which completes by its own rule and would be the detour
    **{path: text for path, text in FILES.items() if "truck_problem" not in path},
    "skills/track_parcel/skill.md": TRACK,
    "skills/track_parcel/tools.py": TRACK_TOOLS,
    "skills/track_parcel/memory.yml": (
        "schema:\n  public:\n    parcel_number:\n      type: text\n"
        "      description: The parcel number, e.g. PCL1001.\n      llm_settable: true\n"
        "    parcel_status:\n      type: text\n      description: Status code the lookup stores.\n"
    ),
    "data/parcels.json": json.dumps([{"parcel_number": "PCL1004", "parcel_status": 4}]),
}


def test_a_detour_branch_question_has_an_answer(tmp_path: Path) -> None:
    root = write_project(tmp_path / "depot", PARCEL_FILES)
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "book_slot", None).behaviors
    detours = [b for b in behaviors if b.facts.get("kind") == "digression"]
    detour = next(b for b in detours if b.facts["digression"]["skill"] == "track_parcel")
    data = draft_mantle(DraftContext(project, "mantle", detour))
    context = data["scenario"]["simulation_context"]
    facts = {f.label: f.value for f in parse_fact_context(context).facts}
    asked = facts.get("whether you want a person to explain why", "")
    assert asked.startswith("no, thanks; I'd like to go back to"), facts
