"""The user names the things a list field asks for when the project lists none ("the
medicines to move"): an everyday, uncontrolled one the project's data does not already hold.

Before: a list field whose description listed no items got no fact, so the simulated user
invented the medicine (possibly a Schedule II drug that changes the path).
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml
from skill_model_fixtures import generate_offline, play_lines

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context
from evalcore.testdata import (
    EVERYDAY,
    case_rng,
    caught_by,
    everyday_item,
    load_records,
    merchant_for,
    other_than,
)

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


PAYSLIP = """---
name: Payslips
description: >
  Where to find a payslip, by the country the employee works in.
---

:::ordered_block id=main
steps:
  - id: ask_country
    collect: country
    utterance: utter_ask_country
    next:
      - if: session.payslips.country == "germany"
        then: answer_germany
      - if: session.payslips.country == "uk"
        then: answer_uk
      - else: answer_elsewhere
  - id: answer_germany
    action: utter_payslip_germany
    next: END
  - id: answer_uk
    action: utter_payslip_uk
    next: END
  - id: answer_elsewhere
    action: utter_payslip_elsewhere
    next: END
:::
"""
PAYSLIP_MEMORY = """schema:
  public:
    country:
      type: categorical
      enum_values: [germany, uk, other]
      description: Country the employee works in.
"""
PAYSLIP_RESPONSES = """responses:
  utter_ask_country:
    - text: Which country are you employed in?
  utter_payslip_germany:
    - text: Your payslip is in the German payroll portal.
  utter_payslip_uk:
    - text: Your payslip is in the UK payroll portal.
  utter_payslip_elsewhere:
    - text: Your payslip is with our employer-of-record partner.
"""


def _payslips(root: Path) -> Path:
    root.mkdir()
    (root / "agent.yml").write_text("agent:\n  name: HR\n  persona: You help employees.\n")
    folder = root / "skills" / "payslips"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text(PAYSLIP)
    (folder / "memory.yml").write_text(PAYSLIP_MEMORY)
    (folder / "responses.yml").write_text(PAYSLIP_RESPONSES)
    return root


def test_the_catch_all_choice_is_answered_with_a_country_no_other_choice_covers(
    tmp_path: Path,
) -> None:
    """The `other` path's user names a real country (never the word "other"), and the
    reference agent reads it as `other`, so the case is verified, not marked needs-review."""
    root = _payslips(tmp_path / "hr")
    report = generate_offline(root, ["payslips"], tmp_path / "out")
    [row] = [r for r in report["cases"] if "other" in r["path"]]
    text = Path(row["path"]).read_text()
    data = yaml.safe_load(text)
    facts = parse_fact_context(data["scenario"]["simulation_context"]).facts
    said = [f.value for f in facts]
    assert said and said[0] not in ("other", "Other")
    assert other_than("country", "other", ["germany", "uk", "other"]) == said[0]
    assert "needs-review" not in text


def test_the_reference_agent_reads_a_country_of_no_choice_as_the_catch_all(
    tmp_path: Path,
) -> None:
    root = _payslips(tmp_path / "hr")
    events = play_lines(root, ["Where can I find my payslip?", "Portugal"])
    set_to = [e.get("value") for e in events if e.get("key") == "payslips.country"]
    assert set_to == ["other"]
    assert caught_by("country", "Germany", ["germany", "uk", "other"]) is None


def test_a_merchant_is_of_the_country_whose_currency_the_case_pays_in() -> None:
    pounds = {
        merchant_for("merchant", ["airfare"], case_rng(f"k{n}", "m"), "GBP") for n in range(8)
    }
    assert pounds and pounds <= {"British Airways"}
    meals = {merchant_for("merchant", ["meals"], case_rng(f"k{n}", "m"), "EUR") for n in range(8)}
    assert meals == {"Brasserie Lipp"}
    # dollars: never a merchant whose receipt is in another currency
    dollars = {
        merchant_for("merchant", ["airfare"], case_rng(f"k{n}", "m"), "USD") for n in range(12)
    }
    assert "British Airways" not in dollars and dollars
