"""A detour cued on a confirmation: "when the agent asks you to confirm" may come at any
step before the read-back it stands for (an agent may check what it heard, or ask the user
to accept a condition an instruction explains), so the interruption's step is not pinned,
neither in its own assertion nor in the sequence."""

from __future__ import annotations

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import Project, load_project

HOURS = """---
name: opening_hours
description: The library's opening hours. Activate for "when are you open".
import_tools:
  - hours_today
---

Call `@tool.hours_today` and tell them today's hours.
"""
TOOLS = '''"""Library tools (read with ast, never imported)."""

from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Today's opening hours.")
async def hours_today(context: ToolContext = None) -> dict:
    return {"open": "09:00", "close": "18:00"}
'''
PAUSE = """---
name: pause_holds
description: Pause the reader's holds while they travel. Activate for "pause my holds".
---

Tell them their holds will wait for them. Then run @block.confirm_pause.

:::ordered_block id=confirm_pause
complete_when: session.pause_holds.confirmed
steps:
  - id: read_back
    instructions: |
      Read back that all holds will be paused and set confirmed once they agree.
    complete_when: session.pause_holds.confirmed
:::
"""
PAUSE_MEMORY = """schema:
  public:
    confirmed:
      type: bool
      description: Whether the reader agreed to the pause.
      llm_settable: true
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("library") / "project"
    root.mkdir(parents=True)
    (root / "agent.yml").write_text("agent:\n  name: Library\n  persona: You help readers.\n")
    (root / "memory.yml").write_text("schema:\n  public: {}\n")
    (root / "responses.yml").write_text("responses: {}\n")
    (root / "tools").mkdir()
    (root / "tools" / "library.py").write_text(TOOLS)
    for name, body, memory in [
        ("pause_holds", PAUSE, PAUSE_MEMORY),
        ("opening_hours", HOURS, None),
    ]:
        skill = root / "skills" / name
        skill.mkdir(parents=True)
        (skill / "skill.md").write_text(body)
        if memory:
            (skill / "memory.yml").write_text(memory)
    return load_project(root)


def test_a_detour_cued_on_a_confirmation_pins_no_step(library: Project) -> None:
    behaviors = plan_source(library, "mantle", "pause_holds", None).behaviors
    behavior = next(b for b in behaviors if b.facts.get("kind") == "digression")
    data = draft_mantle(DraftContext(library, "mantle", behavior))
    assert (
        "When the agent asks you to confirm the first time"
        in (data["scenario"]["simulation_context"])
    )
    assertions = data["scenario"]["goals"]["assertions"]
    assert {"skill_interrupted": {"skill_id": "pause_holds"}} in assertions
    (sequence,) = [a["sequencing"] for a in assertions if "sequencing" in a]
    assert sequence[0] == {"skill_interrupted": {"skill_id": "pause_holds"}}
    # the block still completes at its read-back, after the return
    assert {
        "ordered_block_completed": {
            "skill_id": "pause_holds",
            "block_id": "confirm_pause",
            "step_id": "read_back",
        }
    } in sequence[1:]
