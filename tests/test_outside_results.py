"""What a service outside the agent answers is no case's to assert or to make fail.

A tool whose code posts to an HTTP API (here through a client a helper of the file builds)
fails only on the service's answer: no input of the case decides it, so its failure case is
planned only to be reported dropped, with why. What it writes from the answer (an order
number, written only when the service accepts) is never asserted; that the tool ran is. A
tool on the project's own data still gets its failure case."""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import NOT_WRITTEN, plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import outside_effect

SKILL = """\
---
name: Order parts
description: >
  Order a spare part for a machine: "I need a new filter for my coffee machine".
tool_constraints:
  - check_part:
      on_failure: utter_part_unknown
  - submit_order:
      requires: session.order_parts.part_checked
      on_success: utter_order_placed
      on_failure: utter_order_failed
---

Help the customer order a spare part.

Ask for the part number and set `part_number`. Call check_part with it.
When part_checked is true, call submit_order with the part number and tell them the
order number.
"""

TOOLS = '''\
import os

import httpx
from rasa.mantle.tools.decorator import ToolContext, tool

PARTS = {"FLT-2041": "Water filter"}


def _shop() -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=os.environ["SHOP_URL"], timeout=5.0)


@tool(description="Check that a part number is on the parts list.")
async def check_part(part_number: str, context: ToolContext = None):
    """Check it.

    Args:
        part_number: The part id, three letters and four digits (FLT-2041).
    """
    if part_number not in PARTS:
        raise ValueError("unknown part")
    context.memory.set("part_checked", True)
    return {"ok": True, "name": PARTS[part_number]}


@tool(description="Place the order with the parts shop.")
async def submit_order(part_number: str, context: ToolContext = None):
    """Order it.

    Args:
        part_number: The part id.
    """
    async with _shop() as api:
        response = await api.post("/orders", json={"part": part_number})
    if response.status_code >= 400:
        return {"ordered": False, "error": response.json().get("code")}
    context.memory.set("order_number", response.json()["order_number"])
    return {"ordered": True}
'''

MEMORY = """\
schema:
  public:
    part_number:
      type: text
      description: Part id, three letters and four digits (FLT-2041).
      llm_settable: true
    part_checked:
      type: bool
    order_number:
      type: text
"""

RESPONSES = """\
responses:
  utter_part_unknown:
    - text: I could not find that part.
  utter_order_placed:
    - text: Your order is placed.
  utter_order_failed:
    - text: The order did not go through.
  utter_anything_else:
    - text: Anything else?
"""


def _project(tmp_path: Path):
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_parts/skill.md": SKILL,
        "skills/order_parts/tools.py": TOOLS,
        "skills/order_parts/memory.yml": MEMORY,
    }
    return load_project(write_project(tmp_path / "parts", files))


def test_a_client_a_helper_of_the_file_builds_reaches_the_service(tmp_path: Path) -> None:
    project = _project(tmp_path)
    tools = project.mantle.tools_for("order_parts")
    effect = outside_effect(project, tools["submit_order"])
    assert effect is not None and effect.calls == ("api.post",)
    assert effect.answered == ("order_number",)  # written after the post, from its answer
    assert outside_effect(project, tools["check_part"]) is None


def test_a_failure_only_the_service_can_answer_is_reported_dropped(tmp_path: Path) -> None:
    project = _project(tmp_path)
    behaviors = plan_source(project, "mantle", "order_parts", None).behaviors
    failures = {str(b.facts.get("tool")): b for b in behaviors if b.facts.get("kind") == "failure"}
    reason = str(failures["submit_order"].facts.get(NOT_WRITTEN))
    assert "outside the agent (api.post)" in reason and "no real run" in reason
    assert NOT_WRITTEN not in failures["check_part"].facts  # the code itself refuses it


def test_what_a_tool_writes_from_the_service_answer_is_never_asserted(tmp_path: Path) -> None:
    project = _project(tmp_path)
    behaviors = plan_source(project, "mantle", "order_parts", None).behaviors
    happy = next(b for b in behaviors if b.facts.get("kind") == "happy")
    goals = draft_mantle(DraftContext(project, "mantle", happy))["scenario"]["goals"]
    assertions = goals["assertions"]
    ran = [a["tool_executed"]["tool_name"] for a in assertions if "tool_executed" in a]
    assert "submit_order" in ran  # that it ran is asserted
    named = [
        i.get("name")
        for a in assertions
        for i in a.get("memory_was_set") or []
        if isinstance(i, dict)
    ]
    named += [s.get("memory_was_set") for a in assertions for s in a.get("sequencing") or []]
    assert "order_parts.part_checked" in named  # the project's own check still is
    assert "order_parts.order_number" not in named
