"""A case asserts the value it routes on only where a line of the definitions tells the
agent to set that field: a field only `if:` conditions read ("if: session.door_access.request
== \"lockout\"") may be routed on without ever being written, so a correct agent fails
`memory_was_set` on it; one the prose sets ("Set mode from the request") keeps it."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _set(project_name: str, skill: str, case: str) -> list[str]:
    project = load_project(CORPUS / project_name)
    plan = {b.case: b for b in plan_mantle(project, skill, None).behaviors}
    data = draft_mantle(DraftContext(project, "mantle", plan[case]))
    checks = data["scenario"]["goals"]["assertions"]
    return [i["name"] for c in checks for i in c.get("memory_was_set") or [] if "name" in i]


def test_a_field_no_line_sets_is_not_asserted() -> None:
    assert "door_access.request" not in _set("oakline_residents", "door_access", "lockout")


def test_a_field_the_prose_sets_from_the_request_is_asserted() -> None:
    assert "rent_account.mode" in _set("oakline_residents", "rent_account", "balance")
