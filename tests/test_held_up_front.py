"""A call the prose makes only if the user has something ("If they have an order number use
@tool.find_order; otherwise list their orders") holds only where the user says it: nothing
tells the agent to ask for it, so a case asserting the call has the user give it in the
first message, not only when asked; and a user who says they do not have it takes the other
call (the reference agent lists their orders)."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.agents.reference._brain import ModelBrain
from evalcore.agents.reference._engine import ReferenceEngine
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import held_thing, says_lacking

ORDERS = """\
---
name: Order status
description: Potters ask where their clay order is.
---

If they have an order number (ORD- and five digits) use @tool.find_order; otherwise list
their open orders with @tool.list_orders and ask which one.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Find an order by its number.")
async def find_order(order_number: str, context: ToolContext = None):
    """The order's status.

    Args:
        order_number: ORD- and five digits, for example "ORD-20417".
    """
    return {"status": "shipped"}


@tool(description="The potter's open orders.")
async def list_orders(context: ToolContext = None):
    """Open orders."""
    return {"orders": []}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Kiln supplies\npersona: You help potters.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": (
        "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
        "  utter_goodbye:\n    - text: Goodbye!\n"
    ),
    "skills/orders/skill.md": ORDERS,
    "skills/orders/tools.py": TOOLS,
    "skills/orders/memory.yml": (
        "schema:\n  public:\n    order_number:\n      type: text\n"
        "      description: Clay order number, ORD- followed by five digits.\n"
        "      llm_settable: true\n"
    ),
}


@pytest.mark.parametrize(
    ("sentence", "thing"),
    [
        (
            "If they have an order number (R- and eight digits) use @tool.x; otherwise …",
            "order number",
        ),
        ("If the caller has a claim number, call @tool.find_claim.", "claim number"),
        ("If they have more than one policy, ask which one.", None),  # no article: a count
        ("If they ask about an order, use @tool.x.", None),
        ("Check @tool.x first.", None),
    ],
)
def test_what_the_user_has_is_read_from_the_sentence(sentence: str, thing: str | None) -> None:
    assert held_thing(sentence) == thing


def test_the_case_that_takes_the_call_says_the_number_up_front(tmp_path: Path) -> None:
    project = load_project(write_project(tmp_path / "kiln", FILES))
    behaviors = plan_source(project, "mantle", "orders", None).behaviors
    happy = next(b for b in behaviors if b.facts.get("kind") == "happy")
    scenario = draft_mantle(DraftContext(project, "mantle", happy))["scenario"]
    ran = {
        a["tool_executed"]["tool_name"]
        for a in scenario["goals"]["assertions"]
        if "tool_executed" in a
    }
    assert ran == {"find_order"}
    opening = next(
        line for line in scenario["simulation_context"].splitlines() if "Open with" in line
    )
    assert "My order number is ORD-" in opening


@pytest.mark.parametrize(
    ("said", "lacking"),
    [
        ("Where is my clay? I don't have my order number.", True),
        ("I have no order number, sorry.", True),
        ("My order number is ORD-20417.", False),
        ("I don't have my glaze yet; the order number is ORD-20417.", False),
    ],
)
def test_a_user_who_says_they_lack_the_thing_is_read_so(said: str, lacking: bool) -> None:
    assert says_lacking("order number", said) is lacking


def _tools_run(tmp_path: Path, said: str) -> list[str]:
    project = load_project(write_project(tmp_path / "kiln", FILES))
    engine = ReferenceEngine(project, ModelBrain(project))
    engine.start({})
    engine.receive(said)
    return [e["tool_name"] for e in engine.events if e["event"] == "tool_executed"]


def test_without_the_number_the_reference_agent_lists_the_orders(tmp_path: Path) -> None:
    ran = _tools_run(tmp_path, "Where is my clay order? I don't have my order number.")
    assert ran == ["list_orders"]


def test_with_the_number_the_reference_agent_looks_it_up(tmp_path: Path) -> None:
    assert _tools_run(tmp_path, "Where is my clay order? My order number is ORD-20417.") == [
        "find_order"
    ]


def _drafted(project_root: Path, case: str) -> dict:
    project = load_project(project_root)
    behaviors = plan_source(project, "mantle", "orders", None).behaviors
    found = next(b for b in behaviors if b.case == case)
    return draft_mantle(DraftContext(project, "mantle", found))["scenario"]


def test_the_case_without_the_number_says_so_and_picks_from_the_list(tmp_path: Path) -> None:
    scenario = _drafted(write_project(tmp_path / "kiln", FILES), "no_order_number")
    context = scenario["simulation_context"]
    assert "I don't have my order number." in context
    assert "ORD-" not in context  # no number of theirs, drawn or said
    assert "When the agent reads out your open orders, pick the first one" in context
    ran = [
        a["tool_executed"]["tool_name"]
        for a in scenario["goals"]["assertions"]
        if "tool_executed" in a
    ]
    assert ran == ["list_orders"]
    criteria = scenario["goals"]["criteria"]
    assert any("asks which one" in c for c in criteria)
    # once they pick one, a correct agent may look it up by its number
    assert not any("find_order" in c for c in criteria), criteria


def test_a_happy_path_of_a_number_no_data_file_holds_is_not_written(tmp_path: Path) -> None:
    files = {**FILES, "data/potters.json": '[{"name": "Ada Clay", "phone": "+15550100"}]'}
    project = load_project(write_project(tmp_path / "kiln", files))
    behaviors = plan_source(project, "mantle", "orders", None).behaviors
    happy = next(b for b in behaviors if b.facts.get("kind") == "happy")
    assert "order number" in str(happy.facts.get("not_written") or "")
    # the user who has none takes its place as the skill's happy path
    lacking = next(b for b in behaviors if b.case == "no_order_number")
    assert lacking.type == "happy_path", lacking.type
