"""Values in the project's own forms: an id in the shape the definitions give it, a place
the user names is a real one, never a test target."""

from __future__ import annotations

import csv
import datetime as dt
import random
import re
from pathlib import Path

import yaml
from skill_model_fixtures import generate_offline

from agentflows.drafting.offline._mantle_sandbox import target_fields
from evalcore.definitions import load_project
from evalcore.testdata import (
    Collection,
    DataRecords,
    FieldSpec,
    record_limits,
    spoken_value,
    typed_value,
    within,
)
from evalcore.testdata._sheet import described_shape
from evalcore.testdata._values import draw_day, written_day

CORPUS = Path(__file__).parent / "data" / "corpus"


def test_a_reference_of_letters_and_digits_keeps_the_examples_letters() -> None:
    spec = FieldSpec(
        "report_id",
        "text",
        "Baggage report reference, airport code + SK + five digits (BOSSK12345).",
    )
    for seed in range(5):
        value = typed_value(spec, random.Random(seed))
        assert re.fullmatch(r"BOSSK\d{5}", value), value  # never the five digits alone
    pin = FieldSpec("door_pin", "text", "Four-digit PIN for the door.")
    assert re.fullmatch(r"\d{4}", typed_value(pin, random.Random(3)))  # digits stay digits


def test_a_token_id_takes_its_prefix_and_length() -> None:
    description = "Calendar event id from list_events (evt_ followed by 12 characters)."
    value = typed_value(FieldSpec("event_id", "text", description), random.Random(7))
    assert re.fullmatch(r"evt_[a-z0-9]{12}", value), value  # never `E-48586`
    shape = described_shape(description)
    assert shape is not None and shape.fullmatch(value)
    assert not shape.fullmatch("E-48586")


def test_a_city_a_trip_goes_to_is_no_test_target() -> None:
    project = load_project(CORPUS / "northstar_exec")
    assert "travel.destination_city" not in target_fields(project, "travel")


def test_a_token_id_the_agent_lists_is_not_a_fact_the_user_knows(tmp_path: Path) -> None:
    """The calendar's events are listed by the agent (`list_events`): the user picks one
    it reads out and never quotes an id of another shape."""
    generate_offline(CORPUS / "northstar_exec", ["calendar"], tmp_path)
    contexts = [
        yaml.safe_load(path.read_text(encoding="utf-8"))["scenario"]["simulation_context"]
        for path in (tmp_path / "cases").rglob("*.yml")
    ]
    assert contexts
    for context in contexts:
        assert "event id" not in context, context


def _calls(case: dict, tool: str) -> list[dict]:
    checks = case["scenario"]["goals"].get("assertions", [])
    return [
        c["tool_executed"].get("arguments", {})
        for c in checks
        if isinstance(c, dict) and c.get("tool_executed", {}).get("tool_name") == tool
    ]


def test_a_number_stays_within_the_limits_of_the_record_it_is_for(tmp_path: Path) -> None:
    """Hours booked on an instrument stay within its row's `min_hours`/`max_hours` (a
    confocal takes 1 to 8 hours, a cryo-EM 24 to 48)."""
    root = CORPUS / "tidewater_core"
    rows = {r["instrument"]: r for r in csv.DictReader((root / "data/instruments.csv").open())}
    generate_offline(root, ["instrument_time"], tmp_path)
    booked = [
        args
        for path in (tmp_path / "cases").rglob("*.yml")
        for args in _calls(yaml.safe_load(path.read_text(encoding="utf-8")), "reserve_instrument")
        if "hours" in args and args.get("instrument") in rows
    ]
    assert len(booked) >= 3
    for args in booked:
        row = rows[args["instrument"]]
        assert float(row["min_hours"]) <= args["hours"] <= float(row["max_hours"]), args


def test_limits_are_read_from_the_named_record_only() -> None:
    records = DataRecords(
        [
            Collection(
                "instruments",
                (
                    {"instrument": "confocal", "min_hours": "1", "max_hours": "8"},
                    {"instrument": "cryo_em", "min_hours": "24", "max_hours": "48"},
                ),
            )
        ]
    )
    assert record_limits(records, "hours", ["confocal"]) == (1.0, 8.0)
    assert record_limits(records, "hours", ["nothing named"]) == (None, None)
    assert within(11, 1.0, 8.0) == 3  # the same draw maps to the same number inside
    assert within(5, 1.0, 8.0) == 5
    assert within(3, 24.0, 48.0) == 28


def test_a_span_ends_within_the_days_its_description_allows() -> None:
    """ "At most 7 days after valid_from" with a time of day: the end's day is under seven
    days after the start's, so no hour of it runs past the limit (never 7 days 7 hours)."""
    spec = FieldSpec(
        "valid_until",
        "text",
        "When it stops working, MM/DD/YYYY HH:MM, at most 7 days after valid_from.",
    )
    start = dt.date(2026, 12, 8)
    gaps = {(draw_day(spec, random.Random(seed), after=start) - start).days for seed in range(60)}
    assert gaps and max(gaps) < 7 and min(gaps) >= 1, gaps
    plain = FieldSpec("return_date", "text", "Return date, MM/DD/YYYY.")
    assert (
        max((draw_day(plain, random.Random(s), after=start) - start).days for s in range(60)) == 7
    )


def test_a_quantity_is_said_with_its_unit() -> None:
    delay = FieldSpec("delay_minutes", "int", "Current delay of the original flight in minutes.")
    assert spoken_value(24, delay) == "24 minutes"  # never a bare "24"
    assert spoken_value(1, FieldSpec("hours", "int", "Hours of instrument time.")) == "1 hour"
    inside = FieldSpec("indoor_temp_f", "int", "Thermostat reading inside the unit in °F.")
    assert spoken_value(58, inside) == "58°F"
    assert spoken_value(9, FieldSpec("samples", "int", "How many samples.")) == "9"
    assert spoken_value(82.4, FieldSpec("refund_amount", "float", "Refund.")) == "$82.40"


def test_an_address_asked_with_its_postcode_has_one() -> None:
    spec = FieldSpec(
        "delivery_address",
        "text",
        "Where to deliver the bag in the next three days (home or hotel, with postcode).",
    )
    assert re.fullmatch(r"\d+ [A-Z][a-z]+ [A-Z][a-z]+, \d{5}", typed_value(spec, random.Random(2)))


def test_a_start_whose_example_has_a_time_is_given_with_one() -> None:
    spec = FieldSpec(
        "proposed_start",
        "text",
        "Start of the new or moved event, ISO 8601 with offset (2026-12-03T15:00-05:00).",
    )
    said = written_day(spec, dt.date(2026, 12, 8), random.Random(1))
    assert re.fullmatch(r"2026-12-08 \d\d:\d\d", said), said  # never the bare day


def test_a_number_the_agent_reads_from_its_tool_is_no_user_fact(tmp_path: Path) -> None:
    """ "Ask how late the flight is now (set delay_minutes from get_flight_status)": the
    tool's data knows the delay; a number the user makes up would contradict it."""
    generate_offline(CORPUS / "skyway_air", ["rebook_flight"], tmp_path)
    contexts = [
        yaml.safe_load(path.read_text(encoding="utf-8"))["scenario"]["simulation_context"]
        for path in (tmp_path / "cases").rglob("*delayed*.yml")
    ]
    assert contexts
    for context in contexts:
        assert "how late" not in context, context
