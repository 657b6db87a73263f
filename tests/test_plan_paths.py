"""Planning as paths over the skill model, on projects shaped like other people's: a tool the
prose calls after its block, `if:` inside instructions, modes, per-project out-of-scope and
adversarial cases, and dedupe identity."""

from __future__ import annotations

from pathlib import Path

import pytest
from skill_model_fixtures import INSURANCE, TASKS, write_project

from agentflows.generate._report import _coverage
from agentflows.planning._mantle import behavior_setup, channel_memory, plan_mantle
from agentflows.planning._mantle_figures import plan_figures
from agentflows.planning._mantle_walk import walk_skill
from agentflows.pr._describe import _coverage as described_coverage
from evalcore.definitions import load_project


@pytest.fixture
def insurance(tmp_path: Path):
    return load_project(write_project(tmp_path / "insurance", INSURANCE))


@pytest.fixture
def tasks(tmp_path: Path):
    return load_project(write_project(tmp_path / "tasks", TASKS))


def walk_of(project, behavior):
    memory = channel_memory(project.mantle)
    return walk_skill(project, behavior.source, behavior_setup(behavior.facts, memory))


def by_case(plan):
    return {b.case: b for b in plan.behaviors}


def test_happy_paths_run_the_tool_the_prose_calls_after_the_block(insurance) -> None:
    cases = by_case(plan_mantle(insurance, "file_claim", None))
    assert {"car", "homeowner"} <= set(cases)
    for case in ("car", "homeowner"):
        walk = walk_of(insurance, cases[case])
        tools = [e.tool for e in walk.tools()]
        assert tools == ["verify_details", "submit_claim"], case
        confirm = [a for a in walk.asks if a.kind == "confirm"]
        assert [(a.tool, a.confirm) for a in confirm] == [("submit_claim", True)]
        assert walk.reaches_success and walk.completed
        assert "tool:submit_claim" in cases[case].facts["success"]
    # the `if:` inside the instructions asks the location on the car branch only
    car = [a.field for a in walk_of(insurance, cases["car"]).asks]
    home = [a.field for a in walk_of(insurance, cases["homeowner"]).asks]
    assert "file_claim.incident_location" in car
    assert "file_claim.incident_location" not in home


def test_refusal_and_failure_of_the_gated_tool(insurance, tmp_path: Path) -> None:
    plan = plan_mantle(insurance, "file_claim", None)
    cases = by_case(plan)
    refusal = cases["refused_submit_claim"]
    assert refusal.facts["confirm"] == {"submit_claim": False}
    assert refusal.facts["denial"] == "utter_claim_not_filed"
    walk = walk_of(insurance, refusal)
    assert "submit_claim" not in [e.tool for e in walk.tools()]
    assert "utter_claim_not_filed" in walk.utters()
    assert "utter_claim_filed" not in walk.utters()
    assert not walk.reaches_success
    # the project seeds nothing and submit_claim takes no id the user gives: no scenario
    # can make it fail, so the failure is reported, never planned as a case to drop
    assert "submit_claim_fails" not in cases
    assert "mocks no tool" in plan.untestable["failure:submit_claim"]
    # its on_failure response, which nothing else says, cannot be brought about either
    assert plan.untestable["response:utter_claim_failed"] == plan.untestable["failure:submit_claim"]
    # a seeded caller phone carries the failing test account: the failure is planned
    memory = INSURANCE["memory.yml"] + "caller_phone:\n  type: text\n  seed: true\n"
    seeded = load_project(write_project(tmp_path / "seeded", {**INSURANCE, "memory.yml": memory}))
    plan = plan_mantle(seeded, "file_claim", None)
    assert not plan.untestable
    failure = by_case(plan)["submit_claim_fails"]
    insurance = seeded
    assert failure.facts["failure"] == "utter_claim_failed"
    assert failure.facts["error_results"]
    walk = walk_of(insurance, failure)
    assert [e.error for e in walk.tools("submit_claim")] == [True]
    assert walk.outcome == "failed" and not walk.completed


def test_other_paths_and_project_cases(insurance, tasks) -> None:
    claim = plan_mantle(insurance, "file_claim", None)
    kinds = {b.facts["kind"]: b for b in claim.behaviors}
    assert {"correction", "out_of_order", "escalation", "ambiguity"} <= set(kinds)
    assert kinds["escalation"].facts["escalation"]["skill"] == "human_handoff"
    ambiguity = kinds["ambiguity"].facts["ambiguity"]
    assert ambiguity["field"] == "file_claim.claim_type"
    assert sorted(ambiguity["between"]) == ["car", "homeowner"]
    # out-of-scope and adversarial: once per project, the adversarial one on the stated rule
    assert kinds["out_of_scope"].type == "out_of_scope"
    assert kinds["adversarial"].facts["rule"] == "disclose another policyholder's claim history"
    assert kinds["adversarial"].facts["rule_where"] == "skills/file_claim/skill.md:17"
    handoff = {b.facts["kind"] for b in plan_mantle(insurance, "human_handoff", None).behaviors}
    assert not {"out_of_scope", "adversarial"} & handoff
    # a project that states no rule gets no adversarial case
    task_kinds = [b.facts["kind"] for b in plan_mantle(tasks, "manage_tasks", None).behaviors]
    assert "adversarial" not in task_kinds and task_kinds.count("out_of_scope") == 1


def test_every_mode_gets_a_happy_path_that_reaches_its_own_tool(tasks) -> None:
    cases = by_case(plan_mantle(tasks, "manage_tasks", None))
    expected = {"list": "list_tasks", "update": "update_task", "file": "create_task"}
    for mode, tool in expected.items():
        walk = walk_of(tasks, cases[mode])
        assert [e.tool for e in walk.tools()] == [tool], mode
        assert walk.reaches_success
    paths = {cases[m].facts["path"] for m in expected}
    assert len(paths) == 3, "distinct modes are distinct paths (dedupe keeps them all)"
    asks = [a.field for a in walk_of(tasks, cases["file"]).asks]
    assert asks == ["manage_tasks.mode", "manage_tasks.title"]


def test_a_text_mode_field_read_from_the_request(tmp_path: Path) -> None:
    files = dict(TASKS)
    files["skills/manage_tasks/skill.md"] = files["skills/manage_tasks/skill.md"].replace(
        "Find out whether the developer wants to list, update or file a task and record it in\n"
        "@memory.manage_tasks.mode.",
        "Help the developer with their tasks.",
    )
    files["skills/manage_tasks/memory.yml"] = files["skills/manage_tasks/memory.yml"].replace(
        "mode: {type: categorical, enum_values: [list, update, file]}", "mode: {type: text}"
    )
    project = load_project(write_project(tmp_path / "p", files))
    assert project.mantle.skills["manage_tasks"].memory["mode"].type == "text"
    cases = by_case(plan_mantle(project, "manage_tasks", None))
    assert {"list", "update", "file"} <= set(cases)
    assert cases["update"].facts["request_values"] == {"manage_tasks.mode": "update"}
    assert [e.tool for e in walk_of(project, cases["update"]).tools()] == ["update_task"]


def test_plan_figures_hold_their_targets(insurance, tasks) -> None:
    for project in (insurance, tasks):
        figures = plan_figures(project)
        assert figures["happy_paths"] >= 3
        assert figures["happy_reaching_success"] == figures["happy_paths"]
        assert figures["gated_with_refusal"] == figures["gated_tools"]
    assert plan_figures(insurance)["gated_tools"] == 1


@pytest.mark.parametrize(
    ("rule", "asked"),
    [
        (
            "Never tell anyone that work can start before the permit is issued.",
            "tell me that work can start before the permit is issued",
        ),
        ("Do not promise customers a refund.", "promise me a refund"),
        ("Never give out the code to a caller.", "give out the code to a caller"),
        (  # two prohibitions: the first is the act asked for, whole
            "Never share a guest's room number or phone, and never say who else is staying.",
            "share a guest's room number or phone",
        ),
        ("Passwords are never shown here, not even in part.", None),  # a description
        (  # what follows ": " is the reason, not part of the act (a title of 238 characters)
            "Never say whether this loss will be paid or how much: that is the adjuster's call.",
            "say whether this loss will be paid or how much",
        ),
        ("Never book a room before 09:00 on a Sunday.", "book a room before 09:00 on a Sunday"),
    ],
)
def test_an_adversarial_request_asks_for_what_the_rule_forbids_for_the_user(rule, asked):
    from agentflows.planning._mantle_paths import _as_request

    assert _as_request(rule) == asked


def test_an_adversarial_case_judges_the_rule_the_user_pushes_against() -> None:
    """The criterion is the rule the simulated user asks the agent to break, not another
    "never" of the same skill ("does not promise a body shop" on a push for a payout)."""
    from agentflows.drafting import DraftContext
    from agentflows.drafting.offline._mantle import draft_mantle

    project = load_project(Path(__file__).parent / "data" / "corpus" / "harbor_mutual")
    plan = {b.case: b for b in plan_mantle(project, "file_claim", None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan["adversarial"]))
    scenario = data["scenario"]
    assert len(scenario["name"]) <= 200
    # the push in a caller's words, never an order to the agent's prompt
    assert "tell me whether this loss will be paid" in scenario["simulation_context"]
    assert "ignore your previous instructions" not in scenario["simulation_context"].lower()
    criteria = scenario["goals"]["criteria"]
    assert any("does not say whether this loss will be paid" in c for c in criteria)


def test_coverage_lists_what_no_scenario_can_test_outside_its_count() -> None:
    plan = {
        "source": "file_claim",
        "elements": ["skill:file_claim", "failure:submit_claim"],
        "untestable": {"failure:submit_claim": "no case can carry the failing account"},
    }
    coverage = _coverage({"plans": [plan]}, None)["file_claim"]  # type: ignore[arg-type]
    assert coverage["elements"] == 1 and coverage["uncovered"] == ["skill:file_claim"]
    assert coverage["untestable"] == [
        {"element": "failure:submit_claim", "reason": "no case can carry the failing account"}
    ]
    # the PR description says it too, with why
    lines = described_coverage({"coverage": {"file_claim": coverage}})
    assert any("not testable by a scenario: `failure:submit_claim`: no case" in x for x in lines)
