"""What a happy path leaves out because the prose or the tool's code makes it conditional: a
call written with its circumstance after it ("Call `list_boards` when they are unsure of the
board names") that the case does not fix, and a write the tool makes only when a live
service returns a value (`if result.get("ts"): memory.set("note_ts", result["ts"])`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import skill_models

POST = """\
---
name: Post a note
description: Post a short note to one of the team's message boards.
tool_constraints:
  - post_note:
      requires: session.post_note.note_confirmed
---

Help the engineer post a short note to a board.

Call `list_boards` when they are unsure of the board names. Ask which board and what the
note says, read it back and ask them to confirm.

When they confirm, set `note_confirmed` to true, then call `post_note`.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="The boards the team has.")
async def list_boards(context: ToolContext = None):
    """Board names."""
    return {"boards": ["ops", "general"]}


@tool(description="Post a note to a board.")
async def post_note(board_id: str, text: str, context: ToolContext = None):
    """Post it."""
    result = await service.post(board_id, text)
    context.memory.set("note_posted", True)
    if result.get("ts"):
        context.memory.set("note_ts", str(result["ts"]))
    return {"ok": True}
'''

FILES: dict[str, str] = {
    "agent.yml": "name: Team desk\npersona: You help engineers with team chores.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "skills/post_note/skill.md": POST,
    "skills/post_note/tools.py": TOOLS,
    "skills/post_note/memory.yml": (
        "schema:\n  public:\n"
        "    board_id:\n      type: categorical\n      enum_values: [ops, general]\n"
        "      description: The board to post to.\n      llm_settable: true\n"
        "    note_confirmed:\n      type: bool\n      llm_settable: true\n"
        "    note_posted:\n      type: bool\n"
        "    note_ts:\n      type: text\n      description: The posted note's timestamp.\n"
    ),
}


@pytest.fixture(scope="module")
def team(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("team") / "team", FILES)


def _happy(root: Path) -> list[dict[str, Any]]:
    project = load_project(root)
    behaviors = plan_source(project, "mantle", "post_note", None).behaviors
    happy = next(b for b in behaviors if b.type == "happy_path")
    data = draft_mantle(DraftContext(project, "mantle", happy))
    return data["scenario"]["goals"]["assertions"]


def test_a_call_with_its_circumstance_after_it_is_optional(team: Path) -> None:
    use = skill_models(load_project(team))["post_note"].tool("list_boards")
    assert use is not None
    assert [c.optional for c in use.calls] == [True]


def test_the_happy_path_asserts_neither_the_optional_lookup_nor_a_live_only_write(
    team: Path,
) -> None:
    text = str(_happy(team))
    assert "'post_note'" in text  # the call the skill exists for
    assert "list_boards" not in text
    assert "post_note.note_ts" not in text
    assert "post_note.note_posted" in text  # written on every success
