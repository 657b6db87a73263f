"""What a tool call the case asserts needs is in the case, and nothing more is pinned.

- A parameter with a default is the model's to leave out (a tier the tool reads itself, a
  pickup store on a delivery): the case never pins it, while a required one stays pinned.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning import plan_source
from evalcore.definitions import Project, load_project

HANDOFF_SKILL = """---
name: Talk to a person
description: >
  Transfer to a person: "I want to speak to a person", refunds, medical needs.
tool_constraints:
  - transfer_to_person:
      requires: session.handoff.topic
---

Set topic from what they need. Then call transfer_to_person. Gold members go to the
priority queue; the tool does that from @memory.project.tier.
"""
HANDOFF_MEMORY = """schema:
  public:
    topic:
      type: categorical
      enum_values: [refund, medical]
      description: What the person is needed for.
      llm_settable: true
"""
HANDOFF_TOOLS = '''"""Transfer to a person."""

from rasa.mantle.tools.decorator import ToolContext, tool
from rasa.mantle.tools.result import ToolResult


@tool(description="Transfer to a person.")
async def transfer_to_person(
    topic: str, tier: str = "none", context: ToolContext = None
) -> ToolResult:
    """Queue the conversation.

    Args:
        topic: refund or medical.
        tier: none, silver or gold.
    """
    return ToolResult(llm_response={"transferred": True})
'''
PROJECT_MEMORY = """tier:
  type: categorical
  enum_values: [none, silver, gold]
  seed: true
"""


def _write(root: Path, skills: dict[str, dict[str, str]], memory: str = PROJECT_MEMORY) -> Project:
    (root / "agent.yml").write_text("agent:\n  name: Helper\n  persona: You help travellers.\n")
    (root / "memory.yml").write_text(memory)
    for name, files in skills.items():
        folder = root / "skills" / name
        folder.mkdir(parents=True)
        for file, text in files.items():
            (folder / file).write_text(text)
    return load_project(root)


def _cases(project: Project, skill: str) -> dict[str, dict[str, Any]]:
    behaviors = plan_source(project, "mantle", skill, None).behaviors
    return {b.case: draft_mantle(DraftContext(project, "mantle", b)) for b in behaviors}


def _calls(case: dict[str, Any], tool: str) -> list[dict[str, Any]]:
    checks = case["scenario"].get("goals", {}).get("assertions") or []
    return [
        c["tool_executed"]
        for c in checks
        if "tool_executed" in c and c["tool_executed"]["tool_name"] == tool
    ]


@pytest.fixture(scope="module")
def handoff(tmp_path_factory: pytest.TempPathFactory) -> Project:
    root = tmp_path_factory.mktemp("handoff")
    files = {"skill.md": HANDOFF_SKILL, "memory.yml": HANDOFF_MEMORY, "tools.py": HANDOFF_TOOLS}
    return _write(root, {"handoff": files})


def test_a_parameter_with_a_default_is_never_pinned(handoff: Project) -> None:
    calls = [
        c
        for case in _cases(handoff, "handoff").values()
        for c in _calls(case, "transfer_to_person")
    ]
    pinned = [c["arguments"] for c in calls if c.get("arguments")]
    assert pinned, calls  # the required topic is still asserted
    assert all("topic" in a for a in pinned)
    assert not [a for a in pinned if "tier" in a], pinned


# --- what the calls need, on the corpus projects -------------------------------------------

CORPUS = Path(__file__).parent / "data" / "corpus"


def _corpus_cases(project: str, skill: str) -> dict[str, dict[str, Any]]:
    loaded = load_project(CORPUS / project)
    behaviors = plan_source(loaded, "mantle", skill, None).behaviors
    titles = tuple(b.title for b in behaviors)
    return {
        b.case: draft_mantle(DraftContext(loaded, "mantle", b, siblings=titles)) for b in behaviors
    }


def _facts(case: dict[str, Any]) -> dict[str, str]:
    out = {}
    for line in case["scenario"]["simulation_context"].splitlines():
        if line.startswith("- ") and ": " in line:
            label, _, value = line[2:].partition(": ")
            out[label] = value
    return out


def _seeds(case: dict[str, Any]) -> dict[str, Any]:
    return (case["scenario"].get("setup") or {}).get("initial_slots") or {}


def test_a_call_that_passes_the_store_has_the_callers_store_seeded() -> None:
    """ "Open a ticket with @tool.create_work_order, passing the store, …" (an MCP tool):
    the seed field `project.store_id` is the caller's home store from their record."""
    people = json.loads((CORPUS / "brewline_shifts" / "data" / "employees.json").read_text())
    home = {p["employee_id"]: p["home_store"] for p in people}
    cases = _corpus_cases("brewline_shifts", "equipment_issue")
    ticketed = [c for c in cases.values() if _calls(c, "create_work_order")]
    assert ticketed
    for case in ticketed:
        seeds = _seeds(case)
        assert seeds.get("project.store_id") == home[seeds["project.employee_id"]], seeds


def test_the_bag_tag_a_call_needs_is_the_callers_own() -> None:
    """A bag tag the filing `requires` and the trace is called "with": the user is told the
    tag their booking lists, and never one of another booking or a made-up one (which
    caller a case draws is another rule's)."""
    bookings = json.loads((CORPUS / "skyway_air" / "data" / "bookings.json").read_text())
    bags = {b["pnr"]: b["bags"] for b in bookings}
    cases = _corpus_cases("skyway_air", "baggage")
    told = 0
    for name, case in cases.items():
        facts = _facts(case)
        pnr = facts.get("booking reference")
        if pnr is None or name.endswith("_fails"):
            # a failure draft of these outside calls is never written (the service's answer
            # decides it), and its caller is a made-up one on purpose
            continue
        tag = facts.get("bag tag")
        if bags[pnr]:
            needs = _calls(case, "trace_bag") or _calls(case, "file_missing_bag_report")
            assert tag in bags[pnr] or not needs, (name, facts)
            told += tag is not None
        elif name == "track":  # nothing asks the tag: no booking's bag, none made up
            assert tag is None, (name, facts)
        for call in _calls(case, "file_missing_bag_report"):
            assert call.get("arguments", {}).get("bag_tag") in (None, tag), (name, call)
    assert told


def test_every_pinned_argument_of_the_access_request_is_one_the_user_gives() -> None:
    """ "Ask why (set justification) and for how long (set duration_hours, 1 to 8)" and
    "which scopes they need (set scopes; valid ones are …)": the user knows a duration and
    a scope, and the call asserts only values the user said (never the list itself: it
    compares by equality, items, order and type alike)."""
    cases = _corpus_cases("forge_platform", "access_request")
    checked = 0
    for name, case in cases.items():
        facts = _facts(case)
        said = {v for v in facts.values()}
        assert "scopes" in facts and "duration hours" in facts, (name, facts)
        for call in _calls(case, "request_access"):
            arguments = call.get("arguments") or {}
            assert "scopes" not in arguments, arguments  # a list: order and type may differ
            for param, value in arguments.items():
                assert str(value) in said, (name, param, value, facts)
                checked += 1
    assert checked


def test_a_list_a_call_takes_is_given_as_its_first_example_item() -> None:
    """`items: list[dict]` of the discard log, documented `[{"item": "sweet cream", …}]`:
    the user says what was discarded, with a quantity."""
    cases = _corpus_cases("brewline_shifts", "food_safety_hold")
    logged = [c for c in cases.values() if _calls(c, "log_food_discard")]
    assert logged
    for case in logged:
        facts = _facts(case)
        assert any("sweet cream" in v and "2" in v for v in facts.values()), facts


def test_an_optional_parameter_the_prose_passes_or_the_block_collects_stays_pinned() -> None:
    """ "Try @tool.find_policyholder with @memory.project.caller_phone" passes the optional
    `phone`; "call submit_claim with the collected fields" passes what the block's `collect`
    steps asked (`injuries_reported: bool = False`): both stay asserted."""
    verify = _corpus_cases("harbor_mutual", "verify_policyholder")
    found = [c for case in verify.values() for c in _calls(case, "find_policyholder")]
    assert found
    seeded = [_seeds(case).get("project.caller_phone") for case in verify.values()]
    assert any(c.get("arguments", {}).get("phone") in seeded for c in found), found
    claims = _corpus_cases("harbor_mutual", "file_claim")
    filed = [c for case in claims.values() for c in _calls(case, "submit_claim")]
    assert any("injuries_reported" in (c.get("arguments") or {}) for c in filed), filed


def test_a_value_the_user_picks_from_a_tools_answer_is_not_told_to_them() -> None:
    """The offer id of the flight chosen from search_flights, or a summary the agent writes
    itself: no call needs the user to know one, so no case invents one for them."""
    for skill, label in (("travel", "selected flight id"), ("ea_team_handoff", "request summary")):
        for name, case in _corpus_cases("northstar_exec", skill).items():
            assert label not in _facts(case), (skill, name)


def test_a_literal_an_execute_tool_step_passes_stays_pinned() -> None:
    """`execute_tool: find_recent_deploys` with `parameters: {hours: 6}`: the runtime passes
    it, whatever the tool's default."""
    cases = _corpus_cases("forge_platform", "incidents")
    found = [c for case in cases.values() for c in _calls(case, "find_recent_deploys")]
    assert found
    assert all((c.get("arguments") or {}).get("hours") == 6 for c in found), found


def test_a_team_the_call_needs_is_the_one_the_case_is_about() -> None:
    """`team_slug` a page `requires`, set without a question the walk reads: the team that
    owns the service the opening names ("page the ledger on-call": ledger-worker's team),
    else the user's own team (`team` of their engineer record); never a team that
    contradicts the opening."""
    root = CORPUS / "forge_platform"
    engineers = json.loads((root / "data" / "engineers.json").read_text())
    services = json.loads((root / "data" / "services.json").read_text())
    team = {e["handle"]: e["team"] for e in engineers}
    told = 0
    for name, case in _corpus_cases("forge_platform", "oncall").items():
        slug = _facts(case).get("team slug")
        if name == "page":  # the page `requires` it: `needed_values` tells it
            opening = case["scenario"]["simulation_context"].lower()
            named = [s for s in services if s["service"].split("-")[0] in opening]
            owner = named[0]["team"] if len(named) == 1 else None
            assert slug == (owner or team[_seeds(case)["project.engineer_handle"]]), case
            told += 1
    assert told
