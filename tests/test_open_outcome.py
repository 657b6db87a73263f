"""A call the prose makes only on what the user says of a step they tried ("if fix_attempted
is true and it still doesn't work, open a ticket with @tool.create_work_order") is asserted
only where the case's facts give that answer: otherwise a correct agent that hears "it works
now" opens no ticket and the case fails it.

Before: every equipment case asserted `create_work_order` and no simulated user was told
whether the safe first step helped.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from skill_model_fixtures import generate_offline

from agentflows.drafting.offline._mantle_facts import open_outcomes
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus" / "brewline_shifts"


def test_the_users_part_of_a_calls_condition_is_read_from_the_sentence() -> None:
    skill = load_project(CORPUS).mantle.skills["equipment_issue"]
    assert open_outcomes(skill, {}, {"create_work_order"}) == ["it still doesn't work"]
    assert open_outcomes(skill, {}, {"get_work_order"}) == []


def test_a_case_asserting_the_call_tells_the_user_the_step_did_not_help(tmp_path: Path) -> None:
    generate_offline(CORPUS, ["equipment_issue"], tmp_path)
    checked = 0
    for path in sorted((tmp_path / "cases").rglob("*.yml")):
        text = path.read_text()
        if "tool_name: create_work_order" not in text:
            continue
        checked += 1
        context = yaml.safe_load(text)["scenario"]["simulation_context"]
        assert "- whether it still doesn't work: yes" in context, (path.name, context)
    assert checked


def test_the_users_own_answer_is_told_to_them_as_theirs(tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "project"
    shutil.copytree(CORPUS, root)
    path = root / "skills" / "equipment_issue" / "skill.md"
    text = path.read_text().replace("it still doesn't work", "they still want a technician")
    path.write_text(text)
    skill = load_project(root).mantle.skills["equipment_issue"]
    assert open_outcomes(skill, {}, {"create_work_order"}) == ["you still want a technician"]
