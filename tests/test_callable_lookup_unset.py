"""A lookup with no `tool_constraints` entry that the prose calls only under another mode's
`if:` ("if mode is pay: call get_balance first") stays a tool the agent may call: the
runtime leaves that paragraph out of the prompt, not the tool, and an agent asked to split
this month's balance into a plan may look it up first. What it writes is no memory a case
asserts unset; what a confirmation-gated tool of another mode writes (a payment that needs
the user's yes) still is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _unset(project: str, skill: str, behavior: str) -> list[str]:
    loaded = load_project(CORPUS / project)
    planned = plan_source(loaded, "mantle", skill, None).behaviors
    data: dict[str, Any] = draft_mantle(
        DraftContext(loaded, "mantle", next(b for b in planned if b.id == behavior))
    )
    checks = data["scenario"]["goals"]["assertions"]
    return [str(i["name"]) for c in checks for i in c.get("memory_was_not_set") or []]


def test_an_ungated_lookup_of_another_mode_may_still_run() -> None:
    unset = _unset("oakline_residents", "rent_account", "rent_account:payment_plan")
    assert "rent_account.balance_due" not in unset, unset
    assert "rent_account.confirmation_number" in unset, unset
