"""A case asserts what its branch is there for: of the branch's own `if:` paragraph, the act
it tells the agent to do ("Tell them to leave the building now and call 911 from outside")
before what it forbids, and a sibling branch's gated act as absent, so an agent that only
routes to the branch fails something."""

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


def _tool_args(data: dict[str, Any], tool: str) -> list[dict[str, Any]]:
    checks = data["scenario"]["goals"]["assertions"]
    return [
        c["tool_executed"].get("arguments") or {}
        for c in checks
        if (c.get("tool_executed") or {}).get("tool_name") == tool
    ]


def test_an_argument_the_calling_sentence_sets_is_asserted_on_its_branch() -> None:
    """ "then call @tool.page_safety_officer with urgent set to true": a spill paged as routine
    fails the case; the other branch's call, whose sentence sets nothing, pins nothing."""
    spill = _draft("tidewater_core", "safety_officer", "spill_or_exposure")
    assert _tool_args(spill, "page_safety_officer") == [{"urgent": True}]
    other = _draft("tidewater_core", "safety_officer", "radioactive_samples")
    assert all("urgent" not in a for a in _tool_args(other, "page_safety_officer"))


def test_a_call_in_a_window_the_tool_checks_itself_is_judged_on_either_side() -> None:
    """ "During business hours (...) transfer the call with @tool.transfer_to_queue.
    Outside those hours, offer a callback instead.": the tool answers
    "outside_business_hours" itself, so the run's clock picks the side; the phone hand-off
    asserts neither, its criterion allows either, and the file says so."""
    data = _draft("harbor_mutual", "adjuster_handoff", "phone")
    assert _tool_args(data, "transfer_to_queue") == []
    criteria = " ".join(data["scenario"]["goals"]["criteria"])
    assert "either side is correct" in criteria and "Outside those hours" in criteria
    text = get_dialect("mantle").dump_justified(data, _project("harbor_mutual"))
    dated = [line for line in text.splitlines() if line.startswith("# run date:")]
    assert len(dated) == 1 and "During business hours" in dated[0], dated
    # the other channel's paragraph never reaches the call, nor the criterion
    web = _draft("harbor_mutual", "adjuster_handoff", "web_chat")
    assert _tool_args(web, "transfer_to_queue") == []
    assert "Outside those hours" not in " ".join(web["scenario"]["goals"]["criteria"])
