"""An instructions step that sets a tool's input from the user's pick before the read-back it
completes on ("Set flight_id from their pick, then read the trip back and set
details_verified when they agree"): the reference agent records the pick where the step
sets it, before the agreement, not once the tool that `requires` it comes to run."""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, play_lines, write_project

TRAVEL = """\
---
name: Travel
description: Booking a flight for a trip.
tool_constraints:
  - book_flight:
      requires: session.travel.details_verified and session.travel.flight_id
---

Run @block.trip. When details_verified is true, call @tool.book_flight.

:::ordered_block id=trip
steps:
  - id: where
    collect: city
    utterance: utter_ask_city
  - id: find
    execute_tool: search_flights
    parameters:
      city: session.travel.city
  - id: choose
    instructions: |
      Offer the two best options from search_flights. Set flight_id from their pick, then
      read the whole trip back and set details_verified when they agree.
    complete_when: session.travel.details_verified
:::
"""

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Find flights to a city.")
async def search_flights(city: str, context: ToolContext = None):
    return {"flights": [{"flight_id": "UA1543"}, {"flight_id": "UA1601"}]}


@tool(description="Book the chosen flight.")
async def book_flight(flight_id: str, context: ToolContext = None):
    context.memory.set("booking_ref", "BK-1")
"""

FILES = {
    "agent.yml": "name: Travel desk\npersona: You book trips for staff.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": "responses:\n  utter_cannot_help:\n    - text: Sorry.\n",
    "skills/travel/skill.md": TRAVEL,
    "skills/travel/tools.py": TOOLS,
    "skills/travel/responses.yml": (
        "responses:\n  utter_ask_city:\n    - text: Where are you flying to?\n"
    ),
    "skills/travel/memory.yml": (
        "schema:\n  public:\n"
        "    city: {type: text, llm_settable: true}\n"
        "    flight_id: {type: text, description: The flight they pick., llm_settable: true}\n"
        "    details_verified: {type: bool, llm_settable: true}\n"
        "    booking_ref: {type: text}\n"
    ),
}


def test_the_pick_is_recorded_before_the_read_back_agreement(tmp_path: Path) -> None:
    root = write_project(tmp_path / "travel", FILES)
    events = play_lines(root, ["I need to book a flight.", "Chicago", "yes", "yes", "No."])
    order = [
        e.get("tool_name") or e.get("key")
        for e in events
        if e["event"] in ("tool_executed", "memory_set")
    ]
    assert "book_flight" in order, order
    assert order.index("search_flights") < order.index("travel.flight_id")
    assert order.index("travel.flight_id") < order.index("travel.details_verified"), order
