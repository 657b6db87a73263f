"""Each comment cites the line that backs its check, in the skill the check is about.

Read against a corpus project whose calendar skill has three gates sharing one denial reply,
one paragraph per mode (a cancel paragraph that also declines), and an expenses skill that
imports a mail tool the briefing skill also names.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_review_rules import only, review

from evalcore.definitions import load_project
from evalcore.dialects.mantle import citations
from evalcore.dialects.mantle._justify import judge_case
from evalcore.justify import Judged, Justification

NORTHSTAR = Path(__file__).parent / "data" / "corpus" / "northstar_exec"
CALENDAR = NORTHSTAR / "skills" / "calendar" / "skill.md"


@pytest.fixture(scope="module")
def project() -> Any:
    return load_project(NORTHSTAR)


def line_of(text: str, after: str = "") -> int:
    """The 1-based line of the calendar skill holding `text` (the first after `after`)."""
    lines = CALENDAR.read_text("utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if after in line) if after else 0
    return next(i for i in range(start, len(lines)) if text in lines[i]) + 1


def case(context: str, assertions: list[dict[str, Any]], criteria: list[str] = ()) -> dict:
    return {
        "scenario": {
            "name": "Calendar",
            "type": "edge_case",
            "simulation_context": f"You are Raj Patel.\n{context}\n",
            "setup": {"initial_slots": {"project.authenticated": True}},
            "goals": {"assertions": assertions, "criteria": list(criteria)},
        }
    }


def judged(data: dict, project: Any) -> dict[str, Judged]:
    return {j.path: j for j in judge_case(data, project)}


def test_a_denial_reply_several_gates_share_is_cited_in_the_refused_tools_entry(
    project: Any,
) -> None:
    data = case(
        'Open with: "Move my 3pm to tomorrow."\n'
        "When the agent asks whether to move the event, decline.",
        [
            {"skill_activated": {"skill_id": "calendar"}},
            {"memory_was_set": [{"name": "calendar.mode", "value": "reschedule"}]},
            {"bot_uttered": {"utter_name": "utter_confirm_move"}},
            {"bot_uttered": {"utter_name": "utter_calendar_unchanged"}},
        ],
        ["The agent asks the executive to confirm before it goes on to move the event"],
    )
    found = judged(data, project)
    denial = found["/scenario/goals/assertions/3"].justification
    assert denial is not None and denial.element.startswith("move_event utter_on_user_denial")
    # create_event's entry names the same reply first
    assert denial.line == line_of("utter_on_user_denial", after="- move_event:")
    asked = found["/scenario/goals/criteria/0"].justification
    assert asked is not None and asked.kind == "enforced"
    assert asked.element.startswith("move_event requires_confirmation")
    assert asked.line == line_of("requires_confirmation", after="- move_event:")
    assert citations.misplaced_citations(data, project) == []


def test_a_tool_two_skills_import_is_cited_in_the_skill_the_case_runs(project: Any) -> None:
    data = case(
        'Open with: "Expense the dinner with the Halvorsen team."',
        [
            {"skill_activated": {"skill_id": "expenses"}},
            {"tool_executed": {"tool_name": "search_inbox", "source": "mcp", "mcp_server": "mail"}},
        ],
    )
    found = judged(data, project)["/scenario/goals/assertions/1"].justification
    assert found is not None and found.file == "skills/expenses/skill.md"
    assert "search_inbox" in found.element


def test_another_branchs_paragraph_is_not_cited_and_a_later_guard_scopes_what_follows(
    project: Any,
) -> None:
    data = case(
        'Open with: "Decline the offsite invite."',
        [
            {"skill_activated": {"skill_id": "calendar"}},
            {"memory_was_set": [{"name": "calendar.mode", "value": "decline"}]},
            {"tool_executed": {"tool_name": "respond_to_invite", "skill_id": "calendar"}},
        ],
    )
    found = judged(data, project)["/scenario/goals/assertions/2"].justification
    assert found is not None
    # the cancel paragraph ("decline instead: call respond_to_invite") is the first to name
    # it; "and, if they gave one, a one-line note" guards the note, not the call
    assert found.line == line_of("call respond_to_invite", after='mode == "decline"')
    assert found.kind == "instructed"
    assert citations.misplaced_citations(data, project) == []


def test_the_citation_check_names_each_kind_of_misplaced_line(
    project: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = case(
        'Open with: "Decline the offsite invite."',
        [
            {"skill_activated": {"skill_id": "calendar"}},
            {"memory_was_set": [{"name": "calendar.mode", "value": "decline"}]},
            {"tool_executed": {"tool_name": "respond_to_invite", "skill_id": "calendar"}},
            {"bot_uttered": {"utter_name": "utter_calendar_unchanged"}},
        ],
    )
    md = "skills/calendar/skill.md"
    wrong = [
        Judged(
            "/scenario/goals/assertions/2",
            "tool_executed",
            Justification("conditional", md, line_of("For meetings the"), "calls the tool"),
        ),
        Judged(
            "/scenario/goals/assertions/2",
            "tool_executed",
            Justification("instructed", "skills/daily_briefing/skill.md", 19, "calls the tool"),
        ),
        Judged(
            "/scenario/goals/assertions/3",
            "bot_uttered",
            Justification(
                "instructed",
                md,
                line_of("utter_on_user_denial"),
                "move_event utter_on_user_denial utter_calendar_unchanged",
            ),
        ),
    ]
    monkeypatch.setattr(citations, "judge_case", lambda data, project: wrong)
    found = citations.misplaced_citations(data, project)
    assert len(found) == 3
    assert "which the case rules out" in found[0]
    assert "a file of daily_briefing, for a check on calendar" in found[1]
    assert "outside move_event's constraint entry" in found[2]


def test_a_mode_named_decline_is_no_refused_confirmation() -> None:
    data = case(
        'Open with: "Decline the offsite invite."',
        [
            {"skill_activated": {"skill_id": "calendar"}},
            {"memory_was_set": [{"name": "calendar.mode", "value": "decline"}]},
            {"tool_executed": {"tool_name": "respond_to_invite", "skill_id": "calendar"}},
        ],
    )
    data["scenario"].update(name="Calendar (mode: decline)", type="happy_path")
    path = Path("/nonexistent/calendar_decline_happy_path.yml")
    assert not only(review(data, project=NORTHSTAR, path=path), "no-decisive-assertion")
    # a case that declines the move at its gate and shows nothing held back still is one
    data["scenario"]["simulation_context"] += (
        "When the agent asks whether to move the event, decline.\n"
    )
    data["scenario"]["goals"]["assertions"][1]["memory_was_set"][0]["value"] = "reschedule"
    assert only(review(data, project=NORTHSTAR, path=path), "no-decisive-assertion")
