"""What every offline Anychat composer works with: the case's inputs (`_Case`), the parts
a composer returns (`Parts`) and the prose helpers that turn steps and endings into words."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from evalcore.definitions import AnychatDefinitions, Playbook

from ...planning.anychat_clock import project_clock
from ...planning.anychat_elements import PlaybookFacts
from ...planning.anychat_people import appointment_start, day_label
from ._anychat_script import Step, kind_line, knows_line
from ._direction import Direction

Turn = str | dict[str, Any]
CHANNEL_NAMES = {
    "sms": "SMS",
    "rcs": "RCS",
    "whatsapp": "WhatsApp",
    "appleMessages": "Apple Messages",
}
DEFAULT_PERSONA = "A busy person texting between other things: short, polite replies."
SIMULATE_MAX_TURNS = 6


@dataclass
class Parts:
    """What one kind of behaviour contributes to the case."""

    turns: list[Turn]
    checks: dict[str, Any]
    criteria: list[tuple[str, str]] = field(default_factory=list)
    scenario: str = ""
    expected: str = ""
    history: list[dict[str, str]] | None = None


@dataclass(frozen=True)
class _Case:
    """The inputs every composer reads."""

    defs: AnychatDefinitions
    pb: Playbook
    pf: PlaybookFacts
    facts: dict[str, Any]
    direction: Direction
    description: str

    @property
    def name(self) -> str:
        return self.pb.name or self.pb.id

    @property
    def fields(self) -> dict[str, Any]:
        return dict(self.facts.get("persona", {}).get("fields") or {})

    @property
    def other_actions(self) -> tuple[str, ...]:
        """The Playbook's actions other than the job's (`place_hold` beside `renew_loan`)."""
        roles = self.pf.roles
        return tuple(a for a in roles.actions if a != roles.action)

    def told_lines(self) -> list[str]:
        """The person's answers to what the body asks before acting ("My card number is
        ...", "It's for dry cleaning.")."""
        told = self.facts.get("told") or {}
        lines = [knows_line(self.defs.person_fields[k].label or k, v) for k, v in told.items()]
        return lines + [kind_line(item) for item in self.pf.asked_kinds]

    @property
    def seeded(self) -> int:
        return len(self.facts.get("appointments") or [])

    def who(self, *, start: bool = True) -> str:
        name = self.fields.get("fullName")
        if name:
            return f"{name}, who is on record,"
        return "Someone not on record yet" if start else "someone not on record yet"

    def via(self) -> str:
        return CHANNEL_NAMES.get(self.facts.get("channel", ""), "text")

    def writes_in(self, text: str) -> str:
        """`Ben Carter, who is on record, has an appointment on ... and writes in over SMS:
        “...”.`"""
        appointments = self.facts.get("appointments") or []
        has = ""
        if appointments:
            start = appointment_start(appointments[0], project_clock(self.defs))
            has = f"has an appointment on {day_label(start)} at {start:%H:%M} and "
        return f"{self.who()} {has}writes in over {self.via()}: “{text}”."

    def appointment_text(self) -> str:
        appointments = self.facts.get("appointments") or []
        if not appointments:
            return ""
        start = appointment_start(appointments[0], project_clock(self.defs))
        return f" They have an appointment on {day_label(start)} at {start:%H:%M}."


def _tidy(text: str) -> str:
    """Drop the period after a quotation that already ends a sentence (“... please.”.)."""
    return re.sub(r"([.?!])”\.", r"\1”", text.strip())


def _and(items: list[str]) -> str:
    return (
        items[0]
        if len(items) == 1
        else ", ".join(items[:-1]) + f" and {items[-1]}"
        if items
        else ""
    )


def _lower_first(text: str) -> str:
    text = " ".join(text.split()).rstrip(".")
    return text[:1].lower() + text[1:]


# --- what each step means in prose ---------------------------------------------------------


def _steps_prose(steps: list[Step]) -> str:
    said = []
    for step in steps:
        turn = step.turn
        if isinstance(turn, dict) and "slot" in turn:
            said.append("they pick the first time offered")
        elif isinstance(turn, dict) and "confirm" in turn:
            said.append("they confirm with yes")
        else:
            said.append(f"they say “{step.text}”")
    if not said:
        return ""
    return " Then " + ", then ".join(said) + "."


def _job_prose(
    case: _Case, optional: tuple[str, ...] | list[str] = (), outcomes: list[str] | None = None
) -> str:
    """What the agent does for the Playbook's job; a lookup in `optional` (one the checks
    leave to the agent) is one it may call, not one the brief promises; `outcomes` (where
    given) are the ones the case expects."""
    pf, roles = case.pf, case.pf.roles
    did = [f"works in the {case.name} playbook"]
    named = [t for t in roles.lookup if t in case.pb.body]
    did += [f"{'may look' if t in optional else 'looks'} the person up with {t}" for t in named[:1]]
    did += [f"{'may call' if t in optional else 'calls'} {t}" for t in named[1:]]
    if "ask.time" in case.pb.pickers and roles.availability:
        did.append(f"offers times from {roles.availability[0]} as a time picker")
        if pf.asks_confirm and roles.action:
            did.append("asks them to confirm the one they pick")
    elif "confirm" in case.pb.pickers and roles.action:
        did.append("asks for a yes/no confirmation first")
    if roles.action:
        # a gated action ("never ... not ready") waits for the state the stub returns
        did.append(f"calls {roles.action}" + (f" once the status is {pf.gate}" if pf.gate else ""))
    recorded = (
        outcomes if outcomes is not None else [o for o in [pf.outcome, pf.action_outcome] if o]
    )
    if pf.outcome and recorded:
        did.append("records " + " and ".join(recorded))
    return (
        "The agent " + ", ".join(did[:-1]) + f" and {did[-1]}."
        if len(did) > 1
        else f"The agent {did[0]}."
    )


def _end_prose(end: dict[str, Any]) -> str:
    said = []
    if end.get("activePlaybook"):
        said.append(f"the {end['activePlaybook']} playbook is active")
    if end.get("outcomes"):
        said.append("outcome " + ", ".join(map(str, end["outcomes"])) + " recorded")
    if end.get("tools"):
        said.append(", ".join(map(str, end["tools"])) + " called")
    if "appointmentCreated" in end:
        said.append(
            "an appointment was booked"
            if end["appointmentCreated"]
            else "no appointment was booked"
        )
    if "activeAppointments" in end:
        said.append(f"{end['activeAppointments']} active appointment(s)")
    for key, value in (end.get("personFields") or {}).items():
        said.append(f"{key} is {str(value).lower() if isinstance(value, bool) else value}")
    return ", ".join(said) or "as the example shows"


__all__ = [
    "CHANNEL_NAMES",
    "DEFAULT_PERSONA",
    "SIMULATE_MAX_TURNS",
    "Parts",
    "Turn",
    "_Case",
    "_and",
    "_end_prose",
    "_job_prose",
    "_lower_first",
    "_steps_prose",
    "_tidy",
]
