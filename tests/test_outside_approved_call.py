"""A gated call the case's user approves, after an outside write whose answer it runs on.

The parts shop returns the order number, and the receipt the user agrees to at its gate
needs that number (`requires`). No case decides what the shop answers, yet without the
receipt call nothing shows the agent did what the user asked: the drafter asserts the
approved call, `casegen mutate` reads a run the same way, and the case file's
`# outside service:` note says those checks hold where the shop (or a sandbox) accepts.
"""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project
from test_outside_results import MEMORY, RESPONSES, SKILL, TOOLS

from agentflows.drafting import DraftContext
from agentflows.drafting.offline import answer_marks
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.dialects.mantle._outside import outside_notes

RECEIPT_GATE = """\
  - send_receipt:
      requires: session.order_parts.order_number
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_receipt
        utter_on_user_denial: utter_no_receipt
---
"""

RECEIPT_TOOL = '''

@tool(description="Send the order receipt to the customer's address on file.")
async def send_receipt(order_number: str, context: ToolContext = None):
    """Send it.

    Args:
        order_number: The shop's order number.
    """
    return {"sent": True}
'''


def _project(tmp_path: Path):
    skill = SKILL.replace("---\n\nHelp", RECEIPT_GATE + "\nHelp", 1)
    skill += "After the order, call send_receipt with the order number.\n"
    responses = RESPONSES + (
        "  utter_confirm_receipt:\n    - text: Shall I send you the receipt?\n"
        "  utter_no_receipt:\n    - text: No receipt then.\n"
    )
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": responses,
        "skills/order_parts/skill.md": skill,
        "skills/order_parts/tools.py": TOOLS + RECEIPT_TOOL,
        "skills/order_parts/memory.yml": MEMORY,
    }
    return load_project(write_project(tmp_path / "parts", files))


def test_the_happy_path_asserts_the_call_its_user_approves(tmp_path: Path) -> None:
    project = _project(tmp_path)
    behaviors = plan_source(project, "mantle", "order_parts", None).behaviors
    happy = next(b for b in behaviors if b.facts.get("kind") == "happy")
    goals = draft_mantle(DraftContext(project, "mantle", happy))["scenario"]["goals"]
    ran = [a["tool_executed"]["tool_name"] for a in goals["assertions"] if "tool_executed" in a]
    assert "submit_order" in ran and "send_receipt" in ran
    assert not any(
        c.startswith("If submit_order succeeds, the agent goes on") for c in goals["criteria"]
    )
    # what the shop answers is still not the case's: no order number, no success reply
    said = [a["bot_uttered"]["utter_name"] for a in goals["assertions"] if "bot_uttered" in a]
    assert "utter_order_placed" not in said
    named = [i.get("name") for a in goals["assertions"] for i in a.get("memory_was_set") or []]
    assert "order_parts.order_number" not in named


def test_mutate_reads_the_approved_call_as_a_mark(tmp_path: Path) -> None:
    project = _project(tmp_path)
    started = {"event": "skill_activated", "skill_id": "order_parts"}
    checked = {"event": "memory_set", "key": "order_parts.part_checked", "value": True}
    shop = {"event": "tool_executed", "tool_name": "submit_order", "is_error": False}
    answered = {"event": "memory_set", "key": "order_parts.order_number", "value": "O-1"}
    receipt = {"event": "tool_executed", "tool_name": "send_receipt", "is_error": False}
    reference = [started, checked, shop, answered, receipt]
    marks = answer_marks(project, reference)
    assert marks(reference) == [started, checked, {**shop, "is_error": None}, receipt]
    # a mutant that never sends the receipt leaves a different mark: a case can kill it
    assert marks(reference[:-1]) != marks(reference)


def test_the_note_says_the_later_checks_hold_where_the_service_accepts(tmp_path: Path) -> None:
    project = _project(tmp_path)
    data = {
        "scenario": {
            "goals": {
                "assertions": [
                    {"tool_executed": {"tool_name": "submit_order", "skill_id": "order_parts"}},
                    {"tool_executed": {"tool_name": "send_receipt", "skill_id": "order_parts"}},
                ]
            }
        }
    }
    (note,) = outside_notes(data, project)
    assert note.text.startswith("submit_order acts on")
    assert "the checks of send_receipt hold only where the service" in note.text
    # a case that asserts nothing on the answer says only that the call acts for real
    alone = {"scenario": {"goals": {"assertions": data["scenario"]["goals"]["assertions"][:1]}}}
    (plain,) = outside_notes(alone, project)
    assert "hold only where" not in plain.text
