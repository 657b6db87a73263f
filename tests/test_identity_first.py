"""A skill whose prose sends the caller through another skill's identity check first ("run
@skill.verify_patient first if not authenticated") gets a user who can pass it: the details
the check's tool compares with the record (date of birth, last name), from the record of the
person the seeded phone names.

The same holds where the skill reads project memory only that check writes (the store to
transfer to). Before, the walk of the case's own skill never asked them, so the user had no
date of birth, the check failed and the case never reached what it asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context

ROOT = Path(__file__).parent / "data" / "corpus" / "meadow_pharmacy"


def test_a_check_another_skill_runs_first_gets_the_callers_own_details() -> None:
    project = load_project(ROOT)
    patients = json.loads((ROOT / "data" / "patients.json").read_text())
    by_phone = {p["phone"]: p for p in patients}
    checked = 0
    for behavior in plan_mantle(project, "order_status", None).behaviors:
        scenario = draft_mantle(DraftContext(project, "mantle", behavior))["scenario"]
        phone = scenario.get("setup", {}).get("initial_slots", {}).get("project.caller_phone")
        patient = by_phone.get(phone)
        if patient is None:
            continue
        facts = {f.label: f.value for f in parse_fact_context(scenario["simulation_context"]).facts}
        assert facts.get("last name") == patient["last_name"], (scenario["name"], facts)
        born = facts.get("date of birth") or ""
        year = patient["date_of_birth"][:4]
        assert year in born, (scenario["name"], born, patient["date_of_birth"])
        checked += 1
    assert checked >= 1


def test_a_skill_that_reads_what_a_check_writes_gets_the_callers_details_too() -> None:
    # "call @tool.transfer_to_pharmacist with the store from @memory.project.home_store_id":
    # only verify_patient's tool writes that store, so a correct agent may verify first
    project = load_project(ROOT)
    patients = {p["phone"]: p for p in json.loads((ROOT / "data" / "patients.json").read_text())}
    checked = 0
    for behavior in plan_mantle(project, "pharmacist_consult", None).behaviors:
        scenario = draft_mantle(DraftContext(project, "mantle", behavior))["scenario"]
        phone = scenario.get("setup", {}).get("initial_slots", {}).get("project.caller_phone")
        if phone not in patients:
            continue
        facts = {f.label: f.value for f in parse_fact_context(scenario["simulation_context"]).facts}
        assert facts.get("last name") == patients[phone]["last_name"], (scenario["name"], facts)
        checked += 1
    assert checked >= 1
