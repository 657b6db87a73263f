"""A tool argument the case's seeds fix: the skill's prose names the project entry
(`@memory.project.loyalty_tier`) and the case seeds it, so the transfer passes the seeded
tier on and the case asserts it. Not where the seed is the parameter's own default: an
agent that leaves the argument out passes it all the same, and no call records it."""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"


def _transfer(skill: str, case: str) -> tuple[dict, dict]:
    project = load_project(CORPUS / "skyway_air")
    behaviors = {b.case: b for b in plan_source(project, "mantle", skill, None).behaviors}
    scenario = draft_mantle(DraftContext(project, "mantle", behaviors[case]))["scenario"]
    run = next(
        a["tool_executed"]
        for a in scenario["goals"]["assertions"]
        if a.get("tool_executed", {}).get("tool_name") == "transfer_to_agent"
    )
    return scenario["setup"]["initial_slots"], run.get("arguments") or {}


def test_the_transfer_passes_the_seeded_tier_on() -> None:
    seeds, arguments = _transfer("rebook_flight", "escalation")
    assert seeds["project.loyalty_tier"] == "gold"
    assert arguments["loyalty_tier"] == "gold"


def test_a_seed_equal_to_the_default_is_not_asserted() -> None:
    seeds, arguments = _transfer("agent_handoff", "details_up_front")
    assert seeds.get("project.loyalty_tier") == "none"
    assert "loyalty_tier" not in arguments
