"""How a business's prose states its opening hours ("Open Tuesday to Saturday 9:00-18:00",
"Central is open every day 9:00-20:00", "Hours: Monday to Friday 8:00-18:00, closed
Sunday"): runs of days, the day words that stand for several ("daily", "weekdays"), the
time range after them and the words that open or close them.

The Anychat planner reads them to set a case's frozen clock on a day the business is open
(`agentflows.planning.anychat_clock`)."""

from __future__ import annotations

import calendar
import re

from .. import phrase

_FULL = "|".join(name.lower() for name in calendar.day_name)
#: A day by its full name (any case) or its usual short form, capitalised as in a timetable
#: ("Mon", "Tues", "Thu"): the short forms are words of their own in lower case ("sat").
_ONE_DAY = rf"(?:(?i:{_FULL})s?|(?:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun)\.?)"

#: A run of days (groups `first` and `last`): "Tuesday to Saturday", "Mon-Fri".
DAY_SPAN = phrase(
    "en.business_hours.day_span",
    rf"\b(?P<first>{_ONE_DAY})\s*(?:(?i:to|through|thru|until)|-|–|—)\s*(?P<last>{_ONE_DAY})(?!\w)",
    matches=("Open Tuesday to Saturday 9:00-18:00.", "Mon-Fri 9-5", "monday through friday"),
    misses=("Open Tuesday and Saturday.", "We sat to eat", "Friday at 9:00"),
)
#: One day named in hours text (group `day`): "Saturday 9:00-13:00", "closed Sundays".
ONE_DAY = phrase(
    "en.business_hours.one_day",
    rf"\b(?P<day>{_ONE_DAY})(?!\w)",
    matches=("Saturday 9:00-13:00", "closed Sundays", "Sat 10:00-14:00"),
    misses=("We sat down.", "a sunny day", "Weekdays only"),
)
#: Words that stand for every day of the week.
EVERY_DAY = phrase(
    "en.business_hours.every_day",
    r"\b(?:every ?day|daily|(?:7|seven) days(?: a week)?)\b",
    re.I,
    matches=("Central is open every day 9:00-20:00", "Open daily", "7 days a week"),
    misses=("Open on weekdays", "every Monday", "a day pass"),
)
#: Words that stand for Monday to Friday.
WEEKDAYS = phrase(
    "en.business_hours.weekdays",
    r"\bweek ?days\b",
    re.I,
    matches=("Open weekdays 9:00-17:00", "on week days"),
    misses=("Open every day", "this week"),
)
#: Words that stand for Saturday and Sunday.
WEEKENDS = phrase(
    "en.business_hours.weekends",
    r"\bweek-?ends?\b",
    re.I,
    matches=("Closed at weekends", "Weekend 10:00-14:00"),
    misses=("Open on weekdays", "this week"),
)
#: A range of clock times (groups `start`, `end`): "9:00-18:00", "9am-5pm", "10 am to 6 pm".
TIME_RANGE = phrase(
    "en.business_hours.time_range",
    r"\b(?P<start>\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?)\s*(?:-|–|—|to|until)\s*"
    r"(?P<end>\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?)(?!\w)",
    re.I,
    matches=("Open Tuesday to Saturday 9:00-18:00.", "Mon-Fri 9am-5pm", "10 am to 6 pm"),
    misses=("Open Tuesday to Saturday.", "at 9:00", "two to three"),
)
#: The word that closes the days after it ("closed Sunday", "Closed on Mondays", "every day
#: except Tuesday").
CLOSED = phrase(
    "en.business_hours.closed",
    r"\b(?:closed|except)\b",
    re.I,
    matches=("Hours: Monday to Friday 8:00-18:00, closed Sunday.", "every day except Tuesday"),
    misses=("We close early on Fridays", "a closet", "exceptional service"),
)
#: The word that opens the days after it ("open every day", "We're open Tuesday to Saturday").
OPEN = phrase(
    "en.business_hours.open",
    r"\bopen\b",
    re.I,
    matches=("Open Tuesday to Saturday 9:00-18:00.", "We are open every day"),
    misses=("We close early on Fridays", "opening soon"),
)
#: The end of a statement about hours: a sentence or a clause after a semicolon.
STATEMENT_END = phrase(
    "en.business_hours.statement_end",
    r"(?<!\d)\.|\.(?!\d)|;|\n\s*\n",
    matches=("Open daily. Call us.", "9:00-20:00; Eastside", "Open 9:00-18:00. Ask us."),
    misses=("9.30-17.30", "Open daily"),
)
#: One clock time (groups `hour`, `minute`, `half`): "9:00", "18.00", "9am", "5 pm".
CLOCK_TIME = phrase(
    "en.business_hours.clock_time",
    r"^(?P<hour>\d{1,2})(?:[:.](?P<minute>\d{2}))?\s*(?:(?P<half>[ap])\.?m\.?)?$",
    re.I,
    matches=("9:00", "18.00", "9am", "5 pm"),
    misses=("noon", "9:00-18:00"),
)
