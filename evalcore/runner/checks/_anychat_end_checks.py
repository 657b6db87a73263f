"""Anychat checks on what the run ended with: the final reply, a picker shown, the
appointments created and active, the outcomes recorded, the active Playbook and the person's
fields."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...assertions import Verdict
from ._anychat_evidence import (
    PICKER_PARTS,
    Evidence,
    _names,
    _norm,
    _quote,
    _shows,
    visible_text,
)
from ._anychat_registry import _check


@_check("finalReplyNonEmpty", bool)
def _final_reply_non_empty(expected: bool, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    last = ev.last
    if last is None:
        return Verdict(not expected, "no turn was played")
    shown = [] if last.reply is None else [m for m in last.reply.messages if _shows(m)]
    where = f"the reply to T{last.number} {last.label}"
    found = (
        f"{where} has {len(shown)} message(s): {_quote(visible_text(shown[0]))}"
        if shown
        else f"{where} is empty"
    )
    want = "a non-empty final reply" if expected else "an empty final reply"
    return Verdict(bool(shown) == expected, f"expected {want}; {found}")


@_check("pickerShown", bool)
def _picker_shown(expected: bool, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    shown = [
        f"{p.get('type')} at T{n}"
        for n, m in ev.messages
        for p in m.parts
        if p.get("type") in PICKER_PARTS
    ]
    found = f"shown: {_names(shown)}" if shown else "no ask.time or ask.choice part was sent"
    want = "a picker" if expected else "no picker"
    return Verdict(bool(shown) == expected, f"expected {want}; {found}")


def _appointments(state: Mapping[str, Any]) -> list[Mapping[str, Any]] | None:
    value = state.get("appointments")
    if not isinstance(value, list):
        return None
    return [a for a in value if isinstance(a, Mapping)]


@_check("appointmentCreated", bool)
def _appointment_created(expected: bool, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    created: dict[str, str] = {}
    for n, event in ev.events_named("appointment_created"):
        appointment = event.get("appointment") or {}
        key = str(appointment.get("id") or f"event at T{n}")
        created[key] = f"{key} (event at T{n})"
    start = ev.turns[0].reply if ev.turns and ev.turns[0].number == 0 else None
    initial = {str(a.get("id")) for a in _appointments(start.state if start else {}) or []}
    for appointment in _appointments(ev.state) or []:
        key = str(appointment.get("id"))
        if appointment.get("seeded") is True or key in initial or key in created:
            continue
        created[key] = f"{key} ({appointment.get('status', 'scheduled')}, in the end state)"
    found = f"created: {_names(created.values())}" if created else "no appointment was created"
    want = "an appointment to be created" if expected else "no new appointment"
    return Verdict(bool(created) == expected, f"expected {want}; {found}")


@_check("activeAppointments", int)
def _active_appointments(expected: int, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    appointments = _appointments(ev.state)
    if appointments is None:
        return Verdict(
            False,
            f"expected {expected} active appointment(s); the agent never "
            "reported `appointments` in its state",
        )
    active = [a for a in appointments if (a.get("status") or "scheduled") == "scheduled"]
    listed = _names(f"{a.get('id')} {a.get('start', '')}".strip() for a in active)
    others = len(appointments) - len(active)
    return Verdict(
        len(active) == expected,
        f"expected {expected} active appointment(s), found {len(active)} "
        f"({listed}); {others} cancelled or completed",
    )


def _recorded_outcomes(ev: Evidence, upto: int | None = None) -> list[str]:
    """Outcomes recorded by the end (or by turn `upto`): state lists and `outcome` events."""
    found: list[str] = []
    for turn in ev.turns:
        if upto is not None and turn.number > upto:
            break
        if turn.reply is None:
            continue
        state_outcomes = turn.reply.state.get("outcomes")
        if isinstance(state_outcomes, list):
            found += [str(o) for o in state_outcomes]
        found += [
            str(e.get("name"))
            for e in turn.reply.events
            if isinstance(e, Mapping) and e.get("event") == "outcome" and e.get("name")
        ]
    if upto is None and isinstance(ev.final_state.get("outcomes"), list):
        found += [str(o) for o in ev.final_state["outcomes"]]
    return list(dict.fromkeys(found))


@_check("outcomes", list)
def _outcomes(expected: list[Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    recorded = _recorded_outcomes(ev)
    if not expected:
        return Verdict(not recorded, f"expected no outcome; recorded: {_names(recorded)}")
    missing = [str(o) for o in expected if str(o) not in recorded]
    detail = f"expected {_names(expected)}; recorded: {_names(recorded)}"
    return Verdict(not missing, detail + (f" (missing {_names(missing)})" if missing else ""))


@_check("activePlaybookAtEnd", str)
def _active_playbook(expected: str, ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    switches = ev.events_named("playbook_switched")
    found = ev.state.get("activePlaybook")
    if not found and switches:
        found = switches[-1][1].get("to")
    path = (
        " → ".join([str(switches[0][1].get("from"))] + [str(e.get("to")) for _, e in switches])
        if switches
        else "no switches"
    )
    if not found:
        return Verdict(
            False, f"expected '{expected}'; the agent reported no active playbook ({path})"
        )
    passed = str(found).strip().casefold() == expected.strip().casefold()
    return Verdict(passed, f"expected '{expected}', found '{found}' ({path})")


def _person(ev: Evidence) -> dict[str, Any] | None:
    """The end Person record flattened: built-in fields, `fields`, then `customFields`."""
    person = ev.state.get("person")
    if not isinstance(person, Mapping):
        updates = [e.get("fields") for _, e in ev.events_named("person_updated")]
        if not updates:
            return None
        person = {}
        for fields in updates:
            if isinstance(fields, Mapping):
                person.update(fields)
    flat: dict[str, Any] = {}
    layers = [person, person.get("fields")]
    layers += [layer.get("customFields") for layer in list(layers) if isinstance(layer, Mapping)]
    for layer in reversed(layers):  # top-level values win over nested ones
        if isinstance(layer, Mapping):
            flat.update(
                {
                    k: v
                    for k, v in layer.items()
                    if k not in ("fields", "customFields") and not isinstance(v, Mapping)
                }
            )
    consent = person.get("consent")
    if isinstance(consent, Mapping) and "status" in consent and "consent" not in flat:
        flat["consent"] = consent["status"]
    return flat


@_check("personFields", dict)
def _person_fields(expected: Mapping[str, Any], ev: Evidence, _: Mapping[str, Any]) -> Verdict:
    person = _person(ev)
    if person is None:
        return Verdict(
            False,
            "the agent never reported the Person record (`person` in its "
            "state or `person_updated` events)",
        )
    by_lower = {k.casefold(): k for k in person}
    problems, matched = [], []
    for key, want in expected.items():
        actual_key = key if key in person else by_lower.get(key.casefold())
        if actual_key is None or person[actual_key] in (None, ""):
            problems.append(f"{key}: expected '{want}', not set")
        elif _norm(person[actual_key]) != _norm(want):
            problems.append(f"{key}: expected '{want}', found '{person[actual_key]}'")
        else:
            matched.append(key)
    if problems:
        return Verdict(False, "; ".join(problems))
    return Verdict(True, f"{len(matched)} field(s) match: {_names(matched)}")
