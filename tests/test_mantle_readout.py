"""A skill whose tool reads the caller's records and whose prose says to present them is
judged on what it reads out: an agent that calls the tool and then says nothing useful, or
made-up values, fails the criterion naming the caller's own records."""

from __future__ import annotations

from agentflows.drafting.offline._mantle_readout import readout_criterion
from evalcore.definitions import Skill
from evalcore.testdata import Caller, Collection, DataRecords

BODY = """Help the household review its meters. Do not invent readings.

Call list_meters and present each meter clearly: meter kind, meter number and last reading.
"""
METERS = (
    {"household_id": "H1", "meter_kind": "Water", "meter_num": "M-1", "last_reading": "120"},
    {"household_id": "H2", "meter_kind": "Gas", "meter_num": "M-2", "last_reading": "80"},
    {"household_id": "H1", "meter_kind": "Power", "meter_num": "M-3", "last_reading": "9"},
)


def _records(**identity: str) -> DataRecords:
    return DataRecords(
        collections=[Collection("meters", METERS)],
        readers={"meters": frozenset({"view_meters"})},
        identity=identity,
    )


def test_the_callers_own_records_are_named_with_the_fields_the_prose_presents() -> None:
    skill = Skill(id="view_meters", path="skills/view_meters/skill.md", body=BODY)
    caller = Caller("Ana", "+15550100", {"household_id": "H1"})
    rule = readout_criterion(skill, _records(), caller)
    assert rule == (
        "The agent tells the customer their meters: Water (meter num M-1, last reading 120),"
        " Power (meter num M-3, last reading 9)"
    )
    # a built-in caller: the identity the project seeds every session with says whose
    anonymous = Caller("Ana", "+15550100", {})
    assert "Gas (meter num M-2" in (
        readout_criterion(skill, _records(household_id="H2"), anonymous) or ""
    )


def test_no_criterion_where_the_prose_presents_nothing_or_the_file_is_not_read() -> None:
    caller = Caller("Ana", "+15550100", {"household_id": "H1"})
    quiet = Skill(id="view_meters", path="skills/view_meters/skill.md", body="Call list_meters.")
    assert readout_criterion(quiet, _records(), caller) is None
    other = Skill(id="pay_bill", path="skills/pay_bill/skill.md", body=BODY)
    assert readout_criterion(other, _records(), caller) is None
