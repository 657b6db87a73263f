"""The walk read off the reference agent with a scripted user (`reference_walk`), and the
benchmark that compares it with the planner's walk."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentflows.planning._mantle_reference_walk import reference_walk
from agentflows.planning._mantle_walk import Setup
from evalcore.definitions import Project, load_project

BANK = Path(__file__).resolve().parents[1] / "examples" / "bank"


@pytest.fixture(scope="module")
def bank() -> Project:
    return load_project(BANK)


def test_the_scripted_user_answers_every_wait_and_the_gated_order_runs(bank: Project) -> None:
    walk = reference_walk(
        bank, "card_replace", Setup(values={"card_replace.shipping_method": "express"})
    )
    kinds = [(a.kind, a.field or a.tool) for a in walk.asks]
    assert kinds == [
        ("identity", None),
        ("instructions", "card_replace.selected_card_id"),
        ("collect", "card_replace.replacement_reason"),
        ("collect", "card_replace.shipping_method"),
        ("confirm", "place_replacement_order"),
    ]
    assert walk.memory["card_replace.shipping_method"] == "express"
    assert [e.tool for e in walk.tools()][-1] == "place_replacement_order"
    assert walk.outcome == "done" and walk.completed and walk.reaches_success
    assert "confirm:place_replacement_order" in walk.elements
    assert any(e.startswith("step:card_replace.pick_card.") for e in walk.elements)


def test_a_refused_confirmation_utters_the_denial_and_runs_nothing(bank: Project) -> None:
    walk = reference_walk(bank, "card_replace", Setup(confirm={"place_replacement_order": False}))
    assert walk.asks[-1].kind == "confirm" and walk.asks[-1].confirm is False
    assert walk.outcome == "declined"
    assert "place_replacement_order" not in [e.tool for e in walk.tools()]
    assert walk.utters()[-1] == "utter_order_not_placed"
    assert "deny:place_replacement_order" in walk.elements


def test_a_failing_tool_errors_and_ends_the_procedure(bank: Project) -> None:
    walk = reference_walk(
        bank, "card_replace", Setup(failing=frozenset({"place_replacement_order"}))
    )
    last = walk.tools()[-1]
    assert last.tool == "place_replacement_order" and last.error
    assert walk.outcome == "failed" and not walk.completed
    assert walk.utters()[-1] == "utter_order_failed"


def test_values_stated_up_front_are_recorded_right_after_activation(bank: Project) -> None:
    given = Setup(
        values={"card_replace.replacement_reason": "stolen"},
        given=frozenset({"card_replace.replacement_reason"}),
    )
    walk = reference_walk(bank, "card_replace", given)
    assert walk.events[0].kind == "skill_activated"
    memory = [e for e in walk.events if e.kind == "memory"]
    assert memory[0].key == "card_replace.replacement_reason" and memory[0].value == "stolen"
    assert "card_replace.replacement_reason" not in [a.field for a in walk.asks]


def test_a_link_hands_the_conversation_over_and_the_walk_says_so(bank: Project) -> None:
    setup = Setup(values={"dispute_charge.dispute_reason": "unrecognised"})
    walk = reference_walk(bank, "dispute_charge", setup)
    links = [e for e in walk.events if e.kind == "link"]
    assert [(e.skill, e.key) for e in links] == [("dispute_charge", "human_handoff")]
    assert walk.outcome == "handoff" and walk.handoff == "human_handoff"
    assert "delegate:dispute_charge.human_handoff" in walk.elements


def test_a_step_whose_choice_is_made_sets_what_it_does_not_ask_for(bank: Project) -> None:
    # "If it is not clear yet, ask ... what the customer needs help with. Set handoff_queue
    # ... Set handoff_summary ...": the queue said up front, the agent asks nothing more
    said = Setup(
        values={"human_handoff.handoff_queue": "cards"},
        given=frozenset({"human_handoff.handoff_queue"}),
    )
    walk = reference_walk(bank, "human_handoff", said)
    assert walk.asks == []
    assert "human_handoff.handoff_summary" in [e.key for e in walk.events if e.kind == "memory"]
    assert [e.tool for e in walk.tools()] == ["transfer_to_agent"]
    # with nothing said, the step still asks
    asked = reference_walk(bank, "human_handoff", Setup())
    assert [a.field for a in asked.asks] == ["human_handoff.handoff_queue"]
