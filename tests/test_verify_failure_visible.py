"""A verifier that raises skips that draft's verification, never the run, and never in
silence: the case is written `skipped` with `failed`, the generate report counts it and
gives the error, and the case file says at its top that verification failed and why."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, write_project

import agentflows.generate._verify_mantle as verify_mantle
from agentflows.drafting.offline import OfflineEngine
from agentflows.generate import build_request, run_generation
from agentflows.pr._verification import verification_lines
from evalcore.justify import carried_notes

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Read the last bill.")
async def read_bill(context: ToolContext = None) -> ToolResult:
    context.memory.set("bill_total", 42)
    return ToolResult(llm_response={"total": 42})
"""

FILES = {
    "agent.yml": "name: Northwind broadband\npersona: You help customers with their line.\n",
    "integrations.yml": INTEGRATIONS,
    "tools/bill.py": TOOLS,
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


async def _broken(data: dict[str, Any], env: Any) -> Any:
    raise RuntimeError("the reference agent lost its place")


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("verify_failed")
    root = write_project(base / "line", FILES)
    request = build_request(["bill"], project=root, out=str(base / "cases"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verify_mantle, "verify_mantle", _broken)
        return asyncio.run(
            run_generation(request, engine=OfflineEngine(), checkpoints=base / "checkpoints.sqlite")
        )


def test_the_report_says_which_cases_the_verifier_failed_on_and_why(report) -> None:
    rows = report["cases"]
    assert rows and report["verification"]["failed"] == len(rows)
    for row in rows:
        assert row["verified"] == "skipped" and row["verification"]["failed"] is True
        assert row["needs_review"] == (
            "verification failed: RuntimeError: the reference agent lost its place"
        )


def test_the_case_file_says_at_its_top_that_verification_failed(report) -> None:
    for row in report["cases"]:
        text = Path(row["path"]).read_text("utf-8")
        (note,) = carried_notes(text)
        assert note.text == row["needs_review"]
        assert text.startswith("# needs-review: verification failed: RuntimeError")
        assert yaml.safe_load(text)["scenario"]["goals"]


def test_the_pr_description_counts_them_and_gives_the_error(report) -> None:
    lines = verification_lines(report, [row["path"] for row in report["cases"]])
    count = len(report["cases"])
    assert any(f"{count} skipped ({count} because verification failed)" in x for x in lines)
    rows = [x for x in lines if x.startswith("| `")]
    assert rows and all("verification failed: RuntimeError" in x for x in rows)
