"""A call the prose takes only on what the user says ("If they ask about an existing
order, look it up with @tool.find_order and stop there") gets a case that says it: the
reference agent hears the cue, runs the call and stops, and an agent that ignores the cue
(never looks the order up, places a new one) fails the case."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.mutate import mutate
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import skill_models
from evalcore.definitions.skill_model.cues import _stems, heard, user_cue
from evalcore.runner import collect_cases

ORDERS = """\
---
name: Order clay
description: Potters order clay and glazes for delivery to the studio.
---

Help the potter order supplies.

If they ask about an existing order (ORD-#####), look it up with @tool.find_order and
stop there; do not place a second one.

Otherwise run @block.new_order.

:::ordered_block id=new_order
steps:
  - id: ask_item
    collect: item
    utterance: utter_ask_item
  - id: place
    execute_tool: place_order
    parameters:
      item: session.orders.item
    next: END
  - id: END
:::
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Find an order the potter placed earlier.")
async def find_order(context: ToolContext = None):
    """The order's status."""
    return {"status": "shipped"}


@tool(description="Place a new order.")
async def place_order(item: str, context: ToolContext = None):
    """Place it."""
    context.memory.set("order_id", "ORD-20417")
    return {"placed": True}
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
        "schema:\n  public:\n    item:\n      type: text\n"
        "      description: 'What they order, for example \"stoneware clay\".'\n"
        "    order_id:\n      type: text\n      description: The new order.\n"
    ),
    "skills/orders/responses.yml": (
        "responses:\n  utter_ask_item:\n    - text: What would you like to order?\n"
    ),
}


@pytest.fixture(scope="module")
def kiln(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("kiln") / "kiln", FILES)


@pytest.mark.parametrize(
    ("clause", "cue"),
    [
        ("they ask about an existing request", "they ask about an existing request"),
        (
            "the caller only wants to know the opening hours",
            "the caller only wants to know the opening hours",
        ),
        (
            "they ask when a technician is coming (FX-######)",
            "they ask when a technician is coming",
        ),
        ("the status says documents are missing", None),  # a tool's result, not the user
        ("no refills are left", None),
        ("they ask", None),  # nothing of its own to hear
    ],
)
def test_a_clause_about_what_the_user_says_is_a_cue(clause: str, cue: str | None) -> None:
    assert user_cue(clause) == cue


def test_a_cue_is_heard_when_the_message_says_its_words() -> None:
    cue = "they ask about an existing request"
    assert heard(cue, "Hi, I'm asking about an existing request.")
    assert heard(cue, "What happened to the request I already have? It's an existing one.")
    assert not heard(cue, "I want to make a new request.")


def test_a_text_s_stems_are_read_once_for_every_cue_heard_in_it() -> None:
    text = "Hi, I'm asking about an existing request; I don't have my order number."
    cues = ["they ask about an existing request", "they ask about a new order", "they ask"]
    first = [heard(cue, text) for cue in cues]
    hits = _stems.cache_info().hits
    assert [heard(cue, text) for cue in cues] == first == [True, False, False]
    assert _stems.cache_info().hits > hits
    assert _stems(text) == _stems.__wrapped__(text) >= {"ask", "exist", "request", "order"}


def test_the_call_is_optional_and_carries_its_cue(kiln: Path) -> None:
    use = skill_models(load_project(kiln))["orders"].tool("find_order")
    assert [(c.optional, c.cue) for c in use.calls] == [(True, "they ask about an existing order")]


def test_the_cue_case_runs_the_call_stops_and_kills_what_ignores_it(
    kiln: Path, tmp_path: Path
) -> None:
    project = load_project(kiln)
    behaviors = {b.case: b for b in plan_source(project, "mantle", "orders", None).behaviors}
    cue = behaviors["existing_order"]
    assert cue.type == "edge_case" and cue.facts["kind"] == "cue"
    assert cue.facts["cue"]["skips"] == ["place_order"]
    data = draft_mantle(DraftContext(project, "mantle", cue))
    scenario = data["scenario"]
    assert 'Open with: "I\'m asking about an existing order."' in scenario["simulation_context"]
    assertions = scenario["goals"]["assertions"]
    assert {"memory_was_not_set": [{"name": "orders.order_id"}]} in assertions
    assert (
        "The agent does not go on to place_order after find_order" in scenario["goals"]["criteria"]
    )
    folder = tmp_path / "cases"
    folder.mkdir()
    (folder / "cue.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    wanted = ["fail_silently:find_order"]
    report = asyncio.run(mutate(collect_cases([folder], project=kiln), kiln, only=wanted))
    assert report.reference == {"cue": "passed"}
    assert [(r.mutant.id, r.killed_by) for r in report.results] == [(wanted[0], ["cue"])]
