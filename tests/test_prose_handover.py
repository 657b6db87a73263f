"""A skill whose job is to hand the conversation to others: "Then invoke `@skill.x`" delegates
and the parent resumes afterwards (Mantle reference §1.6), in the reference agent and in the
planner's walk; "If yes, invoke …" and "offer @skill.x" stay the agent's (or user's) call."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, play_lines, write_project

from evalcore.definitions import load_project
from evalcore.definitions.skill_model.prose_items import classify, hands_over

TOOLS = """\
from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Measure the line's speed.")
async def measure_speed(context: ToolContext = None) -> ToolResult:
    context.memory.set("speed_mbps", 12.5)
    return ToolResult(llm_response={"mbps": 12.5})
"""

FILES = {
    "agent.yml": "name: Northwind broadband\npersona: You help customers with their line.\n",
    "integrations.yml": INTEGRATIONS,
    "skills/slow_line/skill.md": """\
---
name: Fix a slow line
description: Customers whose internet is slow or keeps dropping.
---

Say you will look into it. Then invoke `@skill.speed_check` so a real measurement runs.

Tell the customer what the measurement showed. If they want a person, invoke
`@skill.escalate`.
""",
    "skills/speed_check/skill.md": """\
---
name: Speed check
description: Measure the speed of the customer's line.
hidden: true
import_tools:
  - measure_speed
---

Call `@tool.measure_speed` and keep the result.
""",
    "skills/speed_check/memory.yml": (
        "schema:\n  public:\n    speed_mbps:\n      type: float\n"
        "      description: The measured speed in Mbit/s.\n"
    ),
    "skills/escalate/skill.md": """\
---
name: Human handoff
description: Hand the customer over to a human agent.
hidden: true
---

Tell them a person will call back.
""",
    "tools/line.py": TOOLS,
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("handover") / "p", FILES)


@pytest.mark.parametrize(
    ("sentence", "followed"),
    [
        ("Then invoke `@skill.speed_check` so a real measurement runs.", True),
        ("Hand over to @skill.speed_check.", True),
        ("If they want a person, invoke `@skill.escalate`.", False),
        ("Offer @skill.escalate.", False),
        ("Run @skill.speed_check first if the line is down.", False),
        ("You may invoke @skill.speed_check.", False),
    ],
)
def test_which_mentions_hand_over(root: Path, sentence: str, followed: bool) -> None:
    skill = load_project(root).mantle.skills["slow_line"]
    delegated = [i for i in classify(sentence, None, skill) if i.kind == "delegate"]
    assert delegated and hands_over(delegated[0]) is followed


def test_the_reference_agent_runs_the_skill_it_hands_over_to_and_comes_back(root: Path) -> None:
    events = play_lines(root, ["My internet is really slow today."])
    activated = [e["skill_id"] for e in events if e.get("event") == "skill_activated"]
    assert activated[:2] == ["slow_line", "speed_check"]
    assert "escalate" not in activated  # only if they want a person
    tools = [e.get("tool_name") for e in events if e.get("event") == "tool_executed"]
    assert tools == ["measure_speed"]
    completed = [e["skill_id"] for e in events if e.get("event") == "skill_completed"]
    assert completed == ["speed_check", "slow_line"]  # the parent resumes and finishes


def test_the_happy_path_asserts_the_work_of_the_skill_handed_to(root: Path, tmp_path: Path) -> None:
    report = generate_offline(root, ["slow_line"], tmp_path)
    happy = [c for c in report["cases"] if c["type"] == "happy_path"]
    assert len(happy) == 1 and happy[0]["verified"] in ("yes", "weak"), report["dropped"]
    goals = yaml.safe_load(Path(happy[0]["path"]).read_text(encoding="utf-8"))["scenario"]
    text = yaml.safe_dump(goals["goals"]["assertions"])
    assert "speed_check" in text or "measure_speed" in text


def test_a_question_the_prose_forbids_is_no_question(root: Path) -> None:
    """ "Never ask whether they want to keep going" is a prohibition: the walk does not wait
    for its answer, so the simulated user is not handed one as a fact."""
    skill = load_project(root).mantle.skills["slow_line"]
    never = "Do not wait for more input, and never ask whether they want to keep going."
    assert not [i for i in classify(never, None, skill) if i.kind == "question"]
    asked = [i for i in classify("Ask whether the router lights are on.", None, skill)]
    assert [i.kind for i in asked] == ["question"]
