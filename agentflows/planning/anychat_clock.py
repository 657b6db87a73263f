"""The frozen clock of a project's Anychat cases, on a day the business is open.

Every generated case runs against one frozen clock, so "Thursday at 14:00" and the offered
slots mean the same thing on every run: Monday 09:00 of a fixed week, so the week lies
ahead. A business whose Playbooks state its hours ("Open Tuesday to Saturday 9:00-18:00")
is not open on every Monday morning, and a case set on a closed day contradicts itself: an
example's "ready for pick-up until 18:00 today", a person told to come in today. So the
clock moves to the first day, from that Monday on, that the stated hours open, at 09:00 or
the hour it opens if later; the dates and slots the stubs return fall on open days too.
Where no Playbook states hours, every day counts as open and the clock stays. The clock
keeps the zone of the city the definitions name (`anychat_places`), else New York's.

The hours are read from every Playbook body, the default Playbook's first: a run of days
("Tuesday to Saturday", "Mon-Fri", "every day", "weekdays") opens at the time range after
it; days after "closed" or "except" are shut, and a day any statement shuts is not counted
on; a business with several sites is otherwise open where any is, from its earliest hour.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo

from evalcore.definitions import AnychatDefinitions
from evalcore.lexicon.en.business_hours import (
    CLOCK_TIME,
    CLOSED,
    DAY_SPAN,
    EVERY_DAY,
    ONE_DAY,
    OPEN,
    STATEMENT_END,
    TIME_RANGE,
    WEEKDAYS,
    WEEKENDS,
)

from .anychat_places import business_zone

#: The zone of the frozen clock; its UTC offset is the zone's on that date (daylight time
#: starts in March), never a fixed one.
CLOCK_ZONE = "America/New_York"
#: The frozen moment every project starts from (a Monday morning).
BASE_AT = datetime(2026, 3, 9, 9, 0, tzinfo=ZoneInfo(CLOCK_ZONE))


def clock_of(moment: datetime) -> dict[str, str]:
    """A case's `scenario.clock` for `moment` (in its own zone)."""
    zone = moment.tzinfo
    return {
        "now": moment.isoformat(),
        "weekday": f"{moment:%A}".lower(),
        "time": f"{moment:%H:%M}",
        "timezone": zone.key if isinstance(zone, ZoneInfo) else CLOCK_ZONE,
    }


#: The clock of a project that states no hours.
CLOCK: dict[str, str] = clock_of(BASE_AT)


@dataclass(frozen=True)
class Hours:
    """The days a business opens (Monday = 0) and the earliest hour stated for each
    (None where the text names the day open without a time)."""

    opens: dict[int, time | None]

    def is_open(self, day: date) -> bool:
        return day.weekday() in self.opens


def stated_hours(defs: AnychatDefinitions) -> Hours | None:
    """The hours the project's Playbooks state, or None where none does."""
    first = [defs.default_playbook] if defs.default_playbook in defs.playbooks else []
    order = first + sorted(p for p in defs.playbooks if p not in first)
    return _hours(tuple(defs.playbooks[p].body or "" for p in order))


def project_clock(defs: AnychatDefinitions | None) -> dict[str, str]:
    """The frozen clock of every case of the project: the first open day from the base
    Monday on, at 09:00 or its opening hour if later."""
    zone = business_zone(defs)
    base = BASE_AT.replace(tzinfo=ZoneInfo(zone)) if zone else BASE_AT
    hours = stated_hours(defs) if defs is not None else None
    if hours is None:
        return clock_of(base)
    for offset in range(7):
        day = base.date() + timedelta(days=offset)
        if hours.is_open(day):
            opens = hours.opens[day.weekday()]
            at = max(base.time(), opens) if opens is not None else base.time()
            return clock_of(datetime.combine(day, at, tzinfo=base.tzinfo))
    return clock_of(base)


def open_days(defs: AnychatDefinitions | None, first: date, count: int) -> list[date]:
    """`count` days the business is open, `first` on (every day where it states no hours)."""
    hours = stated_hours(defs) if defs is not None else None
    days: list[date] = []
    day = first
    while len(days) < count:
        if hours is None or hours.is_open(day):
            days.append(day)
        day += timedelta(days=1)
    return days


def on_open_day(defs: AnychatDefinitions | None, moment: datetime) -> datetime:
    """`moment`, moved ahead by whole days to the first day the business is open."""
    day = open_days(defs, moment.date(), 1)[0]
    return moment + timedelta(days=(day - moment.date()).days)


@lru_cache(maxsize=64)
def _hours(bodies: tuple[str, ...]) -> Hours | None:
    """The days any statement opens, less the days any says are closed (a day one site
    closes is not one to count on), at the earliest hour stated for each."""
    opens: dict[int, time | None] = {}
    closed: set[int] = set()
    for body in bodies:
        for statement in STATEMENT_END.split(body):
            stated, shut = _statement_hours(statement)
            closed |= shut
            for day, at in stated.items():
                if day not in opens or (at is not None and (opens[day] or at) >= at):
                    opens[day] = at
    kept = {d: at for d, at in opens.items() if d not in closed}
    return Hours(kept or opens) if opens else None


def _statement_hours(statement: str) -> tuple[dict[int, time | None], set[int]]:
    """The days one statement opens and their hour, and the days it closes: days before a
    time range open at its start; days after "closed" or "except" are shut; days of an
    "open" statement with no range after them open at the statement's last range, or at no
    stated hour."""
    opens: dict[int, time | None] = {}
    closed: set[int] = set()
    pending: set[int] = set()
    mode = ""
    last: time | None = None
    for kind, value in _items(statement):
        if kind == "days" and mode == "closed":
            closed |= value
        elif kind == "days":
            pending |= value
        elif kind == "time":
            last = value
            for day in pending:
                opens[day] = value
            pending, mode = set(), ""
        elif kind == "closed":
            # days already opened ("open daily, closed Mondays") stay open; days named
            # before it with nothing opening them ("Sundays closed") are shut
            if mode == "open" or last is not None:
                opens.update(dict.fromkeys(pending, last))
            else:
                closed |= pending
            pending, mode = set(), "closed"
        elif kind == "open":
            mode = "open"
    if pending and (mode == "open" or last is not None):
        opens.update(dict.fromkeys(pending, last))
    return opens, closed


def _items(statement: str) -> list[tuple[str, object]]:
    """The day runs, time ranges and open/closed words of `statement`, in order; a shorter
    match inside a longer one (the "Tuesday" of "Tuesday to Saturday") is dropped."""
    found: list[tuple[int, int, str, object]] = []
    for match in DAY_SPAN.finditer(statement):
        span = _day_run(_weekday(match["first"]), _weekday(match["last"]))
        found.append((match.start(), match.end(), "days", span))
    for match in ONE_DAY.finditer(statement):
        found.append((match.start(), match.end(), "days", {_weekday(match["day"])}))
    for pattern, days in ((EVERY_DAY, range(7)), (WEEKDAYS, range(5)), (WEEKENDS, (5, 6))):
        for match in pattern.finditer(statement):
            found.append((match.start(), match.end(), "days", set(days)))
    for match in TIME_RANGE.finditer(statement):
        opens = _opening_time(match["start"], match["end"])
        if opens is not None:
            found.append((match.start(), match.end(), "time", opens))
    for pattern, kind in ((CLOSED, "closed"), (OPEN, "open")):
        for match in pattern.finditer(statement):
            found.append((match.start(), match.end(), kind, None))
    found.sort(key=lambda item: (item[0], item[0] - item[1]))
    items: list[tuple[str, object]] = []
    reach = -1
    for start, end, kind, value in found:
        if start >= reach:
            items.append((kind, value))
            reach = end
    return items


def _weekday(name: str) -> int:
    lowered = name.lower().rstrip(".")
    return next(n for n, day in enumerate(calendar.day_name) if day.lower().startswith(lowered[:3]))


def _day_run(first: int, last: int) -> set[int]:
    """The days from `first` to `last`, round the week's end where it wraps."""
    return {(first + n) % 7 for n in range((last - first) % 7 + 1)}


def _opening_time(start: str, end: str) -> time | None:
    """The opening time of a range: its start, where the range reads as clock times (a
    bare start takes its half of the day from an end that has one: "9-5pm", "12-8pm"); a
    range of bare numbers ("3-5") could count anything and is none."""
    first, last = CLOCK_TIME.match(start.strip()), CLOCK_TIME.match(end.strip())
    if first is None or last is None or _clock_time(last) is None:
        return None
    if _clock_time(first) is not None:
        return _clock_time(first)
    if first["minute"] is not None or last["half"] is None:
        return None
    hour, end_hour = int(first["hour"]), int(last["hour"]) % 12
    if hour == 12 or hour > 12:
        return time(hour % 24, 0) if hour < 24 else None
    half = last["half"] if hour < end_hour else "a"
    return time(hour + (12 if half.lower() == "p" else 0), 0)


def _clock_time(match: re.Match[str]) -> time | None:
    """A clock time with its minutes or its half of the day ("9:00", "9am"), else None."""
    if match["minute"] is None and match["half"] is None:
        return None
    hour, minute = int(match["hour"]), int(match["minute"] or 0)
    half = (match["half"] or "").lower()
    if half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return None
    return time(hour, minute)


__all__ = [
    "BASE_AT",
    "CLOCK",
    "CLOCK_ZONE",
    "Hours",
    "clock_of",
    "on_open_day",
    "open_days",
    "project_clock",
    "stated_hours",
]
