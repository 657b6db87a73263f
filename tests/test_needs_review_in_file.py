"""A case written marked `needs-review` says why in the case file itself.

A reviewer who sees only the project and one case file could not tell why a happy path does
not assert the skill's goal: the reason was in `generate`'s table, `--json` and the PR
description only. The file now starts with `# needs-review: <reason>` (a YAML comment: Rasa
reads the same scenario); `repair`, `revise` and the interactive review keep it, a verified
case has none, and a re-generate that verifies the case writes it without.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect
from evalcore.justify import (
    carried_notes,
    needs_review_note,
    redump,
    without_justifications,
)

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Load the caller's profile.")
async def load_profile(context: ToolContext = None) -> ToolResult:
    context.memory.set("username", "Ada")
    return ToolResult(llm_response={"ok": True})


@tool(description="Read the last bill.")
async def read_bill(context: ToolContext = None) -> ToolResult:
    context.memory.set("bill_total", 42)
    return ToolResult(llm_response={"total": 42})
"""

#: The project seeds the name, so the lookup never runs: nothing shows the goal was reached.
GREETING = """\
---
name: Say hello
description: Customers who just want to say hello to the line's help desk.
import_tools:
  - load_profile
---

If username is missing in project memory, call `@tool.load_profile`.
Greet the customer by name.
"""

#: The same skill once it always looks the caller up: a case can check that.
GREETING_CHECKED = GREETING.replace("If username is missing in project memory, call", "Call")

FILES = {
    "agent.yml": "name: Northwind broadband\npersona: You help customers with their line.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": (
        "username:\n  type: text\n  description: Who is calling.\n  initial_value: Serena\n"
    ),
    "tools/bill.py": TOOLS,
    "skills/hello/skill.md": GREETING,
    "skills/bill/skill.md": """\
---
name: Explain my bill
description: Customers ask what their last bill came to.
import_tools:
  - read_bill
---

Call `@tool.read_bill` and tell the customer the total.
""",
    "skills/bill/memory.yml": (
        "schema:\n  public:\n    bill_total:\n      type: float\n"
        "      description: The last bill's total.\n"
    ),
}
MANTLE = get_dialect("mantle")


def _generate(root: Path, out: Path, **options: Any) -> dict[str, Any]:
    request = build_request(["hello", "bill"], project=root, out=str(out / "cases"), **options)
    checkpoints = out / "checkpoints.sqlite"
    return asyncio.run(run_generation(request, engine=OfflineEngine(), checkpoints=checkpoints))


def _happy(report: dict[str, Any], skill: str) -> dict[str, Any]:
    (row,) = [r for r in report["cases"] if r["source"] == skill and r["type"] == "happy_path"]
    return row


def _said(text: str) -> str:
    """The words of the file's needs-review comment, one line."""
    (note,) = carried_notes(text)
    return note.text


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    base = tmp_path_factory.mktemp("review_in_file")
    root = write_project(base / "line", FILES)
    return root, base, _generate(root, base)


def test_a_case_written_for_review_says_why_at_its_top_a_verified_one_not(generated) -> None:
    _, _, report = generated
    row = _happy(report, "hello")
    assert row["verified"] == "needs-review", row["verification"]
    text = Path(row["path"]).read_text("utf-8")
    assert text.startswith("# needs-review: ")
    assert _said(text) == " ".join(row["needs_review"].split())  # the report's own words
    top = text[: text.index("scenario:")].splitlines()
    assert all(len(line) <= 92 for line in top)  # wrapped, not one long line
    assert without_justifications(text).startswith("scenario:")  # every line of it a note
    assert yaml.safe_load(text)["scenario"]["goals"]["assertions"]
    row = _happy(report, "bill")  # a verified case: nothing to say
    assert row["verified"] == "yes", row["verification"]
    assert "needs-review" not in Path(row["path"]).read_text("utf-8")


def test_status_calls_the_written_case_fresh_and_a_changed_reason_edited(
    generated, run_cli_json
) -> None:
    _, base, report = generated
    manifest = base / "cases" / "manifest.json"
    code, data = run_cli_json("status", "--manifest", manifest, "--all")
    assert code == 0 and data["summary"]["fresh"] == len(report["cases"])
    assert data["summary"]["edited"] == 0
    path = Path(_happy(report, "hello")["path"])
    before = path.read_text("utf-8")
    try:
        path.write_text(before.replace("# needs-review: ", "# needs-review: checked by Ana; "))
        code, data = run_cli_json("status", "--manifest", manifest)
        assert data["summary"]["edited"] == 1
    finally:
        path.write_text(before)


def test_repair_keeps_the_reason(generated, tmp_path: Path, run_cli) -> None:
    root, _, report = generated
    text = Path(_happy(report, "hello")["path"]).read_text("utf-8")
    case = tmp_path / "case.yml"
    case.write_text(text.replace("skill_id: hello\n", "skill_id: helo\n", 1))
    code, out, _ = run_cli("repair", case, "--project", root, "--json")
    [record] = json.loads(out)["files"]
    assert code == 0 and record["written"] is True and record["skipped"] is None, record
    assert case.read_text("utf-8") == text and _said(text)


def test_a_revision_or_review_edit_keeps_the_reason(generated) -> None:
    """`revise` and the interactive review write their edit through `redump`."""
    root, _, report = generated
    text = Path(_happy(report, "hello")["path"]).read_text("utf-8")
    data = yaml.safe_load(text)
    data["scenario"]["name"] = "Say hello: a short greeting"
    after = redump(MANTLE, data, load_project(root), text)
    assert after.startswith("# needs-review: ") and _said(after) == _said(text)
    assert yaml.safe_load(after) == data


def test_a_regenerate_that_verifies_the_case_removes_the_reason(tmp_path: Path) -> None:
    root = write_project(tmp_path / "line", FILES)
    first = _happy(_generate(root, tmp_path), "hello")
    path = Path(first["path"])
    assert first["verified"] == "needs-review"
    held = path.read_text("utf-8")
    assert held.startswith("# needs-review: ")
    # the project as its author fixes it (a copy: a process keeps its verifier's reading)
    fixed = write_project(tmp_path / "fixed", {**FILES, "skills/hello/skill.md": GREETING_CHECKED})
    again = _happy(_generate(fixed, tmp_path), "hello")
    assert again["verified"] == "yes" and again["status"] == "conflict"
    assert path.read_text("utf-8") == held  # never overwritten silently
    forced = _happy(_generate(fixed, tmp_path, force=True), "hello")
    assert forced["verified"] == "yes" and forced["status"] == "overwritten"
    assert "needs-review" not in path.read_text("utf-8")


def test_a_reason_with_line_breaks_and_control_characters_stays_a_comment() -> None:
    data = yaml.safe_load(
        "scenario:\n  name: x\n  type: happy_path\n  simulation_context: hi\n"
        "  goals:\n    assertions:\n      - skill_activated:\n          skill_id: a\n"
    )
    reason = "first line\nsecond\x07line\u2028third " + "word " * 40
    text = MANTLE.dump_justified(data, None, [needs_review_note(reason)])
    assert yaml.safe_load(text) == data
    assert _said(text) == " ".join(reason.replace("\x07", " ").split())
    assert without_justifications(text) == MANTLE.dump(data)
    reviewed = text.replace("scenario:", "# Reviewed by Ana\nscenario:", 1)
    assert without_justifications(reviewed) == "# Reviewed by Ana\n" + MANTLE.dump(data)
