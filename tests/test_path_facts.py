"""A case's user knows only what the case's path uses.

Found on a platform assistant: the status, history and rollback cases of a deployments
skill gave the user a "target version" (a field only the deploy branch asks for, under its
own `if:`), which a blind reviewer read as the user contradicting the request. A field the
walk places no question for is a fact only where a sentence that holds on the case's branch
asks for it, names it as what the user has, or a tool the path runs takes it.
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

from agentflows.drafting.offline._mantle_facts import spec_of
from agentflows.drafting.offline._mantle_own_example import example_record
from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import load_project
from evalcore.testdata import Collection, DataRecords, draw_date

CORPUS = Path(__file__).parent / "data" / "corpus"


def _facts(project_name: str, skill: str) -> dict[str, dict[str, str]]:
    project = load_project(CORPUS / project_name)
    plan = plan_source(project, "mantle", skill, None)
    out: dict[str, dict[str, str]] = {}
    for slot, behavior in enumerate(plan.behaviors):
        script = build_script(project, behavior, slot=slot)
        out[behavior.id] = {f.field or f.label: f.value for f in script.sheet.facts}
    return out


def test_a_field_only_another_branch_asks_is_no_fact_of_the_case() -> None:
    facts = _facts("forge_platform", "deployments")
    for case in ("deployments:status", "deployments:history", "deployments:rollback"):
        assert "deployments.target_version" not in facts[case], (case, facts[case])
    # the deploy branch asks for the version tag: its case still knows one
    assert facts["deployments:deploy"].get("deployments.target_version"), facts


def test_a_field_the_branch_names_as_what_the_user_has_stays_a_fact() -> None:
    # "If they have an order number (R- and eight digits) use @tool.get_order_status"
    facts = _facts("meadow_pharmacy", "order_status")
    assert any("order_status.order_number" in f for f in facts.values()), facts


def test_a_day_a_tool_books_something_for_lies_ahead_of_the_run(monkeypatch) -> None:
    # "session_date: Day of the session, MM/DD/YYYY." says nothing of the future, but
    # reserve_instrument(session_date) books it: a day gone by is no day to book
    defs = load_project(CORPUS / "tidewater_core").mantle
    assert defs is not None
    field = defs.memory_field("instrument_time.session_date")
    assert field is not None
    spec = spec_of(field, defs)
    assert spec.ahead
    today = dt.date(2026, 12, 6)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796515200")  # 2026-12-06, the run's day
    for seed in range(20):
        said = draw_date(spec, random.Random(seed))
        assert dt.datetime.strptime(said, "%m/%d/%Y").date() > today, said


SERVICES = Collection(
    "services",
    (
        {"service": "ledger-worker", "team": "payments-core"},
        {"service": "search-indexer", "team": "discovery"},
    ),
)
ENGINEERS = Collection(
    "engineers",
    (
        {"handle": "rvargas", "name": "Rosa Vargas", "team": "discovery"},
        {"handle": "abose", "name": "Arjun Bose", "team": "payments-core"},
    ),
)


def test_the_record_an_opening_example_names_is_the_cases() -> None:
    records = DataRecords([SERVICES, ENGINEERS])
    held = {"engineers": ENGINEERS.records[0]}
    # "page the ledger on-call": the ledger service, whose team the facts then name
    named = example_record(records, held, {}, "Page the ledger on-call.")
    assert named == ("services", SERVICES.records[0])
    # a person the example names is someone else, never the case's record
    assert example_record(records, {}, {}, "Swap my on-call with Arjun next week.") is None
    assert example_record(records, held, {}, "Who is on call?") is None


def test_the_page_case_names_the_team_of_the_service_its_opening_names() -> None:
    project = load_project(CORPUS / "forge_platform")
    plan = plan_source(project, "mantle", "oncall", None)
    behavior = next(b for b in plan.behaviors if b.id == "oncall:page")
    for slot in range(4):  # whoever calls (Rosa of discovery too), the ledger's team
        script = build_script(project, behavior, slot=slot)
        said = {f.field: f.value for f in script.sheet.facts if f.field}
        assert said.get("oncall.team_slug") == "payments-core", (slot, said)
