"""The first message never states a value the case gives otherwise: a skill named
"Approve a swap" opened every case with "Hi, I'd like help with approve a swap.", so the
agent recorded `approve` from it in the case about refusing."""

from __future__ import annotations

from pathlib import Path

from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

SWAP = """\
---
name: Approve a swap
description: >
  A ward manager deciding on a shift swap: "I need to sign off a swap", "there's a swap
  waiting for me".
tool_constraints:
  - decide_swap:
      requires: session.swap.decision
---

Ask for the swap reference (set swap_id). Ask whether to approve or refuse it and set
decision. Then call @tool.decide_swap with the swap id and the decision.

if: session.swap.decision == "refuse"
Tell them both staff members get a message saying so.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Send the manager's decision on a swap.")
async def decide_swap(swap_id: str, decision: str, context: ToolContext = None):
    """Decide it."""
    return {"sent": True}
'''

FILES = {
    "agent.yml": "name: Ward desk\npersona: You help ward managers.\n",
    "integrations.yml": INTEGRATIONS,
    "responses.yml": "responses:\n  utter_anything_else:\n    - text: Anything else?\n",
    "skills/swap/skill.md": SWAP,
    "skills/swap/tools.py": TOOLS,
    "skills/swap/memory.yml": (
        "schema:\n  public:\n    swap_id:\n      type: text\n"
        "      description: 'The swap, for example \"SW-20417\".'\n"
        "    decision:\n      type: categorical\n      enum_values: [approve, refuse]\n"
        "      description: The decision.\n"
    ),
}


def test_a_case_about_another_value_opens_without_the_skills_own_value(tmp_path: Path) -> None:
    project = load_project(write_project(tmp_path / "ward", FILES))
    behaviors = {b.case: b for b in plan_source(project, "mantle", "swap", None).behaviors}
    openings = {}
    for value in ("approve", "refuse"):
        context = draft_mantle(DraftContext(project, "mantle", behaviors[value]))["scenario"][
            "simulation_context"
        ]
        openings[value] = next(
            (line for line in context.splitlines() if line.startswith("Open with")), None
        )
    assert openings["approve"] is None  # the plain opening says what the case says
    assert openings["refuse"] == 'Open with: "I need to sign off a swap."'
