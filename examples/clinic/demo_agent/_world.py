"""The clinic demo's world: the Person, appointments, outcomes and the fake tools.

Everything is derived from the case's `scenario` and the frozen clock, so a run is the same
every time: seeded appointments get ids `a-0001`, `a-0002`, ... and start at `clock.now +
startsIn`; bookings get `a-1001`, ...; offered slots come from `scenario.stubs` when the case
gives them, else from the clinic's week (weekdays, 09:00 / 10:30 / 15:00, the person's
preferred dentist or Dr. Okafor and Dr. Lin in turn).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import Any

from evalcore.definitions import AnychatDefinitions

from ._text import WEEKDAYS

DEFAULT_NOW = "2026-03-09T09:00:00-04:00"
DENTISTS = ("Dr. Okafor", "Dr. Lin")
SLOT_TIMES = ((9, 0), (10, 30), (15, 0))
_DURATION = re.compile(r"^(-)?P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?)?$")
BUILTIN_KEYS = {
    "name",
    "fullName",
    "firstName",
    "lastName",
    "email",
    "phone",
    "company",
    "title",
    "productInterest",
    "status",
    "source",
    "assignedRepresentativeId",
    "tags",
    "notes",
}


def parse_duration(text: str) -> timedelta:
    match = _DURATION.match(text or "")
    if match is None:
        return timedelta()
    sign, days, hours, minutes = match.groups()
    delta = timedelta(days=int(days or 0), hours=int(hours or 0), minutes=int(minutes or 0))
    return -delta if sign else delta


def when(moment: datetime) -> str:
    """`Thursday, March 12 at 14:00`."""
    return f"{moment:%A}, {moment:%B} {moment.day} at {moment:%H:%M}"


class World:
    """Mutable state of one conversation, reported in every reply's `state`."""

    def __init__(self, defs: AnychatDefinitions, scenario: dict[str, Any]) -> None:
        self.defs = defs
        clock = scenario.get("clock") or {}
        self.now = datetime.fromisoformat(clock.get("now") or DEFAULT_NOW)
        self.stubs: dict[str, Any] = dict(scenario.get("stubs") or {})
        self.person: dict[str, Any] = {"customFields": {}}
        persona = scenario.get("persona") or {}
        preset = persona.get("preset") if isinstance(persona, dict) else None
        if isinstance(preset, dict):
            fields = dict(preset.get("fields") or {})
            custom = dict(fields.pop("customFields", None) or {})
            self.person.update(fields)
            self.person["customFields"] = {k: _text(v) for k, v in custom.items()}
            if preset.get("consent"):
                self.person["consent"] = dict(preset["consent"])
        self.appointments: list[dict[str, Any]] = []
        for index, item in enumerate(scenario.get("appointments") or []):
            start = self.now + parse_duration(item.get("startsIn", ""))
            self.appointments.append(
                {
                    "id": f"a-{index + 1:04d}",
                    "start": start.isoformat(),
                    "durationMinutes": item.get("durationMinutes", 30),
                    "representativeId": item.get("representativeId"),
                    "status": item.get("status", "scheduled"),
                    "seeded": True,
                }
            )
        self.outcomes: list[str] = []
        self._booked = 1000

    # --- the Person ---------------------------------------------------------------------

    def field(self, key: str) -> Any:
        if key in self.person and key != "customFields":
            return self.person[key]
        return self.person["customFields"].get(key)

    def set_fields(self, values: dict[str, Any]) -> dict[str, Any]:
        """Write fields (built-in at the top, custom under `customFields`); returns what
        changed."""
        changed = {}
        for key, value in values.items():
            if self.field(key) == value:
                continue
            if key in BUILTIN_KEYS:
                self.person[key] = value
            else:
                self.person["customFields"][key] = _text(value)
            changed[key] = value
        return changed

    @property
    def on_record(self) -> bool:
        return bool(self.person.get("fullName") or self.person.get("firstName"))

    @property
    def first_name(self) -> str | None:
        name = self.person.get("firstName") or self.person.get("fullName")
        return str(name).split()[0] if name else None

    # --- appointments -------------------------------------------------------------------

    def upcoming(self) -> dict[str, Any] | None:
        live = [
            a
            for a in self.appointments
            if a["status"] == "scheduled" and datetime.fromisoformat(a["start"]) >= self.now
        ]
        return min(live, key=lambda a: a["start"]) if live else None

    def book(self, slot: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
        self._booked += 1
        appointment = {
            "id": str(result.get("appointment_id") or f"a-{self._booked}"),
            "start": slot["start"],
            "durationMinutes": 45,
            "representativeId": _rep_id(slot.get("dentist")),
            "status": "scheduled",
            "seeded": False,
        }
        self.appointments.append(appointment)
        return appointment

    # --- tools --------------------------------------------------------------------------

    def slots(
        self, *, weekday: str | None, part_of_day: str | None, later: bool
    ) -> list[dict[str, Any]]:
        stub = self.stubs.get("check_availability")
        if isinstance(stub, dict) and isinstance(stub.get("slots"), list):
            return [dict(s) for s in stub["slots"]]
        preferred = self.field("preferredDentist")
        out: list[dict[str, Any]] = []
        day = self.now
        while len(out) < 3 and day < self.now + timedelta(days=21):
            day += timedelta(days=1)
            name = WEEKDAYS[day.weekday()]
            if name in ("saturday", "sunday") or (weekday and name != weekday):
                continue
            if later and (day - self.now).days < 2:
                continue
            for hour, minute in SLOT_TIMES:
                if part_of_day == "morning" and hour >= 12:
                    continue
                if part_of_day == "afternoon" and hour < 12:
                    continue
                start = day.replace(hour=hour, minute=minute, second=0, microsecond=0)
                dentist = preferred or DENTISTS[len(out) % len(DENTISTS)]
                out.append(
                    {"id": f"s-{start:%m%d-%H%M}", "start": start.isoformat(), "dentist": dentist}
                )
                if len(out) == 3:
                    break
        return out

    def lookup_found(self) -> bool:
        stub = self.stubs.get("lookup_patient")
        if isinstance(stub, dict) and "found" in stub:
            return bool(stub["found"])
        return self.on_record

    def tool_result(self, name: str, default: dict[str, Any]) -> dict[str, Any]:
        stub = self.stubs.get(name)
        return dict(stub) if isinstance(stub, dict) else default

    # --- the snapshot -------------------------------------------------------------------

    def snapshot(self, active: str, *, warnings: list[str], model_calls: int) -> dict[str, Any]:
        return {
            "activePlaybook": active,
            "person": _copy(self.person),
            "appointments": [dict(a) for a in self.appointments],
            "outcomes": list(self.outcomes),
            "warnings": list(warnings),
            "modelCalls": model_calls,
        }


def _rep_id(dentist: Any) -> str | None:
    """`Dr. Okafor` → `dr-okafor` (the representative id the case files use)."""
    if not dentist:
        return None
    return re.sub(r"[^a-z0-9]+", "-", str(dentist).lower()).strip("-")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _copy(person: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in person.items() if k != "customFields"}
    out["customFields"] = dict(person.get("customFields") or {})
    if isinstance(out.get("consent"), dict):
        out["consent"] = dict(out["consent"])
    return out


__all__ = ["DEFAULT_NOW", "World", "parse_duration", "when"]
