"""Criteria the definitions back, in the case's own conversation: a read-back only where a
gate or a read-back ask has one, and after a declined gate, what the denial response cannot
contradict (the gated act never claimed, named by that gate's own denial response), with
no "does not push" that nothing in Mantle defines."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_criteria import prose_rules
from agentflows.drafting.offline._mantle_goal_pieces import GoalPieces
from agentflows.planning import plan_source
from evalcore.definitions import Project, load_project
from evalcore.dialects.mantle._justify import judge_case

CORPUS = Path(__file__).parent / "data" / "corpus"


@cache
def _project(name: str) -> Project:
    return load_project(CORPUS / name)


def _draft(project: str, skill: str, behavior_id: str) -> dict[str, Any]:
    loaded = _project(project)
    behaviors = plan_source(loaded, "mantle", skill, None).behaviors
    behavior = next(b for b in behaviors if b.id == behavior_id)
    return draft_mantle(DraftContext(loaded, "mantle", behavior))


def _criteria(data: dict[str, Any]) -> list[str]:
    return list(data["scenario"]["goals"].get("criteria") or [])


def test_a_yes_that_states_a_fact_is_no_read_back_before_the_action() -> None:
    """`requires: items_pulled` waits for "have you pulled the items?": a fact, not a
    read-back, and the tool has no confirmation gate, so a correct agent logs at once."""
    food = _criteria(_draft("brewline_shifts", "food_safety_hold", "food_safety_hold:happy"))
    assert not [c for c in food if "back for the" in c], food
    # a gated tool still gets it: the runtime reads the request back before it runs
    swap = _criteria(_draft("brewline_shifts", "shift_swap", "shift_swap:swap"))
    assert [c for c in swap if "back for the" in c], swap


def test_after_a_decline_the_criterion_names_the_gated_act_not_the_request() -> None:
    """The count is recorded before the order's gate, and the denial response says so: the
    criterion is about the order, and no "does not push" comes with it."""
    data = _draft(
        "brewline_shifts", "inventory_count", "inventory_count:refused_submit_restock_order"
    )
    criteria = _criteria(data)
    said = [c for c in criteria if "declines, the agent does not say" in c]
    assert said == [
        "After the user declines, the agent does not say it went on to submit the restock order"
    ], criteria
    assert not [c for c in criteria if "is done" in c or "push" in c], criteria
    judged = {j.path: j for j in judge_case(data, _project("brewline_shifts"))}
    index = criteria.index(said[0])
    found = judged[f"/scenario/goals/criteria/{index}"].justification
    assert found is not None and "submit_restock_order utter_on_user_denial" in found.element


def test_of_gates_sharing_a_denial_response_the_criterion_is_backed_by_the_one_it_names() -> None:
    """file_missing_bag_report and file_damage_report share their denial response: the
    criterion about the damage report is backed by the damage report's gate."""
    data = _draft("skyway_air", "baggage", "baggage:refused_file_damage_report")
    criteria = _criteria(data)
    index = next(i for i, c in enumerate(criteria) if "declines, the agent does not say" in c)
    judged = {j.path: j for j in judge_case(data, _project("skyway_air"))}
    found = judged[f"/scenario/goals/criteria/{index}"].justification
    assert found is not None and found.element.startswith("file_damage_report "), found


def test_a_hand_off_by_a_link_step_asks_no_explanation_of_the_agent() -> None:
    """`link: safety_officer` hands over at the runtime's word, saying nothing: no line tells
    the agent to explain why, so no criterion asks it to."""
    data = _draft("tidewater_core", "sample_drop_off", "sample_drop_off:hazard_radioactive")
    criteria = _criteria(data)
    assert {"skill_activated": {"skill_id": "safety_officer"}} in data["scenario"]["goals"][
        "assertions"
    ]
    assert not [c for c in criteria if "handing over" in c], criteria


def test_a_paragraph_about_other_values_of_a_field_gives_no_rule() -> None:
    """ "db:write and k8s:exec on a tier-1 service need a second approver; say …": a rule on a
    db:write path, none on a logs:read one (the scopes the field's description lists); a
    format's examples ("Tags look like `v2.41.0`") are no such list and keep their rule."""
    defs = _project("forge_platform").mantle
    assert defs is not None
    skill = defs.skills["access_request"]

    def approver(scopes: list[str]) -> list[str]:
        memory = {"access_request.scopes": scopes, "access_request.service": "ledger-worker"}
        return [r.text for r in prose_rules(defs, skill, memory) if "leads" in r.text]

    assert approver(["db:write"]), "the paragraph's own values keep its rule"
    assert approver(["logs:read"]) == []
    deploy = defs.skills["deployments"]
    memory = {"deployments.mode": "deploy", "deployments.target_version": "v5.2.3"}
    assert [r for r in prose_rules(defs, deploy, memory) if "branch name" in r.text]


def test_an_ambiguity_case_does_not_count_its_clarifying_question_as_asking_again() -> None:
    """The case is about asking which severity an answer that fits sev1 and sev2 means: its
    "does not ask again" says that question does not count, so the two never conflict."""
    criteria = _criteria(_draft("forge_platform", "incidents", "incidents:unclear_answer"))
    assert any("has not stated or confirmed" in c for c in criteria), criteria
    again = [c for c in criteria if "does not ask again" in c]
    assert all("asking which one they mean" in c and "severity" not in c for c in again), again


def test_a_clause_keeps_the_condition_of_the_clause_it_is_joined_to() -> None:
    """ "Check trace_bag first; if the bag is already on its way, say so and offer delivery":
    the offer holds only when the bag is on its way, never on the branch alone."""
    defs = _project("skyway_air").mantle
    assert defs is not None
    memory = {
        "baggage.mode": "report_missing",
        "baggage.delivery_address": "12 Elm St",
        "baggage.bag_description": "black suitcase",
    }
    rules = [r.text for r in prose_rules(defs, defs.skills["baggage"], memory)]
    offers = [r for r in rules if r.endswith("offers delivery")]
    assert offers == [
        "When the mode is report missing, if the bag is already on its way, the agent offers "
        "delivery"
    ], rules


def test_a_rule_with_a_situation_of_its_own_under_an_if_is_not_picked_for_a_path() -> None:
    """ "If there is an open report, give its reference" under `if: mode == "track"`: the
    path fixes the mode, not whether a report is open, so the criterion would be vacuous
    or a guess; the branch's unconditional rule is picked instead."""
    criteria = _criteria(_draft("skyway_air", "baggage", "baggage:track"))
    assert not [c for c in criteria if "open report" in c], criteria
    assert [c for c in criteria if "last scan" in c], criteria


def test_a_value_already_inside_another_answer_is_not_in_does_not_ask_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The symptom says "showing E21" and the details step still asks for an error code: a
    correct agent following the step asks for it, so the criterion names only the details
    nothing asks for twice."""
    # as where a block's `collect` steps wait for every detail (here each step asks its own,
    # which gets no "does not ask again" at all: `test_only_what_definitions_fix`)
    monkeypatch.setattr(
        GoalPieces, "collected_answers", lambda self, walk: {a.field for a in walk.asks}
    )
    data = _draft("brewline_shifts", "equipment_issue", "equipment_issue:espresso_machine")
    context = data["scenario"]["simulation_context"]
    assert "E21" in context.split("- error code:")[0], context  # in the symptom already
    again = [c for c in _criteria(data) if "does not ask again" in c]
    assert len(again) == 1 and "the symptom" in again[0], again
    assert "error code" not in again[0]
