"""The Anychat planner: behaviours per Playbook, the element grammar, selection, direction."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from agentflows.planning import CASE_TYPES, plan_source, select
from agentflows.planning._anychat import plan_anychat
from agentflows.planning.anychat_elements import (
    main_reply,
    playbook_facts,
    reply_options,
)
from evalcore.definitions import load_project
from evalcore.errors import UserError

REPO = Path(__file__).resolve().parents[1]
CLINIC = load_project(REPO / "examples" / "clinic")
ELEMENT = re.compile(
    r"^(playbook|tool|outcome|picker|outreach|field|handoff|start|system):[\w.]+$"
    r"|^example:\w+#\d+$|^guardrail:(\d+|injection)$"
)


def _cases(playbook: str) -> dict[str, str]:
    return {b.case: b.type for b in plan_anychat(CLINIC, playbook, None).behaviors}


@pytest.mark.parametrize("playbook", sorted(CLINIC.anychat.playbooks))
def test_plan_is_well_formed(playbook: str) -> None:
    plan = plan_anychat(CLINIC, playbook, None)
    assert plan.source == playbook and plan.dialect == "anychat"
    ids = [b.id for b in plan.behaviors]
    assert len(ids) == len(set(ids))
    for behavior in plan.behaviors:
        assert behavior.id == f"{playbook}:{behavior.case}"
        assert behavior.type in CASE_TYPES
        assert f"playbook:{playbook}" in behavior.covers
        assert set(behavior.covers) <= set(plan.elements), behavior.id
        assert behavior.facts["playbook"] == playbook
    assert all(ELEMENT.match(e) for e in plan.elements), plan.elements
    assert plan == plan_anychat(CLINIC, playbook, None)


def test_behaviours_follow_from_each_playbook() -> None:
    assert _cases("book") == {
        "inbound": "happy_path",
        "resume": "edge_case",
        "simulated": "happy_path",
        "handoff_to_cancel": "edge_case",
        "guardrail": "adversarial",
        "example_0": "happy_path",
        "example_1": "happy_path",
    }
    assert _cases("general") == {
        "inbound": "happy_path",
        "opt_out": "edge_case",
        "off_topic": "out_of_scope",
        "handoff_to_book": "happy_path",
        "handoff_to_cancel": "happy_path",
        "handoff_to_reschedule": "happy_path",
        "guardrail": "adversarial",
        "example_0": "happy_path",
        "example_1": "edge_case",
    }
    reschedule = _cases("reschedule")
    for case in (
        "outreach_visit_reminder",
        "outreach_visit_reminder_reply_confirm",
        "reminder_reply",
        "opt_out_after_visit_reminder",
        "resume",
        "simulated",
    ):
        assert case in reschedule
    assert _cases("cancel")["handoff_to_reschedule"] == "edge_case"


def test_elements_name_real_definitions() -> None:
    book = plan_anychat(CLINIC, "book", None).elements
    assert {
        "tool:book_appointment",
        "outcome:booked",
        "picker:ask.time",
        "example:book#1",
        "field:insuranceProvider",
        "handoff:cancel",
        "guardrail:1",
    } <= set(book)
    reschedule = plan_anychat(CLINIC, "reschedule", None).elements
    assert {
        "outreach:visit_reminder",
        "start:outreach",
        "start:reminder",
        "start:resume",
        "system:optOut",
    } <= set(reschedule)
    general = plan_anychat(CLINIC, "general", None).elements
    assert "start:resume" not in general and "system:optOut" in general


def test_facts_carry_concrete_values() -> None:
    plan = {b.case: b for b in plan_anychat(CLINIC, "reschedule", None).behaviors}
    outreach = plan["outreach_visit_reminder"].facts
    assert outreach["reply"] == "R" and outreach["start"]["outreach"]["outreachId"] == (
        "visit_reminder"
    )
    assert set(outreach["start"]["outreach"]["inputs"]) == {"firstName", "visitDate", "visitTime"}
    assert outreach["start"]["outreach"]["inputs"]["visitDate"] == "Thursday, March 12"
    assert outreach["persona"]["consent"] == {"status": "granted"}
    assert outreach["appointments"] == [
        {"startsIn": "P3DT5H", "durationMinutes": 45, "status": "scheduled"}
    ]
    assert plan["outreach_visit_reminder_reply_confirm"].facts["reply"] == "C"
    simulated = {b.case: b for b in plan_anychat(CLINIC, "book", None).behaviors}["simulated"]
    assert list(simulated.facts["collect"]) == ["fullName", "insuranceProvider"]
    assert "fullName" not in simulated.facts["persona"]["fields"]


def test_example_scenes_read_the_example() -> None:
    plan = {b.case: b.facts for b in plan_anychat(CLINIC, "book", None).behaviors}
    returning = plan["example_0"]["persona"]["fields"]
    assert returning["phone"] == "+15550142" and returning["firstName"] == "Maya"
    assert "fullName" not in plan["example_1"]["persona"]["fields"]
    reminder = {b.case: b.facts for b in plan_anychat(CLINIC, "reschedule", None).behaviors}
    assert reminder["example_0"]["start"]["outreach"]["outreachId"] == "visit_reminder"


def test_opener_reply_options() -> None:
    outreach = CLINIC.anychat.outreaches["visit_reminder"]
    options = reply_options(outreach)
    assert [(o.reply, o.meaning) for o in options] == [("C", "confirm"), ("R", "pick another time")]
    assert main_reply(outreach, CLINIC.anychat.playbooks["reschedule"]).reply == "R"


def test_playbook_facts() -> None:
    cancel = playbook_facts(CLINIC.anychat.playbooks["cancel"], CLINIC.anychat)
    assert cancel.roles.action == "cancel_appointment" and cancel.roles.effect == "cancel"
    assert cancel.needs_appointment and cancel.offers_instead == "move"
    assert cancel.handoffs == ("reschedule",)
    general = playbook_facts(CLINIC.anychat.playbooks["general"], CLINIC.anychat)
    assert general.opt_out_outcome == "opted_out" and general.outcome is None


def test_selection_by_count_and_type() -> None:
    behaviors = plan_anychat(CLINIC, "book", None).behaviors
    assert [b.case for b in select(behaviors, count=2, types=None)] == ["inbound", "example_0"]
    assert [b.case for b in select(behaviors, count=None, types=["adversarial"])] == ["guardrail"]


@pytest.mark.parametrize(
    ("direction", "playbook", "first"),
    [
        ("someone who tries a jailbreak", "book", "guardrail"),
        ("the person changes their mind halfway", "book", "handoff_to_cancel"),
        ("opt out after the reminder", "reschedule", "opt_out_after_visit_reminder"),
        ("an off-topic question", "general", "off_topic"),
    ],
)
def test_direction_moves_what_it_asks_for_first(direction: str, playbook: str, first: str) -> None:
    plan = plan_anychat(CLINIC, playbook, direction)
    assert select(plan.behaviors, count=1, types=None)[0].case == first
    assert [b.case for b in plan.behaviors] == [
        b.case for b in plan_anychat(CLINIC, playbook, None).behaviors
    ]


def test_direction_picks_declared_values() -> None:
    plan = plan_anychat(CLINIC, "book", "a new patient with Cigna insurance")
    simulated = next(b for b in plan.behaviors if b.case == "simulated")
    assert simulated.facts["collect"]["insuranceProvider"] == "Cigna"


def test_unknown_playbook_and_dispatch() -> None:
    with pytest.raises(UserError):
        plan_anychat(CLINIC, "nope", None)
    assert plan_source(CLINIC, "anychat", "cancel", None).source == "cancel"


def test_minimal_project(tmp_path: Path) -> None:
    """No guardrails, Outreaches or examples: fewer behaviours, still well formed."""
    (tmp_path / "anychat.yml").write_text(
        "agent: {name: Shop}\ndefault_playbook: help\nchannels: [sms]\noutcomes: [ordered]\n"
    )
    (tmp_path / "tools.yml").write_text(
        "tools:\n  place_order:\n    description: Order.\n    parameters: {item: {type: string}}\n"
    )
    playbooks = tmp_path / "playbooks"
    playbooks.mkdir()
    (playbooks / "help.yml").write_text("name: Help\nbody: Answer questions.\n")
    (playbooks / "order.yml").write_text(
        "name: Order\nactivation: The person wants to order a gift box.\n"
        "body: Take the order with place_order.\ntools: [place_order]\noutcomes: [ordered]\n"
        "pickers: [confirm]\n"
    )
    project = load_project(tmp_path)
    plan = plan_anychat(project, "order", None)
    assert {b.case for b in plan.behaviors} == {
        "inbound",
        "resume",
        "simulated",
        "handoff_to_help",
        "guardrail",
    }
    assert "guardrail:injection" in plan.elements
    assert all(ELEMENT.match(e) for e in plan.elements)
