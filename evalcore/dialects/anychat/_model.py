"""Pydantic models of an Anychat test case, mirroring `schema.json` key for key.

The JSON Schema stays the authority for files; these models give typed access and the shape
handed to a model for structured output, so they keep the schema's limits (lengths, ranges,
patterns, enums) and forbid unknown keys, with one-line descriptions.

Two readings keep them usable for generated output without loosening what gets written:

- `null` on an optional key means "absent" and is dropped on validation, because structured
  output often fills every optional key with null. `scenario.persona` is the exception: there
  null is a real value ("no Person record") and is kept.
- Validation is strict (no "3" for 3, no 1 for true), except that an integral float such as
  `3.0` is an integer, as JSON Schema counts it.

Dump with `dump_case` (`exclude_unset`): it gives back exactly the keys that were read.
"""

from __future__ import annotations

from typing import Annotated, Any, ClassVar

from pydantic import BaseModel, BeforeValidator, Field

from ._base import (
    CLOCK_TIME_PATTERN,
    CRITERION_ID_PATTERN,
    DURATION_PATTERN,
    KEY_PATTERN,
    AnychatModel,
    AppointmentStatus,
    Channel,
    CheckValue,
    ConsentStatus,
    FieldValue,
    LeadStatus,
    NonNegativeInt,
    OriginKind,
    PartKind,
    PositiveInt,
    Role,
    SystemEvent,
    Weekday,
    _integral,
)
from ._turns import Simulation, Turn

# --- brief and origin ---------------------------------------------------------------------


class Brief(AnychatModel):
    """The use case in plain English."""

    scenario: str = Field(min_length=1, max_length=2000)
    """What happens: who writes, why, in what situation."""
    expected: str = Field(min_length=1, max_length=2000)
    """What the agent should do, in prose (the judge's reference)."""


class Origin(AnychatModel):
    """Where the case came from."""

    conversationId: str | None = None
    userId: str | None = None
    recordedAt: str | None = None
    generatedFrom: str | None = Field(None, max_length=4000)
    """What the case was generated from (a prompt, a file list)."""
    generatedAt: str | None = None
    kind: OriginKind | None = None
    """conversation (recorded), playbookExample, or generated."""
    turnId: str | None = None
    playbookId: str | None = Field(None, max_length=200)
    """The Playbook whose example or behaviour the case covers."""
    exampleIndex: NonNegativeInt | None = None
    """0-based index into that Playbook's examples."""


# --- scenario -----------------------------------------------------------------------------


class Message(AnychatModel):
    """One earlier message."""

    role: Role
    content: str = Field(max_length=4000)


class PresetFields(AnychatModel):
    """Person record values to seed."""

    fullName: str | None = Field(None, max_length=200)
    firstName: str | None = Field(None, max_length=100)
    lastName: str | None = Field(None, max_length=100)
    email: str | None = Field(None, max_length=300)
    phone: str | None = Field(None, max_length=50)
    company: str | None = Field(None, max_length=200)
    title: str | None = Field(None, max_length=200)
    productInterest: str | None = Field(None, max_length=200)
    status: LeadStatus | None = None
    """Funnel status."""
    source: str | None = Field(None, max_length=200)
    customFields: dict[str, FieldValue] | None = None
    """Custom People fields by key."""
    assignedRepresentativeId: str | None = Field(None, max_length=200)
    tags: list[Annotated[str, Field(max_length=60)]] | None = None
    notes: str | None = Field(None, max_length=5000)


class Consent(AnychatModel):
    status: ConsentStatus


class Preset(AnychatModel):
    """A Person created for this case."""

    fields: PresetFields | None = None
    consent: Consent | None = None
    historySeed: list[Message] | None = Field(None, max_length=40)
    """Messages already exchanged with this Person."""


class PersonaRef(AnychatModel):
    """An existing Person, by id."""

    id: str = Field(max_length=64)


class PersonaPreset(AnychatModel):
    preset: Preset


class Appointment(AnychatModel):
    """An appointment that exists before the conversation starts."""

    startsIn: str = Field(pattern=DURATION_PATTERN)
    """ISO 8601 offset from now, e.g. P1DT10H (tomorrow 10:00), -PT2H (two hours ago)."""
    durationMinutes: Annotated[int, Field(ge=5, le=480), BeforeValidator(_integral)] | None = None
    representativeId: str | None = Field(None, max_length=200)
    status: AppointmentStatus | None = None


class OutreachStart(AnychatModel):
    """The agent opens the conversation with an Outreach."""

    outreachId: str | None = Field(None, max_length=200)
    """The Outreach that starts the conversation."""
    inputs: dict[str, FieldValue] | None = None
    """Opener slot values, e.g. {"checkInDate": "2026-10-14"}."""
    formData: dict[str, FieldValue] | None = None
    """What the intake form carried into the conversation."""
    campaign: bool | None = None
    """Record campaign attribution on this send."""


class Resume(AnychatModel):
    """Continue `history` with this Playbook active."""

    activePlaybook: str = Field(max_length=200)


class Start(AnychatModel):
    """How the conversation begins."""

    inbound: bool | None = None
    """The person writes first."""
    outreach: OutreachStart | None = None
    reminder: bool | None = None
    """An appointment reminder fires first."""
    resume: Resume | None = None


class Clock(AnychatModel):
    """A frozen clock for the run."""

    now: str | None = None
    """ISO date-time."""
    weekday: Weekday | None = None
    time: str | None = Field(None, pattern=CLOCK_TIME_PATTERN)
    """HH:MM, 24-hour."""
    timezone: str | None = Field(None, max_length=100)


class Scenario(AnychatModel):
    """What the agent and the Person know before the first turn."""

    _keeps_null: ClassVar[frozenset[str]] = frozenset({"persona"})

    channel: Channel | None = None
    provider: str | None = Field(None, max_length=40)
    persona: PersonaRef | PersonaPreset | None = None
    """null (no Person record), {id} of an existing Person, or {preset} to create one."""
    appointments: list[Appointment] | None = Field(None, max_length=5)
    start: Start | None = None
    history: list[Message] | None = Field(None, max_length=40)
    clock: Clock | None = None
    stubs: dict[str, Any] | None = None
    """Canned results for tools and integrations."""


# --- expectations -------------------------------------------------------------------------


class ReplyCount(AnychatModel):
    min: NonNegativeInt | None = None
    max: NonNegativeInt | None = None


class Checks(AnychatModel):
    """Deterministic checks on the run's trace and end state."""

    finalReplyNonEmpty: bool | None = None
    pickerShown: bool | None = None
    """An ask.time / ask.choice picker was sent."""
    appointmentCreated: bool | None = None
    activeAppointments: NonNegativeInt | None = None
    """Non-cancelled appointments at the end."""
    outcomes: list[str] | None = None
    """Outcomes recorded by the end."""
    activePlaybookAtEnd: str | None = None
    """Playbook id active after the last turn."""
    personFields: dict[str, CheckValue] | None = None
    """Person field key -> expected value (case-insensitive)."""
    chipsOnAnyTurn: list[str] | None = None
    chipsOnLastMessage: bool | None = None
    textIncludes: list[str] | None = None
    textExcludes: list[str] | None = None
    textMatches: list[str] | None = None
    """Regular expressions over the agent's text."""
    toolsCalled: dict[str, NonNegativeInt] | None = None
    """Tool name -> exact number of calls in the run (0: never); see docs/checks.md."""
    toolsNotCalled: list[str] | None = None
    noWarnings: bool | None = None
    maxModelCallsPerTurn: PositiveInt | None = None
    maxTurnsToOutcome: PositiveInt | None = None
    replyCount: ReplyCount | None = None
    noReplyTo: list[SystemEvent] | None = None
    """System events the agent must not answer."""
    partsOnLastTurn: list[PartKind] | None = Field(None, max_length=9)


class Criterion(AnychatModel):
    id: str = Field(pattern=CRITERION_ID_PATTERN)
    """Stable kebab-case id."""
    text: str = Field(min_length=1, max_length=1000)
    """One observable behaviour the judge grades."""


class Judge(AnychatModel):
    criteria: list[Criterion] | None = Field(None, max_length=20)


class Expect(AnychatModel):
    checks: Checks | None = None
    judge: Judge | None = None


# --- the case -----------------------------------------------------------------------------


class AnychatCase(AnychatModel):
    """One Anychat test case: brief, scenario, the Person's turns and the expectations."""

    key: str | None = Field(None, pattern=KEY_PATTERN)
    """Stable kebab-case id."""
    title: str = Field(min_length=1, max_length=300)
    brief: Brief | None = None
    notes: str | None = Field(None, max_length=4000)
    tags: list[Annotated[str, Field(max_length=60)]] | None = Field(None, max_length=20)
    samples: Annotated[int, Field(ge=1, le=5), BeforeValidator(_integral)] | None = None
    """Runs per case (the case is judged on its pass rate)."""
    origin: Origin | None = None
    scenario: Scenario | None = None
    turns: list[Turn] = Field(max_length=40)
    """The Person's side: text, or a chip/slot/confirm/system/action/media/simulate turn."""
    expect: Expect | None = None


def dump_case(case: BaseModel) -> dict[str, Any]:
    """The case as file data: only the keys that were set (a null persona included)."""
    return case.model_dump(mode="json", by_alias=True, exclude_unset=True)


__all__ = [
    "AnychatCase",
    "AnychatModel",
    "Appointment",
    "Brief",
    "Checks",
    "Clock",
    "Criterion",
    "Expect",
    "Judge",
    "Message",
    "Origin",
    "OutreachStart",
    "PersonaPreset",
    "PersonaRef",
    "Preset",
    "PresetFields",
    "Scenario",
    "Simulation",
    "Start",
    "Turn",
    "dump_case",
]
