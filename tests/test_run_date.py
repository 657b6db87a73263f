"""A tool that compares the run's date with its data (`too_early = date.today() < earliest`,
or through a helper: a transfer only during business hours) answers what the day decides:
the case file says so above its scenario; a tool that only stamps the date does not."""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INSURANCE, write_project

from evalcore.definitions import load_project
from evalcore.definitions.skill_model import code_facts
from evalcore.dialects import get_dialect

TOOLS = """\
from datetime import date, datetime, timedelta

from rasa.mantle.tools.decorator import ToolContext, tool


def _open_now() -> bool:
    now = datetime.now()
    return now.weekday() < 5 and 8 <= now.hour < 20


@tool(description="Check the collected details against the policy.")
async def verify_details(incident_date: str, context: ToolContext = None):
    earliest = date.fromisoformat(incident_date) + timedelta(days=2)
    context.memory.set("details_verified", date.today() >= earliest)


@tool(description="File the claim.")
async def submit_claim(claim_type: str, incident_date: str, context: ToolContext = None):
    context.memory.set("claim_id", f"CLM-{datetime.now():%Y%m%d}")


@tool(description="Transfer to a person.")
async def transfer_to_agent(context: ToolContext = None):
    if not _open_now():
        return {"transferred": False}
    context.memory.set("transferred", True)
"""


def _case(*tools: str) -> dict:
    return {
        "scenario": {
            "name": "File a claim",
            "type": "happy_path",
            "simulation_context": "You want to file a claim for your car.",
            "goals": {
                "assertions": [
                    {"skill_activated": {"skill_id": "file_claim"}},
                    *({"tool_executed": {"tool_name": t, "is_error": False}} for t in tools),
                ]
            },
        }
    }


def test_a_case_that_runs_a_tool_the_run_date_decides_says_so(tmp_path: Path) -> None:
    files = dict(INSURANCE)
    files["skills/file_claim/tools.py"] = TOOLS
    files.pop("skills/human_handoff/tools.py")
    project = load_project(write_project(tmp_path / "p", files))
    tools = project.mantle.tools_for("file_claim")
    assert code_facts(project, tools["verify_details"]).clock
    assert code_facts(project, tools["transfer_to_agent"]).clock  # through its helper
    assert not code_facts(project, tools["submit_claim"]).clock  # a date stamp decides nothing
    dialect = get_dialect("mantle")
    case = _case("verify_details", "submit_claim")
    text = dialect.dump_justified(case, project)
    notes = [line for line in text.splitlines() if line.startswith("# run date:")]
    assert len(notes) == 1 and notes[0].startswith("# run date: verify_details compares")
    assert "details_verified" in notes[0]
    assert yaml.safe_load(text) == case  # a comment: the data reads back the same
    quiet = dialect.dump_justified(_case("submit_claim"), project)
    assert "# run date:" not in quiet
