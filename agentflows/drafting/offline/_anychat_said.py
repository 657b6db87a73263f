"""What a replayed Playbook example's agent lines say each tool returned.

An example is the author's own conversation: "You have “The Overstory” due Friday" after
`find_member`, "Booked, drop it off Wednesday at 9:30" after the person picks the first
slot. A replay whose stubs return another book, another day, makes the example's reply
false of the case's own data, and a judge holding the agent to "the spirit of" that reply
fails a correct agent. So the stubs (`_anychat_stubs`) take the day, time and quoted name
each tool's reply says, read here against the project's frozen clock: "today" is the
clock's day, a weekday the next one after it (in the week after the clock's where the
person asked for "next week"), "March 30" that date.

A tool's reply is the agent lines after its turn up to the person's next turn; where that
turn picks a slot, the lines after the pick (the confirmation) say when the picked slot is.
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, time, timedelta
from typing import Any

from evalcore.lexicon.en.said_moments import (
    NEXT_WEEK,
    QUOTED_NAME,
    SAID_DAY,
    SAID_TIME,
    TOMORROW,
)

from ...planning.anychat_clock import project_clock
from ...planning.anychat_people import clock_now
from ._anychat_case import _Case


@dataclass(frozen=True)
class ExampleSays:
    """What the example's reply after one tool turn says: a day, a time, a quoted name,
    and, where the person then picks a slot, its index and the day and time it is."""

    day: date | None = None
    time: time | None = None
    name: str | None = None
    picked: int | None = None
    picked_day: date | None = None
    picked_time: time | None = None


def example_says(case: _Case) -> dict[str, ExampleSays]:
    """Per tool of the replayed example, what its reply says (the first turn of a tool
    counts); empty for a case that replays no example."""
    if case.facts.get("kind") != "example":
        return {}
    turns = case.pb.examples[case.facts["example"]].turns
    today = clock_now(project_clock(case.defs)).date()
    next_week = any(NEXT_WEEK.search(str(t["user"])) for t in turns if "user" in t)
    out: dict[str, ExampleSays] = {}
    for index, turn in enumerate(turns):
        if "tool" not in turn or str(turn["tool"]) in out:
            continue
        lines, stop = _reply(turns, index + 1)
        picked, after = None, []
        if stop < len(turns) and "slot" in turns[stop]:
            picked = _index(turns[stop]["slot"])
            after, _ = _reply(turns, stop + 1)
        text = " ".join(lines)
        named = QUOTED_NAME.search(text)
        out[str(turn["tool"])] = ExampleSays(
            day=_day(text, today, next_week),
            time=_time(text),
            name=(named["name"] or named["single"]).strip() if named else None,
            picked=picked,
            picked_day=_day(" ".join(after), today, next_week) or _day(text, today, next_week),
            picked_time=_time(" ".join(after)),
        )
    return out


def _reply(turns: list[dict[str, Any]], start: int) -> tuple[list[str], int]:
    """The agent lines from `start` to the person's next turn (tool turns pass), and where
    that turn is."""
    lines: list[str] = []
    index = start
    while index < len(turns) and ("agent" in turns[index] or "tool" in turns[index]):
        if "agent" in turns[index]:
            lines.append(str(turns[index]["agent"]))
        index += 1
    return lines, index


def _index(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _day(text: str, today: date, next_week: bool) -> date | None:
    """The first day `text` says, as a date from `today` on."""
    match = SAID_DAY.search(text)
    if match is None:
        return None
    if match["relative"]:
        return today + timedelta(days=1 if TOMORROW.match(match["relative"]) else 0)
    if match["weekday"]:
        weekday = _position(calendar.day_name, match["weekday"])
        if next_week:
            return today - timedelta(days=today.weekday() - 7 - weekday)
        return today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
    month = _position(calendar.month_name, match["month"] or match["month_after"])
    number = int(match["date"] or match["date_first"])
    for year in (today.year, today.year + 1):
        try:
            said = date(year, month, number)
        except ValueError:
            return None
        if said >= today:
            return said
    return None


def _position(names: Any, word: str) -> int:
    return [str(n).lower() for n in names].index(word.lower())


def _time(text: str) -> time | None:
    """The first time of day `text` says ("9:30", "18:00", "3pm")."""
    match = SAID_TIME.search(text)
    if match is None:
        return None
    hour = int(match["hour"] or match["hour12"])
    minute = int(match["minute"] or 0)
    half = (match["half"] or match["half12"] or "").lower()
    if half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    return time(hour, minute)


__all__ = ["ExampleSays", "example_says"]
