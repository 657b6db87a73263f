"""A case's caller is one whose records fit the branch the case plays.

Found on an airline's assistant: the "cancelled" case seeded a passenger whose flight the
flight file lists as delayed, the "delayed" case one whose flight is cancelled, the
"voluntary" case a basic fare the prose says cannot be changed, baggage cases a booking with
no bags; on a residents' assistant, "turn on autopay" for a resident whose autopay is on;
on an executive assistant's, an international trip for an executive whose passport expires
within the six months past the return date the prose requires, so the trip is handed off.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import yaml
from skill_model_fixtures import generate_offline

from agentflows.drafting.offline._mantle_caller_fit import UNFIT, branch_prose, caller_fit
from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import plan_source
from evalcore.definitions import SourceRef, ToolDef, load_project
from evalcore.definitions.skill_model import summed_writes
from evalcore.testdata import (
    Collection,
    DataRecords,
    branch_facts,
    branch_fit,
    by_status,
    callers_in,
    expires_short,
    lacks,
    moot,
    ruled_out,
    status_fit,
    total,
)

SAILINGS = Collection(
    "sailings",
    (
        {"ref": "KT4QZ", "lead": "T1", "cabin_class": "upper", "cars": ["CAR-7741"],
         "legs": [{"crossing": "FX2041", "day": "2026-05-02"}],
         "travellers": [{"id": "T1", "first": "Ines", "last": "Marchetti"}]},
        {"ref": "WB7RN", "lead": "T1", "cabin_class": "economy", "cars": [],
         "legs": [{"crossing": "FX3310", "day": "2026-05-03"}],
         "travellers": [{"id": "T1", "first": "Oskar", "last": "Lindahl"}]},
        {"ref": "PL2MA", "lead": "T1", "cabin_class": "upper", "cars": ["CAR-1200"],
         "legs": [{"crossing": "FX0907", "day": "2026-05-03"}],
         "travellers": [{"id": "T1", "first": "Rosa", "last": "Vidal"}]},
    ),
)  # fmt: skip
CROSSINGS = Collection(
    "crossings",
    (
        {"crossing": "FX2041", "status": "delayed", "new_departure": "11:40"},
        {"crossing": "FX3310", "status": "cancelled", "cause": "storm"},
        {"crossing": "FX0907", "status": "on_time"},
    ),
)
RECORDS = DataRecords([SAILINGS, CROSSINGS])
CHOICES = {"cancelled", "delayed", "voluntary"}


def _caller(first: str):
    return next(c for c in callers_in(RECORDS) if c.name == first)


def test_a_caller_whose_linked_record_holds_the_branchs_value_fits_it() -> None:
    ines, oskar, rosa = _caller("Ines"), _caller("Oskar"), _caller("Rosa")
    cancelled = {"cancelled"}
    # Oskar's leg's crossing is cancelled in the crossings file: his records fit the branch
    assert branch_fit(RECORDS, oskar, cancelled, CHOICES - cancelled) == 1
    # Ines's crossing is delayed, another branch's value: a correct agent goes that way
    assert branch_fit(RECORDS, ines, cancelled, CHOICES - cancelled) == -1
    assert branch_fit(RECORDS, rosa, cancelled, CHOICES - cancelled) == 0
    # the fact the branch rests on, for the persona: the crossing and its status
    [(label, said)] = branch_facts(RECORDS, oskar, cancelled)
    assert label == "your crossing"
    assert said.startswith("FX3310, cancelled") and "storm" in said
    assert branch_facts(RECORDS, ines, cancelled) == []


def test_a_caller_the_branch_rules_out_or_who_lacks_what_it_acts_on_is_unfit() -> None:
    ines, oskar = _caller("Ines"), _caller("Oskar")
    prose = ["Upper cabins change for free and economy cabins cannot be changed."]
    assert ruled_out(oskar, prose) == "cabin_class economy"
    assert ruled_out(ines, prose) is None
    # a value the sentence names with another key's word is not ruled out
    assert ruled_out(oskar, ["Economy meals cannot be refunded."]) is None
    # a skill about cars has nothing to act on for a booking with no cars
    assert lacks(oskar, {"car", "plate"}) == "cars"
    assert lacks(ines, {"car", "plate"}) is None
    assert lacks(oskar, {"cabin"}) is None


def test_a_request_to_switch_on_what_is_already_on_is_moot() -> None:
    on = _caller("Ines")
    resident = Collection(
        "residents",
        ({"resident_id": "R-1", "first_name": "Jo", "last_name": "Ng", "phone": "+15550101",
          "autopay": True},),
    )  # fmt: skip
    [jo] = callers_in(DataRecords([resident]))
    assert moot(jo, ["turn on autopay"]) == "autopay"
    assert moot(jo, ["turn off autopay"]) is None
    assert moot(on, ["turn on autopay"]) is None


def test_a_record_date_short_of_the_months_the_prose_requires_is_unfit() -> None:
    people = Collection(
        "staff",
        ({"staff_id": "S-1", "first_name": "Ada", "last_name": "Ro", "phone": "+15550101",
          "badge_expiry": "2027-03-01"},
         {"staff_id": "S-2", "first_name": "Bo", "last_name": "Li", "phone": "+15550102",
          "badge_expiry": "2027-09-30"}),
    )  # fmt: skip
    ada, bo = callers_in(DataRecords([people]))
    prose = ["Check badge_expiry: it must be valid six months past the visit date."]
    today = date(2026, 12, 6)
    # the visit comes after today, so a badge ending before June 2027 fails the check
    assert expires_short(ada, prose, today) == "badge_expiry 2027-03-01"
    assert expires_short(bo, prose, today) is None
    two = ["Check badge_expiry: it must be valid 2 months past it."]
    assert expires_short(ada, two, today) is None
    # a sentence that names no date of the record, or no months past, rules nothing out
    assert expires_short(ada, ["It must be valid six months past the visit."], today) is None
    assert expires_short(ada, ["Check badge_expiry before the visit."], today) is None


CORPUS = Path(__file__).parent / "data" / "corpus"


def _flight_status(root: Path) -> dict[str, str]:
    flights = json.loads((root / "data" / "flights.json").read_text())
    return {f["flight"]: f["status"] for f in flights}


def test_the_drafted_case_seeds_a_passenger_whose_flight_fits_its_branch() -> None:
    root = CORPUS / "skyway_air"
    project = load_project(root)
    status = _flight_status(root)
    plan = plan_source(project, "mantle", "rebook_flight", None)
    for slot, behavior in enumerate(plan.behaviors):
        wanted = (behavior.facts.get("values") or {}).get("rebook_flight.disruption_type")
        if behavior.facts.get("account") or wanted not in ("cancelled", "delayed", "voluntary"):
            continue
        script = build_script(project, behavior, slot=slot)
        booking = script.customer.within
        assert booking is not None
        flights = {s["flight"]: status.get(s["flight"]) for s in booking["segments"]}
        if wanted in ("cancelled", "delayed"):
            assert wanted in flights.values(), (behavior.id, flights)
            flight = next(f for f, s in flights.items() if s == wanted)
            said = {f.label: f.value for f in script.sheet.facts}
            assert said["your flight"].startswith(f"{flight}, {wanted}")
        else:  # "basic fares cannot be changed": never a basic fare
            assert booking["fare_family"] != "basic"
            # a flight the change can move, not only one another branch is about (a
            # voluntary change of a cancelled flight is a cancellation)
            assert set(flights.values()) - {"cancelled", "delayed"}, (behavior.id, flights)


def test_no_case_asserts_the_flight_the_passenger_picks_from_the_search(tmp_path: Path) -> None:
    generate_offline(CORPUS / "skyway_air", ["rebook_flight"], tmp_path)
    written = sorted((tmp_path / "cases").rglob("rebook_flight_*happy_path.yml"))
    assert written
    for path in written:
        case = yaml.safe_load(path.read_text())["scenario"]
        # the alternatives are search_alternatives' answer: the user picks one offered
        assert "pick the first one" in case["simulation_context"]
        for check in case["goals"]["assertions"]:
            arguments = (check.get("tool_executed") or {}).get("arguments") or {}
            assert "new_flight" not in arguments, path.name


def test_a_baggage_case_never_seeds_a_booking_without_bags() -> None:
    root = CORPUS / "skyway_air"
    project = load_project(root)
    plan = plan_source(project, "mantle", "baggage", None)
    for slot, behavior in enumerate(plan.behaviors):
        if behavior.facts.get("account"):
            continue
        booking = build_script(project, behavior, slot=slot).customer.within
        assert booking is not None and booking["bags"], behavior.id


PARCELS = Collection(
    "parcels",
    (
        {"parcel": "PX-1001", "ref": "KT4QZ", "status": "delivered"},
        {"parcel": "PX-1002", "ref": "WB7RN", "status": "in_transit"},
        {"parcel": "PX-1003", "ref": "WB7RN", "status": "lost"},
    ),
)
WITH_PARCELS = DataRecords([SAILINGS, CROSSINGS, PARCELS])


def test_a_thing_whose_state_the_branch_presupposes_fits_it() -> None:
    delivered, in_transit, lost = PARCELS.records
    # a damage report is about a thing that reached its owner; tracking one that did not
    assert status_fit(delivered, {"report_damaged"}) == 1
    assert status_fit(in_transit, {"report_damaged"}) == -1
    assert status_fit(delivered, {"track"}) == -1
    assert status_fit(in_transit, {"track"}) == 1
    # a status the branch's value names beats one it only presupposes
    assert status_fit(lost, {"report_lost"}) == 2
    assert status_fit(in_transit, {"voluntary"}) == 0
    # of one booking's things, the one the branch is about comes first
    assert by_status(WITH_PARCELS, ["PX-1001", "PX-1002"], {"track"}) == ["PX-1002", "PX-1001"]
    assert by_status(WITH_PARCELS, ["PX-1002", "PX-1003"], {"report_lost"})[0] == "PX-1003"
    # Ines's only parcel was delivered: she fits a damage report, Oskar (none delivered) not
    others = {"track", "report_lost"}
    assert branch_fit(WITH_PARCELS, _caller("Ines"), {"report_damaged"}, others) == 1
    assert branch_fit(WITH_PARCELS, _caller("Oskar"), {"report_damaged"}, others) == -1
    assert branch_fit(WITH_PARCELS, _caller("Oskar"), {"report_lost"}, {"track"}) == 2


def test_a_baggage_case_names_a_bag_whose_scan_status_fits_its_mode() -> None:
    root = CORPUS / "skyway_air"
    project = load_project(root)
    tags = {
        t["tag"]: t["status"] for t in json.loads((root / "data" / "bag_tags.json").read_text())
    }
    plan = plan_source(project, "mantle", "baggage", None)
    seen = set()
    for slot, behavior in enumerate(plan.behaviors):
        mode = (behavior.facts.get("values") or {}).get("baggage.mode")
        if behavior.facts.get("account") or mode not in (
            "track",
            "report_missing",
            "report_damaged",
        ):
            continue
        said = {f.label: f.value for f in build_script(project, behavior, slot=slot).sheet.facts}
        status = tags[said["bag tag"]]
        if mode == "report_damaged":  # only a bag that came off the belt arrived damaged
            assert status == "delivered", (behavior.id, said["bag tag"])
        elif mode == "report_missing":
            assert status == "missing", (behavior.id, said["bag tag"])
        else:  # nobody tracks a bag they already have
            assert status != "delivered", (behavior.id, said["bag tag"])
        seen.add(mode)
    assert seen == {"track", "report_missing", "report_damaged"}


def test_the_autopay_case_is_for_a_resident_whose_autopay_is_off() -> None:
    project = load_project(CORPUS / "oakline_residents")
    plan = plan_source(project, "mantle", "rent_account", None)
    behavior = next(b for b in plan.behaviors if b.id == "rent_account:autopay")
    for slot in range(4):
        script = build_script(project, behavior, slot=slot)
        resident = script.seeds.get("project.resident_id")
        rows = yaml.safe_load(
            (CORPUS / "oakline_residents" / "data" / "residents.json").read_text()
        )
        row = next(r for r in rows if r["resident_id"] == resident)
        assert row["autopay"] is False, (slot, resident)


def test_the_branch_prose_holds_only_the_cases_branch() -> None:
    project = load_project(CORPUS / "skyway_air")
    assert project.mantle is not None
    skill = project.mantle.skills["rebook_flight"]
    voluntary = " ".join(branch_prose(skill, {"rebook_flight.disruption_type": "voluntary"}))
    cancelled = " ".join(branch_prose(skill, {"rebook_flight.disruption_type": "cancelled"}))
    assert "cannot be changed" in voluntary and "cannot be changed" not in cancelled
    assert UNFIT < 0 and caller_fit is not None


LEDGER_TOOL = """\
@tool(description="Balance of the account.")
async def get_balance(member_id: str, context: ToolContext = None) -> ToolResult:
    rows = [r for r in load() if r["member_id"] == member_id]
    owed = round(sum(r["charge"] for r in rows), 2)
    context.memory.set("amount_owed", owed)
    context.memory.set("row_count", len(rows))
    return ToolResult(llm_response={"owed": owed})
"""


def test_a_tools_summed_write_and_a_callers_rows_that_add_up_to_nothing(tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(LEDGER_TOOL)
    project = load_project(CORPUS / "oakline_residents")
    tool = ToolDef(name="get_balance", source=SourceRef(file=str(tmp_path / "tools.py")))
    assert summed_writes(project, tool) == {"amount_owed": "charge"}
    members = Collection(
        "members",
        ({"member_id": "M-101", "first_name": "Ada", "last_name": "Ng", "phone": "+15550101"},
         {"member_id": "M-102", "first_name": "Bo", "last_name": "Li", "phone": "+15550102"}),
    )  # fmt: skip
    charges = Collection(
        "charges",
        ({"member_id": "M-101", "charge": 40.0}, {"member_id": "M-101", "charge": -40.0},
         {"member_id": "M-102", "charge": 25.5}),
    )  # fmt: skip
    records = DataRecords([members, charges])
    ada, bo = callers_in(records)
    assert total(records, ada, "charge") == 0
    assert total(records, bo, "charge") == 25.5
    assert total(records, bo, "fee") is None


def test_the_payment_plan_case_is_for_a_resident_who_owes_something() -> None:
    root = CORPUS / "oakline_residents"
    project = load_project(root)
    ledger = json.loads((root / "data" / "ledger.json").read_text())
    plan = plan_source(project, "mantle", "rent_account", None)
    behavior = next(b for b in plan.behaviors if b.id == "rent_account:payment_plan")
    for slot in range(4):
        resident = build_script(project, behavior, slot=slot).seeds["project.resident_id"]
        owed = sum(r["amount"] for r in ledger if r["resident_id"] == resident)
        assert owed > 0, (slot, resident)


def test_an_international_trip_is_for_an_executive_whose_passport_lets_it_go_ahead(
    monkeypatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796515200")  # 2026-12-06
    root = CORPUS / "northstar_exec"
    project = load_project(root)
    rows = json.loads((root / "data" / "executives.json").read_text())
    expiry = {r["exec_id"]: date.fromisoformat(r["passport_expiry"]) for r in rows}
    plan = plan_source(project, "mantle", "travel", None)
    checked = 0
    for slot, behavior in enumerate(plan.behaviors):
        values = behavior.facts.get("values") or {}
        if values.get("travel.trip_type") != "international" or behavior.facts.get("account"):
            continue
        script = build_script(project, behavior, slot=slot)
        exec_id = script.seeds.get("project.exec_id")
        # valid six months past any return after 2026-12-06: on or after 2027-06-06
        assert expiry[exec_id] >= date(2027, 6, 6), (behavior.id, exec_id)
        checked += 1
    assert checked


def test_a_city_the_case_travels_to_is_never_the_callers_own(monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796515200")  # 2026-12-06
    root = CORPUS / "northstar_exec"
    project = load_project(root)
    rows = json.loads((root / "data" / "executives.json").read_text())
    home = {r["exec_id"]: r["home_office"] for r in rows}
    plan = plan_source(project, "mantle", "travel", None)
    checked = 0
    for slot, behavior in enumerate(plan.behaviors):
        script = build_script(project, behavior, slot=slot)
        said = {f.label: f.value for f in script.sheet.facts}
        city = said.get("destination city")
        if city is None:
            continue
        # the field's examples name two cities, one a home office: the other one is said
        assert city != home[script.seeds["project.exec_id"]], (behavior.id, city)
        checked += 1
    assert checked >= 2


def test_a_skill_that_reads_times_in_the_persons_zone_gets_their_zone_seeded() -> None:
    """ "Times are in @memory.project.time_zone": the calendar's cases seed the signed-in
    executive's own zone from their record (never another's, never an invented one); a
    skill whose prose reads no zone seeds none."""
    root = CORPUS / "northstar_exec"
    project = load_project(root)
    people = {r["exec_id"]: r for r in json.loads((root / "data" / "executives.json").read_text())}
    for skill, reads in (("calendar", True), ("daily_briefing", False)):
        plan = plan_source(project, "mantle", skill, None)
        for slot, behavior in enumerate(plan.behaviors):
            seeds = build_script(project, behavior, slot=slot).seeds
            if not reads:
                assert "project.time_zone" not in seeds, behavior.id
                continue
            who = people[seeds["project.exec_id"]]
            assert seeds["project.time_zone"] == who["time_zone"], behavior.id


def test_the_user_picks_a_slot_the_agent_proposes_only_on_the_path_that_proposes() -> None:
    """ "propose the first two slots that work … Set proposed_start from the slot they pick":
    on the schedule path the user takes the first proposed slot and dictates no start (a
    fixed day cut across the proposal and fell on a Sunday); the focus path's block is the
    user's own, so it keeps its start."""
    project = load_project(CORPUS / "northstar_exec")
    plan = plan_source(project, "mantle", "calendar", None)
    seen = set()
    for slot, behavior in enumerate(plan.behaviors):
        script = build_script(project, behavior, slot=slot)
        mode = script.walk.memory.get("calendar.mode")
        starts = [f for f in script.sheet.facts if f.field == "calendar.proposed_start"]
        picks = any("pick the first one it offers" in n for n in script.context.notes)
        if mode == "schedule":
            assert picks and not starts, behavior.id
            seen.add(mode)
        elif mode == "focus":
            assert starts and not picks, behavior.id
            seen.add(mode)
    assert seen == {"schedule", "focus"}
