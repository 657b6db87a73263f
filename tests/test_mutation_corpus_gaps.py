"""Survivors a suite could not kill for the interpreter's own reasons, found on a corpus project.

- A skill with modes: the `reorder_asks` variant put the mode's own question after the
  branch its answer picks (it reversed every ask of the skill, `if:` sections included), so
  the variant ended the skill at the mode and verification dropped every call a happy path
  of a mode asserted. A correct agent may ask one section's questions in either order, never
  a branch's before the answer that picks it.
- A tool only `tool_constraints` names (nothing instructs a call): the reference agent
  never calls it, so the faults of its call (and of a key only it writes) have nothing to
  act on: equivalent, not a survivor.
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.generate._verify_mantle import verify_mantle
from agentflows.generate._verify_types import VerifyEnv
from evalcore.agents.reference import ask_runs, mutants, variants
from evalcore.agents.reference._prose import prose_items
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import skill_models
from evalcore.dialects import get_dialect

PARCEL = """\
---
name: Parcel help
description: Parcels that never arrived or arrived broken.
tool_constraints:
  - report_lost:
      on_success: utter_lost_filed
  - report_broken:
      on_success: utter_broken_filed
  - send_voucher:
      requires: session.parcel.mode == "broken"
      on_success: utter_voucher_sent
---

Help with a parcel. Set mode from what they need: lost, broken or redirect.

if: session.parcel.mode == "lost"
Ask for the address to send a replacement to (set address) and a short description of
the parcel (set description). Then call report_lost.

if: session.parcel.mode == "broken"
Ask what is broken (set damage). Then call report_broken.

if: session.parcel.mode == "redirect"
Ask where it should go now (set destination), then call redirect_parcel.
"""

PARCEL_MEMORY = """\
schema:
  public:
    mode:
      type: categorical
      enum_values: [lost, broken, redirect]
      description: What the customer needs for their parcel.
      llm_settable: true
    address:
      type: text
      description: Where to send a replacement.
      llm_settable: true
    description:
      type: text
      description: What the parcel looks like.
      llm_settable: true
    damage:
      type: categorical
      enum_values: [box, contents]
      description: What is broken.
      llm_settable: true
    destination:
      type: text
      description: Where the parcel should go instead.
      llm_settable: true
    voucher_code:
      type: text
      description: The voucher sent for a broken parcel.
"""

PARCEL_TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Report a lost parcel.")
async def report_lost(address: str, description: str, context: ToolContext = None):
    """Open a lost-parcel file."""
    return {"filed": True}


@tool(description="Report a broken parcel.")
async def report_broken(damage: str, context: ToolContext = None):
    """Open a damage file."""
    return {"filed": True}


@tool(description="Send a parcel on its way to another address.")
async def redirect_parcel(destination: str, context: ToolContext = None):
    """Redirect the courier."""
    return {"redirected": True}


@tool(description="Send a voucher for a broken parcel.")
async def send_voucher(damage: str, context: ToolContext = None):
    """One voucher per parcel."""
    context.memory.set("voucher_code", "V-1")
    return {"sent": True}
'''

RESPONSES = """\
responses:
  utter_lost_filed:
    - text: Reported as lost.
  utter_broken_filed:
    - text: Reported as broken.
  utter_voucher_sent:
    - text: A voucher is on its way.
"""

PROJECT: dict[str, str] = {
    "agent.yml": "name: Parcel desk\npersona: You help the customers of a parcel service.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/parcel/skill.md": PARCEL,
    "skills/parcel/memory.yml": PARCEL_MEMORY,
    "skills/parcel/responses.yml": RESPONSES,
    "skills/parcel/tools.py": PARCEL_TOOLS,
}


@pytest.fixture(scope="module")
def parcel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("parcel"), PROJECT)


def test_asks_reorder_only_within_one_section(parcel: Path) -> None:
    project = load_project(parcel)
    skill = project.mantle.skills["parcel"]
    items = prose_items(skill, skill_models(project)["parcel"])
    runs = [[items[n].name for n in run] for run in ask_runs(items)]
    assert runs == [["parcel.address", "parcel.description"]]
    assert "reorder_asks:parcel" in {v.id for v in variants(project)}


BROKEN = [
    {"skill_activated": {"skill_id": "parcel"}},
    {"memory_was_set": [{"name": "parcel.mode", "value": "broken"}]},
    {"tool_executed": {"tool_name": "report_broken", "source": "local", "is_error": False}},
    {"bot_uttered": {"utter_name": "utter_broken_filed"}},
]


def _case(mode: str, facts: dict[str, str], assertions: list[Any]) -> dict[str, Any]:
    known = "".join(f"- {label}: {value}\n" for label, value in facts.items())
    return {
        "scenario": {
            "name": f"Parcel ({mode})",
            "type": "happy_path",
            "simulation_context": (
                "You are Dana Ortiz, a teacher who orders books online.\n"
                "You want help with a parcel.\n"
                "What you know (share each only when the agent asks):\n" + known + "When the "
                "agent asks whether there is anything else, say no.\n"
                "Stop once the agent has told you the outcome and asks nothing more.\n"
            ),
            "goals": {"criteria": ["The agent is polite"], "assertions": assertions},
        }
    }


def test_a_mode_happy_path_keeps_its_call_under_every_variant(parcel: Path) -> None:
    env = VerifyEnv(
        project=load_project(parcel),
        dialect=get_dialect("mantle"),
        path=parcel / "case.yml",
        project_label="parcel",
    )
    data = _case("broken", {"mode": "broken", "damage": "box"}, BROKEN)
    verdict = asyncio.run(verify_mantle(copy.deepcopy(data), env))
    assert verdict.outcome == "yes", (verdict.reason, verdict.fixes)
    assert verdict.data["scenario"]["goals"]["assertions"] == BROKEN
    assert "reorder_asks:parcel" in verdict.variants_passed


def test_faults_of_a_call_nothing_instructs_are_equivalent(parcel: Path) -> None:
    found = {m.id: m for m in mutants(load_project(parcel))}
    for kind in ("drop_on_success", "fail_silently", "wrong_argument"):
        why = found[f"{kind}:send_voucher"].equivalent
        assert why is not None and "only tool_constraints names send_voucher" in why
    assert found["forget_memory:parcel.voucher_code"].equivalent is not None
    # the early call a missing `requires` lets through is seen by a case: not marked
    assert found["ignore_requires:send_voucher"].equivalent is None
    # a tool the prose calls keeps its mutants
    assert found["drop_on_success:report_broken"].equivalent is None
    assert found["fail_silently:report_broken"].equivalent is None
