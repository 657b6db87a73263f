"""A call the user asks for outright whose `requires` reads a value only the user has: the
reference agent gets the value before the request ends, the planner makes the case, the
user is told their own record's value (through a file that links it to them), the case
asserts the call and the value before it, and no criterion asks for an offer the user's
request made needless."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.dialects.mantle._justify import judge_case
from evalcore.testdata import load_records

STATUS = """\
---
name: Order status
description: >
  Where an order stands: "where is my order", "any news on my order".
tool_constraints:
  - send_receipt_link:
      requires: session.order_status.order_number and session.project.channel != 'phone'
      on_success: utter_link_sent
---

Tell the customer where their order stands with @tool.get_order_status.

if: session.project.channel != "phone"
Offer to send a receipt link with @tool.send_receipt_link.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Where an order stands.")
async def get_order_status(context: ToolContext = None):
    """The status of the caller's latest order."""
    return {"status": "shipped"}


@tool(description="Send a link to the order's receipt.")
async def send_receipt_link(context: ToolContext = None):
    """Send the link."""
    return {"sent": True}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Shop\npersona: You help customers with their orders.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "channel:\n  type: categorical\n  enum_values: [phone, web_chat]\n"
        "  description: Where the conversation started.\n  seed: true\n"
        "caller_phone:\n  type: text\n  description: The caller's phone.\n  seed: true\n"
    ),
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/order_status/skill.md": STATUS,
    "skills/order_status/tools.py": TOOLS,
    "skills/order_status/memory.yml": (
        "schema:\n  public:\n"
        "    order_number:\n      type: text\n"
        "      description: The order the customer asks about, OR-##### (e.g. OR-10417).\n"
        "      llm_settable: true\n"
    ),
    "skills/order_status/responses.yml": (
        "responses:\n  utter_link_sent:\n    - text: I sent you a receipt link.\n"
    ),
    # the orders carry no customer id: they are the customer's through their accounts
    "data/customers.json": (
        '[{"customer_id": "CU-100001", "first_name": "Ada", "last_name": "Byrne",'
        ' "phone": "+15550001111"},'
        ' {"customer_id": "CU-100002", "first_name": "Ben", "last_name": "Okafor",'
        ' "phone": "+15550002222"}]'
    ),
    "data/accounts.json": (
        '[{"account_number": "AC-2001", "customer_id": "CU-100001"},'
        ' {"account_number": "AC-2002", "customer_id": "CU-100002"}]'
    ),
    "data/orders.json": (
        '[{"order_number": "OR-10417", "account_number": "AC-2002", "status": "shipped"},'
        ' {"order_number": "OR-10522", "account_number": "AC-2001", "status": "packed"}]'
    ),
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("shop") / "shop", FILES)


def _tools(data: dict[str, Any]) -> list[str]:
    return [
        c["tool_executed"]["tool_name"]
        for c in data["scenario"]["goals"]["assertions"]
        if isinstance(c.get("tool_executed"), dict)
    ]


def test_a_cued_call_whose_gate_lacks_the_users_value_gets_its_case(shop: Path) -> None:
    project = load_project(shop)
    behaviors = plan_source(project, "mantle", "order_status", None).behaviors
    cue = next(b for b in behaviors if b.facts.get("kind") == "cue")
    assert cue.facts["cue"]["tools"] == ["send_receipt_link"]
    assert cue.facts["values"]["project.channel"] == "web_chat"
    data = draft_mantle(DraftContext(project, "mantle", cue))
    assert "send_receipt_link" in _tools(data)
    context = data["scenario"]["simulation_context"]
    # the user has the order number to tell: their own, never another customer's
    told = [line for line in context.splitlines() if "order number" in line.lower()]
    assert told, context
    person = "Ada" if "Ada" in context else "Ben"
    own = {"Ada": "OR-10522", "Ben": "OR-10417"}[person]
    assert own in told[0], (person, told)
    # the user asks for the link outright: no criterion wants an offer first
    assert not any("offers" in c for c in data["scenario"]["goals"]["criteria"])
    # the gate's value is set before the call, and that order is justified by `requires`
    orders = [c["sequencing"] for c in data["scenario"]["goals"]["assertions"] if "sequencing" in c]
    assert any({"memory_was_set": "order_status.order_number"} in steps for steps in orders)
    judged = judge_case(data, project)
    assert all(j.justification is not None for j in judged), [
        j.path for j in judged if j.justification is None
    ]


def test_records_of_a_file_without_the_callers_id_are_theirs_through_a_linking_file(
    shop: Path,
) -> None:
    records = load_records(shop)
    orders = next(c for c in records.collections if c.name == "orders")
    mine = records.owned(orders.records, {"customer_id": "CU-100001"})
    assert [r["order_number"] for r in mine] == ["OR-10522"]
