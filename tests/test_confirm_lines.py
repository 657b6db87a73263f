"""The confirmation lines of a Mantle case's context say what the case meets: the read-back
line only where the skill reads details back, and a refusal said at the gate it names (a
read-back before the gate is agreed to)."""

from __future__ import annotations

import yaml

from evalcore.simulator import FactContext, parse_fact_context
from tests.skill_model_fixtures import INTEGRATIONS, generate_offline, write_project
from tests.test_caller_records import PROJECT as NO_CONFIRMATION

PROJECT: dict[str, str] = {
    "agent.yml": "name: Harbour insurance\npersona: You help policy holders with claims.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/file_claim/skill.md": """\
---
name: File a claim
description: Customers report damage and file an insurance claim.
tool_constraints:
  - submit_claim:
      requires: session.file_claim.details_verified
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_submit
        utter_on_user_denial: utter_not_submitted
complete_when:
  condition: session.file_claim.claim_submitted
---

Ask what happened (set claim_description). Read back a short summary and ask if everything
looks correct; if they confirm, set details_verified to True. Then call @tool.submit_claim
and set claim_submitted.
""",
    "skills/file_claim/memory.yml": """\
schema:
  public:
    claim_description:
      type: text
      description: What happened, in the customer's words.
    details_verified:
      type: bool
      description: True once the customer confirms the summary.
    claim_submitted:
      type: bool
      description: True once the claim is submitted.
""",
    "skills/file_claim/responses.yml": """\
responses:
  utter_confirm_submit:
    - text: Shall I submit the claim now?
  utter_not_submitted:
    - text: Okay, I will not submit it.
""",
    "skills/file_claim/tools.py": '''\
"""Claims."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Submit a claim.")
async def submit_claim(claim_description: str, context: ToolContext = None) -> ToolResult:
    """Submit the claim.

    Args:
        claim_description: What happened.
    """
    return ToolResult(llm_response={"ok": True})
''',
}


def _contexts(tmp_path, files, skill):
    root = write_project(tmp_path / "project", files)
    generate_offline(root, [skill], tmp_path / "out")
    paths = sorted((tmp_path / "out" / "cases").rglob("*.yml"))
    return {p.name: yaml.safe_load(p.read_text())["scenario"] for p in paths}


def test_a_refusal_is_said_at_the_gate_and_the_read_back_before_it_agreed(tmp_path):
    cases = _contexts(tmp_path, PROJECT, "file_claim")
    refused = [c for n, c in cases.items() if "refused" in n]
    assert refused, list(cases)
    context = refused[0]["simulation_context"]
    assert "When the agent reads the details back and asks you to confirm, agree." in context
    assert "When the agent asks whether to submit the claim now, decline." in context
    parsed = parse_fact_context(context)
    assert (parsed.confirm, parsed.gate, parsed.read_back) == (
        "decline",
        "submit the claim now",
        True,
    )


def test_no_read_back_line_where_the_skill_reads_nothing_back(tmp_path):
    cases = _contexts(tmp_path, NO_CONFIRMATION, "reset_router")
    assert cases
    for name, case in cases.items():
        assert "confirm" not in case["simulation_context"], name


def test_an_old_context_reads_as_before():
    old = (
        "You are Ann Lee, a customer.\nYou want to file a claim.\n"
        "When the agent reads the details back and asks you to confirm, decline.\n"
    )
    parsed = parse_fact_context(old)
    assert (parsed.confirm, parsed.gate, parsed.read_back) == ("decline", None, True)
    assert parsed.render() == old
    assert "reads the details back" in FactContext("A", "want x").render()


#: A second skill with a gate of its own: the claim's detour to it meets both gates.
WITH_DETOUR: dict[str, str] = {
    **PROJECT,
    "skills/order_brochure/skill.md": """\
---
name: Order a brochure
description: Customers order a printed brochure about our cover.
tool_constraints:
  - send_brochure:
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_send
        utter_on_user_denial: utter_not_sent
complete_when:
  condition: session.order_brochure.brochure_sent
---

Call @tool.send_brochure and set brochure_sent.
""",
    "skills/order_brochure/memory.yml": """\
schema:
  public:
    brochure_sent:
      type: bool
      description: True once the brochure is on its way.
""",
    "skills/order_brochure/responses.yml": """\
responses:
  utter_confirm_send:
    - text: Shall I post the brochure now?
  utter_not_sent:
    - text: Okay, I will not post it.
""",
    "skills/order_brochure/tools.py": '''\
"""Brochures."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Post a brochure.")
async def send_brochure(context: ToolContext = None) -> ToolResult:
    """Post the brochure."""
    return ToolResult(llm_response={"ok": True})
''',
}


def test_a_detour_gate_gets_its_own_line_beside_the_task_gate(tmp_path):
    cases = _contexts(tmp_path, WITH_DETOUR, "file_claim")
    detours = [c for n, c in cases.items() if "digression" in n]
    assert detours, list(cases)
    context = detours[0]["simulation_context"]
    assert "When the agent asks whether to submit the claim now, agree." in context
    assert "When the agent asks whether to post the brochure now, agree." in context
    parsed = parse_fact_context(context)
    assert (parsed.gate, parsed.agreed) == ("submit the claim now", ["post the brochure now"])
    assert parsed.render() == context
