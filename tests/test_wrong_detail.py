"""A check that comes back negative because the caller gets one detail wrong: the caller is
one of the project's own people, one detail the check's code compares with their record is
a character off, no invented test account is seeded, no flag the code only writes true is
asserted false, and the reference agent's backend finds no match either."""

from __future__ import annotations

import asyncio
import json
from datetime import date
from pathlib import Path

import pytest

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.generate._verify_play import play, reference, run_case
from agentflows.planning import NOT_WRITTEN
from agentflows.planning._mantle import plan_mantle
from evalcore.agents.reference import ModelBrain
from evalcore.definitions import load_project
from evalcore.testdata import NEGATIVE_ACCOUNT, changed_detail, load_records, one_detail_off
from evalcore.testdata._mismatch import _dated

HARBOR = Path(__file__).parent / "data" / "corpus" / "harbor_mutual"
CHECKED = (("policy_number", "policy_number"), ("date_of_birth", "date_of_birth"))
CHECKED += (("zip_code", "zip"),)


@pytest.fixture(scope="module")
def harbor():
    return load_project(HARBOR)


def test_a_changed_detail_is_one_digit_off_and_stays_a_date() -> None:
    assert changed_detail("02139") == "02138"
    assert changed_detail("03/17/1984") == "03/17/1983"
    assert changed_detail("02/29/2024") is None  # no year a digit away has the day
    assert changed_detail("Whitfield") is None  # a name changed by a letter reads as a typo


def test_a_value_s_date_is_read_once_and_reads_as_strptime_reads_it() -> None:
    """`_dated` is kept per value: asked again, it answers what the uncached reading does."""
    values = ["03/17/1984", " 1984-03-17 ", "17.03.1984", "13/25/2020", "2024/02/29", "02139", ""]
    first = [_dated(v) for v in values]
    hits = _dated.cache_info().hits
    assert [_dated(v) for v in values] == first == [_dated.__wrapped__(v) for v in values]
    assert _dated.cache_info().hits == hits + len(values)
    assert first[0] == (date(1984, 3, 17), "%m/%d/%Y")
    assert first[1] == (date(1984, 3, 17), "%Y-%m-%d")
    assert first[3] is None and first[5] is None


def test_one_detail_off_a_record_is_no_match_and_another_form_of_it_is(harbor) -> None:
    records = load_records(HARBOR)
    told = {"policy_number": "HM-AU-4471028", "date_of_birth": "03/17/1984", "zip_code": "02139"}
    assert not one_detail_off(told, CHECKED, records)  # the record's own, a date in its form
    assert one_detail_off({**told, "zip_code": "02138"}, CHECKED, records)
    assert one_detail_off({**told, "date_of_birth": "03/17/1983"}, CHECKED, records)
    # two details off, or one that is no near miss, is not the changed-detail signature
    assert not one_detail_off(
        {**told, "zip_code": "02138", "date_of_birth": "03/17/1983"}, CHECKED, records
    )
    assert not one_detail_off({**told, "zip_code": "90210"}, CHECKED, records)


def test_a_failed_check_case_gives_a_real_caller_one_wrong_detail(harbor) -> None:
    plan = {b.case: b for b in plan_mantle(harbor, "verify_policyholder", None).behaviors}
    data = draft_mantle(DraftContext(harbor, "mantle", plan["count_attempt"]))
    scenario = data["scenario"]
    phone = scenario["setup"]["initial_slots"]["project.caller_phone"]
    people = json.loads((HARBOR / "data" / "policyholders.json").read_text())
    assert phone != NEGATIVE_ACCOUNT
    person = next(p for p in people if p["phone"] == phone)
    policies = json.loads((HARBOR / "data" / "policies.json").read_text())
    own = [p for p in policies if p["policy_number"] in person["policies"]]
    run = next(
        a["tool_executed"]
        for a in scenario["goals"]["assertions"]
        if a.get("tool_executed", {}).get("tool_name") == "verify_policyholder"
    )
    zip_code = str(run["arguments"]["zip_code"])
    assert zip_code not in {p["zip"] for p in own}
    assert any(changed_detail(p["zip"]) == zip_code for p in own)
    assert f"zip code as {zip_code}" in scenario["simulation_context"]
    # the tool only ever writes authenticated true: a failed check leaves it unwritten
    written = [i for a in scenario["goals"]["assertions"] for i in a.get("memory_was_set") or []]
    assert {"name": "project.authenticated", "value": False} not in written
    played = asyncio.run(
        play(run_case(data, HARBOR / "x.yml", "mantle")[0], reference(harbor), harbor)
    )
    assert played.status == "passed", played.failing


def test_a_negative_no_detail_makes_is_planned_unwritten_not_given_an_invented_caller(
    harbor,
) -> None:
    meadow = load_project(HARBOR.parent / "meadow_pharmacy")
    plan = {b.case: b for b in plan_mantle(meadow, "refill_prescription", None).behaviors}
    # too_early is computed from the record and the run's date: no wrong detail makes it,
    # and the project's callers are its own, so a built-in negative account is no caller
    assert "comes back negative only on" in plan["too_early"].facts[NOT_WRITTEN]
    plan = {b.case: b for b in plan_mantle(harbor, "verify_policyholder", None).behaviors}
    assert NOT_WRITTEN not in plan["count_attempt"].facts


def test_the_reference_agent_reads_a_near_miss_as_one_detail_off_reads_it(harbor) -> None:
    """`ModelBrain.detail_off` keeps its answer per tool and details (each value with its
    type): asked again, in another order or with a value of another type, it answers as
    `one_detail_off` does afresh."""
    brain = ModelBrain(harbor)
    records = load_records(HARBOR)
    told = {"policy_number": "HM-AU-4471028", "date_of_birth": "03/17/1984", "zip_code": "02139"}
    asked = [
        told,
        {**told, "zip_code": "02138"},
        {"zip_code": "02138", **{k: v for k, v in told.items() if k != "zip_code"}},
        {**told, "date_of_birth": "03/17/1983"},
        {**told, "zip_code": 2138},
        {**told, "zip_code": ["02138"]},  # a detail that is no single value: read afresh
    ]
    for _ in range(2):
        for details in asked:
            fresh = one_detail_off(details, CHECKED, records)
            kept = brain.detail_off("verify_policyholder", "verify_policyholder", details)
            assert kept == fresh, details
    assert brain.detail_off("verify_policyholder", "verify_policyholder", asked[1])
