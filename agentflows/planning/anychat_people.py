"""The concrete world an Anychat case is set in: a frozen clock, people, appointments.

Every generated case runs against the same frozen clock, so "Thursday at 14:00" and the
offered slots mean the same thing on every run. People come from a fixed roster, picked by a
hash of the behaviour id: a case keeps its person when other cases are added or removed.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta
from typing import Any

from evalcore.definitions import AnychatDefinitions, Outreach, PersonField

#: The frozen clock of every generated case (a Monday morning, so the week lies ahead).
CLOCK: dict[str, str] = {
    "now": "2026-03-09T09:00:00-05:00",
    "weekday": "monday",
    "time": "09:00",
    "timezone": "America/New_York",
}
#: The seeded appointment: Thursday 14:00 of the clock's week, 45 minutes.
APPOINTMENT: dict[str, Any] = {"startsIn": "P3DT5H", "durationMinutes": 45, "status": "scheduled"}

ROSTER: tuple[tuple[str, str, str], ...] = (
    ("Jordan", "Lee", "+15550101"),
    ("Priya", "Natarajan", "+15550102"),
    ("Omar", "Haddad", "+15550103"),
    ("Grace", "Kim", "+15550104"),
    ("Elena", "Rossi", "+15550105"),
    ("Ben", "Carter", "+15550106"),
    ("Aiko", "Tanaka", "+15550107"),
    ("Lucas", "Moreau", "+15550108"),
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
    return None


def preset(
    key: str, defs: AnychatDefinitions, *, known: bool, extra: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A `persona.preset`: a known person has a name on record, an unknown one only a phone.

    Consent is granted whenever the project requires consent (Outreaches need it) and, for an
    inbound conversation, because the person wrote first.
    """
    who = person(key)
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


def clock_now(clock: dict[str, Any] | None = None) -> datetime:
    return datetime.fromisoformat((clock or CLOCK)["now"])


def appointment_start(appointment: dict[str, Any], clock: dict[str, Any] | None = None) -> datetime:
    return clock_now(clock) + parse_duration(appointment["startsIn"])


def day_label(moment: datetime) -> str:
    """`Thursday, March 12`."""
    return f"{moment:%A}, {moment:%B} {moment.day}"


def outreach_inputs(
    outreach: Outreach, who: dict[str, Any], appointment: dict[str, Any] | None
) -> dict[str, str]:
    """A value for every input the opener declares, from the person and the appointment."""
    start = appointment_start(appointment) if appointment else None
    values: dict[str, str] = {}
    for name in outreach.inputs:
        lowered = name.lower()
        if name in who:
            values[name] = str(who[name])
        elif "name" in lowered:
            values[name] = str(who.get("firstName") or who.get("fullName") or "there")
        elif "date" in lowered or "day" in lowered:
            values[name] = day_label(start) if start else day_label(clock_now())
        elif "time" in lowered:
            values[name] = f"{start:%H:%M}" if start else "10:00"
        else:
            values[name] = f"sample {name}"
    return values


__all__ = [
    "APPOINTMENT",
    "CLOCK",
    "appointment_start",
    "clock_now",
    "day_label",
    "field_value",
    "outreach_inputs",
    "parse_duration",
    "person",
    "preset",
    "stable_index",
]
