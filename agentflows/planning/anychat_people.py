"""The concrete world an Anychat case is set in: a frozen clock, people, appointments.

Every case of a project runs against the same frozen clock (`anychat_clock`: a day the
business is open), so "Thursday at 14:00" and the offered slots mean the same thing on
every run. People come from a fixed roster, picked by a
hash of the behaviour id: a case keeps its person when other cases are added or removed.
"""

from __future__ import annotations

import hashlib
import re
from datetime import date, datetime, timedelta
from typing import Any

from evalcore.definitions import AnychatDefinitions, Outreach, PersonField
from evalcore.lexicon.en.field_name_words import DAY_WORDS as _DAY_WORDS
from evalcore.lexicon.en.field_name_words import PERSON_NAME as _PERSON_NAME
from evalcore.lexicon.en.field_name_words import PLACE_NAMES as _PLACE_WORDS
from evalcore.lexicon.en.field_name_words import READ_OUT_NUMBERS as _NUMBERED
from evalcore.lexicon.en.field_specs import ADDRESS_NAME
from evalcore.lexicon.en.gated_actions import SHOWN_VALUE

from .anychat_clock import CLOCK, on_open_day, project_clock
from .anychat_places import local_phone

#: The seeded appointment: Thursday 14:00 of the clock's week, 45 minutes.
APPOINTMENT: dict[str, Any] = {"startsIn": "P3DT5H", "durationMinutes": 45, "status": "scheduled"}

#: People of the generated cases; phones are 10-digit +1 numbers in the 555-0100..0199 range
#: set aside for fiction, so no real person is written to.
ROSTER: tuple[tuple[str, str, str], ...] = (
    ("Jordan", "Lee", "+16175550101"),
    ("Priya", "Natarajan", "+16175550102"),
    ("Omar", "Haddad", "+16175550103"),
    ("Grace", "Kim", "+16175550104"),
    ("Elena", "Rossi", "+16175550105"),
    ("Ben", "Carter", "+16175550106"),
    ("Aiko", "Tanaka", "+16175550107"),
    ("Lucas", "Moreau", "+16175550108"),
)
_NONE_CHOICES = {"none", "other", "n/a", "unknown"}
_DURATION = re.compile(r"^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$")


def stable_index(key: str, size: int) -> int:
    """A deterministic index in `range(size)` for `key` (Python's hash() is salted)."""
    return int(hashlib.sha256(key.encode()).hexdigest()[:8], 16) % size


def person(key: str) -> dict[str, str]:
    first, last, phone = ROSTER[stable_index(key, len(ROSTER))]
    return {"fullName": f"{first} {last}", "firstName": first, "lastName": last, "phone": phone}


def field_value(spec: PersonField, key: str) -> str | bool | None:
    """A plausible value for a People field (a declared choice for a choice field)."""
    if spec.type == "choice" and spec.choices:
        pool = [c for c in spec.choices if c.lower() not in _NONE_CHOICES] or spec.choices
        return pool[stable_index(key + spec.key, len(pool))]
    if spec.type == "boolean":
        return None
    if spec.type == "text" and spec.key in person(key):
        return person(key)[spec.key]
    if spec.type in ("text", "number") and _NUMBERED.intersection(_name_words(spec)):
        return str(10_000_000 + stable_index(key + spec.key, 90_000_000))
    if spec.type == "text" and ADDRESS_NAME.search(f"{spec.key} {spec.label or ''}".lower()):
        # a street address the person can say when the body asks for it before acting
        return _plausible({"address"}, None)
    return None


def _name_words(spec: PersonField) -> set[str]:
    """The words of a field's key and label (`cardNumber`, "Library card number")."""
    text = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", spec.key) + " " + (spec.label or "")
    return set(text.lower().split())


def preset(
    key: str, defs: AnychatDefinitions, *, known: bool, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A `persona.preset`: a known person has a name on record, an unknown one only a phone
    (with the area code of the business's city, where its definitions name one).

    Consent is granted whenever the project requires consent (Outreaches need it) and, for an
    inbound conversation, because the person wrote first.
    """
    who = person(key)
    who["phone"] = local_phone(who["phone"], defs)
    fields: dict[str, Any] = dict(who) if known else {"phone": who["phone"]}
    custom = {
        k: v
        for k, v in (extra or {}).items()
        if k in defs.person_fields and not defs.person_fields[k].builtin
    }
    fields.update(
        {
            k: v
            for k, v in (extra or {}).items()
            if k in defs.person_fields and defs.person_fields[k].builtin
        }
    )
    if custom:
        fields["customFields"] = custom
    return {"fields": fields, "consent": {"status": "granted"}}


def parse_duration(text: str) -> timedelta:
    match = _DURATION.match(text)
    if match is None:
        raise ValueError(f"not an ISO duration: {text!r}")
    sign, days, hours, minutes = match.groups()
    delta = timedelta(days=int(days or 0), hours=int(hours or 0), minutes=int(minutes or 0))
    return -delta if sign else delta


def seeded_appointment(defs: AnychatDefinitions | None = None) -> dict[str, Any]:
    """The seeded appointment (`APPOINTMENT`), moved ahead by whole days to the first day
    the business is open: a visit the person already has is on a day it can take place."""
    start = clock_now(project_clock(defs)) + parse_duration(APPOINTMENT["startsIn"])
    extra = (on_open_day(defs, start).date() - start.date()).days
    if not extra:
        return dict(APPOINTMENT)
    gap = parse_duration(APPOINTMENT["startsIn"]) + timedelta(days=extra)
    hours, seconds = divmod(gap.seconds, 3600)
    minutes = f"{seconds // 60}M" if seconds // 60 else ""
    return {**APPOINTMENT, "startsIn": f"P{gap.days}DT{hours}H{minutes}"}


def clock_now(clock: dict[str, Any] | None = None) -> datetime:
    return datetime.fromisoformat((clock or CLOCK)["now"])


def appointment_start(appointment: dict[str, Any], clock: dict[str, Any] | None = None) -> datetime:
    return clock_now(clock) + parse_duration(appointment["startsIn"])


def day_label(moment: date) -> str:
    """`Thursday, March 12`."""
    return f"{moment:%A}, {moment:%B} {moment.day}"


def outreach_inputs(
    outreach: Outreach,
    who: dict[str, Any],
    appointment: dict[str, Any] | None,
    defs: AnychatDefinitions | None = None,
) -> dict[str, str]:
    """A value for every input the opener declares, as a real send would fill it in.

    In order: the person's own field of that name; a person's name for a name input
    (`firstName`; `branchName` is no person's name); a day or time for a date, deadline or
    time input (the appointment's where there is one); a declared choice or value of a People
    field or tool parameter that shares a word with the input (`branchName` ← the choices
    of `homeBranch`); the business's own name for a place input (`clubName`, `store`); a
    number for a number input; else a plausible value of the thing the input names
    (`bookTitle`, `bikeModel`), never a placeholder such as "sample bookTitle".
    """
    clock = project_clock(defs)
    start = appointment_start(appointment, clock) if appointment else None
    values: dict[str, str] = {}
    for name in outreach.inputs:
        parts = _split_words(name)
        if name in who:
            values[name] = str(who[name])
        elif parts and parts <= _PERSON_NAME:
            values[name] = str(who.get("firstName") or who.get("fullName") or "there")
        elif parts & _DAY_WORDS:
            values[name] = day_label(
                start or on_open_day(defs, clock_now(clock) + timedelta(days=3))
            )
        elif parts & _TIME_WORDS:
            values[name] = f"{start:%H:%M}" if start else "10:00"
        else:
            values[name] = _declared(name, parts, defs) or _plausible(parts, defs)
    return values


_TIME_WORDS = frozenset({"time", "hour"})
#: A plausible value of the thing an input names, by a word of its name.
_PLAUSIBLE: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"title", "book"}), "The Quiet Orchard"),
    (frozenset({"model", "bike", "car", "vehicle", "device"}), "Ridgeline 500"),
    (frozenset({"amount", "price", "total", "balance", "fee", "cost"}), "$42.50"),
    (frozenset({"address", "street"}), "12 Oak Street"),
    (frozenset({"plan", "membership", "tier", "package"}), "Standard"),
    (frozenset({"number", "id", "code", "ref", "reference", "ticket", "order"}), "48213"),
    (frozenset({"item", "product", "service"}), "the item you ordered"),
)


def is_day_input(name: str) -> bool:
    """An input or record field that holds a day (`dueDate`, `pickupDeadline`)."""
    return bool(_split_words(name) & _DAY_WORDS)


def is_time_input(name: str) -> bool:
    """An input or record field that holds a time of day (`visitTime`)."""
    return bool(_split_words(name) & _TIME_WORDS) and not is_day_input(name)


def _split_words(name: str) -> set[str]:
    """`pickupDeadline` → {"pickup", "deadline"}; `book_title` → {"book", "title"}."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ")
    return set(spaced.lower().split())


def _declared(name: str, parts: set[str], defs: AnychatDefinitions | None) -> str | None:
    """A value the definitions declare for a thing of that name: a People field's choice, a
    tool parameter's choice, or a value an example passes under that name."""
    if defs is None:
        return None
    head = _head(name)
    for spec in sorted(defs.person_fields.values(), key=lambda f: f.key):
        if spec.choices and _same_thing(head, spec.key, spec.label or ""):
            return str(field_value(spec, name) or spec.choices[0])
    for tool_name in sorted(defs.tools):
        for param, pspec in sorted(defs.tools[tool_name].parameters.items()):
            choices = pspec.get("choices") if isinstance(pspec, dict) else None
            if choices and _same_thing(head, param, ""):
                return str(choices[0])
    # a parameter of that name in other words (`ticketNumber` for `ticket_number`): the
    # value its description shows ("e.g. A-2291"), so the id has the business's format
    for tool_name in sorted(defs.tools):
        for param, pspec in sorted(defs.tools[tool_name].parameters.items()):
            text = str(pspec.get("description") or "") if isinstance(pspec, dict) else ""
            shown = SHOWN_VALUE.search(text)
            if shown and _split_words(param) == parts:
                return shown.group("value")
    for playbook in (defs.playbooks[k] for k in sorted(defs.playbooks)):
        for example in playbook.examples:
            for turn in example.turns:
                args = turn.get("args")
                if isinstance(args, dict):
                    for key, value in args.items():
                        if key == name or _split_words(key) == parts:
                            return str(value)
    return None


def _head(name: str) -> str:
    """The thing a name is about: its last word, a trailing `name` dropped (`branchName` →
    `branch`, `bikeModel` → `model`)."""
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name).replace("_", " ").replace("-", " ")
    words = spaced.lower().split()
    while len(words) > 1 and words[-1] in _PERSON_NAME:
        words.pop()
    return words[-1] if words else ""


def _same_thing(head: str, key: str, label: str) -> bool:
    """A field is about the input's thing when its own head or any label word is that thing
    (`homeBranch` for `branchName`; `bikeType` is not `bikeModel`)."""
    return head == _head(key) or head in label.lower().split()


def _plausible(parts: set[str], defs: AnychatDefinitions | None) -> str:
    if parts & _PLACE_WORDS and defs is not None and defs.agent.get("name"):
        return str(defs.agent["name"])
    for words, value in _PLAUSIBLE:
        if parts & words:
            return value
    return " ".join(sorted(parts)) or "it"


__all__ = [
    "APPOINTMENT",
    "CLOCK",
    "appointment_start",
    "clock_now",
    "day_label",
    "field_value",
    "is_day_input",
    "is_time_input",
    "outreach_inputs",
    "parse_duration",
    "person",
    "preset",
    "seeded_appointment",
    "stable_index",
]
