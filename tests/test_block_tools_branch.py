"""A block-level `tools:` entry is a tool the model may call inside the block; the step that
names it ("Go through the rest of the sheet from lookup_sheet") is where it has a use. A run
whose branch skips that step has no use for it, so the reference agent does not call it
(and no case asserts it); a run through that step, or a tool no step names, still does."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, play_lines, write_project

COUNT = """\
---
name: Stock count
description: The daily or weekly stock count.
---

Run @block.count.

:::ordered_block id=count
tools:
  - lookup_sheet
  - {other}
steps:
  - id: kind
    collect: count_type
    utterance: utter_ask_count_type
    description: daily (milk only) or weekly (everything on the sheet).
  - id: milk
    collect: milk
    utterance: utter_ask_milk
  - id: route
    noop: true
    next:
      - if: session.stock.count_type == "weekly"
        then: weekly_items
      - else: record
  - id: weekly_items
    instructions: |
      Go through the rest of the sheet from lookup_sheet one line at a time and set
      other_counts.
    complete_when: session.stock.other_counts
  - id: record
    execute_tool: record_count
    parameters:
      milk: session.stock.milk
:::
"""

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="The store's par sheet.")
async def lookup_sheet(context: ToolContext = None):
    return {"items": ["cups", "lids"]}


@tool(description="The store's delivery day.")
async def delivery_day(context: ToolContext = None):
    return {"day": "Monday"}


@tool(description="Save the count.")
async def record_count(milk: int, context: ToolContext = None):
    context.memory.set("count_id", "C-1")
"""


def _files(other: str) -> dict[str, str]:
    return {
        "agent.yml": "name: Stock\npersona: You help shift leads count stock.\n",
        "integrations.yml": INTEGRATIONS,
        "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
        "responses.yml": "responses:\n  utter_cannot_help:\n    - text: Sorry.\n",
        "skills/stock/skill.md": COUNT.replace("{other}", other),
        "skills/stock/tools.py": TOOLS,
        "skills/stock/responses.yml": (
            "responses:\n  utter_ask_count_type:\n    - text: Daily or weekly?\n"
            "  utter_ask_milk:\n    - text: How many gallons of milk?\n"
        ),
        "skills/stock/memory.yml": (
            "schema:\n  public:\n"
            "    count_type:\n      type: categorical\n      enum_values: [daily, weekly]\n"
            "      llm_settable: true\n"
            "    milk: {type: int, llm_settable: true}\n"
            "    other_counts: {type: text, llm_settable: true}\n"
            "    count_id: {type: text}\n"
        ),
    }


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("stock"), _files("delivery_day"))


def _tools(events: list[dict]) -> list[str]:
    return [str(e.get("tool_name")) for e in events if e["event"] == "tool_executed"]


def test_only_the_branch_whose_step_names_a_block_tool_calls_it(root: Path) -> None:
    tools = _tools(play_lines(root, ["I want to do the stock count.", "daily", "4", "No."]))
    assert "record_count" in tools
    assert "lookup_sheet" not in tools
    assert "delivery_day" in tools  # no step names it: still offered in the block
    # the weekly branch runs the step that names it, so the sheet is looked up there
    lines = ["I want to do the stock count.", "weekly", "4", "cups 3, lids 2", "No."]
    assert "lookup_sheet" in _tools(play_lines(root, lines))
