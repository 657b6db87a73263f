"""`casegen mutate` and what a service outside the agent answers.

A case asserts an outside call and the arguments the agent gives it, never the answer
(`_mantle_answers`): no `is_error: false` on it, no `on_success` reply, no memory written
from the answer. A mutant whose only marks are those (the reply dropped, the failure
carried on past, the answered key forgotten) is one no justified assertion can kill: it is
listed apart as `outside` (not in the score, in the raw figures). A mutant a case kills, or
one that leaves any mark a case may assert, stays in the score.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INTEGRATIONS, write_project
from test_outside_results import MEMORY, RESPONSES, SKILL, TOOLS, _project

from agentflows.drafting.offline import answer_marks
from evalcore.definitions import load_project

#: The order_parts happy path as the drafter writes it: the shop's answer is not asserted.
HAPPY = """\
scenario:
  name: Filter ordered
  type: happy_path
  simulation_context: >-
    You need a new water filter. Follow these steps: 1. Say: "I need a new filter for my
    coffee machine" 2. When asked for the part number, say: "FLT-2041"
  goals:
    criteria:
      - If submit_order succeeds, the agent tells the customer it went through
    assertions:
      - skill_activated:
          skill_id: order_parts
      - tool_executed:
          tool_name: check_part
          source: local
          arguments:
            part_number: FLT-2041
          is_error: false
      - memory_was_set:
          - name: order_parts.part_checked
            value: true
      - tool_executed:
          tool_name: submit_order
          source: local
          arguments:
            part_number: FLT-2041
"""


def _suite(tmp_path: Path, happy: str = HAPPY) -> tuple[Path, Path]:
    project = _project(tmp_path)
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "happy.yml").write_text(happy)
    return project.root, cases


@pytest.fixture
def report(tmp_path: Path, run_cli_json) -> dict:
    root, cases = _suite(tmp_path)
    code, data = run_cli_json("mutate", cases, "--project", root)
    assert code == 0 and data["reference"] == {"happy": "passed"}
    return data


def test_mutants_only_the_service_answer_marks_are_listed_apart(report: dict) -> None:
    outside = {m["id"]: m for m in report["outside"]}
    assert {
        "drop_on_success:submit_order",
        "fail_silently:submit_order",
        "forget_memory:order_parts.order_number",
    } <= set(outside)
    assert "outside service answers" in outside["fail_silently:submit_order"]["reason"]
    # not in the score: neither played as applying nor a survivor
    assert not set(outside) & set(report["matrix"])
    assert not set(outside) & {s["id"] for s in report["survivors"]}
    raw = report["raw"]
    assert raw["mutants"] == report["mutants"] + len(report["equivalent"]) + len(outside)


def test_the_project_own_code_stays_in_the_score(report: dict) -> None:
    # check_part runs on the project's data: its failure is the case's to catch
    assert report["matrix"]["fail_silently:check_part"] == ["happy"]
    assert "fail_silently:check_part" not in {m["id"] for m in report["outside"]}


def test_a_mutant_a_case_kills_applies(tmp_path: Path, run_cli_json) -> None:
    # a case that asserts the reply (unjustified, but it does kill) keeps the mutant in
    happy = HAPPY + "      - bot_uttered:\n          utter_name: utter_order_placed\n"
    root, cases = _suite(tmp_path, happy)
    code, data = run_cli_json("mutate", cases, "--project", root)
    assert code == 0
    assert data["matrix"]["drop_on_success:submit_order"] == ["happy"]
    assert "drop_on_success:submit_order" not in {m["id"] for m in data["outside"]}


def test_a_mark_a_case_may_assert_is_kept(tmp_path: Path) -> None:
    project = _project(tmp_path)
    called = {"event": "tool_executed", "tool_name": "check_part", "is_error": False}
    shop = {"event": "tool_executed", "tool_name": "submit_order", "is_error": False}
    reply = {"event": "bot", "metadata": {"utter_action": "utter_order_placed"}}
    answered = {"event": "memory_set", "key": "order_parts.order_number", "value": "O-1"}
    checked = {"event": "memory_set", "key": "order_parts.part_checked", "value": True}
    started = {"event": "skill_activated", "skill_id": "order_parts"}
    reference = [started, called, checked, shop, answered, reply]
    marks = answer_marks(project, reference)
    assert marks(reference) == [started, called, checked, {**shop, "is_error": None}]
    # the mutant's failed call reads as the call; a local failure does not
    assert marks([{**shop, "is_error": True}]) == [{**shop, "is_error": None}]
    assert marks([{**called, "is_error": True}]) == [{**called, "is_error": True}]
    # where the case plays the shop's failure, its error run is the case's to assert
    failed = [started, called, checked, {**shop, "is_error": True}]
    assert answer_marks(project, failed)(failed) == failed


def test_what_follows_a_completion_on_an_answered_key_rests_on_the_answer(
    tmp_path: Path,
) -> None:
    # the skill is done once the shop returned an order number: the runtime's "anything
    # else?" after it follows only that answer, like the completion itself
    skill = SKILL.replace(
        "tool_constraints:",
        "complete_when:\n  condition: session.order_parts.order_number\ntool_constraints:",
    )
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_parts/skill.md": skill,
        "skills/order_parts/tools.py": TOOLS,
        "skills/order_parts/memory.yml": MEMORY,
    }
    project = load_project(write_project(tmp_path / "parts", files))
    started = {"event": "skill_activated", "skill_id": "order_parts"}
    checked = {"event": "memory_set", "key": "order_parts.part_checked", "value": True}
    shop = {"event": "tool_executed", "tool_name": "submit_order", "is_error": False}
    answered = {"event": "memory_set", "key": "order_parts.order_number", "value": "O-1"}
    done = {"event": "skill_completed", "skill_id": "order_parts"}
    more = {"event": "bot", "metadata": {"utter_action": "utter_anything_else"}}
    reference = [started, checked, shop, answered, done, more]
    assert answer_marks(project, reference)(reference) == [
        started,
        checked,
        {**shop, "is_error": None},
    ]
    # without the answered key's write nothing rests on it: the reply stays
    unanswered = [started, checked, shop, done, more]
    assert more in answer_marks(project, unanswered)(unanswered)


#: submit_order as a block step whose `next` branches on the number the shop returns.
ROUTED = """\

:::ordered_block id=order
steps:
  - id: place
    execute_tool: submit_order
    parameters:
      part_number: session.order_parts.part_number
    next:
      - if: session.order_parts.order_number
        then: placed
      - else: not_placed
  - id: placed
    action: utter_order_placed
    next: END
  - id: not_placed
    action: utter_order_failed
    next: END
  - id: END
:::
"""


def test_the_branch_an_outside_answer_picks_rests_on_that_answer(tmp_path: Path) -> None:
    # the step after submit_order follows the order number the shop returned: the reply of
    # either branch is the answer's, in the correct run and in a mutant's run alike
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_parts/skill.md": SKILL + ROUTED,
        "skills/order_parts/tools.py": TOOLS,
        "skills/order_parts/memory.yml": MEMORY,
    }
    project = load_project(write_project(tmp_path / "parts", files))
    started = {"event": "skill_activated", "skill_id": "order_parts"}
    shop = {"event": "tool_executed", "tool_name": "submit_order", "is_error": False}
    answered = {"event": "memory_set", "key": "order_parts.order_number", "value": "O-1"}
    placed = {"event": "bot", "metadata": {"utter_action": "utter_order_placed"}}
    failed = {"event": "bot", "metadata": {"utter_action": "utter_order_failed"}}
    reference = [started, shop, answered, placed]
    marks = answer_marks(project, reference)
    call = {**shop, "is_error": None}
    assert marks(reference) == [started, call]
    assert marks([started, shop, failed]) == [started, call]


def test_a_wrong_argument_taken_from_an_outside_answer_is_listed_apart(
    tmp_path: Path, run_cli_json
) -> None:
    """A call that runs on what the shop answered (tracking the order number it returned)
    leaves marks on that answer alone: no case asserts it, so its wrong argument is no
    survivor of the suite but one left to the criteria."""
    skill = SKILL.replace(
        "  - submit_order:",
        "  - track_order:\n      requires: session.order_parts.order_number\n  - submit_order:",
    ).replace("order number.\n", "order number. Then call track_order with the order number.\n")
    tools = (
        TOOLS
        + '''

@tool(description="Follow an order's delivery.")
async def track_order(order_number: str, context: ToolContext = None):
    """Track it.

    Args:
        order_number: The order the shop returned.
    """
    return {"tracked": bool(order_number)}
'''
    )
    files = {
        "agent.yml": "name: Parts desk\npersona: You help customers order parts.\n",
        "integrations.yml": INTEGRATIONS,
        "responses.yml": RESPONSES,
        "skills/order_parts/skill.md": skill,
        "skills/order_parts/tools.py": tools,
        "skills/order_parts/memory.yml": MEMORY,
    }
    root = write_project(tmp_path / "parts", files)
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "happy.yml").write_text(HAPPY)
    code, data = run_cli_json("mutate", cases, "--project", root)
    assert code == 0 and data["reference"] == {"happy": "passed"}
    outside = {m["id"] for m in data["outside"]}
    assert "wrong_argument:track_order" in outside
    assert "wrong_argument:track_order" not in {s["id"] for s in data["survivors"]}
