"""A `when:` rule's response is asserted only where the case fixes its condition: a value the
user gives, or a field a tool copies from the case's own record in the project's data. A
prescription with no schedule makes the tool write `is_controlled` false, so the controlled
notice never comes; the walk's stand-in `true` is no reason to assert it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"
NOTICE = "utter_controlled_notice"


def _said(root: Path, case: str) -> list[str]:
    project = load_project(root)
    plans = plan_source(project, "mantle", "refill_prescription", None)
    behavior = next(b for b in plans.behaviors if b.case == case)
    goals = draft_mantle(DraftContext(project, "mantle", behavior))["scenario"]["goals"]
    return [a["bot_uttered"]["utter_name"] for a in goals["assertions"] if "bot_uttered" in a]


@pytest.mark.parametrize("case", ["pickup", "delivery"])
def test_a_record_without_a_schedule_asserts_no_controlled_notice(case: str) -> None:
    assert NOTICE not in _said(CORPUS / "meadow_pharmacy", case)


def test_a_scheduled_record_of_the_case_asserts_the_notice(tmp_path: Path) -> None:
    root = tmp_path / "meadow_pharmacy"
    shutil.copytree(
        CORPUS / "meadow_pharmacy", root, ignore=shutil.ignore_patterns("generated_cases")
    )
    data = root / "data" / "prescriptions.json"
    rows = json.loads(data.read_text())
    for row in rows:
        row["schedule"] = row["schedule"] or "CIV"
    data.write_text(json.dumps(rows))
    assert NOTICE in _said(root, "pickup")
