"""Project memory as Rasa scopes it: a bare name a tool writes lands in the skill's field only
when the skill declares one, else in the project's; a project field's `initial_value` holds
from the start; so "If username is missing in project memory, call the profile lookup" does
not run the lookup when the project seeds the name, in the reference agent, in the planner's
walk, and in the cases they write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, play_lines, write_project

from evalcore.definitions import load_project
from evalcore.definitions.skill_model import qualify
from evalcore.definitions.skill_model.prose_items import classify

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Load the caller's profile.")
async def load_profile(context: ToolContext = None) -> ToolResult:
    context.memory.set("username", "Ada")
    context.memory.set("plan", "Fiber 500")
    return ToolResult(llm_response={"ok": True})


@tool(description="Read the last bill.")
async def read_bill(context: ToolContext = None) -> ToolResult:
    context.memory.set("bill_total", 42)
    return ToolResult(llm_response={"total": 42})
"""

FILES = {
    "agent.yml": "name: Northwind broadband\npersona: You help customers with their line.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "username:\n  type: text\n  description: Who is calling.\n  initial_value: Serena\n"
        "plan:\n  type: text\n  description: The plan on file.\n"
    ),
    "tools/profile.py": TOOLS,
    "skills/bill/skill.md": """\
---
name: Explain my bill
description: Customers ask what their last bill came to.
import_tools:
  - load_profile
  - read_bill
---

If username is missing in project memory, call `@tool.load_profile`.
Then call `@tool.read_bill` and tell the customer the total.
""",
    "skills/hello/skill.md": """\
---
name: Say hello
description: Customers who just want to say hello to the line's help desk.
import_tools:
  - load_profile
---

If username is missing in project memory, call `@tool.load_profile`.
Greet the customer by name.
""",
    "skills/bill/memory.yml": (
        "schema:\n  public:\n    bill_total:\n      type: float\n"
        "      description: The last bill's total.\n"
    ),
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("scope") / "p", FILES)


def test_a_bare_name_is_the_skills_field_if_it_declares_one_else_the_projects(root: Path) -> None:
    defs = load_project(root).mantle
    assert qualify("bill_total", "bill", defs) == "bill.bill_total"
    assert qualify("username", "bill", defs) == "project.username"
    assert qualify("nobody_declares", "bill", defs) == "bill.nobody_declares"
    assert qualify("username", "bill") == "bill.username"  # without the definitions


def test_a_lookup_in_words_tests_the_project_field(root: Path) -> None:
    skill = load_project(root).mantle.skills["bill"]
    sentence = "If username is missing in project memory, call `@tool.load_profile`."
    (item,) = classify(sentence, None, skill)
    assert (item.kind, item.name, item.key) == ("lookup", "load_profile", "project.username")


def test_the_reference_agent_skips_the_lookup_the_initial_value_answers(root: Path) -> None:
    events = play_lines(root, ["What did my last bill come to?"])
    tools = [e.get("tool_name") for e in events if e.get("event") == "tool_executed"]
    assert "load_profile" not in tools
    assert "read_bill" in tools
    written = {e.get("key") for e in events if e.get("event") == "memory_set"}
    assert "bill.bill_total" in written and "bill.username" not in written


def test_the_cases_do_not_assert_the_lookup(root: Path, tmp_path: Path) -> None:
    report = generate_offline(root, ["bill"], tmp_path)
    happy = [c for c in report["cases"] if c["type"] == "happy_path"]
    assert happy
    for case in happy:
        data: Any = yaml.safe_load(Path(case["path"]).read_text(encoding="utf-8"))
        text = yaml.safe_dump(data["scenario"]["goals"])
        assert "load_profile" not in text
        assert "read_bill" in text


def test_a_goal_case_with_nothing_to_check_is_written_for_review_not_dropped(
    root: Path, tmp_path: Path
) -> None:
    """With the lookup gone, the greeting skill's happy path asserts only that it ran: a
    case the suite must have, so it is written marked `needs-review` with the reason."""
    report = generate_offline(root, ["hello"], tmp_path)
    happy = [c for c in report["cases"] if c["type"] == "happy_path"]
    assert len(happy) == 1, report["dropped"]
    assert happy[0]["verified"] == "needs-review"
    assert "no-decisive-assertion" in happy[0]["needs_review"]
    assert Path(happy[0]["path"]).is_file()
    assert not [d for d in report["dropped"] if d["behavior"] == happy[0]["behavior"]]
