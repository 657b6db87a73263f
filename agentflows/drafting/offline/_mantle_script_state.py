"""The record one Mantle case is drafted from: its seeds, walks, fact sheet and context."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evalcore.simulator import FactContext
from evalcore.testdata import Caller, FactSheet

from ...planning import Behavior
from ...planning.mantle_offers import Walk


@dataclass
class Script:
    """Everything the drafter writes from: the context and the walks behind it."""

    behavior: Behavior
    customer: Caller
    """The caller the seeded caller phone belongs to (the project's record, else built-in)."""
    seeds: dict[str, Any]
    """Qualified seed fields -> value (`setup.initial_slots`)."""
    walk: Walk
    """The planned skill's walk (up to the hand-over for an escalation)."""
    sheet: FactSheet
    other: Walk | None = None
    """The digression or hand-off skill's walk."""
    context: FactContext = field(default_factory=FactContext)
    handoff_skills: frozenset[str] = frozenset()
    """Skills that hand the conversation to a person (the conversation ends there)."""
    unheld: dict[str, str] = field(default_factory=dict)
    """Ids the user gives that no data file of the project holds (qualified field -> its
    name in words): drawn to the field's shape, so a service may not know them
    (`note_unheld`); what the agent tells from looking one up holds only where it does."""
    stated: dict[str, Any] = field(default_factory=dict)
    """Text fields read from the first message that the drafter gave a value (the opening
    says them): `request_values`."""
    told: dict[str, str] = field(default_factory=dict)
    """Held facts a details-up-front opening lists (label -> the field it fills): the agent
    has them from the first message and does not ask for them again."""
    needed: frozenset[str] = frozenset()
    """Fields a call reads that the walk set without a question of its own (`needed_values`):
    the user is told them, and no agent is sure to pass them as told."""
    prelude: Walk | None = None
    """The sign-in skill's walk, for a skill whose precondition only a sign-in makes true."""
    closed_by_return: bool = False
    """A digression whose skill asks or offers something on the case's path, which the user
    answers by asking to go back: that answer ends the detour."""

    @property
    def facts(self) -> dict[str, Any]:
        return self.behavior.facts

    @property
    def kind(self) -> str:
        return str(self.facts.get("kind"))

    @property
    def ends_in_handoff(self) -> bool:
        """True when a hand-off skill takes the conversation, unless the user refuses its
        gate (a declined hand-off ticket: nobody is passed on)."""
        if self.kind == "refusal":
            return False
        walks = [self.walk, *([self.other] if self.other else [])]
        return any(
            e.kind == "skill_activated" and e.skill in self.handoff_skills
            for w in walks
            for e in w.events
        )

    @property
    def handoff_outcome(self) -> str | None:
        """What shows the hand-off done, where the case asserts it: the reference a hand-off
        tool writes ("handoff_ticket_id" -> "ticket id"), else "confirmed" for a hand-off
        tool that runs; None where the hand-off calls no tool."""
        walks = [self.walk, *([self.other] if self.other else [])]
        events = [e for w in walks for e in w.events if e.skill in self.handoff_skills]
        if not any(e.kind == "tool" and not e.error for e in events):
            return None
        skill_words = {w for s in self.handoff_skills for w in s.lower().split("_")}
        for event in events:
            words = (event.key or "").rsplit(".", 1)[-1].lower().split("_")
            if event.kind == "memory" and words[-1] in ("id", "number", "reference"):
                noun = [w for w in words if w not in skill_words] or words[-1:]
                return " ".join(noun)
        return "confirmed"

    def lines(self) -> list[str]:
        """The words the context quotes (opening, cue lines), in context order."""
        c = self.context
        quoted = [c.opening, c.after_first, *(q.line for q in c.cues), c.before_end]
        return [line for line in quoted if line]


__all__ = ["Script"]
