"""A tool's memory writes that depend on the row it reads: a write under `if <value>:` is
made only when the row has that value, and a write on the error branch (`if not row: …;
return {"error": …}`) only when no row is found. Cases assert only what the record makes."""

from __future__ import annotations

import json

import yaml

from evalcore.agents.reference._backend import FakeBackend
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import code_facts
from tests.skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

CLAIMS = [
    {"claim_id": f"CLM-{n}", "claim_status": n % 3, "inspection_date": None}
    for n in range(1040, 1046)
]

PROJECT: dict[str, str] = {
    "agent.yml": "name: Harbour insurance\npersona: You help policy holders with claims.\n",
    "integrations.yml": INTEGRATIONS,
    "data/claims.json": json.dumps(CLAIMS),
    "skills/claim_status/skill.md": """\
---
name: Claim status
description: Customers ask where their insurance claim is at.
tool_constraints:
  - get_claim_status:
      requires: session.claim_status.claim_number
---

Ask for the claim number (set claim_number), then look it up with @tool.get_claim_status.
Tell the customer the status.
""",
    "skills/claim_status/memory.yml": """\
schema:
  public:
    claim_number:
      type: text
      description: The claim, for example CLM-1040.
    claim_status:
      type: text
      description: The claim's status code.
    inspection_date:
      type: text
      description: When the inspection is booked.
""",
    "skills/claim_status/tools.py": '''\
"""Claims of data/claims.json."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult

from lib import find_claim


@tool(description="Look up a claim.")
async def get_claim_status(claim_number: str, context: ToolContext = None) -> ToolResult:
    """Look up one claim.

    Args:
        claim_number: The claim, for example CLM-1040.
    """
    row = find_claim(claim_number)
    if not row:
        context.memory.set("claim_status", "9")
        return ToolResult(llm_response={"ok": False, "error": "claim_not_found"})
    context.memory.set("claim_status", str(row["claim_status"]))
    if row.get("inspection_date"):
        context.memory.set("inspection_date", row["inspection_date"])
    return ToolResult(llm_response={"ok": True})
''',
}


def test_code_facts_mark_the_writes_the_row_decides(tmp_path):
    project = load_project(write_project(tmp_path, PROJECT))
    assert project.mantle is not None
    tool = project.mantle.tools_for("claim_status")["get_claim_status"]
    writes = {(w.key, w.value): w for w in code_facts(project, tool).writes}
    assert writes[("claim_status", "9")].failure
    assert not writes[("claim_status", "9")].guarded
    found = [w for w in writes.values() if w.key == "claim_status" and w.value != "9"]
    assert found and not found[0].failure and not found[0].guarded
    assert [w.guarded for w in writes.values() if w.key == "inspection_date"] == [True]


def test_a_found_record_makes_neither_the_error_write_nor_a_missing_value(tmp_path):
    project = load_project(write_project(tmp_path, PROJECT))
    result = FakeBackend(project).call(
        "claim_status", "get_claim_status", {"claim_number": "CLM-1041"}, {}
    )
    # the row's (1041 % 3) as the text it writes to a text field, not "9"
    assert result.writes.get("claim_status.claim_status") == "0"
    assert "claim_status.inspection_date" not in result.writes


def test_no_case_asserts_a_write_the_row_may_not_make(tmp_path):
    root = write_project(tmp_path / "project", PROJECT)
    generate_offline(root, ["claim_status"], tmp_path / "out")
    cases = sorted((tmp_path / "out" / "cases").rglob("*.yml"))
    assert cases
    for path in cases:
        case = yaml.safe_load(path.read_text())["scenario"]
        text = json.dumps(case["goals"].get("assertions", []))
        assert "inspection_date" not in text, path.name
        assert '"9"' not in text or case["type"] == "sad_path", (path.name, text)


def test_a_failure_case_names_its_input_and_asserts_what_a_real_failing_run_does(tmp_path):
    root = write_project(tmp_path / "project", PROJECT)
    generate_offline(root, ["claim_status"], tmp_path / "out")
    cases = [
        yaml.safe_load(p.read_text())["scenario"]
        for p in sorted((tmp_path / "out" / "cases").rglob("*sad_path.yml"))
    ]
    assert cases
    case = cases[0]
    run = next(a["tool_executed"] for a in case["goals"]["assertions"] if "tool_executed" in a)
    # the tool reports a missing claim in a normal result: no `is_error` is promised
    assert "is_error" not in run, run
    assert case["name"].endswith(f"for claim number {run['arguments']['claim_number']}")
    unset = [
        item["name"]
        for a in case["goals"]["assertions"]
        for item in a.get("memory_was_not_set", [])
    ]
    assert "claim_status.claim_status" not in unset  # the error branch writes it


def test_no_row_makes_no_write_the_row_decides(tmp_path):
    project = load_project(write_project(tmp_path, PROJECT))
    result = FakeBackend(project).call(
        "claim_status", "get_claim_status", {"claim_number": "CLM-0150"}, {}
    )
    assert "claim_status.inspection_date" not in result.writes


BOOKING = {
    **PROJECT,
    "skills/claim_status/tools.py": PROJECT["skills/claim_status/tools.py"]
    + '''

@tool(description="Book an inspection for a claim in inspection status.")
async def book_inspection(claim_number: str, context: ToolContext = None) -> ToolResult:
    """Book an inspection.

    Args:
        claim_number: The claim, for example CLM-1040.
    """
    row = find_claim(claim_number)
    if int(row["claim_status"]) != 2:
        return ToolResult(llm_response={"ok": False, "error": "inspection_not_available"})
    context.memory.set("inspection_date", "soon")
    return ToolResult(llm_response={"ok": True})
''',
}


def test_a_tool_that_refuses_other_states_reads_the_state_it_works_with(tmp_path):
    project = load_project(write_project(tmp_path, BOOKING))
    assert project.mantle is not None
    tool = project.mantle.tools_for("claim_status")["book_inspection"]
    assert code_facts(project, tool).requires == (("claim_status", (2,)),)


def test_a_case_draws_a_record_the_tools_work_with(tmp_path):
    from evalcore.testdata import Collection, DataRecords, SheetBuilder
    from evalcore.testdata._values import FieldSpec

    claims = DataRecords([Collection("claims", tuple(CLAIMS))])
    spec = FieldSpec("claim_number", "text", "The claim.")
    require = {"claim_status": frozenset({"2"})}
    drawn = {
        SheetBuilder(f"c{n}", "", claims, slot=n, require=require).from_records(spec)
        for n in range(6)
    }
    assert drawn == {c["claim_id"] for c in CLAIMS if c["claim_status"] == 2}


LIVE_POST = '''\


@tool(description="Post a message.")
async def post_message(text: str, context: ToolContext = None):
    """Post it."""
    row = find_channel()
    result = await client.post(text)
    if result.get("ts"):
        context.memory.set("last_message_ts", str(result["ts"]))
    if context is not None:
        context.memory.set("posted", True)
    if row:
        context.memory.set("channel_name", row["name"])
    return {"ok": True}
'''


def test_a_write_of_a_value_the_result_may_lack_is_guarded(tmp_path) -> None:
    """A timestamp only a live post returns (`if result.get("ts"): set(..., result["ts"])`)
    is written only then; a write under a test of the context or of the record itself is
    made on every success."""
    tools = PROJECT["skills/claim_status/tools.py"] + LIVE_POST
    project = load_project(
        write_project(tmp_path, {**PROJECT, "skills/claim_status/tools.py": tools})
    )
    assert project.mantle is not None
    tool = project.mantle.tools_for("claim_status")["post_message"]
    writes = {w.key: w for w in code_facts(project, tool).writes}
    assert writes["last_message_ts"].guarded
    assert not writes["posted"].guarded
    assert not writes["channel_name"].guarded
