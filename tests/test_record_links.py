"""A fact drawn from a data file belongs to the record the case is about: the team slug
of the service a case pages for is the team that owns that service (not the caller's), and
the version a deploy case ships is one after what that service runs (never another
service's tag, the one it runs, nor one below it)."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from agentflows.drafting.offline._mantle_needs import own_value
from agentflows.drafting.offline._mantle_own_example import own_example
from evalcore.definitions import MemoryField
from evalcore.testdata import Collection, DataRecords, FieldSpec, SheetBuilder, next_release
from tests.skill_model_fixtures import generate_offline

FORGE = Path(__file__).parent / "data" / "corpus" / "forge_platform"

ENGINEERS = (
    {"handle": "rvargas", "name": "Rosa Vargas", "team": "discovery"},
)  # fmt: skip
SERVICES = (
    {"service": "ledger-worker", "team": "payments-core",
     "environments": {"staging": "v0.18.2", "prod": "v0.18.2"}},
)  # fmt: skip
DEPLOYS = (
    {"deploy_id": "dep-1", "service": "checkout-api", "version": "v2.40.3"},
)  # fmt: skip


def _sheet() -> SheetBuilder:
    records = DataRecords(
        [
            Collection("deploys", DEPLOYS),
            Collection("engineers", ENGINEERS),
            Collection("services", SERVICES),
        ]
    )
    sheet = SheetBuilder("deployments:deploy", "Engineers ship services.", records)
    sheet.hold(ENGINEERS[0])  # the caller
    assert sheet.value(FieldSpec("service", "text", "Catalog name of the service")) == (
        "ledger-worker"
    )
    return sheet


def test_target_version_follows_the_service_the_case_holds() -> None:
    spec = FieldSpec("target_version", "text", "Release tag to deploy, e.g. v2.41.0")
    assert _sheet().value(spec) == "v0.18.3"  # not checkout-api's v2.40.3


def test_next_release_of_a_candidate_is_its_release() -> None:
    assert next_release(["v5.2.0-rc.1", "v5.1.4"]) == "v5.2.0"
    assert next_release(["v1.9.0", "v1.8.7"]) == "v1.9.1"
    assert next_release(["main", "none"]) is None


def test_team_slug_is_the_owner_of_the_service_not_the_callers_team() -> None:
    sheet = _sheet()
    field = MemoryField(name="team_slug", namespace="oncall", type="text")
    assert own_value(field, sheet) == "payments-core"


def test_team_slug_without_a_service_is_the_callers_team() -> None:
    records = DataRecords([Collection("engineers", ENGINEERS)])
    sheet = SheetBuilder("oncall:who", "Engineers ask who is on call.", records)
    sheet.hold(ENGINEERS[0])
    field = MemoryField(name="team_slug", namespace="oncall", type="text")
    assert own_value(field, sheet) == "discovery"


def _context(case: Path) -> str:
    return yaml.safe_load(case.read_text(encoding="utf-8"))["scenario"]["simulation_context"]


def test_deploy_cases_ship_a_tag_of_their_own_service(tmp_path: Path) -> None:
    generate_offline(FORGE, ["deployments"], tmp_path)
    listed = json.loads((FORGE / "data" / "services.json").read_text(encoding="utf-8"))
    services = {s["service"]: s for s in listed}
    cases = sorted((tmp_path / "cases").rglob("*.yml"))
    deploys = [c for c in cases if c.name.startswith("deployments_") and "deploy" in c.stem]
    checked = 0
    for case in deploys:
        text = _context(case)
        service = next((s for s in services if f"The service is {s}" in text), None)
        if service is None or "target version:" not in text:
            continue
        tag = text.split("target version: ", 1)[1].split()[0]
        running = set(services[service]["environments"].values())
        assert tag not in running, (case.name, tag)
        assert tag.split(".")[0] in {v.split(".")[0] for v in running}, (case.name, tag)
        if "Open with:" in text and "Deploy v" in text:
            assert f"Deploy {tag} " in text, case.name
        checked += 1
    assert checked >= 2


PRESCRIPTIONS = (
    {"rx_number": "6104428", "drug": "Lisinopril 10 mg tablet", "status": "active"},
    {"rx_number": "6120312", "drug": "Albuterol HFA inhaler", "status": "active"},
)  # fmt: skip
EXAMPLES = [
    "I need a refill of my blood pressure pills.",
    "Refill prescription 6104428.",
    "I'm almost out of my inhaler.",
    "Refill my mom's lisinopril.",
]


def test_the_opening_example_names_the_callers_own_record() -> None:
    records = DataRecords([Collection("prescriptions", PRESCRIPTIONS)])
    inhaler = {"prescriptions": PRESCRIPTIONS[1]}
    lisinopril = {"prescriptions": PRESCRIPTIONS[0]}
    # names none of the case's records: the example naming the inhaler the caller holds,
    # never another patient's number or medicine
    said = own_example(EXAMPLES, records, inhaler, lambda _: True, EXAMPLES[0])
    assert said == "I'm almost out of my inhaler."
    # one that names the case's own record stays
    assert own_example(EXAMPLES, records, lisinopril, lambda _: True, EXAMPLES[1]) == EXAMPLES[1]
    # an example the case cannot use (`fits` refuses it) is never taken
    refused = own_example(EXAMPLES, records, inhaler, lambda s: "inhaler" not in s, EXAMPLES[0])
    assert refused == EXAMPLES[0]


BOOKINGS = (
    {"pnr": "QX7LMB", "segments": [{"from": "DEN", "to": "ORD"}, {"from": "ORD", "to": "BOS"}]},
    {"pnr": "ZN2KWD", "segments": [{"from": "JFK", "to": "LIS"}]},
)  # fmt: skip
REPORT = FieldSpec(
    "report_id", "text", "Baggage report reference, airport code + SK + five digits (BOSSK12345)."
)


def _report_for(booking: dict) -> str:
    sheet = SheetBuilder("baggage:change_delivery", "Passengers.", DataRecords(
        [Collection("bookings", BOOKINGS)]
    ))  # fmt: skip
    sheet.hold(booking, "Lena Vogel")
    return str(sheet.value(REPORT))


def test_a_reference_that_opens_with_a_code_of_the_data_opens_with_the_cases_own() -> None:
    # a Boston reference for a trip that ends in Lisbon is no report of hers
    lisbon = _report_for(BOOKINGS[1])
    assert lisbon.startswith("LISSK") and len(lisbon) == len("LISSK12345"), lisbon
    # a trip through Boston keeps the example's code
    assert _report_for(BOOKINGS[0]).startswith("BOSSK")
