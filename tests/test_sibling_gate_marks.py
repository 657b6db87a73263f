"""Two marks of a skill with modes and an outside lookup, read the same way by the drafter
and by `casegen mutate`:

- a tool that only another mode's `if:` paragraph calls, whose `requires` this request's own
  values open (filing a missing-parcel report leaves the report id and the address an
  address change needs), says its `on_success` response only where an agent takes that
  call too: the case asserts it is not said (an `ignore_requires` mutant that runs it early
  is caught); a tool a project entry alone opens is left alone (nothing here invites it);
- a `collect` step's question in a block entered after a lookup on an outside service rests
  on that service's answer (it may fill the slot, and the framework then asks nothing): the
  drafter asserts no such question, so a mutant whose only mark is that question missing is
  an `outside` one, not a gap in the suite.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline import answer_marks
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project

PARCELS: dict[str, str] = {
    "agent.yml": (
        "agent:\n  name: Parcel desk\n  persona: You help people with their parcels.\n"
        "orchestrator:\n  model_group: parcels\n"
    ),
    "integrations.yml": (
        "model_groups:\n  - id: parcels\n    models:\n      - provider: openai\n"
        "        model: gpt-4.1-mini\n        api_key: ${OPENAI_API_KEY}\n"
        "channels:\n  rest:\n    enabled: true\n"
        "mcp_servers:\n  - name: tracker\n    url: https://tracker.example/mcp\n"
    ),
    "memory.yml": "signed_in:\n  type: bool\n  # True once the app user signed in.\n  seed: true\n",
    "skills/parcel/skill.md": """\
---
name: Parcel help
description: >
  Parcels that never came and delivery changes ("my parcel never came", "deliver it to my
  office instead").
tool_constraints:
  - file_report:
      requires: session.parcel.address
      on_success: utter_report_filed
  - change_address:
      requires: session.parcel.report_id and session.parcel.address
      on_success: utter_address_changed
  - send_updates:
      requires: session.project.signed_in
      on_success: utter_updates_on
---

Set mode from what they need: missing, change_address or updates.

if: session.parcel.mode == "missing"
Ask for a delivery address (set address). Then call file_report.

if: session.parcel.mode == "change_address"
Ask for the report reference (set report_id) and the new address (set address), then call
change_address.

if: session.parcel.mode == "updates"
Call send_updates.
""",
    "skills/parcel/memory.yml": """\
schema:
  public:
    mode:
      type: categorical
      enum_values: [missing, change_address, updates]
      description: What they need for their parcel.
      llm_settable: true
    address:
      type: text
      description: Where to deliver, with postcode.
      llm_settable: true
    report_id:
      type: text
      description: Report reference like PR-10422.
      llm_settable: true
""",
    "skills/parcel/responses.yml": """\
responses:
  utter_report_filed:
    - text: Reported as {report_id}.
  utter_address_changed:
    - text: The courier will bring it to the new address.
  utter_updates_on:
    - text: You will get updates by text.
""",
    "skills/parcel/tools.py": '''\
"""Parcel reports through the carrier's service."""

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Report a parcel as missing.")
async def file_report(address: str, context: ToolContext = None) -> ToolResult:
    """Open a missing-parcel report.

    Args:
        address: Delivery address with postcode.
    """
    async with httpx.AsyncClient(base_url="https://carrier.example") as api:
        response = await api.post("/reports", json={"address": address})
    response.raise_for_status()
    if context is not None:
        context.memory.set("report_id", response.json()["reference"])
    return ToolResult(llm_response={"filed": True})


@tool(description="Change the delivery address of an open report.")
async def change_address(report_id: str, address: str, context: ToolContext = None) -> ToolResult:
    """Redirect the courier.

    Args:
        report_id: Report reference like PR-10422.
        address: New address with postcode.
    """
    async with httpx.AsyncClient(base_url="https://carrier.example") as api:
        response = await api.patch(f"/reports/{report_id}", json={"address": address})
    response.raise_for_status()
    return ToolResult(llm_response={"updated": True})


@tool(description="Turn on delivery updates by text.")
async def send_updates(context: ToolContext = None) -> ToolResult:
    """Subscribe the signed-in user."""
    async with httpx.AsyncClient(base_url="https://carrier.example") as api:
        response = await api.post("/updates")
    response.raise_for_status()
    return ToolResult(llm_response={"on": True})
''',
    "skills/track/skill.md": """\
---
name: Track a parcel
description: Where a parcel is now ("where is my parcel").
import_tools:
  - mcp/tracker:track_parcel
---

Call @tool.track_parcel first, then run @block.details.

:::ordered_block id=details
steps:
  - id: ask_day
    collect: expected_day
    utterance: utter_ask_expected_day
:::
""",
    "skills/track/memory.yml": """\
schema:
  public:
    expected_day:
      type: text
      description: The day they expected it, MM/DD/YYYY.
      llm_settable: true
""",
    "skills/track/responses.yml": """\
responses:
  utter_ask_expected_day:
    - text: Which day did you expect it?
""",
}


@pytest.fixture(scope="module")
def parcels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("parcels"), PARCELS)


def _not_said(scenario: dict) -> set[str]:
    return {
        a["bot_did_not_utter"]["utter_name"]
        for a in scenario["goals"]["assertions"]
        if "bot_did_not_utter" in a
    }


def test_a_sibling_call_this_request_opens_is_asserted_unsaid(parcels: Path) -> None:
    project = load_project(parcels)
    behaviors = plan_mantle(project, "parcel", None).behaviors
    missing = [
        b for b in behaviors if b.type == "happy_path" and "missing" in " ".join(b.covers) + b.id
    ]
    assert missing, [b.id for b in behaviors]
    scenario = draft_mantle(DraftContext(project, "mantle", missing[0]))["scenario"]
    unsaid = _not_said(scenario)
    # filing left the report id and the address: an agent may change the address as well
    assert "utter_address_changed" in unsaid, scenario["goals"]["assertions"]
    # only the project's sign-in opens send_updates: nothing in this request invites it
    assert "utter_updates_on" not in unsaid


def test_a_question_after_an_outside_lookup_is_no_mark_a_case_asserts(parcels: Path) -> None:
    project = load_project(parcels)
    lookup = {
        "event": "tool_executed",
        "tool_name": "track_parcel",
        "source": "mcp",
        "arguments": {},
        "is_error": False,
        "metadata": {"skill_id": "track"},
    }
    entered = {"event": "ordered_block_entered", "skill_id": "track", "block_id": "details"}
    asked = {
        "event": "bot",
        "text": "Which day?",
        "metadata": {"utter_action": "utter_ask_expected_day"},
    }
    reference = [{"event": "skill_activated", "skill_id": "track"}, lookup, entered, asked]
    marks = answer_marks(project, reference)
    assert asked not in marks(reference)
    # before the lookup (or with none), the framework's question is the step's own
    assert asked in marks([{"event": "skill_activated", "skill_id": "track"}, entered, asked])
