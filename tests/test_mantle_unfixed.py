"""Memory and arguments the definitions do not fix are never asserted.

- An entry an `instructions` step sets while its `complete_when` waits on another one only
  ("Ask whether another vehicle was involved and set other_party_involved", completed by
  the incident date) is not asserted set; one a later `if:` forks on (claim_type) still is.
- An entry the prose only asks about ("Ask for the environment … then call start_deploy
  with the service, environment and version") is not asserted set, nor ordered.
- `memory_was_not_set` never names an entry with an `initial_value`.
- A float the model formats (an optional estimate, a whole amount) and a parameter filled
  from a value the model reads into words the user never says are not pinned.
- A choice whose branch gives a threshold under which it counts as another value of the
  same field ("a delay of 180 minutes or more ...; under that, it counts as voluntary") is
  not pinned as a tool argument: a correct agent may re-record it before the call.
- `sequencing` keeps no order between two calls only the prose makes, nor a value the
  user gave up front against a call.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.drafting.offline._mantle_unfixed import ordered_tools, unfixed_keys
from agentflows.planning import plan_source
from evalcore.definitions import load_project

CORPUS = Path(__file__).parent / "data" / "corpus"
BANK = Path(__file__).parent.parent / "examples" / "bank"


@cache
def _cases(project: str, skill: str) -> dict[str, dict[str, Any]]:
    loaded = load_project(BANK if project == "bank" else CORPUS / project)
    behaviors = plan_source(loaded, "mantle", skill, None).behaviors
    titles = tuple(b.title for b in behaviors)
    return {
        b.case: draft_mantle(DraftContext(loaded, "mantle", b, siblings=titles)) for b in behaviors
    }


def _checks(case: dict[str, Any], kind: str) -> list[Any]:
    checks = case["scenario"].get("goals", {}).get("assertions") or []
    return [c[kind] for c in checks if kind in c]


def _set_names(case: dict[str, Any]) -> set[str]:
    names = {i["name"] for items in _checks(case, "memory_was_set") for i in items}
    for steps in _checks(case, "sequencing"):
        names |= {s["memory_was_set"] for s in steps if "memory_was_set" in s}
    return names


def _calls(case: dict[str, Any], tool: str) -> list[dict[str, Any]]:
    return [c for c in _checks(case, "tool_executed") if c["tool_name"] == tool]


def test_an_entry_a_step_sets_but_does_not_wait_on_is_not_asserted() -> None:
    loose = {
        "file_claim.other_party_involved",
        "file_claim.vehicle_drivable",
        "file_claim.ongoing_damage",
    }
    cases = _cases("harbor_mutual", "file_claim")
    for name, case in cases.items():
        assert not _set_names(case) & loose, name
    # set in the step that waits on policy_number, and forked on by the next one
    assert any("file_claim.claim_type" in _set_names(c) for c in cases.values())
    for name, case in _cases("oakline_residents", "maintenance_request").items():
        assert "maintenance_request.active_leak" not in _set_names(case), name


def test_an_entry_the_prose_only_asks_for_is_not_asserted_set() -> None:
    cases = _cases("forge_platform", "deployments")
    deploys = [c for c in cases.values() if _calls(c, "start_deploy")]
    assert deploys
    for case in cases.values():
        assert "deployments.environment" not in _set_names(case)
    # start_deploy `requires` the version: a case that runs it still orders it
    assert any("deployments.target_version" in _set_names(c) for c in deploys)


def test_an_entry_with_an_initial_value_is_never_asserted_unwritten() -> None:
    for name, case in _cases("harbor_mutual", "verify_policyholder").items():
        unset = {i["name"] for items in _checks(case, "memory_was_not_set") for i in items}
        assert "verify_policyholder.failed_attempts" not in unset, name


def test_a_formatted_amount_is_not_pinned_and_a_stated_one_is() -> None:
    calls = [
        c for v in _cases("harbor_mutual", "file_claim").values() for c in _calls(v, "submit_claim")
    ]
    assert calls
    assert all("estimated_damage_usd" not in (c.get("arguments") or {}) for c in calls), calls
    paid = [
        c.get("arguments") or {}
        for v in _cases("oakline_residents", "rent_account").values()
        for c in _calls(v, "make_payment")
    ]
    assert any(isinstance(a.get("amount"), float) for a in paid), paid


def test_a_handoff_argument_with_a_default_the_agent_infers_is_not_pinned() -> None:
    cases = _cases("northstar_exec", "expenses")
    calls = [c for v in cases.values() for c in _calls(v, "create_ea_request")]
    assert calls
    assert all("urgency" not in (c.get("arguments") or {}) for c in calls), calls


def test_a_value_the_user_never_says_is_asserted_by_name_only() -> None:
    case = _cases("meadow_pharmacy", "refill_prescription")["escalation"]
    items = [i for items in _checks(case, "memory_was_set") for i in items]
    typed = [i for i in items if i["name"] == "pharmacist_consult.question_type"]
    assert typed == [{"name": "pharmacist_consult.question_type"}], items
    for call in _calls(case, "transfer_to_pharmacist"):
        assert "question_type" not in (call.get("arguments") or {}), call


def test_sequencing_keeps_no_order_the_prose_alone_gives() -> None:
    for case in _cases("northstar_exec", "daily_briefing").values():
        for steps in _checks(case, "sequencing"):
            tools = [s["tool_executed"]["tool_name"] for s in steps if "tool_executed" in s]
            assert not {"list_events", "search_inbox"} <= set(tools), steps
    case = _cases("northstar_exec", "expenses")["details_up_front"]
    for steps in _checks(case, "sequencing"):
        names = [next(iter(s)) for s in steps]
        if "tool_executed" in names:
            given = [s for s in steps if s.get("memory_was_set") == "expenses.currency"]
            assert not given, steps


NOTE_SKILL = """---
name: Take a note
description: >
  Notes: "take a note", "remember this for me".
---

Ask what kind of note it is and record the answer in @memory.notes.kind. Ask for the
colour too. Then call save_note with the kind and the colour.
"""
NOTE_MEMORY = """schema:
  public:
    kind:
      type: categorical
      enum_values: [todo, idea]
      description: The kind of note.
      llm_settable: true
    colour:
      type: text
      description: The colour of the note.
      llm_settable: true
"""


def test_an_entry_the_prose_records_is_fixed_and_one_it_only_asks_for_is_not(
    tmp_path: Path,
) -> None:
    (tmp_path / "agent.yml").write_text("agent:\n  name: Notes\n  persona: You keep notes.\n")
    (tmp_path / "memory.yml").write_text("")
    folder = tmp_path / "skills" / "notes"
    folder.mkdir(parents=True)
    (folder / "skill.md").write_text(NOTE_SKILL)
    (folder / "memory.yml").write_text(NOTE_MEMORY)
    assert unfixed_keys(load_project(tmp_path), "notes") == {"notes.colour"}


def test_a_lookup_the_prose_puts_before_the_order_keeps_its_place() -> None:
    """ "Before ordering, look up the address on file with @tool.get_mailing_address"."""
    bank = load_project(BANK)
    assert bank.mantle is not None
    card = bank.mantle.skills["card_replace"]
    assert "get_mailing_address" in ordered_tools(bank.mantle, card)


def test_a_choice_its_branch_may_reclassify_is_not_pinned_and_others_are() -> None:
    pinned = {
        (c.get("arguments") or {}).get("disruption_type")
        for v in _cases("skyway_air", "rebook_flight").values()
        for c in _calls(v, "search_alternatives")
    }
    assert "delayed" not in pinned, pinned
    assert {"cancelled", "voluntary"} <= pinned, pinned
