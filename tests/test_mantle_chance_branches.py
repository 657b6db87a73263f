"""A branch a tool's chance decides (a line test that draws its speed at random): the case
tells the simulated user what to do on every branch, asserts the hand-over the prose gives
unconditionally, and judges what the agent says with a criterion that holds either way."""

from __future__ import annotations

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_chance import chance_keys
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import code_facts
from evalcore.dialects.mantle._justify import judge_case
from evalcore.simulator import parse_fact_context

TOOLS = '''"""Line tools (read with ast, never imported)."""

import random

from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Measure the line speed in Mbps.")
async def measure_line(context: ToolContext = None) -> dict:
    speed = float(random.randint(5, 100))
    context.memory.set("line_speed", speed)
    context.memory.set("line_is_slow", speed < 30)
    return {"speed": speed}


@tool(description="Look up the customer's plan.")
async def load_plan(context: ToolContext = None) -> dict:
    context.memory.set("plan_loaded", True)
    return {"plan": "basic"}


@tool(description="Swap the customer's modem for a new one.")
async def swap_modem(modem_id: str, context: ToolContext = None) -> dict:
    context.memory.set("modem_swapped", True)
    return {"ok": True}
'''
CHECK = """---
name: check_line
description: Measure the customer's line speed and report it. Activate for a line test.
import_tools:
  - measure_line
---

Measure the line. Call `@tool.measure_line`. Never invent speeds.
"""
CHECK_MEMORY = """schema:
  public:
    line_speed:
      type: float
    line_is_slow:
      type: bool
"""
FIX = """---
name: fix_line
description: Help customers fix a slow line. Activate for slow internet or a slow line.
---

Help the customer fix a slow line.

Acknowledge the problem. Then invoke `@skill.check_line` so a real test runs.

if: session.check_line.line_is_slow == True
Say the line is too slow. Explain that a new modem usually helps. Invoke `@skill.swap`.

if: session.check_line.line_is_slow == False
Say the line looks fine. Ask if they still need more help.
"""
SWAP = """---
name: swap
description: Swap a customer's modem for a new one.
import_tools:
  - swap_modem
tool_constraints:
  - swap_modem:
      requires_confirmation:
        enabled: true
        utter_for_confirmation: utter_confirm_swap
        utter_on_user_denial: utter_swap_cancelled
---

Ask which modem to swap and set `modem_id`. Call swap_modem with it.
"""
SWAP_MEMORY = """schema:
  public:
    modem_id:
      type: text
      description: The modem to swap.
    modem_swapped:
      type: bool
"""
RESPONSES = """responses:
  utter_confirm_swap:
    - text: Shall I swap modem {modem_id} now?
  utter_swap_cancelled:
    - text: Okay, I won't swap it.
"""


@pytest.fixture(scope="module")
def line(tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("line")
    (root / "agent.yml").write_text("agent:\n  name: Line helper\n  persona: You fix lines.\n")
    (root / "memory.yml").write_text("schema:\n  public: {}\n")
    (root / "responses.yml").write_text(RESPONSES)
    (root / "tools").mkdir()
    (root / "tools" / "line.py").write_text(TOOLS)
    for name, body, memory in [
        ("check_line", CHECK, CHECK_MEMORY),
        ("fix_line", FIX, None),
        ("swap", SWAP, SWAP_MEMORY),
    ]:
        skill = root / "skills" / name
        skill.mkdir(parents=True)
        (skill / "skill.md").write_text(body)
        if memory:
            (skill / "memory.yml").write_text(memory)
    return load_project(root)


def _case(project, skill: str, case: str = "happy") -> dict:
    behaviors = {b.case: b for b in plan_source(project, "mantle", skill, None).behaviors}
    return draft_mantle(DraftContext(project, "mantle", behaviors[case]))


def test_a_tool_that_draws_at_random_is_known_from_its_code(line) -> None:
    tools = line.mantle.shared_tools
    assert code_facts(line, tools["measure_line"]).chance
    assert not code_facts(line, tools["load_plan"]).chance
    assert "check_line.line_is_slow" in chance_keys(line, "fix_line")


def test_a_rule_on_a_branch_chance_decides_comes_paired_with_the_other(line) -> None:
    """ "When the line is slow, say it is too slow" passes without testing anything where the
    test comes back fine: the criterion says what to say on both branches."""
    criteria = _case(line, "fix_line")["scenario"]["goals"].get("criteria") or []
    assert (
        "When the line is slow, the agent says the line is too slow, otherwise (when the line "
        "is not slow) it says the line looks fine" in criteria
    )
    assert not any(c.startswith("When the line is slow, the agent explains") for c in criteria)


def test_the_user_knows_what_to_do_on_every_branch(line) -> None:
    context = _case(line, "fix_line")["scenario"]["simulation_context"]
    assert "is up to chance" in context
    # the branch the walk did not take asks whether they need more help: they say no
    assert "- whether you still need more help: no" in context
    # the slow branch hands over to a skill that asks which modem and to confirm
    assert "- which modem to swap:" in context
    assert "When the agent asks whether to swap the modem" in context
    # the note survives a context read back and written again (a model's rewrite)
    assert "is up to chance" in parse_fact_context(context).render()


def test_nothing_of_a_skill_reached_only_on_a_drawn_branch_is_asserted(line) -> None:
    """The walk happened to draw a slow line and swap the modem; a run that draws a fine
    line never gets there, so neither the swap nor its confirmation is asserted."""
    data = _case(line, "fix_line")
    text = str(data["scenario"]["goals"]["assertions"])
    assert "swap" not in text


def test_a_hand_over_the_prose_gives_unconditionally_is_asserted_and_cited(line) -> None:
    data = _case(line, "fix_line")
    assertions = data["scenario"]["goals"]["assertions"]
    assert {"skill_activated": {"skill_id": "check_line"}} in assertions
    at = assertions.index({"skill_activated": {"skill_id": "check_line"}})
    judged = {j.path: j for j in judge_case(data, line)}
    cited = judged[f"/scenario/goals/assertions/{at}"].justification
    assert cited is not None and cited.kind == "instructed"
    assert cited.file == "skills/fix_line/skill.md" and cited.line == 8


UPGRADE = """---
name: fix_line
description: Help customers fix a slow line. Activate for slow internet or a slow line.
---

Help the customer fix a slow line.

Acknowledge the problem. Then invoke `@skill.check_line` so a real test runs.

if: session.check_line.line_is_slow == True
Say the line is too slow right now. Ask if they still need more help.

if: session.check_line.line_is_slow == False
Say the line itself is fine, so the old modem is the likely cause. Invoke `@skill.swap`.
"""


@pytest.fixture(scope="module")
def upgrade(tmp_path_factory: pytest.TempPathFactory, line):
    """The same project with the swap on the branch the walk does not draw."""
    root = tmp_path_factory.mktemp("upgrade")
    for path in line.root.rglob("*"):
        if path.is_file():
            target = root / path.relative_to(line.root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(path.read_text())
    (root / "skills" / "fix_line" / "skill.md").write_text(UPGRADE)
    return load_project(root)


def test_a_happy_path_takes_the_action_a_drawn_branch_leads_to(line, upgrade) -> None:
    """Where a branch chance decides leads to an action the user is asked to confirm, the
    goal lies past it: the happy path's user agrees (a decline leaves the task unfinished
    on that branch and belongs to a case of its own), whichever branch the walk drew."""
    for project in (line, upgrade):
        for behavior in plan_source(project, "mantle", "fix_line", None).behaviors:
            if behavior.type != "happy_path":
                continue
            data = draft_mantle(DraftContext(project, "mantle", behavior))
            lines = data["scenario"]["simulation_context"].splitlines()
            gate = [s for s in lines if s.startswith("When the agent asks whether to swap")]
            assert gate and gate[0].endswith(", agree."), (behavior.case, gate)
