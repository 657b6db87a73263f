"""A case asserts what its branch is there for: the field the prose tells the agent to set
from the user's answer ("Ask in one sentence what they need help with and set
handoff_reason"), and, of the branch's own `if:` paragraph, the act it tells the agent to
do ("Tell them to leave the building now and call 911 from outside") before what it
forbids, so an agent that only routes to the branch fails something."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import Project, load_project
from evalcore.dialects import get_dialect

CORPUS = Path(__file__).parent / "data" / "corpus"


@cache
def _project(name: str) -> Project:
    return load_project(CORPUS / name)


def _draft(project_name: str, skill: str, case: str) -> dict[str, Any]:
    project = _project(project_name)
    plan = {b.case: b for b in plan_mantle(project, skill, None).behaviors}
    return draft_mantle(DraftContext(project, "mantle", plan[case]))


def _set(data: dict[str, Any]) -> list[str]:
    checks = data["scenario"]["goals"]["assertions"]
    return [i["name"] for c in checks for i in c.get("memory_was_set") or [] if "name" in i]


def test_a_field_the_prose_sets_from_the_answer_is_asserted_on_a_hand_off() -> None:
    """The phone hand-off asks why and sets handoff_reason: an agent that activates the
    skill and stops no longer passes on activation alone."""
    data = _draft("harbor_mutual", "adjuster_handoff", "phone")
    assert "adjuster_handoff.handoff_reason" in _set(data)
    # the other branch's field stays out: the phone path never asks for a window
    assert "adjuster_handoff.callback_window" not in _set(data)
    judged = [
        j
        for j in get_dialect("mantle").justify(data, _project("harbor_mutual"))
        if j.check == "memory_was_set" and j.top
    ]
    assert [j.kind for j in judged] == ["instructed"], judged


def test_a_field_the_prose_sets_is_asserted_on_a_happy_path() -> None:
    """ "Ask for the guest's name (set guest_name) and when they arrive and leave (set
    valid_from and valid_until …)": each is the model's to write on this path."""
    names = _set(_draft("oakline_residents", "door_access", "guest_pin"))
    assert {"door_access.guest_name", "door_access.valid_from"} <= set(names), names


def test_the_branch_act_comes_before_its_prohibition() -> None:
    """With room for one rule, a fire given up front gets "leave and call 911 from outside",
    not only "ask nothing else until they are out"."""
    criteria = _draft("oakline_residents", "emergency_line", "details_up_front")["scenario"][
        "goals"
    ]["criteria"]
    assert any("call 911 from outside" in c for c in criteria), criteria


def test_a_sibling_branchs_gated_act_is_asserted_absent() -> None:
    """Declining an invite runs respond_to_invite, which the cancel branch also runs for a
    meeting the executive does not own: delete_event's `requires` holds on the decline path,
    so an agent that cancels instead reaches its confirmation question. A path that runs a
    gated tool of its own (rescheduling moves the meeting) is told apart by that gate."""
    decline = _draft("northstar_exec", "calendar", "decline")["scenario"]["goals"]
    absent = [
        a["bot_did_not_utter"]["utter_name"]
        for a in decline["assertions"]
        if "bot_did_not_utter" in a
    ]
    assert absent == ["utter_confirm_cancel"], decline["assertions"]
    move = _draft("northstar_exec", "calendar", "reschedule")["scenario"]["goals"]
    assert not [a for a in move["assertions"] if "bot_did_not_utter" in a]
