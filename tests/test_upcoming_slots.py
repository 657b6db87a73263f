"""A slot the user acts on as still to come (a shift to swap, an appointment to move) is one
dated on or after the run day (the generation day): a case never picks one already past
while the data holds another, and its caller is one who has such a slot; a dated record
with no time of day (a ledger line, a bill) is a past fact and is left alone."""

from __future__ import annotations

import random

import pytest

from evalcore.testdata import Collection, DataRecords, SheetBuilder
from evalcore.testdata._slots import past_slot

RUN_DAY = "1796601600"  # 2026-12-07
PEOPLE = (
    {"employee_id": "E1", "first_name": "Ana"},
    {"employee_id": "E2", "first_name": "Ben"},
)
SHIFTS = (
    {"shift_id": "S-1", "date": "2026-12-05", "start": "11:00", "employee_id": "E2"},
    {"shift_id": "S-2", "date": "2026-12-06", "start": "12:00", "employee_id": "E1"},
    {"shift_id": "S-3", "date": "2026-12-07", "start": "15:00", "employee_id": "E2"},
)


@pytest.fixture(autouse=True)
def _run_day(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", RUN_DAY)


def _records() -> DataRecords:
    return DataRecords(
        [Collection("employees", PEOPLE), Collection("shifts", SHIFTS)],
        readers={"shifts": frozenset({"swap"})},
    )


def test_a_slot_before_the_run_day_is_not_picked() -> None:
    records = _records()
    shifts = records.collections[1]
    for slot in range(4):
        picked = records.pick(shifts, random.Random(slot), slot=slot, linked={"employee_id": "E2"})
        assert picked["shift_id"] == "S-3"


def test_the_caller_is_one_with_a_slot_still_to_come() -> None:
    records = _records()
    assert records.owns_all(PEOPLE[1], "swap")
    assert not records.owns_all(PEOPLE[0], "swap")


def test_only_past_slots_are_still_picked_when_none_is_ahead(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")  # 2027-01-01
    records = _records()
    assert records.owns_all(PEOPLE[0], "swap")
    picked = records.pick(records.collections[1], random.Random(0), linked={"employee_id": "E1"})
    assert picked["shift_id"] == "S-2"


def test_a_dated_record_without_a_time_of_day_is_not_a_slot() -> None:
    assert not past_slot({"date": "2026-11-01", "amount": 1200})
    assert not past_slot({"date": "11/01/2026", "kind": "payment"})
    assert past_slot({"date": "12/06/2026", "dep": "08:10"})


def test_a_case_left_with_a_past_slot_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1798761600")  # 2027-01-01: every shift is past
    records = _records()
    sheet = SheetBuilder("swap:give_away", "Staff trade shifts.", records)
    sheet.hold(PEOPLE[0])
    assert sheet.record_for(records.collections[1])["shift_id"] == "S-2"
    assert any("on or after the run day" in m for m in sheet.sheet.misfits)


def test_a_slot_still_to_come_leaves_no_note() -> None:
    records = _records()
    sheet = SheetBuilder("swap:give_away", "Staff trade shifts.", records)
    sheet.hold(PEOPLE[1])
    assert sheet.record_for(records.collections[1])["shift_id"] == "S-3"
    assert not sheet.sheet.misfits
