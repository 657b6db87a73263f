"""A date the simulated user gives fits the case's time: a day for something ahead (a
pickup, a guest's arrival) comes after the generation day and after the days the case's
records hold, with a time of day where the field asks for one; a day for something past
comes before the generation day. The generation day is `SOURCE_DATE_EPOCH`'s where set.

Before, dates were drawn around a fixed day in March 2026: a refill's preferred pickup day
months in the past and before the prescription's last fill, and a guest PIN window as bare
days where the field stores `MM/DD/YYYY HH:MM`.
"""

from __future__ import annotations

import datetime as dt

import pytest

from evalcore.testdata import Collection, DataRecords, FieldSpec, SheetBuilder
from evalcore.testdata._values import reference_day

PICKUP = FieldSpec("pickup_day", "text", "The patient's preferred pickup day, MM/DD/YYYY.")
INCIDENT = FieldSpec("incident_date", "text", "When the damage happened, MM/DD/YYYY.")
FROM = FieldSpec("valid_from", "text", "When the guest PIN starts working, MM/DD/YYYY HH:MM.")
UNTIL = FieldSpec("valid_until", "text", "When it stops working, MM/DD/YYYY HH:MM.")
NEW_YEAR = "1767225600"  # 2026-01-01T00:00:00Z


def _day(text: str, form: str = "%m/%d/%Y") -> dt.date:
    return dt.datetime.strptime(text, form).date()


def test_the_generation_day_is_source_date_epochs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NEW_YEAR)
    assert reference_day() == dt.date(2026, 1, 1)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert reference_day() == dt.datetime.now(tz=dt.UTC).date()


@pytest.mark.parametrize("epoch", [NEW_YEAR, "1798761600"])  # 2026-01-01, 2027-01-01
def test_a_day_ahead_follows_the_generation_day_and_a_past_one_precedes_it(
    monkeypatch: pytest.MonkeyPatch, epoch: str
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    today = reference_day()
    for n in range(30):
        sheet = SheetBuilder(f"case{n}", "")
        assert today < _day(sheet.value(PICKUP)) <= today + dt.timedelta(days=30)
        assert _day(sheet.value(INCIDENT)) < today


def test_a_day_ahead_follows_the_days_the_cases_records_hold(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NEW_YEAR)
    fills = [{"rx": f"61044{n}", "last_fill": f"2026-09-{n + 1:02d}"} for n in range(6)]
    orders = [{"id": "WO-1", "window": "2026-10-02T10:00"}]
    people = [{"id": "P-1", "passport_expiry": "2029-04-30"}]
    few = DataRecords([Collection("people", tuple(people * 4))])
    records = DataRecords(
        [
            Collection("prescriptions", tuple(fills)),
            Collection("orders", tuple(orders)),
            Collection("people", tuple(people)),
        ]
    )
    for n in range(20):
        sheet = SheetBuilder(f"case{n}", "", records)
        sheet.sheet.records.update(prescriptions=fills[0], orders=orders[0])
        assert _day(sheet.value(PICKUP)) > dt.date(2026, 10, 2)
        # a day beyond the data's own present (an expiry) bounds what is ahead: never a floor
        sheet = SheetBuilder(f"case{n}", "", records)
        sheet.sheet.records.update(people=people[0])
        assert _day(sheet.value(PICKUP)) < dt.date(2026, 2, 1)
        sheet = SheetBuilder(f"case{n}", "", few)  # only expiries: no present to read
        sheet.sheet.records.update(people=people[0])
        assert _day(sheet.value(PICKUP)) < dt.date(2026, 2, 1)


def test_a_window_the_field_stores_with_hh_mm_has_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NEW_YEAR)
    for n in range(20):
        sheet = SheetBuilder(f"case{n}", "")
        start = dt.datetime.strptime(sheet.value(FROM), "%m/%d/%Y %H:%M")
        end = dt.datetime.strptime(sheet.value(UNTIL), "%m/%d/%Y %H:%M")
        assert dt.datetime(2026, 1, 1) < start < end, (start, end)
    spoken = FieldSpec("arrival_date", "text", "The day and time the guest arrives, HH:MM.")
    assert " at " in SheetBuilder("c", "").value(spoken)


def test_the_days_ahead_fall_on_the_weekdays_the_opening_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NEW_YEAR)
    out = FieldSpec("depart_date", "text", "Departure day, MM/DD/YYYY.")
    back = FieldSpec("return_date", "text", "Return day, MM/DD/YYYY.")
    for n in range(20):
        sheet = SheetBuilder(f"case{n}", "")
        sheet.add("departure", sheet.value(out))
        sheet.add("return", sheet.value(back))
        sheet.add("incident", sheet.value(INCIDENT))
        was = {f.label: f.value for f in sheet.sheet.facts}
        sheet.on_weekdays("Book me to Chicago Tuesday, back Wednesday night.")
        said = {f.label: _day(f.value) for f in sheet.sheet.facts}
        assert said["departure"].weekday() == 1 and said["return"].weekday() == 2, said
        assert dt.date(2026, 1, 1) < said["departure"] < said["return"]
        assert said["return"] - said["departure"] <= dt.timedelta(days=7)
        assert said["departure"] == dt.date(2026, 1, 6)  # the coming Tuesday
        assert said["incident"] == _day(was["incident"])  # a day past is not moved
        # a return with no departure in the case goes to the day the user comes back
        alone = SheetBuilder(f"case{n}", "")
        alone.add("return", alone.value(back))
        alone.on_weekdays("Book me to Chicago Tuesday, back Wednesday night.")
        assert _day(alone.sheet.facts[0].value).weekday() == 2


@pytest.mark.parametrize(
    ("epoch", "meant", "opening"),
    [
        # a Monday: "Friday" is the 11th, never the Friday of the week after
        ("1796601600", dt.date(2026, 12, 11), "Block Friday morning for the board deck."),
        # a Friday: the coming Friday is a week later
        ("1796947200", dt.date(2026, 12, 18), "Block Friday morning for the board deck."),
    ],
)
def test_a_named_weekday_is_the_coming_one(
    monkeypatch: pytest.MonkeyPatch, epoch: str, meant: dt.date, opening: str
) -> None:
    """ "Block Friday morning" said on Monday 2026-12-07 means Friday the 11th: a start
    drawn two to three weeks out (the 18th) is a Friday too, but not the one the user
    names; the opening is said unchanged."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    start = FieldSpec("proposed_start", "text", "Start of the new event, YYYY-MM-DD HH:MM.")
    for n in range(20):
        sheet = SheetBuilder(f"case{n}", "")
        sheet.add("proposed start", sheet.value(start))
        as_said = sheet.on_weekdays(opening)
        said = dt.datetime.strptime(sheet.sheet.facts[0].value, "%Y-%m-%d %H:%M").date()
        assert said == meant, (n, said)
        assert as_said == opening


def test_a_weekday_after_the_records_days_is_said_as_next(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where the case's records push the day past the coming Friday (a pickup after a last
    fill on Thursday the 10th), the user says "next Friday", or the date beyond that."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1796601600")  # Monday 2026-12-07
    for last, meant, said in [
        ("2026-12-10", dt.date(2026, 12, 11), "Can I pick it up Friday?"),
        ("2026-12-12", dt.date(2026, 12, 18), "Can I pick it up next Friday?"),
        ("2026-12-19", dt.date(2026, 12, 25), "Can I pick it up Friday 25 December 2026?"),
    ]:
        fills = [{"rx": f"61044{n}", "last_fill": last} for n in range(6)]
        records = DataRecords([Collection("prescriptions", tuple(fills))])
        sheet = SheetBuilder("case1", "", records)
        sheet.sheet.records.update(prescriptions=fills[-1])
        sheet.add("pickup", sheet.value(PICKUP))
        as_said = sheet.on_weekdays("Can I pick it up Friday?")
        assert _day(sheet.sheet.facts[0].value) == meant
        assert as_said == said


def test_a_moved_window_keeps_its_times_and_its_length(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NEW_YEAR)
    for n in range(20):
        sheet = SheetBuilder(f"case{n}", "")
        sheet.add("from", sheet.value(FROM))
        sheet.add("until", sheet.value(UNTIL))
        was = [dt.datetime.strptime(f.value, "%m/%d/%Y %H:%M") for f in sheet.sheet.facts]
        sheet.on_weekdays("Can my sister get in Saturday?")
        now = [dt.datetime.strptime(f.value, "%m/%d/%Y %H:%M") for f in sheet.sheet.facts]
        assert now[0].weekday() == 5 and now[0].time() == was[0].time()
        assert now[1] - now[0] == was[1] - was[0]


@pytest.mark.parametrize("epoch", [NEW_YEAR, "1798761600", "1765065600"])
def test_a_day_ahead_the_user_asks_for_falls_on_a_working_day(
    monkeypatch: pytest.MonkeyPatch, epoch: str
) -> None:
    """A meeting, a booking or a pickup asked for ahead: Monday to Friday, never the
    Sunday a slot drawn two to three weeks out may land on."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch)
    start = FieldSpec("proposed_start", "text", "Start of the new event, YYYY-MM-DD HH:MM.")
    days = set()
    for n in range(60):
        sheet = SheetBuilder(f"case{n}", "")
        days.add(_day(sheet.value(PICKUP)).weekday())
        days.add(dt.datetime.strptime(sheet.value(start), "%Y-%m-%d %H:%M").weekday())
    assert days <= {0, 1, 2, 3, 4}, days
    # a day the opening names still wins: the case says Saturday, the day is a Saturday
    sheet = SheetBuilder("case1", "")
    sheet.add("from", sheet.value(FROM))
    sheet.on_weekdays("Can my sister get in Saturday?")
    assert dt.datetime.strptime(sheet.sheet.facts[0].value, "%m/%d/%Y %H:%M").weekday() == 5


def test_a_day_the_opening_calls_tomorrow_is_said_as_tomorrow(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Move my 3pm to tomorrow": a start fixed on the day the case was written is not
    tomorrow on the day it runs; the fact says the word with its time of day."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", NEW_YEAR)
    start = FieldSpec("proposed_start", "text", "Start of the new event, YYYY-MM-DD HH:MM.")
    for n in range(10):
        sheet = SheetBuilder(f"case{n}", "")
        sheet.add("proposed start", sheet.value(start))
        sheet.add("incident", sheet.value(INCIDENT))
        was = {f.label: f.value for f in sheet.sheet.facts}
        sheet.on_weekdays("Move my 3pm to tomorrow.")
        said = {f.label: f.value for f in sheet.sheet.facts}
        assert said["proposed start"] == "tomorrow " + was["proposed start"].split()[1]
        assert said["incident"] == was["incident"]  # a day past is not moved
