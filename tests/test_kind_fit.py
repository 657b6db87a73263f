"""A place a case gives fits the kind of trip it plays (domestic, international), by the
region the project's records place it in beside the caller's own."""

from __future__ import annotations

import json
from pathlib import Path

from agentflows.drafting import DraftContext
from agentflows.drafting.offline._mantle import draft_mantle
from agentflows.planning._mantle import plan_mantle
from evalcore.definitions import load_project
from evalcore.simulator import parse_fact_context
from evalcore.testdata import Collection, DataRecords, examples_of, kind_fit, kind_of, kind_unfit

_KIND = "domestic for US cities, international otherwise."
_PEOPLE = DataRecords(
    [
        Collection(
            "people",
            (
                {"id": "P1", "office": "New York", "time_zone": "America/New_York"},
                {"id": "P2", "office": "London", "time_zone": "Europe/London"},
                {"id": "P3", "office": "Chicago", "time_zone": "America/Chicago"},
            ),
        )
    ]
)
_NEW_YORK, _LONDON, _CHICAGO = _PEOPLE.collections[0].records
_EXAMPLES = examples_of("Destination city, e.g. Chicago or London.")


def test_examples_are_listed_in_order() -> None:
    assert _EXAMPLES == ["Chicago", "London"]


def test_home_kind_takes_a_place_in_the_callers_area() -> None:
    kinds = [("domestic", _KIND)]
    assert kind_fit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_NEW_YORK]) == "Chicago"
    assert kind_fit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_LONDON]) is None


def test_away_kind_takes_a_place_in_another_area() -> None:
    kinds = [("international", _KIND)]
    assert kind_fit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_NEW_YORK]) == "London"
    assert kind_fit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_LONDON]) == "Chicago"


def test_never_the_callers_own_place() -> None:
    kinds = [("domestic", _KIND)]
    assert kind_fit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_CHICAGO]) is None
    assert kind_unfit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_CHICAGO])
    assert not kind_unfit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_NEW_YORK])


def test_a_kind_that_does_not_name_the_field_decides_nothing() -> None:
    kinds = [("domestic", "domestic or international call rates.")]
    assert kind_fit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_NEW_YORK]) is None
    assert not kind_unfit("destination_city", _EXAMPLES, kinds, _PEOPLE, [_CHICAGO])


def test_records_without_a_region_decide_nothing() -> None:
    bare = DataRecords([Collection("people", ({"id": "P1", "office": "New York"},))])
    kinds = [("domestic", _KIND)]
    own = [bare.collections[0].records[0]]
    assert kind_fit("destination_city", _EXAMPLES, kinds, bare, own) is None
    assert not kind_unfit("destination_city", _EXAMPLES, kinds, bare, own)


def test_the_kind_of_a_place_already_given() -> None:
    kinds = ["domestic", "international"]
    assert kind_of("destination_city", "London", kinds, _KIND, _PEOPLE, [_NEW_YORK]) == (
        "international"
    )
    assert kind_of("destination_city", "Chicago", kinds, _KIND, _PEOPLE, [_NEW_YORK]) == "domestic"
    assert kind_of("destination_city", "Paris", kinds, _KIND, _PEOPLE, [_NEW_YORK]) is None


def test_every_travel_case_sends_the_caller_to_a_city_of_its_trip_type() -> None:
    """A domestic trip goes to a city of the caller's own area (never their own), an
    international one elsewhere, as the project's records place the cities."""
    root = Path(__file__).parent / "data" / "corpus" / "northstar_exec"
    project = load_project(root)
    people = {p["exec_id"]: p for p in json.loads((root / "data" / "executives.json").read_text())}
    area = {p["home_office"]: p["time_zone"].split("/")[0] for p in people.values()}
    seen = 0
    for behavior in plan_mantle(project, "travel", None).behaviors:
        data = draft_mantle(DraftContext(project, "mantle", behavior))
        scenario = data["scenario"]
        facts = {f.label: f.value for f in parse_fact_context(scenario["simulation_context"]).facts}
        kind = facts.get("is that a domestic trip")
        city = facts.get("destination city")
        if kind is None or city is None:
            continue
        caller = people[scenario["setup"]["initial_slots"]["project.exec_id"]]
        assert city != caller["home_office"], behavior.id
        same = area[city] == caller["time_zone"].split("/")[0]
        assert same == (kind == "domestic"), (behavior.id, caller["exec_id"], city, kind)
        seen += 1
    assert seen >= 3


def test_no_case_hangs_a_line_on_a_question_the_step_has_the_agent_work_out() -> None:
    """The trip type step says "Work it out from the city without asking": no correction,
    vague answer or detour is scripted on its question (a correct agent never asks it)."""
    project = load_project(Path(__file__).parent / "data" / "corpus" / "northstar_exec")
    hung = [
        (behavior.id, key)
        for behavior in plan_mantle(project, "travel", None).behaviors
        for key in ("correction", "ambiguity", "digression")
        if (behavior.facts.get(key) or {}).get("field") == "travel.trip_type"
    ]
    assert not hung
    ids = {behavior.id for behavior in plan_mantle(project, "travel", None).behaviors}
    assert "travel:digression" in ids  # a detour on a question the agent does ask stays
