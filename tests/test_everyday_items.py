"""The user names the things a list field asks for when the project lists none ("the
medicines to move"): an everyday, uncontrolled one the project's data does not already hold.

Before: a list field whose description listed no items got no fact, so the simulated user
invented the medicine (possibly a Schedule II drug that changes the path).
"""

from __future__ import annotations

import json
from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context
from evalcore.testdata import EVERYDAY, case_rng, everyday_item, load_records

SKILL = """---
name: Transfer a prescription
description: >
  Moving a prescription to us from another pharmacy: "transfer my inhaler from the
  pharmacy on Main Street".
tool_constraints:
  - request_transfer:
      requires: session.transfer.other_pharmacy
---

Ask for the other pharmacy's name (set other_pharmacy) and the medicines to move (set
medications, names as on the label). Then call @tool.request_transfer.
"""
MEMORY = """schema:
  public:
    other_pharmacy:
      type: text
      description: Name of the pharmacy the prescription comes from, e.g. "CVS on Penn Ave".
      llm_settable: true
    medications:
      type: list
      description: Medicines to move, as named on the old labels.
      llm_settable: true
"""
TOOLS = '''"""Transfers."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Ask the other pharmacy to transfer the prescriptions.")
async def request_transfer(
    other_pharmacy: str, medications: list, context: ToolContext = None
) -> ToolResult:
    """Request it.

    Args:
        other_pharmacy: Name of the other pharmacy.
        medications: Medicines to move.
    """
    return ToolResult(llm_response={"requested": True})
'''
MEDICINES = next(t for t in EVERYDAY if "medications" in t.topic).items
#: Prescriptions already filled here: every catalogue medicine but the last.
FILLED = [{"rx_number": str(n), "drug": item} for n, item in enumerate(MEDICINES[:-1])]


def _project(root: Path):
    (root / "agent.yml").write_text("agent:\n  name: Pharmacy\n  persona: You help patients.\n")
    folder = root / "skills" / "transfer"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text(SKILL)
    (folder / "memory.yml").write_text(MEMORY)
    (folder / "tools.py").write_text(TOOLS)
    (root / "data").mkdir()
    (root / "data" / "prescriptions.json").write_text(json.dumps(FILLED))
    return load_project(root)


def test_the_medicine_to_move_is_one_the_pharmacy_does_not_fill(tmp_path: Path) -> None:
    project = _project(tmp_path)
    behavior = next(
        b
        for b in plan_source(project, "mantle", "transfer", None).behaviors
        if b.type == "happy_path"
    )
    data = draft_mantle(DraftContext(project, "mantle", behavior))
    context = parse_fact_context(data["scenario"]["simulation_context"])
    told = [f.value for f in context.facts]
    assert MEDICINES[-1] in told


def test_no_everyday_item_for_a_field_of_no_known_kind(tmp_path: Path) -> None:
    records = load_records(tmp_path)
    assert everyday_item("attendees", records, case_rng("x")) is None
    assert everyday_item("medications", records, case_rng("x")) in MEDICINES
