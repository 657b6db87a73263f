"""What a Mantle walk records: where the agent waits (`Ask`), what the runtime records
(`Event`), what the behaviour decides (`Setup`) and the result (`Walk`).

Kept apart from what makes a walk (the reference agent run with a scripted user,
`_mantle_reference_walk`) so the drafter and the checks can read walks without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from evalcore.definitions import MantleDefinitions, MemoryField
from evalcore.definitions.conditions import condition_keys, evaluate

from ._mantle_tools import UNKNOWN
from ._mantle_vocab import example_value

#: Memory value the walk knows is set but not to what (an id, a label, a summary).
SET: Any = UNKNOWN


@dataclass(frozen=True)
class Ask:
    """A point where the agent waits for the user, and the answer the behaviour gives."""

    kind: str
    """identity | collect | instructions | ask_field | question | confirm"""
    skill: str
    step: str | None = None
    """The block step waiting (None while the skill is in prose: `autonomous`)."""
    block: str | None = None
    field: str | None = None
    """Qualified field the answer fills."""
    value: Any = None
    tool: str | None = None
    """confirm: the gated tool."""
    confirm: bool | None = None
    details: tuple[str, ...] = ()
    """identity: the details asked for; question: the question."""
    prompt: str | None = None
    """What the agent says when asking (response text, instructions or prose sentence);
    confirm: the variant the case's values select."""
    prompt_untold: bool = False
    """confirm: the confirmation's variants turn on a value the case leaves open, so which
    one the user hears cannot be told (`prompt` is then None)."""

    @property
    def step_id(self) -> str:
        """The step id skill events carry while the agent waits here."""
        return self.step or "autonomous"


@dataclass(frozen=True)
class Event:
    """One abstract recorded event (see reference §6 for the wire format)."""

    kind: str
    """skill_activated | skill_completed | block_entered | block_completed | memory | tool |
    utter | link"""
    skill: str | None = None
    block: str | None = None
    step: str | None = None
    key: str | None = None
    value: Any = SET
    tool: str | None = None
    source: str | None = None
    server: str | None = None
    arguments: Mapping[str, Any] = field(default_factory=dict)
    error: bool = False
    utter: str | None = None


@dataclass(frozen=True)
class Setup:
    """What the behaviour decides about the conversation."""

    values: Mapping[str, Any] = field(default_factory=dict)
    """Answer per qualified field."""
    given: frozenset[str] = frozenset()
    """Fields the user states before being asked (recorded right after activation)."""
    confirm: Mapping[str, bool] = field(default_factory=dict)
    """Gated tool -> the user's answer to the confirmation (default yes)."""
    failing: frozenset[str] = frozenset()
    """Tools that end in an error."""
    negative: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Tool -> keys it writes as false (or not at all): a check that comes back negative."""
    cues: frozenset[str] = frozenset()
    """Tools whose prose cue the user says (`skill_model.cues`): the walk takes the call and
    stops there."""
    memory: Mapping[str, Any] = field(default_factory=dict)
    """Memory at activation (seeded channel fields, a verification done earlier)."""
    entry: str = "user"
    """user | link | escalation: how the skill got the conversation."""
    context: str = ""
    """What the conversation was about when the skill was handed it (the customer's words or
    the linking skill's last message): a handed-over step picks its values from it."""


@dataclass
class Walk:
    skill: str
    asks: list[Ask] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    elements: list[str] = field(default_factory=list)
    memory: dict[str, Any] = field(default_factory=dict)
    outcome: str = "done"
    """done | declined | failed | negative | handoff"""
    handoff: str | None = None
    """The skill a `link:` handed the conversation to."""
    completed: bool = False
    """complete_when holds at the end of a `done` walk."""
    success: list[str] = field(default_factory=list)
    """Success signals of the skill's model this walk reaches (`tool:submit_claim`,
    `memory:file_claim.claim_id`, `response:utter_claim_filed`, `skill_completed:file_claim`)."""
    expected: list[str] = field(default_factory=list)
    """Success signals that apply to this walk's path (their mode condition holds)."""

    @property
    def reaches_success(self) -> bool:
        """True when the walk reaches a success tool of its path (or, when the path has no
        success tool, any success signal)."""
        tools = [s for s in self.expected if s.startswith("tool:")]
        wanted = tools or self.expected
        return bool(wanted) and any(s in self.success for s in wanted)

    def cover(self, element: str) -> None:
        if element not in self.elements:
            self.elements.append(element)

    def tools(self, name: str | None = None) -> list[Event]:
        return [e for e in self.events if e.kind == "tool" and (name is None or e.tool == name)]

    def utters(self) -> list[str]:
        return [e.utter for e in self.events if e.kind == "utter" and e.utter]


def sample_value(defs: MantleDefinitions, field_def: MemoryField) -> Any:
    """A plausible answer for a field the behaviour did not fix."""
    if field_def.type == "categorical" and field_def.enum_values:
        return field_def.named_values[0]
    if field_def.type == "float":
        return 60.0
    if field_def.type == "int":
        return 2
    if field_def.type == "bool":
        return not sets_off_an_aside(defs, field_def)
    return example_value(defs, field_def) or SET


def sets_off_an_aside(defs: MantleDefinitions, field_def: MemoryField) -> bool:
    """Whether a yes to the flag makes a skill say one of its `utter: when:` asides (an
    emergency warning on "was anyone hurt"): a circumstance the skill stops its procedure
    to answer, which a user whose case is not about it does not have. The plain answer
    keeps the main path; a behaviour about the aside fixes the flag itself."""
    rules = [r.when for skill in defs.skills.values() for r in skill.utter if r.when]
    read = [w for w in rules if field_def.qualified in condition_keys(w)]
    yes, no = {field_def.qualified: True}, {field_def.qualified: False}
    return any(evaluate(w, yes) and not evaluate(w, no) for w in read)


__all__ = ["SET", "Ask", "Event", "Setup", "Walk", "sample_value", "sets_off_an_aside"]
