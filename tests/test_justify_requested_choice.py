"""A choice the prose sets under a guard ("Set urgency to today if it is needed before end
of day, else this_week") is instructed where the user's own request names the value ("Ask
Priya to sort it: today"): the user settled the guard. Not where only a fact the user
shares later, or nothing, says it: the guard is then the agent's reading."""

from __future__ import annotations

from pathlib import Path

from evalcore.definitions import load_project
from evalcore.dialects import get_dialect

CORPUS = Path(__file__).resolve().parent / "data" / "corpus"


def _kind(opening: str) -> str | None:
    project = load_project(CORPUS / "northstar_exec")
    data = {
        "scenario": {
            "name": "hand-off",
            "type": "edge_case",
            "simulation_context": f'You are Raj Patel.\nOpen with: "{opening}"\n',
            "setup": {"initial_slots": {"project.exec_id": "NS-002"}},
            "goals": {
                "criteria": [],
                "assertions": [
                    {"skill_activated": {"skill_id": "ea_team_handoff"}},
                    {"memory_was_set": [{"name": "ea_team_handoff.urgency", "value": "today"}]},
                ],
            },
        }
    }
    judged = get_dialect("mantle").justify(data, project)
    found = next(j for j in judged if j.path == "/scenario/goals/assertions/1" and j.top)
    return found.kind


def test_the_value_the_request_names_is_instructed() -> None:
    assert _kind("Ask Priya to sort it: today.") == "instructed"


def test_without_the_request_naming_it_the_guard_stays_the_agents() -> None:
    assert _kind("Ask Priya to sort it.") == "conditional"
