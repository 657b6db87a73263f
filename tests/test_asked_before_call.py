"""A local tool's parameters come from what the user gave when the sentence before the call
asks for them ("Ask for the order code ... and the buyer's email, in one message. Then call
@tool.find_order."): a Mantle model passes the values the user said, so the reference
agent asks once and passes them, the drafted case gives the user the record's own details
and asserts the exact id (a code the user reads out), and a later call fed from what that
data-backed check wrote is asserted with it too. Before, the check ran with no arguments,
so a case that passed a wrong order code survived.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_exact import exact
from agentflows.planning._mantle import plan_mantle
from evalcore.agents import UserTurn
from evalcore.agents.reference import ReferenceTarget
from evalcore.definitions import load_project

SHOP: dict[str, str] = {
    "agent.yml": (
        "agent:\n  name: Shop desk\n  persona: You help buyers with their orders.\n"
        "orchestrator:\n  model_group: shop\n"
    ),
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "ref:\n  type: text\n  # The order's code, six capitals and digits.\n"
        "email:\n  type: text\n  # The buyer's email.\n"
        "verified:\n  type: bool\n  # True once find_order matched the code and email.\n"
    ),
    "data/orders.json": (
        '[{"order_code": "AB3CD9", "email": "ana@example.com", "status": "shipped"},'
        ' {"order_code": "ZK7QW2", "email": "li@example.com", "status": "packed"}]'
    ),
    "skills/find_order/skill.md": """\
---
name: Find an order
description: >
  Look up an order before anything that reads or changes it ("check my order").
import_tools:
  - find_order
---

Ask for the order code (six characters, on the receipt) and the buyer's email, in one
message. Set @memory.project.email, then call @tool.find_order.

When it matches, tell them the order's status.
""",
    "skills/cancel_order/skill.md": """\
---
name: Cancel an order
description: >
  Cancel an order that has not shipped ("cancel my order", "I don't want it").
tool_constraints:
  - cancel_order:
      requires: session.project.verified
---

If @memory.project.verified is not true, run @skill.find_order first.

Then call @tool.cancel_order with the order.
""",
    "skills/cancel_order/tools.py": '''\
"""Cancellation through the shop's order service."""

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Cancel an order.")
async def cancel_order(ref: str, context: ToolContext = None) -> ToolResult:
    """Cancel the whole order.

    Args:
        ref: Order code like AB3CD9.
    """
    async with httpx.AsyncClient(base_url="https://orders.example") as api:
        response = await api.post(f"/orders/{ref}/cancel")
    response.raise_for_status()
    return ToolResult(llm_response={"cancelled": True})
''',
    "skills/human_handoff/skill.md": """\
---
name: Talk to a person
description: >
  Hand over to a person at the shop ("I want to speak to a person", "agent please").
tool_constraints:
  - transfer_to_person:
      requires: session.human_handoff.topic
---

Set topic from what they need, then call transfer_to_person.
""",
    "skills/human_handoff/memory.yml": """\
schema:
  public:
    topic:
      type: categorical
      enum_values: [refund, damaged_item, other]
      description: What the buyer needs a person for.
      llm_settable: true
""",
    "skills/human_handoff/tools.py": '''\
"""Transfers through the contact centre."""

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Put the buyer through to a person.")
async def transfer_to_person(topic: str, context: ToolContext = None) -> ToolResult:
    """Queue the conversation.

    Args:
        topic: What they need a person for.
    """
    async with httpx.AsyncClient(base_url="https://contact.example") as api:
        response = await api.post("/transfers", json={"topic": topic})
    response.raise_for_status()
    return ToolResult(llm_response={"queued": True})
''',
    "tools/orders.py": '''\
"""Order lookup shared by every skill: reads data/orders.json."""

import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

ORDERS = Path(__file__).resolve().parents[1] / "data" / "orders.json"


@tool(description="Find an order by its code and the buyer's email.")
async def find_order(ref: str, email: str, context: ToolContext = None) -> ToolResult:
    """Match the order and the buyer.

    Args:
        ref: Order code, six characters like AB3CD9.
        email: The buyer's email as on the order.
    """
    order = next(
        (o for o in json.loads(ORDERS.read_text()) if o["order_code"] == ref), None
    )
    if order is None or order["email"] != email:
        return ToolResult(llm_response={"found": False})
    if context is not None:
        context.memory.set("project.ref", order["order_code"])
        context.memory.set("project.verified", True)
    return ToolResult(llm_response={"found": True, "status": order["status"]})
''',
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("shop"), SHOP)


def _play(root: Path, lines: list[str]) -> list[dict[str, Any]]:
    async def run() -> list[dict[str, Any]]:
        session = await ReferenceTarget(root).open({"slug": "t"}, 1)
        await session.send(UserTurn(type="start", setup={"initial_slots": {}}))
        for line in lines:
            reply = await session.send(UserTurn(type="text", text=line))
            if reply.ended:
                break
        return (await session.close()).events or []

    return asyncio.run(run())


def test_the_reference_agent_passes_the_details_the_user_gave(shop: Path) -> None:
    events = _play(
        shop,
        ["Can you check my order?", "My order code is AB3CD9 and my email is ana@example.com."],
    )
    calls = [e for e in events if e["event"] == "tool_executed"]
    assert [c["tool_name"] for c in calls] == ["find_order"]
    # `ref` by its docstring ("Order code, ..."), `email` by its name
    assert calls[0]["arguments"] == {"ref": "AB3CD9", "email": "ana@example.com"}
    written = {e["key"]: e["value"] for e in events if e["event"] == "memory_set"}
    assert written.get("project.verified") is True
    # "Set @memory.project.email, then call …": kept from the answer before the call
    assert written.get("project.email") == "ana@example.com"


def test_a_booking_style_reference_is_an_exact_value() -> None:
    assert exact("text", "AB3CD9")
    assert exact("text", "QX7LMB")
    assert not exact("text", "ana@example.com")
    assert not exact("text", "Castillo")


def _tool_checks(scenario: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [
        a["tool_executed"]
        for a in scenario["goals"]["assertions"]
        if "tool_executed" in a and a["tool_executed"]["tool_name"] == name
    ]


def test_a_later_call_is_asserted_with_the_exact_id_the_user_gave(shop: Path) -> None:
    project = load_project(shop)
    plan = plan_mantle(project, "cancel_order", None)
    happy = [b for b in plan.behaviors if b.type == "happy_path"]
    assert happy
    scenario = draft_mantle(DraftContext(project, "mantle", happy[0]))["scenario"]
    context = scenario["simulation_context"]
    facts = dict(
        line.strip("- ").split(": ", 1)
        for line in context.splitlines()
        if line.startswith("- ") and ": " in line
    )
    code = facts.get("order code")
    assert code in ("AB3CD9", "ZK7QW2"), context
    checks = _tool_checks(scenario, "cancel_order")
    assert checks and checks[0].get("arguments") == {"ref": code}, checks


def test_an_escalation_does_not_fix_a_hand_off_choice_nobody_names(shop: Path) -> None:
    # "Set topic from what they need": the buyer who asks for a person while giving their
    # order code says nothing that picks refund, damaged_item or other
    project = load_project(shop)
    plan = plan_mantle(project, "find_order", None)
    escalations = [b for b in plan.behaviors if b.type == "escalation"]
    assert escalations, [b.id for b in plan.behaviors]
    scenario = draft_mantle(DraftContext(project, "mantle", escalations[0]))["scenario"]
    assertions = scenario["goals"]["assertions"]
    written = [i for a in assertions for i in a.get("memory_was_set") or []]
    assert {"name": "human_handoff.topic"} in written, assertions
    assert all("value" not in i for i in written if i["name"] == "human_handoff.topic")
    for check in _tool_checks(scenario, "transfer_to_person"):
        assert "topic" not in (check.get("arguments") or {}), check
