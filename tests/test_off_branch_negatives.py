"""What a path's negative checks leave out for a tool of another mode (every call of it under
an `if:` the path's values make false).

A lookup with no `tool_constraints` entry that the prose calls only under another mode's
`if:` ("if mode is pay: call get_balance first") stays a tool the agent may call: the
runtime leaves that paragraph out of the prompt, not the tool, and an agent asked to split
this month's balance into a plan may look it up first. What it writes is no memory a case
asserts unset; what a confirmation-gated tool of another mode writes (a payment that needs
the user's yes) still is. And another mode's success reply is never asserted unsaid: no
agent on the path has a reason to say it, so the check cannot fail."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"


def _checks(project: str, skill: str, behavior: str) -> list[dict[str, Any]]:
    loaded = load_project(CORPUS / project)
    planned = plan_source(loaded, "mantle", skill, None).behaviors
    data: dict[str, Any] = draft_mantle(
        DraftContext(loaded, "mantle", next(b for b in planned if b.id == behavior))
    )
    return list(data["scenario"]["goals"]["assertions"])


def _unset(project: str, skill: str, behavior: str) -> list[str]:
    checks = _checks(project, skill, behavior)
    return [str(i["name"]) for c in checks for i in c.get("memory_was_not_set") or []]


def test_an_ungated_lookup_of_another_mode_may_still_run() -> None:
    unset = _unset("oakline_residents", "rent_account", "rent_account:payment_plan")
    assert "rent_account.balance_due" not in unset, unset
    assert "rent_account.confirmation_number" in unset, unset


def test_another_modes_success_reply_is_not_asserted_unsaid() -> None:
    checks = _checks("skyway_air", "baggage", "baggage:report_damaged")
    unsaid = [c["bot_did_not_utter"]["utter_name"] for c in checks if "bot_did_not_utter" in c]
    assert "utter_missing_report_filed" not in unsaid, unsaid
    assert "utter_delivery_updated" not in unsaid, unsaid
    assert any("tool_executed" in c for c in checks)  # the path's own tool still is
