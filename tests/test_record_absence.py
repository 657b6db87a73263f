"""A case's facts never give the caller what their own records say they do not have.

Found on an airline's assistant by a blind reviewer: a hand-off case seeded
`project.loyalty_tier: gold` for a passenger whose booking row has no loyalty number
(`"skymiles": null`), which also moves her to the priority queue; a details-up-front case
gave the passenger a report reference drawn to the field's shape for a bag whose row says
`"report": null`; and the change-delivery case, whose path asks for that reference, passed
an invented one off as hers without saying so.
"""

from __future__ import annotations

from pathlib import Path

from agentflows.drafting.offline._mantle_branch_phrases import scoping_values
from agentflows.drafting.offline._mantle_script import build_script
from agentflows.planning import CHAINED, plan_source
from evalcore.definitions import load_project
from evalcore.testdata import Collection, DataRecords, FieldSpec, SheetBuilder
from evalcore.testdata._absent import recorded

CORPUS = Path(__file__).parent / "data" / "corpus"

BOOKINGS = Collection(
    "bookings",
    (
        {
            "pnr": "AB12CD",
            "passengers": [
                {"id": "P1", "first": "Ana", "last": "Ruiz", "milesclub": "MI0012345"},
                {"id": "P2", "first": "Tom", "last": "Ruiz", "milesclub": None},
            ],
            "bags": ["BG100200"],
        },
        {
            "pnr": "EF34GH",
            "passengers": [{"id": "P1", "first": "Lia", "last": "Berg", "milesclub": None}],
            "bags": ["BG100300", "BG100400"],
        },
    ),
)
BAGS = Collection(
    "bags",
    (
        {"tag": "BG100200", "status": "checked"},
        {"tag": "BG100300", "status": "missing", "claim": None},
        {"tag": "BG100400", "status": "delivered", "claim": "CL-2231"},
    ),
)
DATA = DataRecords([BOOKINGS, BAGS])
TIER = FieldSpec(
    "tier", "categorical", "MilesClub status of the user.", ("none", "gold", "platinum")
)


def test_the_callers_own_row_decides_a_membership_not_another_passengers() -> None:
    ana, lia = BOOKINGS.records
    said = recorded(DATA, [ana], "Ana Ruiz", "tier", "MilesClub status")
    assert said is not None and said.held
    # Tom's row on the same booking has no number: it is not the caller's
    said = recorded(DATA, [ana], "Tom Ruiz", "tier", "MilesClub status")
    assert said is not None and not said.held
    # a field whose thing no row of the data has says nothing
    assert recorded(DATA, [lia], "Lia Berg", "seat_row") is None
    # nor does a flag: `lounge: false` is a yes-or-no, not a thing held or lacked
    flagged = Collection("members", ({"first": "Lia", "last": "Berg", "lounge": False},))
    assert recorded(DataRecords([flagged]), flagged.records, "Lia Berg", "lounge") is None


def test_a_reference_the_linked_row_leaves_out_or_nulls_is_none() -> None:
    ana, lia = BOOKINGS.records
    # Ana's bag's row has no `claim` key, though the bag file has it: no claim
    said = recorded(DATA, [ana], "Ana Ruiz", "claim_id")
    assert said is not None and not said.held and said.where.startswith("bags")
    # one of Lia's bags has a claim: she holds one
    said = recorded(DATA, [lia], "Lia Berg", "claim_id")
    assert said is not None and said.held


def test_a_seeded_choice_follows_the_membership_the_row_records() -> None:
    for key in (f"case-{n}" for n in range(12)):
        lia = SheetBuilder(key, "passengers", DATA)
        lia.hold(BOOKINGS.records[1], "Lia Berg")
        assert lia.value(TIER) == "none", key
        ana = SheetBuilder(key, "passengers", DATA)
        ana.hold(BOOKINGS.records[0], "Ana Ruiz")
        assert ana.value(TIER) in ("gold", "platinum"), key


def test_no_skyway_case_seeds_a_tier_its_passenger_has_no_loyalty_number_for() -> None:
    project = load_project(CORPUS / "skyway_air")
    seen = set()
    for skill in ("agent_handoff", "baggage", "rebook_flight"):
        plan = plan_source(project, "mantle", skill, None)
        for behavior in plan.behaviors:
            for slot in range(4):  # each slot deals another booking
                script = build_script(project, behavior, slot=slot)
                tier = script.seeds.get("project.loyalty_tier")
                row = script.customer.record
                if tier is None or script.customer.within is None or row is None:
                    continue
                unlisted = row.get("skymiles") is None  # the caller's row leaves a null out
                seen.add(unlisted)
                assert (tier == "none") == unlisted, (behavior.id, slot, tier)
    assert seen == {True, False}  # both kinds of passenger were seeded


def test_no_skyway_case_invents_a_report_the_change_of_delivery_files_one_first() -> None:
    project = load_project(CORPUS / "skyway_air")
    plan = plan_source(project, "mantle", "baggage", None)
    chained = 0
    for slot, behavior in enumerate(plan.behaviors):
        script = build_script(project, behavior, slot=slot)
        facts = {f.field: f.value for f in script.sheet.facts}
        # no bag row of the data holds a report: none is a fact of any case
        assert "baggage.report_id" not in facts, behavior.id
        if behavior.id.endswith(":change_delivery"):  # its path asks for the reference
            chained += 1
            # the case files the missing-bag report first, which writes the reference
            assert behavior.facts[CHAINED]["id"] == "baggage.report_id"
            assert not script.sheet.misfits, script.sheet.misfits
    assert chained == 1


def test_a_detour_to_what_the_caller_has_none_of_needs_review() -> None:
    # the rebooking digression detours to the baggage skill ("the handle on my bag is
    # broken"); the only passenger whose flight is cancelled checked no bag
    project = load_project(CORPUS / "skyway_air")
    plan = plan_source(project, "mantle", "rebook_flight", None)
    slot, behavior = next(
        (n, b) for n, b in enumerate(plan.behaviors) if b.id.endswith(":digression")
    )
    script = build_script(project, behavior, slot=slot)
    booking = script.customer.within
    assert booking is not None
    if booking["bags"]:
        assert not any("detour" in m for m in script.sheet.misfits)
    else:
        assert any("bags: []" in m and "baggage" in m for m in script.sheet.misfits)
    # the mode the facts give is the one the user's line asks for (a broken handle: the
    # damage report; where the bag is: tracking it)
    facts = {f.field: f.value for f in script.sheet.facts}
    line = str(behavior.facts["digression"]["line"]).lower()
    wanted = "report damaged" if "broken" in line else "track"
    assert facts.get("baggage.mode") in (None, wanted), (line, facts)


def test_a_given_value_plays_the_choice_whose_prose_alone_asks_for_it() -> None:
    project = load_project(CORPUS / "skyway_air")
    assert project.mantle is not None
    baggage = project.mantle.skills["baggage"]
    said = scoping_values(baggage, {"baggage.damage_type": "handle"})
    assert said == {"baggage.mode": "report_damaged"}
    # a choice already given is kept; a field no `if:` scopes fixes nothing
    assert scoping_values(baggage, {"baggage.mode": "track", "baggage.damage_type": "x"}) == {}
    assert scoping_values(baggage, {"baggage.bag_tag": "SK482177"}) == {}
