"""A branch picked by a value a local tool reads from the project's own data is its own case.

The prose branches on `parcel_state` ("0" packed, "1" shipped, "2" delivered), which the lookup
writes from the record of `data/parcels.json` for the parcel number the user gives. The
tool upper-cases that number itself, so no case pins the argument; each branch case fixes its
record (the user's parcel number) and asserts the value the tool writes for it, justified by
the tool's write and that record. Without it every branch case asserts the same and all but
one are dropped as duplicates. The not-found value ("9"), which only the error branch writes,
is the failure case's, never a happy path of its own."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, write_project

from evalcore.definitions import load_project
from evalcore.dialects.mantle._justify import judge_case

SKILL = """\
---
name: Parcel status
description: >
  Look up where a parcel is by its parcel number: "where is my parcel PCL1001?".
tool_constraints:
  - find_parcel:
      requires: session.parcel_status.parcel_number
---

Help the customer with a parcel. Do not invent parcel numbers.

if: not session.parcel_status.parcel_number
Ask for the parcel number and set `parcel_number`.

if: session.parcel_status.parcel_number
Call find_parcel with that parcel number.

if: session.parcel_status.parcel_state == "0"
Say the parcel is being packed at the depot.

if: session.parcel_status.parcel_state == "1"
Say the parcel has shipped and is on its way.

if: session.parcel_status.parcel_state == "2"
Say the parcel was delivered to the front door.

if: session.parcel_status.parcel_state == "9"
Say you could not find that parcel number and ask them to confirm it.
"""

TOOLS = '''\
import json
from pathlib import Path

from rasa.mantle.tools.decorator import ToolContext, tool

DATA = Path(__file__).resolve().parents[2] / "data" / "parcels.json"


@tool(description="Look up a parcel by number.")
async def find_parcel(parcel_number: str, context: ToolContext = None):
    """Look up a parcel.

    Args:
        parcel_number: The parcel id, PCL and four digits.
    """
    wanted = parcel_number.strip().upper()
    rows = json.loads(DATA.read_text())
    row = next((r for r in rows if r["parcel_id"] == wanted), None)
    if not row:
        context.memory.set("parcel_state", "9")
        return {"ok": False, "error": "parcel_not_found"}
    context.memory.set("parcel_state", str(int(row["parcel_state"])))
    return {"ok": True, "parcel_state": row["parcel_state"]}
'''

MEMORY = """\
schema:
  public:
    parcel_number:
      type: text
      description: Parcel id, PCL and four digits (PCL1001).
      llm_settable: true
    parcel_state:
      type: text
"""

PARCELS = [
    {"parcel_id": "PCL1001", "parcel_state": 0},
    {"parcel_id": "PCL1002", "parcel_state": 1},
    {"parcel_id": "PCL1003", "parcel_state": 2},
]


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(
        tmp_path_factory.mktemp("parcels"),
        {
            "agent.yml": "name: Depot\npersona: You help customers.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "caller_name:\n  type: text\n  description: Name of the caller.\n",
            "responses.yml": (
                "responses:\n  utter_anything_else:\n    - text: Anything else?\n"
                "  utter_goodbye:\n    - text: Goodbye!\n"
            ),
            "data/parcels.json": json.dumps(PARCELS),
            "skills/parcel_status/skill.md": SKILL,
            "skills/parcel_status/tools.py": TOOLS,
            "skills/parcel_status/memory.yml": MEMORY,
        },
    )


@pytest.fixture(scope="module")
def report(root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return generate_offline(root, ["parcel_status"], tmp_path_factory.mktemp("out"))


def _state(data: dict[str, Any]) -> tuple[int, Any] | None:
    """(index of the assertion, value) of the asserted `parcel_state`, if any."""
    for at, check in enumerate(data["scenario"]["goals"]["assertions"]):
        for item in check.get("memory_was_set") or []:
            if isinstance(item, dict) and item.get("name") == "parcel_status.parcel_state":
                return at, item.get("value")
    return None


def test_each_branch_case_asserts_the_value_its_record_gives(root: Path, report: dict[str, Any]):
    happy = {
        c["behavior"]: c for c in report["cases"] if c["behavior"].startswith("parcel_status:")
    }
    branches = [f"parcel_status:{v}" for v in ("0", "1", "2")]
    dropped = [d["behavior"] for d in report["duplicates"]]
    assert not set(branches) & set(dropped), report["duplicates"]
    assert set(branches) <= set(happy), sorted(happy)
    project = load_project(root)
    for value, record in zip(("0", "1", "2"), PARCELS, strict=True):
        case = happy[f"parcel_status:{value}"]
        assert case["verified"] in ("yes", "repaired"), case  # the reference agent passes it
        data = yaml.safe_load(Path(case["path"]).read_text("utf-8"))
        assert record["parcel_id"] in data["scenario"]["simulation_context"]
        found = _state(data)
        assert found is not None and found[1] == value, data["scenario"]["goals"]
        judged = {j.path: j for j in judge_case(data, project)}
        cited = judged[f"/scenario/goals/assertions/{found[0]}"].justification
        assert cited is not None and cited.file == "skills/parcel_status/tools.py"
        assert "str(int(row" in TOOLS.splitlines()[cited.line - 1]
        assert record["parcel_id"] in cited.element and "data/parcels.json" in cited.element


def test_the_error_branchs_value_is_the_failure_case_only(report: dict[str, Any]):
    written = {c["behavior"] for c in report["cases"]}
    assert "parcel_status:9" not in written
    reasons = {d["behavior"]: d["reason"] for d in report["dropped"]}
    assert "error branch" in reasons.get("parcel_status:9", ""), reasons
    failure = [b for b in written if "parcel_not_found" in b]
    assert failure, sorted(written)
