"""What a tool call the case asserts needs is in the case, and nothing more is pinned.

- A parameter with a default is the model's to leave out (a tier the tool reads itself, a
  pickup store on a delivery): the case never pins it, while a required one stays pinned.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import Project, load_project

HANDOFF_SKILL = """---
name: Talk to a person
description: >
  Transfer to a person: "I want to speak to a person", refunds, medical needs.
tool_constraints:
  - transfer_to_person:
      requires: session.handoff.topic
---

Set topic from what they need. Then call transfer_to_person. Gold members go to the
priority queue; the tool does that from @memory.project.tier.
"""
HANDOFF_MEMORY = """schema:
  public:
    topic:
      type: categorical
      enum_values: [refund, medical]
      description: What the person is needed for.
      llm_settable: true
"""
HANDOFF_TOOLS = '''"""Transfer to a person."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Transfer to a person.")
async def transfer_to_person(
    topic: str, tier: str = "none", context: ToolContext = None
) -> ToolResult:
    """Queue the conversation.

    Args:
        topic: refund or medical.
        tier: none, silver or gold.
    """
    return ToolResult(llm_response={"transferred": True})
'''
PROJECT_MEMORY = """tier:
  type: categorical
  enum_values: [none, silver, gold]
  seed: true
"""


def _write(root: Path, skills: dict[str, dict[str, str]], memory: str = PROJECT_MEMORY) -> Project:
    (root / "agent.yml").write_text("agent:\n  name: Helper\n  persona: You help travellers.\n")
    (root / "memory.yml").write_text(memory)
    for name, files in skills.items():
        folder = root / "skills" / name
        folder.mkdir(parents=True)
        for file, text in files.items():
            (folder / file).write_text(text)
    return load_project(root)


def _cases(project: Project, skill: str) -> dict[str, dict[str, Any]]:
    behaviors = plan_source(project, "mantle", skill, None).behaviors
    return {b.case: draft_mantle(DraftContext(project, "mantle", b)) for b in behaviors}


def _calls(case: dict[str, Any], tool: str) -> list[dict[str, Any]]:
    checks = case["scenario"].get("goals", {}).get("assertions") or []
    return [
        c["tool_executed"]
        for c in checks
        if "tool_executed" in c and c["tool_executed"]["tool_name"] == tool
    ]


@pytest.fixture(scope="module")
def handoff(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("handoff")
    files = {"skill.md": HANDOFF_SKILL, "memory.yml": HANDOFF_MEMORY, "tools.py": HANDOFF_TOOLS}
    return _write(root, {"handoff": files})


def test_a_parameter_with_a_default_is_never_pinned(handoff: Project) -> None:
    calls = [
        c
        for case in _cases(handoff, "handoff").values()
        for c in _calls(case, "transfer_to_person")
    ]
    pinned = [c["arguments"] for c in calls if c.get("arguments")]
    assert pinned, calls  # the required topic is still asserted
    assert all("topic" in a for a in pinned)
    assert not [a for a in pinned if "tier" in a], pinned
