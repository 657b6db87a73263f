"""A list a tool fills (open slots) and a `next` branches on: offline, the reference agent's
fake backend returns one item, as the planner's walk assumes, so the happy path goes on to
the choice instead of the "nothing free" branch.

Before: the backend returned `[]`, every case of such a skill took the `none_free` branch
in the reference agent while the plan expected the booking, and all of them were dropped.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation

SKILL = """\
---
name: Workshop slot
description: Booking the car into the workshop, "book my car in", "I need a service slot".
tool_constraints:
  - book_bay:
      requires: session.bay.confirmed
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_bay
        utter_on_user_denial: utter_bay_dropped
      on_success: utter_booked
complete_when:
  condition: session.bay.booking_ref
---

Run @block.slot. When confirmed is true, call book_bay with the slot.

:::ordered_block id=slot
steps:
  - id: lookup
    execute_tool: find_slots
  - id: any
    noop: true
    next:
      - if: session.bay.open_slots
        then: choose
      - else: none_free
  - id: none_free
    action: utter_no_slots
    next: END
  - id: choose
    collect: slot_start
    utterance: utter_ask_slot
    description: One of the open slots, MM/DD/YYYY.
  - id: read_back
    instructions: |
      Read back the slot. Set confirmed when they agree.
    complete_when: session.bay.confirmed
  - id: END
:::
"""

TOOLS = '''\
import httpx
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="List open workshop slots.")
async def find_slots(context: ToolContext = None):
    """Open slots for the next week."""
    response = httpx.get("https://workshop.example/slots")
    context.memory.set("open_slots", [s["start"] for s in response.json()])
    return {"ok": True}


@tool(description="Book the slot.")
async def book_bay(slot_start: str, context: ToolContext = None):
    """Book it.

    Args:
        slot_start: MM/DD/YYYY.
    """
    context.memory.set("booking_ref", "WS-10001")
    return {"booked": True}
'''

MEMORY = """\
schema:
  public:
    open_slots:
      type: list
      description: Start dates of the open slots.
    slot_start:
      type: text
      description: The chosen slot, MM/DD/YYYY.
      llm_settable: true
    confirmed:
      type: bool
      llm_settable: true
    booking_ref:
      type: text
"""

RESPONSES = """\
responses:
  utter_no_slots:
    - text: The workshop has no free slot this week.
  utter_ask_slot:
    - text: Which slot suits you?
  utter_booked:
    - text: Booked as {booking_ref}.
  utter_confirm_bay:
    - text: Book {slot_start} for your car?
  utter_bay_dropped:
    - text: Nothing booked.
"""

FILES = {
    "agent.yml": "name: Garage desk\npersona: You help drivers book their car in.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "skills/bay/skill.md": SKILL,
    "skills/bay/tools.py": TOOLS,
    "skills/bay/memory.yml": MEMORY,
    "skills/bay/responses.yml": RESPONSES,
}


def test_the_happy_path_takes_the_branch_a_filled_list_opens(tmp_path: Path, run_cli_json) -> None:
    root = write_project(tmp_path / "garage", FILES)
    request = build_request(["bay"], project=root, out=str(tmp_path / "cases"))
    report = asyncio.run(
        run_generation(request, engine=OfflineEngine(), checkpoints=tmp_path / "c.sqlite")
    )
    happy = [r for r in report["cases"] if r["type"] == "happy_path"]
    assert happy, report["dropped"]
    assert all(r["verified"] == "yes" for r in happy)
    text = Path(happy[0]["path"]).read_text("utf-8")
    assert "utter_booked" in text and "book_bay" in text
    # played from outside the project against `mantle:DIR`: the simulator reads that
    # project's read-backs ("Book {slot_start} for your car?" says no usual confirm words)
    code, summary = run_cli_json(
        "run", happy[0]["path"], "--target", f"mantle:{root}", "--results", tmp_path / "res"
    )
    assert code == 0, summary
