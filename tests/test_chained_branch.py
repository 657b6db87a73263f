"""A branch that needs an id only another branch of its skill writes: the chained case.

Found on an airline's assistant: "change where my bag is delivered" asks for the report
reference, which no bag row holds, while "report the bag missing" files the report and
writes its reference. A careful author neither invents the reference nor drops the branch:
the case reports the parcel first and then, in the same conversation, asks to redirect it;
the agent uses the reference it just got.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, play_lines, write_project

from agentflows.planning import CHAINED, NOT_WRITTEN, plan_source
from evalcore.definitions import load_project

_SKILL = """---
name: Parcels
description: >
  A customer's parcel: "my parcel never arrived", "send my parcel to my office instead".
---

Set mode from what they need: report or redirect.

if: session.parcels.mode == "report"
A parcel that never arrived: ask for the parcel number (set parcel_number). Then call
open_claim.

if: session.parcels.mode == "redirect"
To send the parcel to another address (their office instead of home), ask for the claim
reference (set claim_id, e.g. CL-12345) and the new address (set address). Then call
redirect_parcel.
"""

_MEMORY = """schema:
  public:
    mode:
      type: categorical
      enum_values: [report, redirect]
      description: What the customer needs.
      llm_settable: true
    parcel_number:
      type: text
      description: Parcel number, PC- and six digits.
      llm_settable: true
    claim_id:
      type: text
      description: Claim reference like CL-12345.
      llm_settable: true
    address:
      type: text
      description: New delivery address with postcode.
      llm_settable: true
"""

_TOOLS = """from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Open a claim for a parcel that never arrived.")
async def open_claim(parcel_number: str, context: ToolContext = None) -> ToolResult:
    if context is not None:
        context.memory.set("claim_id", "CL-" + parcel_number[-5:])
    return ToolResult(llm_response={"opened": True})


@tool(description="Send a parcel with an open claim to another address.")
async def redirect_parcel(
    claim_id: str, address: str, context: ToolContext = None
) -> ToolResult:
    return ToolResult(llm_response={"updated": True})
"""

_CUSTOMERS = """[
  {"customer_id": "C1", "first_name": "Ines", "last_name": "Marchetti",
   "phone": "+15550101", "parcels": [{"parcel": "PC-100001", "claim": null}]},
  {"customer_id": "C2", "first_name": "Oskar", "last_name": "Lindahl",
   "phone": "+15550102", "parcels": [{"parcel": "PC-100002", "claim": null}]}
]
"""


def _project(tmp_path: Path) -> Path:
    return write_project(
        tmp_path,
        {
            "agent.yml": "name: Parcel desk\npersona: You help customers with parcels.\n",
            "integrations.yml": INTEGRATIONS,
            "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
            "skills/parcels/skill.md": _SKILL,
            "skills/parcels/memory.yml": _MEMORY,
            "skills/parcels/tools.py": _TOOLS,
            "data/customers.json": _CUSTOMERS,
        },
    )


def test_the_branch_is_planned_after_the_branch_that_writes_its_id(tmp_path: Path) -> None:
    plan = plan_source(load_project(_project(tmp_path)), "mantle", "parcels", None)
    happy = {b.case: b for b in plan.behaviors if b.facts.get("kind") == "happy"}
    redirect = happy["redirect"].facts
    assert NOT_WRITTEN not in redirect, redirect
    chain = redirect[CHAINED]
    assert chain["after"] == "report" and chain["id"] == "parcels.claim_id", chain
    assert chain["tools"] == ["redirect_parcel"], chain
    assert redirect["values"]["parcels.mode"] == "report", redirect


def test_the_reference_agent_takes_a_second_request_of_a_skill_it_finished(
    tmp_path: Path,
) -> None:
    events = play_lines(
        _project(tmp_path),
        [
            "My parcel never arrived.",
            "PC-100001",
            "Can you send my parcel to my office instead? The address is 4 Mill Lane, 12345.",
            "4 Mill Lane, 12345",
        ],
    )
    modes = [e.get("value") for e in events if e.get("key") == "parcels.mode"]
    ran = [e.get("tool_name") for e in events if e.get("event") == "tool_executed"]
    asked = [e.get("text") for e in events if e.get("event") == "bot"]
    # the reference the report just wrote is used, not asked for
    assert not any("claim" in str(a).lower() and "id" in str(a).lower() for a in asked), asked
    assert modes[-1] == "redirect", events
    assert "redirect_parcel" in ran and ran.index("open_claim") < ran.index("redirect_parcel")


def test_the_chained_case_asks_for_the_follow_up_and_checks_it(tmp_path: Path) -> None:
    root = _project(tmp_path / "p")
    generate_offline(root, ["parcels"], tmp_path / "out")
    written = list((tmp_path / "out" / "cases").rglob("*redirect*.yml"))
    assert written, list((tmp_path / "out" / "cases").rglob("*.yml"))
    scenario = yaml.safe_load(written[0].read_text())["scenario"]
    context = scenario["simulation_context"]
    assert 'Before you finish, say: "Send my parcel to my office instead.' in context, context
    assert "The address is" in context and "CL-" not in context, context
    checks = scenario["goals"]["assertions"]
    modes = [
        i.get("value")
        for c in checks
        for i in (c.get("memory_was_set") or [])
        if isinstance(i, dict) and i.get("name") == "parcels.mode"
    ]
    assert modes == ["report", "redirect"], checks
    assert {
        "sequencing": [
            {"memory_was_set": "parcels.claim_id"},
            {"tool_executed": {"tool_name": "redirect_parcel", "source": "local"}},
        ]
    } in checks, checks
