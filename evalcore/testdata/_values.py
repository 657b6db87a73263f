"""Values typed by the field: a real enum value, a number, a bool, a date in the described
format, an id in the described shape, an e-mail or phone that belongs to the persona.

`typed_value(spec, rng, persona)` returns None when nothing fits a free-text field: the
caller then leaves the fact out (or takes it from a data record) rather than saying filler.
Dates are drawn around the generation day (`reference_day`): `SOURCE_DATE_EPOCH`'s where set,
so drafts stay reproducible, else today's, so a day the user gives for something ahead is
never already past when the case is written.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import os
import random
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..lexicon.en.field_name_words import SPAN_ENDS as _SPAN_END
from ..lexicon.en.field_name_words import SPAN_STARTS as _SPAN_START
from ..lexicon.en.field_name_words import TIME_UNITS as _TIME_UNIT
from ..lexicon.en.field_specs import (
    ADDRESS_NAME,
    AGE_WORD,
    BIRTH_DATE,
    CITY_NAME,
    DATE_IN_NAME,
    DATE_NAME,
    DATE_WORD,
    DAY_AHEAD,
    EMAIL_NAME,
    EMAIL_WORD,
    EXAMPLE,
    ID_IN_NAME,
    ID_NAME,
    ID_WORDS,
    ISO_DATE,
    LARGE_SUM,
    MONEY,
    NAME_FIELD,
    NAME_IN_NAME,
    NUMBER,
    NUMBER_END,
    NUMBER_WORD,
    OTHER_PERSON,
    PET_NAME,
    PHONE_NAME,
    PHONE_WORDS,
    POSTCODE,
    RELATIVE_DAY,
    SECRET_DIGITS,
    SPAN,
    THING_NAME,
    TIME_WORD,
    YEAR_WORD,
)
from ..lexicon.en.spelled_counts import (
    FOLLOWED_BY_DIGITS,
    LONGEST_SPAN,
    N_DIGITS,
    NUMBER_WORDS,
    TOKEN_SHAPE,
)
from ..lexicon.notation import date_masks
from ._people import FIRST_NAMES, LAST_NAMES, Persona


def reference_day() -> dt.date:
    """The day relative dates count from: the generation day, `SOURCE_DATE_EPOCH`'s (UTC)
    where set (reproducible output), else today's (UTC)."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch.isdigit():
        return dt.datetime.fromtimestamp(int(epoch), tz=dt.UTC).date()
    return dt.datetime.now(tz=dt.UTC).date()


_FORMATS = (
    (date_masks.MM_DD_YYYY, "%m/%d/%Y"),
    (date_masks.DD_MM_YYYY, "%d/%m/%Y"),
    (ISO_DATE, "%Y-%m-%d"),
    (date_masks.DD_DOT_MM_YYYY, "%d.%m.%Y"),
    (date_masks.DD_DASH_MM_YYYY, "%d-%m-%Y"),
    (date_masks.MM_DASH_DD_YYYY, "%m-%d-%Y"),
    (date_masks.MM_YYYY, "%m/%Y"),
)
#: A date field whose description asks for the time of day too ("MM/DD/YYYY HH:MM", or an
#: example with one, "2026-12-03T15:00-05:00"): a bare day would leave the user to invent
#: the hour.
_WITH_TIME = re.compile(r"\bHH:?MM\b|\d{4}-\d\d-\d\d[T ]\d\d:\d\d", re.I)
#: The hours a drawn time of day takes (office hours, on the hour or the half hour).
_HOURS = tuple(range(9, 18))
_RELATIVE = RELATIVE_DAY
_SHAPED_ID = re.compile(r"\b([A-Z]{1,5}[-_ ]?\d{3,10}|\d{6,12})\b")
_NUMBERS = NUMBER_WORDS
_FOLLOWED = FOLLOWED_BY_DIGITS
#: A token id a description spells as a prefix and a length of letters and digits ("evt_
#: followed by 12 characters", "off_ and 10 characters"): what a service hands out.
_TOKEN = TOKEN_SHAPE


class TokenShape(NamedTuple):
    """A token id's shape: its literal prefix and how many letters and digits follow."""

    prefix: str
    size: int


def token_shapes(description: str) -> list[TokenShape]:
    """The token shapes a description spells out (see `_TOKEN`)."""
    return [TokenShape(m["prefix"], _count(m)) for m in _TOKEN.finditer(description or "")]


def _token(shape: TokenShape, rng: random.Random) -> str:
    """A token of the shape, in lower-case letters and digits after its prefix."""
    chars = "abcdefghijklmnopqrstuvwxyz0123456789"
    return shape.prefix + "".join(rng.choice(chars) for _ in range(shape.size))


#: "four-digit PIN", "6-digit code": a secret the user types as that many digits.
_N_DIGIT = N_DIGITS
_EXAMPLE = EXAMPLE
_MONEY = MONEY
_LARGE = LARGE_SUM


#: Name fields about someone other than the user (`coworker_name`, `contact_name`).
_OTHER_PERSON = OTHER_PERSON


#: Name fields about a thing, not a person (`drug_name`, `other_pharmacy_name`): their value
#: comes from the description's example or the other rules, never from a person's names.
_THING_NAME = THING_NAME
#: Name fields about an animal (`animal_name`, `pet_name`): a pet's name.
_PET_NAME = PET_NAME
PET_NAMES = ("Biscuit", "Luna", "Pepper", "Rosie", "Bramble", "Milo", "Willow", "Juniper")


def _other_name(spec: FieldSpec, rng: random.Random, persona: Persona) -> str:
    """Another person's name (first name only where the field asks for one)."""
    first = rng.choice([n for n in FIRST_NAMES if n != persona.first_name])
    if "first" in spec.name.lower() or "first name" in spec.description.lower():
        return first
    return f"{first} {rng.choice([n for n in LAST_NAMES if n != persona.last_name])}"


def _literal(description: str, start: int) -> str | None:
    """The JSON object or list an example opens (`e.g. {"SYR-VAN-750": 6}`), compact; None
    when it does not parse (a bracket is never a value of its own)."""
    try:
        value, _ = json.JSONDecoder().raw_decode(description[start:].lstrip())
    except ValueError:
        return None
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True)
class FieldSpec:
    """What a value is drawn for: a field's name, type, description and enum values."""

    name: str
    type: str = "text"
    description: str = ""
    enum_values: tuple[Any, ...] = ()
    aliases: tuple[str, ...] = ()
    """Other names the value goes by: the tool parameters it fills (`site_address` is
    `find_parcel`'s `address`), tried against the project's records after `name`."""
    narrative_of: str | None = None
    """The skill whose narrative field it is (`reason`, `notes`: what this conversation is
    about, not which thing it is about): a data file only other skills' tools read holds
    other conversations' reasons, never its value (`DataRecords.readers`)."""
    listed: tuple[str, ...] = ()
    """The ids the project's text enumerates for the field (`listed_values`): the set a
    case draws from instead of inventing one of the same shape."""
    ahead: bool = False
    """The field is a day a tool books or schedules something for (`reserve_instrument`'s
    `session_date`): a day after the run date, never one gone by."""

    @property
    def text(self) -> str:
        return f"{self.name.replace('_', ' ')} {self.description}"


def date_format(description: str) -> str | None:
    """The strftime format a description states (`MM/DD/YYYY` → `%m/%d/%Y`), else None."""
    for pattern, fmt in _FORMATS:
        if pattern.search(description):
            return fmt
    return None


def wants_time(description: str) -> bool:
    """Whether a date field's description asks for the time of day as well."""
    return bool(_WITH_TIME.search(description))


def allows_relative(description: str) -> bool:
    """True when the description lets the user say "yesterday" for the date."""
    return bool(_RELATIVE.search(description))


def spoken_date(day: dt.date) -> str:
    return f"{day.day} {day.strftime('%B %Y')}"


def span_role(spec: FieldSpec) -> str | None:
    """`start` or `end` for a date field named as one end of a span, else None."""
    words = {w for w in spec.name.lower().split("_") if w}
    joined = spec.name.lower().replace("_", "").replace("-", "")
    words |= {w for w in ("checkin", "checkout") if w in joined}
    if words & _SPAN_END:
        return "end"
    return "start" if words & _SPAN_START else None


#: The longest a span may run, as the end's description states it ("at most 7 days after
#: valid_from", "no more than 14 days").
_LONGEST = LONGEST_SPAN


def longest_span(description: str) -> int | None:
    """The most days a span's end may fall after its start, where its description says."""
    found = _LONGEST.search(description or "")
    return _count(found) if found else None


def draw_day(
    spec: FieldSpec,
    rng: random.Random,
    after: dt.date | None = None,
    since: dt.date | None = None,
) -> dt.date | str:
    """The day of `draw_date`, or "yesterday" where the description allows it. A day for
    something ahead (a pickup, a booking, a span's start) comes after the generation day and
    after `since` (the latest day the case's records hold: a pickup follows the last fill);
    the end of a span (`override_end`, `return_date`) is one to seven days after `after`
    (the case's start of the span), never before it; a day a tool books something for
    (`ahead`) is a coming one; a day for something past is before the generation day."""
    words = spec.text.lower()
    role = span_role(spec)
    today = reference_day()
    ahead = max(today, since) if since is not None else today
    if "birth" in words or BIRTH_DATE.search(words):
        return dt.date(1950, 1, 1) + dt.timedelta(days=rng.randrange(0, 54 * 365))
    if role == "end":
        start = after or ahead + dt.timedelta(days=rng.randrange(2, 22))
        longest = longest_span(spec.description)
        top = 8 if longest is None else max(2, min(8, longest))
        return max(start, ahead) + dt.timedelta(days=rng.randrange(1, top))
    if spec.ahead or role == "start" or DAY_AHEAD.search(words):
        return working_day(ahead + dt.timedelta(days=rng.randrange(2, 22)))
    if allows_relative(spec.description) and rng.random() < 0.4:
        return "yesterday"
    return today - dt.timedelta(days=rng.randrange(1, 45))


def working_day(day: dt.date) -> dt.date:
    """`day`, or the Monday after it where it falls on a weekend: a meeting, a booking or a
    pickup the user asks for lands on a working day (a case that names a weekend day moves
    it there itself, `SheetBuilder.on_weekdays`)."""
    return day + dt.timedelta(days=(7 - day.weekday()) % 7 if day.weekday() >= 5 else 0)


def next_weekday(weekday: int, after: dt.date) -> dt.date:
    """The first `weekday` (Monday = 0) after `after`: the day a user means by a bare
    "Friday" said on `after`, never the Friday of a week later."""
    return after + dt.timedelta(days=(weekday - after.weekday() - 1) % 7 + 1)


def weekday_said(text: str, day: dt.date, today: dt.date) -> str:
    """`text` with its first mention of `day`'s weekday as a user says it on `today`:
    "Friday" for the first one after today, "next Friday" for the one after, else the
    weekday with its date; a bare weekday names no later day than the coming one."""
    name = calendar.day_name[day.weekday()]
    gap = (day - today).days
    if 0 < gap <= 7:
        return text
    said = f"next {name}" if 7 < gap <= 14 else f"{name} {spoken_date(day)}"
    found = re.search(rf"\b{name}\b", text, re.I)
    if found is None:
        return text
    if found.start() == 0 or text[: found.start()].rstrip().endswith((".", "!", "?", '"')):
        said = said[0].upper() + said[1:]
    return text[: found.start()] + said + text[found.end() :]


def weekdays_in(text: str) -> list[int]:
    """The weekdays `text` names, in order (`Monday` = 0), by the calendar's own names."""
    names = {name.lower(): n for n, name in enumerate(calendar.day_name)}
    return [names[w] for w in re.findall(r"[a-z]+", text.lower()) if w in names]


def written_day(spec: FieldSpec, day: dt.date | str, rng: random.Random | None = None) -> str:
    """`day` as the field's description writes dates (`MM/DD/YYYY`, ISO), else spoken; with
    a time of day (drawn from `rng`, in office hours) where the description asks for one."""
    if isinstance(day, str):
        return day
    fmt = date_format(spec.description)
    if not wants_time(spec.description):
        return day.strftime(fmt) if fmt else spoken_date(day)
    rng = rng or random.Random(f"{spec.name}:{day.isoformat()}")
    moment = dt.datetime.combine(day, dt.time(rng.choice(_HOURS), rng.choice((0, 30))))
    if fmt:
        return moment.strftime(f"{fmt} %H:%M")
    return f"{spoken_date(day)} at {moment:%H:%M}"


def draw_date(
    spec: FieldSpec,
    rng: random.Random,
    after: dt.date | None = None,
    since: dt.date | None = None,
) -> str:
    """A date for the field: a birth date for birth fields, else a recent or coming day
    (see `draw_day`), with a time of day where the field asks for one."""
    return written_day(spec, draw_day(spec, rng, after, since), rng)


def shaped_like(example: str, rng: random.Random) -> str:
    """An id of the example's shape with fresh digits (`PL-20931` → `PL-58214`)."""
    return "".join(str(rng.randrange(10)) if c.isdigit() else c for c in example)


def is_date(spec: FieldSpec) -> bool:
    return bool(
        DATE_NAME.search(spec.name)
        or date_format(spec.description)
        or (DATE_WORD.search(spec.description) and not ID_WORDS.search(spec.name.replace("_", " ")))
    )


def _email(persona: Persona | None) -> str:
    """The persona's own address."""
    first, last = (persona.first_name, persona.last_name) if persona else ("alex", "doe")
    return f"{_ascii(first)}.{_ascii(last)}@example.com"


def _ascii(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", plain.lower())


#: The values a number may take, as its description states them: "2 or 3", "1, 2 or 3",
#: "0 to 200", "1-5", "between 1 and 10".
_NUMBER = NUMBER
_END = NUMBER_END
_ONE_OF = re.compile(rf"(?<![\w./-]){_NUMBER}((?:\s*,\s*{_NUMBER})*)\s+or\s+{_NUMBER}{_END}")
_SPAN = SPAN


def stated_numbers(description: str) -> tuple[float, float, list[int | float]] | None:
    """(lowest, highest, the values listed one by one) a number field's description allows,
    or None where it states none: a draw outside them ("8 installments" where plans are
    "2 or 3") is an answer a correct agent must refuse."""
    text = " ".join((description or "").split())
    one_of = _ONE_OF.search(text)
    if one_of is not None:
        numbers = [one_of[1], *re.findall(_NUMBER, one_of[2] or ""), one_of[4]]
        listed = [float(n) if "." in n else int(n) for n in numbers]
        return float(min(listed)), float(max(listed)), listed
    span = _SPAN.search(text)
    if span is not None:
        low, high = (float(n) for n in span.groups() if n is not None)
        if low < high:
            return low, high, []
    return None


#: Everyday spans of a duration by the unit word the field's name or description says
#: ("hours_out_of_temp", "How many minutes the line was down"): 45 hours out of temperature
#: reads as a temperature pasted into the hours field.
_DURATIONS: dict[str, tuple[int, int]] = {
    **dict.fromkeys(("minute", "minutes", "min", "mins"), (5, 55)),
    **dict.fromkeys(("hour", "hours", "hr", "hrs"), (1, 12)),
    **dict.fromkeys(("day", "days"), (1, 14)),
    **dict.fromkeys(("week", "weeks"), (1, 8)),
}


#: The units a quantity is counted in, by the word a field's name or its description's
#: first sentence says ("delay_minutes", "in minutes", "in Fahrenheit", "41°F").
_UNITS = {
    **{w: f"{_TIME_UNIT.get(w, w).rstrip('s')}s" for w in _DURATIONS},
    **dict.fromkeys(("fahrenheit", "°f"), "°F"),
    **dict.fromkeys(("celsius", "°c"), "°C"),
}


def stated_unit(spec: FieldSpec) -> str | None:
    """The unit a number field counts in (`minutes`, `hours`, `°F`), the first one its name
    or description's first sentence says, else None."""
    first = (spec.description or "").split(". ")[0]
    text = f"{spec.name.replace('_', ' ')} {first}".lower().replace("° ", "°")
    for word in text.replace("°", " °").split():
        unit = _UNITS.get(word.strip(".,;:()"))
        if unit is not None:
            return unit
    return None


def with_unit(number: str, unit: str | None) -> str:
    """`number` said with its unit (`165 minutes`, `1 hour`, `44.5°F`)."""
    if unit is None:
        return number
    if unit.startswith("°"):
        return f"{number}{unit}"
    return f"{number} {unit[:-1] if number == '1' else unit}"


def stated_code(description: str) -> re.Pattern[str] | None:
    """The code a description spells out as letters followed by digits ("E followed by two
    digits" -> `E\\d{2}`), as a pattern; None where it states none."""
    followed = _FOLLOWED.search(description or "")
    if followed is None:
        return None
    prefix = re.escape(followed["prefix"].upper())
    return re.compile(rf"(?<![\w-]){prefix}\d{{{_count(followed)}}}(?![\w-])")


def _on_its_scale(spec: FieldSpec, rng: random.Random) -> float | None:
    """A number on the field's own scale: around the example its description gives (a
    fridge reading "e.g. 44.5" is in the forties), else the everyday span of the time unit
    its name or description's first sentence says (hours out of temperature: 1 to 12),
    else None."""
    example = _EXAMPLE.search(spec.description or "")
    number = re.match(r"-?\d+(?:\.\d+)?(?![\d/:-])", example.group("text")) if example else None
    if number is not None:
        middle = float(number.group())
        spread = max(1.0, abs(middle) / 5)
        return round(rng.uniform(middle - spread, middle + spread), 1)
    first = (spec.description or "").split(".")[0]
    for word in re.findall(r"[a-z]+", f"{spec.name.replace('_', ' ')} {first}".lower()):
        if word in _DURATIONS:
            low, high = _DURATIONS[word]
            return float(rng.randint(low, high))
    return None


def typed_value(spec: FieldSpec, rng: random.Random, persona: Persona | None = None) -> Any:
    """A value for the field of its type (see module doc); None when nothing fits."""
    kind = spec.type
    if kind == "categorical" and spec.enum_values:
        return rng.choice(spec.enum_values)
    if kind == "bool":
        return rng.random() < 0.5
    words = spec.text.lower()
    allowed = stated_numbers(spec.description)
    if kind in ("int", "float") and allowed is not None:
        low, high, listed = allowed
        if listed:
            return rng.choice(listed)
        if kind == "int" or (low.is_integer() and high.is_integer()):
            number = rng.randint(int(low), int(high))
            return number if kind == "int" else float(number)
        return round(rng.uniform(low, high), 1)
    scaled = _on_its_scale(spec, rng) if kind in ("int", "float") else None
    if scaled is not None:
        return round(scaled) if kind == "int" else scaled
    if kind == "int":
        if YEAR_WORD.search(words):
            return rng.randrange(2012, 2026)
        if AGE_WORD.search(words):
            return rng.randrange(18, 80)
        return rng.randrange(1, 9)
    if kind == "float":
        if _MONEY.search(words) and _LARGE.search(words):
            return float(rng.randrange(25, 900) * 10)
        if _MONEY.search(words):
            return round(rng.uniform(12, 480), 2)
        return round(rng.uniform(1, 100), 1)
    return _text_value(spec, rng, persona)


#: A description of a number to call or text: "The number the vet calls back, +1 and ten
#: digits", "Mobile to text the code to".
_PHONE_WORDS = PHONE_WORDS
_COUNTRY_CODE = re.compile(r"(?<![\w+])\+(?P<code>\d{1,3})\b")


def _count(match: re.Match[str]) -> int:
    """The digit count a description states ("five-digit", "7 digits")."""
    count = match["count"].lower()
    return int(count) if count.isdigit() else _NUMBERS[count]


def _digits(rng: random.Random, size: int) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(size))


#: A number written out in a description ("ten digits (412-555-0199)"): its layout.
_WRITTEN_NUMBER = re.compile(r"\(\d{3}\)\s?\d[\d .-]{4,}\d|\d[\d .-]{5,}\d")


def _phone(description: str, rng: random.Random) -> str:
    """A fictional (555-01xx) number, as long as the description says when it says ("+1 and
    ten digits": +1 then ten digits; "ten digits (412-555-0199)": ten digits laid out as
    the example is)."""
    code = _COUNTRY_CODE.search(description)
    digits = _N_DIGIT.search(description)
    size = _count(digits) if digits else 0
    if code and 7 <= size <= 12:
        return f"+{code['code']}555{_digits(rng, size - 3)}"
    if not 7 <= size <= 12:
        return f"+1 555 01{rng.randrange(10)}{rng.randrange(10)}"
    written = [
        m.group()
        for m in _WRITTEN_NUMBER.finditer(description)
        if sum(c.isdigit() for c in m.group()) == size
    ]
    layout = written[0] if written else None
    area = "".join(c for c in layout if c.isdigit())[:3] if layout else ""
    area = area or rng.choice(("212", "312", "412", "503", "617"))
    number = (area + _digits(rng, 5))[: size - 7] + "55501" + _digits(rng, 2)
    if layout is None:
        return number
    laid = iter(number)
    return "".join(next(laid) if c.isdigit() else c for c in layout)


#: An address field's description that asks for the postcode with it.
_POSTCODE = POSTCODE


def examples_of(description: str) -> list[str]:
    """The examples a description lists, in its order ("e.g. Chicago or London")."""
    example = _EXAMPLE.search(description)
    if example is None:
        return []
    options = [o.strip(" .") for o in re.split(r"\s+or\s+|\s*/\s*", example.group("text"))]
    return [o for o in options if o]


def _text_value(spec: FieldSpec, rng: random.Random, persona: Persona | None) -> str | None:
    name = spec.name.lower()
    words = spec.text.lower()
    example = _EXAMPLE.search(spec.description)
    shaped = _SHAPED_ID.search(spec.description)
    if is_date(spec):
        return draw_date(spec, rng)
    if EMAIL_NAME.search(name):
        return _email(persona)
    if PHONE_NAME.search(name):
        return _phone(spec.description, rng)
    if EMAIL_WORD.search(spec.description) and not NAME_IN_NAME.search(name):
        return _email(persona)  # "An email address or phone number to reply to"
    if _PHONE_WORDS.search(spec.description):
        return _phone(spec.description, rng)
    named = NAME_FIELD.search(name) is not None
    head = name.rsplit("name", 1)[0]
    if named and _PET_NAME.search(head):
        return rng.choice(PET_NAMES)  # the animal's name, never its owner's
    thing = _THING_NAME.search(head) is not None
    if named and persona and "company" not in words and not thing:
        if _OTHER_PERSON.search(name):  # a coworker's or contact's name: never the user's own
            return _other_name(spec, rng, persona)
        return persona.name if "first" not in name else persona.first_name
    if _POSTCODE.search(name.replace("_", " ")):
        return f"{rng.randrange(10000, 99999)}"
    if TIME_WORD.search(words) and not DATE_IN_NAME.search(name):
        return rng.choice(("9:30 am", "11:00 am", "2:15 pm", "4:45 pm", "6:00 pm"))
    digits = _N_DIGIT.search(spec.description)
    followed = _FOLLOWED.search(spec.description)
    # "The five-digit client number": digits alone, where no prefix or example shapes it
    plain_number = NUMBER_WORD.search(words) and not (followed or shaped or example)
    tokens = token_shapes(spec.description)
    if tokens:  # "evt_ followed by 12 characters": the service's own token shape
        return _token(tokens[0], rng)
    if followed:  # "E followed by two digits": the letters belong to the code
        return followed["prefix"].upper() + _digits(rng, _count(followed))
    id_shaped = shaped is not None and ID_IN_NAME.search(name)
    if id_shaped and shaped is not None and digits and not shaped.group(1).isdigit():
        # "airport code + SK + five digits (BOSSK12345)": the digits are the example's tail
        return shaped_like(shaped.group(1), rng)
    if digits and (SECRET_DIGITS.search(words) or plain_number):
        return _digits(rng, _count(digits))
    if id_shaped and shaped is not None:
        return shaped_like(shaped.group(1), rng)
    if example and example.group("text").lstrip()[:1] in "{[":
        return _literal(spec.description, example.start("text"))
    if example:
        options = examples_of(spec.description)
        return rng.choice(options) if options else None
    if ADDRESS_NAME.search(name):
        street = rng.choice(("Elm Street", "Harbour Road", "Mill Lane", "Kingsway", "Oak Avenue"))
        if _POSTCODE.search(spec.description):  # "with postcode": the address is whole
            return f"{rng.randrange(2, 240)} {street}, {rng.randrange(10000, 99999)}"
        return f"{rng.randrange(2, 240)} {street}"
    if CITY_NAME.search(name):
        return rng.choice(("Leeds", "Porto", "Austin", "Lyon", "Denver", "Utrecht"))
    if ID_NAME.search(name):
        prefix = "".join(w[0] for w in name.split("_")[:-1]).upper() or "REF"
        return f"{prefix}-{rng.randrange(10000, 99999)}"
    return None


__all__ = [
    "FieldSpec",
    "allows_relative",
    "date_format",
    "draw_date",
    "draw_day",
    "examples_of",
    "is_date",
    "next_weekday",
    "reference_day",
    "shaped_like",
    "span_role",
    "spoken_date",
    "stated_code",
    "stated_unit",
    "token_shapes",
    "typed_value",
    "wants_time",
    "weekday_said",
    "weekdays_in",
    "with_unit",
    "working_day",
    "written_day",
]
