"""The Mantle coverage planner on examples/bank: behaviours, elements, selection, direction."""

from __future__ import annotations

import pytest
from conftest import EXAMPLES

from agentflows.planning import CASE_TYPES, select
from agentflows.planning._mantle import plan_mantle
from agentflows.planning._mantle_vocab import routing_fields, value_groups
from evalcore.definitions import load_project
from evalcore.definitions.conditions import condition_keys, evaluate
from evalcore.errors import UserError

BANK = EXAMPLES / "bank"


@pytest.fixture(scope="module")
def bank():
    return load_project(BANK)


@pytest.fixture(scope="module")
def card_plan(bank):
    return plan_mantle(bank, "card_replace", None)


def by_case(plan):
    return {b.case: b for b in plan.behaviors}


def test_every_behaviour_is_well_formed(bank):
    for skill in bank.mantle.skills:
        plan = plan_mantle(bank, skill, None)
        assert plan.behaviors, skill
        ids = [b.id for b in plan.behaviors]
        assert len(ids) == len(set(ids))
        for behavior in plan.behaviors:
            assert behavior.id == f"{skill}:{behavior.case}"
            assert behavior.type in CASE_TYPES
            assert behavior.title and behavior.description
            assert set(behavior.covers) <= set(plan.elements), behavior.id
            assert behavior.facts["kind"]


def test_card_replace_routing_values_get_one_happy_path_per_branch(bank, card_plan):
    skill = bank.mantle.skills["card_replace"]
    (reason,) = routing_fields(skill)
    assert reason.name == "replacement_reason"
    # lost and not_received take the same branch (and the same prose paragraph)
    assert value_groups(skill, reason) == [["lost", "not_received"], ["stolen"], ["damaged"]]
    happy = [b for b in card_plan.behaviors if b.facts["kind"] == "happy"]
    assert [b.case for b in happy] == ["lost", "stolen", "damaged"]
    assert all(b.type == "happy_path" for b in happy)
    assert happy[0].priority < min(b.priority for b in card_plan.behaviors if b is not happy[0])


def test_steps_behind_a_branch_are_covered_only_by_behaviours_taking_it(card_plan):
    cases = by_case(card_plan)
    fraud = "step:card_replace.pick_card.report_fraud"
    block = "step:card_replace.pick_card.block_old_card"
    assert fraud in cases["stolen"].covers and block in cases["stolen"].covers
    assert fraud not in cases["lost"].covers and block in cases["lost"].covers
    assert fraud not in cases["damaged"].covers and block not in cases["damaged"].covers
    assert "value:card_replace.replacement_reason=damaged" in cases["damaged"].covers
    not_eligible = "step:card_replace.pick_card.not_eligible"
    assert not_eligible in cases["not_eligible"].covers
    assert not any(
        not_eligible in b.covers for b in card_plan.behaviors if b.case != "not_eligible"
    )


def test_refused_confirmation_for_every_gated_tool(card_plan):
    cases = by_case(card_plan)
    for tool, reason in (("place_replacement_order", "lost"), ("order_replacement", "damaged")):
        refusal = cases[f"refused_{tool}"]
        assert refusal.type == "edge_case"
        assert refusal.facts["confirm"] == {tool: False}
        assert refusal.facts["denial"] == "utter_order_not_placed"
        assert refusal.facts["values"]["card_replace.replacement_reason"] == reason
        assert f"deny:{tool}" in refusal.covers
        assert f"confirm:{tool}" not in refusal.covers
        assert f"tool:{tool}" not in refusal.covers  # the tool did not run


def test_tool_failure_where_on_failure_exists(card_plan):
    cases = by_case(card_plan)
    for tool in ("place_replacement_order", "order_replacement"):
        failure = cases[f"{tool}_fails"]
        assert failure.type == "sad_path"
        assert failure.facts["failing"] == [tool]
        assert failure.facts["account"] == "failing"
        assert {f"failure:{tool}", "response:utter_order_failed"} <= set(failure.covers)


def test_escalation_because_a_handoff_skill_exists(bank, card_plan):
    assert bank.mantle.skills["human_handoff"].is_handoff
    escalation = by_case(card_plan)["escalation"]
    assert escalation.type == "escalation"
    assert escalation.facts["escalation"]["skill"] == "human_handoff"
    assert "delegate:card_replace.human_handoff" in escalation.covers


def test_other_behaviour_kinds(card_plan):
    kinds = {b.facts["kind"]: b for b in card_plan.behaviors}
    assert {
        "out_of_order",
        "correction",
        "digression",
        "out_of_scope",
        "adversarial",
        "negative",
    } <= set(kinds)
    # out-of-order covers the value the happy paths leave to their group's representative
    assert kinds["out_of_order"].facts["given"]["card_replace.replacement_reason"] == (
        "not_received"
    )
    assert "value:card_replace.replacement_reason=not_received" in kinds["out_of_order"].covers
    correction = kinds["correction"].facts["correction"]
    assert correction["field"] == "card_replace.shipping_method"
    assert correction["mode"] == "next_turn"
    assert kinds["digression"].facts["digression"]["skill"] == "check_balance"
    assert kinds["adversarial"].facts["rule"] == "read out the internal card id"


def test_elements_grammar_and_uncovered(card_plan):
    elements = set(card_plan.elements)
    assert {
        "skill:card_replace",
        "block:card_replace.pick_card",
        "step:card_replace.pick_card.ask_reason",
        "value:card_replace.replacement_reason=stolen",
        "tool:place_replacement_order",
        "tool:get_mailing_address",
        "confirm:place_replacement_order",
        "deny:place_replacement_order",
        "failure:place_replacement_order",
        "response:utter_order_placed",
        "delegate:card_replace.human_handoff",
    } <= elements
    assert "step:card_replace.pick_card.END" not in elements
    assert not any(e.startswith("value:card_replace.shipping_method") for e in elements)
    covered = {e for b in card_plan.behaviors for e in b.covers}
    # Offering a dispute after a stolen card needs a customer who saw strange payments.
    assert [e for e in card_plan.elements if e not in covered] == [
        "delegate:card_replace.dispute_charge"
    ]


def test_count_and_types_select_the_most_valuable(card_plan):
    top = select(card_plan.behaviors, count=3, types=None)
    assert [b.case for b in top] == [
        "lost",
        "refused_place_replacement_order",
        "refused_order_replacement",
    ]
    sad = select(card_plan.behaviors, count=None, types=["sad_path"])
    assert {b.case for b in sad} == {
        "place_replacement_order_fails",
        "order_replacement_fails",
        "not_eligible",
    }
    one = select(card_plan.behaviors, count=1, types=["edge_case"])
    assert [b.case for b in one] == ["refused_place_replacement_order"]


def test_prose_only_skill_still_gets_a_plan(bank):
    skill = bank.mantle.skills["check_balance"]
    assert not skill.blocks
    plan = plan_mantle(bank, "check_balance", None)
    kinds = [b.facts["kind"] for b in plan.behaviors]
    assert kinds[:2] == ["happy", "happy"]
    assert {"escalation", "correction", "out_of_order", "ambiguity"} <= set(kinds)
    # out-of-scope and adversarial cases are planned once per project (on card_replace)
    assert not {"out_of_scope", "adversarial"} & set(kinds)
    cases = by_case(plan)
    assert cases["checking"].facts["values"] == {"check_balance.account_type": "checking"}
    assert "value:check_balance.account_type=credit_card" in cases["credit_card"].covers
    assert "tool:get_balance" in cases["checking"].covers
    # no block, no gated tool: no block elements, no refusal
    assert not any(e.startswith(("block:", "step:", "deny:")) for e in plan.elements)
    covered = {e for b in plan.behaviors for e in b.covers}
    assert [e for e in plan.elements if e not in covered] == [
        "delegate:check_balance.dispute_charge"
    ]


def test_dispute_and_handoff_plans(bank):
    dispute = by_case(plan_mantle(bank, "dispute_charge", None))
    assert dispute["unrecognised"].type == "escalation"  # that branch links to the hand-off
    assert "delegate:dispute_charge.human_handoff" in dispute["unrecognised"].covers
    assert dispute["dispute_not_opened"].type == "sad_path"
    assert "step:dispute_charge.file_dispute.ask_expected_amount" in dispute["wrong_amount"].covers
    handoff = plan_mantle(bank, "human_handoff", None)
    assert [b.case for b in handoff.behaviors] == ["request", "details_up_front", "unclear_answer"]
    assert handoff.behaviors[0].type == "escalation"


def test_direction_selects_value_and_moves_matching_behaviours_first(bank):
    direction = (
        "an impatient customer with a cracked chip; assert card_replace completes "
        "and the reason is never asked twice"
    )
    plan = plan_mantle(bank, "card_replace", direction)
    cases = by_case(plan)
    damaged = cases["damaged"]
    assert damaged.priority < 10
    assert select(plan.behaviors, count=1, types=None) == [damaged]
    facts = damaged.facts["direction"]
    assert facts["persona"] == "You are an impatient customer with a cracked chip."
    assert {
        "text": "card_replace completes",
        "check": "skill_completed",
        "target": "card_replace",
    } in facts["requirements"]
    assert {"text": "The reason is never asked twice", "check": None, "target": None} in facts[
        "requirements"
    ]
    # the selected value is used wherever the behaviour can still reach what it is about
    assert cases["correction"].facts["values"]["card_replace.replacement_reason"] == "damaged"
    assert (
        cases["refused_place_replacement_order"].facts["values"]["card_replace.replacement_reason"]
        == "lost"
    )
    # a direction about card_replace leaves other skills alone
    balance = plan_mantle(bank, "check_balance", direction)
    assert balance == plan_mantle(bank, "check_balance", None)


def test_direction_themes_and_tool_requirements(bank):
    plan = plan_mantle(
        bank,
        "card_replace",
        "a customer who says no at the summary; make sure place_replacement_order is not called",
    )
    first = select(plan.behaviors, count=1, types=None)[0]
    assert first.case == "refused_place_replacement_order"
    escalate = plan_mantle(bank, "dispute_charge", "the customer wants to talk to a person")
    assert select(escalate.behaviors, count=1, types=None)[0].case == "escalation"


def test_plan_is_deterministic(bank):
    assert plan_mantle(bank, "card_replace", "x") == plan_mantle(bank, "card_replace", "x")


def test_unknown_skill(bank):
    with pytest.raises(UserError, match="no Mantle skill 'card_replac'"):
        plan_mantle(bank, "card_replac", None)


def test_condition_evaluator():
    memory = {"card_replace.replacement_reason": "lost", "project.authenticated": True}
    cond = (
        "session.card_replace.replacement_reason == 'lost' or "
        "session.card_replace.replacement_reason == 'not_received'"
    )
    assert evaluate(cond, memory)
    assert not evaluate(
        "session.project.authenticated and session.card_replace.card_blocked", memory
    )
    assert evaluate("not session.card_replace.card_blocked", memory)
    assert evaluate(None, {}) and not evaluate("((", {})
    assert condition_keys(cond) == ["card_replace.replacement_reason"]


def test_a_detour_in_a_prose_skill_says_what_the_agent_waits_for(bank) -> None:
    """A skill in prose waits at no named step (the runtime calls it `autonomous`): the
    digression's description says what the agent waits for, a block's by its step."""
    described = {
        skill: b.description
        for skill in ("check_balance", "card_replace")
        for b in plan_mantle(bank, skill, None).behaviors
        if b.case == "digression"
    }
    assert "waits for the customer's account type" in described["check_balance"]
    assert "waits at select_card" in described["card_replace"]
    assert not any("autonomous" in text for text in described.values())
