"""A request for a person partway, as a careful author writes it.

Before: the user said what it was about in the skill's own description ("It's about my
parcels that did not arrive or arrived broken."); the line was cued on the field's bare name
("When the agent asks for the mode"), a word the agent never says; it rode on a `collect`
step whose value the agent may already hold from a lookup run just before it (a correct
agent records it and never asks, so the request for a person never came).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.agents.reference import wanted_clause
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context

PARCELS = """\
---
name: Parcels
description: >
  Parcels that did not arrive or arrived broken: "where is my parcel", "my parcel never
  came", "can you send it to my office instead".
import_tools:
  - trace_parcel
tool_constraints:
  - report_missing_parcel:
      requires: session.parcels.address
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_report
        utter_on_user_denial: utter_not_filed
      on_success: utter_report_filed
---

Help with a parcel. Set mode from what they need: track, report_missing or change_address.

if: session.parcels.mode == "track"
Call trace_parcel with the tracking number and say where it is.

if: session.parcels.mode == "report_missing"
Ask for the new address (set address), then call report_missing_parcel.

if: session.parcels.mode == "change_address"
Ask for the delivery reference (set reference_id) and the new address (set address),
then call change_address.
"""

PARCEL_MEMORY = """\
schema:
  public:
    mode:
      type: categorical
      enum_values: [track, report_missing, change_address]
      description: What the customer needs for their parcel.
      llm_settable: true
    tracking_number:
      type: text
      description: Tracking number, PX and six digits.
      llm_settable: true
    reference_id:
      type: text
      description: Delivery reference, like DLV-1234.
      llm_settable: true
    address:
      type: text
      description: New delivery address.
      llm_settable: true
"""

PARCEL_RESPONSES = """\
responses:
  utter_confirm_report:
    - text: "Report the parcel as missing, for delivery to {address}?"
  utter_not_filed:
    - text: OK, nothing filed.
  utter_report_filed:
    - text: Reported. Your reference is {reference_id}.
"""

TRIP = """\
---
name: Change a trip
description: >
  Changing trains after a disruption: "my train was cancelled", "my train is late".
import_tools:
  - train_status
---

Check the live status of their train with @tool.train_status before anything else. Then
run @block.choose.

:::ordered_block id=choose
complete_when: session.change_trip.new_train
steps:
  - id: what_happened
    collect: disruption
    utterance: utter_ask_disruption
  - id: pick
    instructions: |
      Ask which train they want to take instead. Set new_train.
    complete_when: session.change_trip.new_train
:::
"""

TRIP_MEMORY = """\
schema:
  public:
    disruption:
      type: categorical
      enum_values: [cancelled, late]
      description: Why the customer needs another train.
      llm_settable: true
    new_train:
      type: text
      description: The train they take instead.
      llm_settable: true
"""

HANDOFF = """\
---
name: Talk to a person
description: The customer wants a human agent.
---

Hand the conversation over to a human agent with @tool.transfer_to_agent.
"""

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Where a parcel is.")
async def trace_parcel(tracking_number: str, context: ToolContext = None):
    return {"last_scan": "depot"}


@tool(description="Report a parcel as missing.")
async def report_missing_parcel(address: str, context: ToolContext = None):
    if context is not None:
        context.memory.set("reference_id", "DLV-1234")
    return {"filed": True}


@tool(description="Send a parcel somewhere else.")
async def change_address(reference_id: str, address: str, context: ToolContext = None):
    return {"updated": True}


@tool(description="Live status of a train.")
async def train_status(context: ToolContext = None):
    return {"status": "cancelled"}


@tool(description="Transfer to a person.")
async def transfer_to_agent(context: ToolContext = None):
    return {}
"""


@pytest.fixture(scope="module")
def desk(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("desk")
    return write_project(
        root,
        {
            "agent.yml": "name: Travel desk\npersona: You help travellers.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "language:\n  type: text\n  seed: true\n",
            "tools/desk.py": TOOLS,
            "skills/parcels/skill.md": PARCELS,
            "skills/parcels/memory.yml": PARCEL_MEMORY,
            "skills/parcels/responses.yml": PARCEL_RESPONSES,
            "skills/change_trip/skill.md": TRIP,
            "skills/change_trip/memory.yml": TRIP_MEMORY,
            "skills/change_trip/responses.yml": (
                "responses:\n  utter_ask_disruption:\n"
                '    - text: "What happened with your train?"\n'
            ),
            "skills/human_handoff/skill.md": HANDOFF,
        },
    )


def _escalation(root: Path, skill: str) -> dict:
    project = load_project(root)
    for behavior in plan_source(project, "mantle", skill, None).behaviors:
        if behavior.facts.get("kind") == "escalation":
            return draft_mantle(DraftContext(project, "mantle", behavior))
    raise AssertionError(f"no escalation case for {skill}")


def test_the_user_names_their_trouble_in_their_own_words(desk: Path) -> None:
    context = parse_fact_context(_escalation(desk, "parcels")["scenario"]["simulation_context"])
    (line,) = {c.line for c in context.cues}
    assert "did not arrive or arrived broken" not in line, line
    assert line.endswith("My parcel never came."), line


def test_the_cue_is_the_question_a_person_hears(desk: Path) -> None:
    context = parse_fact_context(_escalation(desk, "parcels")["scenario"]["simulation_context"])
    assert [c.cue for c in context.cues] == ["what you need for your parcel"], context.cues


def test_a_question_a_lookup_may_answer_carries_no_request_for_a_person(desk: Path) -> None:
    """The live status read just before may already say the train was cancelled: the line
    comes at the next question every run asks (the pick), with the disruption answered."""
    context = parse_fact_context(_escalation(desk, "change_trip")["scenario"]["simulation_context"])
    cues = [c.cue for c in context.cues]
    assert cues and all("happened" not in c for c in cues), cues
    assert any("happened" in f.label for f in context.facts), context.facts


def test_wanted_clause() -> None:
    assert wanted_clause("What the customer needs for their parcel.") == (
        "what you need for your parcel"
    )
    assert wanted_clause("What the member wants to do with a booking.") == (
        "what you want to do with a booking"
    )
    assert wanted_clause("Why the customer needs another train.") is None
