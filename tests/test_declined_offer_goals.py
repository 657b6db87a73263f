"""A tool the prose calls only on the user's yes to an offer or a yes/no question right before
it ("Offer to run a speed test. If they agree, call speed_test"): the drafted case's user
declines, so no correct agent runs it, and what it writes stays unset (a fault that runs it
anyway, early or not, fails the case)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

SKILL = """\
---
name: Reset a modem
description: Reset the customer's modem when the internet is down.
tool_constraints:
  - reset_modem:
      on_success: utter_modem_reset
---

Help the customer reset their modem.

Call `@tool.reset_modem`.

{after}
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Reset the modem.")
async def reset_modem(context: ToolContext = None):
    """Reset it."""
    context.memory.set("modem_reset", True)
    return {"reset": True}


@tool(description="Measure the line speed.")
async def speed_test(context: ToolContext = None):
    """Measure it."""
    context.memory.set("mbps", 95.0)
    return {"mbps": 95.0}
'''


def _happy(root: Path, after: str) -> dict[str, Any]:
    write_project(
        root,
        {
            "agent.yml": "name: Line desk\npersona: You help broadband customers.\n",
            "integrations.yml": INTEGRATIONS,
            "responses.yml": "responses:\n  utter_cannot_help:\n    - text: Sorry.\n",
            "skills/modem/skill.md": SKILL.format(after=after),
            "skills/modem/tools.py": TOOLS,
            "skills/modem/memory.yml": (
                "schema:\n  public:\n    modem_reset:\n      type: bool\n"
                "    mbps:\n      type: float\n"
            ),
            "skills/modem/responses.yml": (
                "responses:\n  utter_modem_reset:\n    - text: Your modem was reset.\n"
            ),
        },
    )
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "modem", None).behaviors
    happy = next(b for b in behaviors if b.type == "happy_path")
    return draft_mantle(DraftContext(project, "mantle", happy))


def _unset(data: dict[str, Any]) -> list[str]:
    checks = data["scenario"]["goals"]["assertions"]
    return [str(i["name"]) for c in checks for i in c.get("memory_was_not_set") or []]


@pytest.mark.parametrize(
    "after",
    [
        "Offer to run a speed test. If they agree, call `@tool.speed_test` and read it out.",
        "Ask whether they want a speed test. If yes, call `@tool.speed_test`.",
    ],
)
def test_a_call_on_a_declined_yes_leaves_its_writes_unset(tmp_path: Path, after: str) -> None:
    data = _happy(tmp_path, after)
    assert "speed test: no" in data["scenario"]["simulation_context"]  # the user declines
    assert "modem.mbps" in _unset(data)


def test_only_a_yes_the_case_declines_leaves_the_writes_unset(tmp_path: Path) -> None:
    """ "If they want one" after no offer or question: what the user says decides it, so
    nothing is asserted; after the offer the case's user declines, the write is unset."""
    bare = _happy(tmp_path / "bare", "If they want a speed test, call `@tool.speed_test`.")
    assert "modem.mbps" not in _unset(bare)
    offered = _happy(
        tmp_path / "offered", "Offer a speed test. If they agree, call `@tool.speed_test`."
    )
    assert "modem.mbps" in _unset(offered)
