"""A case asserts the value it routes on where a line of the definitions tells the agent to
set that field ("Set mode from the request"), or where a prose `if:` scopes a paragraph on
that value ("if: session.door_access.request == \"lockout\""): the runtime strips that
paragraph from the prompt until the value holds, so an agent that does what the paragraph
says has written it. The mode a case plays also shows in its user's words (a description
example of the mode) and in the criterion quoting the mode's paragraph."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from agentflows.review import Reviewer
from agentflows.scoring._cases import load_suite
from agentflows.scoring._goals import asserts_success
from agentflows.scoring.skills import skill_signals
from evalcore.definitions import load_project
from evalcore.dialects import get_dialect

CORPUS = Path(__file__).parent / "data" / "corpus"
OAKLINE = CORPUS / "oakline_residents"


def _draft(project_name: str, skill: str, case: str) -> dict[str, Any]:
    project = load_project(CORPUS / project_name)
    plan = {b.case: b for b in plan_mantle(project, skill, None).behaviors}
    return draft_mantle(DraftContext(project, "mantle", plan[case]))


def _set(project_name: str, skill: str, case: str) -> list[str]:
    checks = _draft(project_name, skill, case)["scenario"]["goals"]["assertions"]
    return [i["name"] for c in checks for i in c.get("memory_was_set") or [] if "name" in i]


def test_a_field_an_if_paragraph_is_scoped_on_is_asserted_with_its_value() -> None:
    """No line sets `request`, but the lockout paragraph is in the prompt only once it is
    lockout: the case asserts that value, justified at the `if:` line."""
    lockout = _draft("oakline_residents", "door_access", "lockout")
    checks = lockout["scenario"]["goals"]["assertions"]
    items = [i for c in checks for i in c.get("memory_was_set") or []]
    assert {"name": "door_access.request", "value": "lockout"} in items, checks
    judged = [
        j.justification
        for j in get_dialect("mantle").justify(lockout, load_project(OAKLINE))
        if j.check == "memory_was_set" and j.top
    ]
    assert [(j.kind, j.line) for j in judged if j is not None] == [("instructed", 42)], judged


def test_a_field_the_prose_sets_from_the_request_is_asserted() -> None:
    assert "rent_account.mode" in _set("oakline_residents", "rent_account", "balance")


def test_a_criterion_quoting_an_answer_mode_shows_its_success(tmp_path) -> None:
    """The lockout mode runs no tool: its activation and the criterion quoting its paragraph
    are its success, for `casegen score` and for the review alike; a criterion in other
    words is not."""
    lockout = _draft("oakline_residents", "door_access", "lockout")
    assert "tool_executed" not in {
        next(iter(a)) for a in lockout["scenario"]["goals"]["assertions"]
    }
    signals = skill_signals(load_project(OAKLINE), "door_access")
    (tmp_path / "lockout.yml").write_text(yaml.safe_dump(lockout, sort_keys=False))
    [case], _ = load_suite([tmp_path])
    assert asserts_success(case, signals)
    reviewer = Reviewer(OAKLINE)
    item = reviewer.load(tmp_path / "lockout.yml", text=get_dialect("mantle").dump(lockout))
    assert item is not None
    assert "no-decisive-assertion" not in {f.code for f in reviewer.comments(item)}
    lockout["scenario"]["goals"]["criteria"] = ['The agent says "what the tenant should do now"']
    lockout["scenario"]["goals"]["assertions"] = [{"skill_activated": {"skill_id": "door_access"}}]
    (tmp_path / "lockout.yml").write_text(yaml.safe_dump(lockout, sort_keys=False))
    [case], _ = load_suite([tmp_path])
    assert not asserts_success(case, signals)


def test_a_mode_the_opening_asks_for_fixes_its_paragraph() -> None:
    """ "I lost my key fob" is the skill's description example of the lost-fob request: the
    call its paragraph makes is instructed for that case, not conditional on a value no
    line sets."""
    project = load_project(OAKLINE)
    lost = _draft("oakline_residents", "door_access", "lost_fob")
    assert "I lost my key fob." in lost["scenario"]["simulation_context"]
    goals = lost["scenario"]["goals"]  # nothing else says which request it is
    goals["assertions"] = [a for a in goals["assertions"] if "memory_was_set" not in a]
    kinds = {
        j.check: j.kind
        for j in get_dialect("mantle").justify(lost, project)
        if j.top and j.check == "tool_executed"
    }
    assert kinds == {"tool_executed": "instructed"}
