"""The day, the time of day and the quoted name an agent line says ("You have “The
Overstory” due Friday", "ready for pick-up until 18:00 today", "drop it off Wednesday at
9:30", "it's now due March 30"), and a person's "next week".

The offline Anychat drafter reads a replayed Playbook example's agent lines with them, so the
stubbed tools return what the example's replies tell (`_anychat_stubs`)."""

from __future__ import annotations

import calendar
import re

from .. import phrase

_DAYS = "|".join(name.lower() for name in calendar.day_name)
_MONTHS = "|".join(name.lower() for name in calendar.month_name if name)

#: A day a line names (groups: `relative` "today"/"tomorrow", `weekday`, or a calendar date
#: as `month` + `date`, in either order).
SAID_DAY = phrase(
    "en.said_moments.said_day",
    rf"\b(?:(?P<relative>today|tonight|tomorrow)|(?P<weekday>{_DAYS})"
    rf"|(?P<month>{_MONTHS})\s+(?P<date>[0-3]?\d)(?:st|nd|rd|th)?"
    rf"|(?P<date_first>[0-3]?\d)(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<month_after>{_MONTHS}))\b",
    re.I,
    matches=(
        "You have The Overstory due Friday.",
        "ready for pick-up until 18:00 today",
        "Done, it's now due March 30.",
        "due on 30th of March",
    ),
    misses=("Ready for pick-up.", "What day works for you?", "March on"),
)
#: The day after the clock's day among the relative words.
TOMORROW = phrase(
    "en.said_moments.tomorrow",
    r"^tomorrow$",
    re.I,
    matches=("tomorrow", "Tomorrow"),
    misses=("today", "tonight"),
)
#: A time of day a line names (groups `hour`, `minute`, `half`): "at 9:30", "until 18:00",
#: "at 3pm", "2:30 p.m.".
SAID_TIME = phrase(
    "en.said_moments.said_time",
    r"(?<![\d:.])(?:(?P<hour>[01]?\d|2[0-3])[:.](?P<minute>[0-5]\d)(?:\s*(?P<half>[ap])\.?m\.?)?"
    r"|(?P<hour12>1[0-2]|0?[1-9])\s*(?P<half12>[ap])\.?m\.?)(?!\w|[:.]\d)",
    re.I,
    matches=("drop it off Wednesday at 9:30", "until 18:00 today", "at 3pm", "2:30 p.m."),
    misses=("It's 2900114", "due March 30", "version 3.14.2"),
)
#: A name the line quotes (group `name` in double quotes, `single` in single ones): “The
#: Overstory”, "The Overstory", 'Night Train'; an apostrophe inside a word opens no quote.
QUOTED_NAME = phrase(
    "en.said_moments.quoted_name",
    r"[\"“](?P<name>[^\"“”]{2,80})[\"”]|(?<!\w)[‘'](?P<single>[^'‘’\n]{2,80})['’](?!\w)",
    matches=(
        'You have "The Overstory" due Friday.',
        "You have “The Overstory” due Friday.",
        "You have 'Night Train'. Keep it?",
    ),
    misses=("You have one book due Friday.", 'a lone " mark', "It's done, we can't wait."),
)
#: A person asking for the week after this one ("next week").
NEXT_WEEK = phrase(
    "en.said_moments.next_week",
    r"\bnext week\b",
    re.I,
    matches=("Hi, I'd like to book a cleaning next week",),
    misses=("Can I come this week?", "next Wednesday"),
)
#: A record field that holds the name of a thing, the kind a line quotes (`bookTitle`,
#: `bikeModel`, `product_name`), not a person's or a place's name.
QUOTED_FIELD = phrase(
    "en.said_moments.quoted_field",
    r"(?:title|model|product|item|product_?name|item_?name)s?$",
    re.I,
    matches=("bookTitle", "bikeModel", "product_name", "title"),
    misses=("branchName", "dueDate", "firstName"),
)
