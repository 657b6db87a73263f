"""Equivalent mutants: marked from the definitions, listed apart, never played or scored."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.mutate import mutate
from evalcore.agents import UserTurn
from evalcore.agents.reference import ReferenceTarget, mutants
from evalcore.agents.reference._equivalent import Uninstructed
from evalcore.definitions.skill_model import skill_models

ORDER = """\
---
name: Order coffee beans
description: Order a bag of coffee beans for delivery.
tool_constraints:
  - check_stock:
      on_success: utter_stock_checked
  - place_order:
      on_success: utter_order_placed
---

Run @block.order.

:::ordered_block id=order
steps:
  - id: stock
    execute_tool: check_stock
  - id: pause
    noop: true
    next: ask_size
  - id: ask_size
    collect: size
    utterance: utter_ask_size
  - id: route
    noop: true
    next:
      - if: session.order.size == "large"
        then: large_note
      - else: place
  - id: place
    execute_tool: place_order
    parameters:
      size: session.order.size
    next: END
  - id: large_note
    action: utter_large
    next: place
  - id: END
:::
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="How many bags are in stock.")
async def check_stock(warehouse: str = "main", context: ToolContext = None):
    """Count the bags in a warehouse."""
    return {"bags": 4}


@tool(description="Place the order.")
async def place_order(size: str, context: ToolContext = None):
    """Place an order of one bag."""
    context.memory.set("order_id", "O-1")
    return {"order_id": "O-1"}
'''

FILES = {
    "agent.yml": "name: Beans\npersona: You sell coffee beans.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": "responses:\n  utter_cannot_help:\n    - text: Sorry, I can't help.\n",
    "skills/order/skill.md": ORDER,
    "skills/order/tools.py": TOOLS,
    "skills/order/memory.yml": (
        "schema:\n  public:\n"
        "    size:\n      type: categorical\n      enum_values: [small, large]\n"
        "    order_id:\n      type: text\n"
    ),
    "skills/order/responses.yml": (
        "responses:\n"
        "  utter_ask_size:\n    - text: Small or large?\n"
        "  utter_large:\n    - text: Large bags ship in two days.\n"
        "  utter_order_placed:\n    - text: Ordered.\n"
    ),
}


@pytest.fixture(scope="module")
def beans(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("beans"), FILES)


def _by_id(root: Path) -> dict[str, object]:
    return {m.id: m for m in mutants(ReferenceTarget(root).project)}


def test_a_noop_whose_next_is_the_following_step_is_equivalent(beans: Path):
    found = _by_id(beans)
    pause = found["skip_step:order.order.pause"]
    assert pause.equivalent and "noop" in pause.equivalent and "ask_size" in pause.equivalent
    # a routing noop that branches elsewhere is a real fault: skipping it never branches
    assert found["skip_step:order.order.route"].equivalent is None
    assert found["skip_step:order.order.ask_size"].equivalent is None


def test_a_tool_called_with_no_arguments_has_an_equivalent_wrong_argument(beans: Path):
    found = _by_id(beans)
    stock = found["wrong_argument:check_stock"]
    assert stock.equivalent and "no arguments" in stock.equivalent
    assert found["wrong_argument:place_order"].equivalent is None


def test_dropping_an_on_success_no_responses_file_defines_is_equivalent(beans: Path):
    found = _by_id(beans)
    assert "utter_stock_checked" in (found["drop_on_success:check_stock"].equivalent or "")
    assert found["drop_on_success:place_order"].equivalent is None


def _utters(root: Path, mutant: str | None, lines: list[str]) -> list[str]:
    async def run() -> list[str]:
        session = await ReferenceTarget(root, mutant=mutant).open({"slug": "t"}, 1)
        await session.send(UserTurn(type="start", setup={}))
        for line in lines:
            await session.send(UserTurn(type="text", text=line))
        final = await session.close()
        return [
            (e.get("metadata") or {}).get("utter_action") or ""
            for e in final.events or []
            if e["event"] == "bot"
        ]

    return asyncio.run(run())


def test_skipping_a_branching_noop_goes_on_at_the_following_step(beans: Path):
    lines = ["I'd like to order coffee beans", "large"]
    assert "utter_large" in _utters(beans, None, lines)
    assert "utter_large" not in _utters(beans, "skip_step:order.order.route", lines)


def test_mutate_lists_equivalent_mutants_apart_and_leaves_them_out_of_the_score(beans: Path):
    from evalcore.runner import collect_cases

    case = beans / "eval" / "scenarios" / "large.yml"
    case.parent.mkdir(parents=True, exist_ok=True)
    case.write_text(
        "scenario:\n  name: Large order\n  type: happy_path\n"
        "  simulation_context: |\n    You are Ada, a cafe owner.\n"
        "    You want to order coffee beans.\n"
        "    What you know (share each only when the agent asks):\n    - size: large\n"
        "  goals:\n    assertions:\n      - bot_uttered:\n          utter_name: utter_large\n",
        encoding="utf-8",
    )
    cases = collect_cases([case], project=beans)
    report = asyncio.run(mutate(cases, beans, concurrency=2))
    equivalent = {m.id for m in report.equivalent}
    assert {"skip_step:order.order.pause", "wrong_argument:check_stock"} <= equivalent
    played = {r.mutant.id for r in report.results}
    assert not equivalent & played
    assert report.reference == {"large": "passed"}
    assert "skip_step:order.order.route" in {r.mutant.id for r in report.results if r.killed}
    data = report.to_json()
    assert data["mutants"] == len(report.results)
    assert {e["id"] for e in data["equivalent"]} == equivalent
    assert all(e["reason"] for e in data["equivalent"])


REFUND = """\
---
name: Refund a bag
description: Refund a bag of coffee beans that arrived damaged.
tool_constraints:
  - issue_refund:
      on_success: utter_refunded
---

Ask which order arrived damaged and say a person will look at it.
"""

REFUND_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Refund an order.")
async def issue_refund(order: str, context: ToolContext = None):
    """Refund an order."""
    context.memory.set("refund_id", "R-1")
    return {"refund_id": "R-1"}
'''


@pytest.mark.parametrize("which", ["beans", "bank"])
def test_only_a_tool_no_skill_instructs_and_its_keys_are_never_called_or_written(
    tmp_path: Path, which: str
) -> None:
    """`Uninstructed` marks a tool only `tool_constraints` names, and a key only it writes;
    a tool an `execute_tool` step runs, its keys, a field and an unknown name stay
    unproven (every bank tool is instructed, so nothing of the bank is marked)."""
    if which == "bank":
        root = Path(__file__).resolve().parents[1] / "examples" / "bank"
    else:
        files = {
            **FILES,
            "skills/refund/skill.md": REFUND,
            "skills/refund/tools.py": REFUND_TOOLS,
            "skills/refund/memory.yml": "schema:\n  public:\n    refund_id:\n      type: text\n",
            "skills/refund/responses.yml": (
                "responses:\n  utter_refunded:\n    - text: Refunded.\n"
            ),
        }
        root = write_project(tmp_path / "beans", files)
    project = ReferenceTarget(root).project
    models = skill_models(project)
    index = Uninstructed(project, models)
    defs = project.mantle
    assert defs is not None
    tools = {t for s in defs.skills.values() for t in defs.tools_for(s.id)} | {"absent"}
    keys = {w.key for m in models.values() for u in m.tools for w in u.writes}
    keys |= {f.qualified for m in models.values() for f in m.fields} | {"order.absent"}
    marked_tools = {t for t in tools if index.tool(t) is not None}
    marked_keys = {k for k in keys if index.key(k) is not None}
    if which == "bank":
        assert (marked_tools, marked_keys) == (set(), set())
        return
    assert {"check_stock", "place_order"} <= tools and "order.order_id" in keys
    assert (marked_tools, marked_keys) == ({"issue_refund"}, {"refund.refund_id"})
    assert "only tool_constraints names issue_refund" in (index.tool("issue_refund") or "")
    assert "only issue_refund writes refund.refund_id" in (index.key("refund.refund_id") or "")
