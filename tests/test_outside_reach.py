"""The case header names every outside call a run of the case makes: an MCP server's tool
as well as a local tool's post, and what a detour's skill (and a skill its block calls)
does, not only the tools the case asserts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from evalcore.definitions import Project, load_project
from evalcore.dialects import get_dialect

FORGE = Path(__file__).parent / "data" / "corpus" / "forge_platform"


@pytest.fixture(scope="module")
def forge() -> Project:
    return load_project(FORGE)


def _case(*assertions: dict[str, Any]) -> dict[str, Any]:
    return {
        "scenario": {
            "name": "x",
            "type": "edge_case",
            "simulation_context": "You are an engineer.",
            "goals": {"assertions": list(assertions)},
        }
    }


def _notes(data: dict[str, Any], project: Project) -> list[str]:
    text = get_dialect("mantle").dump_justified(data, project)
    return [line for line in text.splitlines() if line.startswith("# outside service: ")]


def test_an_mcp_tool_that_pages_is_named_with_its_server_one_that_reads_is_not(
    forge: Project,
) -> None:
    on_call = {"source": "mcp", "skill_id": "oncall"}
    data = _case(
        {"tool_executed": {"tool_name": "get_current_oncall", **on_call}},
        {"tool_executed": {"tool_name": "page_responder", **on_call}},
    )
    notes = _notes(data, forge)
    assert len(notes) == 1
    assert "page_responder" in notes[0]
    assert "MCP server pager" in notes[0]
    assert "PAGER_MCP_TOKEN" in notes[0]


DETOUR = (
    {"skill_interrupted": {"skill_id": "access_request"}},
    {"skill_activated": {"skill_id": "incidents"}},
    {"skill_resumed": {"skill_id": "access_request"}},
    {"tool_executed": {"tool_name": "request_access", "skill_id": "access_request"}},
)


def test_a_detour_names_what_its_skill_and_the_skill_it_calls_do(forge: Project) -> None:
    notes = _notes(_case(*DETOUR), forge)
    named = [n.split(": ", 1)[1].split(" ", 1)[0] for n in notes]
    assert named == ["request_access", "open_incident", "page_responder"]
    assert "where the run enters incidents" in notes[1]
    # the on-call skill runs only its section for a caller's incident, not the rota change
    assert not any("create_override" in n for n in notes)
    # a tool the case expects not to run is not named; nor a skill entered without a detour
    avoided = _notes(_case(*DETOUR, {"tool_not_executed": {"tool_name": "open_incident"}}), forge)
    assert [n for n in avoided if "open_incident" in n] == []
    assert len(avoided) == 2
    assert _notes(_case({"skill_activated": {"skill_id": "incidents"}}), forge) == []


def test_a_detour_into_a_skill_of_modes_names_none_of_one_modes_tools() -> None:
    oakline = load_project(FORGE.parent / "oakline_residents")
    data = _case(
        {"skill_interrupted": {"skill_id": "door_access"}},
        {"skill_activated": {"skill_id": "rent_account"}},
    )
    # a payment, a plan, a receipt, autopay: each only under its own `if: mode == …`
    assert _notes(data, oakline) == []
