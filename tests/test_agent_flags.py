"""Flags the prose has the agent set on its own doing ("Set paged once the page goes out.",
"…; set balance_told."): not questions for the user. The skill model reads them as the
agent's records, the planner's walk and the reference agent set them where the prose says,
so the drafted case asks nothing for them, its persona holds no fact for them, it asserts
the flag, and it passes the reference agent. A flag set when the user agrees, or one a path
forks on, is still asked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from skill_model_fixtures import INTEGRATIONS, generate_offline, play_lines, write_project

from agentflows.planning._mantle_walk import Setup, walk_skill
from evalcore.agents.reference import mutants
from evalcore.definitions import load_project
from evalcore.definitions.skill_model import skill_model

PAGER = """\
---
name: Vet on call
description: Paging the vet on call for an animal that cannot wait.
tool_constraints:
  - page_vet:
      on_success: utter_vet_paged
complete_when:
  condition: session.pager.paged
---

Ask in a few words what is wrong (set reason), then page the vet with @tool.page_vet.
Set paged once the page goes out.

Ask whether they want a text when the vet is on the way, and set wants_text when they
agree.

if: session.pager.urgent
Tell them to keep the animal warm. Set urgent_told.
"""

TOOLS = '''\
from rasa.mantle.tools.decorator import ToolContext, tool


@tool(description="Page the vet on call.")
async def page_vet(reason: str, context: ToolContext = None):
    """Send the page."""
    return {"sent": True}
'''

MEMORY = """\
schema:
  public:
    reason: {type: text, description: What is wrong, in a few words., llm_settable: true}
    paged: {type: bool, description: True once the vet was paged., llm_settable: true}
    wants_text: {type: bool, description: Whether they want a text., llm_settable: true}
    urgent: {type: bool, description: Whether it cannot wait., llm_settable: true}
    urgent_told: {type: bool, description: Whether they were told., llm_settable: true}
"""

FILES = {
    "agent.yml": "name: Vets\npersona: You answer the phone for a vet practice.\n",
    "integrations.yml": INTEGRATIONS,
    "memory.yml": "caller_phone:\n  type: text\n  seed: true\n",
    "responses.yml": (
        "responses:\n  utter_vet_paged:\n    - text: I've paged the vet.\n"
        "  utter_anything_else:\n    - text: Anything else?\n"
    ),
    "skills/pager/skill.md": PAGER,
    "skills/pager/tools.py": TOOLS,
    "skills/pager/memory.yml": MEMORY,
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_project(tmp_path_factory.mktemp("pager"), FILES)


def test_a_flag_the_agent_sets_on_its_own_doing_is_its_record_not_a_question(root) -> None:
    model = skill_model(load_project(root), "pager")
    assert [(r.qualified, r.sentence, r.condition) for r in model.records] == [
        ("pager.paged", "Set paged once the page goes out.", None),
        ("pager.urgent_told", "Set urgent_told.", "session.pager.urgent"),
    ]
    asked = {f.qualified for f in model.fields}
    assert "pager.paged" not in asked
    assert "pager.reason" in asked
    assert "pager.wants_text" in asked  # set when the user agrees: their answer
    assert "pager.urgent_told" not in asked  # set on its own doing, under its `if:`
    assert "pager.urgent" not in {r.qualified for r in model.records}  # read, not set


def test_a_flag_a_path_forks_on_stays_a_question(tmp_path: Path) -> None:
    files = dict(FILES)
    files["skills/pager/skill.md"] = PAGER.replace(
        "complete_when:",
        "utter:\n  - utter_vet_paged:\n      when: not session.pager.paged\ncomplete_when:",
    )
    model = skill_model(load_project(write_project(tmp_path / "p", files)), "pager")
    assert "pager.paged" in {f.qualified for f in model.fields}
    assert "pager.paged" not in {r.qualified for r in model.records}


@pytest.mark.parametrize(
    ("sentence", "recorded"),
    [
        # the sentence's only ask is answered by another field (set reason)
        (
            "Ask what is wrong, in a few words (set reason), then page the vet with "
            "@tool.page_vet and set paged once the page goes out.",
            True,
        ),
        # the ask is the flag's own: the user's yes is what sets it
        ("Ask whether the vet may call back, then set paged.", False),
    ],
)
def test_an_ask_another_field_answers_leaves_the_flag_the_agents(
    tmp_path: Path, sentence: str, recorded: bool
) -> None:
    files = dict(FILES)
    files["skills/pager/skill.md"] = PAGER.replace(
        "Ask in a few words what is wrong (set reason), then page the vet with @tool.page_vet.\n"
        "Set paged once the page goes out.",
        sentence,
    )
    assert sentence in files["skills/pager/skill.md"]
    model = skill_model(load_project(write_project(tmp_path / "p", files)), "pager")
    assert ("pager.paged" in {r.qualified for r in model.records}) is recorded
    assert ("pager.paged" in {f.qualified for f in model.fields}) is not recorded


def test_the_walk_and_the_reference_agent_set_it_after_the_tool(root) -> None:
    project = load_project(root)
    walk = walk_skill(project, "pager", Setup())
    assert walk.completed and walk.memory["pager.paged"] is True
    assert "pager.paged" not in {a.field for a in walk.asks}
    events = play_lines(root, ["I need the vet on call.", "She ate chocolate.", "No."])
    order = [
        e.get("tool_name") or e.get("key") or e.get("skill_id")
        for e in events
        if e["event"] in ("tool_executed", "memory_set", "skill_completed")
    ]
    assert order.index("page_vet") < order.index("pager.paged") < order.index("pager")
    said = " ".join(str(e.get("text")) for e in events if e["event"] == "bot").lower()
    assert "paged?" not in said and "the paged" not in said
    assert any(m.id == "forget_memory:pager.paged" for m in mutants(project))


@pytest.fixture(scope="module")
def generated(root: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("out")
    return generate_offline(root, ["pager"], out)


def test_the_happy_path_asserts_the_flag_without_a_fact_for_it_and_verifies(generated) -> None:
    happy = [r for r in generated["cases"] if r["type"] == "happy_path"]
    assert happy and all(r["verified"] == "yes" for r in happy)
    for row in happy:
        scenario = yaml.safe_load(Path(row["path"]).read_text("utf-8"))["scenario"]
        assert "paged:" not in scenario["simulation_context"]
        items = [
            i
            for a in scenario["goals"]["assertions"]
            for i in a.get("memory_was_set") or []
            if isinstance(i, dict)
        ]
        assert {"name": "pager.paged", "value": True} in items


TANSY = Path(__file__).parent / "data" / "holdout" / "tansy_vet"


def test_an_aside_naming_a_skill_by_its_whole_name_is_a_digression() -> None:
    # at a free-text question, "Before that, …" and another skill's whole name ("Vet on
    # call", whose words alone score under the bar there): the question waits, that skill
    # runs, as the same words would route an opening message
    lines = ["My dog ate a bar of chocolate.", "poisoning", "Before that, I need the vet on call."]
    events = play_lines(TANSY, lines)
    kinds = [(e["event"], e.get("skill_id")) for e in events if e["event"].startswith("skill_")]
    assert ("skill_interrupted", "emergency_triage") in kinds
    assert kinds[-1] == ("skill_activated", "vet_on_call")
    assert not any(e.get("key") == "emergency_triage.substance" for e in events)
